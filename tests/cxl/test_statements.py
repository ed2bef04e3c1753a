"""Compile-time behaviour of the statements `distinct`, `emit each` and `use` (no Spark):
Clinker's parse errors (E202), type errors (E200), unresolved names (E203), and the
combinations refused with CS001. Their run-time behaviour is tested end to end in
tests/e2e/test_distinct.py and tests/e2e/test_fanout.py."""

from __future__ import annotations

import pytest

from clinker_sql import sqlbuild as S
from clinker_sql.config.parse import parse_pipeline
from clinker_sql.codegen.compiler import compile_pipeline
from clinker_sql.cxl import types as T
from clinker_sql.cxl.errors import CxlError
from clinker_sql.cxl.lower import Scope
from clinker_sql.cxl.program import lower_program
from clinker_sql.diagnostics import DiagnosticError

COLUMNS = {"n": T.INT, "s": T.STRING, "xs": T.array_of(T.STRING), "f": T.FLOAT}


def lower(text: str, fanout: bool = True):
    scope = Scope(columns={k: (S.col(k), t) for k, t in COLUMNS.items()})
    return lower_program(text, scope, fanout=fanout)


def code_of(text: str, fanout: bool = True) -> str:
    with pytest.raises(CxlError) as info:
        lower(text, fanout)
    return info.value.code


REJECTED = [
    # parse errors, as in Clinker's parse_distinct / parse_emit_each
    ("distinct n", "E202"),
    ("distinct by", "E202"),
    ("distinct by emit", "E202"),
    ("emit each in xs { }", "E202"),
    ("emit each x xs { }", "E202"),
    ("emit each x in xs\n{ }", "E202"),
    ("emit each x in xs { emit y = x", "E202"),
    ("emit each x in xs { }\nuse a.b", "E202"),
    ("".join(f"emit each x{i} in xs {{ " for i in range(33)) + "}" * 33, "E202"),
    # types (typecheck: the source must be an Array; outer also takes null)
    ("emit each x in s { }", "E200"),
    ("emit each x in n { }", "E200"),
    ("emit each x in null { }", "E200"),
    ("emit each x in xs { filter x }", "E200"),
    # names: body lets and the binding are not visible after the block; emits never are
    ("emit each x in xs { let y = x }\nemit z = y", "E203"),
    ("emit each x in xs { }\nemit z = x", "E203"),
    ("emit each x in xs { emit v = x }\nemit w = v", "E203"),
    ("emit each x in xs { emit v = nope }", "E203"),
    # refused combinations
    ("emit each x in xs { let n = 1 }", "CS001"),  # rebinds an input field
    ("let k = 1\nemit each x in xs { let k = 2 }", "CS001"),  # rebinds an outer let
    ("emit each x in xs { let y = x }\ndistinct by y", "CS001"),  # reads a body let
    ("emit each x in xs { emit n = x }", "CS001"),  # n: string in records, int otherwise
    ("emit each x in xs { emit $record.k = x }", "CS001"),
    ("use shared.rules", "CS001"),
    ("use shared.rules as r\nemit a = 1", "CS001"),
]


@pytest.mark.parametrize("text,code", REJECTED)
def test_rejected(text, code):
    assert code_of(text) == code


def test_use_outside_a_pipeline_compile_names_the_module():
    """A program lowered on its own has no workspace to find modules in; a pipeline's
    compile resolves them (tests/cxl/test_modules.py)."""
    with pytest.raises(CxlError) as info:
        lower("use shared.rules as r")
    assert "use shared.rules" in info.value.message
    assert "resolved only when a pipeline file is compiled" in info.value.message
    assert (info.value.line, info.value.col) == (1, 1)


@pytest.mark.parametrize("text", ["distinct", "distinct by n", "emit each x in xs { }"])
def test_outside_a_transform_these_statements_are_refused(text):
    assert code_of(text, fanout=False) == "CS001"


ACCEPTED = [
    "distinct",
    "distinct\nemit a = 1",
    "distinct by nowhere",  # Clinker reads a missing field as null
    "let k = n * 2\ndistinct by k\ndistinct by s",
    "emit each x in null outer { emit v = x }",
    "emit each it in xs { emit v = it }",  # `it` may be the binding
    "emit each x in xs { let x = x.upper()\nemit v = x }",  # rebinding the binding is fine
    "emit each x in xs { emit n = x.length() }",  # same type as the field it overwrites
    "emit each x in xs outer { emit n = x }",  # outer always produces a record: no clash
    "emit each x in xs { trace warn if true \"t\"\nemit v = x }",
    "emit each x in xs { emit each y in [1, 2] { emit v = x + y.to_string() } }",
    "emit each x in xs { emit v = x } emit each y in [1] { emit w = y }",
    "emit each x in xs { }",
]


@pytest.mark.parametrize("text", ACCEPTED)
def test_accepted(text):
    lower(text)


def test_columns_in_first_emit_order_with_unified_types():
    p = lower("emit a = 1\nemit each x in xs { emit b = x\nemit a = 2.5 }\nemit c = 3")
    assert list(p.columns.items()) == [("a", T.FLOAT), ("b", T.STRING), ("c", T.INT)]
    assert p.falls_back
    assert not lower("emit each x in xs outer { emit b = x }").falls_back
    assert lower("emit each x in xs outer { emit each y in xs { } }").falls_back


def _compile(yaml: str):
    return compile_pipeline(parse_pipeline(yaml, "p.yaml"))


PIPELINE = """
pipeline:
  name: p
nodes:
  - type: source
    name: src
    config:
      name: src
      type: csv
      path: in.csv
      correlation_key: g
      schema:
        - { name: g, type: string }
        - { name: d, type: string }
        - { name: v, type: int }
  - type: aggregate
    name: totals
    input: src
    config:
      group_by: [d]
      cxl: |
        emit total = sum(v)
  - type: transform
    name: win
    input: totals
    config:
      analytic_window:
        group_by: [d]
      cxl: |
        emit r = $window.row_number()
        %s
  - type: sink
    name: out
    input: win
    config:
      name: out
      type: csv
      path: out.csv
"""


def test_distinct_in_a_buffer_mode_window_is_refused():
    with pytest.raises(DiagnosticError) as info:
        _compile(PIPELINE % "distinct by total")
    d = info.value.diagnostics[0]
    assert d.code == "CS001" and "buffer mode" in d.message
    _compile(PIPELINE % "emit each x in [1, 2] { emit k = x }")  # fan-out is fine there


def test_max_expansion_must_not_be_negative():
    yaml = PIPELINE.replace("      analytic_window:", "      max_expansion: -1\n"
                            "      analytic_window:") % ""
    with pytest.raises(DiagnosticError) as info:
        _compile(yaml)
    assert info.value.diagnostics[0].code == "E000"


def test_a_lone_surrogate_is_a_parse_error_not_a_crash():
    # YAML's "\ud800" escape yields one; Python cannot encode it as UTF-8
    with pytest.raises(CxlError) as info:
        lower('emit a = 1\nemit b = "x\ud800"')
    assert (info.value.code, info.value.line, info.value.col) == ("E202", 2, 12)
