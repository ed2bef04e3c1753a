"""A sink's path template: `{source_file}` / `{source_path}` write one file per source
file when the records still carry their file (Clinker's per-source-file fan-out), render
`<merged>` when they do not, and the static tokens render at compile time."""

from __future__ import annotations

import json

from .compare import read_csv
from .pipelines import dlq, pipeline, run, run_fails, sink, source, transform

PARTS = {
    "data/part_a.csv": 'id,qty,note\na1,1,plain\na2,x,bad qty\na3,3,"two\nlines"\n',
    "data/part_b.csv": "id,qty,note\nb1,20,\nb2,30,\n",
    "data/part_c.csv": "id,qty,note\nc1,1,\n",
}


def _glob(nodes: str, path: str, extra: str = "") -> str:
    text = pipeline(source("src", "id, qty: int, note"), nodes,
                    sink("out", "keep" if nodes else "src", extra))
    text = text.replace("path: {dir}/src.csv", "glob: {dir}/data/part_*.csv")
    return text.replace("path: {dir}/out/out.csv", f"path: {path}")


def _rows(r, name: str) -> list[tuple[str, ...]]:
    head, rows = read_csv(r.dir / "out" / name)
    return [tuple(row) for row in rows]


KEEP = transform("keep", "src", "filter qty < 10\nemit doubled = qty * 2")


def test_one_file_per_source_file_with_its_own_records(executor, tmp_path):
    r = run(executor, tmp_path, _glob(KEEP, "{dir}/out/out_{source_file}.csv"), PARTS)
    assert r.result.exit_code == 2  # a2's qty is not an int: one DLQ entry
    assert _rows(r, "out_part_a.csv") == [("a1", "1", "plain", "2"),
                                          ("a3", "3", "two\nlines", "6")]
    # every record of part_b is filtered out: its file is written without rows
    assert (tmp_path / "out" / "out_part_b.csv").read_text() == "id,qty,note,doubled\n"
    assert _rows(r, "out_part_c.csv") == [("c1", "1", "", "2")]
    assert not (tmp_path / "out" / "out_{source_file}.csv").exists()
    assert dlq(r, ("id", "_cxl_dlq_source_row")) == [("a2", "2")]
    assert r.result.counts["written"] == 3


def test_sorted_per_file_and_json_per_file(executor, tmp_path):
    text = _glob("", "{dir}/out/{source_file}.json").replace("type: csv\n      path: {dir}/out",
                                                            "type: json\n      path: {dir}/out")
    text = text.replace("path: {dir}/out/{source_file}.json",
                        "path: {dir}/out/{source_file}.json\n      sort_order: [{ field: qty, "
                        "order: desc }]")
    parts = {"data/part_a.csv": "id,qty,note\na1,1,\na2,5,\n",
             "data/part_b.csv": "id,qty,note\nb1,20,\nb2,30,\n"}
    r = run(executor, tmp_path, text, parts)
    assert r.result.exit_code == 0
    a = json.loads((tmp_path / "out" / "part_a.json").read_text())
    b = json.loads((tmp_path / "out" / "part_b.json").read_text())
    assert [x["id"] for x in a] == ["a2", "a1"] and [x["id"] for x in b] == ["b2", "b1"]


def test_escapes_and_conditional_tokens(executor, tmp_path):
    path = "{dir}/out/{{x}}{channel:-:_}{source_file:p_:}.csv"
    r = run(executor, tmp_path, _glob("", path), {"data/part_a.csv": "id,qty,note\na1,1,\n"})
    assert _rows(r, "{x}p_part_a.csv") == [("a1", "1", "")]


def test_after_a_merge_or_from_one_file_the_tokens_render_merged(executor, tmp_path):
    merged = _glob("""
  - type: merge
    name: keep
    inputs: [src]
""", "{dir}/out/out_{source_file}.csv")
    r = run(executor, tmp_path, merged, PARTS)
    assert len(_rows(r, "out_<merged>.csv")) == 5
    single = pipeline(source("src", "id"), sink("out", "src")).replace(
        "path: {dir}/out/out.csv", "path: {dir}/out/one_{source_file}.csv")
    r = run(executor, tmp_path, single, {"src.csv": "id\nx\n"})
    assert _rows(r, "one_<merged>.csv") == [("x",)]


def test_refused_and_invalid_templates(executor, tmp_path):
    agg = _glob("""
  - type: aggregate
    name: keep
    input: src
    config:
      group_by: [id]
      cxl: |
        emit id = id
        emit n = count(*)
""", "{dir}/out/{source_file}.csv")
    err = run_fails(executor, tmp_path, agg, PARTS)
    assert err.diagnostics[0].code == "CS001" and "aggregate 'keep'" in str(err)
    for path, code in (("{dir}/out/{sourcefile}.csv", "CS107"),
                       ("{dir}/out/{source_file.csv", "CS107"),
                       ("{dir}/out/x}.csv", "CS107"),
                       ("{dir}/out/{channel:a}.csv", "CS107"),
                       ("{dir}/out/{timestamp}.csv", "CS001"),
                       ("{dir}/out/{source_path}.csv", "CS001")):
        err = run_fails(executor, tmp_path, _glob("", path), PARTS)
        assert err.diagnostics[0].code == code, path


def test_two_files_with_one_stem_clash(executor, tmp_path):
    text = _glob("", "{dir}/out/{source_file}.csv").replace(
        "glob: {dir}/data/part_*.csv", "glob: {dir}/data/*/x.csv")
    err = run_fails(executor, tmp_path, text, {"data/a/x.csv": "id,qty,note\n1,1,\n",
                                                "data/b/x.csv": "id,qty,note\n2,2,\n"})
    assert err.diagnostics[0].code == "CS107" and "renders both" in str(err)


def test_document_dlq_with_a_per_file_template_is_e343(executor, tmp_path):
    text = _glob("", "{dir}/out/{source_file}.csv").replace(
        "glob: {dir}/data/part_*.csv", "glob: {dir}/data/part_*.csv\n      "
        "dlq_granularity: document")
    err = run_fails(executor, tmp_path, text, PARTS)
    assert err.diagnostics[0].code == "E343"
