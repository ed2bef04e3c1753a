"""Pipelines are read as YAML 1.2, as Clinker reads them: `on`, `yes`, `no` and `off` are
strings (YAML 1.1 made them booleans, which refused a column of that name), nothing is
a timestamp, and duplicate keys, merge keys and unknown tags are still refused with a
location."""

from __future__ import annotations

import math
import textwrap

import pytest

from clinker_sql.codegen.compiler import compile_pipeline
from clinker_sql.config.parse import parse_pipeline
from clinker_sql.config.yamlnodes import YMap, load_yaml, plain
from clinker_sql.diagnostics import DiagnosticError

from tests.e2e.pipelines import pipeline, run, sink, source, transform

WORDS = ("on", "off", "yes", "no", "y", "n", "On", "NO")

COLUMNS = f"""
pipeline:
  name: words
nodes:
  - type: source
    name: src
    config:
      name: src
      type: csv
      path: ./in.csv
      schema:
{"".join(f"        - {{ name: {w}, type: string }}{chr(10)}" for w in WORDS)}
  - type: route
    name: pick
    input: src
    config:
      conditions:
        on: 'on == "1"'
        off: 'off == "1"'
      default: no
  - type: transform
    name: t
    input: pick.on
    config:
      cxl: |
        emit yes = yes
        emit no = on + no
  - type: sink
    name: out
    input: t
    config:
      name: out
      type: csv
      path: ./out.csv
      mapping: [yes, no]
"""


def test_yes_no_on_off_name_columns_branches_and_fields():
    model = parse_pipeline(COLUMNS, "p.yaml")
    src = model.node("src")
    assert [c.name for c in src.config.schema] == list(WORDS)
    route = model.node("pick")
    assert [name for name, _ in route.conditions] == ["on", "off"]
    assert route.default == "no"
    assert model.node("out").config.mapping == (("yes", "yes"), ("no", "no"))
    compiled = compile_pipeline(model)
    assert compiled.statements


def test_scalars_resolve_by_the_core_schema():
    node = load_yaml(textwrap.dedent("""\
        a: [on, yes, No, OFF, y, true, False, ~, null, "", 0o17, 017, 0x1f, 1_000,
            2024-01-31, 1.5, 1e3, .inf, -.inf, .nan, +7, "on", !!str 12, !!float 3, 1:30]
        """), "f.yaml")
    values = plain(node)["a"]
    assert values[:15] == ["on", "yes", "No", "OFF", "y", True, False, None, None, "", 15,
                           17, 31, "1_000", "2024-01-31"]
    assert values[15:19] == [1.5, 1000.0, math.inf, -math.inf]
    assert math.isnan(values[19])
    assert values[20:] == [7, "on", "12", 3.0, "1:30"]
    assert isinstance(values[23], float)


def test_keys_are_named_as_written():
    node = load_yaml("on: 1\ntrue: 2\n1.0: 3\n'quoted': 4\n", "f.yaml")
    assert isinstance(node, YMap)
    assert list(node.entries) == ["on", "true", "1.0", "quoted"]
    assert (node.key_loc("1.0").line, node.key_loc("1.0").column) == (3, 1)


def _error(text: str):
    with pytest.raises(DiagnosticError) as info:
        load_yaml(text, "f.yaml")
    d = info.value.diagnostics[0]
    return d.code, d.message, (d.location.line, d.location.column) if d.location else None


@pytest.mark.parametrize("text, words, at", [
    ("a: 1\nb: 2\na: 3\n", "duplicate key 'a'", (3, 1)),
    ("on: 1\n'on': 2\n", "duplicate key 'on'", (2, 1)),
    ("base: &b {x: 1}\nother:\n  <<: *b\n", "merge keys", (3, 3)),
    ("a: !!python/object:os.system ls\n", "unsupported YAML tag", (1, 4)),
    ("a: !custom 1\n", "unsupported YAML tag", (1, 4)),
    ("a: !!int 1x\n", "not a valid !!int", (1, 4)),
    ("a: *nowhere\n", "no anchor &nowhere", (1, 4)),
    ("a: &loop [1, *loop]\n", "refers to a node that contains it", (1, 14)),
    ("a: 1\n---\nb: 2\n", "more than one document", (2, 1)),
    ("? [1, 2]\n: x\n", "mapping keys must be plain scalars", (1, 3)),
    ("a: [1, 2\n", "malformed YAML", (2, 1)),
    ("a: b: c\n", "malformed YAML", (1, 5)),
    ('name: "ros\\udc80ter"\n', "lone surrogate", (1, 7)),
    ("", "empty", (1, 1)),
])
def test_what_yaml_refuses_is_e000_at_its_place(text, words, at):
    code, message, loc = _error(text)
    assert code == "E000" and words in message and loc == at, (code, message, loc)


def test_an_anchor_and_its_alias_both_read():
    values = plain(load_yaml("a: &x [1, on]\nb: *x\nk: &k key\n*k : 5\n", "f.yaml"))
    assert values == {"a": [1, "on"], "b": [1, "on"], "k": "key", "key": 5}


def test_a_column_named_on_runs_end_to_end(executor, tmp_path):
    """Spark: the `on` and `off` columns are read, compared and written under their own
    names; the rows are the ones where on > off."""
    text = pipeline(
        source("src", "id, on: int, off: int, yes"),
        transform("t", "src", """
            filter on > off
            emit id = id
            emit on = on
            emit no = on - off
            emit yes = yes
        """),
        sink("out", "t"))
    r = run(executor, tmp_path, text, {"src.csv": """
        id,on,off,yes
        a,3,1,x
        b,1,2,y
        c,5,5,z
        d,9,0,w
    """})
    assert r.result.exit_code == 0
    assert r.rows("out.csv") == [
        {"id": "a", "on": "3", "off": "1", "yes": "x", "no": "2"},
        {"id": "d", "on": "9", "off": "0", "yes": "w", "no": "9"}]
