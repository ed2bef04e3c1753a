"""The pipelines of a workspace folder, the ones `--select` picks, and their run order.

A command given a folder instead of a pipeline file works on the workspace's pipelines:
the files `[catalog.pipelines]` of its `clinker.toml` names, or, without that table, every
`*.yaml` / `*.yml` file under the folder whose top level has `pipeline:` and `nodes:`
(composition bodies, channel and group overlays, hidden folders and the compiled target
folder are not pipelines). `--select NAME|GLOB`, repeatable, keeps the pipelines whose name,
catalog id, file stem or path relative to the folder matches one of them, as dbt's
`--select` does. The selected pipelines run in dependency order: one pipeline depends on
another when one of its sources reads a file the other writes."""

from __future__ import annotations

import fnmatch
import os
from dataclasses import dataclass
from pathlib import Path

import yaml

from clinker_sql.config import model as m
from clinker_sql.config.workspace import Workspace
from clinker_sql.diagnostics import fail

# files that are part of a workspace but are not pipelines
_NOT_PIPELINES = (".comp.yaml", ".comp.yml", ".cfg.yaml", ".cfg.yml", ".group.yaml",
                  ".group.yml", ".channel.yaml", ".channel.yml")
_SKIPPED_FOLDERS = {"target", "node_modules", "__pycache__"}


@dataclass(frozen=True)
class WorkspacePipeline:
    file: Path  # the pipeline file
    rel: str  # its path relative to the workspace folder, with /
    name: str  # its `pipeline.name`, else its file stem
    catalog_id: str | None = None  # its name in [catalog.pipelines]

    def names(self) -> tuple[str, ...]:
        """What `--select` matches: its name, catalog id, file stem and relative path."""
        stem = self.file.name.split(".")[0]
        return tuple(n for n in (self.name, self.catalog_id, stem, self.rel) if n)


def find_pipelines(ws: Workspace, skip: tuple[Path, ...] = ()) -> list[WorkspacePipeline]:
    """The workspace's pipeline files, in path order. `skip`: folders that hold no
    pipeline (the compiled target folder)."""
    root = ws.root
    if ws.pipelines:
        out = []
        for pid, rel in sorted(ws.pipelines.items()):
            file = root / rel
            if not file.is_file():
                raise fail("CS080", f"{ws.manifest}: [catalog.pipelines] {pid} names "
                           f"{rel}, which is not a file")
            out.append(WorkspacePipeline(file, Path(rel).as_posix(),
                                         _name(_read(file), file), pid))
        return out
    skipped = {Path(p).resolve() for p in skip} | {
        (root / ws.channel_root).resolve(), (root / ws.group_root).resolve()}
    found = []
    for folder, dirs, files in os.walk(root):
        here = Path(folder)
        dirs[:] = sorted(d for d in dirs if not d.startswith(".") and d not in _SKIPPED_FOLDERS
                         and (here / d).resolve() not in skipped)
        for name in sorted(files):
            if not name.endswith((".yaml", ".yml")) or name.endswith(_NOT_PIPELINES):
                continue
            data = _read(here / name)
            if isinstance(data, dict) and "pipeline" in data and "nodes" in data:
                found.append(WorkspacePipeline(here / name,
                                               (here / name).relative_to(root).as_posix(),
                                               _name(data, here / name)))
    return sorted(found, key=lambda p: p.rel)


def _read(file: Path) -> object:
    """The file's YAML; None when it does not parse: such a file is not taken for a
    pipeline while looking for them (named in the catalog, its load then says why)."""
    try:
        return yaml.safe_load(file.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, yaml.YAMLError):
        return None


def _name(data: object, file: Path) -> str:
    head = data.get("pipeline") if isinstance(data, dict) else None
    name = head.get("name") if isinstance(head, dict) else None
    return name if isinstance(name, str) and name else file.name.split(".")[0]


def select(pipelines: list[WorkspacePipeline],
           patterns: tuple[str, ...]) -> list[WorkspacePipeline]:
    """The pipelines one of `patterns` matches (all of them without a pattern). A pattern
    that matches nothing is an error (CS081)."""
    if not patterns:
        return list(pipelines)
    chosen: set[Path] = set()
    for pattern in patterns:
        hit = [p for p in pipelines
               if any(fnmatch.fnmatchcase(n, pattern) for n in p.names())]
        if not hit:
            known = ", ".join(sorted(p.name for p in pipelines))
            raise fail("CS081", f"--select {pattern} matches no pipeline of the workspace",
                       hint=f"its pipelines: {known or 'none'}")
        chosen.update(p.file for p in hit)
    return [p for p in pipelines if p.file in chosen]


def run_order(models: dict[Path, m.Pipeline]) -> list[Path]:
    """The pipeline files in dependency order (a pipeline after the ones whose outputs
    its sources read), ties in name order. A cycle is an error (CS082)."""
    order: list[Path] = []
    left = {f: set(deps) for f, deps in depends_on(models).items()}
    while left:
        ready = sorted((f for f, deps in left.items() if not deps & left.keys()),
                       key=lambda f: (models[f].name, str(f)))
        if not ready:
            cycle = ", ".join(sorted(models[f].name for f in left))
            raise fail("CS082", f"the workspace's pipelines read each other's outputs in a "
                       f"cycle: {cycle}", hint="a pipeline may read only the outputs of "
                       "pipelines that do not read its own")
        order.append(ready[0])
        del left[ready[0]]
    return order


def depends_on(models: dict[Path, m.Pipeline]) -> dict[Path, list[Path]]:
    """Each pipeline file -> the files of the pipelines whose outputs it reads."""
    reads = {f: _source_patterns(p, f.parent) for f, p in models.items()}
    writes = {f: _sink_paths(p, f.parent) for f, p in models.items()}
    return {f: sorted(g for g, paths in writes.items() if g != f and any(
        fnmatch.fnmatchcase(w, r) for r in reads[f] for w in paths)) for f in models}


def _source_patterns(pipeline: m.Pipeline, base: Path) -> list[str]:
    return [_absolute(path, base) for node in pipeline.nodes
            if isinstance(node, m.SourceNode) for path in node.config.paths]


def _sink_paths(pipeline: m.Pipeline, base: Path) -> list[str]:
    """Each file sink's path, its `{tokens}` read as `*`."""
    out = []
    for node in pipeline.nodes:
        if isinstance(node, m.SinkNode) and node.config.path:
            path = node.config.path
            while "{" in path and "}" in path.split("{", 1)[1]:
                head, rest = path.split("{", 1)
                path = head + "*" + rest.split("}", 1)[1]
            out.append(_absolute(path, base))
    return out


def _absolute(path: str, base: Path) -> str:
    return os.path.normpath(path if os.path.isabs(path) else str(base / path))
