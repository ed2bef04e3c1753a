"""Path security (Clinker's security::validate_path, E-SEC-001): every path of a pipeline
(source, sink, DLQ, external schema file) is refused when it climbs out with `..` (or an
encoded one, or holds a NUL byte), and when it is absolute or leads out of the folder
through a symlink, unless absolute paths are allowed: `--allow-absolute-paths` on every
command that loads a pipeline, or CLINKER_ALLOW_ABSOLUTE_PATHS set to any value. A source
that is a FIFO or a device is CS108, never a hang. Nothing here starts Spark."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from click.testing import CliRunner

from clinker_sql.cli import cli
from clinker_sql.config.parse import load_pipeline
from clinker_sql.diagnostics import DiagnosticError
from clinker_sql.project import Project

SECRET = "hunter2-path-security-probe"
ENV = "CLINKER_ALLOW_ABSOLUTE_PATHS"

PIPELINE = """
pipeline:
  name: paths
error_handling:
  strategy: continue
  dlq:
    path: DLQ
nodes:
  - type: source
    name: src
    config:
      name: src
      type: csv
      path: SOURCE
      schema: SCHEMA
  - type: sink
    name: out
    input: src
    config:
      name: out
      type: csv
      path: SINK
"""
COLUMNS = "[{ name: id, type: string }]"


def write(folder: Path, source: str = "./in.csv", sink: str = "./out/o.csv",
          dlq: str = "./out/dlq.csv", schema: str = COLUMNS) -> Path:
    (folder / "out").mkdir(exist_ok=True)
    (folder / "in.csv").write_text("id\n1\n", encoding="utf-8")
    text = (PIPELINE.replace("DLQ", dlq).replace("SOURCE", source).replace("SINK", sink)
            .replace("SCHEMA", schema))
    path = folder / "pipeline.yaml"
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return path


@pytest.fixture
def folder(tmp_path, monkeypatch):
    """The test's folder as the working folder (relative paths resolve there), with no
    permission for absolute paths inherited from the environment."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv(ENV, raising=False)
    return tmp_path


def cli_run(*args: str, env: dict[str, str] | None = None):
    return CliRunner().invoke(cli, list(args), env=env)


def refused(result, needle: str) -> None:
    assert result.exit_code == 1, result.output
    assert "error[E-SEC-001]" in result.output, result.output
    assert needle in result.output, result.output
    assert "  --> " in result.output  # a location in the pipeline file
    assert "Traceback" not in result.output and "CS999" not in result.output


def absolute_cases(folder: Path) -> dict[str, Path]:
    """One pipeline per kind of path, each naming an absolute file that exists."""
    (folder / "cols.schema.yaml").write_text("- { name: id, type: string }\n",
                                             encoding="utf-8")
    sub = {name: folder / name for name in ("source", "sink", "dlq", "schema")}
    for case in sub.values():
        case.mkdir()
        (case / "out").mkdir()
    return {
        "source": write(sub["source"], source=str(folder / "in.csv")),
        "sink": write(sub["sink"], sink=str(folder / "out" / "o.csv")),
        "dlq": write(sub["dlq"], dlq=str(folder / "out" / "dlq.csv")),
        "schema": write(sub["schema"], schema=str(folder / "cols.schema.yaml")),
    }


KINDS = ("source", "sink", "dlq", "schema")


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("command", ["validate", "compile"])
def test_absolute_paths_are_refused_by_default(folder, kind, command):
    pipeline = absolute_cases(folder)[kind]
    result = cli_run(command, str(pipeline), *(["--out", str(folder / "t")]
                                               if command == "compile" else []))
    refused(result, "absolute")
    assert "--allow-absolute-paths" in result.output  # the hint names the way out
    assert not (folder / "t").exists()  # compile wrote nothing


@pytest.mark.parametrize("kind", KINDS)
def test_the_flag_allows_absolute_paths(folder, kind):
    pipeline = absolute_cases(folder)[kind]
    result = cli_run("validate", str(pipeline), "--allow-absolute-paths")
    assert result.exit_code == 0, result.output
    out = folder / "t"
    result = cli_run("compile", str(pipeline), "--out", str(out), "--allow-absolute-paths")
    assert result.exit_code == 0, result.output
    assert (out / "paths" / "run.sql").is_file()


@pytest.mark.parametrize("value", ["1", "", "0"])
def test_the_environment_variable_set_to_anything_allows_them(folder, value):
    """Clinker reads `env::var(..).is_ok()`: any value, even an empty one, allows."""
    for pipeline in absolute_cases(folder).values():
        result = cli_run("validate", str(pipeline), env={ENV: value})
        assert result.exit_code == 0, result.output


@pytest.mark.parametrize("args", [
    ["validate"], ["compile", "--out", "t"], ["run", "--explain"], ["explain"],
    ["lineage", "COLUMN"], ["docs", "--out", "t"]])
def test_every_command_that_loads_a_pipeline_checks_and_takes_the_flag(folder, args):
    pipeline = str(absolute_cases(folder)["source"])
    command, rest = args[0], [pipeline if a == "COLUMN" else a for a in args[1:]]
    rest = ["out.id" if a == pipeline else a for a in rest]
    refused(cli_run(command, pipeline, *rest), "absolute")
    allowed = cli_run(command, pipeline, *rest, "--allow-absolute-paths")
    assert allowed.exit_code == 0, allowed.output


def test_the_python_api_refuses_unless_told(folder):
    pipeline = absolute_cases(folder)["sink"]
    with pytest.raises(DiagnosticError) as info:
        Project(pipeline).compile()
    assert info.value.diagnostics[0].code == "E-SEC-001"
    assert Project(pipeline, allow_absolute_paths=True).compile().statements
    assert load_pipeline(pipeline, allow_absolute_paths=True).allow_absolute_paths


@pytest.mark.parametrize("dlq,why", [
    ("./out/../dlq.csv", "directory traversal (..)"),
    ("'./out/%2E%2e/dlq.csv'", "encoded directory traversal"),
    ('"./out/dlq\\0.csv"', "null byte"),
    ("file:/tmp/dlq.csv", "absolute"),
])
def test_the_dlq_path_goes_through_the_same_checks(folder, dlq, why):
    pipeline = write(folder, dlq=dlq)
    refused(cli_run("validate", str(pipeline)), why)
    refused(cli_run("validate", str(pipeline), "--allow-absolute-paths"), why) \
        if why != "absolute" else None


@pytest.mark.parametrize("field", ["source", "sink"])
def test_dot_dot_is_refused_even_when_absolute_paths_are_allowed(folder, field):
    pipeline = write(folder, **{field: "./out/../in.csv"})
    refused(cli_run("validate", str(pipeline), "--allow-absolute-paths"), "(..)")


def test_a_uri_is_an_absolute_path(folder):
    """Spark reads `file:/x` wherever it points: refused as an absolute path is."""
    refused(cli_run("validate", str(write(folder, source=f"file:{folder}/in.csv"))),
            "absolute")


def subprocess_cli(folder: Path, *args: str) -> subprocess.CompletedProcess:
    """The CLI in a process of its own whose environment (its /proc/self/environ) holds a
    password; with no permission for absolute paths inherited."""
    env = {k: v for k, v in os.environ.items() if k != ENV}
    env["PATH_SECURITY_PASSWORD"] = SECRET
    return subprocess.run([sys.executable, "-m", "clinker_sql", *args], cwd=folder, env=env,
                          capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize("command", ["validate", "compile"])
@pytest.mark.parametrize("source", ["/proc/self/environ", "./data/env.csv"])
def test_proc_self_environ_never_reaches_an_output_or_a_message(folder, command, source):
    """Named directly, or through a symlink in the folder (which leads out of it)."""
    (folder / "data").mkdir()
    (folder / "data" / "env.csv").symlink_to("/proc/self/environ")
    pipeline = write(folder, source=source)
    proc = subprocess_cli(folder, command, str(pipeline),
                          *(["--out", "t"] if command == "compile" else []))
    assert proc.returncode == 1, proc.stderr
    assert "error[E-SEC-001]" in proc.stderr and "  --> " in proc.stderr
    assert ("absolute" if source.startswith("/") else "symlink") in proc.stderr
    assert SECRET not in proc.stdout + proc.stderr
    assert not (folder / "t").exists()
    written = [p for p in folder.rglob("*") if p.is_file() and not p.is_symlink()]
    assert not any(SECRET.encode() in p.read_bytes() for p in written)


def test_proc_self_environ_read_when_allowed_is_only_quoted_text(folder):
    """Allowed explicitly, the file's first line is a column name: in the statements it
    is only a quoted identifier or a string literal, in the comments only escaped text,
    and it is in no message."""
    import sqlglot
    from sqlglot.tokens import TokenType

    pipeline = write(folder, source="/proc/self/environ")
    proc = subprocess_cli(folder, "compile", str(pipeline), "--out", "t",
                          "--allow-absolute-paths")
    assert proc.returncode == 0, proc.stderr
    assert SECRET not in proc.stdout + proc.stderr
    seen = 0
    for sql in sorted((folder / "t" / "paths").rglob("*.sql")):
        text = sql.read_text(encoding="utf-8")
        body = "\n".join(line for line in text.splitlines() if not line.startswith("--"))
        for token in sqlglot.tokenize(body, read="spark"):
            if SECRET in token.text:
                seen += 1
                assert token.token_type in (TokenType.IDENTIFIER, TokenType.STRING), (sql, token)
        for line in text.splitlines():
            if line.startswith("--") and SECRET in line:  # a header naming the column
                assert "\0" not in line and "\\u{0000}" in line, line  # escaped
    assert seen  # the test reads what it means to


def test_a_fifo_source_is_cs108_not_a_hang(folder):
    os.mkfifo(folder / "pipe.csv")
    result = cli_run("validate", str(write(folder, source="./pipe.csv")))
    assert result.exit_code == 1, result.output
    assert "error[CS108]" in result.output and "pipe.csv" in result.output


def test_a_device_source_is_cs108_when_absolute_paths_are_allowed(folder):
    result = cli_run("compile", str(write(folder, source="/dev/zero")), "--out", "t",
                     "--allow-absolute-paths")
    assert result.exit_code == 1, result.output
    assert "error[CS108]" in result.output


def test_a_fifo_schema_file_is_cs108(folder):
    os.mkfifo(folder / "cols.schema.yaml")
    result = cli_run("validate", str(write(folder, schema="./cols.schema.yaml")))
    assert result.exit_code == 1, result.output
    assert "error[CS108]" in result.output and "schema file" in result.output


def test_header_names_reach_the_compiled_comments_only_as_quoted_identifiers(folder):
    """An undeclared column's name is read from the file: the split view's comment names
    it as a quoted identifier, so no name can read as SQL beside it."""
    pipeline = write(folder)
    (folder / "in.csv").write_text('id,"x -- y; DROP TABLE t"\n1,2\n', encoding="utf-8")
    result = cli_run("compile", str(pipeline), "--out", "t")
    assert result.exit_code == 0, result.output
    split = next((folder / "t" / "paths" / "engine").glob("*_src.split.sql")).read_text()
    comment = split.splitlines()[0]
    assert comment.startswith("--") and "`x -- y; DROP TABLE t`" in comment


def test_a_schema_file_through_a_symlink_out_of_the_folder_is_refused_unless_allowed(
        folder, tmp_path_factory):
    outside = tmp_path_factory.mktemp("elsewhere") / "cols.schema.yaml"
    outside.write_text("- { name: id, type: string }\n", encoding="utf-8")
    (folder / "cols.schema.yaml").symlink_to(outside)
    pipeline = str(write(folder, schema="./cols.schema.yaml"))
    refused(cli_run("validate", pipeline), "symlink")
    assert cli_run("validate", pipeline, "--allow-absolute-paths").exit_code == 0


def test_rules_path_is_checked_as_clinker_checks_it(folder):
    pipeline = write(folder)
    text = pipeline.read_text(encoding="utf-8").replace(
        "  name: paths\n", "  name: paths\n  rules_path: /etc/rules\n", 1)
    pipeline.write_text(text, encoding="utf-8")
    refused(cli_run("validate", str(pipeline)), "pipeline.rules_path")
    assert cli_run("validate", str(pipeline), "--allow-absolute-paths").exit_code == 0
