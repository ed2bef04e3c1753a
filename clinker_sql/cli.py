"""Command line: a thin layer over `Project`. User mistakes print a coded
diagnostic and exit with Clinker's exit code; never a traceback."""

from __future__ import annotations

import importlib
import os
import sys
from pathlib import Path

import click

from clinker_sql import __version__
from clinker_sql.diagnostics import (
    EXIT_CONFIG,
    EXIT_INTERRUPTED,
    EXIT_USAGE,
    Diagnostic,
    DiagnosticError,
    fail,
)


def _print_diagnostics(diags: list[Diagnostic]) -> None:
    for d in diags:
        click.echo(d.render(), err=True)


def _json_diagnostics(diags: list[Diagnostic]) -> None:
    import json

    for d in diags:
        loc = d.location
        click.echo(json.dumps({"event": "diagnostic", "code": d.code, "message": d.message,
                               **({"file": loc.file, "line": loc.line, "column": loc.column}
                                  if loc is not None else {})}, ensure_ascii=False),
                   err=True)


def _guard(fn, json_log: bool = False):
    """Run a command body; diagnostics become messages and exit codes (`json_log`: one
    JSON object a line, `--log-format json`)."""
    try:
        return fn()
    except DiagnosticError as exc:
        if json_log:
            _json_diagnostics(exc.diagnostics)
        else:
            _print_diagnostics(exc.diagnostics)
        sys.exit(exc.exit_code)
    except KeyboardInterrupt:  # SIGINT, or SIGTERM (runtime/signals.py)
        click.echo("interrupted", err=True)
        sys.exit(EXIT_INTERRUPTED)
    except Exception as exc:  # noqa: BLE001 - a bug in clinker-sql, not a user mistake
        if os.environ.get("CLINKER_SQL_DEBUG"):
            raise
        click.echo(f"error[CS999]: internal error in clinker-sql: {type(exc).__name__}: {exc}\n"
                   "  = hint: this is a bug; rerun with CLINKER_SQL_DEBUG=1 for the traceback "
                   "and report it", err=True)
        sys.exit(EXIT_CONFIG)


_PIPELINE = click.argument("pipeline", type=click.Path(dir_okay=False, path_type=Path))
# compile, validate and run also take a workspace folder (cli_workspace.py)
_PIPELINES = click.argument("pipeline", metavar="PIPELINE|FOLDER",
                            type=click.Path(path_type=Path))
_SELECT = click.option("--select", "-s", "select", multiple=True, metavar="NAME|GLOB",
                       help="With a workspace FOLDER: only the pipelines whose name, "
                            "catalog id, file stem or path matches (repeatable; default: "
                            "all of them). They run in dependency order.")
_OUT = click.option("--out", "out_dir", default="target", show_default=True,
                    type=click.Path(file_okay=False, path_type=Path),
                    help="Folder for the compiled SQL, manifest.json and run_results.json.")
_ABSOLUTE = click.option("--allow-absolute-paths", "allow_absolute", is_flag=True,
                         help="Permit absolute paths in the pipeline (refused with E-SEC-001 "
                              "otherwise), as does CLINKER_ALLOW_ABSOLUTE_PATHS set to any "
                              "value.")


_RULES_PATH = click.option("--rules-path", "rules_path", metavar="DIR",
                           help="The folder CXL modules (`use a.b`) are found under, "
                                "relative to the pipeline's folder [default: "
                                "pipeline.rules_path, else clinker.toml's [catalog] "
                                "rules_root, else rules/].")
_VARS = click.option("--var", "variables", multiple=True, metavar="NAME=VALUE",
                     help="Give a var of pipeline.vars this value instead of its default, "
                          "read as its declared type (repeatable).")


_LAYER = (
    _RULES_PATH,
    _VARS,
    click.option("--base-dir", type=click.Path(file_okay=False, path_type=Path),
                 help="The workspace folder (its clinker.toml, channel/ and group/) "
                      "[default: the pipeline file's folder]."),
    click.option("--channel", metavar="ID",
                 help="Apply the channel's overlays (channel/ID/channel.cfg.yaml and the "
                      "pipeline's per-target overlay)."),
    click.option("--group", "groups", metavar="NAME", multiple=True,
                 help="Apply the group's overlay (group/NAME.group.yaml); repeatable."),
)


def _layer(fn):
    for option in reversed(_LAYER):
        fn = option(fn)
    return fn


def _project(pipeline: Path, allow_absolute: bool, out_dir: Path | None = None,
             layer: dict | None = None):
    """The Project of a command: absolute paths allowed by the flag or by Clinker's
    environment variable; `layer`: --rules-path, --var, --base-dir, --channel and --group."""
    from clinker_sql.config.checks import absolute_paths_allowed
    from clinker_sql.project import Project

    layer = layer or {}
    return Project(pipeline, out_dir or Path("target"),
                   allow_absolute_paths=absolute_paths_allowed(allow_absolute, os.environ),
                   base_dir=layer.get("base_dir"), channel=layer.get("channel"),
                   groups=tuple(layer.get("groups") or ()),
                   rules_path=layer.get("rules_path"),
                   vars=tuple(layer.get("variables") or ()))


def _workspace(folder: Path, select: tuple[str, ...], allow_absolute: bool,
               out_dir: Path | None, layer: dict):
    """The workspace of a command given a FOLDER (None for a pipeline file)."""

    if not folder.is_dir():
        if select:
            raise fail("CS081", "--select picks pipelines of a workspace: give its folder, "
                       f"not the pipeline file {folder}")
        return None
    from clinker_sql.cli_workspace import workspace

    if layer.get("base_dir") is not None:
        raise fail("CS080", f"{folder} is a workspace folder: --base-dir does not apply")
    shared = {**layer, "base_dir": folder, "variables": ()}
    return workspace(folder, out_dir or Path("target"), select,
                     lambda file: _project(file, allow_absolute, out_dir, shared),
                     tuple(layer.get("variables") or ()))


class _Cli(click.Group):
    """Click's group, but a command line that does not parse exits EXIT_USAGE (64), not
    click's 2, which is the exit code of a run that finished with DLQ entries."""

    def main(self, args=None, prog_name=None, complete_var=None, standalone_mode=True,
             **extra):
        if not standalone_mode:
            return super().main(args, prog_name, complete_var, False, **extra)
        try:
            rv = super().main(args, prog_name, complete_var, False, **extra)
        except click.UsageError as exc:
            exc.show()
            sys.exit(EXIT_USAGE)
        except click.ClickException as exc:
            exc.show()
            sys.exit(exc.exit_code)
        except click.Abort:  # Ctrl-C while click itself was reading
            click.echo("interrupted", err=True)
            sys.exit(EXIT_INTERRUPTED)
        sys.exit(rv if isinstance(rv, int) else 0)


@click.group(cls=_Cli, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="clinker-sql")
def cli() -> None:
    """Compile Clinker pipelines into Spark SQL and run them with Clinker's semantics."""


@cli.command("compile")
@_PIPELINES
@_SELECT
@_OUT
@_ABSOLUTE
@click.option("--check", is_flag=True,
              help="Write nothing; exit 1 (CS040) and print a diff when the files in "
                   "OUT/<pipeline>/ differ from what the pipeline compiles to (for CI of "
                   "repositories that commit their compiled SQL).")
@_layer
def compile_cmd(pipeline: Path, select: tuple[str, ...], out_dir: Path, check: bool,
                allow_absolute: bool, **layer) -> None:
    """Write the pipeline's SQL to OUT/<pipeline>/: nodes/ (each node's logic), engine/
    (the rest, numbered in run order), run.sql, manifest.json and a README.md that maps
    them. Given a workspace FOLDER, every pipeline in it (or those --select picks), and
    OUT/manifest.json listing them. Needs no Java and never starts Spark."""

    def body() -> None:
        ws = _workspace(pipeline, select, allow_absolute, out_dir, layer)
        if ws is not None:
            from clinker_sql.cli_workspace import compile_workspace

            sys.exit(compile_workspace(ws, _check_target if check else None))
        project = _project(pipeline, allow_absolute, out_dir, layer)
        _print_overlay(project)
        compiled = project.compile()
        _print_diagnostics(compiled.warnings)
        if check:
            _check_target(project, compiled)
            return
        target = project.write(compiled)
        click.echo(f"Compiled {compiled.pipeline}: {len(compiled.statements)} statements "
                   f"-> {target}")
    _guard(body)


def _print_overlay(project) -> None:
    summary = project.overlay_summary()
    if summary is not None:
        click.echo(f"clinker-sql: applied overlay \u2014 {summary}", err=True)


def _check_target(project, compiled) -> None:
    from clinker_sql.inspect.check import check_target

    target = project.target_dir(compiled)
    result = check_target(compiled, target)
    if result.stale:
        click.echo(result.diff, nl=False)
        raise fail("CS040", f"{target} is stale: {result.summary()}")
    click.echo(f"{target}: up to date")


@cli.command("validate")
@_PIPELINES
@_SELECT
@_ABSOLUTE
@_layer
def validate_cmd(pipeline: Path, select: tuple[str, ...], allow_absolute: bool,
                 **layer) -> None:
    """Check the pipeline without running it (Clinker's --dry-run): load it, bind the
    schemas, type-check every CXL expression, compile, and check every statement with
    sqlglot (it parses, and every column resolves). Given a workspace FOLDER, every
    pipeline in it (or those --select picks). Needs no Java and no data files.

    Exit codes: 0 valid, 1 invalid."""
    from clinker_sql.inspect.sqlcheck import check_statements

    def body() -> None:
        ws = _workspace(pipeline, select, allow_absolute, None, layer)
        if ws is not None:
            from clinker_sql.cli_workspace import validate_workspace

            sys.exit(validate_workspace(ws))
        project = _project(pipeline, allow_absolute, layer=layer)
        model = project.load()
        compiled = project.compile(model)
        _print_diagnostics(compiled.warnings)
        report = check_statements(model, compiled)
        click.echo(f"{compiled.pipeline}: ok ({len(compiled.statements)} statements, "
                   f"{report.checked} checked with sqlglot, every column resolves)")
    _guard(body)


@cli.command("run")
@_PIPELINES
@_SELECT
@_OUT
@_ABSOLUTE
@click.option("--quiet", "-q", is_flag=True,
              help="Print only the summary line (no progress display).")
@click.option("--log-format", "log_format", type=click.Choice(["text", "json"]),
              default="text", show_default=True,
              help="json: the progress, the diagnostics and the summary as one JSON object "
                   "a line (for log collectors). Every run also writes its events to "
                   "OUT/<pipeline>/run.log.")
@click.option("--explain", "explain", is_flag=False, flag_value="text", default=None,
              type=click.Choice(["text", "json", "dot", "mermaid"]),
              help="Print the plan (as `clinker-sql explain PIPELINE`) and exit without "
                   "running; FORMAT is text (default), json, dot or mermaid.")
@click.option("--dry-run", "dry_run", is_flag=True,
              help="Check the pipeline without processing data (as `validate`); with -n, "
                   "a preview instead: run it on each source's first N records and print "
                   "its outputs, writing nothing.")
@click.option("-n", "--dry-run-n", "dry_run_n", type=click.IntRange(min=1), metavar="N",
              help="With --dry-run: read only the first N records of each source and print "
                   "every output to standard output (no file, no DLQ written).")
@click.option("--dry-run-output", "dry_run_output", type=click.Path(dir_okay=False,
                                                                     path_type=Path),
              help="With -n: write the preview to this file instead of standard output.")
@click.option("--target", "target", default="local", show_default=True,
              help="Where to run: 'local' (embedded Spark), thrift://host:port[/database] "
                   "(a Spark Thrift server), sc://host:port[/;token=...;use_ssl=true;"
                   "user_id=...] (a Spark Connect server), or the name of a target in the "
                   "profiles file.")
@click.option("--profiles-dir", type=click.Path(file_okay=False, path_type=Path),
              help="Folder of profiles.yml for named targets [default: ~/.clinker-sql].")
@click.option("--profile", "profile", metavar="NAME",
              help="The profile of a profiles.yml in dbt's shape (profile -> target -> "
                   "outputs) [default: its only profile]; --target default picks the "
                   "profile's own target.")
@click.option("--database", help="Thrift: the database to USE.")
@click.option("--user", help="Thrift: the user name [default: the login name]; Spark "
                             "Connect: its user_id.")
@click.option("--auth", type=click.Choice(["NONE", "NOSASL", "LDAP", "CUSTOM"],
                                          case_sensitive=False),
              help="Thrift: the server's hive.server2.authentication [default: NONE].")
@click.option("--password-env", metavar="VAR",
              help="Thrift: the environment variable holding the password (LDAP, CUSTOM).")
@click.option("--statement-timeout", type=float, metavar="SECONDS",
              help="Thrift, Spark Connect: cancel a statement running longer than this "
                   "[default: 3600].")
@click.option("--shared-filesystem/--no-shared-filesystem", default=None,
              help="Thrift, Spark Connect: whether the server sees this machine's paths "
                   "[default: only when it runs on this machine].")
@_layer
def run_cmd(pipeline: Path, select: tuple[str, ...], out_dir: Path, quiet: bool,
            log_format: str, explain: str | None, dry_run: bool, dry_run_n: int | None,
            dry_run_output: Path | None, target: str,
            profiles_dir: Path | None, profile: str | None, database: str | None, user: str | None,
            auth: str | None, password_env: str | None, statement_timeout: float | None,
            shared_filesystem: bool | None, allow_absolute: bool, **layer) -> None:
    """Compile and run the pipeline on Spark; write its outputs and DLQ. Given a workspace
    FOLDER, every pipeline in it (or those --select picks), in dependency order: a
    pipeline runs after those whose outputs it reads, and is skipped if one fails.

    Shows which node is executing and how long each took (live on a terminal, plain
    lines otherwise, nothing with --quiet).

    Exit codes: 0 clean, 2 finished with DLQ entries, 1 invalid pipeline,
    3 evaluation failure under fail_fast, 4 I/O or source type failure,
    130 interrupted (SIGINT or SIGTERM), 64 a command line that does not parse."""

    if dry_run_n is not None and not dry_run:
        raise click.UsageError("-n/--dry-run-n requires --dry-run")
    if dry_run_output is not None and dry_run_n is None:
        raise click.UsageError("--dry-run-output requires -n/--dry-run-n")
    if dry_run and explain is not None:
        raise click.UsageError("--dry-run cannot be used with --explain")

    def body() -> None:
        if dry_run:
            _dry_run(pipeline, select, allow_absolute, layer, dry_run_n, dry_run_output,
                     quiet, log_format)
            return
        if explain is not None:
            if pipeline.is_dir():
                raise fail("CS081", "--explain prints one pipeline's plan: give its file, "
                           f"not the workspace folder {pipeline}")
            click.echo(_plan_text(_project(pipeline, allow_absolute, out_dir, layer),
                                  explain), nl=False)
            return
        remote = _remote_target(target, profiles_dir, profile, database=database, user=user,
                                auth=auth, password_env=password_env,
                                statement_timeout=statement_timeout,
                                shared_filesystem=shared_filesystem)
        ws = _workspace(pipeline, select, allow_absolute, out_dir, layer)
        if ws is not None:
            from clinker_sql.cli_workspace import run_workspace

            sys.exit(run_workspace(ws, remote, quiet, log_format))
        project = _project(pipeline, allow_absolute, out_dir, layer)
        if log_format == "text":
            _print_overlay(project)

        from clinker_sql.runtime.progress import RunProgress, choose_mode

        stream = sys.stderr
        progress = RunProgress(stream, "json" if log_format == "json" else
                               choose_mode(stream, quiet))
        try:
            result = project.run(progress=progress, remote=remote)
        except BaseException:
            progress.close(failed=True)
            raise
        progress.close()
        click.echo(_summary(result, log_format))
        sys.exit(result.exit_code)
    _guard(body, json_log=log_format == "json")


def _dry_run(pipeline: Path, select: tuple[str, ...], allow_absolute: bool, layer: dict,
             rows: int | None, output: Path | None, quiet: bool, log_format: str) -> None:
    """`run --dry-run`: Clinker's config-only check (as `validate`); with `-n N` its
    preview (Project.preview): the outputs of a run over each source's first N records,
    printed to standard output (or `output`), nothing written; the summary goes to
    standard error, as Clinker moves its log lines there when standard output carries
    the preview."""
    if rows is None:
        validate_cmd.callback(pipeline=pipeline, select=select,
                              allow_absolute=allow_absolute, **layer)
        return
    if pipeline.is_dir():
        raise fail("CS081", "--dry-run -n previews one pipeline: give its file, not the "
                   f"workspace folder {pipeline}")
    from clinker_sql.runtime.progress import RunProgress, choose_mode

    project = _project(pipeline, allow_absolute, layer=layer)
    progress = RunProgress(sys.stderr, "json" if log_format == "json" else
                           choose_mode(sys.stderr, quiet))
    try:
        if output is None:
            result = project.preview(rows, sys.stdout, progress=progress)
        else:
            with open(output, "w", encoding="utf-8", newline="") as stream:
                result = project.preview(rows, stream, progress=progress)
    except BaseException:
        progress.close(failed=True)
        raise
    progress.close()
    click.echo(_summary(result, log_format), err=True)
    sys.exit(result.exit_code)


def _summary(result, log_format: str) -> str:
    """The run's last line: Clinker's summary, or a JSON object with its counts."""
    if log_format != "json":
        return result.summary
    import json

    return json.dumps({"event": "run_finished", "summary": result.summary,
                       "exit_code": result.exit_code, "counts": result.counts})


def _remote_target(target: str, profiles_dir: Path | None, profile: str | None = None,
                   **overrides):
    """None for the embedded local Spark, else the remote target (Thrift or Spark
    Connect) with the command line's overrides applied. A password only ever comes from an
    environment variable."""
    from dataclasses import replace

    from clinker_sql.runtime.connect import ConnectTarget, parse_connect_url
    from clinker_sql.runtime.profiles import load_target, password_from_env
    from clinker_sql.runtime.thrift import parse_target_url

    given = {k: v for k, v in overrides.items() if v is not None}
    if target == "local":
        if profile is not None:
            raise fail("CS035", "--profile names the profile of a named target, not of "
                       "--target local")
        if given:
            raise fail("CS035", f"--{next(iter(given)).replace('_', '-')} applies to a Thrift "
                       "or Spark Connect target, not to --target local")
        return None
    if target.startswith("thrift://"):
        remote = parse_target_url(target)
    elif target.startswith("sc://"):
        remote = parse_connect_url(target)
    elif "://" in target:
        raise fail("CS035", f"unknown target scheme in '{target.split('://')[0]}://...'",
                   hint="use local, thrift://host:port, sc://host:port, or a profile target "
                        "name")
    else:
        remote = load_target(target, profiles_dir, profile)
    if isinstance(remote, ConnectTarget):
        thrift_only = [k for k in ("database", "auth", "password_env") if k in given]
        if thrift_only:
            raise fail("CS035", f"--{thrift_only[0].replace('_', '-')} applies to a Thrift "
                       f"target, not to the Spark Connect target {remote.url}",
                       hint="a Spark Connect token goes into the URL (token=...), the "
                            "profile (token_env:) or SPARK_CONNECT_AUTHENTICATE_TOKEN")
        return replace(remote, **given).validate()
    env = given.pop("password_env", None)
    if env:
        given["password"] = password_from_env(env)
    if "auth" in given:
        given["auth"] = given["auth"].upper()
    return replace(remote, **given).validate()


def _server_commands(group: str, module: str, title: str, url: str) -> None:
    """`clinker-sql <group> start|stop|status`: a local server from the installed pyspark
    (runtime/<module>.py), `title` in messages, `url` the targets it serves."""
    def server():
        return importlib.import_module(f"clinker_sql.runtime.{module}")

    @cli.group(group, help=f"A local {title} from the installed pyspark, for --target "
                           f"{url}")
    def commands() -> None:
        pass

    state_option = click.option(
        "--state-dir", type=click.Path(file_okay=False, path_type=Path),
        help=f"Folder for the server's pid, log and warehouse [default: ~/.clinker-sql/{group}].")

    @commands.command("start")
    @state_option
    @click.option("--port", type=int, help="Port on 127.0.0.1 [default: a free one].")
    @click.option("--timeout", type=float, default=180.0, show_default=True,
                  help="Seconds to wait for the server to accept connections.")
    def start_cmd(state_dir: Path | None, port: int | None, timeout: float) -> None:
        """Start the server (bound to 127.0.0.1, ANSI mode, the local run's session
        settings) and print its URL."""
        def body() -> None:
            before, _ = server().status(state_dir)
            state = server().start(state_dir, port=port, timeout=timeout)
            verb = "already running" if before != "stopped" else "started"
            click.echo(f"{title} {verb}: {state.url} (pid {state.pid}, log {state.log})",
                       err=True)
            click.echo(state.url)
        _guard(body)

    @commands.command("stop", help=f"Stop the server started by `{group} start`.")
    @state_option
    def stop_cmd(state_dir: Path | None) -> None:
        def body() -> None:
            state = server().stop(state_dir)
            click.echo(f"{title} stopped" if state else f"no {title} is running")
        _guard(body)

    @commands.command("status")
    @state_option
    def status_cmd(state_dir: Path | None) -> None:
        """Print running/starting/stopped and the URL; exit 0 only when it is running."""
        def body() -> None:
            current, state = server().status(state_dir)
            if current == "stopped" or state is None:
                click.echo("stopped")
                sys.exit(3)
            click.echo(f"{current} {state.url} (pid {state.pid}, log {state.log})")
            sys.exit(0 if current == "running" else 3)
        _guard(body)


_server_commands("thrift-server", "thrift_server", "Thrift server", "thrift://...")
_server_commands("connect-server", "connect_server", "Spark Connect server", "sc://...")


@cli.command("init")
@click.argument("folder", default=".", type=click.Path(file_okay=False, path_type=Path))
def init_cmd(folder: Path) -> None:
    """Write a small working workspace into FOLDER (default: here): clinker.toml, a
    pipeline with its data, a composition, a channel and a README. `clinker-sql run
    FOLDER` then runs it. Nothing is overwritten."""
    from clinker_sql.scaffold import init_workspace

    def body() -> None:
        written = init_workspace(folder)
        click.echo(f"Wrote {len(written)} files to {folder}:")
        for rel in written:
            click.echo(f"  {rel}")
        click.echo(f"Next: clinker-sql run {folder}")
    _guard(body)


@cli.command("explain")
@click.argument("pipeline", required=False, type=click.Path(dir_okay=False, path_type=Path))
@click.option("--code", "code", help="Explain one diagnostic code, e.g. E153: what it means, "
              "a wrong example and the fix.")
@click.option("--list", "list_codes", is_flag=True, help="List every diagnostic code.")
@click.option("--format", "fmt", type=click.Choice(["text", "json", "dot", "mermaid"]),
              default="text", show_default=True,
              help="How to print the plan of PIPELINE: text, JSON, Graphviz DOT or Mermaid.")
@_ABSOLUTE
@_layer
def explain_cmd(pipeline: Path | None, code: str | None, list_codes: bool, fmt: str,
                allow_absolute: bool, **layer) -> None:
    """Print the plan of PIPELINE (nodes, schemas, strategies, the correlation lattice,
    which views feed the DLQ, the retraction decisions), or explain diagnostic codes
    (--code, --list). Needs no Java and never starts Spark."""
    from clinker_sql.inspect import codes

    def body() -> None:
        if code:
            click.echo(codes.render(codes.explanation(code.strip())), nl=False)
        elif list_codes or pipeline is None:
            click.echo(codes.listing(), nl=False)
        else:
            click.echo(_plan_text(_project(pipeline, allow_absolute, layer=layer), fmt),
                       nl=False)
    _guard(body)


def _plan_text(project, fmt: str) -> str:
    from clinker_sql.inspect import graph
    from clinker_sql.inspect.plan import build_plan, render_json, render_text

    model = project.load()
    compiled = project.compile(model)
    _print_diagnostics(compiled.warnings)
    plan = build_plan(model, compiled)
    render = {"text": render_text, "json": render_json, "dot": graph.render_dot,
              "mermaid": graph.render_mermaid}[fmt]
    return render(plan)


@cli.command("lineage")
@_PIPELINE
@click.argument("column", metavar="NODE.COLUMN")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text",
              show_default=True, help="A tree (text) or nested JSON.")
@_ABSOLUTE
@_layer
def lineage_cmd(pipeline: Path, column: str, fmt: str, allow_absolute: bool,
                **layer) -> None:
    """Walk NODE.COLUMN (usually sink.column) back to the source columns it comes from:
    at each node the CXL that computes it and the input columns it reads."""
    from clinker_sql.codegen.lineage import render_trace, trace

    def body() -> None:
        compiled = _project(pipeline, allow_absolute, layer=layer).compile()
        _print_diagnostics(compiled.warnings)
        t = trace(compiled.lineage, column)
        if fmt == "json":
            import json

            click.echo(json.dumps(t.to_json(), indent=2, ensure_ascii=False))
        else:
            click.echo(render_trace(t), nl=False)
    _guard(body)


@cli.command("docs")
@_PIPELINE
@_OUT
@click.option("--output", "-o", "output", type=click.Path(dir_okay=False, path_type=Path),
              help="The HTML file to write [default: OUT/<pipeline>/docs.html].")
@_ABSOLUTE
@_layer
def docs_cmd(pipeline: Path, out_dir: Path, output: Path | None, allow_absolute: bool,
             **layer) -> None:
    """Write a static HTML page (no server needed, works offline): the DAG, each node's
    CXL beside its SQL, the columns and their lineage, and the DLQ paths."""
    from clinker_sql.inspect.docs import write_page

    def body() -> None:
        project = _project(pipeline, allow_absolute, out_dir, layer)
        model = project.load()
        compiled = project.compile(model)
        _print_diagnostics(compiled.warnings)
        path = output or project.target_dir(compiled) / "docs.html"
        try:
            write_page(model, compiled, path)
        except OSError as exc:
            raise fail("CS103", f"cannot write {path}: {exc.strerror}") from None
        click.echo(f"Wrote {path}")
    _guard(body)


def main() -> None:
    from clinker_sql.runtime import signals

    signals.install()  # SIGTERM unwinds as Ctrl-C does: cleaned up, exit 130
    cli(prog_name="clinker-sql")
