"""Multi-value columns (`multiple: true`, Clinker's formats/csv.md): a CSV cell split into
an array by `split_values`, a JSON source's array, and a CSV sink joining an array into
one cell by `join_values` (a value holding the delimiter under `on_conflict: error`
dead-letters its record)."""

from __future__ import annotations

import json

import pytest

from clinker_sql.config.parse import parse_pipeline
from clinker_sql.diagnostics import DiagnosticError

from .pipelines import dlq, pipeline, run, run_fails, sink

SPLIT_FIELDS = ("_cxl_dlq_source_name", "_cxl_dlq_source_row", "_cxl_dlq_error_category",
                "_cxl_dlq_stage", "_cxl_dlq_triggering_field", "_cxl_dlq_triggering_value")


def csv_source(splits: str, columns: str, name: str = "orders") -> str:
    return f"""
  - type: source
    name: {name}
    config:
      name: {name}
      type: csv
      path: {{dir}}/{name}.csv
      split_values:
{splits}
      schema:
{columns}
"""


def json_sink(name: str, input_: str) -> str:
    return f"""
  - type: sink
    name: {name}
    input: {input_}
    config:
      name: {name}
      type: json
      path: {{dir}}/out/{name}.json
"""


def json_records(r, name: str) -> list[dict]:
    return json.loads((r.dir / "out" / name).read_text(encoding="utf-8"))


def test_split_with_a_custom_delimiter(executor, tmp_path):
    r = run(executor, tmp_path, pipeline(
        csv_source("        - { field: tags, delimiter: \"|\" }\n        - codes",
                   "        - { name: id, type: string }\n"
                   "        - { name: tags, type: string, multiple: true }\n"
                   "        - { name: codes, type: string, multiple: true }"),
        json_sink("out", "orders")), {"orders.csv": """
            id,tags,codes
            1,a|b.c|,x;y
            2,,z
            3,"solo;x","q|r"
        """})
    assert json_records(r, "out.json") == [
        {"id": "1", "tags": ["a", "b.c", ""], "codes": ["x", "y"]},
        {"id": "2", "tags": [], "codes": ["z"]},
        {"id": "3", "tags": ["solo;x"], "codes": ["q|r"]}]


def test_int_elements_and_a_bad_one_is_the_rows_type_error(executor, tmp_path):
    r = run(executor, tmp_path, pipeline(
        csv_source("        - qty",
                   "        - { name: id, type: string }\n"
                   "        - { name: qty, type: int, multiple: true }"),
        """
  - type: transform
    name: calc
    input: orders
    config:
      cxl: |
        emit id = id
        emit n = qty.length()
        emit first = qty[0] + 1
""",
        sink("out", "calc", "\n      include_unmapped: false")), {"orders.csv": """
            id,qty
            a,1;2;3
            b,4;x;6
            c,7
        """})
    assert r.rows("out.csv") == [{"id": "a", "n": "3", "first": "2"},
                                 {"id": "c", "n": "1", "first": "8"}]
    assert dlq(r, SPLIT_FIELDS) == [
        ("orders", "2", "type_coercion_failure", "source", "qty", "4;x;6")]


def test_json_true_reads_an_embedded_array(executor, tmp_path):
    r = run(executor, tmp_path, pipeline(
        csv_source("        - { field: tags, json: true }",
                   "        - { name: id, type: string }\n"
                   "        - { name: tags, type: string, multiple: true }"),
        json_sink("out", "orders")), {"orders.csv": """
            id,tags
            1,"[""a;b"", ""c,d"", 3]"
            2,
            3,[]
            4,"{""x"": 1}"
        """})
    assert json_records(r, "out.json") == [{"id": "1", "tags": ["a;b", "c,d", "3"]},
                                           {"id": "2", "tags": []}, {"id": "3", "tags": []}]
    assert dlq(r, SPLIT_FIELDS) == [
        ("orders", "4", "type_coercion_failure", "source", "tags", '{"x": 1}')]


def test_json_source_array_to_a_sink(executor, tmp_path):
    r = run(executor, tmp_path, pipeline(
        """
  - type: source
    name: orders
    config:
      name: orders
      type: json
      path: {dir}/orders.json
      schema:
        - { name: id, type: string }
        - { name: amounts, type: int, multiple: true }
        - { name: tags, type: { nullable: string }, multiple: true }
""",
        sink("out", "orders")), {"orders.json": """
            [{"id": "1", "amounts": [1, 2], "tags": ["a", "b,c"]},
             {"id": "2", "amounts": [], "tags": null},
             {"id": "3", "amounts": [5, "x"], "tags": ["z"]}]
        """})
    assert r.rows("out.csv") == [{"id": "1", "amounts": "1;2", "tags": "a;b,c"},
                                 {"id": "2", "amounts": "", "tags": ""}]
    assert dlq(r, SPLIT_FIELDS)[0][:5] == (
        "orders", "3", "type_coercion_failure", "source", "amounts")


def test_join_with_escape_and_encode_json_round_trips(executor, tmp_path):
    yaml_text = pipeline(
        """
  - type: source
    name: orders
    config:
      name: orders
      type: json
      path: {dir}/orders.json
      schema:
        - { name: id, type: string }
        - { name: tags, type: string, multiple: true }
        - { name: notes, type: string, multiple: true }
""",
        sink("out", "orders", """
      join_values:
        - { field: tags, delimiter: "|", on_conflict: escape, escape: "\\\\" }
        - { field: notes, on_conflict: encode_json }"""))
    r = run(executor, tmp_path, yaml_text, {"orders.json": r"""
        [{"id": "1", "tags": ["a|b", "c\\d", "e"], "notes": ["x;y", "say \"hi\""]},
         {"id": "2", "tags": [], "notes": []}]
    """})
    assert (tmp_path / "out" / "out.csv").read_text().splitlines() == [
        "id,tags,notes",
        r'1,a\|b|c\\d|e,"[""x;y"",""say \""hi\""""]"',
        "2,,[]"]
    # read back: the escape and json: true entries recover the arrays
    back = tmp_path / "back"
    back.mkdir()
    (back / "orders.csv").write_text((tmp_path / "out" / "out.csv").read_text())
    r2 = run(executor, back, pipeline(
        csv_source("        - { field: tags, delimiter: \"|\", escape: \"\\\\\" }\n"
                   "        - { field: notes, json: true }",
                   "        - { name: id, type: string }\n"
                   "        - { name: tags, type: string, multiple: true }\n"
                   "        - { name: notes, type: string, multiple: true }"),
        json_sink("out", "orders")), {})
    assert json_records(r2, "out.json") == [
        {"id": "1", "tags": ["a|b", "c\\d", "e"], "notes": ["x;y", 'say "hi"']},
        {"id": "2", "tags": [], "notes": []}]


COLLIDING = {"orders.json": """
    [{"id": "1", "tags": ["a", "b"]},
     {"id": "2", "tags": ["c;d", "e"]},
     {"id": "3", "tags": ["f"]}]
"""}
JSON_SOURCE = """
  - type: source
    name: orders
    config:
      name: orders
      type: json
      path: {dir}/orders.json
      schema:
        - { name: id, type: string }
        - { name: tags, type: string, multiple: true }
"""


def test_a_collision_under_continue_is_a_dlq_entry_and_the_record_is_withheld(
        executor, tmp_path):
    r = run(executor, tmp_path, pipeline(JSON_SOURCE, sink("out", "orders")), COLLIDING)
    assert r.rows("out.csv") == [{"id": "1", "tags": "a;b"}, {"id": "3", "tags": "f"}]
    assert dlq(r, SPLIT_FIELDS + ("_cxl_dlq_trigger",)) == [
        ("orders", "2", "multi_value_join_collision", "output:out", "tags", "c;d", "true")]
    assert r.result.exit_code == 2


def test_a_collision_under_fail_fast_aborts_the_run(executor, tmp_path):
    yaml_text = pipeline(JSON_SOURCE, sink("out", "orders")).replace(
        "strategy: continue", "strategy: fail_fast")
    err = run_fails(executor, tmp_path, yaml_text, COLLIDING)
    assert err.diagnostics[0].code == "CS106" and err.exit_code == 4
    assert "c;d" in str(err)
    assert not (tmp_path / "out" / "out.csv").exists()


@pytest.mark.parametrize("config, code", [
    ("type: csv\n      path: x.csv\n      split_values: [tags]\n      schema:\n"
     "        - { name: tags, type: string }", "E358"),
    ("type: csv\n      path: x.csv\n      split_values: [nope]\n      schema:\n"
     "        - { name: tags, type: string, multiple: true }", "E358"),
    ("type: csv\n      path: x.csv\n      schema:\n"
     "        - { name: tags, type: string, multiple: true }", "E361"),
])
def test_source_declarations_are_checked(config, code):
    text = f"""
pipeline: {{name: t}}
nodes:
  - type: source
    name: s
    config:
      {config}
  - type: sink
    name: o
    input: s
    config: {{type: json, path: o.json}}
"""
    with pytest.raises(DiagnosticError) as info:
        parse_pipeline(text, "p.yaml")
    assert info.value.diagnostics[0].code == code


@pytest.mark.parametrize("sink_config", [
    "{type: json, path: o.json, join_values: [tags]}",
    "{type: csv, path: o.csv, join_values: [tags, tags]}",
    "{type: csv, path: o.csv, join_values: [{field: tags, delimiter: '::'}]}",
    "{type: csv, path: o.csv, join_values: [{field: tags, on_conflict: escape, escape: ';'}]}",
])
def test_join_values_declarations_are_checked(sink_config):
    text = f"""
pipeline: {{name: t}}
nodes:
  - type: source
    name: s
    config:
      type: json
      path: x.json
      schema:
        - {{ name: tags, type: string, multiple: true }}
  - type: sink
    name: o
    input: s
    config: {sink_config}
"""
    with pytest.raises(DiagnosticError) as info:
        parse_pipeline(text, "p.yaml")
    assert info.value.diagnostics[0].code == "E362"
