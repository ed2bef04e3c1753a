"""Reshape nodes end to end (codegen/reshape.py; Clinker's reshape_dispatch.rs): Clinker's
employee_plan_backfill example (a reshape feeding a cull), the first conflict of a group,
blank and null keys in one group, a row synthesized by two rules, DLQ attribution of a
synthesized row downstream, and a failing rule expression stopping the run."""

from __future__ import annotations

from .pipelines import dlq, pipeline, run, run_fails, sink, source, transform

PLANS = ("employee_id,plan_start,plan_end,status\nE001,100,90,baseline\nE001,1000,100,baseline\n"
         "E002,200,150,baseline\nE003,50,40,baseline\nE003,300,250,baseline\n"
         "E003,600,550,baseline\nE003,900,850,baseline\n")


def _reshape(name: str, input_: str, config: str) -> str:
    body = "".join(f"      {line}\n" for line in config.strip("\n").splitlines())
    return f"""
  - type: reshape
    name: {name}
    input: {input_}
    config:
{body}"""


BACKFILL = _reshape("backfill", "plans", """
partition_by: [employee_id]
order_by:
  - { field: plan_start, order: asc }
rules:
  - name: split_long_plan
    when: "plan_start - plan_end > 365"
    mutate:
      set:
        plan_end: "plan_start"
    synthesize:
      copy_from: trigger
      overrides:
        status: "'synthesized'"
""")

CULL = """
  - type: cull
    name: flag_large_histories
    input: backfill
    config:
      partition_by: [employee_id]
      removed_to: review
      rules:
        - name: too_many_plans
          drop_group_when: "count(*) > 3"
"""


def _rows(r, name):
    return sorted(tuple(row.values()) for row in r.rows(name))


def test_employee_plan_backfill_example(executor, tmp_path):
    # examples/pipelines/employee_plan_backfill.yaml with its data: E001's long plan is
    # closed and continued by a synthesized row (3 rows: kept); E003 has 4 rows: reviewed
    text = pipeline(source("plans", "employee_id, plan_start: int, plan_end: int, status"),
                    BACKFILL, CULL, sink("out", "flag_large_histories"),
                    sink("review", "flag_large_histories.review"), name="backfill")
    r = run(executor, tmp_path, text, {"plans.csv": PLANS})
    assert _rows(r, "out.csv") == [
        ("E001", "100", "90", "baseline"), ("E001", "1000", "100", "synthesized"),
        ("E001", "1000", "1000", "baseline"), ("E002", "200", "150", "baseline")]
    assert [row["plan_start"] for row in r.rows("review.csv")] == ["50", "300", "600", "900"]
    assert dlq(r) == []


TWO_WRITERS = _reshape("fix", "s", """
partition_by: [g]
order_by:
  - { field: n, order: desc }
rules:
  - name: a
    when: "n > 5"
    mutate:
      set:
        x: "'a'"
  - name: b
    when: "n > 1"
    mutate:
      set:
        y: "'b'"
  - name: c
    when: "n > 8"
    mutate:
      set:
        y: "'c'"
        x: "'c'"
""")


def test_a_group_reports_its_first_conflict_and_is_rolled_back(executor, tmp_path):
    # in group g1, rule c collides with b on y (first in c's set order) on the row first in
    # order_by (n desc: n=10, source row 3); group g2 (n=3: b alone) is written. A blank
    # key ("", row 5) and a null one (row 6, made null upstream) are one group: row 5's
    # conflict rolls row 6 back too.
    text = pipeline(source("s", "g, n: int, x, y"),
                    transform("prep", "s", "emit g = if n == 1 then null else g"),
                    TWO_WRITERS.replace("input: s", "input: prep"), sink("out", "fix"))
    rows = "g,n,x,y\ng1,2,-,-\ng1,9,-,-\ng1,10,-,-\ng2,3,-,-\n,9,-,-\n,1,-,-\n"
    r = run(executor, tmp_path, text, {"s.csv": rows})
    assert _rows(r, "out.csv") == [("g2", "3", "-", "b")]
    entries = dlq(r, ("_cxl_dlq_source_row", "_cxl_dlq_error_category", "_cxl_dlq_stage",
                      "_cxl_dlq_triggering_field", "_cxl_dlq_trigger"))
    assert sorted(entries) == [("3", "mutation_conflict", "reshape:fix:b+c", "y", "true"),
                               ("5", "mutation_conflict", "reshape:fix:b+c", "y", "true")]


SYNTH_TWICE = _reshape("grow", "s", """
partition_by: [g]
rules:
  - name: one
    when: "n > 0"
    synthesize:
      copy_from: trigger
      overrides:
        tag: "'one'"
  - name: two
    when: "n > 1"
    synthesize:
      copy_from: none
      overrides:
        g: "g"
        n: "n * 10"
        tag: "'two'"
""")


def test_two_rules_synthesize_from_one_trigger_row(executor, tmp_path):
    text = pipeline(source("s", "g, n: int, tag"), SYNTH_TWICE,
                    transform("check", "grow", 'emit q = 100 / (n - 20)'), sink("out", "check"))
    r = run(executor, tmp_path, text, {"s.csv": "g,n,tag\na,1,x\na,2,x\n"})
    assert [(row["n"], row["tag"]) for row in r.rows("out.csv")] == [
        ("1", "x"), ("1", "one"), ("2", "x"), ("2", "one")]
    # the row rule `two` synthesized from row 2 (n = 20) fails downstream: the DLQ names
    # the trigger's source row, as Clinker's synthesized rows borrow their trigger's
    assert [(e[1], e[4]) for e in dlq(r)] == [("2", "transform:check")]


def test_a_failing_rule_expression_stops_the_run(executor, tmp_path):
    rules = _reshape("r", "s", """
partition_by: []
rules:
  - name: overflow
    when: "n * 4611686018427387904 > 0"
    mutate:
      set:
        tag: "'big'"
""")
    text = pipeline(source("s", "n: int, tag"), rules, sink("out", "r"))
    error = run_fails(executor, tmp_path, text, {"s.csv": "n,tag\n1,x\n4,x\n"})
    assert error.diagnostics[0].code == "CS140"
    assert not (tmp_path / "out" / "out.csv").exists()
