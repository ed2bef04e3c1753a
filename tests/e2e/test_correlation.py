"""Correlation keys end to end (spec §4.1): a failing record takes its whole group with it,
only within its own source; compound keys with null parts; group overflow; a group that
spans route branches; and the per-source accounting in run_results.

Each test also checks that every source row ended up in exactly one place (written, in
the DLQ, or removed), from the counts the run reports.
"""

from __future__ import annotations

from .pipelines import dlq, pipeline, run, sink, source, transform

def yaml(*nodes: str, extra: str = "") -> str:
    return pipeline(*nodes, name="ck", extra=extra)


def accounted(r, source: str, written: int, triggers: int, collaterals: int,
              removed: int = 0) -> None:
    fates = r.result.per_source[source]
    assert (fates["written"], fates["dlq_triggers"], fates["dlq_collaterals"],
            fates["removed"]) == (written, triggers, collaterals, removed), fates
    assert fates["total"] == written + triggers + collaterals + removed


def test_two_sources_share_a_key_value_and_only_the_failing_source_rolls_back(
        executor, tmp_path):
    r = run(executor, tmp_path, yaml(
        source("a", "id, grp, amt", "grp"), source("b", "id, grp, amt", "grp"),
        """
  - type: merge
    name: m
    inputs: [a, b]
""",
        transform("calc", "m", "emit id = id\nemit grp = grp\nemit n = amt.to_int()"),
        sink("out", "calc")), {
        "a.csv": "id,grp,amt\na1,G1,1\na2,G1,oops\na3,G2,3\n",
        "b.csv": "id,grp,amt\nb1,G1,10\nb2,G2,20\n",
    })
    # G1 failed in source a only: a1 is a collateral, b1 (source b, same key) is spared
    assert sorted(r.column("out.csv", "id")) == ["a3", "b1", "b2"]
    assert dlq(r) == [("a", "1", "correlated", "false", "correlation_commit"),
                      ("a", "2", "type_coercion_failure", "true", "transform:calc")]
    accounted(r, "a", written=1, triggers=1, collaterals=1)
    accounted(r, "b", written=2, triggers=0, collaterals=0)
    assert r.result.exit_code == 2


def test_compound_key_with_a_null_part_groups_on_the_remaining_values(executor, tmp_path):
    r = run(executor, tmp_path, yaml(
        source("s", "id, region, grp, amt", "[region, grp]"),
        transform("calc", "s", "emit id = id\nemit n = amt.to_int()"),
        sink("out", "calc")), {
        # (EU, null) x2 form one group; (EU, G1) is another; (null, null) rows are singletons
        "s.csv": "id,region,grp,amt\n"
                 "r1,EU,,1\nr2,EU,,bad\nr3,EU,G1,3\nr4,,,bad\nr5,,,5\nr6,EU,,6\n",
    })
    assert r.column("out.csv", "id") == ["r3", "r5"]
    triggers = {(row, trig) for _, row, _, trig, _ in dlq(r)}
    assert triggers == {("1", "false"), ("2", "true"), ("4", "true"), ("6", "false")}
    accounted(r, "s", written=2, triggers=2, collaterals=2)


def test_empty_key_is_a_group_of_one(executor, tmp_path):
    r = run(executor, tmp_path, yaml(
        source("s", "id, grp, amt", "grp"),
        transform("calc", "s", "emit id = id\nemit n = amt.to_int()"),
        sink("out", "calc")), {
        "s.csv": "id,grp,amt\nx1,,bad\nx2,,2\nx3,G,3\n",
    })
    assert r.column("out.csv", "id") == ["x2", "x3"]
    assert dlq(r) == [("s", "1", "type_coercion_failure", "true", "transform:calc")]
    accounted(r, "s", written=2, triggers=1, collaterals=0)


def test_overflowing_group_goes_to_the_dlq_whole_across_sources(executor, tmp_path):
    r = run(executor, tmp_path, yaml(
        source("a", "id, grp, amt", "grp"), source("b", "id, grp, amt", "grp"),
        """
  - type: merge
    name: m
    inputs: [a, b]
""",
        sink("out", "m"), extra="max_group_buffer: 3"), {
        # G1 has 4 rows over two sources (> 3): every one of them is dead-lettered, the
        # first as the group_size_exceeded trigger; G2 (3 rows) is written
        "a.csv": "id,grp,amt\na1,G1,1\na2,G2,2\na3,G1,3\n",
        "b.csv": "id,grp,amt\nb1,G1,1\nb2,G2,2\nb3,G1,3\nb4,G2,4\n",
    })
    assert sorted(r.column("out.csv", "id")) == ["a2", "b2", "b4"]
    entries = dlq(r)
    assert len(entries) == 4 and {e[4] for e in entries} == {"correlation_commit"}
    assert [e[2:4] for e in entries].count(("group_size_exceeded", "true")) == 1
    assert [e[2:4] for e in entries].count(("correlated", "false")) == 3
    accounted(r, "a", written=1, triggers=1, collaterals=1)
    accounted(r, "b", written=2, triggers=0, collaterals=2)


def test_route_group_failing_on_one_branch_is_rejected_from_every_branch(executor, tmp_path):
    r = run(executor, tmp_path, yaml(
        source("s", "id, grp, amt", "grp"),
        """
  - type: route
    name: split
    input: s
    config:
      mode: exclusive
      conditions:
        big: "amt.length() > 1"
      default: small
""",
        transform("check_big", "split.big", "emit id = id\nemit n = amt.to_int()"),
        sink("big", "check_big"), sink("small", "split.small")), {
        # G1 spans both branches; its row on the big branch fails, so its row on the small
        # branch is not written either; G2 is clean on both branches
        "s.csv": "id,grp,amt\nr1,G1,5\nr2,G1,xx\nr3,G2,7\nr4,G2,77\n",
    })
    assert r.column("big.csv", "id") == ["r4"]
    assert r.column("small.csv", "id") == ["r3"]
    assert dlq(r) == [("s", "1", "correlated", "false", "correlation_commit"),
                      ("s", "2", "type_coercion_failure", "true", "transform:check_big")]
    accounted(r, "s", written=2, triggers=1, collaterals=1)


def test_inclusive_route_dead_letters_a_source_row_once(executor, tmp_path):
    r = run(executor, tmp_path, yaml(
        source("s", "id, grp, amt", "grp"),
        """
  - type: route
    name: fan
    input: s
    config:
      mode: inclusive
      conditions:
        one: "true"
        two: "true"
      default: other
""",
        transform("t1", "fan.one", "emit id = id\nemit n = amt.to_int()"),
        transform("t2", "fan.two", "emit id = id"),
        sink("one", "t1"), sink("two", "t2"), sink("other", "fan.other")), {
        "s.csv": "id,grp,amt\nr1,G1,bad\nr2,G2,2\nr3,G1,3\n",
    })
    assert r.column("one.csv", "id") == ["r2"]
    assert r.column("two.csv", "id") == ["r2"]
    assert sorted((row, trig) for _, row, _, trig, _ in dlq(r)) == [("1", "true"),
                                                                   ("3", "false")]
    accounted(r, "s", written=1, triggers=1, collaterals=1)


def test_filtered_rows_are_counted_as_removed(executor, tmp_path):
    r = run(executor, tmp_path, yaml(
        source("s", "id, grp, amt", "grp"),
        transform("keep", "s", "filter amt != \"0\"\nemit id = id\nemit n = amt.to_int()"),
        sink("out", "keep")), {
        "s.csv": "id,grp,amt\nr1,G1,0\nr2,G2,x\nr3,G3,3\nr4,G2,4\n",
    })
    assert r.column("out.csv", "id") == ["r3"]
    accounted(r, "s", written=1, triggers=1, collaterals=1, removed=1)


def test_a_clean_correlated_run_copies_no_empty_dlq_or_overflow(executor, tmp_path):
    """No trigger and no group over the limit: the runner knows the collaterals, the
    overflow's first records and the DLQ have no row, and runs no job to copy them."""
    r = run(executor, tmp_path, yaml(
        source("s", "id, grp, amt", "grp"),
        transform("calc", "s", "emit id = id\nemit n = amt.to_int()"),
        sink("out", "calc"), extra="max_group_buffer: 3"), {
        "s.csv": "id,grp,amt\nr1,G1,1\nr2,G2,2\nr3,G1,3\n"})
    assert r.column("out.csv", "id") == ["r1", "r2", "r3"] and dlq(r) == []
    copies = {t["name"]: t.get("empty", False) for t in r.result.timings
              if t["kind"] == "checkpoint"}
    assert copies["$pipeline.ck_big"] is False  # counted: the groups' sizes are not known
    assert copies["$pipeline.ck_overflow"] is True and copies["$pipeline.dlq"] is True
    accounted(r, "s", written=3, triggers=0, collaterals=0)
