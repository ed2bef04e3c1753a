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
              help="Where to run: 'local' (embedded Spark), thrift://host:port[/database] "
                   "(a Spark Thrift server), or the name of a target in the profiles file.")
@click.option("--profiles-dir", type=click.Path(file_okay=False, path_type=Path),
              help="Folder of profiles.yml for named targets [default: ~/.clinker-sql].")
@click.option("--database", help="Thrift: the database to USE.")
@click.option("--user", help="Thrift: the user name [default: the login name].")
@click.option("--auth", type=click.Choice(["NONE", "NOSASL", "LDAP", "CUSTOM"],
                                          case_sensitive=False),
              help="Thrift: the server's hive.server2.authentication [default: NONE].")
@click.option("--password-env", metavar="VAR",
              help="Thrift: the environment variable holding the password (LDAP, CUSTOM).")
@click.option("--statement-timeout", type=float, metavar="SECONDS",
              help="Thrift: cancel a statement running longer than this [default: 3600].")
@click.option("--shared-filesystem/--no-shared-filesystem", default=None,
              help="Thrift: whether the server sees this machine's paths [default: only "
                   "when it runs on this machine].")
def run_cmd(pipeline: Path, out_dir: Path, quiet: bool, target: str,
            profiles_dir: Path | None, database: str | None, user: str | None,
            auth: str | None, password_env: str | None, statement_timeout: float | None,
            shared_filesystem: bool | None) -> None:
    """Compile and run the pipeline on Spark; write its outputs and DLQ.

    Exit codes: 0 clean, 2 finished with DLQ entries, 1 invalid pipeline,
    3 evaluation failure under fail_fast, 4 I/O or source type failure."""
    from clinker_sql.project import Project

    def body() -> None:
        thrift = _thrift_target(target, profiles_dir, database=database, user=user,
                                auth=auth, password_env=password_env,
                                statement_timeout=statement_timeout,
                                shared_filesystem=shared_filesystem)
        project = Project(pipeline, out_dir)

        def progress(stmt) -> None:
            if not quiet and stmt.kind == "write":
                click.echo(f"  writing {stmt.name}", err=True)
        result = project.run(progress=progress, thrift=thrift)
        click.echo(result.summary)
        sys.exit(result.exit_code)
    _guard(body)


def _thrift_target(target: str, profiles_dir: Path | None, **overrides):
    """None for the embedded local Spark, else the Thrift target with the command line's
    overrides applied. The password only ever comes from an environment variable."""
    from dataclasses import replace

    from clinker_sql.diagnostics import fail
    from clinker_sql.runtime.profiles import load_target, password_from_env
    from clinker_sql.runtime.thrift import parse_target_url

    given = {k: v for k, v in overrides.items() if v is not None}
    if target == "local":
        if given:
            raise fail("CS035", f"--{next(iter(given)).replace('_', '-')} applies to a Thrift "
                       "target, not to --target local")
        return None
    if target.startswith("thrift://"):
        thrift = parse_target_url(target)
    elif "://" in target:
        raise fail("CS035", f"unknown target scheme in '{target}'",
                   hint="use local, thrift://host:port, or a profile target name")
    else:
        thrift = load_target(target, profiles_dir)
    env = given.pop("password_env", None)
    if env:
        given["password"] = password_from_env(env)
    if "auth" in given:
        given["auth"] = given["auth"].upper()
    return replace(thrift, **given).validate()


@cli.group("thrift-server")
def thrift_server_cmd() -> None:
    """A local Spark Thrift server from the installed pyspark, for --target thrift://..."""


_STATE = click.option("--state-dir", type=click.Path(file_okay=False, path_type=Path),
                      help="Folder for the server's pid, log and warehouse "
                           "[default: ~/.clinker-sql/thrift-server].")


@thrift_server_cmd.command("start")
@_STATE
@click.option("--port", type=int, help="Port on 127.0.0.1 [default: a free one].")
@click.option("--timeout", type=float, default=180.0, show_default=True,
              help="Seconds to wait for the server to accept connections.")
def thrift_start_cmd(state_dir: Path | None, port: int | None, timeout: float) -> None:
    """Start the server (bound to 127.0.0.1, ANSI mode, the local run's session settings)
    and print its URL."""
    from clinker_sql.runtime import thrift_server

    def body() -> None:
        before, _ = thrift_server.status(state_dir)
        state = thrift_server.start(state_dir, port=port, timeout=timeout)
        verb = "already running" if before != "stopped" else "started"
        click.echo(f"Thrift server {verb}: {state.url} (pid {state.pid}, log {state.log})",
                   err=True)
        click.echo(state.url)
    _guard(body)


@thrift_server_cmd.command("stop")
@_STATE
def thrift_stop_cmd(state_dir: Path | None) -> None:
    """Stop the server started by `thrift-server start`."""
    from clinker_sql.runtime import thrift_server

    def body() -> None:
        state = thrift_server.stop(state_dir)
        click.echo("Thrift server stopped" if state else "no Thrift server is running")
    _guard(body)


@thrift_server_cmd.command("status")
@_STATE
def thrift_status_cmd(state_dir: Path | None) -> None:
    """Print running/starting/stopped and the URL; exit 0 only when it is running."""
    from clinker_sql.runtime import thrift_server

    def body() -> None:
        current, state = thrift_server.status(state_dir)
        if current == "stopped" or state is None:
            click.echo("stopped")
            sys.exit(3)
        click.echo(f"{current} {state.url} (pid {state.pid}, log {state.log})")
        sys.exit(0 if current == "running" else 3)
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
