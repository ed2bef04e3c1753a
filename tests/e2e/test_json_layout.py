"""A JSON source without `format:` (issue 43, item 8): Clinker's reader takes each file's
first byte that is not whitespace, `[` for an array of records and `{` for one record per
line (clinker-format json/reader.rs). Spark's multi-line mode reads an NDJSON file's first
record only, so the compiler reads the layout from the files."""

from __future__ import annotations

from .pipelines import dlq, pipeline, run, run_fails, sink, source

TEXT = pipeline(source("src", "id, qty: int"), sink("out", "src")).replace(
    "type: csv\n      path: {dir}/src.csv", "type: json\n      glob: {dir}/data/*.json", 1)

NDJSON = '{"id": "a", "qty": "1"}\n\n{"id": "b", "qty": "x"}\n{"id": "c", "qty": "3"}\n'
ARRAY = '\n  [\n  {"id": "d", "qty": "4"},\n  {"id": "e", "qty": "5"}\n]\n'


def test_an_ndjson_file_without_format_is_read_whole(executor, tmp_path):
    r = run(executor, tmp_path, TEXT, {"data/a.json": NDJSON, "data/b.json": NDJSON.replace(
        '"a"', '"a2"').replace('"b"', '"b2"').replace('"c"', '"c2"')})
    assert r.column("out.csv", "id") == ["a", "c", "a2", "c2"]
    assert dlq(r, ("id", "_cxl_dlq_source_row")) == [("b", "2"), ("b2", "5")]


def test_an_array_file_without_format_is_read_as_one_document(executor, tmp_path):
    r = run(executor, tmp_path, TEXT, {"data/a.json": ARRAY})
    assert r.column("out.csv", "id") == ["d", "e"] and dlq(r) == []


def test_files_of_both_layouts_are_refused(executor, tmp_path):
    err = run_fails(executor, tmp_path, TEXT, {"data/a.json": NDJSON, "data/b.json": ARRAY})
    assert err.diagnostics[0].code == "CS001" and "both layouts" in err.diagnostics[0].message
