"""E102 before a composition body compiles: every column a call's input port declares
must be in the rows bound to it, with the declared type (`any` matches every type), as
Clinker's build_input_port_rows checks at bind time.

The rows a port reads are only known once the upstream nodes compile, so the nodes the
ports read (and what they read) are compiled on their own first; the body then compiles
with the whole pipeline. A failure of that first compile is left to the whole
pipeline's, which reports it where it belongs."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from clinker_sql.codegen.compiler import compile_pipeline
from clinker_sql.config import model as m
from clinker_sql.diagnostics import DiagnosticError, fail

_KIND = {"date_time": "datetime"}


def check_ports(pipeline: m.Pipeline, base: Path) -> None:
    if not pipeline.ports:
        return
    wanted = {b.upstream.partition(".")[0] for b in pipeline.ports}
    by_name = {n.name: n for n in pipeline.nodes}
    keep: set[str] = set()
    stack = [w for w in wanted if w in by_name]
    while stack:
        name = stack.pop()
        if name in keep:
            continue
        keep.add(name)
        stack.extend(r.node for r in by_name[name].inputs if r.node in by_name)
    upstream = replace(pipeline, nodes=tuple(n for n in pipeline.nodes if n.name in keep),
                       ports=())
    try:
        relations = compile_pipeline(upstream, base).relations
    except DiagnosticError:
        return
    for b in pipeline.ports:
        rel = relations.get(b.upstream)
        if rel is None:
            continue
        have = {name: t for name, t in rel.columns}
        for name, declared in b.columns:
            if name not in have:
                raise fail("E102", f"composition node '{b.call}': input port '{b.port}' "
                           f"requires column '{name}' but upstream '{b.upstream}' does not "
                           "provide it", b.loc)
            kind = _KIND.get(declared, declared)
            found = have[name].kind
            if "any" not in (kind, found) and found != "null" and kind != found:
                raise fail("E102", f"composition node '{b.call}': input port '{b.port}' "
                           f"declares column '{name}' as {declared} but upstream "
                           f"'{b.upstream}' provides {found}", b.loc)
