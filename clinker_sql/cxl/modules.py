"""CXL modules: `use a.b [as x]` admits `<rules root>/a/b.cxl` (and what it imports), and
the program's `x.member` / `x.fn(args)` are replaced by what they stand for.

As in Clinker (crates/clinker-plan/src/resources, cxl/src/module_eval.rs):
- the rules root is `--rules-path`, else `pipeline.rules_path`, else clinker.toml's
  `[catalog] rules_root`, else `rules/`, each relative to the workspace, which it may not
  leave; a `[catalog.rules]` entry maps one identity to its own file;
- a module holds `use` imports, `let` constants and one-expression `fn`s; a declaration
  reads only its parameters, its module's constants, `local_fn.call(args)` and the members
  of its own direct imports (a dependency is never re-exported);
- import cycles, declaration cycles (recursion included) and closures over Clinker's
  limits are refused before anything runs;
- a call is inlined: the function's body with each parameter replaced by the argument's
  expression (Clinker's RuntimeModuleRegistry::expand_function_inline substitutes the
  expression, so a pure body reads the same values however often it names a parameter),
  and a constant is replaced by its expression. Lowering never sees a module.

Mistakes in the pipeline's own CXL are reported there (E203 for a member that does not
exist, E200 for a wrong argument count, as Clinker's resolver and type checker); mistakes
inside a module file are reported at the line of that file (CS130-CS133).
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from pathlib import Path
from typing import Any

from clinker_sql.config.rules_catalog import MODULE_CODE, RulesCatalog, read_rules_catalog
from clinker_sql.cxl import ast as a
from clinker_sql.cxl.errors import CxlError
from clinker_sql.cxl.parser import parse_module
from clinker_sql.diagnostics import Location, fail

INVALID_CODE = "CS131"  # a module file that is not a valid module
CYCLE_CODE = "CS132"  # an import cycle, or a declaration that depends on itself
LIMIT_CODE = "CS133"  # the closure is over one of Clinker's bounds

# Clinker's ModuleLimits::default()
MAX_MODULE_BYTES = 1_048_576
MAX_MODULES = 64
MAX_IMPORT_DEPTH = 32
MAX_CLOSURE_BYTES = 16 * 1_048_576
DEFAULT_RULES_ROOT = "rules"


@dataclass(frozen=True)
class RulesSetting:
    """Where modules are looked for: the workspace and the explicit rules root, if any
    (`--rules-path`, else `pipeline.rules_path`)."""

    workspace: Path
    rules_path: str | None = None


@dataclass(frozen=True)
class Module:
    id: str
    file: str
    imports: dict[str, str]  # alias -> module identity
    constants: dict[str, a.Let]
    functions: dict[str, a.FnDecl]


def _at(module: Module, node: a.Stmt | a.Expr) -> Location:
    if isinstance(node, a.MethodCall):  # the call starts at its receiver
        node = node.receiver
    return Location(module.file, node.pos.line, node.pos.col)


def _shown(path: Path) -> str:
    """A module file as diagnostics name it: relative to the working folder when inside
    it, as the pipeline file is named."""
    try:
        return str(path.relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(path)


def _valid_identity(parts: tuple[str, ...]) -> bool:
    return all(p and all(c.isascii() and (c.isalnum() or c in "_-") for c in p)
               for p in parts)


class Modules:
    """The modules one compile admits, loaded on first use and kept for the compile;
    called with a parsed program, returns it with its module references resolved."""

    def __init__(self, setting: RulesSetting):
        self.setting = setting
        self.modules: dict[str, Module] = {}
        self._catalog: RulesCatalog | None = None
        self._root: Path | None = None
        self._bytes = 0
        self._resolved: dict[int, tuple[a.Program, a.Program]] = {}

    # ---- resolving a program ---------------------------------------------------------------
    def __call__(self, program: a.Program) -> a.Program:
        done = self._resolved.get(id(program))
        if done is not None and done[0] is program:
            return done[1]
        aliases: dict[str, str] = {}
        for stmt in program.statements:
            if isinstance(stmt, a.Use):
                identity = ".".join(stmt.path)
                self._admit(identity, stmt)
                aliases[stmt.alias or stmt.path[-1]] = identity  # a later `use` rebinds
        out = a.Program(tuple(_Program(self, aliases).stmt(s) for s in program.statements
                              if not isinstance(s, a.Use)))
        self._resolved[id(program)] = (program, out)
        return out

    # ---- admission -------------------------------------------------------------------------
    def _admit(self, identity: str, use: a.Use) -> None:
        """Load the module a program imports, and its closure; a module that cannot be
        found is reported at the program's `use`."""
        if identity in self.modules:
            return
        if not _valid_identity(use.path):
            raise CxlError(MODULE_CODE, f"invalid logical resource identity `{identity}`; use "
                           "dot-separated names such as `shared.dates`",
                           use.pos.line, use.pos.col)
        try:
            path = self._path(identity)
        except _Missing as exc:
            raise CxlError(MODULE_CODE, str(exc), use.pos.line, use.pos.col,
                           "create the module file, or choose the rules root with "
                           "--rules-path, pipeline.rules_path or clinker.toml's "
                           "[catalog] rules_root") from None
        loaded: list[Module] = []
        self._load(identity, path, 0, [], loaded)
        _check_declarations(self.modules, loaded)

    def _load(self, identity: str, path: Path | None, depth: int, stack: list[str],
              loaded: list[Module]) -> Module:
        """Load `identity` (its file `path`, else looked up and reported at the importing
        `use`) and the modules it imports, depth first; `loaded` collects the new ones."""
        if identity in stack:
            chain = " -> ".join(stack[stack.index(identity):] + [identity])
            raise fail(CYCLE_CODE, f"module import cycle: {chain}", self._use_site,
                       "remove one of these imports")
        if identity in self.modules:
            return self.modules[identity]
        if depth > MAX_IMPORT_DEPTH:
            raise fail(LIMIT_CODE, f"module import depth exceeds {MAX_IMPORT_DEPTH} at "
                       f"`{identity}`", self._use_site)
        if len(self.modules) + len(stack) >= MAX_MODULES:
            raise fail(LIMIT_CODE, f"module closure exceeds {MAX_MODULES} unique modules",
                       self._use_site)
        if path is None:
            try:
                path = self._path(identity)
            except _Missing as exc:
                raise fail(MODULE_CODE, str(exc), self._use_site) from None
        file = _shown(path)
        try:
            raw = path.read_bytes()
        except OSError as exc:
            raise fail(MODULE_CODE, f"module `{identity}` cannot be read: {exc.strerror}",
                       self._use_site) from None
        if len(raw) > MAX_MODULE_BYTES:
            raise fail(LIMIT_CODE, f"module `{identity}` exceeds the {MAX_MODULE_BYTES} byte "
                       "limit", Location(file, 1, 1))
        self._bytes += len(raw)
        if self._bytes > MAX_CLOSURE_BYTES:
            raise fail(LIMIT_CODE, f"module closure exceeds the {MAX_CLOSURE_BYTES} byte "
                       "aggregate limit", Location(file, 1, 1))
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:
            raise fail(MODULE_CODE, f"module `{identity}` is not valid UTF-8",
                       Location(file, 1, 1)) from None
        try:
            parsed = parse_module(text)
        except CxlError as exc:
            raise fail(INVALID_CODE, f"module `{identity}`: {exc.message}",
                       Location(file, exc.line, exc.col), exc.hint, exc.length) from None
        module = Module(identity, file, {}, {}, {})
        for decl in parsed.constants + parsed.functions:
            kind = "constant" if isinstance(decl, a.Let) else "function"
            table: dict[str, Any] = module.constants if kind == "constant" else module.functions
            if decl.name in table:
                raise fail(INVALID_CODE, f"module `{identity}` defines {kind} `{decl.name}` "
                           "more than once", _at(module, decl))
            table[decl.name] = decl
        stack.append(identity)
        for use in parsed.uses:
            target = ".".join(use.path)
            alias = use.alias or use.path[-1]
            site = _at(module, use)
            if alias in module.imports:
                raise fail(INVALID_CODE, f"module `{identity}` has duplicate import alias "
                           f"`{alias}`", site)
            if not _valid_identity(use.path):
                raise fail(MODULE_CODE, f"invalid logical resource identity `{target}`",
                           site)
            module.imports[alias] = target
            outer, self._use_site = self._use_site, site
            try:
                self._load(target, None, depth + 1, stack, loaded)
            finally:
                self._use_site = outer
        stack.pop()
        self.modules[identity] = module
        loaded.append(module)
        return module

    _use_site: Location | None = None

    def _path(self, identity: str) -> Path:
        """The file of a module identity: its `[catalog.rules]` entry, else
        `<rules root>/<segments>.cxl`; inside the workspace either way."""
        catalog = self._rules_catalog()
        workspace = self._workspace()
        if identity in catalog.rules:
            return _inside(workspace, catalog.rules[identity], f"rule resource `{identity}`")
        path = self._rules_root().joinpath(*identity.split(".")).with_suffix(".cxl")
        if not path.is_file():
            shown = path.relative_to(workspace) if path.is_relative_to(workspace) else path
            raise _Missing(f"module `{identity}` cannot be read: no file {shown} in the "
                           "workspace")
        return _inside(workspace, str(path), f"rule resource `{identity}`")

    def _workspace(self) -> Path:
        return self.setting.workspace.resolve()

    def _rules_catalog(self) -> RulesCatalog:
        if self._catalog is None:
            self._catalog = read_rules_catalog(self._workspace())
        return self._catalog

    def _rules_root(self) -> Path:
        if self._root is None:
            raw = (self.setting.rules_path or self._rules_catalog().rules_root
                   or DEFAULT_RULES_ROOT)
            self._root = _inside(self._workspace(), raw, "rules root")
        return self._root


class _Missing(Exception):
    """A module file (or the rules root) that does not exist or leaves the workspace."""


def _inside(workspace: Path, raw: str, what: str) -> Path:
    """`raw` (workspace-relative or absolute) canonicalized, and inside the workspace."""
    if ".." in Path(raw).parts:
        raise _Missing(f"{what} escapes the workspace; use a workspace-relative path "
                       "without `..`")
    candidate = Path(raw) if Path(raw).is_absolute() else workspace / raw
    try:
        canonical = candidate.resolve(strict=True)
    except OSError as exc:
        raise _Missing(f"{what} cannot be opened: {exc.strerror or 'no such file'}") from None
    if not canonical.is_relative_to(workspace):
        raise _Missing(f"{what} resolves outside the workspace")
    return canonical


# ---- declaration checks -------------------------------------------------------------------

def _check_declarations(modules: dict[str, Module], loaded: list[Module]) -> None:
    """Clinker's validate_module_declaration_closure: every name a declaration reads
    resolves, and no declaration depends on itself (constants, functions, across modules)."""
    graph: dict[tuple[str, str, str], list[tuple[str, str, str]]] = {}
    for module in loaded:
        for const in module.constants.values():
            deps: list[tuple[str, str, str]] = []
            _Deps(modules, module, f"{module.id}.{const.name}", deps).visit(const.value, set())
            graph[(module.id, "constant", const.name)] = deps
        for fn in module.functions.values():
            deps = []
            _Deps(modules, module, f"{module.id}.{fn.name}", deps).visit(fn.body,
                                                                          set(fn.params))
            graph[(module.id, "function", fn.name)] = deps
    state: dict[tuple[str, str, str], int] = {}  # 1 on the path, 2 done
    for start in graph:
        if state.get(start):
            continue
        path = [start]
        state[start] = 1
        iters = [iter(graph.get(start, []))]
        while iters:
            nxt = next(iters[-1], None)
            if nxt is None:
                state[path.pop()] = 2
                iters.pop()
                continue
            if state.get(nxt) == 1:
                chain = path[path.index(nxt):] + [nxt]
                labels = " -> ".join(f"{m}.{n} ({k})" for m, k, n in chain)
                module = modules[nxt[0]]
                decl = (module.constants if nxt[1] == "constant" else module.functions)[nxt[2]]
                raise fail(CYCLE_CODE, f"cyclic module declaration dependency: {labels}",
                           _at(module, decl), "recursion is not supported: remove one of "
                           "these references")
            if not state.get(nxt) and nxt in graph:
                state[nxt] = 1
                path.append(nxt)
                iters.append(iter(graph[nxt]))


class _Deps:
    def __init__(self, modules: dict[str, Module], module: Module, owner: str,
                 deps: list[tuple[str, str, str]]):
        self.modules, self.module, self.owner, self.deps = modules, module, owner, deps

    def error(self, node: a.Expr, message: str) -> Exception:
        return fail(INVALID_CODE, f"module declaration `{self.owner}` {message}",
                    _at(self.module, node))

    def visit(self, e: object, lexical: set[str]) -> None:
        m = self.module
        if isinstance(e, a.Name):
            if e.name in lexical:
                return
            if e.name in m.constants:
                self.deps.append((m.id, "constant", e.name))
                return
            raise self.error(e, f"references unresolved name `{e.name}`; declare it, pass "
                             "it as a parameter, or import its module directly")
        if isinstance(e, a.Qualified):
            shown = ".".join(e.parts)
            if len(e.parts) != 2:
                raise self.error(e, f"has unsupported qualified reference `{shown}`")
            alias, name = e.parts
            target = m.imports.get(alias)
            if target is None:
                raise self.error(e, f"cannot access `{shown}`: alias `{alias}` is not a "
                                 f"direct import of module `{m.id}`")
            if name not in self.modules[target].constants:
                raise self.error(e, f"references missing constant `{target}.{name}` through "
                                 f"direct import `{alias}`")
            self.deps.append((target, "constant", name))
            return
        if isinstance(e, a.MethodCall) and isinstance(e.receiver, a.Name):
            n = e.receiver.name
            if n in lexical:
                pass  # a built-in method on a parameter
            elif n in m.imports:
                target = m.imports[n]
                if e.method not in self.modules[target].functions:
                    raise self.error(e, f"references missing function `{target}.{e.method}` "
                                     f"through direct import `{n}`")
                self.deps.append((target, "function", e.method))
            elif n in m.functions:
                if e.method != "call":
                    raise self.error(e, f"calls local function `{n}` with method "
                                     f"`{e.method}`; use `{n}.call(...)`")
                self.deps.append((m.id, "function", n))
            elif n in m.constants:
                self.deps.append((m.id, "constant", n))
            else:
                raise self.error(e, f"uses unresolved receiver `{n}`; pass it as a "
                                 "parameter or import its module directly")
            for arg in e.args:
                self.visit(arg, lexical)
            return
        if isinstance(e, a.Lambda):
            self.visit(e.body, lexical | {e.param})
            return
        if isinstance(e, a.Comprehension):
            self.visit(e.source, lexical)
            inner = lexical | {e.binding}
            self.visit(e.item, inner)
            if e.predicate is not None:
                self.visit(e.predicate, inner)
            return
        for child in _children(e):
            self.visit(child, lexical)


def _children(node: object) -> list[object]:
    out: list[object] = []
    for f in fields(node):  # type: ignore[arg-type]
        value = getattr(node, f.name)
        for item in value if isinstance(value, tuple) else (value,):
            for leaf in item if isinstance(item, tuple) else (item,):  # MapLit entries
                if isinstance(leaf, (a.Expr, a.MatchArm)):
                    out.append(leaf)
    return out


# ---- rewriting ----------------------------------------------------------------------------

def _rebuild(node: Any, fn, pos: a.Pos | None = None) -> Any:
    """`node` with every expression directly inside it passed through `fn` (statements
    and match arms rebuilt around them); its position replaced by `pos` if given."""
    changes: dict[str, Any] = {}
    for f in fields(node):
        if f.name == "pos":
            continue
        value = getattr(node, f.name)
        new = _map_value(value, fn, pos)
        if new is not value:
            changes[f.name] = new
    if pos is not None and hasattr(node, "pos"):
        changes["pos"] = pos
    return replace(node, **changes) if changes else node


def _map_value(value: Any, fn, pos: a.Pos | None) -> Any:
    if isinstance(value, a.Expr):
        return fn(value)
    if isinstance(value, a.MatchArm):
        return a.MatchArm(None if value.pattern is None else fn(value.pattern),
                          fn(value.result))
    if isinstance(value, a.Stmt):
        return fn(value)
    if isinstance(value, tuple):
        items = tuple(_map_value(v, fn, pos) for v in value)
        return value if all(x is y for x, y in zip(items, value)) else items
    return value


class _Program:
    """A pipeline program's references to the modules it imports."""

    def __init__(self, modules: Modules, aliases: dict[str, str]):
        self.modules = modules.modules
        self.aliases = aliases

    def stmt(self, s: a.Stmt) -> a.Stmt:
        return _rebuild(s, self.node)

    def node(self, e: Any) -> Any:
        if isinstance(e, a.Stmt):
            return self.stmt(e)
        if isinstance(e, a.Qualified) and len(e.parts) == 2 and e.parts[0] in self.aliases:
            alias, name = e.parts
            module = self.modules[self.aliases[alias]]
            if name in module.constants:
                return _Inline(self.modules, e.pos).constant(module, name)
            if name in module.functions:
                raise CxlError("E203", f"'{name}' is a function in module '{alias}', not a "
                               "constant", e.pos.line, e.pos.col,
                               f"use '{alias}.{name}()' with parentheses to call it")
            raise CxlError("E203", f"module '{alias}' has no member '{name}'", e.pos.line,
                           e.pos.col, _did_you_mean(name, module))
        if (isinstance(e, a.MethodCall) and isinstance(e.receiver, a.Name)
                and e.receiver.name in self.aliases):
            alias = e.receiver.name
            module = self.modules[self.aliases[alias]]
            at = e.receiver.pos
            fn = module.functions.get(e.method)
            if fn is None:
                if e.method in module.constants:
                    raise CxlError("E203", f"'{e.method}' is a constant in module '{alias}', "
                                   "not a function", at.line, at.col,
                                   f"use '{alias}.{e.method}' without parentheses")
                raise CxlError("E203", f"module '{alias}' has no function '{e.method}'",
                               at.line, at.col, _did_you_mean(e.method, module))
            call = f"{alias}.{e.method}"
            if len(fn.params) != len(e.args):
                corrected = ", ".join(f"<{p}>" for p in fn.params)
                raise CxlError("E200", f"module call `{call}` resolves to `{module.id}."
                               f"{fn.name}`, which expects {len(fn.params)} arguments, got "
                               f"{len(e.args)}; corrected form: `{call}({corrected})`",
                               at.line, at.col, f"pass exactly {len(fn.params)} arguments "
                               f"declared by `{module.id}.{fn.name}`")
            args = tuple(self.node(x) for x in e.args)
            return _Inline(self.modules, at, call).function(module, fn, args)
        return _rebuild(e, self.node)


class _Inline:
    """A module declaration's body written out at one call site (every node of it placed
    at the call, as Clinker places the expanded body at the call's span)."""

    def __init__(self, modules: dict[str, Module], pos: a.Pos, call: str = ""):
        self.modules, self.pos, self.call = modules, pos, call
        self.chain: list[str] = []

    def constant(self, module: Module, name: str) -> a.Expr:
        self.chain.append(f"{module.id}.{name}")
        out = self.body(module, module.constants[name].value, {})
        self.chain.pop()
        return out

    def function(self, module: Module, fn: a.FnDecl, args: tuple[a.Expr, ...]) -> a.Expr:
        key = f"{module.id}.{fn.name}"
        if len(fn.params) != len(args):
            chain = " -> ".join(self.chain + [key])
            raise CxlError("E200", f"module call `{self.call}` could not admit body "
                           f"`{self.chain[0] if self.chain else key}`: compiled module "
                           f"function `{key}` expects {len(fn.params)} arguments, got "
                           f"{len(args)} in call chain {chain}", self.pos.line, self.pos.col,
                           "correct the nested imported call to match its declaration")
        self.chain.append(key)
        out = self.body(module, fn.body, dict(zip(fn.params, args)))
        self.chain.pop()
        return out

    def body(self, module: Module, e: a.Expr, subst: dict[str, a.Expr]) -> a.Expr:
        def go(x: Any) -> Any:
            return self.body(module, x, subst)

        if isinstance(e, a.Name):
            if e.name in subst:
                return subst[e.name]
            if e.name in module.constants:
                return self.constant(module, e.name)
            return replace(e, pos=self.pos)  # a lambda's or comprehension's binding
        if isinstance(e, a.Qualified) and len(e.parts) == 2 and e.parts[0] in module.imports:
            target = self.modules[module.imports[e.parts[0]]]
            return self.constant(target, e.parts[1])
        if isinstance(e, a.MethodCall) and isinstance(e.receiver, a.Name) \
                and e.receiver.name not in subst:
            n = e.receiver.name
            if n in module.imports:
                target = self.modules[module.imports[n]]
                return self.function(target, target.functions[e.method],
                                     tuple(go(x) for x in e.args))
            if n in module.functions and e.method == "call":
                return self.function(module, module.functions[n],
                                     tuple(go(x) for x in e.args))
        if isinstance(e, a.Lambda):
            inner = {k: v for k, v in subst.items() if k != e.param}
            return replace(e, pos=self.pos, body=self.body(module, e.body, inner))
        if isinstance(e, a.Comprehension):
            inner = {k: v for k, v in subst.items() if k != e.binding}
            return replace(e, pos=self.pos, source=go(e.source),
                           item=self.body(module, e.item, inner),
                           predicate=None if e.predicate is None
                           else self.body(module, e.predicate, inner))
        return _rebuild(e, go, self.pos)


def _did_you_mean(name: str, module: Module) -> str:
    members = list(module.constants) + list(module.functions)
    best = min(members, key=lambda m: _distance(name, m), default=None)
    if best is None or _distance(name, best) > 3:
        return ""
    return f"did you mean '{best}'?"


def _distance(x: str, y: str) -> int:
    prev = list(range(len(y) + 1))
    for i, cx in enumerate(x, 1):
        cur = [i]
        for j, cy in enumerate(y, 1):
            cur.append(min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (cx != cy)))
        prev = cur
    return prev[-1]


__all__ = ["Module", "Modules", "RulesSetting"]
