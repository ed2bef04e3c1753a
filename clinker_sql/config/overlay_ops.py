"""Structural `overrides:` of channel and group overlays: an ordered list of name-addressed
ops applied to the pipeline's node list before it is read, as Clinker's overlay_ops.rs.

Ops run in (layer precedence, declaration order): the groups by priority, then the
channel-wide manifest, then the per-target overlay. Each op names live nodes: a missing
target, a reference left dangling or a malformed op is `E114` at the op, never a no-op.

- `add`: a `node:` (inline) or a `composition:` (with `alias:` and `config:`), spliced
  `after: X` (X's consumers read the new node), `before: X` (the new node takes X's
  input), or fed by `input:`; an inline node without any keeps its own `input:`.
- `remove`: drop `target`, repointing consumers with `rewire: {<node>.input: <ref>}`.
- `replace`: swap `target`'s definition for `node:` (same name).
- `set`: `field: config.cxl` replaces a transform's, aggregate's or combine's CXL.
- `bypass`: drop a one-input node with one consumer, which then reads its input.
- `patch_schema`: a source's columns, keyed by name: `remove`, `{rename: new}`,
  `{add: {type: ...}}`, or a map of attributes to set.

The ops work on the located YAML nodes (config/yamlnodes.py): a node an op brings in keeps
its own file and line, so a later diagnostic points into the overlay that added it."""

from __future__ import annotations

import copy
from dataclasses import dataclass
from pathlib import Path

from clinker_sql.config.yamlnodes import YMap, YNode, YScalar, YSeq, load_yaml
from clinker_sql.diagnostics import Location, fail

# the node kinds whose one upstream is their `input:` (Clinker's primary_input)
_SINGLE_INPUT = ("transform", "aggregate", "route", "sink", "reshape", "cull", "composition")
_CXL_KINDS = ("transform", "aggregate", "combine")
_OP_KEYS = {
    "add": {"node", "composition", "alias", "config", "after", "before", "input"},
    "remove": {"target", "rewire"},
    "replace": {"target", "node"},
    "set": {"target", "field", "value"},
    "bypass": {"target"},
    "patch_schema": {"target", "schema"},
}
_COLUMN_ATTRS = {"type", "source_name", "start", "width", "end", "path", "justify", "pad",
                 "trim", "truncation", "format", "precision", "scale", "required", "default",
                 "coerce", "enum", "long_unique", "multiple", "nullable"}


@dataclass(frozen=True)
class LayeredOp:
    rank: tuple  # (layer kind, group priority, group name): the order ops apply in
    op: YMap  # the op as written in its overlay file


def apply_ops(items: list[YNode], ops: list[LayeredOp], pipeline_dir: Path) -> list[YNode]:
    """The node list with every op applied, in (layer, declaration) order."""
    nodes = list(items)
    for layered in sorted(ops, key=lambda o: o.rank):  # stable: declaration order kept
        op = layered.op
        kind = _op_kind(op)
        if kind == "add":
            _add(nodes, op, pipeline_dir)
        elif kind == "remove":
            _remove(nodes, op)
        elif kind == "replace":
            _replace(nodes, op)
        elif kind == "set":
            _set(nodes, op)
        elif kind == "bypass":
            _bypass(nodes, op)
        else:
            _patch_schema(nodes, op)
    return nodes


def _error(message: str, op: YMap) -> Exception:
    return fail("E114", message, op.loc, "overlay ops name live nodes: check the op's "
                "target and splice anchor against the pipeline and the ops before it")


def _op_kind(op: YNode) -> str:
    if not isinstance(op, YMap):
        raise fail("E114", "malformed overlay op: each `overrides:` entry must be a mapping",
                   op.loc)
    kind = op.get("op")
    if not isinstance(kind, YScalar) or kind.value not in _OP_KEYS:
        raise _error(f"malformed overlay op: unknown op {_text(kind)!r} (expected one of "
                     f"{', '.join(_OP_KEYS)})", op)
    for key in op.entries:
        if key != "op" and key not in _OP_KEYS[kind.value]:
            raise _error(f"malformed overlay op: `{key}` is not a valid field on a "
                         f"`{kind.value}` op", op)
    return kind.value


def _text(node: YNode | None) -> str | None:
    if isinstance(node, YScalar) and isinstance(node.value, (str, int, float)):
        return str(node.value)
    return None


def _required(op: YMap, key: str, kind: str) -> str:
    value = _text(op.get(key))
    if not value:
        raise _error(f"malformed overlay op: `{kind}` op requires a `{key}`", op)
    return value


def _name(node: YNode) -> str | None:
    return _text(node.get("name")) if isinstance(node, YMap) else None


def _kind(node: YNode) -> str | None:
    return _text(node.get("type")) if isinstance(node, YMap) else None


def _index(nodes: list[YNode], name: str) -> int | None:
    return next((i for i, n in enumerate(nodes) if _name(n) == name), None)


def _live(nodes: list[YNode], name: str, op: YMap, kind: str) -> int:
    i = _index(nodes, name)
    if i is None:
        raise _error(f"`{kind}` op targets node {name!r}, which does not exist", op)
    return i


def _refs(node: YNode) -> list[YScalar]:
    """The scalars of `node` that name an upstream node (its input edges)."""
    if not isinstance(node, YMap):
        return []
    out: list[YScalar] = []
    for key in ("input", "inputs"):
        value = node.get(key)
        if isinstance(value, YScalar):
            out.append(value)
        elif isinstance(value, YSeq):
            out += [v for v in value.items if isinstance(v, YScalar)]
        elif isinstance(value, YMap):
            out += [v for _, v in value.entries.values() if isinstance(v, YScalar)]
    return out


def _ref_names(node: YNode) -> list[str]:
    return [str(r.value).split(".")[0] for r in _refs(node) if r.value is not None]


def _reroute(node: YNode, old: str, new: str) -> None:
    """Every input reference to exactly `old` (not `old.port`) now names `new`."""
    for ref in _refs(node):
        if ref.value == old:
            ref.value = new


def _primary_input(node: YNode) -> YScalar | None:
    if _kind(node) in _SINGLE_INPUT:
        value = node.get("input")
        if isinstance(value, YScalar):
            return value
    return None


def _set_input(node: YMap, ref: str, loc: Location) -> bool:
    """Point a one-input node's `input:` (and a composition's port bound to its former
    input) at `ref`; False for a kind with no single input."""
    if _kind(node) not in _SINGLE_INPUT:
        return False
    old = _primary_input(node)
    if _kind(node) == "composition" and old is not None:
        ports = node.get("inputs")
        for _, value in (ports.entries.values() if isinstance(ports, YMap) else ()):
            if isinstance(value, YScalar) and value.value == old.value:
                value.value = ref
    _put(node, "input", YScalar(loc, ref))
    return True


def _put(node: YMap, key: str, value: YNode) -> None:
    key_node = node.entries[key][0] if key in node.entries else YScalar(value.loc, key)
    node.entries[key] = (key_node, value)


def _check_inputs(nodes: list[YNode], name: str, op: YMap) -> None:
    names = {_name(n) for n in nodes}
    node = nodes[_index(nodes, name)]
    for ref in _ref_names(node):
        if ref != name and ref not in names:
            raise _error(f"input of node {name!r} references undeclared node {ref!r}", op)


def _add(nodes: list[YNode], op: YMap, pipeline_dir: Path) -> None:
    anchors = [k for k in ("after", "before", "input") if k in op.entries]
    if len(anchors) > 1:
        raise _error("malformed overlay op: specify at most one of `after`, `before`, or "
                     "`input`", op)
    inline, comp = op.get("node"), op.get("composition")
    if (inline is None) == (comp is None):
        raise _error("malformed overlay op: an `add` op requires exactly one of `node` or "
                     "`composition`", op)
    if inline is not None:
        for key in ("alias", "config"):
            if key in op.entries:
                raise _error(f"malformed overlay op: `{key}` is only valid on a "
                             "`composition` add", op)
        if not isinstance(inline, YMap) or not _name(inline):
            raise _error("malformed overlay op: `node` must be a node with a `name`", op)
        new = copy.deepcopy(inline)
        name = _name(new)
    else:
        name = _required(op, "alias", "add")
        if not anchors:
            raise _error("malformed overlay op: a `composition` add requires a splice "
                         "anchor (`after`, `before`, or `input`)", op)
        new = _composition_node(op, name, pipeline_dir)
    if _index(nodes, name) is not None:
        raise _error(f"`add` op would introduce node {name!r}, which already exists", op)
    anchor = anchors[0] if anchors else None
    if anchor == "after":
        target = _required(op, "after", "add")
        at = _live(nodes, target, op, "add")
        for node in nodes:
            _reroute(node, target, name)
        if not _set_input(new, target, op.loc):
            raise _error(f"splicing an added node requires node {name!r} to have a single "
                         "input, but it does not", op)
        nodes.insert(at + 1, new)
    elif anchor == "before":
        target = _required(op, "before", "add")
        at = _live(nodes, target, op, "add")
        upstream = _primary_input(nodes[at])
        if upstream is None:
            raise _error(f"a `before` splice requires node {target!r} to have a single "
                         "input, but it does not", op)
        former = str(upstream.value)
        _set_input(nodes[at], name, op.loc)
        if not _set_input(new, former, op.loc):
            raise _error(f"splicing an added node requires node {name!r} to have a single "
                         "input, but it does not", op)
        nodes.insert(at, new)
    elif anchor == "input":
        ref = _required(op, "input", "add")
        if not _set_input(new, ref, op.loc):
            raise _error(f"splicing an added node requires node {name!r} to have a single "
                         "input, but it does not", op)
        nodes.append(new)
    else:
        nodes.append(new)
    _check_inputs(nodes, name, op)


def _composition_node(op: YMap, alias: str, pipeline_dir: Path) -> YMap:
    """A composition call, as a pipeline would write it: its one input port (read from
    the composition file) bound to the splice anchor when it declares exactly one."""
    loc = op.loc
    use = _required(op, "composition", "add")
    node = YMap(loc)
    for key, value in (("type", "composition"), ("name", alias), ("use", use)):
        _put(node, key, YScalar(loc, value))
    config = op.get("config")
    if config is not None:
        _put(node, "config", copy.deepcopy(config))
    port = _only_input_port(pipeline_dir / use)
    if port is not None:
        inputs = YMap(loc)
        _put(inputs, port, YScalar(loc, ""))  # bound by the splice (_set_input)
        _put(node, "inputs", inputs)
    _put(node, "input", YScalar(loc, ""))
    return node


def _only_input_port(path: Path) -> str | None:
    try:
        root = load_yaml(path.read_text(encoding="utf-8"), str(path))
    except Exception:  # noqa: BLE001 - the call's own load reports a bad composition
        return None
    head = root.get("_compose") if isinstance(root, YMap) else None
    ports = head.get("inputs") if isinstance(head, YMap) else None
    names = list(ports.entries) if isinstance(ports, YMap) else []
    return names[0] if len(names) == 1 else None


def _remove(nodes: list[YNode], op: YMap) -> None:
    target = _required(op, "target", "remove")
    at = _live(nodes, target, op, "remove")
    rewire = op.get("rewire")
    for key, (_, value) in (rewire.entries.items() if isinstance(rewire, YMap) else ()):
        consumer, _, field = key.partition(".")
        if not consumer or field != "input":
            raise _error(f"malformed overlay op: invalid rewire key {key!r}; expected "
                         "`<node>.input`", op)
        i = _index(nodes, consumer)
        if i is None:
            raise _error(f"rewire key {key!r} references undeclared node {consumer!r}", op)
        if not _text(value) or not _set_input(nodes[i], _text(value), value.loc):
            raise _error(f"a `rewire` entry requires node {consumer!r} to have a single "
                         "input, but it does not", op)
    del nodes[at]
    for node in nodes:
        if target in _ref_names(node):
            raise _error(f"removing node {target!r} leaves node {_name(node)!r} referencing "
                         f"it; add a `rewire` entry for {_name(node)!r}", op)


def _replace(nodes: list[YNode], op: YMap) -> None:
    target = _required(op, "target", "replace")
    at = _live(nodes, target, op, "replace")
    node = op.get("node")
    if not isinstance(node, YMap):
        raise _error("malformed overlay op: `replace` op requires a `node`", op)
    if _name(node) != target:
        raise _error(f"`replace` target {target!r} does not match the replacement node's "
                     f"own name {_name(node)!r}", op)
    nodes[at] = copy.deepcopy(node)
    _check_inputs(nodes, target, op)


def _set(nodes: list[YNode], op: YMap) -> None:
    target = _required(op, "target", "set")
    at = _live(nodes, target, op, "set")
    field = _required(op, "field", "set")
    node = nodes[at]
    config = node.get("config") if isinstance(node, YMap) else None
    if field != "config.cxl" or _kind(node) not in _CXL_KINDS or not isinstance(config, YMap):
        raise _error(f"`set` op targets field {field!r} on node {target!r}, which does not "
                     "expose it (currently only `config.cxl` is settable)", op)
    value = op.get("value")
    if not isinstance(value, YScalar) or not isinstance(value.value, str):
        raise _error(f"malformed overlay op: `set` of `config.cxl` on node {target!r} "
                     "requires a string value", op)
    _put(config, "cxl", copy.deepcopy(value))


def _bypass(nodes: list[YNode], op: YMap) -> None:
    target = _required(op, "target", "bypass")
    at = _live(nodes, target, op, "bypass")
    upstream = _primary_input(nodes[at])
    if upstream is None:
        raise _error(f"`bypass` op cannot bypass node {target!r}: it has no single upstream "
                     "input (bypass rewires a 1-in/1-out linear node)", op)
    consumers = [i for i, n in enumerate(nodes) if i != at and target in _ref_names(n)]
    if len(consumers) != 1:
        raise _error(f"`bypass` op cannot bypass node {target!r}: it feeds {len(consumers)} "
                     "consumers (bypass rewires exactly one; use `remove` with an explicit "
                     "`rewire` for a fan-out)", op)
    consumer = nodes[consumers[0]]
    if not _set_input(consumer, str(upstream.value), op.loc):
        raise _error(f"`bypass` op cannot bypass node {target!r}: its consumer "
                     f"{_name(consumer)!r} has no single input to rewire; use `remove` with "
                     "an explicit `rewire`", op)
    del nodes[at]


def _patch_schema(nodes: list[YNode], op: YMap) -> None:
    target = _required(op, "target", "patch_schema")
    at = _live(nodes, target, op, "patch_schema")
    node = nodes[at]
    if _kind(node) != "source":
        raise _error(f"`patch_schema` op targets node {target!r}, which is a {_kind(node)} "
                     "node, not a source", op)
    patches = op.get("schema")
    if not isinstance(patches, YMap) or not patches.entries:
        raise _error("malformed overlay op: `patch_schema` op requires a non-empty `schema`",
                     op)
    config = node.get("config")
    schema = config.get("schema") if isinstance(config, YMap) else None
    if not isinstance(schema, YSeq):
        raise _error(f"`patch_schema` op failed: [E237] channel schema patch on source "
                     f"'{target}': column ops apply only to a single-record (column-list) "
                     "schema, not a file schema", op)
    for column, (_, patch) in patches.entries.items():
        _column_op(schema, column, patch, target, op)


def _column_op(schema: YSeq, column: str, patch: YNode, source: str, op: YMap) -> None:
    at = next((i for i, c in enumerate(schema.items) if _name(c) == column), None)
    prefix = f"`patch_schema` op failed: channel schema patch on source '{source}': "
    if isinstance(patch, YScalar) and patch.value == "remove":
        if at is None:
            raise _error(f"{prefix}[E231] remove of unknown column '{column}'", op)
        del schema.items[at]
        return
    if not isinstance(patch, YMap) or not patch.entries:
        raise _error(f"{prefix}unknown schema op for '{column}': use `remove`, "
                     "`{ rename: <name> }`, `{ add: { type: <type> } }`, or a map of "
                     "attributes to modify", op)
    selectors = [k for k in ("rename", "add") if k in patch.entries]
    if len(selectors) > 1 or (selectors and len(patch.entries) > 1):
        raise _error(f"{prefix}the op for '{column}' mixes `rename`, `add` and attributes",
                     op)
    unknown = [k for k in patch.entries if k not in _COLUMN_ATTRS | {"rename", "add"}]
    if unknown:
        raise _error(f"{prefix}unknown column attribute `{unknown[0]}` for '{column}'", op)
    if "rename" in patch.entries:
        new = _text(patch.get("rename"))
        if at is None:
            raise _error(f"{prefix}[E231] rename of unknown column '{column}'", op)
        if new != column and any(_name(c) == new for c in schema.items):
            raise _error(f"{prefix}[E233] rename of '{column}' to '{new}' collides with an "
                         "existing column", op)
        col = schema.items[at]
        if "source_name" not in col.entries:
            _put(col, "source_name", YScalar(op.loc, column))
        _put(col, "name", YScalar(op.loc, new))
        return
    if "add" in patch.entries:
        attrs = patch.get("add")
        if at is not None:
            raise _error(f"{prefix}[E232] add of column '{column}' that already exists", op)
        if not isinstance(attrs, YMap) or "type" not in attrs.entries:
            raise _error(f"{prefix}[E236] add of column '{column}' requires a `type`", op)
        col = YMap(attrs.loc)
        _put(col, "name", YScalar(attrs.loc, column))
        for key, (_, value) in attrs.entries.items():
            _put(col, key, copy.deepcopy(value))
        schema.items.append(col)
        return
    if at is None:
        raise _error(f"{prefix}[E231] modify of unknown column '{column}'", op)
    for key, (_, value) in patch.entries.items():
        _put(schema.items[at], key, copy.deepcopy(value))
