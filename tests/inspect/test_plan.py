"""explain PIPELINE: the plan as text, JSON, DOT and Mermaid, with the retraction block."""

from __future__ import annotations

import json

import pytest

from clinker_sql.inspect.graph import render_dot, render_mermaid

from .conftest import EXAMPLES, RETRACTING, STRICT, write_pipeline

SECTIONS = ("=== Execution Plan ===", "=== Nodes ===", "=== Correlation ===", "=== DLQ ===",
            "=== CXL Expressions ===", "=== DAG Topology ===")


@pytest.mark.parametrize("pipeline", EXAMPLES, ids=lambda p: p.parent.name)
def test_every_format_on_every_example(run_cli, pipeline):
    text = run_cli("explain", pipeline)
    assert text.exit_code == 0, text.output
    for section in SECTIONS:
        assert section in text.stdout
    plan = json.loads(run_cli("explain", pipeline, "--format", "json").stdout)
    assert plan["plan_version"] == "clinker-sql/plan/v1"
    names = [n["name"] for n in plan["nodes"]]
    for n in plan["nodes"]:
        assert n["columns"] and n["views"] or n["kind"] == "sink"
        assert f"{n['kind'].capitalize()} '{n['name']}'" in text.stdout
    dot = render_dot(plan)  # the CLI's --format dot/mermaid render this same plan
    assert dot.startswith("digraph ") and dot.rstrip().endswith("}")
    assert dot.count(" -> ") >= len(plan["edges"])
    mermaid = render_mermaid(plan)
    assert mermaid.startswith("flowchart LR")
    for i, _ in enumerate(names):
        assert f"  n{i}" in mermaid
    # the views that feed the DLQ are listed
    for feeder in plan["dlq"]["feeders"]:
        assert feeder["view"] in text.stdout


def test_order_routing_plan_details(run_cli):
    pipeline = next(p for p in EXAMPLES if p.parent.name == "order_routing")
    plan = json.loads(run_cli("explain", pipeline, "--format", "json").stdout)
    nodes = {n["name"]: n for n in plan["nodes"]}
    assert nodes["by_size"]["mode"] == "exclusive"
    assert nodes["by_size"]["branches"] == [{"name": "big", "condition": "cents >= 10000"}]
    assert nodes["small"]["inputs"] == [{"ref": "by_size", "relation": "by_size.small"}]
    assert {"from": "by_size", "to": "big", "port": "big"} in plan["edges"]
    assert plan["correlation"]["lattice"]["price"] == ["$ck.order_id"]
    assert {f["view"] for f in plan["dlq"]["feeders"]} == {
        "orders.errors", "price.errors", "by_size.errors", "$pipeline.ck_collateral"}
    assert nodes["price"]["columns"][-1] == {"name": "cents", "type": "int"}
    assert "=== Retraction ===" not in run_cli("explain", pipeline).stdout


def test_retraction_block(run_cli, tmp_path):
    pipeline = write_pipeline(tmp_path, RETRACTING)
    r = run_cli("explain", pipeline)
    assert r.exit_code == 0, r.output
    block = r.stdout.split("=== Retraction ===\n", 1)[1].split("=== CXL", 1)[0]
    assert ("retraction enabled — 1 relaxed aggregates, 1 buffer-mode windows, "
            "fanout policy: any.") in block
    agg = block.split("Aggregate 'dept_totals':\n", 1)[1].split("\n\n", 1)[0]
    assert "relaxed-CK enabled, BufferRequired accumulator path" in agg
    assert "group_by omits correlation-key field(s) $ck.order_id" in agg
    assert "sum Reversible, min BufferRequired, count Reversible" in agg
    assert "synthetic CK: $ck.aggregate.dept_totals" in agg
    strict = block.split("Aggregate 'per_order':\n", 1)[1].split("\n\n", 1)[0]
    assert strict.startswith("  strict: group_by covers every correlation-key field")
    window = block.split("Window 'windowed' (partition_by [department]):\n", 1)[1]
    assert window.startswith("  retraction: window buffer recompute, because "
                             "correlation-key field(s) $ck.order_id")
    plan = json.loads(run_cli("explain", pipeline, "--format", "json").stdout)
    aggs = {a["node"]: a for a in plan["retraction"]["aggregates"]}
    assert aggs["dept_totals"]["path"] == "retraction"
    assert aggs["dept_totals"]["accumulator"] == "BufferRequired"
    assert aggs["per_order"]["path"] == "strict"
    assert aggs["per_order"]["accumulator"] == "Reversible"
    assert plan["retraction"]["windows"][0]["mode"] == "buffer"


def test_no_retraction_block_for_a_strict_pipeline(run_cli, tmp_path):
    r = run_cli("explain", write_pipeline(tmp_path, STRICT))
    assert r.exit_code == 0
    assert "=== Retraction ===" not in r.stdout and "retraction enabled" not in r.stdout
    assert "path: strict (group_by covers every correlation-key field" in r.stdout


def test_dot_and_mermaid_from_the_cli(run_cli):
    pipeline = next(p for p in EXAMPLES if p.parent.name == "order_routing")
    dot = run_cli("explain", pipeline, "--format", "dot").stdout
    assert 'n2 -> n3 [label="big"];' in dot and "n2 -> dlq [style=dashed, color=red];" in dot
    mermaid = run_cli("explain", pipeline, "--format", "mermaid").stdout
    assert 'n2 -->|"big"| n3' in mermaid and "commit -.-> dlq" in mermaid


def test_mermaid_and_dot_labels_are_escaped():
    plan = {"pipeline": 'p"x', "nodes": [{"name": 'a"]<b>', "kind": "merge", "inputs": []}],
            "edges": [], "dlq": {"path": None, "feeders": []}}
    assert 'n0[\\"a#quot;#93;#lt;b#gt;<br/>merge"/]' in render_mermaid(plan)
    dot = render_dot(plan)
    assert 'digraph "p\\"x"' in dot and 'label="a\\"]<b>\\nmerge"' in dot


def test_run_explain_prints_the_plan_without_running(run_cli, tmp_path):
    pipeline = write_pipeline(tmp_path, RETRACTING)
    r = run_cli("run", pipeline, "--explain", "--out", tmp_path / "target")
    assert r.exit_code == 0, r.output
    assert "=== Retraction ===" in r.stdout and "Pipeline complete" not in r.stdout
    assert not (tmp_path / "target").exists()
    assert run_cli("run", pipeline, "--explain", "mermaid").stdout.startswith("flowchart LR")


def test_explain_of_a_broken_pipeline_is_a_diagnostic(run_cli, tmp_path):
    pipeline = write_pipeline(tmp_path, STRICT.replace("group_by: [order_id, department]",
                                                       "group_by: [order_id, dept]"))
    r = run_cli("explain", pipeline)
    assert r.exit_code == 1
    assert "error[E200]" in r.stderr and "Traceback" not in r.output
