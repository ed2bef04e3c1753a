"""Aggregates end to end (spec §2.3, §4.2; CXL spec §7): each function's null handling, the
strict path with two sources, and the retraction path — Reversible and BufferRequired
bindings, an emptied group, a failure after the aggregate, a window after a relaxed
aggregate.

The retraction contract is Clinker's: the output equals a rerun with the failing source
rows (and the rest of their correlation groups) removed. Most tests check that literally,
by running the pipeline a second time on the cleaned input, besides the expected values.
"""

from __future__ import annotations

from pathlib import Path

from .pipelines import dlq, pipeline, run, source, step
from .pipelines import sink as shared_sink


def sink(name: str, input_: str) -> str:
    return shared_sink(name, input_, "\n      include_unmapped: false")


def by(rows: list[dict[str, str]], key: str) -> dict[str, dict[str, str]]:
    return {r[key]: r for r in rows}


def without_rows(text: str, rows: set[int]) -> str:
    """The CSV text without the given 1-based data rows."""
    lines = text.splitlines(keepends=True)
    return lines[0] + "".join(line for i, line in enumerate(lines[1:], 1) if i not in rows)


def rerun_equals(executor, tmp_path: Path, yaml_text: str, files: dict[str, str],
                 removed: dict[str, set[int]], r, sinks: list[str], key: str) -> None:
    """Clinker's contract: the output equals a rerun with the failing rows removed."""
    clean = {name: without_rows(text, removed.get(name.split(".")[0], set()))
             for name, text in files.items()}
    (tmp_path / "rerun").mkdir()
    again = run(executor, tmp_path / "rerun", yaml_text, clean)
    assert dlq(again) == []
    for s in sinks:
        assert by(r.rows(f"{s}.csv"), key) == by(again.rows(f"{s}.csv"), key), s


# ---------------------------------------------------------------------------
# null handling of each aggregate function (no correlation key: plain GROUP BY)
# ---------------------------------------------------------------------------


def test_each_aggregate_function_null_handling(executor, tmp_path):
    r = run(executor, tmp_path, pipeline(
        source("s", "g, v: int?, w: int?, f: float?"),
        step("aggregate", "agg", "s", """
            emit g = g
            emit s = sum(v)
            emit c = count(v)
            emit cs = count(*)
            emit av = avg(v)
            emit mn = min(v)
            emit mx = max(v)
            emit col = collect(v)
            emit wa = weighted_avg(v, w)
            emit fs = sum(f)
        """, "\n      group_by: [g]"),
        sink("out", "agg")), {
        "s.csv": "g,v,w,f\na,1,1,0.5\na,,2,\na,3,,1.25\nb,,,\nb,,1,\n",
    })
    rows = by(r.rows("out.csv"), "g")
    a, b = rows["a"], rows["b"]
    assert (a["s"], a["c"], a["cs"], a["mn"], a["mx"]) == ("4", "2", "3", "1", "3")
    assert float(a["av"]) == 2.0 and float(a["wa"]) == 1.0 and float(a["fs"]) == 1.75
    assert a["col"] == "1;;3"  # arrival order, nulls kept; a CSV cell joins with ';'
    # a group with no values: sum/avg/min/max/weighted_avg are null, counts are not
    assert (b["s"], b["c"], b["cs"], b["av"], b["mn"], b["mx"], b["wa"], b["fs"]) == \
        ("", "0", "2", "", "", "", "", "")
    assert b["col"] == ";"
    assert dlq(r) == []


def test_global_aggregate_over_empty_input_emits_one_default_row(executor, tmp_path):
    r = run(executor, tmp_path, pipeline(
        source("s", "g, v: int?"),
        step("aggregate", "agg", "s", """
            filter v > 100
            emit s = sum(v)
            emit n = count(*)
            emit av = avg(v)
        """, "\n      group_by: []"),
        sink("out", "agg")), {"s.csv": "g,v\na,1\nb,2\n"})
    assert r.rows("out.csv") == [{"s": "", "n": "0", "av": ""}]


def test_sum_overflow_is_an_aggregate_finalize_failure(executor, tmp_path):
    r = run(executor, tmp_path, pipeline(
        source("s", "g, v: int"),
        step("aggregate", "agg", "s", "emit g = g\nemit s = sum(v)", "\n      group_by: [g]"),
        sink("out", "agg")), {
        "s.csv": "g,v\na,9223372036854775807\na,1\nb,5\n",
    })
    assert r.rows("out.csv") == [{"g": "b", "s": "5"}]
    assert [(cat, stage) for _, _, cat, _, stage in dlq(r)] == [
        ("aggregate_finalize", "aggregate:agg")]


# ---------------------------------------------------------------------------
# strict path: group_by covers the correlation key
# ---------------------------------------------------------------------------


def test_strict_path_with_two_sources_rolls_back_only_the_dirty_group(executor, tmp_path):
    yaml_text = pipeline(
        source("a", "emp, v", "emp"), source("b", "emp, v", "emp"),
        """
  - type: merge
    name: m
    inputs: [a, b]
""",
        step("transform", "check", "m", "emit emp = emp\nemit n = v.to_int()"),
        step("aggregate", "agg", "check", "emit emp = emp\nemit total = sum(n)\nemit k = count(*)",
             "\n      group_by: [emp]"),
        sink("out", "agg"))
    r = run(executor, tmp_path, yaml_text, {
        "a.csv": "emp,v\nA,1\nA,bad\nB,7\n",
        "b.csv": "emp,v\nA,5\nB,11\nC,2\n",
    })
    # the strict path groups per document (input file): B gives one row per file. A failed
    # in file a: A's aggregate rows are rolled back in both files (aggregate rows are never
    # spared by source narrowing), each a `<merged>` collateral; B and C stay
    assert sorted((x["emp"], x["total"], x["k"]) for x in r.rows("out.csv")) == [
        ("B", "11", "1"), ("B", "7", "1"), ("C", "2", "1")]
    assert sorted(dlq(r)) == [
        ("<merged>", "0", "correlated", "false", "correlation_commit"),
        ("<merged>", "0", "correlated", "false", "correlation_commit"),
        ("a", "2", "type_coercion_failure", "true", "transform:check")]


# ---------------------------------------------------------------------------
# retraction path: group_by omits the correlation key
# ---------------------------------------------------------------------------

ORDERS = "order_id, dept, amount, weight"


def test_reversible_retraction_recomputes_sum_count_collect(executor, tmp_path):
    yaml_text = pipeline(
        source("o", ORDERS, "order_id"),
        step("transform", "check", "o", """
            emit order_id = order_id
            emit dept = dept
            emit amt = amount.to_int()
        """),
        step("aggregate", "totals", "check", """
            emit dept = dept
            emit total = sum(amt)
            emit n = count(*)
            emit ids = collect(order_id)
        """, "\n      group_by: [dept]"),
        sink("out", "totals"))
    files = {"o.csv": "order_id,dept,amount,weight\n"
                      "O1,HR,10,1\nO2,HR,x,1\nO3,ENG,5,1\nO4,HR,20,1\nO5,ENG,7,1\n"}
    r = run(executor, tmp_path, yaml_text, files)
    rows = by(r.rows("out.csv"), "dept")
    assert (rows["HR"]["total"], rows["HR"]["n"], rows["HR"]["ids"]) == ("30", "2", "O1;O4")
    assert (rows["ENG"]["total"], rows["ENG"]["n"], rows["ENG"]["ids"]) == ("12", "2", "O3;O5")
    # only the trigger is dead-lettered
    assert dlq(r) == [("o", "2", "type_coercion_failure", "true", "transform:check")]
    rerun_equals(executor, tmp_path, yaml_text, files, {"o": {2}}, r, ["out"], "dept")


def test_buffer_required_retraction_recomputes_min_max_avg_from_survivors(executor, tmp_path):
    yaml_text = pipeline(
        source("o", ORDERS, "order_id"),
        step("transform", "check", "o", """
            emit order_id = order_id
            emit dept = dept
            emit amt = amount.to_int()
            emit wt = weight.to_int()
        """),
        step("aggregate", "stats", "check", """
            emit dept = dept
            emit lo = min(amt)
            emit hi = max(amt)
            emit mean = avg(amt)
            emit wavg = weighted_avg(amt, wt)
        """, "\n      group_by: [dept]"),
        sink("out", "stats"))
    # order O2 has a valid HR line (the HR maximum, 99) and a failing ENG line: the whole
    # order is retracted, so HR's max/avg come from the surviving rows
    files = {"o.csv": "order_id,dept,amount,weight\n"
                      "O1,HR,10,1\nO2,HR,99,1\nO2,ENG,bad,1\nO3,HR,20,3\nO4,ENG,5,2\n"
                      "O5,ENG,7,2\n"}
    r = run(executor, tmp_path, yaml_text, files)
    rows = by(r.rows("out.csv"), "dept")
    assert (rows["HR"]["lo"], rows["HR"]["hi"]) == ("10", "20")
    assert float(rows["HR"]["mean"]) == 15.0 and float(rows["HR"]["wavg"]) == 17.5
    assert (rows["ENG"]["lo"], rows["ENG"]["hi"]) == ("5", "7")
    assert float(rows["ENG"]["mean"]) == 6.0 and float(rows["ENG"]["wavg"]) == 6.0
    assert ("o", "3", "type_coercion_failure", "true", "transform:check") in dlq(r)
    rerun_equals(executor, tmp_path, yaml_text, files, {"o": {2, 3}}, r, ["out"], "dept")


def test_a_group_left_empty_disappears(executor, tmp_path):
    yaml_text = pipeline(
        source("o", ORDERS, "order_id"),
        step("transform", "check", "o",
             "emit order_id = order_id\nemit dept = dept\nemit amt = amount.to_int()"),
        step("aggregate", "totals", "check", "emit dept = dept\nemit total = sum(amt)\n"
             "emit top = max(amt)", "\n      group_by: [dept]"),
        sink("out", "totals"))
    files = {"o.csv": "order_id,dept,amount,weight\n"
                      "O1,OPS,x,1\nO2,HR,4,1\nO3,OPS,y,1\nO4,HR,6,1\n"}
    r = run(executor, tmp_path, yaml_text, files)
    assert r.rows("out.csv") == [{"dept": "HR", "total": "10", "top": "6"}]
    assert sorted(e[1] for e in dlq(r)) == ["1", "3"]
    rerun_equals(executor, tmp_path, yaml_text, files, {"o": {1, 3}}, r, ["out"], "dept")


def test_failure_after_the_aggregate_retracts_its_contributors(executor, tmp_path):
    yaml_text = pipeline(
        source("o", ORDERS, "order_id"),
        step("transform", "check", "o",
             "emit order_id = order_id\nemit dept = dept\nemit amt = amount.to_int()"),
        step("aggregate", "totals", "check",
             "emit dept = dept\nemit total = sum(amt)\nemit n = count(*)",
             "\n      group_by: [dept]"),
        # fails on a group of exactly two rows (division by zero)
        step("transform", "ratio", "totals",
             "emit dept = dept\nemit total = total\nemit per = total / (n - 2)"),
        sink("out", "ratio"))
    files = {"o.csv": "order_id,dept,amount,weight\n"
                      "O1,HR,10,1\nO2,ENG,1,1\nO3,HR,20,1\nO4,ENG,2,1\nO5,ENG,3,1\n"}
    r = run(executor, tmp_path, yaml_text, files)
    # HR (two rows) fails in `ratio`: only the aggregate row is dead-lettered (source row 0);
    # its contributors are retracted without entries, so HR disappears; ENG is untouched
    assert r.rows("out.csv") == [{"dept": "ENG", "total": "6", "per": "6"}]
    assert [e[1:] for e in dlq(r)] == [("0", "type_coercion_failure", "true",
                                        "transform:ratio")]


def test_window_after_a_relaxed_aggregate_is_recomputed_without_the_retracted_row(
        executor, tmp_path):
    yaml_text = pipeline(
        source("o", "order_id, region, dept, amount", "order_id"),
        step("transform", "check", "o", """
            emit order_id = order_id
            emit region = region
            emit dept = dept
            emit amt = amount.to_int()
        """),
        step("aggregate", "totals", "check", "emit region = region\nemit dept = dept\n"
             "emit total = sum(amt)", "\n      group_by: [region, dept]"),
        step("transform", "share", "totals", """
            emit region = region
            emit dept = dept
            emit total = total
            emit region_total = $window.sum(total)
            emit rank = $window.row_number()
        """, "\n      analytic_window:\n        group_by: [region]\n        sort_by:\n"
             "          - { field: total, order: desc }"),
        sink("out", "share"))
    # order O2's ENG line (50) reaches the aggregate, its HR line fails: the whole order is
    # retracted, so EU ENG drops to 12 and the EU window is ranked and summed again
    files = {"o.csv": "order_id,region,dept,amount\n"
                      "O1,EU,HR,10\nO2,EU,ENG,50\nO2,EU,HR,bad\nO4,EU,OPS,30\n"
                      "O5,US,HR,8\nO6,EU,OPS,25\nO7,EU,ENG,12\n"}
    r = run(executor, tmp_path, yaml_text, files)
    rows = {(x["region"], x["dept"]): x for x in r.rows("out.csv")}
    assert {k: (v["total"], v["region_total"], v["rank"]) for k, v in rows.items()} == {
        ("EU", "OPS"): ("55", "77", "1"), ("EU", "ENG"): ("12", "77", "2"),
        ("EU", "HR"): ("10", "77", "3"), ("US", "HR"): ("8", "8", "1")}
    assert ("o", "3", "type_coercion_failure", "true", "transform:check") in dlq(r)
    clean = {"o.csv": without_rows(files["o.csv"], {2, 3})}
    (tmp_path / "rerun").mkdir()
    again = run(executor, tmp_path / "rerun", yaml_text, clean)
    assert {(x["region"], x["dept"]): x for x in again.rows("out.csv")} == rows


def test_nodes_after_the_aggregate_never_see_a_failing_order_s_other_lines(executor, tmp_path):
    """Clinker's commit starts from the forward pass's failures: it retracts them before it
    first runs the nodes after a relaxed aggregate (spec §4.2). Order O2's ENG line would
    push ENG over the gate's limit; it is retracted first, so the gate never fails."""
    yaml_text = pipeline(
        source("o", "order_id, dept, amount", "order_id"),
        step("transform", "check", "o",
             "emit order_id = order_id\nemit dept = dept\nemit amt = amount.to_int()"),
        step("aggregate", "totals", "check", "emit dept = dept\nemit total = sum(amt)",
             "\n      group_by: [dept]"),
        step("transform", "gate", "totals",
             "emit dept = dept\nemit total = total\n"
             "emit ok = if total > 60 then \"over\".to_int() else 1"),
        sink("out", "gate"))
    files = {"o.csv": "order_id,dept,amount\n"
                      "O1,HR,10\nO2,ENG,50\nO2,HR,bad\nO7,ENG,12\n"}
    r = run(executor, tmp_path, yaml_text, files)
    assert by(r.rows("out.csv"), "dept") == by(
        [{"dept": "HR", "total": "10", "ok": "1"}, {"dept": "ENG", "total": "12", "ok": "1"}],
        "dept")
    assert not [e for e in dlq(r) if e[4] == "transform:gate"]
    assert ("o", "3", "type_coercion_failure", "true", "transform:check") in dlq(r)
    rerun_equals(executor, tmp_path, yaml_text, files, {"o": {2, 3}}, r, ["out"], "dept")


def _copy_timing(r, view: str) -> dict:
    return next(t for t in r.result.timings if t["kind"] == "checkpoint" and t["name"] == view)


def test_a_clean_run_reads_the_groups_from_the_chain_s_one_pass(executor, tmp_path):
    """codegen/one_pass.py: the chain's failing rows and the aggregate's groups come from one
    pass; with no failure before the aggregate its rows are those groups (no second pass),
    and with one they are computed again without the retracted order."""
    body = [step("transform", "check", "o",
                 "emit order_id = order_id\nemit dept = dept\nemit amt = amount.to_int()"),
            step("aggregate", "totals", "check", "emit dept = dept\nemit total = sum(amt)\n"
                 "emit lo = min(amt)\nemit n = count(*)", "\n      group_by: [dept]"),
            sink("out", "totals")]
    yaml_text = pipeline(source("o", ORDERS, "order_id"), *body)
    clean = {"o.csv": "order_id,dept,amount,weight\n"
                      "O1,HR,10,1\nO2,ENG,50,1\nO2,HR,4,1\nO3,ENG,12,1\nO4,OPS,7,1\n"}
    r = run(executor, tmp_path, yaml_text, clean)
    assert _copy_timing(r, "totals.final").get("clean") is True
    # the chain's failing rows were counted while the one pass was copied: no copy of theirs
    assert _copy_timing(r, "check.failed").get("side") == 0
    assert r.rows("out.csv") == [{"dept": "HR", "total": "14", "lo": "4", "n": "2"},
                                 {"dept": "ENG", "total": "62", "lo": "12", "n": "2"},
                                 {"dept": "OPS", "total": "7", "lo": "7", "n": "1"}]
    assert dlq(r) == []

    bad = {"o.csv": clean["o.csv"].replace("O2,HR,4", "O2,HR,x")}
    (tmp_path / "bad").mkdir()
    r = run(executor, tmp_path / "bad", yaml_text, bad)
    assert "clean" not in _copy_timing(r, "totals.final")
    assert _copy_timing(r, "check.failed").get("side") == 1
    # order O2 is retracted: its ENG line leaves ENG, and HR keeps only O1
    assert r.rows("out.csv") == [{"dept": "HR", "total": "10", "lo": "10", "n": "1"},
                                 {"dept": "ENG", "total": "12", "lo": "12", "n": "1"},
                                 {"dept": "OPS", "total": "7", "lo": "7", "n": "1"}]
    assert dlq(r) == [("o", "3", "type_coercion_failure", "true", "transform:check")]
