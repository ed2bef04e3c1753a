"""A fixed-width source's layout and a sink's `split:` as the loader reads them: Clinker's
checks of a column's byte range (ResolvedField::from_column, validate_pad) and of a split
naming (SplitNaming::parse), each a coded diagnostic; the refused forms are CS001."""

from __future__ import annotations

import textwrap

import pytest

from clinker_sql.codegen.compiler import compile_pipeline
from clinker_sql.config import sink_split
from clinker_sql.config.parse import parse_pipeline
from clinker_sql.diagnostics import DiagnosticError

FIXED = """\
pipeline:
  name: p
nodes:
  - type: source
    name: src
    config:
      name: src
      type: fixed_width
      path: ./in.dat
      schema:
        - { name: id, type: int, start: 0, width: 3 }
        - { name: name, type: string, start: 3, width: 5 }
  - type: sink
    name: out
    input: src
    config:
      name: out
      type: csv
      path: ./out/result.csv
"""


def diagnose(text: str):
    with pytest.raises(DiagnosticError) as info:
        compile_pipeline(parse_pipeline(textwrap.dedent(text), "p.yaml"))
    return info.value.diagnostics[0]


def test_a_fixed_width_source_reads_its_layout():
    p = parse_pipeline(FIXED.replace("width: 5 }", "end: 8, justify: right, pad: '0', "
                                     "trim: false }"), "p.yaml")
    cols = p.nodes[0].config.schema
    assert [(c.layout.start, c.layout.width) for c in cols] == [(0, 3), (3, 5)]
    assert (cols[1].layout.justify, cols[1].layout.pad, cols[1].layout.trim) == (
        "right", "0", False)


@pytest.mark.parametrize("column, words", [
    ("{ name: name, type: string, width: 5 }", "must have 'start'"),
    ("{ name: name, type: string, start: 3 }", "must have 'width' or 'end'"),
    ("{ name: name, type: string, start: 3, width: 5, end: 8 }", "mutually exclusive"),
    ("{ name: name, type: string, start: 3, end: 2 }", "'end' must be >= 'start'"),
    ("{ name: name, type: string, start: 3, width: 0 }", "width must be > 0"),
    ("{ name: name, type: string, start: 3, width: 5, pad: '0 ' }", "single-byte"),
    ("{ name: name, type: string, start: 3, width: 5, pad: '·' }", "single-byte"),
])
def test_a_bad_byte_range_is_refused(column, words):
    d = diagnose(FIXED.replace("{ name: name, type: string, start: 3, width: 5 }", column))
    assert d.code == "E000" and words in d.message


def test_layout_keys_belong_to_fixed_width_sources():
    d = diagnose(FIXED.replace("type: fixed_width", "type: csv"))
    assert d.code == "CS001" and "start" in d.message


@pytest.mark.parametrize("patch, words", [
    ("      options: { line_separator: none }\n", "line_separator: none"),
    ("", "multi-record"),
])
def test_refused_fixed_width_forms(patch, words):
    text = FIXED.replace("      schema:\n", patch + "      schema:\n")
    if not patch:
        text = text.replace(
            "      schema:\n        - { name: id, type: int, start: 0, width: 3 }\n"
            "        - { name: name, type: string, start: 3, width: 5 }\n",
            "      schema:\n        discriminator: { start: 0, width: 1 }\n"
            "        records: []\n")
    d = diagnose(text)
    assert d.code == "CS001" and words in d.message


def test_a_fixed_width_source_slices_bytes_and_checks_its_lines():
    compiled = compile_pipeline(parse_pipeline(FIXED, "p.yaml"))
    scan = next(s for s in compiled.statements if s.name == "src.scan")
    assert "USING TEXT" in scan.sql.upper()
    split = next(s for s in compiled.statements if s.name == "src.split")
    assert "ENCODE(`value`, 'UTF-8')" in split.sql
    assert any(s.kind == "check" and s.step.code == "CS111" for s in compiled.statements)


SPLIT = FIXED.replace("type: fixed_width", "type: csv").replace(
    ", start: 0, width: 3", "").replace(", start: 3, width: 5", "") + \
    "      split:\n        max_records: 2\n"


def test_a_split_sink_is_assembled_in_segments():
    compiled = compile_pipeline(parse_pipeline(SPLIT, "p.yaml"))
    write = next(s for s in compiled.statements if s.kind == "write" and s.name == "out")
    assert write.step.segments.max_records == 2
    assert write.step.segments.naming == "{stem}_{seq:04}.{ext}"
    assert write.step.fan_out is not None and write.step.fan_out.files is None


@pytest.mark.parametrize("naming, words", [
    ("{stem}_{seq}.{ext}", "unknown token `{seq}`"),
    ("{stem}_{seq:x}.{ext}", "numeric width"),
    ("{stem}.{ext}", "exactly one"),
    ("{seq:02}_{seq:02}", "exactly one"),
    ("{stem}_{seq:00}", "between 1 and 20"),
    ("{stem}_{seq:21}", "between 1 and 20"),
    ("{name}_{seq:02}", "unknown token"),
    ("{stem_{seq:02}", "nested braces"),
    ("x}{seq:02}", "unmatched"),
])
def test_a_bad_split_naming_is_refused(naming, words):
    d = diagnose(SPLIT + f"        naming: '{naming}'\n")
    assert d.code == "E000" and words in d.message


def test_split_names_render_as_clinker_renders_them():
    assert sink_split.render("{stem}_{seq:04}.{ext}", "output/results.csv", 1) == \
        "output/results_0001.csv"
    assert sink_split.render("{stem}_{seq:04}.{ext}", "data/export.json", 42) == \
        "data/export_0042.json"
    assert sink_split.render("{stem}_{seq:03}.{ext}", "r", 7) == "r_007.dat"
    assert sink_split.unique_suffixed("out/a_0001.csv", 2, 0) == "out/a_0001-2.csv"
    assert sink_split.unique_suffixed("out/a.csv", 2, 3) == "out/a-002.csv"


def test_split_is_refused_where_it_cannot_be_cut():
    d = diagnose(SPLIT.replace("      type: csv\n      path: ./out/result.csv",
                               "      type: parquet\n      path: ./out/result.parquet"))
    assert d.code == "CS001" and "split" in d.message
    d = diagnose(SPLIT.replace("./out/result.csv", "./out/{source_file}.csv"))
    assert d.code == "CS001" and "split" in d.message
