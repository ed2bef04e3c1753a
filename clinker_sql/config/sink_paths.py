"""Sink path templates rendered over the pipeline's graph (Clinker's
`resolve_output_path_templates_in_place` and its fan-out planning).

A template's static tokens get their values here. Its per-record tokens (`{source_file}`,
`{source_path}`) make the sink write one file per source file when its records still
carry their file: they come from a multi-file source (`glob:` or `paths:`) through
transforms, routes and culls only (Clinker's `FilePartitioned` lineage). A merge ends that
lineage, and so does a single `path:` source: the tokens then render `<merged>`, as in
Clinker. Refused (CS001): one file per source file after an aggregate or a combine (Clinker
still writes per file there, from rows clinker-sql numbers as `<merged>`), named by
`{source_path}` (see config/path_template.py), or as Parquet or XML.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import PurePath

from clinker_sql.config import model as m
from clinker_sql.config.path_template import MERGED, PER_RECORD, PathTemplate
from clinker_sql.diagnostics import fail

_ROW_WISE = (m.TransformNode, m.RouteNode, m.CullNode)


def resolve_sink_paths(p: m.Pipeline) -> m.Pipeline:
    """The pipeline with each templated sink's path rendered (or its fan-out planned)."""
    by_name = {n.name: n for n in p.nodes}
    templated = [n for n in p.nodes
                 if isinstance(n, m.SinkNode) and n.config.template is not None]
    if not templated:
        return p
    documents = [s for s in p.nodes if isinstance(s, m.SourceNode) and s.config.document_dlq]
    for sink in templated:
        if documents and sink.config.template.per_record:
            raise fail("E343", f"output '{sink.config.name}': a per-source-file output "
                       "template ({source_file} / {source_path}) cannot be combined with a "
                       f"source declaring `dlq_granularity: document` ('{documents[0].name}')",
                       sink.config.path_loc, "use a single output path, or set "
                       "`dlq_granularity: record`")
    resolved = {n.name: replace(n, config=_resolved(n, by_name)) for n in templated}
    return replace(p, nodes=tuple(resolved.get(n.name, n) for n in p.nodes))


def _resolved(sink: m.SinkNode, by_name: dict[str, m.Node]) -> m.SinkConfig:
    cfg = sink.config
    template: PathTemplate = cfg.template
    sources = _ancestors(sink, by_name)
    by_node = {s.config.name: _stem(s) for s in sources}
    for token in template.tokens("source_name"):
        if token.arg is not None and token.arg not in by_node:
            raise fail("CS107", f"output '{cfg.name}': {{source_name:{token.arg}}} references "
                       f"'{token.arg}', which is not a source upstream of it; they are: "
                       f"[{', '.join(by_node)}]", cfg.path_loc)
        if token.arg is None and len(sources) != 1:
            raise fail("CS107", f"output '{cfg.name}': {{source_name}} is ambiguous: the "
                       f"output reads {len(sources)} sources [{', '.join(by_node)}]",
                       cfg.path_loc, "use {source_name:NODE} to name one")
    values = {"channel": "", "n": "",
              "source_name": next(iter(by_node.values())) if len(by_node) == 1 else ""}
    if not template.per_record:
        return replace(cfg, path=template.render(values, by_node))
    source = _file_lineage(sink.input, by_name, cfg)
    if source is None:
        merged = dict(values, **{t: MERGED for t in PER_RECORD})
        return replace(cfg, path=template.render(merged, by_node))
    if template.tokens("source_path"):
        raise fail("CS001", f"output '{cfg.name}': {{source_path}} is not supported yet: "
                   "clinker-sql reads a file by its full path, where Clinker names it as "
                   "discovered", cfg.path_loc, "use {source_file}, the file's stem")
    if cfg.format not in ("csv", "json", "fixed_width"):
        raise fail("CS001", f"output '{cfg.name}': one {cfg.format} file per source file is "
                   "not supported yet", cfg.path_loc,
                   "write csv, json or fixed_width, or a fixed path")
    return replace(cfg, fan_out=m.FanOut(template.partial(values, by_node), source))


def _stem(source: m.SourceNode) -> str:
    """Clinker's `{source_name}`: the stem of the source's `path:` (a glob has none)."""
    if source.config.path_kind != "path":
        return ""
    return PurePath(source.config.paths[0]).stem


def _ancestors(sink: m.SinkNode, by_name: dict[str, m.Node]) -> list[m.SourceNode]:
    seen: set[str] = set()
    out: list[m.SourceNode] = []
    queue = [sink.name]
    while queue:
        name = queue.pop(0)
        if name in seen or name not in by_name:
            continue
        seen.add(name)
        node = by_name[name]
        if isinstance(node, m.SourceNode):
            out.append(node)
        else:
            queue.extend(ref.node for ref in node.inputs)
    return out


def _file_lineage(ref: m.Ref, by_name: dict[str, m.Node], cfg: m.SinkConfig,
                  seen: frozenset[str] = frozenset()) -> str | None:
    """The multi-file source whose records reach the sink with their file, or None when
    they reach it without (a merge, a single-file source). This runs before the graph
    checks (config/checks.py): a cycle or a repeated name ends the walk with None, and
    those checks report it (E001, E002, E003)."""
    node = by_name.get(ref.node)  # an undeclared input is E004 (config/checks.py)
    while isinstance(node, _ROW_WISE) and node.name not in seen:
        seen |= {node.name}
        node = by_name.get(node.input.node)
    if node is None or node.name in seen:
        return None
    seen |= {node.name}
    if isinstance(node, m.SourceNode):
        return node.name if node.config.path_kind != "path" else None
    if isinstance(node, m.MergeNode):
        return None
    if any(_file_lineage(r, by_name, cfg, seen) is not None for r in node.inputs):
        raise fail("CS001", f"output '{cfg.name}': one file per source file after the "
                   f"{node.kind} '{node.name}' is not supported yet", cfg.path_loc,
                   "write a fixed path, or put the template on a sink before it")
    return None
