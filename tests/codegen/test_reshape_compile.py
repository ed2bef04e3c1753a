"""What a reshape compiles to and what it refuses (codegen/reshape.py, config/reshape.py),
without Spark: the node file reads like the rules, each CS001 site answers with its code
at compile time, and a rule expression that can fail gets its CS140 check."""

from __future__ import annotations

import pytest

from clinker_sql.codegen.compiler import compile_pipeline
from clinker_sql.config.parse import parse_pipeline
from clinker_sql.diagnostics import DiagnosticError


def _text(config: str, schema: str = "id: string, amount: int, label: string",
          source_extra: str = "") -> str:
    cols = "\n".join(f"        - {{ name: {c.split(':')[0].strip()}, type: "
                     f"{c.split(':')[1].strip()} }}" for c in schema.split(","))
    body = "".join(f"      {line}\n" for line in config.strip("\n").splitlines())
    return f"""
pipeline:
  name: rs
nodes:
  - type: source
    name: src
    config:
      name: src
      type: csv
      path: in.csv{source_extra}
      schema:
{cols}
  - type: reshape
    name: rs
    input: src
    config:
{body}  - type: sink
    name: out
    input: rs
    config:
      name: out
      type: csv
      path: out.csv
"""


RULE = """
partition_by: [id]
rules:
  - name: r
    when: "amount > 0"
    mutate:
      set:
        label: {value}
"""


def _compile(text: str):
    return compile_pipeline(parse_pipeline(text, "p.yaml"))


def _code(text: str) -> tuple[str, str]:
    with pytest.raises(DiagnosticError) as info:
        _compile(text)
    d = info.value.diagnostics[0]
    return d.code, d.message


CONFLICTING = RULE.format(value="\"'x'\"") + "  - name: q\n    when: \"amount > 5\"\n" \
    "    mutate:\n      set:\n        label: \"'y'\"\n"
CONTINUE = ("nodes:", "error_handling:\n  strategy: continue\nnodes:")


def test_rules_that_can_conflict_get_the_groups_and_errors_views():
    compiled = _compile(_text(CONFLICTING).replace(*CONTINUE))
    names = {s.name for s in compiled.statements if s.node == "rs"}
    assert {"rs.rules", "rs.groups", "rs", "rs.errors"} <= names
    assert not any(s.kind == "check" and s.node == "rs" for s in compiled.statements)


def test_rules_that_cannot_conflict_need_no_grouping():
    compiled = _compile(_text(RULE.format(value="\"'x'\"")))
    names = {s.name for s in compiled.statements if s.node == "rs"}
    assert {"rs.rules", "rs"} <= names and not {"rs.groups", "rs.errors"} & names


def test_a_rule_expression_that_can_fail_gets_a_stopping_check():
    compiled = _compile(_text(RULE.format(value='"(amount / 0).to_string()"')))
    checks = [s for s in compiled.statements if s.kind == "check" and s.node == "rs"]
    assert [c.step.code for c in checks] == ["CS140"]


@pytest.mark.parametrize("text,needle", [
    (_text(RULE.format(value="amount")), "is of type int"),
    (_text(RULE.format(value="\"'x'\"").replace(
        "partition_by: [id]", "partition_by: [id]\norder_by:\n"
        "  - { field: amount, null_order: first }")),
     "sorts nulls last"),
    (_text(RULE.format(value="\"'x'\"") + RULE.split("rules:\n")[1].format(value="\"'y'\"")),
     "two rules named"),
    (_text("""
partition_by: [id]
rules:
  - name: r
    when: "amount > 0"
    synthesize:
      copy_from: trigger
      overrides:
        other: "'x'"
"""), "names no upstream column"),
    (_text(RULE.format(value="\"'x'\""), source_extra="\n      correlation_key: id"),
     "correlation keys"),
])
def test_refusals_are_cs001(text, needle):
    code, message = _code(text)
    assert code == "CS001" and needle in message


def test_rules_that_can_conflict_under_fail_fast_are_refused():
    code, message = _code(_text(CONFLICTING))  # no error_handling: fail_fast
    assert code == "CS001" and "fail_fast" in message


def test_a_when_that_is_not_boolean_is_e200():
    code, message = _code(_text(RULE.format(value="\"'x'\"").replace(
        '"amount > 0"', '"amount"')))
    assert code == "E200" and "when must be a boolean" in message
