"""Compositions, expanded before the model is built: every `type: composition` call is
replaced by its `.comp.yaml` body's nodes, wired to the call's `inputs:` and read through
its `_compose.outputs`, so the compiler only ever sees ordinary nodes.

Clinker binds a body as an isolated sub-graph whose input ports are open rows (the
caller's columns pass through) and whose first output port is the call's output; inlining
the body's nodes over the bound upstream computes the same rows. Each `$config.<param>`
in the body is folded per call site to the winning value (overlay `config:` > the call's
`config:` > the declared default > null), as Clinker's `populate_body_config` and
`config_value_to_literal` do, so two calls of one composition compile to two bodies.

Names: a body node keeps its own name when no other node of the expanded pipeline has
it, since that is the name Clinker's DLQ entries and messages carry (`transform:<name>`);
otherwise it is named by its call path, `call/node` (`outer/inner/node` when nested),
which no authored name can contain a `.` of and every diagnostic still points into the
`.comp.yaml` file it came from."""

from __future__ import annotations

import copy
import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from clinker_sql.config import model as m
from clinker_sql.config.fields import Fields, type_name
from clinker_sql.config.workspace import Workspace
from clinker_sql.config.yamlnodes import YMap, YNode, YScalar, YSeq, load_yaml
from clinker_sql.diagnostics import DiagnosticError, Location, fail

MAX_DEPTH = 50  # Clinker's MAX_COMPOSITION_DEPTH (E107 beyond it)
MAX_SCAN_DEPTH = 16  # its workspace walk
MAX_SCAN_FILES = 50  # its per-workspace composition budget
PARAM_TYPES = ("string", "int", "float", "bool", "path")
_CALL_KEYS = ("type", "name", "description", "input", "use", "inputs", "config",
              "resources", "_notes")


@dataclass
class Signature:
    name: str
    file: str
    inputs: dict[str, tuple[bool, Location]]  # port -> (required, where)
    input_schemas: dict[str, YNode | None]
    outputs: dict[str, tuple[str, Location]]  # port -> (body ref, where)
    params: dict[str, tuple[str, Any, bool, Location]]  # name -> (type, default, required, loc)
    resources: dict[str, tuple[bool, Location]]
    nodes: list[YNode]


@dataclass
class _Scope:
    path: tuple[str, ...]
    file: str
    ports: dict[str, tuple[tuple[str, ...], str, Location]] = field(default_factory=dict)
    calls: dict[str, tuple[dict[str, tuple[str, Location]], "_Scope"]] = field(
        default_factory=dict)
    nodes: set[str] = field(default_factory=set)


@dataclass
class CallRecord:
    """One expanded call, for provenance (`explain --field`)."""
    path: tuple[str, ...]
    use: str
    file: str
    params: dict[str, tuple[Any, str, Location]]  # name -> (value, layer, where)
    resources: tuple[str, ...] = ()  # the declared slots


class Expander:
    def __init__(self, workspace: Workspace, pipeline_file: Path,
                 overrides: dict[tuple[str, ...], dict[str, tuple[Any, str, Location]]]
                 | None = None, resources: dict[tuple[str, ...], dict[str, str]] | None = None):
        self.ws = workspace
        self.pipeline_file = pipeline_file
        self.overrides = overrides or {}
        self.resource_overrides = resources or {}
        self.calls: list[CallRecord] = []
        self.used_overrides: set[tuple[tuple[str, ...], str]] = set()
        self._flat: list[tuple[YMap, _Scope]] = []
        self._cache: dict[Path, Signature] = {}
        self._known: dict[Path, Path] | None = None
        self.texts: dict[str, str] = {}  # body file -> text, for CXL positions
        self.port_bindings: list[m.PortBinding] = []
        self._schemas: dict[tuple[str, ...], dict[str, YNode | None]] = {}

    # -- the pass -------------------------------------------------------------------
    def expand(self, items: list[YNode]) -> list[YNode]:
        if not any(_kind(i) == "composition" for i in items):
            return items
        top = _Scope((), str(self.pipeline_file))
        self._walk(items, top, self.pipeline_file.parent, (), 0)
        names = self._final_names()
        out = []
        for node, scope in self._flat:
            out.append(self._rewire(node, scope, names))
        self._bind_ports(top, names)
        return out

    def _bind_ports(self, scope: _Scope, names: dict) -> None:
        """Each bound input port, with the node it reads named as after expansion."""
        for call, (_, body) in scope.calls.items():
            sig_schemas = self._schemas.get(body.path, {})
            for port, (parent_path, ref, where) in body.ports.items():
                parent = self._scope_of(parent_path)
                head = ref.partition(".")[0]
                if not ref or (head in parent.ports and head not in parent.nodes):
                    continue  # a port passed on: Clinker sees its open row, never E102
                upstream = self._resolve_ref(ref, parent, names, where, 0)
                self.port_bindings.append(m.PortBinding(
                    "/".join(body.path), port, upstream,
                    _columns(sig_schemas.get(port)), where))
            self._bind_ports(body, names)

    def _walk(self, items: list[YNode], scope: _Scope, origin: Path,
              stack: tuple[Path, ...], depth: int) -> None:
        for item in items:
            if not isinstance(item, YMap):
                self._flat.append((item, scope))  # the model builder reports the shape
                continue
            name_node = item.get("name")
            name = name_node.value if isinstance(name_node, YScalar) else None
            if _kind(item) != "composition" or not isinstance(name, str):
                if isinstance(name, str):
                    scope.nodes.add(name)
                self._flat.append((item, scope))
                continue
            self._call(item, name, scope, origin, stack, depth)

    def _call(self, item: YMap, name: str, scope: _Scope, origin: Path,
              stack: tuple[Path, ...], depth: int) -> None:
        f = Fields(item, f"composition node '{name}'")
        for key in ("outputs", "alias"):
            if f.has(key):
                raise fail("E377", f"composition node '{name}': a call has no `{key}:`",
                           f.key_loc(key), "declare ports under `_compose.outputs` and read "
                           "them downstream as `node.port`; the call's name is its namespace")
        use_node = f.raw("use", required=True)
        if not isinstance(use_node, YScalar) or not isinstance(use_node.value, str):
            raise fail("E000", f"'use' of composition node '{name}' must be a path string",
                       use_node.loc)
        loc = item.loc
        path = self._resolve(use_node.value, origin)
        if path is None:
            raise fail("E103", f"composition node '{name}': `use: {use_node.value}` does not "
                       "match any .comp.yaml in the workspace", use_node.loc,
                       "the path is resolved from the pipeline's folder, then among the "
                       ".comp.yaml files under the workspace root, then by file name")
        if path in stack:
            chain = " -> ".join(str(p) for p in stack + (path,))
            raise fail("E107", f"cycle in composition `use:` graph: {chain}", use_node.loc)
        if depth >= MAX_DEPTH:
            raise fail("E107", f"composition nesting too deep (>{MAX_DEPTH}) at node "
                       f"'{name}'", loc)
        sig = self._signature(path, name, loc)
        call_path = scope.path + (name,)
        inputs = _str_map(f.raw("inputs"), f"inputs of composition node '{name}'")
        f.raw("input")  # required by Clinker's node shape; `inputs:` is the wiring
        config = _value_map(f.raw("config"), f"config of composition node '{name}'")
        resources = _str_map(f.raw("resources"), f"resources of composition node '{name}'")
        f.str("description")
        f.raw("_notes")
        f.raw("type")
        f.raw("name")
        f.done()
        for port, (required, _) in sig.inputs.items():
            if required and port not in inputs:
                raise fail("E104", f"composition node '{name}': missing required input port "
                           f"'{port}'", loc)
        for port, (_, where) in inputs.items():
            if port not in sig.inputs:
                raise fail("E103", f"composition node '{name}': input port '{port}' is not "
                           "declared in the composition signature", where,
                           f"declared ports: {', '.join(sig.inputs) or '(none)'}")
        layered = self.overrides.get(call_path, {})
        for param, (ptype, default, required, _) in sig.params.items():
            if required and default is None and param not in config and param not in layered:
                raise fail("E104", f"composition node '{name}': missing required config "
                           f"param '{param}'", loc)
        for param, (_, where) in config.items():
            if param not in sig.params:
                raise fail("E103", f"composition node '{name}': config param '{param}' is "
                           "not declared in the composition signature", where,
                           f"declared params: {', '.join(sig.params) or '(none)'}")
        resources = {**resources, **{k: (v, loc) for k, v in
                                     self.resource_overrides.get(call_path, {}).items()}}
        self._check_resources(name, sig, resources, loc)
        values: dict[str, tuple[Any, str, Location]] = {}
        for param, (ptype, default, _, ploc) in sig.params.items():
            if param in layered:
                values[param] = layered[param]
                self.used_overrides.add((call_path, param))
            elif param in config:
                values[param] = (config[param][0], "pipeline", config[param][1])
            else:
                values[param] = (default, "default", ploc)
        self.calls.append(CallRecord(call_path, use_node.value, str(path), values,
                                     tuple(sig.resources)))
        body = _Scope(call_path, sig.file)
        self._schemas[call_path] = sig.input_schemas
        for port, (ref, where) in inputs.items():
            body.ports[port] = (scope.path, ref, where)
        for port in sig.inputs:
            if port not in body.ports:  # an optional port left unbound reads nothing
                body.ports[port] = (scope.path, "", loc)
        scope.calls[name] = (sig.outputs, body)
        scope.nodes.add(name)
        folded = {p: _literal(v, sig.params[p][0]) for p, (v, _, _) in values.items()}
        nodes = []
        for node in sig.nodes:
            node = copy.deepcopy(node)
            _fold_config(node, folded, sig.file)
            self._bind_resources(node, sig, resources, name)
            nodes.append(node)
        if not nodes:
            raise fail("E111", f"composition node '{name}': body file {sig.file} has zero "
                       "nodes", loc)
        self._walk(nodes, body, path.parent, stack + (path,), depth + 1)
        for port, (ref, where) in sig.outputs.items():
            target = ref.split(".")[0]
            if target not in body.nodes:
                raise fail("E102", f"composition '{sig.name}': output port '{port}' names "
                           f"'{ref}', which is not a node of its body", where)

    # -- use: resolution ------------------------------------------------------------
    def _resolve(self, use: str, origin: Path) -> Path | None:
        """Clinker's resolve_use_path: the call's folder, the path as written from the
        workspace root, then the first .comp.yaml of the workspace with that file name;
        catalog ids of `[catalog.compositions]` are accepted too."""
        if use in self.ws.compositions:
            candidate = self.ws.root / self.ws.compositions[use]
            return candidate.resolve() if candidate.is_file() else None
        for candidate in (origin / use, self.ws.root / use):
            if candidate.is_file():
                return candidate.resolve()
        wanted = Path(use).name
        for found in sorted(self._scan()):
            if found.name == wanted:
                return found
        return None

    def _scan(self) -> list[Path]:
        out: list[Path] = []
        root = self.ws.root
        for dirpath, dirnames, filenames in os.walk(root, followlinks=False):
            rel_depth = len(Path(dirpath).relative_to(root).parts)
            if rel_depth >= MAX_SCAN_DEPTH:
                dirnames[:] = []
            dirnames[:] = sorted(d for d in dirnames if not d.startswith("."))
            for fn in sorted(filenames):
                if fn.endswith(".comp.yaml"):
                    out.append((Path(dirpath) / fn).resolve())
                    if len(out) >= MAX_SCAN_FILES:
                        return out
        return out

    # -- the signature --------------------------------------------------------------
    def _signature(self, path: Path, call: str, loc: Location) -> Signature:
        """The parsed file; a malformed one is E101, as Clinker's body parse failure."""
        if path in self._cache:
            return self._cache[path]
        try:
            sig = self._parse_signature(path, call, loc)
        except DiagnosticError as exc:
            d = exc.diagnostics[0]
            if d.code != "E000":
                raise
            raise fail("E101", f"composition node '{call}': body parse failed for {path}: "
                       f"{d.message}", d.location, d.hint) from None
        self._cache[path] = sig
        return sig

    def _parse_signature(self, path: Path, call: str, loc: Location) -> Signature:
        file = str(path)
        try:
            text = path.read_text(encoding="utf-8")
        except OSError as exc:
            raise fail("E103", f"composition node '{call}': failed to read body from {file}: "
                       f"{exc.strerror}", loc) from None
        except UnicodeDecodeError:
            raise fail("E101", f"composition node '{call}': body parse failed for {file}: "
                       "body is not UTF-8", loc) from None
        self.texts[file] = text
        root = Fields(load_yaml(text, file), "a .comp.yaml file")
        comp = Fields(root.raw("_compose", required=True), "_compose:")
        name = comp.str("name", required=True)
        inputs: dict[str, tuple[bool, Location]] = {}
        schemas: dict[str, YNode | None] = {}
        for port, key, value in _entries(comp.raw("inputs"), "_compose.inputs"):
            p = Fields(value, f"_compose.inputs.{port}")
            schemas[port] = p.raw("schema")
            p.str("description")
            inputs[port] = (p.bool("required", False), key.loc)
            p.done()
        outputs: dict[str, tuple[str, Location]] = {}
        for port, key, value in _entries(comp.raw("outputs"), "_compose.outputs"):
            if isinstance(value, YMap):
                o = Fields(value, f"_compose.outputs.{port}")
                ref = o.raw("ref", required=True)
                o.str("description")
                o.done()
                value = ref
            if not isinstance(value, YScalar) or not isinstance(value.value, str):
                raise fail("E101", f"_compose.outputs.{port} must name a body node",
                           value.loc)
            outputs[port] = (value.value, value.loc)
        params: dict[str, tuple[str, Any, bool, Location]] = {}
        for pname, key, value in _entries(comp.raw("config_schema"), "_compose.config_schema"):
            p = Fields(value, f"_compose.config_schema.{pname}")
            ptype = p.choice("type", PARAM_TYPES, required=True)
            default = p.raw("default")
            p.raw("enum")
            p.raw("range")
            p.str("description")
            params[pname] = (ptype, _plain(default), p.bool("required", False), key.loc)
            p.done()
        resources: dict[str, tuple[bool, Location]] = {}
        for rname, key, value in _entries(comp.raw("resources_schema"),
                                          "_compose.resources_schema"):
            r = Fields(value, f"_compose.resources_schema.{rname}")
            r.choice("kind", ("file",), required=True)
            r.str("description")
            resources[rname] = (r.bool("required", False), key.loc)
            r.done()
        scoped = comp.raw("scoped_vars")
        if scoped is not None:
            s = Fields(scoped, "_compose.scoped_vars")
            for scope_name in ("pipeline", "source", "record"):
                s.raw(scope_name)
            s.done()
        comp.done()
        nodes_node = root.raw("nodes")
        root.raw("_notes")
        root.done()
        if nodes_node is not None and not isinstance(nodes_node, YSeq):
            raise fail("E101", f"nodes: of {file} must be a list, found "
                       f"{type_name(nodes_node)}", nodes_node.loc)
        nodes = list(nodes_node.items) if isinstance(nodes_node, YSeq) else []
        for node in nodes:
            if not isinstance(node, YMap) or not isinstance(_name(node), str):
                raise fail("E101", f"nodes: of {file} must hold node mappings, each with a "
                           "`name`", node.loc)
        return Signature(name, file, inputs, schemas, outputs, params, resources, nodes)

    def _check_resources(self, call: str, sig: Signature,
                         bound: dict[str, tuple[str, Location]], loc: Location) -> None:
        for slot, (required, _) in sig.resources.items():
            if required and slot not in bound:
                raise fail("E103", f"composition node '{call}': required resource slot "
                           f"'{slot}' has no catalog binding", loc,
                           f"add `resources: {{ {slot}: <catalog-resource-id> }}` to this "
                           "composition call")
        for slot, (rid, where) in bound.items():
            if slot not in sig.resources:
                raise fail("E103", f"composition node '{call}': resource slot '{slot}' is "
                           "not declared in `_compose.resources_schema`", where)
            if rid not in self.ws.resources:
                raise fail("E103", f"composition node '{call}': resource slot '{slot}' "
                           f"cannot bind `{rid}`: no such catalog resource", where,
                           f"add `[catalog.resources.{rid}]` to clinker.toml")

    def _bind_resources(self, node: YNode, sig: Signature,
                        bound: dict[str, tuple[str, Location]], call: str) -> None:
        """A body source reads the file its `resource:` slot is bound to."""
        if _kind(node) != "source" or not isinstance(node, YMap):
            return
        cfg = node.get("config")
        if not isinstance(cfg, YMap):
            return
        slot_node = cfg.entries.get("resource")
        src = cfg.get("name")
        sname = src.value if isinstance(src, YScalar) else "?"
        if slot_node is None:
            raise fail("E103", f"composition node '{call}': body file {sig.file}: source "
                       f"'{sname}' declares no resource slot", node.loc,
                       "add `resource: <slot>` and bind the slot at the call, or read the "
                       "caller's rows through a declared `_compose.inputs` port")
        key, value = slot_node
        slot = value.value if isinstance(value, YScalar) else None
        for matcher in ("path", "glob", "regex", "paths"):
            if matcher in cfg.entries:
                raise fail("E103", f"composition node '{call}': body source '{sname}' "
                           f"declares `resource: {slot}` together with `{matcher}`",
                           value.loc, f"remove `{matcher}`")
        if slot not in sig.resources:
            raise fail("E103", f"composition node '{call}': body source '{sname}' names "
                       f"resource slot '{slot}', which `_compose.resources_schema` does not "
                       "declare", value.loc)
        if slot not in bound:
            raise fail("E103", f"composition node '{call}': body source '{sname}' uses "
                       f"resource slot '{slot}', but this call does not bind it", value.loc)
        res = self.ws.resources[bound[slot][0]]
        target = self.ws.root / res.path
        try:
            shown = os.path.relpath(target, Path.cwd())
        except ValueError:
            shown = str(target)
        del cfg.entries["resource"]
        cfg.entries["path"] = (YScalar(key.loc, "path"), YScalar(value.loc, shown))

    # -- names and wiring -----------------------------------------------------------
    def _final_names(self) -> dict[tuple[tuple[str, ...], str], str]:
        count: dict[str, int] = {}
        for node, scope in self._flat:
            n = _name(node)
            if n is not None:
                count[n] = count.get(n, 0) + 1
        names = {}
        taken = set()
        for node, scope in self._flat:
            n = _name(node)
            if n is None:
                continue
            if not scope.path or count[n] == 1:
                final = n
            else:
                final = "/".join(scope.path + (n,))
            if final in taken and scope.path:  # duplicates among authored names: E001
                raise fail("E106", f"node name '{final}' collides after composition "
                           "expansion", node.loc, "rename one of the nodes")
            taken.add(final)
            names[(scope.path, n)] = final
        return names

    def _rewire(self, node: YNode, scope: _Scope,
                names: dict[tuple[tuple[str, ...], str], str]) -> YNode:
        if not isinstance(node, YMap):
            return node
        renamed = names.get((scope.path, _name(node) or ""))
        if renamed is not None and renamed != _name(node):
            k, v = node.entries["name"]
            node.entries["name"] = (k, YScalar(v.loc, renamed, None, getattr(v, "raw_line", 0)))
        for key in ("input", "inputs"):
            entry = node.entries.get(key)
            if entry is None:
                continue
            k, v = entry
            if isinstance(v, YScalar):
                node.entries[key] = (k, self._ref(v, scope, names))
            elif isinstance(v, YSeq):
                v.items = [self._ref(i, scope, names) for i in v.items]
            elif isinstance(v, YMap):
                for q, (qk, qv) in list(v.entries.items()):
                    v.entries[q] = (qk, self._ref(qv, scope, names))
        return node

    def _ref(self, node: YNode, scope: _Scope,
             names: dict[tuple[tuple[str, ...], str], str]) -> YNode:
        if not isinstance(node, YScalar) or not isinstance(node.value, str):
            return node
        text = self._resolve_ref(node.value, scope, names, node.loc, 0)
        if text == node.value:
            return node
        return YScalar(node.loc, text, None, node.raw_line)

    def _resolve_ref(self, text: str, scope: _Scope,
                     names: dict[tuple[tuple[str, ...], str], str], loc: Location,
                     depth: int) -> str:
        head, _, port = text.partition(".")
        if head in scope.ports and head not in scope.nodes:
            parent_path, bound, where = scope.ports[head]
            if not bound:
                raise fail("E102", f"body node reads input port '{head}', which this call "
                           "does not bind", loc)
            parent = self._scope_of(parent_path)
            resolved = self._resolve_ref(bound, parent, names, where, depth + 1)
            return resolved + ("." + port if port else "")
        if head in scope.calls:
            outputs, body = scope.calls[head]
            if port:
                if port not in outputs:
                    raise fail("E102", f"composition '{head}' has no output port '{port}'",
                               loc, f"its ports: {', '.join(outputs) or '(none)'}")
                inner = outputs[port][0]
            elif outputs:
                inner = next(iter(outputs.values()))[0]
            else:
                raise fail("E102", f"composition '{head}' declares no output port to read",
                           loc)
            return self._resolve_ref(inner, body, names, loc, depth + 1)
        final = names.get((scope.path, head))
        if final is None:
            if scope.path:
                enclosing = self._scope_of(scope.path[:-1])
                if head in enclosing.nodes or head in enclosing.ports:
                    raise fail("E108", f"a body node of '{'/'.join(scope.path)}' references "
                               f"'{head}' from the enclosing scope; composition bodies are "
                               "isolated from the parent pipeline", loc,
                               "read the caller's rows through a declared input port")
                raise fail("E102", f"a body node of '{'/'.join(scope.path)}' references "
                           f"'{head}', which is neither a node of its body nor a declared "
                           "input port", loc)
            return text  # the checks report an unknown node as they always do
        return final + ("." + port if port else "")

    def _scope_of(self, path: tuple[str, ...]) -> _Scope:
        for _, scope in self._flat:
            if scope.path == path:
                return scope
        found = self._find_scope(path)
        if found is None:
            raise AssertionError(f"no scope {path}")
        return found

    def _find_scope(self, path: tuple[str, ...]) -> _Scope | None:
        # scopes with no plain node (a body of only calls) are reached through their parent
        for _, scope in self._flat:
            stack = [scope]
            while stack:
                s = stack.pop()
                if s.path == path:
                    return s
                stack.extend(b for _, b in s.calls.values())
        return None


# -- $config folding ------------------------------------------------------------------
_CONFIG = re.compile(r"\$config\s*\.\s*([A-Za-z_][A-Za-z0-9_]*)")


def _fold_config(node: YNode, values: dict[str, str], file: str) -> None:
    """Every `$config.<param>` of the node's strings becomes its literal, outside CXL
    string literals and comments."""
    if isinstance(node, YMap):
        for key, (k, v) in list(node.entries.items()):
            if isinstance(v, YScalar) and isinstance(v.value, str) and "$config" in v.value:
                v.value = fold_text(v.value, values, v.loc)
            else:
                _fold_config(v, values, file)
    elif isinstance(node, YSeq):
        for item in node.items:
            if isinstance(item, YScalar) and isinstance(item.value, str) \
                    and "$config" in item.value:
                item.value = fold_text(item.value, values, item.loc)
            else:
                _fold_config(item, values, file)


def fold_text(text: str, values: dict[str, str], loc: Location) -> str:
    out: list[str] = []
    i, n = 0, len(text)
    while i < n:
        ch = text[i]
        if ch in "\"'":
            j = i + 1
            while j < n and text[j] != ch and text[j] not in "\r\n":
                j += 2 if text[j] == "\\" else 1
            out.append(text[i:j + 1])
            i = j + 1
            continue
        if ch == "#":
            if i + 1 < n and text[i + 1].isdigit():  # a date literal #2024-01-31#
                j = text.find("#", i + 1)
                j = n - 1 if j < 0 else j
            else:
                j = i
                while j < n and text[j] not in "\r\n":
                    j += 1
                j -= 1
            out.append(text[i:j + 1])
            i = j + 1
            continue
        m = _CONFIG.match(text, i) if ch == "$" else None
        if m:
            param = m.group(1)
            if param not in values:
                raise fail("E203", f"unknown config parameter '$config.{param}'", loc,
                           "declare it in the composition's `_compose.config_schema`; "
                           "`$config.*` is only available inside a composition body")
            out.append(values[param])
            i = m.end()
            continue
        out.append(ch)
        i += 1
    return "".join(out)


def _literal(value: Any, ptype: str) -> str:
    """Clinker's config_value_to_literal, written as CXL: a value of another shape than
    the declared type folds to null."""
    if value is None:
        return "null"
    if ptype == "int":
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            return "null"
        v = int(value)
        return f"({v})" if v < 0 else str(v)
    if ptype == "float":
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            return "null"
        text = repr(float(value))
        if "e" in text or "inf" in text or "nan" in text:
            text = f"{float(value):.17f}".rstrip("0")
            text = text + "0" if text.endswith(".") else text
        return f"({text})" if value < 0 else text
    if ptype == "bool":
        return ("true" if value else "false") if isinstance(value, bool) else "null"
    if not isinstance(value, str):
        return "null"
    escaped = (value.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")
               .replace("\r", "\\r").replace("\t", "\\t"))
    return f'"{escaped}"'


# -- small helpers ---------------------------------------------------------------------
def _columns(schema: YNode | None) -> tuple[tuple[str, str], ...]:
    """A port's declared columns as (name, type); a type given in another form (a
    nullable mapping, say) is read as `any`, which the E102 check does not compare."""
    if not isinstance(schema, YSeq):
        return ()
    out = []
    for item in schema.items:
        if not isinstance(item, YMap):
            continue
        name, ctype = item.get("name"), item.get("type")
        if isinstance(name, YScalar) and isinstance(name.value, str):
            t = ctype.value if isinstance(ctype, YScalar) and isinstance(ctype.value, str) \
                else "any"
            out.append((name.value, t))
    return tuple(out)



def _kind(node: YNode) -> str | None:
    if isinstance(node, YMap):
        k = node.get("type")
        return k.value if isinstance(k, YScalar) else None
    return None


def _name(node: YNode) -> str | None:
    if isinstance(node, YMap):
        k = node.get("name")
        return k.value if isinstance(k, YScalar) and isinstance(k.value, str) else None
    return None


def _entries(node: YNode | None, what: str):
    if node is None or (isinstance(node, YScalar) and node.value is None):
        return []
    if not isinstance(node, YMap):
        raise fail("E101", f"{what} must be a mapping, found {type_name(node)}", node.loc)
    return [(name, key, value) for name, (key, value) in node.entries.items()]


def _str_map(node: YNode | None, what: str) -> dict[str, tuple[str, Location]]:
    out = {}
    for name, key, value in _entries(node, what):
        if not isinstance(value, YScalar) or not isinstance(value.value, str):
            raise fail("E000", f"{what}.{name} must be a string", value.loc)
        out[name] = (value.value, value.loc)
    return out


def _value_map(node: YNode | None, what: str) -> dict[str, tuple[Any, Location]]:
    return {name: (_plain(value), value.loc) for name, key, value in _entries(node, what)}


def _plain(node: YNode | None) -> Any:
    if node is None:
        return None
    if isinstance(node, YScalar):
        return node.value
    if isinstance(node, YSeq):
        return [_plain(i) for i in node.items]
    if isinstance(node, YMap):
        return {k: _plain(v) for k, (_, v) in node.entries.items()}
    return None
