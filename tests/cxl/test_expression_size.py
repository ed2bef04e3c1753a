"""Operators that state an operand twice in SQL (an overflow or null guard, a compare
before a pick) must not make the SQL of a nested expression grow exponentially: a
complex operand is evaluated once, and whatever still grows past the limit is refused
with CS065 before its SQL is printed. Each compile must finish well below a hang."""

from __future__ import annotations

import re
import time

import pytest

from clinker_sql.diagnostics import DiagnosticError
from clinker_sql.project import Project

I64_MIN = -9223372036854775808
BOUND = 5.0  # seconds; these took minutes or never finished before

PIPELINE = """pipeline:
  name: nest
nodes:
  - type: source
    name: src
    config:
      name: src
      type: csv
      path: ./in.csv
      schema:
        - {{ name: x, type: int }}
        - {{ name: y, type: int }}
        - {{ name: f, type: float }}
  - type: transform
    name: t
    input: src
    config:
      cxl: |
{body}
  - type: sink
    name: out
    input: t
    config:
      name: out
      type: csv
      path: ./out.csv
"""

FORMS = {
    "neg": lambda n: "-(" * n + "x" + ")" * n,
    "abs": lambda n: "x" + ".abs()" * n,
    "abs_sum": lambda n: "(" * n + "x" + " + 1).abs()" * n,
    "max": lambda n: "x" + ".max(y)" * n,
    "min": lambda n: "x" + ".min(y)" * n,
    "clamp": lambda n: "x" + ".clamp(y, 9)" * n,
    "neg_float": lambda n: "-(" * n + "f" + ")" * n,
    "round": lambda n: "f" + ".round(1)" * n,
    "div": lambda n: "(" * n + "x" + " / 2)" * n,
    "substring": lambda n: "x.to_string()" + ".substring(0, 3)" * n,
}


def _compile(tmp_path, body: str) -> tuple[float, str | None]:
    (tmp_path / "in.csv").write_text("x,y,f\n1,2,0.5\n", encoding="utf-8")
    lines = "\n".join("        " + line for line in body.splitlines())
    (tmp_path / "pipeline.yaml").write_text(PIPELINE.format(body=lines), encoding="utf-8")
    started = time.perf_counter()
    try:
        Project(tmp_path / "pipeline.yaml", tmp_path / "target").compile(base=tmp_path)
        code = None
    except DiagnosticError as exc:
        code = exc.diagnostics[0].code
    return time.perf_counter() - started, code


@pytest.mark.parametrize("depth", [10, 20, 40, 100])
@pytest.mark.parametrize("form", sorted(FORMS))
def test_nested_operators_compile_or_are_refused_quickly(tmp_path, form, depth):
    took, code = _compile(tmp_path, f"emit v = {FORMS[form](depth)}")
    # refused only for size (CS065) or for the parser's nesting limit (CS062)
    assert code in (None, "CS065", "CS062"), code
    assert took < BOUND, (form, depth, took)


@pytest.mark.parametrize("form", ["neg", "abs", "max", "min"])
def test_duplicating_operators_keep_forty_levels(tmp_path, form):
    # evaluated once each, a complex operand no longer doubles the SQL per level
    took, code = _compile(tmp_path, f"emit v = {FORMS[form](40)}")
    assert code is None
    assert took < BOUND


def test_let_chain_doubling_is_refused_with_the_limit_named(tmp_path):
    # each let reads the one before twice: its SQL doubles per line, written out
    body = "let a0 = x\n" + "\n".join(f"let a{i} = a{i - 1} + a{i - 1}" for i in range(1, 40))
    body += "\nemit v = a39"
    took, code = _compile(tmp_path, body)
    assert code == "CS065"
    assert took < BOUND
    with pytest.raises(DiagnosticError) as info:
        Project(tmp_path / "pipeline.yaml", tmp_path / "target").compile(base=tmp_path)
    d = info.value.diagnostics[0]
    assert "20000" in d.message
    # it points at the let whose value crosses the limit, not at the pipeline
    assert d.location is not None
    shown = d.render((tmp_path / "pipeline.yaml").read_text(encoding="utf-8"))
    assert re.search(r"\| +let a\d+ = a\d+ \+ a\d+\n", shown), shown


def test_nested_values_are_kept(cxl):
    r = cxl("-(-(-(a + 1)))", a=("int", 5))
    assert (r.value, r.error) == (-6, None)
    r = cxl("(-(a - 10)).abs().abs()", a=("int", 3))
    assert (r.value, r.error) == (7, None)
    r = cxl("(a + 1).max(b + 2).min(b - 1).max(a * 2)", a=("int", 4), b=("int", 3))
    assert (r.value, r.error) == (8, None)
    r = cxl("(a + 0).max(b)", a=("int", None), b=("int", 3))
    assert (r.value, r.error) == (None, None)


def test_nested_overflow_still_fails(cxl):
    r = cxl("-(-(a + 0))", a=("int", I64_MIN))
    assert r.error == "integer overflow in negation operation"
    r = cxl("(a + 0).abs().abs()", a=("int", I64_MIN))
    assert (r.value, r.error) == (I64_MIN, None)  # i64::MIN.abs() wraps, as in Clinker
