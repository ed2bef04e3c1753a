"""`clinker-sql explain pipeline.yaml`: the plan as data, and its text and JSON forms.

The model is a plain dict built from the loaded pipeline and its compiled form: nodes
with their schemas, strategies and views, the correlation lattice, the views that feed
the DLQ, and the retraction decisions the compiler made (which aggregates are strict or
retraction-mode, which bindings are Reversible or BufferRequired, which windows run in
buffer mode, and why). `graph.py` draws it as DOT or Mermaid.
"""

from __future__ import annotations

import json
from typing import Any

from clinker_sql.codegen.artifacts import node_files, placed
from clinker_sql.codegen.lineage import input_key, one_line
from clinker_sql.codegen.plan import Compiled
from clinker_sql.config import model as m

PLAN_VERSION = "clinker-sql/plan/v1"
MAX_PASSES = 20  # codegen/retraction.py MAX_ITERATIONS, repeated to avoid importing codegen state
COLLATERAL_VIEW = "$pipeline.ck_collateral"

_STAGES = {"source": "source", "transform": "transform:{}", "aggregate": "aggregate:{}",
           "route": "route_eval", "combine": "combine:{}"}


def sink_target(cfg: m.SinkConfig) -> str:
    table = getattr(cfg, "table", None)
    return ".".join(table) if table else cfg.path


def _ck_why(input_ck: list[str], keys: list[str]) -> list[str]:
    """The correlation-key columns visible at a node that `keys` does not cover."""
    return [c for c in input_ck if c.startswith("$ck.aggregate.") or c[4:] not in keys]


def _columns(compiled: Compiled, key: str) -> tuple[list[dict[str, str]], list[str]]:
    rel = compiled.relations.get(key)
    if rel is None:
        return [], []
    return [{"name": n, "type": str(t)} for n, t in rel.columns], [c for c, _ in rel.ck]


def _details(p: m.Pipeline, node: m.Node, compiled: Compiled, views: list[str],
             aggregates: dict[str, Any]) -> dict[str, Any]:
    if isinstance(node, m.SourceNode):
        cfg = node.config
        return {"format": cfg.format, "paths": list(cfg.paths), "path_kind": cfg.path_kind,
                "correlation_key": list(cfg.correlation_key)}
    if isinstance(node, m.TransformNode):
        out: dict[str, Any] = {"window": None}
        w = node.analytic_window
        if w is not None:
            _, ck = _columns(compiled, input_key(p, node, node.input))
            uncovered = _ck_why(ck, list(w.group_by))
            buffer = f"{node.name}.input" in views
            if buffer:
                why = (f"correlation-key field(s) {', '.join(uncovered)} are not all in "
                       "group_by and the pipeline retracts: partitions are recomputed over "
                       "the rows not retracted")
            elif ck and not uncovered:
                why = "group_by covers every visible correlation-key field"
            elif ck:
                why = "the pipeline has no aggregate, so nothing is retracted"
            else:
                why = "no correlation keys at its input"
            out["window"] = {"group_by": list(w.group_by),
                             "sort_by": [{"field": f, "order": o} for f, o in w.sort_by],
                             "mode": "buffer" if buffer else "plain", "why": why}
        return out
    if isinstance(node, m.AggregateNode):
        plan = aggregates[node.name]
        input_ck = list(plan.input_ck)
        uncovered = _ck_why(input_ck, list(node.group_by))
        if plan.relaxed:
            why = f"group_by omits correlation-key field(s) {', '.join(uncovered)}"
        elif input_ck:
            why = f"group_by covers every correlation-key field ({', '.join(input_ck)})"
        else:
            why = "no correlation keys at its input"
        bindings = [{"function": f, "class": k} for f, k in plan.bindings]
        buffered = any(b["class"] == "BufferRequired" for b in bindings)
        return {"group_by": list(node.group_by), "strategy": node.strategy,
                "path": "retraction" if plan.relaxed else "strict", "why": why,
                "bindings": bindings,
                "accumulator": "BufferRequired" if buffered else "Reversible",
                "synthetic_ck": f"$ck.aggregate.{node.name}" if plan.relaxed else None}
    if isinstance(node, m.RouteNode):
        return {"mode": node.mode, "default": node.default,
                "branches": [{"name": b, "condition": one_line(c.text)}
                             for b, c in node.conditions]}
    if isinstance(node, m.CombineNode):
        spec = node.propagate_ck
        return {"match": node.match, "on_miss": node.on_miss,
                "drive": node.drive or node.combine_inputs[0][0],
                "qualifiers": {q: str(r) for q, r in node.combine_inputs},
                "where": one_line(node.where.text) if node.where is not None else "",
                "propagate_ck": spec if isinstance(spec, str) else list(spec[1])}
    if isinstance(node, m.SinkNode):
        cfg = node.config
        return {"format": cfg.format, "target": sink_target(cfg),
                "include_unmapped": cfg.include_unmapped,
                "include_correlation_keys": cfg.include_correlation_keys,
                "exclude": list(cfg.exclude),
                "mapping": [{"out": o, "from": s} for o, s in cfg.mapping or ()]}
    return {}


def _cxl(node: m.Node) -> str:
    if isinstance(node, (m.TransformNode, m.AggregateNode)):
        return node.cxl.text.strip()
    if isinstance(node, m.CombineNode):
        parts = [f"# where: {one_line(node.where.text)}"] if node.where is not None else []
        return "\n".join(parts + [node.cxl.text.strip()]).strip()
    if isinstance(node, m.RouteNode):
        return "\n".join(f"# {b}: {one_line(c.text)}" for b, c in node.conditions)
    if isinstance(node, m.CullNode):
        return "\n".join(f"# {r}: drop_group_when {one_line(c.text)}" for r, c in node.rules)
    return ""


def build_plan(p: m.Pipeline, compiled: Compiled) -> dict[str, Any]:
    files = placed(compiled)
    logic = node_files(compiled)
    by_node: dict[str, list[tuple[str, Any]]] = {}
    for at in files:
        if at.statement.node is not None:
            by_node.setdefault(at.statement.node, []).append((at.file, at.statement))
    aggregates = {a.node: a for a in compiled.aggregates}
    errors: dict[str, list] = {}
    headers = {s.name: s.header for s in compiled.statements}
    for ev in compiled.error_views:
        errors.setdefault(ev.node, []).append(ev)
    nodes = []
    for entry in compiled.nodes:
        node = p.node(entry["name"])
        stmts = by_node.get(node.name, [])
        views = [s.name for _, s in stmts if s.kind == "view"]
        key = node.name
        if isinstance(node, m.RouteNode):
            key = f"{node.name}.{node.default}"
        if isinstance(node, m.SinkNode):
            key = input_key(p, node, node.input)
        columns, ck = _columns(compiled, key)
        lineage = compiled.lineage.get(node.name)
        if isinstance(node, m.SinkNode) and lineage is not None:
            columns = [{"name": c.column, "type": c.type} for c in lineage.columns]
        stage = _STAGES.get(node.kind, "{}").format(node.name)
        nodes.append({
            "name": node.name, "kind": node.kind, "line": node.loc.line,
            "description": node.description or "",
            "inputs": [{"ref": str(r), "relation": input_key(p, node, r)} for r in node.inputs],
            "columns": columns, "correlation": ck,
            **_details(p, node, compiled, views, aggregates),
            "cxl": _cxl(node),
            "views": views,
            "logic": logic.get(node.name),
            "files": [{"file": f, "kind": s.kind, "name": s.name, "layer": s.layer}
                      for f, s in stmts],
            "dlq": [{"view": ev.view, "stage": stage, "why": headers.get(ev.view, ""),
                     "fail_fast": {"code": ev.code, "exit_code": ev.exit_code}}
                    for ev in errors.get(node.name, [])],
            "lineage": [c.to_json() for c in lineage.columns] if lineage else [],
            "filters": list(lineage.filters) if lineage else [],
        })
    eh = p.error_handling
    correlated = any(n["correlation"] for n in nodes) or any(
        isinstance(n, m.SourceNode) and n.config.correlation_key for n in p.nodes)
    feeders = [{"view": ev.view, "node": ev.node, "kind": p.node(ev.node).kind,
                "stage": _STAGES.get(p.node(ev.node).kind, "{}").format(ev.node)}
               for ev in compiled.error_views]
    if correlated:
        feeders.append({"view": COLLATERAL_VIEW, "node": None, "kind": "commit",
                        "stage": "correlation_commit"})
    return {
        "plan_version": PLAN_VERSION,
        "pipeline": compiled.pipeline,
        "file": compiled.file,
        "strategy": compiled.strategy,
        "statements": len(compiled.statements),
        "files": len({at.file for at in files}),
        "nodes": nodes,
        "edges": [{"from": i["relation"].partition(".")[0], "to": n["name"],
                   "port": i["relation"].partition(".")[2] or None}
                  for n in nodes for i in n["inputs"]],
        "correlation": {
            "sources": {n.name: list(n.config.correlation_key) for n in p.nodes
                        if isinstance(n, m.SourceNode) and n.config.correlation_key},
            "lattice": {n["name"]: n["correlation"] for n in nodes},
            "max_group_buffer": eh.max_group_buffer,
            "fanout_policy": eh.correlation_fanout_policy,
        },
        "dlq": {"path": eh.dlq.path if eh.dlq else None,
                "include_reason": eh.dlq.include_reason if eh.dlq else None,
                "include_source_row": eh.dlq.include_source_row if eh.dlq else None,
                "feeders": feeders},
        "retraction": _retraction(nodes, compiled),
    }


def _retraction(nodes: list[dict[str, Any]], compiled: Compiled) -> dict[str, Any]:
    aggregates = [{"node": n["name"], "path": n["path"], "why": n["why"],
                   "accumulator": n["accumulator"], "bindings": n["bindings"],
                   "synthetic_ck": n["synthetic_ck"]}
                  for n in nodes if n["kind"] == "aggregate"]
    windows = [{"node": n["name"], **n["window"]} for n in nodes
               if n["kind"] == "transform" and n.get("window")]
    fixpoint = any(s.kind == "fixpoint" for s in compiled.statements)
    enabled = any(a["path"] == "retraction" for a in aggregates) or any(
        w["mode"] == "buffer" for w in windows)
    return {"enabled": enabled, "fixpoint": fixpoint, "max_passes": MAX_PASSES,
            "aggregates": aggregates, "windows": windows}


# ---- text ----------------------------------------------------------------------------------

def _cols(columns: list[dict[str, str]]) -> str:
    return ", ".join(f"{c['name']} {c['type']}" for c in columns) or "(none)"


def _node_block(n: dict[str, Any]) -> list[str]:
    kind = n["kind"].capitalize()
    out = [f"{kind} '{n['name']}' (line {n['line']}):"]
    if n["description"]:
        out.append(f"  description: {one_line(n['description'])}")
    if n["inputs"]:
        out.append("  input: " + ", ".join(
            i["ref"] + (f" (branch {i['relation']})" if i["relation"] != i["ref"] else "")
            for i in n["inputs"]))
    k = n["kind"]
    if k == "source":
        out.append(f"  reads: {n['format']} {', '.join(n['paths'])}")
    elif k == "transform" and n["window"]:
        w = n["window"]
        sort = ", ".join(f"{s['field']} {s['order']}" for s in w["sort_by"])
        out.append(f"  window: group_by [{', '.join(w['group_by'])}]"
                   + (f", sort_by [{sort}]" if sort else "") + f"; {w['mode']} mode ({w['why']})")
    elif k == "aggregate":
        out.append(f"  group_by: [{', '.join(n['group_by'])}]; strategy: {n['strategy']}")
        out.append(f"  path: {n['path']} ({n['why']})")
        out.append("  bindings: " + (", ".join(f"{b['function']} {b['class']}"
                                               for b in n["bindings"]) or "none"))
    elif k == "route":
        out.append(f"  mode: {n['mode']}")
        for b in n["branches"]:
            out.append(f"  branch {b['name']}: {b['condition']}")
        out.append(f"  branch {n['default']}: (default)")
    elif k == "combine":
        out.append("  qualifiers: " + ", ".join(f"{q}: {r}" for q, r in n["qualifiers"].items())
                   + f"; drive: {n['drive']}")
        out.append(f"  where: {n['where']}")
        out.append(f"  match: {n['match']}; on_miss: {n['on_miss']}; "
                   f"propagate_ck: {n['propagate_ck']}")
    elif k == "sink":
        out.append(f"  writes: {n['format']} {n['target']}")
    for f in n["filters"] if k == "transform" else ():
        out.append(f"  filter: {f}")
    out.append(f"  columns: {_cols(n['columns'])}")
    if n["correlation"]:
        out.append(f"  correlation: {', '.join(n['correlation'])}")
    out.append(f"  views: {', '.join(n['views']) or '(none)'}")
    if n["logic"]:
        out.append(f"  logic: {n['logic']}")
    for d in n["dlq"]:
        out.append(f"  DLQ: {d['view']} (stage {d['stage']})")
    return out


def render_text(plan: dict[str, Any]) -> str:
    out = ["=== Execution Plan ===", "",
           f"Pipeline: {plan['pipeline']} ({plan['file']})",
           f"Strategy: {plan['strategy']}",
           f"DLQ: {plan['dlq']['path'] or '(none)'}",
           f"Statements: {plan['statements']} ({plan['files']} files)",
           f"DAG nodes: {len(plan['nodes'])}", "", "Source DAG:"]
    tiers = _tiers(plan)
    for i, names in enumerate(tiers):
        out.append(f"  Tier {i}: {', '.join(names)}")
    out += ["", "=== Nodes ===", ""]
    for n in plan["nodes"]:
        out += _node_block(n) + [""]
    corr = plan["correlation"]
    out += ["=== Correlation ===", ""]
    if corr["sources"]:
        for s, keys in corr["sources"].items():
            out.append(f"source {s}: correlation_key [{', '.join(keys)}]")
        out.append(f"max_group_buffer: {corr['max_group_buffer']}; "
                   f"fanout policy: {corr['fanout_policy']}")
        out += ["", "lattice ($ck.* columns each node carries):"]
        width = max(len(n) for n in corr["lattice"])
        for name, ck in corr["lattice"].items():
            out.append(f"  {name:<{width}}  {', '.join(ck) or '-'}")
    else:
        out.append("no correlation keys: every row commits on its own")
    out += ["", "=== DLQ ===", ""]
    dlq = plan["dlq"]
    out.append(f"path: {dlq['path']}" if dlq["path"] else
               "no DLQ file (strategy fail_fast: the first entry stops the run)")
    out.append("fed by:")
    width = max([len(f["view"]) for f in dlq["feeders"]] or [0])
    for f in dlq["feeders"]:
        who = f"{f['kind']} {f['node']}" if f["node"] else "correlation commit (collaterals)"
        out.append(f"  {f['view']:<{width}}  {who}, stage {f['stage']}")
    out.append("")
    out += render_retraction(plan)
    out += ["=== CXL Expressions ===", ""]
    for n in plan["nodes"]:
        if n["cxl"]:
            out.append(f"{n['kind'].capitalize()} '{n['name']}':")
            out += ["  " + line for line in n["cxl"].splitlines() if line.strip()]
            out.append("")
    out += ["=== DAG Topology ===", ""]
    for n in plan["nodes"]:
        glyph = "●" if n["kind"] == "source" else "◇" if n["kind"] == "aggregate" else "│"
        out.append(f"  {glyph} [{n['kind']}] {n['name']} (line:{n['line']})")
    return "\n".join(out) + "\n"


def render_retraction(plan: dict[str, Any]) -> list[str]:
    """Clinker's `=== Retraction ===` block: present when the pipeline retracts."""
    r = plan["retraction"]
    if not r["enabled"]:
        return []
    relaxed = [a for a in r["aggregates"] if a["path"] == "retraction"]
    buffered = [w for w in r["windows"] if w["mode"] == "buffer"]
    out = ["=== Retraction ===", "",
           f"retraction enabled — {len(relaxed)} relaxed aggregates, {len(buffered)} "
           f"buffer-mode windows, fanout policy: {plan['correlation']['fanout_policy']}.",
           f"The runner repeats the pass until nothing new is retracted (a fixpoint, at most "
           f"{r['max_passes']} passes).", ""]
    for a in r["aggregates"]:
        out.append(f"Aggregate '{a['node']}':")
        bindings = ", ".join(f"{b['function']} {b['class']}" for b in a["bindings"]) or "none"
        if a["path"] == "retraction":
            how = ("raw contributions kept, groups recomputed from the survivors"
                   if a["accumulator"] == "BufferRequired" else
                   "contributions subtracted through the row -> group lineage")
            out.append(f"  retraction: relaxed-CK enabled, {a['accumulator']} accumulator path "
                       f"({how}), because {a['why']}.")
            out.append(f"  bindings: {bindings}")
            out.append(f"  reads {a['node']}.input, which flags retracted rows; a row that "
                       "fails downstream retracts its group's contributors.")
            out.append(f"  synthetic CK: {a['synthetic_ck']} (stable group number, hidden from "
                       "default writers)")
        else:
            out.append(f"  strict: {a['why']}; a failing group's output row is rolled back at "
                       "commit.")
            out.append(f"  bindings: {bindings}")
        out.append("")
    for w in r["windows"]:
        out.append(f"Window '{w['node']}' (partition_by [{', '.join(w['group_by'])}]):")
        if w["mode"] == "buffer":
            out.append(f"  retraction: window buffer recompute, because {w['why']}.")
        else:
            out.append(f"  plain window: {w['why']}.")
        out.append("")
    return out


def _tiers(plan: dict[str, Any]) -> list[list[str]]:
    depth: dict[str, int] = {}
    for n in plan["nodes"]:  # topological order
        ins = [i["relation"].partition(".")[0] for i in n["inputs"]]
        depth[n["name"]] = 1 + max((depth[i] for i in ins), default=-1)
    tiers: list[list[str]] = [[] for _ in range(max(depth.values(), default=-1) + 1)]
    for name, d in depth.items():
        tiers[d].append(name)
    return tiers


def render_json(plan: dict[str, Any]) -> str:
    return json.dumps(plan, indent=2, ensure_ascii=False) + "\n"
