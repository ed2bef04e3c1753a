"""Channels and groups: overlays resolved before compile into one pipeline.

A group is `<group root>/<name>.group.yaml` (`group: {name, priority, targets, match}`);
a channel is the folder `<channel root>/<id>/` holding an optional `channel.cfg.yaml`
(channel-wide) and an optional per-target overlay `<target>.channel.yaml` (or
`<target>.yaml`). Each layer may carry `config:` (`call.param: {value, fixed}`),
`resources:` (`call.slot: {value: <catalog id>}`) and `vars.static:` (the pipeline's
`vars:`, `name: {type, default, fixed}`). Precedence, lowest first, as Clinker's `resolve`: the
pipeline, then the groups by priority (ties by name), then the channel-wide manifest,
then the per-target overlay. A `fixed: true` value of a lower layer cannot be overridden
by a higher one (E103); a key naming no composition parameter is E113, one naming
several is E118. Structural `overrides:` are applied to the node list by
config/overlay_ops.py; `sources:` patches and the `vars:` scopes of transform-declared
variables are refused with CS001 when the layer applies."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from clinker_sql.config.fields import Fields, type_name
from clinker_sql.config.overlay_ops import LayeredOp
from clinker_sql.config.selector import select
from clinker_sql.config.workspace import Workspace
from clinker_sql.config.yamlnodes import YMap, YNode, YScalar, YSeq, load_yaml
from clinker_sql.diagnostics import Location, fail

GROUP, CHANNEL_WIDE, PER_TARGET = 1, 2, 3
_LAYER_NAMES = {GROUP: "group", CHANNEL_WIDE: "channel", PER_TARGET: "channel target"}
MANIFEST = "channel.cfg.yaml"


@dataclass(frozen=True)
class Candidate:
    key: str
    value: Any
    fixed: bool
    kind: int
    label: str  # the group's or channel's name
    loc: Location


@dataclass(frozen=True)
class VarCandidate:
    """A `vars.static.<name>: {type, default, fixed}` entry: the pipeline var's value."""
    name: str
    type: str
    default: Any
    fixed: bool
    label: str
    type_loc: Location
    loc: Location
    has_default: bool = True


@dataclass
class Layer:
    kind: int
    label: str
    file: str
    source: str = "explicit"  # a group: named with --group, or derived by its `match:`
    config: list[Candidate] = field(default_factory=list)
    resources: list[Candidate] = field(default_factory=list)
    vars: dict[str, VarCandidate] = field(default_factory=dict)
    priority: int = 0
    selector: tuple[str, Location] | None = None  # a group's `match:`
    targets: list[str] | None = None  # a group's `targets.pipelines`
    # what the layer holds that clinker-sql cannot apply yet: refused (CS001) only when
    # the layer applies, as a workspace may hold groups for other pipelines
    unsupported: list[tuple[str, Location]] = field(default_factory=list)
    labels: dict[str, Any] = field(default_factory=dict)  # a channel manifest's
    ops: list[YNode] = field(default_factory=list)  # `overrides:`, in declaration order

    def check_supported(self) -> None:
        if self.unsupported:
            message, loc = self.unsupported[0]
            raise fail("CS001", message, loc)


@dataclass
class Overlays:
    layers: list[Layer] = field(default_factory=list)  # ascending precedence
    channel: str | None = None

    @property
    def empty(self) -> bool:
        return not self.layers

    def summary(self) -> str:
        """Clinker's one-line `applied overlay` summary."""
        parts = [f"channel {self.channel}"] if self.channel else []
        groups = [f"{g.label} ({g.source}, priority {g.priority})" for g in self.layers
                  if g.kind == GROUP]
        parts.append(f"groups: {', '.join(groups)}" if groups else "no groups")
        return "; ".join(parts)

    def structural_ops(self) -> list[LayeredOp]:
        """Every layer's `overrides:` ops, ranked by the layer's precedence."""
        return [LayeredOp((rank, i), op) for rank, layer in enumerate(self.layers)
                for i, op in enumerate(layer.ops)]

    def var_values(self) -> dict[str, VarCandidate]:
        """The winning `vars.static` entry of each var (Clinker's merge_var_layer): a
        later layer wins, unless an earlier one fixed the var (E103)."""
        out: dict[str, VarCandidate] = {}
        fixed: set[str] = set()
        for layer in self.layers:
            for name, cand in layer.vars.items():
                if name in fixed:
                    raise fail("E103", f"overlay '{cand.label}': variable candidate "
                               f"`static.{name}` cannot override a fixed lower-precedence "
                               "value", cand.loc)
                if cand.fixed:
                    fixed.add(name)
                if cand.has_default:
                    out[name] = cand
        return out

    def config_for(self, calls: list) -> dict[tuple[str, ...], dict[str, tuple[Any, str,
                                                                                 Location]]]:
        """The winning overlay value of each (call path, param), checked against the
        expanded calls (config/composition.py's CallRecord)."""
        return self._resolve(calls, "config")

    def resources_for(self, calls: list) -> dict[tuple[str, ...], dict[str, str]]:
        won = self._resolve(calls, "resources")
        return {path: {slot: v[0] for slot, v in params.items()} for path, params in won.items()}

    def _resolve(self, calls: list, what: str) -> dict:
        out: dict[tuple[str, ...], dict[str, tuple[Any, str, Location]]] = {}
        fixed: dict[tuple[tuple[str, ...], str], int] = {}
        for layer in self.layers:
            for cand in getattr(layer, what):
                path, param = _address(cand, calls, what)
                if what == "config":
                    base = next(c.params[param][0] for c in calls if c.path == path)
                    if base is not None and not _same_type(base, cand.value):
                        raise fail("E103", f"overlay '{cand.label}': config candidate "
                                   f"'{cand.key}' has type {_json_type(cand.value)}, but the "
                                   f"declared parameter has type {_json_type(base)}", cand.loc)
                lock = fixed.get((path, param))
                if lock is not None and lock < cand.kind:
                    raise fail("E103", f"overlay '{cand.label}': {what} candidate "
                               f"'{cand.key}' cannot override a fixed lower-precedence value",
                               cand.loc)
                if cand.fixed:
                    fixed[(path, param)] = cand.kind
                out.setdefault(path, {})[param] = (
                    cand.value, f"{_LAYER_NAMES[cand.kind]} {cand.label}", cand.loc)
        return out


def _address(cand: Candidate, calls: list, what: str) -> tuple[tuple[str, ...], str]:
    parts = cand.key.split(".")
    if len(parts) < 2 or any(not p for p in parts):
        raise fail("E113", f"overlay '{cand.label}': {what} key '{cand.key}' must use "
                   "`alias.parameter`", cand.loc)
    suffix, param = tuple(parts[:-1]), parts[-1]
    found = []
    for call in calls:
        if call.path[-len(suffix):] == suffix:
            names = call.params if what == "config" else call.resources
            if param in names:
                found.append(call.path)
    if not found:
        raise fail("E113", f"overlay '{cand.label}': {what} key '{cand.key}' does not match "
                   "any composition parameter in the selected pipeline", cand.loc)
    if len(found) > 1:
        listed = ", ".join("/v1/config/calls/" + "/calls/".join(p[:-1]) + "/nodes/" + p[-1]
                           if len(p) > 1 else f"/v1/config/nodes/{p[0]}" for p in found)
        raise fail("E118", f"overlay '{cand.label}': {what} key '{cand.key}' is ambiguous; "
                   f"use one of: {listed}", cand.loc)
    return found[0], param


def _json_type(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, (int, float)):
        return "number"
    if isinstance(value, str):
        return "string"
    return "array" if isinstance(value, list) else "object"


def _same_type(a: Any, b: Any) -> bool:
    return _json_type(a) == _json_type(b)


# -- loading ------------------------------------------------------------------------
def resolve_overlays(ws: Workspace, pipeline_file: Path, channel: str | None,
                     groups: tuple[str, ...]) -> Overlays:
    """The layers that apply, in ascending precedence: with a channel, first the groups
    whose `match:` selects the channel's labels, then the groups named with --group;
    ordered by priority (ties by name), then the channel-wide manifest, then the
    per-target overlay."""
    if channel is None and not groups:
        return Overlays()
    target_ids = _target_ids(ws, pipeline_file)
    known = _scan_groups(ws)
    wide = per_target = None
    if channel is not None:
        folder = ws.root / ws.channel_root / channel
        if ws.channel_shard == "first_char":
            folder = ws.root / ws.channel_root / channel[:1] / channel
        if not folder.is_dir():
            raise fail("CS075", f"unknown channel '{channel}': no folder {folder}")
        manifest = folder / MANIFEST
        if manifest.is_file():
            wide = _load_layer(manifest, CHANNEL_WIDE, channel)
        present = [folder / f"{t}{suffix}" for t in target_ids
                   for suffix in (".channel.yaml", ".yaml")]
        present = [p for p in dict.fromkeys(present) if p.is_file() and p.name != MANIFEST]
        if len(present) > 1:
            raise fail("CS075", f"channel '{channel}' has several overlays for this pipeline: "
                       f"{', '.join(p.name for p in present)}")
        if present:
            per_target = _load_layer(present[0], PER_TARGET, channel)
    chosen: list[Layer] = []
    if channel is not None:
        labels = wide.labels if wide is not None else {}
        for name in sorted(known):
            layer = known[name]
            if layer.selector is not None and _admits(layer, target_ids) \
                    and select(layer.selector[0], labels, layer.selector[1], name):
                layer.source = "derived"
                chosen.append(layer)
    for name in groups:
        if name not in known:
            raise fail("CS074", f"unknown group '{name}'", None,
                       f"groups under {ws.root / ws.group_root}: "
                       f"{', '.join(sorted(known)) or '(none)'}")
        layer = known[name]
        if not _admits(layer, target_ids):
            raise fail("CS074", f"group '{name}' does not target pipeline "
                       f"'{target_ids[0]}'", None,
                       f"its targets.pipelines: {', '.join(layer.targets or ())}")
        if layer not in chosen:
            chosen.append(layer)
    chosen.sort(key=lambda g: (g.priority, g.label))
    layers = chosen + [x for x in (wide, per_target) if x is not None]
    for layer in layers:
        layer.check_supported()
    return Overlays(layers, channel)


def _admits(layer: Layer, target_ids: list[str]) -> bool:
    return layer.targets is None or bool(set(layer.targets) & set(target_ids))


def _target_ids(ws: Workspace, pipeline_file: Path) -> list[str]:
    ids = []
    pid = ws.pipeline_id(pipeline_file)
    if pid:
        ids.append(pid)
    stem = pipeline_file.name
    for suffix in (".pipeline.yaml", ".yaml", ".yml"):
        if stem.endswith(suffix):
            stem = stem[: -len(suffix)]
            break
    ids.append(stem)
    return list(dict.fromkeys(ids))


def _scan_groups(ws: Workspace) -> dict[str, Layer]:
    root = ws.root / ws.group_root
    out: dict[str, Layer] = {}
    if not root.is_dir():
        return out
    for path in sorted(root.rglob("*.group.yaml")):
        layer = _load_group(path)
        if layer.label in out:
            raise fail("CS074", f"two group files name the group '{layer.label}'",
                       Location(str(path), 1, 1))
        out[layer.label] = layer
    return out


def _read(path: Path) -> YNode:
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise fail("CS104", f"cannot read {path}: {exc.strerror}") from None
    except UnicodeDecodeError:
        raise fail("E000", f"{path} is not valid UTF-8", Location(str(path), 1, 1)) from None
    return load_yaml(text, str(path))


def _load_group(path: Path) -> Layer:
    f = Fields(_read(path), "a group file")
    g = Fields(f.raw("group", required=True), "group:")
    name = g.str("name", required=True)
    priority = g.int("priority", 0)
    selector = None
    if g.has("match"):
        m = g.raw("match")
        if not isinstance(m, YScalar) or not isinstance(m.value, str):
            raise fail("E000", "group.match must be a selector string", m.loc)
        selector = (m.value, m.loc)
    targets = None
    t = g.raw("targets")
    if t is not None:
        tf = Fields(t, "group.targets")
        targets, _ = tf.str_list("pipelines")
        tf.raw("compositions")
        tf.done()
    g.done()
    layer = Layer(GROUP, name, str(path), priority=priority, selector=selector,
                  targets=targets)
    _layer_body(f, layer)
    return layer


def _load_layer(path: Path, kind: int, channel: str) -> Layer:
    f = Fields(_read(path), "a channel file")
    h = Fields(f.raw("channel", required=True), "channel:")
    if kind == CHANNEL_WIDE:
        h.str("name")
        h.raw("targets")
        labels = f.raw("labels")
    else:
        h.str("target", required=True)
    h.done()
    layer = Layer(kind, channel, str(path))
    if kind == CHANNEL_WIDE and labels is not None:
        if not isinstance(labels, YMap):
            raise fail("E000", "labels: must be a mapping", labels.loc)
        layer.labels = {k: v.value for k, (_, v) in labels.entries.items()
                        if isinstance(v, YScalar)}
    _layer_body(f, layer)
    return layer


def _layer_body(f: Fields, layer: Layer) -> None:
    layer.config = _candidates(f.raw("config"), layer, "config")
    layer.resources = _candidates(f.raw("resources"), layer, "resources")
    v = f.raw("vars")
    if v is not None:
        vf = Fields(v, "vars:")
        for scope in ("pipeline", "source", "record"):
            if vf.has(scope):
                node = vf.raw(scope)
                if isinstance(node, YMap) and node.entries:
                    layer.unsupported.append((
                        f"overlay vars.{scope} (the `${scope}.*` variables a transform "
                        "declares) is not supported yet; only vars.static, the pipeline's "
                        "`vars:`", vf.key_loc(scope)))
        static = vf.raw("static")
        if static is not None:
            if not isinstance(static, YMap):
                raise fail("E000", "vars.static must be a mapping", static.loc)
            for name, (key, value) in static.entries.items():
                e = Fields(value, f"vars.static.{name}")
                vtype = e.choice("type", ("string", "int", "float", "bool", "date",
                                          "datetime"), required=True)
                d = e.raw("default")
                fixed = e.bool("fixed", False)
                e.done()
                layer.vars[name] = VarCandidate(
                    name, vtype, d.value if isinstance(d, YScalar) else None, fixed,
                    layer.label, e.key_loc("type"), d.loc if d is not None else key.loc,
                    d is not None)
        vf.done()
    overrides = f.raw("overrides")
    if isinstance(overrides, YSeq):
        layer.ops = list(overrides.items)
    elif overrides is not None and not (isinstance(overrides, YScalar)
                                        and overrides.value is None):
        raise fail("E114", "malformed overlay op: `overrides:` must be a list of ops",
                   overrides.loc)
    if f.has("sources"):
        node = f.raw("sources")
        if not (isinstance(node, YScalar) and node.value is None) and not (
                isinstance(node, YSeq) and not node.items) and not (
                isinstance(node, YMap) and not node.entries):
            layer.unsupported.append(("overlay `sources:` is not supported yet",
                                      f.key_loc("sources")))
    f.raw("_notes")
    f.done()


def _candidates(node: YNode | None, layer: Layer, what: str) -> list[Candidate]:
    if node is None:
        return []
    if not isinstance(node, YMap):
        raise fail("E000", f"{what}: must be a mapping, found {type_name(node)}", node.loc)
    out = []
    for key, (k, value) in node.entries.items():
        c = Fields(value, f"{what}.{key}")
        v = c.raw("value", required=True)
        fixed = c.bool("fixed", False)
        c.done()
        out.append(Candidate(key, _plain(v), fixed, layer.kind, layer.label, v.loc))
    return out


def _plain(node: YNode) -> Any:
    from clinker_sql.config.composition import _plain as plain

    return plain(node)
