"""Column lineage: for each node, where each output column comes from.

Per node and output column: the CXL expression that computes it (with the `let`s it
uses), and the input columns it reads (as `input.column`, the input being a node or a
route branch). It is computed once at compile time from the CXL syntax trees, so it
names CXL, not SQL. The compiled file headers print it (`header_lines`), and
`clinker-sql lineage pipeline.yaml sink.column` walks it back to source columns
(`trace`)."""

from __future__ import annotations

import difflib
import itertools
import re
from dataclasses import dataclass, field
from typing import Any

from clinker_sql.codegen.comments import comment_text
from clinker_sql.config import model as m
from clinker_sql.config.checks import resolve_port
from clinker_sql.cxl import ast as a
from clinker_sql.cxl.lexer import tokenize
from clinker_sql.cxl.parser import parse_expression, parse_program
from clinker_sql.diagnostics import fail


@dataclass(frozen=True)
class ColumnLineage:
    column: str
    type: str
    cxl: str = ""  # the expression computing it; "" when the column is passed through
    lets: tuple[str, ...] = ()  # `let` statements the expression uses, in program order
    reads: tuple[tuple[str, str], ...] = ()  # (input, column), in first-use order
    system: tuple[str, ...] = ()  # system variables read, e.g. $source.file
    origin: str = ""  # how a column without CXL arises (source file column, group number...)

    @property
    def passed_through(self) -> bool:
        """Unchanged from one input column of the same name (`emit x = x` included)."""
        return (self.cxl in ("", self.column) and not self.origin and not self.lets
                and len(self.reads) == 1 and self.reads[0][1] == self.column)

    def to_json(self) -> dict[str, Any]:
        return {"column": self.column, "type": self.type, "cxl": self.cxl,
                "lets": list(self.lets), "reads": [f"{i}.{c}" for i, c in self.reads],
                "system": list(self.system), "origin": self.origin}


@dataclass(frozen=True)
class NodeLineage:
    node: str
    kind: str
    inputs: tuple[str, ...]  # the relations it reads: node names or route.branch
    columns: tuple[ColumnLineage, ...]
    filters: tuple[str, ...] = ()  # CXL conditions that drop rows (filter, route branches)

    def column(self, name: str) -> ColumnLineage | None:
        return next((c for c in self.columns if c.column == name), None)


# ---- CXL text -------------------------------------------------------------------------------

def one_line(text: str) -> str:
    """Whitespace (every kind of line break included) collapsed to single spaces."""
    return " ".join(text.split())


class _Text:
    """Source text of CXL statements and expressions, rebuilt from tokens line by line so
    that comments are left out and the result fits on one line."""

    def __init__(self, text: str):
        self.lines = re.split(r"\r\n|\r|\n", text)
        self.tokens = [t for t in tokenize(text) if t.kind not in ("NL", "EOF")]

    def span(self, start: a.Pos, end: a.Pos | None, skip_to_eq: bool = False,
             skip: int = 0) -> str:
        sel = [t for t in self.tokens if (t.line, t.col) >= (start.line, start.col)
               and (end is None or (t.line, t.col) < (end.line, end.col))]
        if skip_to_eq:
            eq = next((i for i, t in enumerate(sel) if t.kind == "PUNCT" and t.value == "="), -1)
            sel = sel[eq + 1:]
        sel = sel[skip:]
        parts = []
        for line, group in itertools.groupby(sel, key=lambda t: t.line):
            g = list(group)
            parts.append(self.lines[line - 1][g[0].col - 1:g[-1].col - 1 + g[-1].length])
        return one_line(" ".join(parts))


# ---- what an expression reads ------------------------------------------------------------

@dataclass
class _Refs:
    fields: dict[str, None] = field(default_factory=dict)  # ordered set
    qualified: dict[tuple[str, str], None] = field(default_factory=dict)
    system: dict[str, None] = field(default_factory=dict)
    lets: dict[str, None] = field(default_factory=dict)
    window: bool = False

    def merge(self, other: _Refs) -> None:
        self.fields.update(other.fields)
        self.qualified.update(other.qualified)
        self.system.update(other.system)
        self.lets.update(other.lets)
        self.window = self.window or other.window


def _refs(e: object, lets: dict[str, _Refs], qualifiers: set[str],
          bound: frozenset[str] = frozenset(), out: _Refs | None = None) -> _Refs:
    out = out if out is not None else _Refs()
    if isinstance(e, a.Name):
        if e.name in bound:
            return out
        if e.name in lets:
            out.merge(lets[e.name])
            out.lets[e.name] = None
        else:
            out.fields[e.name] = None
        return out
    if isinstance(e, a.Qualified):
        head = e.parts[0]
        if head in bound or head in lets:
            return _refs(a.Name(e.pos, head), lets, qualifiers, bound, out)
        if head in qualifiers and len(e.parts) >= 2:
            out.qualified[(head, e.parts[1])] = None
        elif len(e.parts) >= 2:
            out.fields[e.parts[1]] = None  # on a plain record the qualifier is ignored
        return out
    if isinstance(e, a.SysVar):
        if e.namespace == "window":
            out.window = True
        else:
            out.system["$" + ".".join((e.namespace,) + e.path)] = None
        return out
    if isinstance(e, a.Field):
        target = e.target
        if isinstance(target, a.MethodCall) and isinstance(target.receiver, a.SysVar) and \
                target.receiver.namespace == "window":
            out.fields[e.name] = None  # $window.lag(1).amount reads amount
        return _refs(target, lets, qualifiers, bound, out)
    if isinstance(e, a.Lambda):
        return _refs(e.body, lets, qualifiers, bound | {e.param}, out)
    if isinstance(e, a.Comprehension):
        _refs(e.source, lets, qualifiers, bound, out)
        inner = bound | {e.binding}
        _refs(e.item, lets, qualifiers, inner, out)
        if e.predicate is not None:
            _refs(e.predicate, lets, qualifiers, inner, out)
        return out
    if isinstance(e, a.MatchArm):
        for part in (e.pattern, e.result):
            if part is not None:
                _refs(part, lets, qualifiers, bound, out)
        return out
    if isinstance(e, (a.Expr, a.Stmt)):
        for name, value in vars(e).items():
            if name == "pos":
                continue
            for child in (value if isinstance(value, tuple) else (value,)):
                if isinstance(child, tuple):  # map literal entries
                    for sub in child:
                        _refs(sub, lets, qualifiers, bound, out)
                elif isinstance(child, (a.Expr, a.MatchArm)):
                    _refs(child, lets, qualifiers, bound, out)
    return out


@dataclass
class _Program:
    """A CXL body read for lineage: its lets, emits (in order) and filters."""

    lets: dict[str, _Refs] = field(default_factory=dict)
    let_text: dict[str, str] = field(default_factory=dict)
    emits: dict[str, tuple[str, _Refs]] = field(default_factory=dict)
    filters: list[str] = field(default_factory=list)


def _read_program(text: str, qualifiers: set[str] = frozenset()) -> _Program:
    program = parse_program(text)
    src = _Text(text)
    out = _Program()
    stmts = list(program.statements)
    for stmt, nxt in zip(stmts, stmts[1:] + [None]):
        end = nxt.pos if nxt is not None else None
        if isinstance(stmt, a.Let):
            refs = _refs(stmt.value, out.lets, qualifiers)
            out.lets[stmt.name] = refs
            out.let_text[stmt.name] = f"let {stmt.name} = " + src.span(stmt.pos, end,
                                                                       skip_to_eq=True)
        elif isinstance(stmt, a.Emit) and stmt.scope is None:
            out.emits[stmt.name] = (src.span(stmt.pos, end, skip_to_eq=True),
                                    _refs(stmt.value, out.lets, qualifiers))
        elif isinstance(stmt, a.Filter):
            out.filters.append(src.span(stmt.pos, end, skip=1))
    return out


# ---- per node ----------------------------------------------------------------------------

def input_key(p: m.Pipeline, consumer: m.Node, ref: m.Ref) -> str:
    """The relation a reference reads: the node, or `route.branch`."""
    port = resolve_port(consumer, ref, p.node(ref.node))
    return f"{ref.node}.{port}" if port else ref.node


def _columns(compiled: Any, key: str) -> list[tuple[str, str]]:
    rel = compiled.relations.get(key)
    if rel is None:
        return []
    return [(n, str(t)) for n, t in rel.columns + rel.ck]


def _emitted(name: str, type_: str, cxl: str, refs: _Refs, prog: _Program,
             reads: list[tuple[str, str]]) -> ColumnLineage:
    return ColumnLineage(name, type_, cxl, tuple(prog.let_text[n] for n in prog.let_text
                                                 if n in refs.lets),
                         tuple(dict.fromkeys(reads)), tuple(refs.system))


def _passthrough(key: str, columns: list[tuple[str, str]]) -> list[ColumnLineage]:
    return [ColumnLineage(n, t, reads=((key, n),)) for n, t in columns]


def _source(node: m.SourceNode, compiled: Any) -> NodeLineage:
    cfg = node.config
    types = dict(_columns(compiled, node.name))
    where = ", ".join(cfg.paths)
    out = []
    for i, c in enumerate(cfg.schema):
        physical = f"{i + 1}" if cfg.format == "csv" and not cfg.csv.has_header else \
            f"'{c.source_name or c.name}'"
        typed = types.get(c.name, "")
        out.append(ColumnLineage(c.name, typed, origin=(
            f"{cfg.format} column {physical} of {where}, as {typed or c.type}")))
    for f in cfg.correlation_key:
        out.append(ColumnLineage(f"$ck.{f}", types.get(f"$ck.{f}", ""),
                                 origin=f"correlation key: a copy of '{f}' taken at ingest"))
    return NodeLineage(node.name, node.kind, (), tuple(out))


def _transform(p: m.Pipeline, node: m.TransformNode, compiled: Any) -> NodeLineage:
    key = input_key(p, node, node.input)
    prog = _read_program(node.cxl.text)
    window_keys: list[str] = []
    if node.analytic_window is not None:
        w = node.analytic_window
        window_keys = list(w.group_by) + [f for f, _ in w.sort_by]
    out = []
    for name, type_ in _columns(compiled, node.name):
        if name in prog.emits:
            cxl, refs = prog.emits[name]
            reads = [(key, f) for f in refs.fields]
            if refs.window:
                reads += [(key, f) for f in window_keys]
            out.append(_emitted(name, type_, cxl, refs, prog, reads))
        else:
            out.append(ColumnLineage(name, type_, reads=((key, name),)))
    return NodeLineage(node.name, node.kind, (key,), tuple(out), tuple(prog.filters))


def _aggregate(p: m.Pipeline, node: m.AggregateNode, compiled: Any) -> NodeLineage:
    key = input_key(p, node, node.input)
    prog = _read_program(node.cxl.text)
    out = []
    for name, type_ in _columns(compiled, node.name):
        if name in prog.emits:
            cxl, refs = prog.emits[name]
            out.append(_emitted(name, type_, cxl, refs, prog, [(key, f) for f in refs.fields]))
        elif name == f"$ck.aggregate.{node.name}":
            out.append(ColumnLineage(name, type_, origin="the stable group number of this "
                                     "retraction-mode aggregate (0-based, first-seen order)"))
        elif name in node.group_by:
            out.append(ColumnLineage(name, type_, reads=((key, name),)))
        else:
            out.append(ColumnLineage(name, type_, reads=((key, name),)))
    return NodeLineage(node.name, node.kind, (key,), tuple(out), tuple(prog.filters))


def _combine(p: m.Pipeline, node: m.CombineNode, compiled: Any) -> NodeLineage:
    keys = {q: input_key(p, node, ref) for q, ref in node.combine_inputs}
    cols = {q: [n for n, _ in _columns(compiled, k)] for q, k in keys.items()}
    owner: dict[str, list[str]] = {}
    for q, names in cols.items():
        for n in names:
            owner.setdefault(n, []).append(q)
    prog = _read_program(node.cxl.text, set(keys)) if node.match != "collect" else _Program()
    drive = node.drive or node.combine_inputs[0][0]
    out = []
    for name, type_ in _columns(compiled, node.name):
        if name in prog.emits:
            cxl, refs = prog.emits[name]
            reads = [(keys[q], f) for q, f in refs.qualified]
            reads += [(keys[owner[f][0]], f) for f in refs.fields if len(owner.get(f, ())) == 1]
            out.append(_emitted(name, type_, cxl, refs, prog, reads))
        elif name in keys and node.match == "collect" and name != drive:
            out.append(ColumnLineage(name, type_, origin=f"array of the matching '{name}' "
                                     "records (match: collect)",
                                     reads=tuple((keys[name], c) for c in cols[name])))
        else:
            q = drive if name in cols[drive] else next((q for q in keys if name in cols[q]),
                                                       drive)
            out.append(ColumnLineage(name, type_, reads=((keys[q], name),)))
    filters = [f"where {one_line(node.where.text)}"] if node.where is not None else []
    return NodeLineage(node.name, node.kind, tuple(keys.values()), tuple(out), tuple(filters))


def _route(p: m.Pipeline, node: m.RouteNode, compiled: Any) -> NodeLineage:
    key = input_key(p, node, node.input)
    branch = f"{node.name}.{node.default}"
    conditions = tuple(f"{b}: {one_line(c.text)}" for b, c in node.conditions)
    return NodeLineage(node.name, node.kind, (key,),
                       tuple(_passthrough(key, _columns(compiled, branch))), conditions)


def _cull(p: m.Pipeline, node: m.CullNode, compiled: Any) -> NodeLineage:
    key = input_key(p, node, node.input)
    rules = tuple(f"{r}: drop_group_when {one_line(c.text)}" for r, c in node.rules)
    return NodeLineage(node.name, node.kind, (key,),
                       tuple(_passthrough(key, _columns(compiled, node.name))), rules)


def _reshape(p: m.Pipeline, node: m.ReshapeNode, compiled: Any) -> NodeLineage:
    """A column a rule writes (`mutate.set`, an override) reads what its expressions and
    their rules' `when` read; the others pass through."""
    key = input_key(p, node, node.input)
    out = []
    for name, type_ in _columns(compiled, node.name):
        parts, refs = [], _Refs()
        for rule in node.rules:
            for what, pairs in (("set", rule.set), ("synthesize", rule.overrides)):
                for field_, source in pairs:
                    if field_ == name:
                        parts.append(f"{rule.name}: {what} {one_line(source.text)} when "
                                     f"{one_line(rule.when.text)}")
                        for text in (source.text, rule.when.text):
                            _refs(parse_expression(text), {}, set(), out=refs)
        if not parts:
            out.append(ColumnLineage(name, type_, reads=((key, name),)))
            continue
        reads = [(key, name)] + [(key, f) for f in refs.fields]
        out.append(ColumnLineage(name, type_, "; ".join(parts), (),
                                 tuple(dict.fromkeys(reads)), tuple(refs.system)))
    rules = tuple(f"{r.name}: when {one_line(r.when.text)}" for r in node.rules)
    return NodeLineage(node.name, node.kind, (key,), tuple(out), rules)


def _merge(p: m.Pipeline, node: m.MergeNode, compiled: Any) -> NodeLineage:
    keys = tuple(input_key(p, node, ref) for ref in node.merge_inputs)
    out = [ColumnLineage(n, t, reads=tuple((k, n) for k in keys))
           for n, t in _columns(compiled, node.name)]
    return NodeLineage(node.name, node.kind, keys, tuple(out))


def _sink(p: m.Pipeline, node: m.SinkNode, columns: Any) -> NodeLineage:
    key = input_key(p, node, node.input)
    out = [ColumnLineage(name, str(t), reads=((key, src),)) for name, src, t in columns]
    return NodeLineage(node.name, node.kind, (key,), tuple(out))


def column_lineage(p: m.Pipeline, compiled: Any,
                   sink_columns: dict[str, Any]) -> dict[str, NodeLineage]:
    """Every node's lineage, in the order of `compiled.nodes`."""
    out: dict[str, NodeLineage] = {}
    for entry in compiled.nodes:
        node = p.node(entry["name"])
        if isinstance(node, m.SourceNode):
            out[node.name] = _source(node, compiled)
        elif isinstance(node, m.TransformNode):
            out[node.name] = _transform(p, node, compiled)
        elif isinstance(node, m.AggregateNode):
            out[node.name] = _aggregate(p, node, compiled)
        elif isinstance(node, m.CombineNode):
            out[node.name] = _combine(p, node, compiled)
        elif isinstance(node, m.RouteNode):
            out[node.name] = _route(p, node, compiled)
        elif isinstance(node, m.CullNode):
            out[node.name] = _cull(p, node, compiled)
        elif isinstance(node, m.MergeNode):
            out[node.name] = _merge(p, node, compiled)
        elif isinstance(node, m.ReshapeNode):
            out[node.name] = _reshape(p, node, compiled)
        elif isinstance(node, m.SinkNode) and node.name in sink_columns:
            out[node.name] = _sink(p, node, sink_columns[node.name])
    return out


# ---- file headers ------------------------------------------------------------------------

def _wrapped(prefix: str, items: list[str], width: int = 96) -> list[str]:
    """`prefix item, item, ...` over as many comment lines as it takes."""
    lines, line = [], prefix
    for i, item in enumerate(items):
        piece = item + ("," if i < len(items) - 1 else "")
        if line != prefix and len(line) + 1 + len(piece) > width:
            lines.append(line)
            line = "--" + " " * (len(prefix) - 2)
        line = f"{line} {piece}"
    lines.append(line)
    return lines


def header_lines(nl: NodeLineage) -> list[str]:
    """The lineage block of a compiled file's header (SQL comments): one line per computed
    column; the columns passed through unchanged are listed together. Each line is one
    comment line whatever the names in it hold (codegen/comments.py)."""
    lines = ["-- column lineage: column <- CXL or origin (lets) [reads input.column]"]
    passed: dict[str, list[str]] = {}
    for c in nl.columns:
        if c.passed_through:
            passed.setdefault(c.reads[0][0], []).append(c.column)
            continue
        what = c.cxl or c.origin or ("renamed" if len(c.reads) == 1 else "union of the inputs")
        text = f"--   {c.column} <- {what}"
        if c.lets:
            text += " (" + "; ".join(c.lets) + ")"
        reads = [f"{i}.{col}" for i, col in c.reads] + list(c.system)
        if reads:
            text += " [reads " + ", ".join(reads) + "]"
        lines.append(text)
    for key, names in passed.items():
        lines += _wrapped(f"--   unchanged from {key}:", names)
    for f in nl.filters:
        lines.append(f"--   rows: {f}")
    # names, paths and CXL are the user's: none of them may end the comment
    return [comment_text(line) for line in lines]


# ---- walking back ------------------------------------------------------------------------

@dataclass(frozen=True)
class Trace:
    node: str
    kind: str
    column: ColumnLineage
    inputs: tuple[Trace, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {"node": self.node, "kind": self.kind, **self.column.to_json(),
                "inputs": [t.to_json() for t in self.inputs]}

    def sources(self) -> list[str]:
        """The source columns at the leaves, in first-seen order."""
        if not self.inputs:
            return [f"{self.node}.{self.column.column}"] if self.kind == "source" else []
        return list(dict.fromkeys(s for t in self.inputs for s in t.sources()))


def trace(lineage: dict[str, NodeLineage], target: str) -> Trace:
    """Walk `node.column` back to the source columns it is computed from."""
    node, _, column = target.partition(".")
    nl = lineage.get(node)
    if nl is None:
        near = difflib.get_close_matches(node, list(lineage), n=1)
        raise fail("CS042", f"no node '{node}' in the pipeline",
                   hint=f"did you mean '{near[0]}'?" if near else
                   f"nodes: {', '.join(lineage)}")
    if not column or nl.column(column) is None:
        names = [c.column for c in nl.columns]
        near = difflib.get_close_matches(column, names, n=1)
        raise fail("CS042", f"node '{node}' has no column '{column}'" if column else
                   f"name a column of '{node}' as {node}.column",
                   hint=f"did you mean '{node}.{near[0]}'?" if near else
                   f"its columns: {', '.join(names)}")
    return _walk(lineage, node, column, frozenset())


def _walk(lineage: dict[str, NodeLineage], node: str, column: str,
          seen: frozenset[tuple[str, str]]) -> Trace:
    nl = lineage[node]
    col = nl.column(column) or ColumnLineage(column, "")
    inputs = []
    for key, name in col.reads:
        producer = key.partition(".")[0]
        if producer in lineage and (producer, name) not in seen:
            inputs.append(_walk(lineage, producer, name, seen | {(node, column)}))
    return Trace(node, nl.kind, col, tuple(inputs))


def render_trace(t: Trace) -> str:
    lines = [_trace_line(t)]
    _children(t, "", lines)
    sources = t.sources()
    if sources:
        lines += ["", "source columns: " + ", ".join(sources)]
    return "\n".join(lines) + "\n"


def _trace_line(t: Trace) -> str:
    c = t.column
    head = f"{t.node}.{c.column}" + (f" : {c.type}" if c.type else "") + f"  [{t.kind}]"
    if c.cxl:
        head += f"  = {c.cxl}"
    elif c.origin:
        head += f"  <- {c.origin}"
    elif c.passed_through:
        head += "  (unchanged)"
    return head


def _children(t: Trace, indent: str, lines: list[str]) -> None:
    notes = list(t.column.lets) + list(t.column.system and
                                      ["reads " + ", ".join(t.column.system)])
    for i, child in enumerate(t.inputs):
        last = i == len(t.inputs) - 1
        if i == 0:
            for note in notes:
                lines.append(f"{indent}{'│' if t.inputs else ' '}   {note}")
        lines.append(f"{indent}{'└── ' if last else '├── '}{_trace_line(child)}")
        _children(child, indent + ("    " if last else "│   "), lines)
    if not t.inputs:
        for note in notes:
            lines.append(f"{indent}    {note}")
