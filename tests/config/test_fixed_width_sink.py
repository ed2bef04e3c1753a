"""A fixed-width sink's layout as the loader reads it (Clinker's FixedWidthWriter::new):
defaults by column type, sequential starts, the construction errors (each E000, as the
source's), the refused forms (CS001) and what the sink compiles to."""

from __future__ import annotations

import textwrap

import pytest

from clinker_sql.codegen.compiler import compile_pipeline
from clinker_sql.config.parse import parse_pipeline
from clinker_sql.diagnostics import DiagnosticError

SINK = """\
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
        - { name: id, type: int }
        - { name: name, type: string }
  - type: sink
    name: out
    input: src
    config:
      name: out
      type: fixed_width
      path: ./out/out.dat
      schema:
        - { name: id, type: int, width: 5 }
        - { name: name, type: string, width: 10 }
"""
NAME = "{ name: name, type: string, width: 10 }"
FIRST = "      schema:\n        - { name: id, type: int, width: 5 }"


def diagnose(text: str):
    with pytest.raises(DiagnosticError) as info:
        compile_pipeline(parse_pipeline(textwrap.dedent(text), "p.yaml"))
    return info.value.diagnostics[0]


def test_a_sink_layout_takes_the_writers_defaults():
    p = parse_pipeline(SINK, "p.yaml")
    cfg = p.nodes[1].config
    ident, name = (c.layout for c in cfg.schema)
    assert (ident.start, ident.width, ident.justify, ident.pad, ident.truncation) == (
        0, 5, "right", " ", "error")
    assert (name.start, name.width, name.justify, name.pad, name.truncation) == (
        5, 10, "left", " ", "warn")
    assert cfg.line_separator == "lf"


def test_end_is_resolved_against_the_previous_columns_end():
    p = parse_pipeline(SINK.replace(NAME, "{ name: name, type: string, end: 12 }"), "p.yaml")
    assert (p.nodes[1].config.schema[1].layout.start,
            p.nodes[1].config.schema[1].layout.width) == (5, 7)


@pytest.mark.parametrize("column, words", [
    ("{ name: name, type: string, start: 3, width: 5 }", "range 3..8 overlaps field 'id' (0..5)"),
    ("{ name: name, type: string }", "must have 'width' or 'end'"),
    ("{ name: name, type: string, width: 5, end: 8 }", "mutually exclusive"),
    ("{ name: name, type: string, end: 4 }", "'end' must be >= 'start'"),
    ("{ name: name, type: string, width: 0 }", "width must be > 0"),
    ("{ name: name, type: string, width: 5, pad: '0 ' }", "single-byte"),
    ("{ name: name, type: string, width: 5, pad: '·' }", "single-byte"),
    ("{ name: name, type: string, width: 5, truncation: cut }", "truncation"),
])
def test_a_bad_sink_layout_is_refused(column, words):
    d = diagnose(SINK.replace(NAME, column))
    assert d.code == "E000" and words in d.message, d.message


def test_a_fixed_width_sink_needs_a_column_list():
    text = SINK.split("      schema:\n        - { name: id, type: int, width: 5 }")[0]
    d = diagnose(text)
    assert d.code == "E000" and "requires an explicit `schema:`" in d.message
    d = diagnose(SINK.replace(
        "      schema:\n        - { name: id, type: int, width: 5 }\n        - " + NAME,
        "      schema:\n        discriminator: { start: 0, width: 1 }\n        records: []"))
    assert d.code == "E000" and "single-record column list" in d.message


def test_refused_fixed_width_sink_forms():
    d = diagnose(SINK.replace(FIRST, "      options: { envelope: { header: h } }\n" + FIRST))
    assert d.code == "CS001" and "envelope" in d.message
    d = diagnose(SINK.replace(FIRST, "      split: { max_records: 2 }\n" + FIRST))
    assert d.code == "CS001" and "split" in d.message
    arrays = SINK.replace("    input: src\n", "    input: tr\n").replace(
        "  - type: sink\n", "  - type: transform\n    name: tr\n    input: src\n"
        "    config:\n      cxl: |\n        emit id = id\n        emit name = [name]\n"
        "  - type: sink\n")
    d = diagnose(arrays)
    assert d.code == "CS001" and "array column 'name'" in d.message, d.message


def test_a_fixed_width_sink_compiles_to_one_text_line_and_a_check():
    compiled = compile_pipeline(parse_pipeline(SINK.replace(
        FIRST, "      options: { line_separator: crlf }\n" + FIRST), "p.yaml"))
    write = next(s for s in compiled.statements if s.kind == "write" and s.name == "out")
    assert "USING text" in write.sql
    assert "CXL_FIXED_WIDTH_CELL(CAST(`id` AS STRING), 5, ' ', TRUE)" in write.sql
    assert "CXL_FIXED_WIDTH_CELL(`name`, 10, ' ', FALSE)" in write.sql
    assert "'\\r'" in write.sql or "'\r'" in write.sql
    assert write.step.format == "fixed_width" and write.step.line_separator == "crlf"
    check = next(s for s in compiled.statements if s.kind == "check" and s.name == "out.refused")
    assert check.step.code == "CS116" and "exceeds width 5" in check.sql
