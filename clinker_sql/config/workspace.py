"""The workspace a pipeline belongs to: a folder with an optional `clinker.toml`.

The folder is `--base-dir` when given, else the pipeline file's folder (Clinker's
default). `clinker.toml` is read as Clinker reads the parts clinker-sql uses:
`[catalog.pipelines]`, `[catalog.compositions]` and `[catalog.resources.<id>]` (logical
names for files), `[channel] root` (default `channel`) and `[group] root` (default
`group`). Its other tables (storage, observability) tune Clinker's engine and are
accepted and ignored, as the pipeline's engine-tuning keys are."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from pathlib import Path

from clinker_sql.diagnostics import Location, fail

MANIFEST = "clinker.toml"
# clinker.toml's tables: the ones read here, then the ones Clinker's engine reads
_READ = ("catalog", "channel", "group")
_IGNORED = ("storage", "observability", "workspace", "project", "rules", "modules")
_CATALOG_KINDS = ("rules_root", "pipelines", "compositions", "resources", "rules", "schemas",
                  "channels")


@dataclass(frozen=True)
class FileResource:
    """A `[catalog.resources.<id>]` entry of kind `file`."""
    id: str
    path: str
    access: str = "read"


@dataclass(frozen=True)
class Workspace:
    root: Path
    manifest: Path | None = None
    pipelines: dict[str, str] = field(default_factory=dict)  # catalog id -> path
    compositions: dict[str, str] = field(default_factory=dict)
    resources: dict[str, FileResource] = field(default_factory=dict)
    channel_root: str = "channel"
    channel_shard: str = "none"  # none | first_char (<root>/<first char>/<id>/)
    group_root: str = "group"

    def pipeline_id(self, pipeline_file: Path) -> str | None:
        """The catalog id of `pipeline_file`, when the catalog names it."""
        target = pipeline_file.resolve()
        for pid, rel in self.pipelines.items():
            if (self.root / rel).resolve() == target:
                return pid
        return None


def load_workspace(pipeline_file: Path, base_dir: Path | None = None) -> Workspace:
    root = Path(base_dir) if base_dir is not None else Path(pipeline_file).parent
    if base_dir is not None and not root.is_dir():
        raise fail("CS072", f"--base-dir {root} is not a folder")
    manifest = root / MANIFEST
    if not manifest.is_file():
        return Workspace(root=root)
    file = str(manifest)
    try:
        data = tomllib.loads(manifest.read_text(encoding="utf-8"))
    except OSError as exc:
        raise fail("CS104", f"cannot read {file}: {exc.strerror}") from None
    except UnicodeDecodeError:
        raise fail("CS073", f"{file} is not valid UTF-8", Location(file, 1, 1)) from None
    except tomllib.TOMLDecodeError as exc:
        raise fail("CS073", f"{file} is not valid TOML: {exc}", _toml_loc(file, exc)) from None
    for key in data:
        if key not in _READ + _IGNORED:
            raise fail("CS073", f"{file}: unknown table [{key}]", _key_loc(manifest, key),
                       f"expected one of: {', '.join('[' + k + ']' for k in _READ)}")
    catalog = _table(data, "catalog", file, manifest)
    for key in catalog:
        if key not in _CATALOG_KINDS:
            raise fail("CS073", f"{file}: unknown table [catalog.{key}]",
                       _key_loc(manifest, key))
    pipelines = _str_map(catalog.get("pipelines", {}), "catalog.pipelines", file, manifest)
    compositions = _str_map(catalog.get("compositions", {}), "catalog.compositions", file,
                            manifest)
    resources = {rid: _resource(rid, entry, file, manifest)
                 for rid, entry in _table(catalog, "resources", file, manifest).items()}
    channel = _table(data, "channel", file, manifest)
    group = _table(data, "group", file, manifest)
    return Workspace(root=root, manifest=manifest, pipelines=pipelines,
                     compositions=compositions, resources=resources,
                     channel_root=_root(channel, "channel", file, manifest),
                     channel_shard=str(channel.get("shard", "none")),
                     group_root=_root(group, "group", file, manifest))


def _table(data: dict, key: str, file: str, manifest: Path) -> dict:
    value = data.get(key, {})
    if not isinstance(value, dict):
        raise fail("CS073", f"{file}: `{key}` must be a table", _key_loc(manifest, key))
    return value


def _str_map(value: object, what: str, file: str, manifest: Path) -> dict[str, str]:
    if not isinstance(value, dict) or not all(isinstance(v, str) for v in value.values()):
        raise fail("CS073", f"{file}: [{what}] must map names to paths (strings)",
                   _key_loc(manifest, what.split(".")[-1]))
    return dict(value)


def _resource(rid: str, entry: object, file: str, manifest: Path) -> FileResource:
    loc = _key_loc(manifest, rid)
    if not isinstance(entry, dict):
        raise fail("CS073", f"{file}: [catalog.resources.{rid}] must be a table", loc)
    unknown = set(entry) - {"kind", "path", "access"}
    if unknown:
        raise fail("CS073", f"{file}: [catalog.resources.{rid}] has the unknown field "
                   f"'{sorted(unknown)[0]}'", loc)
    if entry.get("kind") != "file":
        raise fail("CS073", f"{file}: [catalog.resources.{rid}]: kind must be \"file\"", loc)
    path = entry.get("path")
    if not isinstance(path, str) or not path:
        raise fail("CS073", f"{file}: [catalog.resources.{rid}] needs a `path`", loc)
    access = entry.get("access", "read")
    if access not in ("read", "write", "read_write"):
        raise fail("CS073", f"{file}: [catalog.resources.{rid}]: access must be read, write "
                   "or read_write", loc)
    return FileResource(rid, path, access)


def _root(table: dict, name: str, file: str, manifest: Path) -> str:
    unknown = set(table) - {"root", "shard"}
    if unknown:
        raise fail("CS073", f"{file}: [{name}] has the unknown field '{sorted(unknown)[0]}'",
                   _key_loc(manifest, name))
    if table.get("shard", "none") not in ("none", "first_char"):
        raise fail("CS001", f"{file}: [{name}] shard = {table['shard']!r} is not supported "
                   "yet (only none and first_char)", _key_loc(manifest, "shard"))
    root = table.get("root", name)
    if not isinstance(root, str):
        raise fail("CS073", f"{file}: [{name}] root must be a string", _key_loc(manifest, name))
    return root


def _toml_loc(file: str, exc: tomllib.TOMLDecodeError) -> Location:
    line = getattr(exc, "lineno", None)
    col = getattr(exc, "colno", None)
    if line is None:  # Python 3.11's message ends "(at line L, column C)"
        import re

        m = re.search(r"at line (\d+), column (\d+)", str(exc))
        line, col = (int(m.group(1)), int(m.group(2))) if m else (1, 1)
    return Location(file, line, col or 1)


def _key_loc(manifest: Path, key: str) -> Location:
    """The first line of clinker.toml that names `key` (tomllib keeps no positions)."""
    try:
        lines = manifest.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError):
        lines = []
    for i, line in enumerate(lines, 1):
        col = line.find(key)
        if col >= 0 and not line.lstrip().startswith("#"):
            return Location(str(manifest), i, col + 1)
    return Location(str(manifest), 1, 1)
