"""A source's `files:` block (Clinker's discovery controls): name order ascending or
descending, the first or last N files, and what no matching file means."""

from __future__ import annotations

from .pipelines import dlq, pipeline, run, run_fails, sink, source

PIPELINE = pipeline(source("src", "id, qty: int"), sink("out", "src")).replace(
    "path: {dir}/src.csv", "glob: {dir}/data/part_*.csv\n      files: FILES")

PARTS = {
    "data/part_a.csv": "id,qty\na1,1\na2,x\n",
    "data/part_b.csv": "id,qty\nb1,3\n",
    "data/part_c.csv": "id,qty\nc1,4\nc2,5\n",
}


def _pipeline(files: str) -> str:
    return PIPELINE.replace("FILES", files)


def test_descending_name_order_numbers_the_rows_in_that_order(executor, tmp_path):
    r = run(executor, tmp_path, _pipeline("{ sort_by: name, sort_order: desc }"), PARTS)
    assert r.column("out.csv", "id") == ["c1", "c2", "b1", "a1"]
    # part_a is read last: its second row is the source's fifth
    assert dlq(r, ("id", "_cxl_dlq_source_row")) == [("a2", "5")]


def test_take_first_and_take_last(executor, tmp_path):
    r = run(executor, tmp_path, _pipeline("{ sort_order: desc, take_first: 2 }"), PARTS)
    assert r.column("out.csv", "id") == ["c1", "c2", "b1"]
    assert r.result.counts["total"] == 3 and dlq(r) == []
    r = run(executor, tmp_path, _pipeline("{ take_last: 2 }"), PARTS)
    assert r.column("out.csv", "id") == ["b1", "c1", "c2"]


def test_no_match_is_e216_unless_warn_or_skip(executor, tmp_path):
    err = run_fails(executor, tmp_path, _pipeline("{ on_no_match: error }"), {})
    assert err.diagnostics[0].code == "E216" and err.exit_code == 1
    for policy in ("warn", "skip"):
        r = run(executor, tmp_path, _pipeline(f"{{ on_no_match: {policy} }}"), {})
        assert r.result.exit_code == 0 and r.result.counts["total"] == 0
        assert r.rows("out.csv") == []
        assert (tmp_path / "out" / "out.csv").read_text().splitlines() == ["id,qty"]
