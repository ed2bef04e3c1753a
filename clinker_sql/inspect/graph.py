"""The plan's DAG as Graphviz DOT, as Mermaid, and laid out for the docs page's SVG.

Nodes are the pipeline's nodes plus, when anything can fail, one DLQ node; dashed edges
go from every node whose error views feed the DLQ (and from the correlation commit)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

DLQ = "$dlq"
_SHAPES = {"source": "cylinder", "sink": "folder", "aggregate": "hexagon",
           "route": "diamond", "merge": "invtrapezium", "combine": "invtrapezium"}


def _subtitle(n: dict[str, Any]) -> str:
    k = n["kind"]
    if k == "source":
        return f"source · {n['format']}"
    if k == "sink":
        return f"sink · {n['format']}"
    if k == "aggregate":
        return f"aggregate · {n['path']}"
    if k == "transform" and n.get("window"):
        return f"transform · window ({n['window']['mode']})"
    if k == "route":
        return f"route · {n['mode']}"
    if k == "combine":
        return f"combine · {n['match']}"
    return k


def _dlq_edges(plan: dict[str, Any]) -> list[str]:
    """Nodes with views that feed the DLQ, in plan order (no duplicates)."""
    return list(dict.fromkeys(f["node"] or "" for f in plan["dlq"]["feeders"]))


def _dot_str(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def render_dot(plan: dict[str, Any]) -> str:
    ids = {n["name"]: f"n{i}" for i, n in enumerate(plan["nodes"])}
    out = [f"digraph {_dot_str(plan['pipeline'])} {{", "  rankdir=LR;",
           '  node [shape=box, style=rounded, fontname="Helvetica", fontsize=11];',
           '  edge [fontname="Helvetica", fontsize=9];']
    for n in plan["nodes"]:
        label = f"{n['name']}\n{_subtitle(n)}"
        out.append(f"  {ids[n['name']]} [label={_dot_str(label)}, "
                   f"shape={_SHAPES.get(n['kind'], 'box')}];")
    for e in plan["edges"]:
        attrs = f" [label={_dot_str(e['port'])}]" if e["port"] else ""
        out.append(f"  {ids[e['from']]} -> {ids[e['to']]}{attrs};")
    feeders = _dlq_edges(plan)
    if feeders:
        label = "DLQ\n" + (plan["dlq"]["path"] or "(fail_fast: none)")
        out.append(f"  dlq [label={_dot_str(label)}, shape=note, color=red];")
        if "" in feeders:
            out.append('  commit [label="correlation commit", shape=ellipse, style=dashed];')
        for name in feeders:
            out.append(f"  {ids.get(name, 'commit')} -> dlq [style=dashed, color=red];")
    out.append("}")
    return "\n".join(out) + "\n"


def _mm(*lines: str) -> str:
    """A quoted Mermaid label: the characters Mermaid treats specially become entities,
    lines are joined with <br/>."""
    out = []
    for text in lines:
        for ch, ent in (("&", "#amp;"), ('"', "#quot;"), ("<", "#lt;"), (">", "#gt;"),
                        ("[", "#91;"), ("]", "#93;"), ("{", "#123;"), ("}", "#125;"),
                        ("|", "#124;"), ("`", "#96;")):
            text = text.replace(ch, ent)
        out.append(text)
    return '"' + "<br/>".join(out) + '"'


_MM_SHAPES = {"source": ("[(", ")]"), "sink": ("[/", "/]"), "aggregate": ("{{", "}}"),
              "route": ("{", "}"), "merge": ("[\\", "/]"), "combine": ("[\\", "/]")}


def render_mermaid(plan: dict[str, Any]) -> str:
    ids = {n["name"]: f"n{i}" for i, n in enumerate(plan["nodes"])}
    out = ["flowchart LR"]
    for n in plan["nodes"]:
        left, right = _MM_SHAPES.get(n["kind"], ("[", "]"))
        out.append(f"  {ids[n['name']]}{left}{_mm(n['name'], _subtitle(n))}{right}")
    for e in plan["edges"]:
        label = f"|{_mm(e['port'])}|" if e["port"] else ""
        out.append(f"  {ids[e['from']]} -->{label} {ids[e['to']]}")
    feeders = _dlq_edges(plan)
    if feeders:
        out.append(f"  dlq[/{_mm('DLQ', plan['dlq']['path'] or '(none)')}/]")
        if "" in feeders:
            out.append(f"  commit([{_mm('correlation commit')}])")
        for name in feeders:
            out.append(f"  {ids.get(name, 'commit')} -.-> dlq")
        out.append("  style dlq stroke:#c0392b")
    return "\n".join(out) + "\n"


# ---- layout for the docs page -----------------------------------------------------------

@dataclass(frozen=True)
class Box:
    id: str  # node name, DLQ or "$commit"
    index: int  # position in plan["nodes"], -1 for the DLQ and commit boxes
    label: str
    subtitle: str
    kind: str
    x: int
    y: int
    w: int
    h: int


@dataclass(frozen=True)
class Edge:
    path: str  # SVG path data
    label: str
    dlq: bool
    lx: int
    ly: int


BOX_W, BOX_H, GAP_X, GAP_Y, PAD = 168, 46, 64, 22, 16


def layout(plan: dict[str, Any]) -> tuple[list[Box], list[Edge], int, int]:
    """Left to right by depth (longest path from a source); declaration order in a column."""
    depth: dict[str, int] = {}
    for n in plan["nodes"]:
        ins = [i["relation"].partition(".")[0] for i in n["inputs"]]
        depth[n["name"]] = 1 + max((depth[i] for i in ins), default=-1)
    columns: dict[int, list[int]] = {}
    for i, n in enumerate(plan["nodes"]):
        columns.setdefault(depth[n["name"]], []).append(i)
    boxes: dict[str, Box] = {}
    for d, members in columns.items():
        for row, i in enumerate(members):
            n = plan["nodes"][i]
            boxes[n["name"]] = Box(n["name"], i, n["name"], _subtitle(n), n["kind"],
                                   PAD + d * (BOX_W + GAP_X), PAD + row * (BOX_H + GAP_Y),
                                   BOX_W, BOX_H)
    width = PAD * 2 + (max(columns, default=0) + 1) * (BOX_W + GAP_X) - GAP_X
    rows = max((len(m) for m in columns.values()), default=1)
    height = PAD * 2 + rows * (BOX_H + GAP_Y) - GAP_Y
    edges = [_edge(boxes[e["from"]], boxes[e["to"]], e["port"] or "", False)
             for e in plan["edges"]]
    extra: list[Box] = []
    feeders = _dlq_edges(plan)
    if feeders:
        y = height + GAP_Y
        width = max(width, PAD * 2 + (2 * BOX_W + GAP_X if "" in feeders else BOX_W))
        dlq = Box(DLQ, -1, "DLQ", plan["dlq"]["path"] or "(fail_fast: none)", "dlq",
                  max(PAD + BOX_W + GAP_X, (width - BOX_W) // 2), y, BOX_W, BOX_H)
        commit = Box("$commit", -1, "correlation commit", "collaterals", "commit",
                     PAD, y, BOX_W, BOX_H)
        extra = [commit, dlq] if "" in feeders else [dlq]
        height = y + BOX_H + PAD
        for name in feeders:
            edges.append(_edge(boxes[name] if name else commit, dlq, "", True))
    return list(boxes.values()) + extra, edges, width, height


def _edge(a: Box, b: Box, label: str, dlq: bool) -> Edge:
    if dlq:
        x1, y1 = a.x + a.w // 2, a.y + a.h
        x2, y2 = b.x + b.w // 2, b.y
        if a.y >= b.y:  # side by side (the commit box): right side to left side
            x1, y1, x2, y2 = a.x + a.w, a.y + a.h // 2, b.x, b.y + b.h // 2
            path = f"M{x1},{y1} L{x2},{y2}"
        else:
            mid = (y1 + y2) // 2
            path = f"M{x1},{y1} C{x1},{mid} {x2},{mid} {x2},{y2}"
        return Edge(path, label, True, (x1 + x2) // 2, (y1 + y2) // 2)
    x1, y1 = a.x + a.w, a.y + a.h // 2
    x2, y2 = b.x, b.y + b.h // 2
    mid = (x1 + x2) // 2
    return Edge(f"M{x1},{y1} C{mid},{y1} {mid},{y2} {x2},{y2}", label, False,
                mid, (y1 + y2) // 2 - 4)
