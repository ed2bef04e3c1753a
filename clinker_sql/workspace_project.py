"""A workspace folder as one command: its selected pipelines compiled, validated or run one
after the other, in dependency order (config/workspace_pipelines.py), as dbt runs a
project's models. A pipeline that fails does not stop the others; the pipelines that read
its outputs are skipped. `target/` holds each pipeline's folder, plus `manifest.json`, the
workspace's: which pipelines there are, their files and what each reads from the others."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path

from clinker_sql.codegen.artifacts import safe_name
from clinker_sql.config.model import Pipeline
from clinker_sql.config.var_overrides import apply_var_overrides
from clinker_sql.config.workspace import load_workspace
from clinker_sql.config.workspace_pipelines import (
    WorkspacePipeline,
    depends_on,
    find_pipelines,
    run_order,
    select,
)
from clinker_sql.diagnostics import DiagnosticError, fail
from clinker_sql.project import Project

WORKSPACE_MANIFEST_VERSION = "clinker-sql/workspace-manifest/v1"


@dataclass
class Member:
    """One selected pipeline of the workspace: its project, and its model once loaded
    (None when it does not load: `error` says why)."""
    entry: WorkspacePipeline
    project: Project
    model: Pipeline | None = None
    error: DiagnosticError | None = None
    depends_on: list[str] = field(default_factory=list)  # names of pipelines it reads


@dataclass
class Workspace:
    folder: Path
    out_dir: Path
    patterns: tuple[str, ...]
    # makes the Project of a pipeline file (the command's options: absolute paths,
    # --rules-path, --channel, --group); --var is applied here, per pipeline
    make_project: Callable[[Path], Project]
    vars: tuple[str, ...] = ()

    def members(self) -> list[Member]:
        """The selected pipelines, loaded, in run order (those that do not load first,
        in path order: their errors are reported before anything runs)."""
        ws = load_workspace(self.folder / "clinker.toml", self.folder)
        found = find_pipelines(ws, skip=(self.out_dir,))
        if not found:
            raise fail("CS080", f"{self.folder} holds no pipeline file",
                       hint="a pipeline is a YAML file with `pipeline:` and `nodes:` at its "
                            "top level, or a [catalog.pipelines] entry of clinker.toml")
        chosen = select(found, self.patterns)
        members = [Member(e, self.make_project(e.file)) for e in chosen]
        declared: set[str] = set()
        for member in members:
            try:
                model = member.project.load()
                declared.update(v.name for v in model.vars)
                member.model = apply_var_overrides(model, _declared(self.vars, model))
                member.project = replace(member.project, preloaded=member.model)
            except DiagnosticError as exc:
                member.error = exc
        _check_vars(self.vars, declared)
        _check_names(members)
        loaded = {m.entry.file: m.model for m in members if m.model is not None}
        names = {m.entry.file: m.entry.name for m in members}
        deps = depends_on(loaded)
        for member in members:
            member.depends_on = [names[f] for f in deps.get(member.entry.file, [])]
        order = {f: i for i, f in enumerate(run_order(loaded))}
        return sorted(members, key=lambda m: (m.model is not None,
                                              order.get(m.entry.file, -1)))

    def write_manifest(self, members: list[Member]) -> Path:
        """target/manifest.json: the workspace's pipelines as this command saw them."""
        self.out_dir.mkdir(parents=True, exist_ok=True)
        path = self.out_dir / "manifest.json"
        body = {
            "version": WORKSPACE_MANIFEST_VERSION,
            "pipelines": [{
                "name": m.entry.name,
                "file": m.entry.rel,
                "target": m.project.folder(m.model.name) if m.model is not None else None,
                "depends_on": m.depends_on,
            } for m in members],
        }
        path.write_text(json.dumps(body, indent=2) + "\n", encoding="utf-8")
        return path


def blocked(member: Member, failed: set[str]) -> str | None:
    """Why `member` does not run, or None: it did not load, or a pipeline whose outputs
    it reads (`failed`: the names of those that failed or were skipped) did not finish."""
    if member.model is None:
        return "it does not load"
    broken = [d for d in member.depends_on if d in failed]
    return f"it reads the outputs of {', '.join(broken)}" if broken else None


def _declared(variables: tuple[str, ...], model: Pipeline) -> tuple[str, ...]:
    """The --var values that name a var of this pipeline."""
    names = {v.name for v in model.vars}
    return tuple(v for v in variables if v.split("=", 1)[0].strip() in names)


def _check_vars(variables: tuple[str, ...], declared: set[str]) -> None:
    for given in variables:
        name = given.split("=", 1)[0].strip()
        if name not in declared:
            raise fail("CS134", f"--var {name}: no selected pipeline declares it in "
                       "pipeline.vars")


def _check_names(members: list[Member]) -> None:
    """Two pipelines of one name would write one target folder."""
    seen: dict[str, WorkspacePipeline] = {}
    for member in members:
        if member.model is None:
            continue
        key = safe_name(member.model.name)
        if key in seen:
            raise fail("CS080", f"{seen[key].rel} and {member.entry.rel} are both the "
                       f"pipeline '{member.model.name}': their compiled folders would be one",
                       hint="give each pipeline of a workspace its own pipeline.name")
        seen[key] = member.entry
