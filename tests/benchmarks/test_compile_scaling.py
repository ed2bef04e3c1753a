"""Compile and validate cost as pipelines grow: ratios between a size and four times it,
in CPU time of this process (the best of a few runs), so that a loaded machine slows
both sides alike. A step that redoes the work of everything before it (a copy of the
whole expression per branch, a schema of every earlier view per statement) shows as a
ratio far above the bound: a CASE of n faults built by copying itself per branch made
64 `+` terms cost 21 times 16 terms."""

from __future__ import annotations

import gc
import time
from pathlib import Path

from clinker_sql.codegen.compiler import compile_pipeline
from clinker_sql.config.parse import load_pipeline
from clinker_sql.diagnostics import DiagnosticError
from clinker_sql.inspect.sqlcheck import check_statements

HEADER = """pipeline:
  name: scaling
error_handling:
  strategy: continue
  dlq:
    path: ./out/dlq.csv
nodes:
  - type: source
    name: src
    config:
      name: src
      type: csv
      path: ./in.csv
      schema:
        - { name: a, type: int }
        - { name: x, type: int }
"""
SINK = """  - type: sink
    name: out
    input: {input}
    config:
      name: out
      type: csv
      path: ./out/out.csv
"""


def terms(n: int) -> str:
    """One transform whose expression is a chain of `n` terms (`a + a + ... + a`)."""
    return HEADER + (f"  - type: transform\n    name: t\n    input: src\n    config:\n"
                     f"      cxl: |\n        emit t = {' + '.join(['a'] * n)}\n"
                     ) + SINK.format(input="t")


def chain(n: int) -> str:
    """`n` transforms, each reading the one before it."""
    parts, prev = [HEADER], "src"
    for i in range(n):
        parts.append(f"  - type: transform\n    name: t{i}\n    input: {prev}\n    config:\n"
                     f"      cxl: |\n        emit x = x + 1\n")
        prev = f"t{i}"
    return "".join(parts) + SINK.format(input=prev)


def lets(n: int) -> str:
    """One transform whose `n` lets each read the one before it."""
    body = "".join(f"        let x{i} = x{i - 1} + a\n" for i in range(1, n))
    return HEADER + (f"  - type: transform\n    name: t\n    input: src\n    config:\n"
                     f"      cxl: |\n        let x0 = a\n{body}        emit t = x{n - 1}\n"
                     ) + SINK.format(input="t")


def _pipeline(tmp_path: Path, name: str, text: str):
    folder = tmp_path / name
    folder.mkdir()
    (folder / "in.csv").write_text("a,x\n1,2\n", encoding="utf-8")
    (folder / "pipeline.yaml").write_text(text, encoding="utf-8")
    return load_pipeline(folder / "pipeline.yaml"), folder


def _cpu(tmp_path: Path, name: str, text: str, runs: int = 3) -> tuple[float, float]:
    """The best CPU times of `runs` compiles, and of as many checks (`validate`'s sqlglot
    pass over the compiled statements)."""
    pipeline, folder = _pipeline(tmp_path, name, text)
    compiling = checking = float("inf")
    # as timeit does, the collector is off while timing: in a full test session its
    # passes walk every object the session holds (the collected tests among them), so
    # they would charge a larger compile for the size of the session, not its own
    gc.collect()
    gc.disable()
    try:
        for _ in range(runs):
            start = time.process_time()
            compiled = compile_pipeline(pipeline, folder)
            middle = time.process_time()
            check_statements(pipeline, compiled)
            compiling = min(compiling, middle - start)
            checking = min(checking, time.process_time() - middle)
    finally:
        gc.enable()
    return compiling, checking


def test_compile_time_of_an_expression_four_times_longer(tmp_path):
    small, _ = _cpu(tmp_path, "t16", terms(16))
    large, _ = _cpu(tmp_path, "t64", terms(64))
    assert large <= 8 * small, f"16 terms: {small:.3f} s, 64 terms: {large:.3f} s"


def test_validate_time_of_a_chain_four_times_longer(tmp_path):
    """The check is linear in the chain (about 4x here; it was 9x, a schema of every
    earlier view per statement); compiling is too. A chain of 300 validates in a few
    seconds (it took 16 s of CPU, and 282 s on a slower machine)."""
    small = _cpu(tmp_path, "c75", chain(75), runs=2)
    large = _cpu(tmp_path, "c300", chain(300), runs=1)
    assert large[1] <= 6 * small[1], f"check: 75 transforms {small[1]:.2f} s, 300: {large[1]:.2f}"
    assert large[0] <= 8 * small[0], f"compile: 75 transforms {small[0]:.2f} s, 300: {large[0]:.2f}"
    assert sum(large) < 60, f"a chain of 300 transforms validated in {sum(large):.1f} s of CPU"


def test_expression_over_the_nesting_limit_is_refused_fast(tmp_path):
    """3,000 terms, and a chain of 300 lets (each shallow, but their SQL nests one level
    per let): both refused with the limit named, long before their SQL is built."""
    for name, text in (("t3000", terms(3000)), ("l300", lets(300))):
        pipeline, folder = _pipeline(tmp_path, name, text)
        start = time.process_time()
        try:
            compile_pipeline(pipeline, folder)
        except DiagnosticError as exc:
            d = exc.diagnostics[0]
            assert d.code == "CS062" and "limit" in d.message, d.message
        else:
            raise AssertionError(f"{name} compiled")
        assert time.process_time() - start < 5
