"""Fused transform chains (codegen/fusion.py): consecutive plain transforms share one
evaluation, and a row that failed or was filtered upstream raises nothing further down.

The expectations are Clinker's: each failing row is one DLQ trigger at the first node where
it failed, with that node's input record; a filtered row is neither written nor in the DLQ.
"""

from __future__ import annotations

from clinker_sql.codegen.artifacts import statement_text

from .pipelines import dlq, pipeline, project, run, sink, source, step, transform, write_case

CHAIN = """
pipeline:
  name: fused
error_handling:
  strategy: continue
  dlq:
    path: {dir}/out/dlq.csv
nodes:
  - type: source
    name: src
    config:
      name: src
      type: csv
      path: {dir}/in.csv
      schema:
        - { name: id, type: string }
        - { name: x, type: string }
        - { name: y, type: string }
  - type: transform
    name: parse
    input: src
    config:
      cxl: |
        emit n = x.to_int()
        emit x = x.upper()
  - type: transform
    name: keep
    input: parse
    config:
      cxl: |
        filter n != 0
  - type: transform
    name: share
    input: keep
    config:
      cxl: |
        emit q = 100 / n
        emit m = y.to_int()
  - type: sink
    name: out
    input: share
    config:
      name: out
      type: csv
      path: {dir}/out/out.csv
"""

ROWS = {"in.csv": """
    id,x,y
    a,5,1
    b,bad,2
    c,0,3
    d,4,oops
    e,-2,7
"""}


def test_chain_is_fused_into_one_materialized_evaluation(tmp_path):
    compiled = project(write_case(tmp_path, CHAIN, ROWS), tmp_path / "target").compile()
    checkpoints = [s.name for s in compiled.statements if s.kind == "checkpoint"]
    assert "share.failed" in checkpoints
    views = {s.name: s for s in compiled.statements if s.kind == "view"}
    # every node's errors are read from one copy of the chain's failing rows
    assert views["share.failed"].reads == ("share.carry",)
    for node in ("src", "parse", "keep", "share"):
        assert views[f"{node}.errors"].reads == ("share.failed",)
    # no filtered intermediate views (the source is typed in the chain's evaluation)
    assert "src" not in views and "parse" not in views and "keep" not in views


def test_fused_chain_gives_clinkers_rows_and_dlq(executor, tmp_path):
    r = run(executor, tmp_path, CHAIN, ROWS)
    assert r.result.counts == {"total": 5, "ok": 2, "written": 2, "dlq": 2}
    assert [(row["id"], row["x"], row["n"], row["q"], row["m"]) for row in r.rows("out.csv")] \
        == [("a", "5", "5", "20", "1"), ("e", "-2", "-2", "-50", "7")]
    dlq = {row["_cxl_dlq_source_row"]: row for row in r.rows("dlq.csv")}
    # b fails in parse (its input record: the source row); c is filtered by keep and never
    # reaches share's division by zero; d fails in share, with share's input record
    assert sorted(dlq) == ["2", "4"]
    assert dlq["2"]["_cxl_dlq_stage"] == "transform:parse"
    assert dlq["2"]["x"] == "bad" and dlq["2"]["_cxl_dlq_triggering_field"] == "n"
    assert dlq["4"]["_cxl_dlq_stage"] == "transform:share"
    assert dlq["4"]["_cxl_dlq_triggering_field"] == "m"
    assert dlq["4"]["x"] == "4" and dlq["4"]["n"] == "4"  # upper-cased, parsed: share's input
    assert r.result.per_source["src"] == {"total": 5, "written": 2, "dlq": 2, "dlq_triggers": 2,
                                          "dlq_collaterals": 0, "removed": 1}


# A retraction pipeline fuses only what runs once, before the passes: the chain up to the
# aggregate; the chain after it is replayed by every pass and keeps its own views.
RETRACTING = pipeline(
    source("o", "order_id, dept, amount", "order_id"),
    transform("check", "o", "emit order_id = order_id\nemit dept = dept\n"
                            "emit amt = amount.to_int()"),
    step("aggregate", "totals", "check", "emit dept = dept\nemit total = sum(amt)\n"
         "emit n = count(*)", "\n      group_by: [dept]"),
    transform("ratio", "totals", "emit dept = dept\nemit per = total / (n - 2)"),
    transform("tidy", "ratio", "emit dept = dept.lower()\nemit per = per"),
    sink("out", "tidy", "\n      include_unmapped: false"), name="retracting")
RETRACTING_ROWS = {"o.csv": "order_id,dept,amount\nO1,HR,10\nO2,ENG,1\nO3,HR,x\nO4,ENG,2\n"
                            "O5,ENG,3\nO6,HR,20\nO7,HR,4\n"}


def test_retraction_pipeline_fuses_the_chain_before_its_aggregate(tmp_path):
    compiled = project(write_case(tmp_path, RETRACTING, RETRACTING_ROWS),
                       tmp_path / "target").compile()
    views = {s.name: s for s in compiled.statements if s.kind == "view"}
    assert views["o.errors"].reads == views["check.errors"].reads == ("check.failed",)
    assert "ratio.carry" not in views and "ratio.eval" in views
    # codegen/one_pass.py: the chain's failing rows come from the aggregate's one pass,
    # copied before them; the groups of that pass stand in for a second pass when clean
    assert views["totals.spec"].reads == ("check.carry",)
    assert views["check.failed"].reads == ("totals.spec",)
    order = [(s.kind, s.name) for s in compiled.statements]
    assert order.index(("checkpoint", "totals.spec")) < order.index(("view", "check.failed"))
    assert views["totals.spec_groups"].reads == ("totals.spec",)
    clean = views["totals.final"].step.clean_groups
    assert clean.unless == ("$pipeline.triggers_early",)
    assert "`totals.spec_groups`" in clean.define
    # formatted like every statement, and shown for review in the compiled file
    assert clean.define.startswith("CREATE OR REPLACE TEMPORARY VIEW `totals.final` AS\nSELECT")
    text = statement_text(views["totals.final"])
    shown = text[text.index("the runner defines it instead as\n") + 33:]
    assert shown == "".join(f"-- {line}\n" for line in (clean.define + ";").splitlines())


def test_fused_chain_before_an_aggregate_gives_clinkers_rows_and_dlq(executor, tmp_path):
    r = run(executor, tmp_path, RETRACTING, RETRACTING_ROWS)
    # O3 fails in check; HR keeps O1, O6 and O7 (three rows: no division by zero), ENG's
    # three rows pass; then nothing fails after the aggregate
    assert r.rows("out.csv") == [{"dept": "hr", "per": "34"}, {"dept": "eng", "per": "6"}]
    assert dlq(r) == [("o", "3", "type_coercion_failure", "true", "transform:check")]
