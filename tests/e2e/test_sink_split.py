"""A sink's `split:` and `if_exists` end to end: the split files are outputs of the run
like any other, staged and moved into place together (nothing half-written: a run that
fails leaves every previous file as it was), an overwrite replaces earlier segments
(Clinker's atomic_output_test force_replaces_existing_split_segments_after_success),
and each JSON split file is a whole document (splitting/tests.rs
test_splitting_writer_json_produces_valid_files)."""

from __future__ import annotations

import json

from .pipelines import pipeline, run, run_fails, sink, source

ROWS = """
k,id
a,1
a,2
b,3
"""


def _split(extra: str) -> str:
    return "\n      split:\n" + "".join(f"        {line}\n" for line in extra.split(";"))


def _leftovers(tmp_path):
    return sorted(p.name for p in (tmp_path / "out").iterdir() if "clinker" in p.name)


def test_overwrite_replaces_the_earlier_segments(executor, tmp_path):
    out = tmp_path / "out"
    out.mkdir()
    for n in (1, 2):
        (out / f"parts_000{n}.csv").write_text("old\n")
    yaml = pipeline(source("src", "k, id: int"), sink("parts", "src", _split("max_records: 1")))
    r = run(executor, tmp_path, yaml, {"src.csv": ROWS})
    assert r.result.exit_code == 0
    assert [(out / f"parts_000{n}.csv").read_text() for n in (1, 2, 3)] == [
        "k,id\na,1\n", "k,id\na,2\n", "k,id\nb,3\n"]
    assert not (out / "parts.csv").exists()
    assert _leftovers(tmp_path) == []


def test_a_failed_run_changes_no_file(executor, tmp_path):
    """The second sink's oversize group (CS112) fails the run after the first sink's split
    files were assembled: none of them is moved into place."""
    out = tmp_path / "out"
    out.mkdir()
    (out / "parts_0001.csv").write_text("old\n")
    yaml = pipeline(source("src", "k, id: int"),
                    sink("parts", "src", _split("max_records: 1")),
                    sink("grouped", "src", _split("max_records: 1;group_key: k;"
                                                  "oversize_group: error")))
    err = run_fails(executor, tmp_path, yaml, {"src.csv": ROWS})
    assert err.diagnostics[0].code == "CS112"
    assert (out / "parts_0001.csv").read_text() == "old\n"
    assert sorted(p.name for p in out.iterdir() if not p.name.startswith(".")) == [
        "parts_0001.csv"]
    assert _leftovers(tmp_path) == []


def test_if_exists_error_stops_the_run_before_any_output_moves(executor, tmp_path):
    out = tmp_path / "out"
    out.mkdir()
    (out / "kept.csv").write_text("old\n")
    yaml = pipeline(source("src", "k, id: int"), sink("fresh", "src"),
                    sink("kept", "src", "\n      if_exists: error"))
    err = run_fails(executor, tmp_path, yaml, {"src.csv": ROWS})
    assert err.diagnostics[0].code == "E-SEC-001"
    assert "already exists" in err.diagnostics[0].message
    assert (out / "kept.csv").read_text() == "old\n"
    assert not (out / "fresh.csv").exists()


def test_each_json_split_file_is_a_whole_array(executor, tmp_path):
    yaml = pipeline(source("src", "k, id: int"), sink("parts", "src", _split(
        "max_records: 2")).replace("type: csv\n      path: {dir}/out/parts.csv",
                                   "type: json\n      path: {dir}/out/parts.json"))
    r = run(executor, tmp_path, yaml, {"src.csv": ROWS})
    assert r.result.exit_code == 0
    docs = [json.loads((tmp_path / "out" / f"parts_000{n}.json").read_text())
            for n in (1, 2)]
    assert docs == [[{"k": "a", "id": 1}, {"k": "a", "id": 2}], [{"k": "b", "id": 3}]]
    assert not (tmp_path / "out" / "parts_0003.json").exists()
