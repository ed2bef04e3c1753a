"""Wiring checks on a loaded pipeline: names, references, ports, cycles, keys.

Returns the nodes in dependency order (declaration order where the graph
allows), which every later pass uses.
"""

from __future__ import annotations

import math
import os
import re
import stat
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path

from clinker_sql.config import model as m
from clinker_sql.config.limits import check_path_length
from clinker_sql.diagnostics import Diagnostic, DiagnosticError, Location, fail


def check_pipeline(p: m.Pipeline, base: Path | None = None
                   ) -> tuple[list[m.Node], list[Diagnostic]]:
    """`base`: the folder relative paths resolve against (None: no file is looked at)."""
    warnings: list[Diagnostic] = list(p.warnings)
    by_name: dict[str, m.Node] = {}
    lower: dict[str, str] = {}
    for node in p.nodes:
        if "." in node.name:
            raise fail("E010", f"node name '{node.name}' contains '.'", node.loc,
                       f"rename it, e.g. '{node.name.replace('.', '_')}'")
        if node.name in by_name:
            raise fail("E001", f"duplicate node name '{node.name}'", node.loc)
        if node.name.lower() in lower:
            warnings.append(Diagnostic(
                "W002", f"node names '{lower[node.name.lower()]}' and '{node.name}' differ only "
                "in case", node.loc, severity="warning"))
        by_name[node.name] = node
        lower[node.name.lower()] = node.name
    for node in p.nodes:
        for ref in node.inputs:
            _check_ref(node, ref, by_name)
        if isinstance(node, m.SourceNode):
            _check_correlation_key(node)
    _check_paths(p, base)
    _check_outputs(p)
    _check_dlq_limits(p, by_name)
    _check_log_events(p)
    ordered = _topological(p, by_name)
    for node in p.nodes:
        if isinstance(node, m.MergeNode):
            _check_merge_widening(node, by_name)
    _check_then_refuse(p)
    return ordered, warnings


def _check_dlq_limits(p: m.Pipeline, by_name: dict[str, m.Node]) -> None:
    """Clinker's validate_dlq_per_source: a rate lies in (0, 1] (E318), a per_source key
    names a source (E317), no two DLQ files are one (E318)."""
    dlq = p.error_handling.dlq
    if dlq is None:
        return
    for label, limit in [("error_handling.dlq", dlq.limit)] + [
            (f"error_handling.dlq.per_source.{s}", lim) for s, lim in dlq.per_source]:
        r = limit.max_rate
        if r is not None and not (0.0 < r <= 1.0 and math.isfinite(r)):
            raise fail("E318", f"{label}.max_rate {r} is out of range; must be in (0.0, 1.0]",
                       limit.loc)
    paths = {_norm(dlq.path): "error_handling.dlq.path"} if dlq.path else {}
    for src, limit in dlq.per_source:
        if not isinstance(by_name.get(src), m.SourceNode):
            raise fail("E317", f"error_handling.dlq.per_source key '{src}' does not match any "
                       "declared source node", limit.loc)
        if limit.path:
            label = f"error_handling.dlq.per_source.{src}.path"
            if _norm(limit.path) in paths:
                raise fail("E318", f"{label} '{limit.path}' collides with "
                           f"{paths[_norm(limit.path)]}", limit.loc)
            paths[_norm(limit.path)] = label


def _check_then_refuse(p: m.Pipeline) -> None:
    """Features Clinker accepts that clinker-sql does not run: first the checks Clinker
    makes of them (E344, E370), so a wrong pipeline gets Clinker's code, then CS001; and
    Clinker's check of a time window's sources (E156)."""
    strategy = p.error_handling.strategy
    sources = [n for n in p.nodes if isinstance(n, m.SourceNode)]
    for node in p.nodes:
        if isinstance(node, m.AggregateNode) and node.time_window is not None:
            missing = sorted(n.name for n in upstream(p.nodes, [node.name])
                             if isinstance(n, m.SourceNode) and n.config.watermark is None)
            if missing:
                raise fail("E156", f"aggregate '{node.name}' declares `time_window:` but the "
                           "upstream source(s) " + ", ".join(f"'{s}'" for s in missing) +
                           " declare no `watermark.column`", node.time_window.loc,
                           "add `watermark: { column: <event-time column> }` to each listed "
                           "source, or remove `time_window:`")
    document = next((n for n in sources if n.config.document_dlq is not None), None)
    if document is not None:
        if strategy == "fail_fast":
            raise fail("E344", f"source '{document.name}': `dlq_granularity: document` cannot "
                       "be combined with `error_handling.strategy: fail_fast`",
                       document.config.document_dlq, "use `strategy: continue`, or set "
                       "`dlq_granularity: record`")
        keyed = next((n for n in sources if n.config.correlation_key), None)
        if keyed is not None:
            raise fail("E370", f"source '{document.name}' declares `dlq_granularity: "
                       f"document` and source '{keyed.name}' a correlation_key; the two "
                       "rejections cannot share one writer boundary",
                       document.config.document_dlq)


def _widened(ref: m.Ref, by_name: dict[str, m.Node]) -> tuple[str, bool] | None:
    """The source a merge input's rows come from, through row-wise nodes, and whether its
    rows carry the undeclared columns (`on_unmapped: auto_widen`); None past other nodes."""
    node = by_name[ref.node]
    while isinstance(node, (m.TransformNode, m.RouteNode, m.CullNode)):
        node = by_name[node.inputs[0].node]
    if isinstance(node, m.SourceNode):
        return node.name, node.config.on_unmapped == "auto_widen"
    return None


def _check_merge_widening(node: m.MergeNode, by_name: dict[str, m.Node]) -> None:
    """E315 (Clinker's bind_schema): merge inputs whose sources disagree on carrying the
    undeclared columns (`auto_widen` against `drop`/`reject`) cannot share one schema."""
    found = [w for w in (_widened(r, by_name) for r in node.merge_inputs) if w is not None]
    widen = sorted({s for s, w in found if w})
    narrow = sorted({s for s, w in found if not w})
    if widen and narrow:
        raise fail("E315", f"merge '{node.name}': inputs from {', '.join(widen)} carry undeclared "
                   f"columns (on_unmapped: auto_widen) and inputs from {', '.join(narrow)} do "
                   "not", node.loc, "give these sources the same on_unmapped mode")


def upstream(nodes: Iterable[m.Node], names: Iterable[str]) -> Iterator[m.Node]:
    """The nodes `names` name and every node they read from, directly or not, each once."""
    by_name = {n.name: n for n in nodes}
    stack, seen = list(names), set()
    while stack:
        name = stack.pop()
        if name in seen:
            continue
        seen.add(name)
        node = by_name[name]
        yield node
        stack.extend(r.node for r in node.inputs)


def resolve_port(consumer: m.Node, ref: m.Ref, producer: m.Node) -> str | None:
    """The route branch a reference selects: explicit `.port`, or the consumer's own name."""
    if ref.port is not None:
        return ref.port
    if isinstance(producer, m.RouteNode):
        return consumer.name
    return None


def _check_ref(node: m.Node, ref: m.Ref, by_name: dict[str, m.Node]) -> None:
    if ref.node == node.name:
        raise fail("E002", f"node '{node.name}' lists itself as its input", ref.loc)
    producer = by_name.get(ref.node)
    if producer is None:
        raise fail("E004", f"node '{node.name}' reads '{ref}', which is not declared", ref.loc,
                   length=len(str(ref)))
    if isinstance(producer, m.SinkNode):
        raise fail("E004", f"node '{node.name}' reads sink '{ref.node}', which has no output",
                   ref.loc)
    port = resolve_port(node, ref, producer)
    if isinstance(producer, m.RouteNode):
        if port not in producer.ports:
            raise fail("E004", f"route '{producer.name}' has no branch '{port}'", ref.loc,
                       f"branches: {', '.join(producer.ports)}")
    elif isinstance(producer, m.CullNode):
        if port is not None and port != producer.removed_to:
            raise fail("E004", f"cull '{producer.name}' has no port '{port}'", ref.loc,
                       f"its ports: '{producer.name}' (kept groups) and "
                       f"'{producer.name}.{producer.removed_to}' (removed groups)")
    elif ref.port is not None:
        raise fail("E004", f"'{ref}': node '{producer.name}' has no ports", ref.loc)


ALLOW_ABSOLUTE_ENV = "CLINKER_ALLOW_ABSOLUTE_PATHS"  # Clinker's: set (to anything) allows


def absolute_paths_allowed(flag: bool, environ: Mapping[str, str]) -> bool:
    """Clinker's permission for absolute paths: `--allow-absolute-paths`, or its
    environment variable set to any value (`flag || env::var(..).is_ok()` in Clinker)."""
    return flag or ALLOW_ABSOLUTE_ENV in environ


_SCHEME = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*:")  # file:, hdfs:, s3a: (Hadoop's URIs)


def path_fault(raw: str, allow_absolute: bool) -> str | None:
    """Why Clinker's security::validate_path refuses `raw`, in its order: a NUL byte, an
    encoded `..`, a `..` component, then an absolute path unless allowed. A path naming a
    URI scheme (Spark reads `file:/etc/x` wherever it points) counts as absolute."""
    if "\0" in raw:
        return "contains a null byte"
    if "%2e%2e" in raw.lower():
        return "contains encoded directory traversal"
    if ".." in raw.replace("\\", "/").split("/"):
        return "contains directory traversal (..)"
    if not allow_absolute and (raw.startswith("/") or _SCHEME.match(raw)):
        return "is absolute, which is not allowed"
    return None


def check_path(raw: str, what: str, loc: Location | None, allow_absolute: bool) -> None:
    """E-SEC-001 for one path of the pipeline (`what` names the field), before anything
    reads or writes it."""
    why = path_fault(raw, allow_absolute)
    if why is None:
        check_path_length(raw, what, loc)  # CS064, before the file system refuses it
    if why is not None:
        raise fail("E-SEC-001", f"{what}: path {why}: {shown(raw)}", loc,
                   "use --allow-absolute-paths (or set CLINKER_ALLOW_ABSOLUTE_PATHS) to allow "
                   "absolute paths" if why.startswith("is absolute") else
                   "name the file by a path below the folder the pipeline runs in")


def shown(text: str, limit: int = 200) -> str:
    """A path, name or text read from a file, for a message: quoted, every control
    character escaped, and cut after `limit` characters."""
    return repr(text if len(text) <= limit else text[:limit]) + ("..." if len(text) > limit
                                                                 else "")


def _pipeline_paths(p: m.Pipeline) -> Iterator[tuple[str, str, Location | None]]:
    """Every file path the pipeline names, with what it is and where: source matchers,
    sink paths (a fan-out's template too), the DLQ paths."""
    for node in p.nodes:
        if isinstance(node, m.SourceNode) and node.config.path_kind != "regex":
            for raw in node.config.paths:  # (a regex is matched under the pipeline folder)
                yield raw, f"source '{node.name}'", node.loc
        elif isinstance(node, m.SinkNode) and not node.config.table:
            cfg = node.config
            yield cfg.path, f"sink '{node.name}'", cfg.path_loc
            if cfg.fan_out is not None:
                yield cfg.fan_out.template, f"sink '{node.name}'", cfg.path_loc
    dlq = p.error_handling.dlq
    if dlq is not None:
        if dlq.path is not None:
            yield dlq.path, "error_handling.dlq.path", dlq.loc
        for src, limit in dlq.per_source:
            if limit.path is not None:
                yield limit.path, f"error_handling.dlq.per_source.{src}.path", limit.loc


def _check_paths(p: m.Pipeline, base: Path | None) -> None:
    """E-SEC-001 (Clinker's security::validate_path) for every path of the pipeline: a
    `..` component, an encoded one (`%2e%2e`), a NUL byte, or an absolute path unless
    allowed (`Pipeline.allow_absolute_paths`). With the folder relative paths resolve
    against (`base`), as Clinker does: a path that exists may not lead out of it through
    a symlink unless absolute paths are allowed, and a source may not name a FIFO, a
    socket or a device (CS108), which reading its header would block on or never end."""
    allow = p.allow_absolute_paths
    for raw, what, loc in _pipeline_paths(p):
        check_path(raw, what, loc, allow)
    if base is None:
        return
    for raw, what, loc in _pipeline_paths(p):
        check_symlink(raw, what, loc, base, allow)
    for node in p.nodes:
        if isinstance(node, m.SourceNode) and node.config.path_kind not in ("glob", "regex"):
            for raw in node.config.paths:
                check_regular(os.path.join(base, raw), f"source '{node.name}'", raw,
                               node.loc)


def check_symlink(raw: str, what: str, loc: Location | None, base: Path | str,
                  allow_absolute: bool) -> None:
    """E-SEC-001 (Clinker's symlink-escape check): a path that exists, resolved against
    `base`, may not lead out of `base` unless absolute paths are allowed."""
    full = os.path.join(base, raw)
    if allow_absolute or not os.path.exists(full):
        return
    if not _under(os.path.realpath(full), os.path.realpath(base)):
        raise fail("E-SEC-001", f"{what}: path leads out of the working folder through a "
                   f"symlink: {shown(raw)}", loc, "use --allow-absolute-paths (or set "
                   "CLINKER_ALLOW_ABSOLUTE_PATHS) to allow it")


def _under(path: str, root: str) -> bool:
    return path == root or path.startswith(root.rstrip(os.sep) + os.sep)


def check_regular(full: str | Path, what: str, raw: str, loc: Location | None) -> None:
    """CS108: a path to read that exists and is neither a regular file nor a folder."""
    try:
        mode = os.stat(full).st_mode
    except (OSError, ValueError):
        return  # no such file: E216 when the run lists its files
    if not (stat.S_ISREG(mode) or stat.S_ISDIR(mode)):
        raise fail("CS108", f"{what}: path {shown(raw)} is not a regular file (a FIFO, a "
                   "socket or a device)", loc, "name a file of records")


def _check_correlation_key(node: m.SourceNode) -> None:
    names = {c.name for c in node.config.schema}
    for field in node.config.correlation_key:
        if field not in names:
            raise fail("E153", f"source '{node.name}' declares correlation_key field "
                       f"'{field}', which is not in its schema",
                       node.config.correlation_key_loc or node.loc, length=len(field))


def _check_outputs(p: m.Pipeline) -> None:
    seen: dict[str, str] = {}
    dlq = p.error_handling.dlq
    if dlq is not None and dlq.path:
        seen[_norm(dlq.path)] = "the DLQ"
    for src, limit in dlq.per_source if dlq is not None else ():
        if limit.path:
            seen[_norm(limit.path)] = f"the DLQ of source '{src}'"
    for node in p.nodes:
        if isinstance(node, m.SinkNode):
            cfg = node.config
            key = ("table", ".".join(cfg.table).lower()) if cfg.table else _norm(cfg.path)
            if key in seen:
                raise fail("E322", f"output '{node.name}' path {cfg.target} collides with "
                           f"{seen[key]}: both write the same file", node.config.path_loc)
            seen[key] = f"sink '{node.name}'"


def _check_log_events(p: m.Pipeline) -> None:
    """E375: one `log` event name carries one set of fields across the whole pipeline
    (Clinker's validate_log_event_shapes; compared as sets)."""
    shapes: dict[str, tuple[str, frozenset[str]]] = {}
    for node in p.nodes:
        for d in getattr(node, "log", ()):
            first = shapes.setdefault(d.name, (node.name, frozenset(d.fields)))
            if first[1] != frozenset(d.fields):
                raise fail("E375", f"transform '{node.name}': log event '{d.name}' is also "
                           f"declared by transform '{first[0]}' with different fields", d.loc,
                           "give both declarations the same `fields`, or give one of them "
                           "its own event name")


def _norm(path: str) -> str:
    import os.path

    return os.path.normpath(path)


def _topological(p: m.Pipeline, by_name: dict[str, m.Node]) -> list[m.Node]:
    order: list[m.Node] = []
    state: dict[str, int] = {}  # 1 = visiting, 2 = done

    def visit(node: m.Node, path: list[str]) -> None:
        if state.get(node.name) == 2:
            return
        if state.get(node.name) == 1:
            cycle = path[path.index(node.name):] + [node.name]
            raise DiagnosticError([Diagnostic(
                "E003", f"cycle between nodes: {' -> '.join(cycle)}", node.loc)])
        state[node.name] = 1
        for ref in node.inputs:
            visit(by_name[ref.node], path + [node.name])
        state[node.name] = 2
        order.append(node)

    for node in p.nodes:
        visit(node, [])
    return order
