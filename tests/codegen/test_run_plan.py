"""codegen/run_plan.py: every compiled statement carries the step of its kind, and what
the manifest says of an output keeps its keys and their order."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from clinker_sql.codegen import run_plan as P
from clinker_sql.codegen.artifacts import files
from clinker_sql.project import Project

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
KINDS = {"view": P.ViewStep, "checkpoint": P.CheckpointStep, "check": P.CheckStep,
         "write": P.WriteStep, "report": P.ReportStep, "fixpoint": P.FixpointStep,
         "alternative": P.AlternativeStep}


@pytest.mark.parametrize("example", sorted(p.parent.name for p in
                                           EXAMPLES.glob("*/pipeline.yaml")))
def test_each_statement_carries_its_kinds_step(example):
    folder = EXAMPLES / example
    compiled = Project(folder / "pipeline.yaml").compile(base=folder)
    for stmt in compiled.statements:
        assert type(stmt.step) is KINDS.get(stmt.kind, P.Step), (stmt.kind, stmt.name)
    manifest = json.loads(files(compiled)["manifest.json"])
    outputs = [s["output"] for s in manifest["statements"] if s["kind"] == "write"]
    assert outputs and all(list(o)[:3] in (["path", "staging", "format"],
                                           ["format", "table", "staging_table"])
                           for o in outputs)
    assert [s["name"] for s in manifest["sinks"]] == [s.name for s in compiled.sinks]


def test_a_write_describes_itself_in_the_manifests_order():
    step = P.WriteStep(format="csv", path="out.csv", staging="out.csv.staging",
                       header=("a", "b"), split=P.Split("t.failed", "side", "define"),
                       observe=P.Observe("t.split", {"written:out": "count(*)"}))
    assert list(step.output()) == ["path", "staging", "format", "header", "include_header",
                                   "delimiter", "json_format", "split", "observe"]
    dlq = P.WriteStep(format="csv", path="dlq.csv", dlq=True)
    assert list(dlq.output())[-2:] == ["json_format", "dlq"]
    table = P.WriteStep(format="table", table=("db", "t"), staging_table=("db", "t_s"))
    assert table.output() == {"format": "table", "table": ["db", "t"],
                              "staging_table": ["db", "t_s"]}


def test_a_statement_without_a_step_gets_its_kinds_default():
    from clinker_sql.codegen.plan import Statement

    assert Statement("checkpoint", None, "v", "-- x").step == P.CheckpointStep()
    assert Statement("setup", None, "s", "SET a = 1").step == P.Step()
    assert Statement("function", None, "f", "CREATE TEMPORARY FUNCTION f() "
                     "RETURNS INT RETURN 1").step == P.Step()
