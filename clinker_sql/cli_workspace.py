"""`compile`, `validate` and `run` given a workspace folder: each selected pipeline in
dependency order (workspace_project.py), one line each, then a summary. Exit codes: the
first failing pipeline's, else 2 when a run wrote DLQ entries, else 0."""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path

import click

from clinker_sql.diagnostics import EXIT_CONFIG, EXIT_DLQ, EXIT_OK, DiagnosticError
from clinker_sql.workspace_project import Member, Workspace, blocked


def _render(exc: DiagnosticError) -> None:
    for d in exc.diagnostics:
        click.echo(d.render(), err=True)


def _loop(ws: Workspace, step: Callable[[Member], int], verb: str,
          manifest: bool = True) -> int:
    """`step` on each member that may run; returns the command's exit code. `manifest`:
    write the workspace's manifest.json (not for validate, which writes nothing)."""
    members = ws.members()
    failed: set[str] = set()
    failure: int | None = None  # the first failing pipeline's exit code
    dlq = False
    counts = {"ok": 0, "failed": 0, "skipped": 0}
    for member in members:
        name = member.entry.name
        why = blocked(member, failed)
        if member.error is not None:
            _render(member.error)
        if why is not None:
            failed.add(name)
            kind = "failed" if member.model is None else "skipped"
            counts[kind] += 1
            click.echo(f"{name}: {kind} ({why})")
            if failure is None:
                failure = member.error.exit_code if member.error else EXIT_CONFIG
            continue
        try:
            result = step(member)
        except DiagnosticError as exc:
            _render(exc)
            failed.add(name)
            counts["failed"] += 1
            click.echo(f"{name}: failed ({exc.diagnostics[0].code})")
            failure = exc.exit_code if failure is None else failure
            continue
        counts["ok"] += 1
        dlq = dlq or result == EXIT_DLQ
    line = (f"{verb} {len(members)} pipeline(s): {counts['ok']} ok, {counts['failed']} "
            f"failed, {counts['skipped']} skipped")
    click.echo(f"{line} -> {ws.write_manifest(members)}" if manifest else line)
    if failure is not None:
        return failure
    return EXIT_DLQ if dlq else EXIT_OK


def compile_workspace(ws: Workspace, check: Callable | None) -> int:
    def step(member: Member) -> int:
        compiled = member.project.compile(member.model)
        for d in compiled.warnings:
            click.echo(d.render(), err=True)
        if check is not None:
            check(member.project, compiled)
            return EXIT_OK
        target = member.project.write(compiled)
        click.echo(f"{member.entry.name}: {len(compiled.statements)} statements -> {target}")
        return EXIT_OK
    return _loop(ws, step, "Compiled" if check is None else "Checked", check is None)


def validate_workspace(ws: Workspace) -> int:
    from clinker_sql.inspect.sqlcheck import check_statements

    def step(member: Member) -> int:
        compiled = member.project.compile(member.model)
        for d in compiled.warnings:
            click.echo(d.render(), err=True)
        report = check_statements(member.model, compiled)
        click.echo(f"{member.entry.name}: ok ({len(compiled.statements)} statements, "
                   f"{report.checked} checked with sqlglot)")
        return EXIT_OK
    return _loop(ws, step, "Validated", manifest=False)


def run_workspace(ws: Workspace, remote, quiet: bool, log_format: str = "text") -> int:
    from clinker_sql.runtime.progress import RunProgress, choose_mode

    def step(member: Member) -> int:
        stream = sys.stderr
        progress = RunProgress(stream, "json" if log_format == "json" else
                               choose_mode(stream, quiet))
        try:
            result = member.project.run(progress=progress, remote=remote)
        except BaseException:
            progress.close(failed=True)
            raise
        progress.close()
        click.echo(f"{member.entry.name}: {result.summary}")
        return result.exit_code
    return _loop(ws, step, "Ran")


def workspace(folder: Path, out_dir: Path, select: tuple[str, ...], make_project,
              variables: tuple[str, ...]) -> Workspace:
    return Workspace(folder, out_dir, tuple(select), make_project, tuple(variables))
