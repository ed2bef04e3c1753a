"""`$pipeline.execution_id`, `$pipeline.batch_id` and `$pipeline.start_time` (issue 43,
item 9): each run binds its own values (UUID v7s, the UTC start) to session variables the
compiled session.sql declares, so the compiled SQL is the same from run to run; Clinker's
running counters and `$source.count` are refused precisely."""

from __future__ import annotations

import datetime as dt
import re

import pytest

from .pipelines import pipeline, project, run, run_fails, sink, source, transform, write_case

UUID7 = re.compile(r"^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$")
CXL = """
emit id = id
emit run = $pipeline.execution_id
emit batch = $pipeline.batch_id
emit started = $pipeline.start_time.format("%Y-%m-%d %H:%M:%S")
"""
TEXT = pipeline(source("src", "id"), transform("t", "src", CXL), sink("out", "t"))
FILES = {"src.csv": "id\na\nb\n"}


def test_each_run_binds_its_identity_and_the_compiled_sql_does_not_change(executor, tmp_path):
    before = dt.datetime.now(dt.timezone.utc).replace(tzinfo=None, microsecond=0)
    first = run(executor, tmp_path, TEXT, FILES).rows("out.csv")
    compiled = {p.name: p.read_text() for p in (tmp_path / "target").rglob("*.sql")}
    second = run(executor, tmp_path, TEXT, FILES).rows("out.csv")
    after = dt.datetime.now(dt.timezone.utc).replace(tzinfo=None)
    assert {p.name: p.read_text() for p in (tmp_path / "target").rglob("*.sql")} == compiled
    for rows in (first, second):
        assert [r["id"] for r in rows] == ["a", "b"]
        assert len({(r["run"], r["batch"], r["started"]) for r in rows}) == 1  # one per run
        assert UUID7.match(rows[0]["run"]) and UUID7.match(rows[0]["batch"])
        assert before <= dt.datetime.fromisoformat(rows[0]["started"]) <= after
    assert first[0]["run"] != second[0]["run"] and first[0]["batch"] != second[0]["batch"]
    assert not any(r["run"] in text for text in compiled.values() for r in first)


def test_a_pipeline_reading_none_declares_nothing(tmp_path):
    text = pipeline(source("src", "id"), sink("out", "src"))
    compiled = project(write_case(tmp_path, text, FILES)).compile()
    assert not any("VARIABLE" in s.sql for s in compiled.statements)


@pytest.mark.parametrize("member", ["$pipeline.total_count", "$pipeline.dlq_count",
                                    "$source.count"])
def test_counters_are_refused_not_unknown(executor, tmp_path, member):
    text = pipeline(source("src", "id"), transform("t", "src", f"emit n = {member}"),
                    sink("out", "t"))
    err = run_fails(executor, tmp_path, text, FILES)
    assert err.diagnostics[0].code == "CS001" and member in err.diagnostics[0].message
