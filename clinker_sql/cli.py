"""Command line: a thin layer over `Project`. User mistakes print a coded
diagnostic and exit with Clinker's exit code; never a traceback."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import click

from clinker_sql import __version__
from clinker_sql.diagnostics import CODES, EXIT_CONFIG, Diagnostic, DiagnosticError


def _print_diagnostics(diags: list[Diagnostic]) -> None:
    for d in diags:
        click.echo(d.render(), err=True)


def _guard(fn):
    """Run a command body; diagnostics become messages and exit codes."""
    try:
        return fn()
    except DiagnosticError as exc:
        _print_diagnostics(exc.diagnostics)
        sys.exit(exc.exit_code)
    except KeyboardInterrupt:
        click.echo("interrupted", err=True)
        sys.exit(130)
    except Exception as exc:  # noqa: BLE001 - a bug in clinker-sql, not a user mistake
        if os.environ.get("CLINKER_SQL_DEBUG"):
            raise
        click.echo(f"error[CS999]: internal error in clinker-sql: {type(exc).__name__}: {exc}\n"
                   "  = hint: this is a bug; rerun with CLINKER_SQL_DEBUG=1 for the traceback "
                   "and report it", err=True)
        sys.exit(EXIT_CONFIG)


_PIPELINE = click.argument("pipeline", type=click.Path(dir_okay=False, path_type=Path))
_OUT = click.option("--out", "out_dir", default="target", show_default=True,
                    type=click.Path(file_okay=False, path_type=Path),
                    help="Folder for the compiled SQL, manifest.json and run_results.json.")


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="clinker-sql")
def cli() -> None:
    """Compile Clinker pipelines into Spark SQL and run them with Clinker's semantics."""


@cli.command("compile")
@_PIPELINE
@_OUT
def compile_cmd(pipeline: Path, out_dir: Path) -> None:
    """Write the pipeline's SQL to OUT/<pipeline>/ (one file per view, run.sql,
    manifest.json). Needs no Java and never starts Spark."""
    from clinker_sql.project import Project

    def body() -> None:
        project = Project(pipeline, out_dir)
        compiled = project.compile()
        _print_diagnostics(compiled.warnings)
        target = project.write(compiled)
        click.echo(f"Compiled {compiled.pipeline}: {len(compiled.statements)} statements "
                   f"-> {target}")
    _guard(body)


@cli.command("validate")
@_PIPELINE
def validate_cmd(pipeline: Path) -> None:
    """Load, type-check and compile the pipeline without running it (Clinker's --dry-run)."""
    from clinker_sql.project import Project

    def body() -> None:
        compiled = Project(pipeline).compile()
        _print_diagnostics(compiled.warnings)
        click.echo(f"{compiled.pipeline}: ok ({len(compiled.statements)} statements)")
    _guard(body)


@cli.command("run")
@_PIPELINE
@_OUT
@click.option("--quiet", "-q", is_flag=True, help="Print only the summary line.")
@click.option("--target", "target", default="local", show_default=True,
              help="Where to run: 'local' (embedded Spark).")
def run_cmd(pipeline: Path, out_dir: Path, quiet: bool, target: str) -> None:
    """Compile and run the pipeline on Spark; write its outputs and DLQ.

    Exit codes: 0 clean, 2 finished with DLQ entries, 1 invalid pipeline,
    3 evaluation failure under fail_fast, 4 I/O or source type failure."""
    from clinker_sql.project import Project

    if target != "local":
        _print_diagnostics([Diagnostic("CS001", f"target '{target}' is not supported yet; "
                                       "only 'local' is")])
        sys.exit(EXIT_CONFIG)

    def body() -> None:
        project = Project(pipeline, out_dir)

        def progress(stmt) -> None:
            if not quiet and stmt.kind == "write":
                click.echo(f"  writing {stmt.name}", err=True)
        result = project.run(progress=progress)
        click.echo(result.summary)
        sys.exit(result.exit_code)
    _guard(body)


@cli.command("explain")
@click.option("--code", "code", help="Explain one diagnostic code, e.g. E153.")
@click.option("--list", "list_codes", is_flag=True, help="List every diagnostic code.")
def explain_cmd(code: str | None, list_codes: bool) -> None:
    """Explain diagnostic codes."""
    if list_codes or not code:
        for info in CODES.values():
            click.echo(f"{info.code}  {info.summary}")
        return
    info = CODES.get(code.upper())
    if info is None:
        click.echo(f"unknown code {code}", err=True)
        sys.exit(EXIT_CONFIG)
    click.echo(f"{info.code}: {info.summary}")
    if info.hint:
        click.echo(f"hint: {info.hint}")
    click.echo(f"exit code: {info.exit_code}")


def main() -> None:
    cli(prog_name="clinker-sql")
