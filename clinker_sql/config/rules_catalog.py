"""Where a workspace keeps its CXL modules: clinker.toml's `[catalog]` `rules_root`
(the folder module identities resolve under) and `[catalog.rules]` (an identity mapped
to one file), read as Clinker's CatalogConfig reads them. Only these two entries are read
here; the module loader (cxl/modules.py) asks for them when a program imports a module."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from pathlib import Path

from clinker_sql.diagnostics import Location, fail

WORKSPACE_FILE = "clinker.toml"
MODULE_CODE = "CS130"  # a module, or the rules root, cannot be found or read


@dataclass(frozen=True)
class RulesCatalog:
    rules_root: str | None = None
    rules: dict[str, str] = field(default_factory=dict)  # logical identity -> file


def read_rules_catalog(workspace: Path) -> RulesCatalog:
    """The workspace's rules entries; none when it has no clinker.toml."""
    path = workspace / WORKSPACE_FILE
    if not path.is_file():
        return RulesCatalog()
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as exc:
        raise fail(MODULE_CODE, f"{WORKSPACE_FILE} cannot be read: {exc}",
                   Location(str(path), 1, 1)) from None
    except tomllib.TOMLDecodeError as exc:
        line = getattr(exc, "lineno", 1) or 1
        raise fail(MODULE_CODE, f"{WORKSPACE_FILE} is not valid TOML: {exc}",
                   Location(str(path), line, 1)) from None
    catalog = data.get("catalog", {})
    if not isinstance(catalog, dict):
        raise fail(MODULE_CODE, f"{WORKSPACE_FILE}: [catalog] must be a table",
                   Location(str(path), 1, 1))
    root = catalog.get("rules_root")
    rules = catalog.get("rules", {})
    if root is not None and not isinstance(root, str):
        raise fail(MODULE_CODE, f"{WORKSPACE_FILE}: catalog.rules_root must be a path",
                   Location(str(path), 1, 1))
    if not isinstance(rules, dict) or not all(isinstance(v, str) for v in rules.values()):
        raise fail(MODULE_CODE, f"{WORKSPACE_FILE}: [catalog.rules] maps a module identity "
                   "to a file path", Location(str(path), 1, 1))
    return RulesCatalog(root, dict(rules))
