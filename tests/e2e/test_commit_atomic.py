"""A run's outputs change all together or not at all, and a failed run says so in
run_results.json."""

from __future__ import annotations

import errno
import json
import os

from clinker_sql.runtime import outputs

from .pipelines import pipeline, run, run_fails, sink, source

PIPELINE = pipeline(source("src", "id, qty: int"), sink("out", "src"))
INPUT = {"src.csv": """
    id,qty
    a,1
    b,many
    c,3
"""}
PREVIOUS = {"out.csv": b"id,qty\nold,9\n", "dlq.csv": b"previous dlq\n"}


def _previous(tmp_path) -> None:
    (tmp_path / "out").mkdir()
    for name, data in PREVIOUS.items():
        (tmp_path / "out" / name).write_bytes(data)


def _out_folder(tmp_path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() if p.is_file() else b"<folder>"
            for p in sorted((tmp_path / "out").iterdir())}


def _results(tmp_path) -> dict:
    return json.loads((tmp_path / "target" / "t" / "run_results.json").read_text())


def test_a_move_failing_half_way_leaves_the_previous_outputs(executor, tmp_path, monkeypatch):
    """The sink's file is moved into place, the DLQ's move fails (a full disk): the sink's
    previous file is put back, byte for byte, and nothing the run made is left. The next
    run writes every row somewhere."""
    _previous(tmp_path)
    moved = []
    real = outputs._move

    def move(temp, target):
        moved.append(target.name)
        if len(moved) == 2:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        real(temp, target)

    monkeypatch.setattr(outputs, "_move", move)
    err = run_fails(executor, tmp_path, PIPELINE, INPUT)
    assert moved == ["out.csv", "dlq.csv"]
    assert err.diagnostics[0].code == "CS103" and err.exit_code == 4
    assert "dlq.csv" in err.diagnostics[0].message
    assert _out_folder(tmp_path) == PREVIOUS
    results = _results(tmp_path)
    assert results["status"] == "failed" and results["exit_code"] == 4
    assert results["error"]["code"] == "CS103"
    assert results["counts"] == {"total": 3, "ok": 2, "written": 2, "dlq": 1}  # not committed
    assert results["statements"]

    monkeypatch.setattr(outputs, "_move", real)
    r = run(executor, tmp_path, PIPELINE, INPUT)
    assert r.result.exit_code == 2
    assert r.column("out.csv", "id") == ["a", "c"]
    assert [e["id"] for e in r.rows("dlq.csv")] == ["b"]
    assert sorted(_out_folder(tmp_path)) == ["dlq.csv", "out.csv"]
    results = _results(tmp_path)
    assert (results["status"], results["exit_code"], results["error"]) == \
        ("completed_with_dlq", 2, None)


def test_an_output_path_that_is_a_folder_fails_before_spark_runs(executor, tmp_path):
    """The DLQ's path, then the sink's, an existing folder: CS103, exit 4, naming the path,
    before any statement runs; no output changes."""
    _previous(tmp_path)
    (tmp_path / "out" / "dlq.csv").unlink()
    (tmp_path / "out" / "dlq.csv").mkdir()
    before = _out_folder(tmp_path)
    err = run_fails(executor, tmp_path, PIPELINE, INPUT)
    d = err.diagnostics[0]
    assert (d.code, err.exit_code) == ("CS103", 4)
    assert "dlq.csv" in d.message and "existing folder" in d.message
    assert _out_folder(tmp_path) == before
    results = _results(tmp_path)
    assert results["status"] == "failed" and results["exit_code"] == 4
    assert results["error"]["message"] == d.message and results["statements"] == []

    text = PIPELINE.replace("{dir}/out/out.csv", "{dir}/out/sink")
    (tmp_path / "out" / "sink").mkdir()
    err = run_fails(executor, tmp_path, text, INPUT)
    assert (err.diagnostics[0].code, err.exit_code) == ("CS103", 4)
    assert "out/sink" in err.diagnostics[0].message
    assert _out_folder(tmp_path) == {**before, "sink": b"<folder>"}
