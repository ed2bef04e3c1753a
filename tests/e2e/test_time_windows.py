"""Time-windowed aggregates end to end (codegen/time_window.py): records windowed by event
time in arrival order after a transform and a route, late records in the DLQ, windows
over a date column, and a late record under fail_fast. The rules are Clinker's
(clinker-exec executor/aggregate_dispatch.rs, run_time_windowed_aggregate)."""

from __future__ import annotations

from .pipelines import dlq, pipeline, route, run, run_fails, sink, source, transform

WINDOWED = """
  - type: aggregate
    name: hourly
    input: {input}
    config:
      group_by: [user_id]
      time_window:
        {window}{lateness}
      cxl: |
        emit user_id = user_id
        {emits}
"""


def _watermarked(text: str, column: str = "event_ts") -> str:
    return text.replace("      schema:\n", f"      watermark: {{ column: {column} }}\n"
                        "      schema:\n", 1)


def test_hopping_windows_after_a_transform_and_a_route(executor, tmp_path):
    # arrival order decides: 10:10 comes after 11:40, when both its windows
    # ([09:30, 10:30) and [10:00, 11:00)) are closed even with 10m of lateness: the DLQ;
    # 11:05 then finds [10:30, 11:30) closed (11:30 + 10m <= 11:40) and [11:00, 12:00)
    # open: counted there only; the null event time is in no window; u3's row leaves by
    # the route's other branch and never reaches the aggregate's watermark
    r = run(executor, tmp_path, pipeline(
        _watermarked(source("events", "user_id, event_ts: date_time?, amount: int")),
        transform("cents", "events", "emit cents = amount * 100"),
        route("split", "cents", "small", "amount < 50", "big"),
        WINDOWED.format(input="split.small", window="hopping: { size: 1h, slide: 30m }",
                        lateness="\n      allowed_lateness: 10m",
                        emits="emit total = sum(cents)\n        emit n = count(*)"),
        sink("out", "hourly", "\n      include_unmapped: false"),
        sink("rest", "split.big", "\n      include_unmapped: false")), {
        "events.csv": "user_id,event_ts,amount\n"
                      "u1,2026-05-14T10:05:00,10\n"
                      "u2,2026-05-14T10:20:00,5\n"
                      "u3,2026-05-14T23:50:00,100\n"
                      "u1,2026-05-14T11:40:00,7\n"
                      "u1,2026-05-14T10:10:00,3\n"
                      "u2,2026-05-14T11:05:00,1\n"
                      "u1,,4\n",
    })
    # window order ([09:30, ...), [10:00, ...), [11:00, ...), [11:30, ...)), then first seen
    assert [(x["user_id"], x["total"], x["n"]) for x in r.rows("out.csv")] == [
        ("u1", "1000", "1"), ("u2", "500", "1"), ("u1", "1000", "1"), ("u2", "500", "1"),
        ("u1", "700", "1"), ("u2", "100", "1"), ("u1", "700", "1")]
    assert r.column("rest.csv", "cents") == ["10000"]  # u3: the transform's emits only
    assert dlq(r) == [("events", "5", "late_record", "true", "time_window:hourly")]
    entry = r.rows("dlq.csv")[0]
    assert entry["_cxl_dlq_error_detail"] == (
        "time-window hourly: record at event-time inside window [1778751000000000000, "
        "1778754600000000000) (nanos) which had already closed")
    assert (entry["user_id"], entry["event_ts"], entry["amount"]) == \
        ("u1", "2026-05-14T10:10:00", "3")


def test_tumbling_days_over_a_date_column_align_on_the_epoch(executor, tmp_path):
    # a date is its midnight, UTC; 2-day windows start on even days since 1970-01-01:
    # 2026-05-14 is day 20587, in [05-13, 05-15)
    r = run(executor, tmp_path, pipeline(
        _watermarked(source("days", "user_id, event_ts: date")),
        WINDOWED.format(input="days", window="tumbling: { size: 2d }", lateness="",
                        emits="emit n = count(*)"),
        sink("out", "hourly", "\n      include_unmapped: false")), {
        "days.csv": "user_id,event_ts\nu1,2026-05-13\nu1,2026-05-14\nu1,2026-05-15\n",
    })
    assert [(x["user_id"], x["n"]) for x in r.rows("out.csv")] == [("u1", "2"), ("u1", "1")]
    assert dlq(r) == []


def test_a_late_record_under_fail_fast_refuses_the_run(executor, tmp_path):
    text = pipeline(
        _watermarked(source("clicks", "user_id, event_ts: date_time")),
        WINDOWED.format(input="clicks", window="tumbling: { size: 1h }", lateness="",
                        emits="emit n = count(*)"),
        sink("out", "hourly")).replace("strategy: continue", "strategy: fail_fast")
    error = run_fails(executor, tmp_path, text, {
        "clicks.csv": "user_id,event_ts\nu1,2026-05-14T09:00:00\nu1,2026-05-14T10:30:00\n"
                      "u1,2026-05-14T09:30:00\n"})
    assert error.diagnostics[0].code == "CS001"
    assert "late record under `strategy: fail_fast`" in error.diagnostics[0].message
    assert not (tmp_path / "out" / "out.csv").exists()
