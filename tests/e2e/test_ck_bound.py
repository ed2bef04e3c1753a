"""Oversized correlation groups known absent without counting them
(codegen/correlation.py, `_sketch_bound`): each correlated source's keys are counted into a
count-min sketch while its rows are read, and when no group can exceed max_group_buffer
the runner defines `$pipeline.ck_big` as empty with no job. When the sketch cannot tell,
the groups are counted as ever."""

from __future__ import annotations

from clinker_sql.runtime.runner import sketch_max

from .pipelines import (dlq, pipeline, project, run, sink, source, step, transform,
                        write_case)

ROUTE = """
  - type: route
    name: by_region
    input: calc
    config:
      mode: exclusive
      conditions:
        intl: "region == \\"intl\\""
      default: home
"""


def routed(extra: str = "", key: str = "cust") -> str:
    return pipeline(
        source("orders", "id, cust, region, amt", key),
        transform("calc", "orders", "emit n = amt.to_int()"),
        ROUTE, sink("intl", "by_region.intl"), sink("home", "by_region.home"),
        name="routed", extra=extra)


def _big(r) -> dict:
    (entry,) = [t for t in r.result.timings if t["name"] == "$pipeline.ck_big"
                and t["kind"] == "checkpoint"]
    return entry


def _bound(tmp_path, text: str) -> dict | None:
    compiled = project(write_case(tmp_path, text, {}), tmp_path / "target").compile()
    (big,) = [s for s in compiled.statements
              if s.kind == "checkpoint" and s.name == "$pipeline.ck_big"]
    return big.step.bound


def test_the_keys_are_sketched_as_the_commit_compares_them(tmp_path):
    assert _bound(tmp_path, routed()) == {
        "limit": 100000, "sketches": {"orders.rows": "NULLIF(COALESCE(`cust`, ''), '')"},
        "factor": 1}
    (tmp_path / "compound" / "out").mkdir(parents=True)
    compound = _bound(tmp_path / "compound", routed(key="[cust, region]"))
    assert "TO_JSON(ARRAY(" in compound["sketches"]["orders.rows"]


def aggregated(group_by: str, raw: bool = False, extra: str = "", after: str = "") -> str:
    """calc -> aggregate per_cust (group_by `group_by`) -> out, and calc -> raw when
    `raw`; `after`: more nodes."""
    return pipeline(
        source("orders", "id, cust, dept, amt", "cust"),
        transform("calc", "orders", "emit n = amt.to_int()"),
        step("aggregate", "per_cust", "calc", f"emit {group_by} = {group_by}\n"
             "emit total = sum(n)", f"\n      group_by: [{group_by}]"),
        sink("out", "per_cust"), sink("raw", "calc") if raw else "", after,
        name="agg", extra=extra)


def test_an_aggregate_counts_once_more_in_the_bound(tmp_path):
    assert _bound(tmp_path, aggregated("cust"))["factor"] == 2


def test_no_bound_when_records_may_carry_other_keys_or_a_check_stops_early(tmp_path):
    again = aggregated("dept", after=step(
        "aggregate", "again", "per_cust", "emit dept = dept\nemit total = sum(total)",
        "\n      group_by: [dept]") + sink("twice", "again"))
    assert _bound(tmp_path, again) is None  # an aggregate of an aggregate's rows
    (tmp_path / "ff" / "out").mkdir(parents=True)
    fail_fast = routed().replace("strategy: continue", "strategy: fail_fast")
    assert _bound(tmp_path / "ff", fail_fast) is None


CLEAN = {"orders.csv": "id,cust,region,amt\n1,c1,intl,5\n2,c2,home,7\n3,c1,home,2\n"}


def test_a_clean_run_counts_no_group(executor, tmp_path):
    r = run(executor, tmp_path, routed(), CLEAN)
    assert _big(r)["bounded"] == 2  # c1's two orders, in their cell of the sketch
    assert r.column("intl.csv", "id") == ["1"] and r.column("home.csv", "id") == ["2", "3"]
    assert dlq(r) == [] and r.result.counts["written"] == 3


def test_failing_rows_keep_their_collaterals_under_the_bound(executor, tmp_path):
    r = run(executor, tmp_path, routed(), {
        "orders.csv": "id,cust,region,amt\n1,c1,intl,5\n2,c2,home,7\n3,c1,home,oops\n"})
    assert "bounded" in _big(r)
    assert r.column("intl.csv", "id") == [] and r.column("home.csv", "id") == ["2"]
    assert dlq(r) == [("orders", "1", "correlated", "false", "correlation_commit"),
                      ("orders", "3", "type_coercion_failure", "true", "transform:calc")]


def test_a_group_over_the_buffer_is_counted_and_sent_to_the_dlq(executor, tmp_path):
    rows = "".join(f"{i},big,{'intl' if i % 2 else 'home'},{i}\n" for i in range(1, 1202))
    r = run(executor, tmp_path, routed("max_group_buffer: 1200"),
            {"orders.csv": "id,cust,region,amt\n" + rows + "9001,small,home,1\n"})
    assert "bounded" not in _big(r)
    assert r.column("home.csv", "id") == ["9001"] and r.column("intl.csv", "id") == []
    entries = dlq(r)
    assert len(entries) == 1201
    assert entries[0] == ("orders", "1", "group_size_exceeded", "true", "correlation_commit")
    assert {e[2] for e in entries[1:]} == {"correlated"}


def test_a_group_split_over_two_sources_is_bounded_by_both_sketches(executor, tmp_path):
    """700 rows of G in each source: neither sketch alone exceeds the buffer of 1200, their
    sum does, and the group of 1400 records overflows."""
    text = pipeline(
        source("a", "id, grp, amt", "grp"), source("b", "id, grp, amt", "grp"), """
  - type: merge
    name: m
    inputs: [a, b]
""", transform("calc", "m", "emit id = id\nemit n = amt.to_int()"), sink("out", "calc"),
        name="two", extra="max_group_buffer: 1200")
    rows = "".join(f"{{s}}{i},G,{i}\n" for i in range(700))
    r = run(executor, tmp_path, text, {"a.csv": "id,grp,amt\n" + rows.format(s="a"),
                                       "b.csv": "id,grp,amt\n" + rows.format(s="b")})
    assert "bounded" not in _big(r)
    assert r.column("out.csv", "id") == [] and len(dlq(r)) == 1400


def test_the_sketch_never_counts_a_key_short(executor):
    sketch = next(executor.query(
        "SELECT count_min_sketch(k, 0.0005D, 0.5D, 0) AS s, max(n) AS exact FROM ("
        "SELECT k, count(*) OVER (PARTITION BY k) AS n FROM ("
        "SELECT CAST(id % 997 AS STRING) AS k FROM range(20000) "
        "UNION ALL SELECT 'hot' FROM range(300)))"))
    assert sketch_max(bytes(sketch["s"])) >= sketch["exact"] == 300


def test_a_strict_aggregate_s_rows_count_in_their_key_s_group(executor, tmp_path):
    """1200 rows of `big` reach `raw` and their group's row reaches `out`: 1201 records
    over a buffer of 1200. The sketch's cell (1200) is within the buffer; times two it is
    not, and the groups are counted."""
    rows = "".join(f"{i},big,d,{i}\n" for i in range(1, 1201))
    r = run(executor, tmp_path, aggregated("cust", raw=True, extra="max_group_buffer: 1200"),
            {"orders.csv": "id,cust,dept,amt\n" + rows + "9001,small,d,1\n"})
    assert "bounded" not in _big(r)
    assert r.column("raw.csv", "id") == ["9001"]
    assert r.rows("out.csv") == [{"cust": "small", "total": "1"}]
    assert len(dlq(r)) == 1201


def test_a_retraction_aggregate_is_bounded_by_the_sketch(executor, tmp_path):
    r = run(executor, tmp_path, aggregated("dept", raw=True), {
        "orders.csv": "id,cust,dept,amt\n1,c1,a,5\n2,c2,a,7\n3,c1,b,2\n4,c3,b,x\n"})
    assert _big(r)["bounded"] == 4  # c1's two orders, times two
    assert r.rows("out.csv") == [{"dept": "a", "total": "12"}, {"dept": "b", "total": "2"}]
    assert r.column("raw.csv", "id") == ["1", "2", "3"]
    assert dlq(r) == [("orders", "4", "type_coercion_failure", "true", "transform:calc")]
