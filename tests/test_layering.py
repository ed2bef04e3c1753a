"""The package's layering: config -> cxl -> codegen -> runtime / inspect -> the façade and
the CLI, over a base of top-level modules (diagnostics, the sqlglot builders). Every import
of every module is read with `ast`, those inside functions included (an import in a
function is still a dependency); only imports under `if TYPE_CHECKING:` are left out,
since they never run. No module imports from a layer above its own, and no modules import
each other in a cycle."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "clinker_sql"

# the layer of each subpackage; top-level modules not named here are the base (0)
LAYERS = {"config": 1, "cxl": 2, "codegen": 3, "runtime": 4, "inspect": 4,
          "project": 5, "workspace_project": 5, "cli": 6, "cli_workspace": 6,
          "__main__": 6}
# cycles kept knowingly, each with its reason (none may be added without one)
KNOWN_CYCLES: dict[frozenset[str], str] = {
    frozenset(f"clinker_sql.cxl.{m}" for m in (
        "builtins", "builtins_collections", "builtins_conv", "builtins_numbers",
        "builtins_strings", "containers", "lower", "operators", "regex", "registry",
        "strftime")):
        "the lowering of CXL expressions dispatches to the builtin methods, operators and "
        "containers, which lower their arguments through it again (a recursive descent "
        "split over modules); untangling it means one interface module for the lowerer",
}


def _modules() -> dict[str, Path]:
    out = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        out[name] = path
    return out


def _type_checking_only(tree: ast.AST) -> set[int]:
    skipped: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            skipped.update(id(n) for stmt in node.body for n in ast.walk(stmt))
    return skipped


def _imports(name: str, path: Path, modules: dict[str, Path]) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    skipped = _type_checking_only(tree)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(tree):
        if id(node) in skipped:
            continue
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:  # a relative import
                anchor = package.split(".")[:len(package.split(".")) - node.level + 1]
                base = ".".join(anchor + ([base] if base else []))
            for alias in node.names:  # `from pkg import module` names a module
                full = f"{base}.{alias.name}"
                found.add(full if full in modules else base)
    return {m for m in found if m in modules and m != name}


def _graph() -> dict[str, set[str]]:
    modules = _modules()
    return {name: _imports(name, path, modules) for name, path in modules.items()}


def _layer(module: str) -> int:
    parts = module.split(".")
    return LAYERS.get(parts[1], 0) if len(parts) > 1 else 0


def test_no_module_imports_from_a_higher_layer():
    upward = sorted(f"{m} imports {d}" for m, deps in _graph().items() for d in deps
                    if _layer(d) > _layer(m))
    assert upward == []


def _cycles(graph: dict[str, set[str]]) -> list[frozenset[str]]:
    """The strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    out: list[frozenset[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = set()
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.add(w)
                if w == v:
                    break
            if len(component) > 1:
                out.append(frozenset(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def test_no_import_cycle():
    found = _cycles(_graph())
    assert [sorted(c) for c in found if c not in KNOWN_CYCLES] == []
    # a known cycle that is gone (or changed) leaves the list
    assert [sorted(c) for c in KNOWN_CYCLES if c not in found] == []


def test_the_checks_see_function_level_imports_and_cycles():
    # the checker itself: a function-level import counts, a TYPE_CHECKING one does not
    tree = ast.parse("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    import b\n"
                     "def f():\n    import c\n")
    skipped = _type_checking_only(tree)
    imported = {a.name for n in ast.walk(tree) if isinstance(n, ast.Import) and
                id(n) not in skipped for a in n.names}
    assert imported == {"c"}
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [
        frozenset({"a", "b", "c"})]
    assert _layer("clinker_sql.codegen.plan") > _layer("clinker_sql.cxl.lower") > \
        _layer("clinker_sql.config.model") > _layer("clinker_sql.sqlbuild")
