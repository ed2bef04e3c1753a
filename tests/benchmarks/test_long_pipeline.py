"""Long pipelines: a 200-node pipeline compiles fast without Java, and a 200-transform
chain runs on Spark without hitting the nested-view limit (codegen/materialize.py)."""

from __future__ import annotations

import time
from pathlib import Path

from clinker_sql.codegen.compiler import compile_pipeline
from clinker_sql.codegen.materialize import MAX_DEPTH
from clinker_sql.config.parse import load_pipeline
from clinker_sql.runtime import local
from tests.e2e.pipelines import run

HEADER = """pipeline:
  name: long
error_handling:
  strategy: continue
  dlq:
    path: {dir}/out/dlq.csv
nodes:
  - type: source
    name: src
    config:
      name: src
      type: csv
      path: {dir}/in.csv
      schema:
        - { name: id, type: int }
        - { name: v, type: string }
"""
SINK = """  - type: sink
    name: out
    input: {input}
    config:
      name: out
      type: csv
      path: {dir}/out/out.csv
"""


def transform(name: str, upstream: str, i: int) -> str:
    return (f"  - type: transform\n    name: {name}\n    input: {upstream}\n    config:\n"
            f"      cxl: |\n        emit v = v + \"x\"\n        emit n{i % 5} = id + {i}\n")


def chain(transforms: int) -> str:
    parts, prev = [HEADER], "src"
    for i in range(transforms):
        parts.append(transform(f"t{i}", prev, i))
        prev = f"t{i}"
    return "".join(parts) + SINK.replace("{input}", prev)


def branching(nodes: int) -> str:
    """A chain of transforms with a route into two transforms merged back every 10 nodes;
    `nodes` counts every node, the source and the sink included."""
    parts, prev, count, i = [HEADER], "src", 2, 0
    while count < nodes:
        if i % 10 == 9 and nodes - count >= 4:
            parts.append(f"  - type: route\n    name: r{i}\n    input: {prev}\n    config:\n"
                         f"      mode: exclusive\n      conditions:\n"
                         f"        even: \"id % 2 == 0\"\n      default: odd\n")
            parts.append(transform(f"e{i}", f"r{i}.even", i))
            parts.append(transform(f"o{i}", f"r{i}.odd", i + 1))
            parts.append(f"  - type: merge\n    name: m{i}\n    inputs: [e{i}, o{i}]\n")
            prev, count = f"m{i}", count + 4
        else:
            parts.append(transform(f"t{i}", prev, i))
            prev, count = f"t{i}", count + 1
        i += 1
    return "".join(parts) + SINK.replace("{input}", prev)


def _write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "pipeline.yaml"
    path.write_text(text.replace("{dir}", str(tmp_path)), encoding="utf-8")
    return path


def test_200_node_pipeline_compiles_fast_without_java(tmp_path, monkeypatch):
    monkeypatch.setenv("JAVA_HOME", str(tmp_path / "no-java"))
    monkeypatch.setenv("PATH", str(tmp_path))
    path = _write(tmp_path, branching(200))
    pipeline = load_pipeline(path, allow_absolute_paths=True)
    assert len(pipeline.nodes) == 200
    session = local._session  # another test may have started Spark before this one
    cpu, wall = time.process_time(), time.perf_counter()
    compiled = compile_pipeline(pipeline)
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    # The goal is 2 s; the bound is generous for a loaded CI machine (it is a smoke
    # bound: CPU time of this process, so that other processes on the machine count less).
    # A transform is two statements since its node view and its fault view were split
    # (codegen/node_view.py), 815 statements here instead of 631: the bound moved with
    # them, from 4 s to 5 s; benchmarks/ tracks the compile time itself.
    assert cpu < 5.0, f"compiling 200 nodes took {cpu:.2f} s of CPU ({wall:.2f} s wall)"
    assert any(s.kind == "checkpoint" and s.node for s in compiled.statements)
    assert local._session is session  # compiling never starts Spark


def _nesting(statements) -> int:
    """The deepest chain of views any statement plans, given the checkpoints."""
    depth: dict[str, int] = {}
    worst = 0
    for s in statements:
        if s.kind == "checkpoint":
            depth[s.name] = 1
            continue
        d = 1 + max((depth.get(r, 0) for r in s.reads), default=0)
        worst = max(worst, d)
        if s.kind == "view":
            depth[s.name] = d
    return worst


def test_long_chain_stays_under_the_view_depth_limit(tmp_path):
    path = _write(tmp_path, chain(200))
    compiled = compile_pipeline(load_pipeline(path, allow_absolute_paths=True))
    assert _nesting(compiled.statements) <= MAX_DEPTH + 1 < 100


def test_200_transform_chain_runs_on_spark(executor, tmp_path):
    r = run(executor, tmp_path, chain(200), {"in.csv": "id,v\n1,a\n2,b\n3,c\n"})
    rows = r.rows("out.csv")
    assert [row["id"] for row in rows] == ["1", "2", "3"]
    assert [row["v"] for row in rows] == [c + "x" * 200 for c in "abc"]
    # n<k> is last emitted by the transform t<i> with the largest i = k (mod 5)
    assert [row["n4"] for row in rows] == [str(i + 199) for i in (1, 2, 3)]
    assert [row["n0"] for row in rows] == [str(i + 195) for i in (1, 2, 3)]
    assert r.result.counts["dlq"] == 0
