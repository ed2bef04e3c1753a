"""A sink's write that splits off the failing rows of the chain it reads
(codegen/split_write.py): the outputs and the DLQ are what they were, and the chain's failing
rows come from the write, not from one more evaluation of the chain."""

from __future__ import annotations

import json

from clinker_sql.codegen.fusion import DLQ_TYPE

from .pipelines import dlq, pipeline, run, sink, source, transform

CHAIN = [source("src", "id, q: int, x"),
         transform("parse", "src", "emit n = x.to_int()"),
         transform("label", "parse", 'emit tag = id + ":" + x')]
# awkward text in good and failing rows alike: a line break, quotes, a comma, an accent
ROWS = ('id,q,x\na1,1,5\n"a\n2",1,"bad ""one"", é"\na3,zz,7\na4,2,8\n'
        'a5,3,"9"\n"a,6",4,oops\n')


def _side(r) -> dict:
    return next(t for t in r.result.timings if t["name"] == "label.failed"
                and t["kind"] == "checkpoint")


def _dlq_rows(r) -> list[tuple[str, ...]]:
    return dlq(r, ("_cxl_dlq_source_row", "_cxl_dlq_stage", "id", "x", "q",
                   "_cxl_dlq_error_detail"))


EXPECTED_DLQ = [
    ("2", "transform:parse", "a\n2", 'bad "one", é', "1",
     "row 2: field 'n': conversion failed: cannot convert 'bad \"one\", é' to Int"),
    ("3", "source", "a3", "7", "zz", ""),
    ("6", "transform:parse", "a,6", "oops", "4",
     "row 6: field 'n': conversion failed: cannot convert 'oops' to Int")]


def _same_dlq(got: list[tuple[str, ...]]) -> None:
    assert [g[:5] for g in got] == [e[:5] for e in EXPECTED_DLQ]
    assert got[0][5] == EXPECTED_DLQ[0][5] and got[2][5] == EXPECTED_DLQ[2][5]
    assert 'row=3 column=2 field="q"' in got[1][5]


def test_a_csv_sink_splits_off_the_failing_rows(executor, tmp_path):
    r = run(executor, tmp_path, pipeline(*CHAIN, sink("out", "label")), {"src.csv": ROWS})
    assert r.column("out.csv", "id") == ["a1", "a4", "a5"]
    assert r.column("out.csv", "tag") == ["a1:5", "a4:8", "a5:9"]
    _same_dlq(_dlq_rows(r))
    assert _side(r).get("side") == 3  # read from the lines the write split off
    assert r.result.counts == {"total": 6, "ok": 3, "written": 3, "dlq": 3}
    assert r.result.per_source["src"]["written"] == 3
    assert not list((tmp_path / "out").glob("*.clinker-staging"))


def test_json_sinks_split_off_the_failing_rows(executor, tmp_path):
    for fmt, options in (("array", ""), ("ndjson", "\n      options: { format: ndjson }")):
        case = tmp_path / fmt
        case.mkdir()
        out = sink("out", "label").replace("type: csv", "type: json" + options) \
            .replace("out.csv", "out.json")
        r = run(executor, case, pipeline(*CHAIN, out), {"src.csv": ROWS})
        text = (case / "out" / "out.json").read_text(encoding="utf-8")
        rows = json.loads(text) if fmt == "array" else \
            [json.loads(ln) for ln in text.splitlines() if ln]
        assert [(o["id"], o["tag"]) for o in rows] == [("a1", "a1:5"), ("a4", "a4:8"),
                                                        ("a5", "a5:9")], fmt
        _same_dlq(_dlq_rows(r))
        assert _side(r).get("side") == 3


def test_two_sinks_of_one_chain_write_each_row_once(executor, tmp_path):
    text = pipeline(*CHAIN, sink("one", "label"), sink("two", "label"))
    r = run(executor, tmp_path, text, {"src.csv": ROWS})
    assert r.column("one.csv", "id") == r.column("two.csv", "id") == ["a1", "a4", "a5"]
    _same_dlq(_dlq_rows(r))
    assert r.result.counts == {"total": 6, "ok": 3, "written": 6, "dlq": 3}


def test_a_run_where_every_row_fails(executor, tmp_path):
    r = run(executor, tmp_path, pipeline(*CHAIN, sink("out", "label")),
            {"src.csv": "id,q,x\nb1,1,no\nb2,x,1\n"})
    assert r.rows("out.csv") == []
    assert (tmp_path / "out" / "out.csv").read_text(encoding="utf-8").startswith("id,")
    assert [e[:2] for e in _dlq_rows(r)] == [("1", "transform:parse"), ("2", "source")]


def test_a_clean_run_splits_off_nothing(executor, tmp_path):
    r = run(executor, tmp_path, pipeline(*CHAIN, sink("out", "label")),
            {"src.csv": "id,q,x\nc1,1,1\nc2,2,2\n"})
    assert r.column("out.csv", "id") == ["c1", "c2"]
    assert dlq(r) == []
    assert not any(t["name"] == "label.failed" and t["kind"] == "checkpoint"
                   for t in r.result.timings)


def test_the_entry_type_read_back_is_the_carried_one(executor, tmp_path):
    # failures.jsonl is read with DLQ_TYPE: it must be the type the chain carries
    run(executor, tmp_path, pipeline(*CHAIN, sink("out", "label")), {"src.csv": ROWS})
    spark = executor.spark
    carried = spark.table("`label.carry`").schema["$dlq"].dataType
    declared = spark.sql(f"SELECT from_json('{{}}', '{DLQ_TYPE}') AS e").schema["e"].dataType
    assert carried.simpleString() == declared.simpleString()  # nullability aside


def test_a_source_with_no_rows(executor, tmp_path):
    # the write has the marker line only: the output is its header
    r = run(executor, tmp_path, pipeline(*CHAIN, sink("out", "label")), {"src.csv": "id,q,x\n"})
    assert (tmp_path / "out" / "out.csv").read_text(encoding="utf-8") == "id,q,x,n,tag\n"
    assert dlq(r) == [] and r.result.counts["total"] == 0


def _triggers(r) -> dict:
    return next(t for t in r.result.timings if t["name"] == "$pipeline.triggers"
                and t["kind"] == "checkpoint")


def test_a_few_side_lines_are_read_as_they_are(executor, tmp_path, monkeypatch):
    """The triggers read only the side lines: they get no copy of their own, unless the
    side holds more lines than SMALL_SIDE_ROWS; the DLQ is the same either way."""
    from clinker_sql.runtime import runner

    r = run(executor, tmp_path, pipeline(*CHAIN, sink("out", "label")), {"src.csv": ROWS})
    _same_dlq(_dlq_rows(r))
    assert _triggers(r).get("small") is True
    monkeypatch.setattr(runner, "SMALL_SIDE_ROWS", 2)
    (tmp_path / "many").mkdir()
    r = run(executor, tmp_path / "many", pipeline(*CHAIN, sink("out", "label")),
            {"src.csv": ROWS})
    _same_dlq(_dlq_rows(r))
    assert "small" not in _triggers(r)
