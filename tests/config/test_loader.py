"""Bad pipeline files: each is a coded diagnostic with a location, never a traceback."""

from __future__ import annotations

import textwrap

import pytest

from clinker_sql.codegen.compiler import compile_pipeline
from clinker_sql.config.parse import parse_pipeline
from clinker_sql.diagnostics import DiagnosticError

GOOD = """\
pipeline:
  name: p
nodes:
  - type: source
    name: src
    config:
      name: src
      type: csv
      path: ./in.csv
      schema:
        - { name: id, type: string }
        - { name: n, type: int }
  - type: transform
    name: t
    input: src
    config:
      cxl: |
        emit id = id
        emit doubled = n * 2
  - type: sink
    name: out
    input: t
    config:
      name: out
      type: csv
      path: ./out.csv
"""


def diagnose(text: str):
    with pytest.raises(DiagnosticError) as info:
        compile_pipeline(parse_pipeline(textwrap.dedent(text), "p.yaml"))
    return info.value.diagnostics[0]


def test_good_pipeline_compiles():
    compiled = compile_pipeline(parse_pipeline(GOOD, "p.yaml"))
    assert any(s.kind == "write" for s in compiled.statements)


def test_malformed_yaml():
    d = diagnose("pipeline: [unclosed\n")
    assert d.code == "E000" and d.location.line >= 1


def test_unknown_field_points_at_the_key():
    d = diagnose(GOOD.replace("      path: ./out.csv", "      path: ./out.csv\n      colour: red"))
    assert d.code == "E000" and "colour" in d.message
    assert (d.location.line, d.location.column) == (27, 7)


def test_unknown_field_inside_source_config_is_rejected():
    d = diagnose(GOOD.replace("      path: ./in.csv", "      path: ./in.csv\n"
                              "      include_correlation_key: true"))
    assert d.code == "E000" and "include_correlation_key" in d.message


def test_wrong_type_for_a_field():
    d = diagnose(GOOD.replace("name: out\n    input: t", "name: out\n    input: [t]"))
    assert d.code == "E000" and d.location.line == 22


def test_missing_input_reference():
    d = diagnose(GOOD.replace("input: t", "input: nope"))
    assert d.code == "E004" and "nope" in d.message and d.location.line == 22


def test_cycle():
    text = GOOD.replace("input: src", "input: t2") + (
        "  - type: transform\n"
        "    name: t2\n"
        "    input: t\n"
        "    config:\n"
        "      cxl: emit id = id\n")
    d = diagnose(text)
    assert d.code == "E003" and "t2" in d.message


def test_duplicate_and_dotted_names():
    assert diagnose(GOOD.replace("name: t\n", "name: src\n")).code == "E001"
    assert diagnose(GOOD.replace("name: t\n", "name: t.x\n")).code == "E010"


def test_correlation_key_not_in_schema():
    d = diagnose(GOOD.replace("      path: ./in.csv", "      path: ./in.csv\n"
                              "      correlation_key: missing"))
    assert d.code == "E153" and "missing" in d.message


def test_cxl_errors_point_into_the_yaml():
    d = diagnose(GOOD.replace("emit doubled = n * 2", "emit doubled = nn * 2"))
    assert d.code == "E203" and "nn" in d.message
    assert (d.location.line, d.location.column) == (19, 24)


def test_cxl_parse_error():
    d = diagnose(GOOD.replace("emit doubled = n * 2", "emit doubled = (n * 2"))
    assert d.code == "E202"


def test_type_error():
    d = diagnose(GOOD.replace("emit doubled = n * 2", "emit doubled = n * 'x'"))
    assert d.code == "E200"


def test_name_used_before_let():
    d = diagnose(GOOD.replace("emit doubled = n * 2", "emit doubled = k\n        let k = 1"))
    assert d.code == "E203"


def test_output_is_not_a_node_type():
    d = diagnose(GOOD.replace("type: sink", "type: output"))
    assert d.code == "E376" and "type: sink" in d.hint


def test_best_effort_is_not_a_strategy():
    d = diagnose(GOOD + "error_handling:\n  strategy: best_effort\n  dlq:\n    path: ./dlq.csv\n")
    assert d.code == "E000" and "is not a strategy" in d.message
    assert "strategy: continue" in d.hint


def test_continue_without_a_dlq_compiles_and_writes_no_dlq_file():
    compiled = compile_pipeline(parse_pipeline(GOOD + "error_handling:\n  strategy: continue\n",
                                               "p.yaml"))
    assert compiled.strategy == "continue"
    assert compiled.dlq is None and not [s for s in compiled.statements if s.kind == "write" and s.step.dlq]


def test_unsupported_nodes_are_refused_not_mistranslated():
    d = diagnose(GOOD.replace("type: transform", "type: envelope"))
    assert d.code == "CS001"


def test_rendered_diagnostic_shows_the_line():
    d = diagnose(GOOD.replace("input: t", "input: nope"))
    text = d.render(textwrap.dedent(GOOD.replace("input: t", "input: nope")))
    assert "error[E004]" in text and "input: nope" in text and "^" in text


def test_a_generated_schema_is_only_for_edi():
    d = diagnose(GOOD.replace("      schema:\n        - { name: id, type: string }\n"
                              "        - { name: n, type: int }\n",
                              "      schema: { generated: {} }\n"))
    assert d.code == "E159"


def test_two_sinks_on_one_file_collide():
    second = GOOD[GOOD.index("  - type: sink"):].replace("name: out", "name: out2")
    d = diagnose(GOOD + second)
    assert d.code == "E322" and "collides" in d.message


@pytest.mark.parametrize("config", [
    # Clinker's output_mapping_validation.rs: a mapping that reads a column its own
    # exclude: removes, and one whose output name include_unmapped would carry twice
    "      exclude: [doubled]\n      mapping:\n        - twice: doubled\n",
    "      include_unmapped: true\n      mapping:\n        - doubled: id\n"])
def test_mapping_conflicts_are_e364(config):
    d = diagnose(GOOD + config)
    assert d.code == "E364"


def test_merging_sources_that_disagree_on_unmapped_columns_is_e315():
    """Clinker's bind_schema_test.rs test_merge_mixed_on_unmapped_policy_emits_e315."""
    source = GOOD[GOOD.index("  - type: source"):GOOD.index("  - type: transform")]
    other = source.replace("name: src", "name: b").replace("./in.csv", "./b.csv").replace(
        "      schema:", "      on_unmapped: { mode: drop }\n      schema:")
    text = GOOD.replace("  - type: transform", other + "  - type: merge\n    name: both\n"
                        "    inputs: [src, b]\n  - type: transform").replace(
        "    input: src\n", "    input: both\n")
    d = diagnose(text)
    assert d.code == "E315" and "src" in d.message and "b" in d.message
    assert compile_pipeline(parse_pipeline(text.replace("mode: drop", "mode: auto_widen"),
                                           "p.yaml"))


def _with_log(directive: str) -> str:
    return GOOD.replace("        emit doubled = n * 2\n",
                        "        emit doubled = n * 2\n      log:\n        - " + directive + "\n")


def test_a_log_directive_is_checked_against_the_input_row():
    """Clinker's transform_observability.rs: fields and condition read the INPUT row."""
    base = "{ name: seen, level: info, when: per_record, message: hi"
    assert compile_pipeline(parse_pipeline(_with_log(base + ", fields: [id, n], "
                                                     "condition: 'n > 1' }"), "p.yaml"))
    d = diagnose(_with_log(base + ", fields: [doubled] }"))  # an output, not an input
    assert d.code == "E374" and "doubled" in d.message
    d = diagnose(_with_log(base + ", condition: \"n > 1\\ndistinct\" }"))
    assert d.code == "E373" and "2 statements" in d.message
    d = diagnose(_with_log(base + ", condition: 'nope > 1' }"))
    assert d.code != "E373" and "nope" in d.message
    assert diagnose(_with_log("{ name: seen, level: loud, when: per_record, message: hi }")
                    ).code == "E000"


def test_one_log_event_name_carries_one_field_set():
    """Clinker's validate_log_event_shapes (E375), compared as sets."""
    text = _with_log("{ name: seen, level: info, when: per_record, message: a, fields: [id] }")
    again = ("      log:\n        - { name: seen, level: warn, when: on_error, message: b, "
             "fields: FIELDS }\n")
    second = ("  - type: transform\n    name: t2\n    input: t\n    config:\n      cxl: |\n"
              "        emit id = id\n" + again)
    two = text.replace("  - type: sink", second + "  - type: sink").replace(
        "    input: t\n    config:\n      name: out", "    input: t2\n    config:\n      name: out")
    assert compile_pipeline(parse_pipeline(two.replace("FIELDS", "[id, id]"), "p.yaml"))
    d = diagnose(two.replace("FIELDS", "[id, n]"))
    assert d.code == "E375" and "'t'" in d.message


_CONTINUE = "error_handling:\n  strategy: continue\n  dlq:\n    path: ./dlq.csv\nnodes:"


@pytest.mark.parametrize("edit,code", [
    # checked as Clinker checks them, then refused: clinker-sql does not run these
    ((_CONTINUE.replace("./dlq.csv", "./dlq.csv\n    per_source:\n      src:\n"
                        "        path: ./dlq.csv"), None), "E318"),
    ((_CONTINUE.replace("./dlq.csv", "./dlq.csv\n    per_source:\n      t:\n"
                        "        max_rate: 0.5"), None), "E317"),
    ((_CONTINUE, "      dlq_granularity: document\n      correlation_key: id\n"), "E370"),
    ((None, "      dlq_granularity: document\n"), "E344"),
    ((None, "      watermark: { column: id }\n"), "E155"),
    ((None, "      watermark: { column: when }\n"), "E154"),
    # a watermark with Clinker's `delay` and `idle_timeout` is read, its column checked
    ((None, "      watermark: { column: id, delay: 5s, idle_timeout: 30s }\n"), "E155"),
    ((None, "      files: { take_first: 1, take_last: 2 }\n"), "E218"),
    ((None, "      files: { take_first: 1 }\n"), "CS001")])
def test_accepted_but_unsupported_keys_are_checked_first(edit, code):
    errors, source_lines = edit
    text = GOOD.replace("nodes:", errors) if errors else GOOD
    if source_lines:
        text = text.replace("      schema:\n", source_lines + "      schema:\n", 1)
    assert diagnose(text).code == code


@pytest.mark.parametrize("value", ["1.5", "-0.1", ".nan"])
def test_a_type_error_threshold_outside_zero_to_one_is_e368(value):
    d = diagnose(GOOD.replace("nodes:", _CONTINUE.replace(
        "nodes:", f"  type_error_threshold: {value}\nnodes:")))
    assert d.code == "E368" and d.exit_code == 1


CULL = """\
pipeline:
  name: p
nodes:
  - type: source
    name: src
    config:
      name: src
      type: csv
      path: ./in.csv
      schema:
        - { name: id, type: string }
        - { name: n, type: int }
  - type: cull
    name: c
    input: src
    config:
      partition_by: [id]
      removed_to: RULES_AND_PORT
  - type: sink
    name: out
    input: READ
    config:
      name: out
      type: csv
      path: ./out.csv
"""


def _cull(rules: str = "review\n      rules:\n        - { name: big, drop_group_when: "
          "'count(*) > 3' }", read: str = "c") -> str:
    return CULL.replace("RULES_AND_PORT", rules).replace("READ", read)


@pytest.mark.parametrize("text, code, words", [
    (_cull("review\n      rules: []"), "E200", "at least one removal rule"),
    (_cull("c\n      rules:\n        - { name: r, drop_group_when: 'count(*) > 1' }"), "E200",
     "collides with the node's own name"),
    (_cull(read="c.elsewhere"), "E004", "has no port 'elsewhere'"),
    (_cull("review\n      rules:\n        - { name: r, drop_group_when: 'sum(n) / 0 > 1' }"),
     "CS001", "can fail while it is decided"),
    (_cull("review\n      rules:\n        - { name: r, drop_group_when: 'sum(n)' }"), "E200",
     "must be a boolean"),
    (_cull("review\n      rules:\n        - { name: r, drop_group_when: 'count(*) > 1' }")
     .replace("partition_by: [id]", "partition_by: [nope]"), "E200",
     "partition_by field 'nope' is not present"),
])
def test_cull_diagnostics(text, code, words):
    d = diagnose(text)
    assert (d.code, words in d.message) == (code, True), d.message


def test_a_cull_compiles_to_a_decision_and_two_ports():
    compiled = compile_pipeline(parse_pipeline(_cull(read="c.review"), "p.yaml"))
    views = {s.name for s in compiled.statements if s.kind == "view"}
    assert {"c.eval", "c.decide", "c", "c.review"} <= views


_JSON_SOURCE = GOOD.replace("      type: csv\n      path: ./in.csv",
                            "      type: json\n      path: ./in.json{extra}").replace(
    "        - { name: n, type: int }",
    "        - { name: n, type: int }\n        - { name: tags, type: string, multiple: true }")


@pytest.mark.parametrize("extra,code,words", [
    # a well-formed declaration gets past Clinker's checks and is then refused, never ignored
    ("\n      split_to_rows: [items]", "CS001", "split_to_rows"),
    ("\n      split_to_rows:\n        - { field: items, mode: split, position_column: i }",
     "CS001", "split_to_rows"),
    ("\n      split_values: [tags]", "CS001", "split_values"),
    # Clinker's E358 checks come first (multi_value.rs validate_source_declarations)
    ("\n      split_to_rows: [items, items]", "E358", "more than once"),
    ("\n      split_to_rows: [items, items.sub]", "E358", "nest"),
    ("\n      split_to_rows: [tags]", "E358", "multiple: true"),
    ("\n      split_values: [{ field: tags, escape: '\\\\' }]", "E358", "only the CSV reader"),
    ("\n      split_values: [n]", "E358", "multiple: true"),
])
def test_a_json_sources_multi_value_declarations(extra, code, words):
    d = diagnose(_JSON_SOURCE.replace("{extra}", extra))
    assert d.code == code and words in d.message, d.message
    assert d.location is not None and d.location.line >= 8
