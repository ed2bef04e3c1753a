"""`clinker-sql docs`: one static HTML page per pipeline, readable offline.

The DAG is drawn as inline SVG (graph.layout); each node's panel shows its CXL beside
its compiled SQL files, its columns with their lineage down to the source columns, and
which of its views feed the DLQ. The page is rendered by Jinja with autoescape on, so
every name, CXL text and SQL statement is HTML-escaped; it loads nothing from the
network (a Content-Security-Policy forbids it)."""

from __future__ import annotations

from importlib import resources
from pathlib import Path
from typing import Any

import jinja2

from clinker_sql import __version__
from clinker_sql.codegen.artifacts import placed
from clinker_sql.codegen.lineage import trace
from clinker_sql.codegen.plan import Compiled
from clinker_sql.codegen.run_plan import WriteStep
from clinker_sql.config import model as m
from clinker_sql.inspect.graph import DLQ, layout
from clinker_sql.inspect.plan import build_plan, render_retraction


def _environment() -> jinja2.Environment:
    return jinja2.Environment(autoescape=True, trim_blocks=True, lstrip_blocks=True,
                              keep_trailing_newline=True)


def _short(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[:limit - 1] + "…"


def _details(n: dict[str, Any]) -> list[tuple[str, str]]:
    k = n["kind"]
    if k == "source":
        out = [("reads", f"{n['format']} {', '.join(n['paths'])}")]
        if n["correlation_key"]:
            out.append(("correlation_key", ", ".join(n["correlation_key"])))
        return out
    if k == "transform":
        out = [("filter", f) for f in n["filters"]]
        if n["window"]:
            w = n["window"]
            sort = ", ".join(f"{s['field']} {s['order']}" for s in w["sort_by"])
            out.append(("window", f"group_by [{', '.join(w['group_by'])}]"
                        + (f", sort_by [{sort}]" if sort else "")))
            out.append(("window mode", f"{w['mode']}: {w['why']}"))
        return out
    if k == "aggregate":
        return [("group_by", ", ".join(n["group_by"]) or "(one group)"),
                ("strategy", n["strategy"]), ("path", f"{n['path']}: {n['why']}"),
                ("bindings", ", ".join(f"{b['function']} {b['class']}" for b in n["bindings"])
                 or "none")]
    if k == "route":
        return [("mode", n["mode"])] + [(f"branch {b['name']}", b["condition"])
                                        for b in n["branches"]] + \
            [(f"branch {n['default']}", "(default)")]
    if k == "combine":
        return [("qualifiers", ", ".join(f"{q}: {r}" for q, r in n["qualifiers"].items())),
                ("drive", n["drive"]), ("where", n["where"]), ("match", n["match"]),
                ("on_miss", n["on_miss"]), ("propagate_ck", str(n["propagate_ck"]))]
    if k == "sink":
        return [("writes", f"{n['format']} {n['target']}"),
                ("include_unmapped", str(n["include_unmapped"]).lower())]
    return []


def render_page(p: m.Pipeline, compiled: Compiled) -> str:
    plan = build_plan(p, compiled)
    per_node: dict[str, list[dict[str, Any]]] = {}
    dlq_sql: list[dict[str, Any]] = []
    for at in placed(compiled):
        stmt = at.statement
        if at.step is None:  # the session settings and functions belong to no node
            continue
        # a node file holds several statements: each is shown under its file and its name
        label = f"{at.file}: {stmt.name}" if stmt.layer == "node" else at.file
        entry = {"file": label, "text": at.text, "open": stmt.layer == "node"}
        if stmt.node is not None:
            per_node.setdefault(stmt.node, []).append(entry)
        elif stmt.name.startswith(("$pipeline.triggers", "$pipeline.dlq", "$pipeline.ck_")) \
                or (isinstance(stmt.step, WriteStep) and stmt.step.dlq):
            dlq_sql.append(entry)
    index = {n["name"]: i for i, n in enumerate(plan["nodes"])}
    sql = [per_node.get(n["name"], []) for n in plan["nodes"]]
    sources = [{c["column"]: trace(compiled.lineage, f"{n['name']}.{c['column']}").sources()
                for c in n["lineage"]} for n in plan["nodes"]]
    boxes, edges, width, height = layout(plan)
    view_boxes = []
    for b in boxes:
        panel = f"node-{b.index}" if b.index >= 0 else ("dlq" if b.id == DLQ else "commit")
        view_boxes.append({**b.__dict__, "panel": panel, "short": _short(b.label, 22),
                           "subtitle_short": _short(b.subtitle, 26)})
    template = _environment().from_string(
        resources.files("clinker_sql.inspect").joinpath("docs_page.html.j2").read_text("utf-8"))
    return template.render(
        plan=plan, generator=f"clinker-sql {__version__}", boxes=view_boxes, edges=edges,
        width=width, height=height, index=index, sql=sql, sources=sources,
        details=[_details(n) for n in plan["nodes"]], dlq_sql=dlq_sql,
        retraction="\n".join(render_retraction(plan)).strip())


def write_page(p: m.Pipeline, compiled: Compiled, path: Path) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(render_page(p, compiled), encoding="utf-8")
    return path
