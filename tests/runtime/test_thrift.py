"""Running on a Spark Thrift server: the same outputs as a local run, coded errors,
nothing half-written, one session per run.

The server tests share one local Thrift server (conftest.py), started from the
installed pyspark as `clinker-sql thrift-server start` does.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from clinker_sql.cli import cli
from clinker_sql.diagnostics import DiagnosticError
from clinker_sql.project import Project
from clinker_sql.runtime import thrift_server
from clinker_sql.runtime.executor import StatementFailed
from clinker_sql.runtime.profiles import load_target
from clinker_sql.runtime.thrift import (
    ThriftExecutor,
    ThriftTarget,
    absolutize,
    is_loopback,
    parse_target_url,
)
from tests.runtime.parity import assert_same_outputs, parity_cases

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"
CLI = [sys.executable, "-m", "clinker_sql"]


def run_cli(args: list[str], cwd: Path, timeout: float = 900,
            env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    environ = dict(os.environ, CLINKER_SQL_MASTER="local[1]", **(env or {}))
    return subprocess.run(CLI + args, cwd=cwd, env=environ, capture_output=True, text=True,
                          timeout=timeout)


def target_of(url: str, **kw) -> ThriftTarget:
    from dataclasses import replace

    return replace(parse_target_url(url), **kw)


ONE_TRANSFORM = """
pipeline:
  name: t
error_handling:
  strategy: continue
  dlq:
    path: ./out/dlq.csv
nodes:
  - type: source
    name: src
    config:
      name: src
      type: csv
      path: ./in.csv
      schema:
        - { name: id, type: string }
        - { name: qty, type: int }
  - type: transform
    name: calc
    input: src
    config:
      cxl: |
        emit double = qty * 2
  - type: sink
    name: a
    input: calc
    config:
      name: a
      type: csv
      path: ./out/a.csv
  - type: sink
    name: b
    input: calc
    config:
      name: b
      type: csv
      path: ./out/b.csv
"""


def make_case(folder: Path, rows: list[tuple[str, str]] | str) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "out").mkdir(exist_ok=True)
    (folder / "pipeline.yaml").write_text(textwrap.dedent(ONE_TRANSFORM), encoding="utf-8")
    text = rows if isinstance(rows, str) else \
        "id,qty\n" + "".join(f"{i},{q}\n" for i, q in rows)
    (folder / "in.csv").write_text(text, encoding="utf-8")
    return folder / "pipeline.yaml"


def big_csv(n: int) -> str:
    return "id,qty\n" + "".join(f"r{i},{i % 1000}\n" for i in range(n))


def listing(folder: Path) -> list[str]:
    return sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*"))


# --------------------------------------------------------------------------
# without a server
# --------------------------------------------------------------------------


def test_target_url():
    t = parse_target_url("thrift://etl@10.0.0.5:10001/sales?auth=ldap&statement_timeout=60")
    assert (t.host, t.port, t.database, t.user, t.statement_timeout) == \
        ("10.0.0.5", 10001, "sales", "etl", 60.0)
    assert target_of(str(t.url) + "?auth=ldap", password="pw").validate().auth == "LDAP"
    with pytest.raises(DiagnosticError) as info:
        t.validate()  # LDAP without a password
    assert "needs a password" in info.value.diagnostics[0].message
    assert parse_target_url("thrift://localhost").port == 10000
    for bad, words in [("thrift://u:secret@h:1", "password may not"),
                       ("http://h:1", "not a Thrift target"),
                       ("thrift://h:1?colour=red", "unknown option 'colour'")]:
        with pytest.raises(DiagnosticError) as info:
            parse_target_url(bad)
        assert info.value.diagnostics[0].code == "CS035"
        assert words in info.value.diagnostics[0].message
        assert "secret" not in info.value.diagnostics[0].message


def test_loopback_hosts():
    assert all(is_loopback(h) for h in ("127.0.0.1", "127.1.2.3", "localhost", "::1"))
    assert not any(is_loopback(h) for h in ("10.0.0.1", "spark.example.com", "0.0.0.0"))


def test_absolutize_rewrites_only_path_literals(tmp_path):
    from sqlglot.dialects.spark import Spark

    compiled = Project(EXAMPLES / "employee_tiers" / "pipeline.yaml").compile()
    base = tmp_path / "it's a \\ folder"
    moved = absolutize(compiled, base)
    assert len(moved.statements) == len(compiled.statements)
    changed = [(a, b) for a, b in zip(compiled.statements, moved.statements) if a != b]
    assert {a.kind for a, _ in changed} == {"view", "write"}
    scan = next(b for a, b in changed if a.kind == "view")
    tokens = [t.text for t in Spark().tokenize(scan.sql)]
    assert tokens[tokens.index("path") + 2] == str(base / "data" / "employees.csv")
    for before, after in changed:
        if before.kind != "write":
            continue
        assert after.step.staging == str(base / "out" / Path(before.step.staging).name)
        assert after.step.path == str(base / "out" / Path(before.step.path).name)
        tokens = Spark().tokenize(after.sql)
        assert tokens[3].text == after.step.staging
        assert after.sql.split("\n", 1)[1] == before.sql.split("\n", 1)[1]
    # $source.file keeps the path as written, as in a local run (set once per file)
    offsets = next(s for s in moved.statements if s.name == "employees.files")
    assert "'./data/employees.csv' AS `$path`" in offsets.sql
    # absolute paths and URIs are left alone
    assert absolutize(moved, tmp_path / "elsewhere").statements == moved.statements


def test_profiles_file(tmp_path, monkeypatch):
    (tmp_path / "profiles.yml").write_text(textwrap.dedent("""
        outputs:
          dev:
            type: thrift
            host: 127.0.0.1
            port: 10001
          prod:
            host: spark.internal
            port: "{{ env_var('SPARK_PORT', '10000') }}"
            database: etl
            user: "{{ env_var('SPARK_USER') }}"
            auth: LDAP
            password_env: SPARK_SECRET
            shared_filesystem: true
            statement_timeout: 120
    """), encoding="utf-8")
    monkeypatch.setenv("SPARK_USER", "etl_bot")
    monkeypatch.setenv("SPARK_SECRET", "hunter2")
    dev = load_target("dev", tmp_path)
    assert (dev.host, dev.port, dev.auth, dev.shares_files) == ("127.0.0.1", 10001, "NONE", True)
    prod = load_target("prod", tmp_path)
    assert (prod.host, prod.port, prod.database, prod.user, prod.auth, prod.statement_timeout,
            prod.shares_files) == ("spark.internal", 10000, "etl", "etl_bot", "LDAP", 120.0,
                                   True)
    assert prod.password == "hunter2" and "hunter2" not in repr(prod)
    monkeypatch.delenv("SPARK_SECRET")
    with pytest.raises(DiagnosticError) as info:
        load_target("prod", tmp_path)
    assert "SPARK_SECRET is not set" in info.value.diagnostics[0].message
    with pytest.raises(DiagnosticError) as info:
        load_target("staging", tmp_path)
    assert "known: dev, prod" in info.value.diagnostics[0].message
    with pytest.raises(DiagnosticError) as info:
        load_target("dev", tmp_path / "nowhere")
    assert info.value.diagnostics[0].code == "CS035"


def test_cli_refuses_thrift_options_for_local_and_remote_without_shared_files(tmp_path):
    pipeline = make_case(tmp_path, [("a", "1")])
    runner = CliRunner()
    result = runner.invoke(cli, ["run", str(pipeline), "--user", "bob"])
    assert result.exit_code == 1 and "error[CS035]" in result.output
    # a remote host: refused before any connection is attempted (10.255.255.1 is unroutable)
    started = time.monotonic()
    result = runner.invoke(cli, ["run", str(pipeline), "--target", "thrift://10.255.255.1:1"])
    assert result.exit_code == 1 and "error[CS034]" in result.output
    assert time.monotonic() - started < 20
    assert listing(tmp_path / "out") == []


def test_server_down_is_cs030_and_writes_nothing(tmp_path):
    make_case(tmp_path, [("a", "1")])
    (tmp_path / "out" / "a.csv").write_text("previous\n")
    port = thrift_server.free_port()
    proc = run_cli(["run", "pipeline.yaml", "--target", f"thrift://127.0.0.1:{port}"], tmp_path,
                   timeout=120)
    assert proc.returncode == 4, proc.stderr
    assert proc.stderr.startswith("error[CS030]: cannot reach the Thrift server at "
                                  f"thrift://127.0.0.1:{port}"), proc.stderr
    assert "Traceback" not in proc.stderr and proc.stdout == ""
    assert listing(tmp_path / "out") == ["a.csv"]
    assert (tmp_path / "out" / "a.csv").read_text() == "previous\n"


def _fake_sasl_server(message: bytes) -> tuple[int, threading.Thread]:
    """A server that answers the SASL handshake with BAD (status 3), as HiveServer2 does
    when the LDAP/CUSTOM provider rejects the password."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(1)

    def serve() -> None:
        conn, _ = listener.accept()
        with conn:
            conn.settimeout(10)
            conn.recv(4096)
            conn.sendall(b"\x03" + len(message).to_bytes(4, "big") + message)
            time.sleep(0.2)
        listener.close()
    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    return listener.getsockname()[1], thread


def test_login_refused_is_cs031_and_never_prints_the_password(tmp_path):
    make_case(tmp_path, [("a", "1")])
    port, thread = _fake_sasl_server(b"Error validating the login")
    proc = run_cli(["run", "pipeline.yaml", "--target", f"thrift://127.0.0.1:{port}",
                    "--auth", "LDAP", "--user", "etl", "--password-env", "MY_SECRET"],
                   tmp_path, timeout=120, env={"MY_SECRET": "s3cr3t-value"})
    thread.join(5)
    assert proc.returncode == 4, proc.stderr
    assert proc.stderr.startswith("error[CS031]"), proc.stderr
    assert "Error validating the login" in proc.stderr
    assert "s3cr3t-value" not in proc.stderr + proc.stdout
    assert "Traceback" not in proc.stderr
    assert listing(tmp_path / "out") == []


# --------------------------------------------------------------------------
# against the local Thrift server
# --------------------------------------------------------------------------


def test_thrift_server_status_cli(thrift_server):
    runner = CliRunner()
    result = runner.invoke(cli, ["thrift-server", "status", "--state-dir",
                                 thrift_server.state_dir])
    assert result.exit_code == 0, result.output
    assert result.output.startswith(f"running {thrift_server.url}")
    # starting again reuses the running server
    result = runner.invoke(cli, ["thrift-server", "start", "--state-dir",
                                 thrift_server.state_dir])
    assert result.exit_code == 0 and thrift_server.url in result.output
    assert "already running" in result.output


def test_query_values_match_the_local_executor(thrift_url, executor):
    sql = ("SELECT 1 AS i, CAST(2 AS BIGINT) AS b, 'x' AS s, CAST(NULL AS STRING) AS n, "
           "ARRAY(CAST(3 AS BIGINT), 1) AS arr, DATE'2024-02-29' AS d, "
           "CAST(1.50 AS DECIMAL(5,2)) AS dec, TRUE AS t, 0.25D AS f")
    with ThriftExecutor(parse_target_url(thrift_url)) as remote:
        got = list(remote.query(sql))
        assert list(remote.query("SELECT id FROM range(25000)"))[-1] == {"id": 24999}
    assert got == list(executor.query(sql))


def test_sessions_do_not_share_temporary_views(thrift_url):
    target = parse_target_url(thrift_url)
    with ThriftExecutor(target) as one, ThriftExecutor(target) as two:
        one.execute("CREATE OR REPLACE TEMPORARY VIEW `only.mine` AS SELECT 1 AS x")
        assert list(one.query("SELECT x FROM `only.mine`")) == [{"x": 1}]
        with pytest.raises(StatementFailed) as info:
            list(two.query("SELECT x FROM `only.mine`"))
        assert info.value.error_class == "TABLE_OR_VIEW_NOT_FOUND"


def test_two_runs_in_parallel_do_not_see_each_others_views(thrift_url, tmp_path):
    target = parse_target_url(thrift_url)
    data = {"p": [("a", "1"), ("b", "2")], "q": [("x", "10"), ("y", "x"), ("z", "30")]}
    pipelines = {k: make_case(tmp_path / k, rows) for k, rows in data.items()}
    results: dict[str, object] = {}
    barrier = threading.Barrier(2)

    def run(name: str) -> None:
        barrier.wait()
        try:
            results[name] = Project(pipelines[name], tmp_path / name / "target").run(
                remote=target, base=tmp_path / name)
        except BaseException as exc:  # noqa: BLE001 - reported below
            results[name] = exc
    threads = [threading.Thread(target=run, args=(k,)) for k in data]
    for t in threads:
        t.start()
    for t in threads:
        t.join(600)
    assert results["p"].counts == {"total": 2, "ok": 2, "written": 4, "dlq": 0}, results
    assert results["q"].counts == {"total": 3, "ok": 2, "written": 4, "dlq": 1}, results
    assert (tmp_path / "p" / "out" / "a.csv").read_text() == "id,qty,double\na,1,2\nb,2,4\n"
    assert (tmp_path / "q" / "out" / "b.csv").read_text() == \
        "id,qty,double\nx,10,20\nz,30,60\n"
    assert listing(tmp_path / "p" / "out") == ["a.csv", "b.csv"]
    assert listing(tmp_path / "q" / "out") == ["a.csv", "b.csv", "dlq.csv"]


class _FailingSecondWrite(ThriftExecutor):
    """The real server, with the second output's write replaced by a statement that fails
    on the server (as a full disk or a lost executor would)."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.writes: list[str] = []

    def execute(self, sql: str) -> None:
        head = sql.split("\n", 1)[0]
        if head.startswith("INSERT OVERWRITE DIRECTORY") and ".clinker-staging'" in head:
            self.writes.append(head)
            if "b.csv.clinker-staging" in head:
                sql = "SELECT raise_error('injected failure: no space left on device')"
        super().execute(sql)


def test_statement_failing_mid_run_writes_nothing(thrift_url, tmp_path):
    pipeline = make_case(tmp_path, [("a", "1"), ("b", "2")])
    (tmp_path / "out" / "b.csv").write_text("previous\n")
    with _FailingSecondWrite(parse_target_url(thrift_url)) as session:
        with pytest.raises(DiagnosticError) as info:
            Project(pipeline, tmp_path / "target").run(executor=session, base=tmp_path)
        assert [w.rsplit("/", 1)[1] for w in session.writes] == [
            "a.csv.clinker-staging' USING text", "b.csv.clinker-staging' USING text"]
    diag = info.value.diagnostics[0]
    assert diag.code == "CS032" and info.value.exit_code == 4
    assert "injected failure" in diag.message and diag.message.endswith("(node b, b)")
    # the first output was staged and assembled, then discarded with everything else
    assert listing(tmp_path / "out") == ["b.csv"]
    assert (tmp_path / "out" / "b.csv").read_text() == "previous\n"


@pytest.mark.parametrize("text,code,exit_code", [("id,qty\na,1\nb,2,extra\n", "CS101", 4),
                                                (None, "E216", 1)],
                         ids=["malformed-csv", "missing-file"])
def test_engine_errors_keep_their_local_codes(thrift_url, tmp_path, text, code, exit_code):
    pipeline = make_case(tmp_path, text or "")
    if text is None:
        (tmp_path / "in.csv").unlink()
    with pytest.raises(DiagnosticError) as info:
        Project(pipeline, tmp_path / "target").run(remote=parse_target_url(thrift_url),
                                                   base=tmp_path)
    assert info.value.diagnostics[0].code == code and info.value.exit_code == exit_code
    assert listing(tmp_path / "out") == []


def test_unknown_database_is_cs035(thrift_url):
    with pytest.raises(DiagnosticError) as info:
        ThriftExecutor(parse_target_url(thrift_url + "/no_such_db"))
    assert info.value.diagnostics[0].code == "CS035"
    assert "no_such_db" in info.value.diagnostics[0].message


def test_statement_timeout_cancels_the_statement_and_keeps_the_session(thrift_url):
    executor = ThriftExecutor(parse_target_url(thrift_url + "?statement_timeout=1"))
    try:
        started = time.monotonic()
        with pytest.raises(StatementFailed, match="did not finish within 1s"):
            # ~1e11 rows: minutes of work, so only the timeout can end it
            executor.execute("SELECT sum(id % 7) FROM range(0, 100000000000)")
        assert time.monotonic() - started < 60
        assert list(executor.query("SELECT 1 AS x")) == [{"x": 1}]
    finally:
        executor.close()


def test_statement_timeout_cancels_and_writes_nothing(thrift_url, tmp_path):
    # 3M rows: each write takes seconds, an order of magnitude above the 0.3s timeout
    make_case(tmp_path, big_csv(3_000_000))
    started = time.monotonic()
    proc = run_cli(["run", "pipeline.yaml", "--target", thrift_url, "--statement-timeout",
                    "0.3"], tmp_path)
    elapsed = time.monotonic() - started
    assert proc.returncode == 4, proc.stderr
    # CI=1: plain progress lines ("  <step>  <seconds>") may come first, then the error
    error = proc.stderr[proc.stderr.index("error["):]
    assert error.startswith("error[CS033]: statement did not finish within 0.3s"), proc.stderr
    assert all(line.startswith("  ") for line in
               proc.stderr[:proc.stderr.index("error[")].splitlines()), proc.stderr
    assert "Traceback" not in proc.stderr
    assert listing(tmp_path / "out") == []
    assert elapsed < 120
    # the server is still healthy: a normal run right after works
    make_case(tmp_path / "again", [("a", "1")])
    proc = run_cli(["run", "pipeline.yaml", "--target", thrift_url, "-q"], tmp_path / "again")
    assert proc.returncode == 0, proc.stderr


def test_ctrl_c_cancels_closes_and_exits_130(thrift_url, tmp_path):
    make_case(tmp_path, big_csv(1_500_000))
    env = dict(os.environ, CLINKER_SQL_MASTER="local[1]", PYTHONUNBUFFERED="1")
    proc = subprocess.Popen(CLI + ["run", "pipeline.yaml", "--target", thrift_url],
                            cwd=tmp_path, env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    try:
        seen = []
        for line in proc.stderr:  # progress lines: "  writing a"
            seen.append(line)
            if line.strip().startswith("writing"):
                break
        time.sleep(0.5)
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=120)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    err = "".join(seen) + err
    assert proc.returncode == 130, err
    assert "interrupted" in err and "Traceback" not in err
    assert "Pipeline complete" not in out
    assert listing(tmp_path / "out") == []


def test_named_target_and_a_client_without_java_or_pyspark(thrift_server, tmp_path):
    make_case(tmp_path, [("a", "1"), ("b", "x")])
    (tmp_path / "profiles").mkdir()
    (tmp_path / "profiles" / "profiles.yml").write_text(textwrap.dedent("""
        outputs:
          dev:
            type: thrift
            host: 127.0.0.1
            port: "{{ env_var('TEST_THRIFT_PORT') }}"
            statement_timeout: 600
    """), encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if k != "JAVA_HOME"}
    env["PATH"] = os.path.dirname(sys.executable)  # no `java` on PATH
    env["TEST_THRIFT_PORT"] = str(thrift_server.port)
    code = ("import sys; from clinker_sql.cli import main; sys.argv = ['clinker-sql', 'run', "
            "'pipeline.yaml', '-q', '--target', 'dev', '--profiles-dir', 'profiles']\n"
            "try:\n    main()\nfinally:\n"
            "    assert 'pyspark' not in sys.modules, 'the client imported pyspark'")
    proc = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 2, proc.stderr
    assert proc.stdout == "Pipeline complete: 2 total, 1 ok, 2 written, 1 dlq\n"
    assert listing(tmp_path / "out") == ["a.csv", "b.csv", "dlq.csv"]


# --------------------------------------------------------------------------
# parity: every example and acceptance case, local run vs Thrift run
# --------------------------------------------------------------------------

@pytest.mark.parametrize("name,folder", parity_cases(), ids=[c[0] for c in parity_cases()])
def test_same_outputs_as_a_local_run(name, folder, thrift_url, tmp_path, executor, spark):
    assert_same_outputs(name, folder, parse_target_url(thrift_url), tmp_path, executor, spark)


# --------------------------------------------------------------------------
# `type: table` sinks: a warehouse table swapped in whole
# --------------------------------------------------------------------------

TABLE_SINK = """
pipeline:
  name: tbl
error_handling:
  strategy: continue
  dlq:
    path: ./out/dlq.csv
nodes:
  - type: source
    name: src
    config:
      name: src
      type: csv
      path: ./in.csv
      schema:
        - { name: id, type: string }
        - { name: qty, type: string }
  - type: transform
    name: calc
    input: src
    config:
      cxl: |
        emit id = id
        emit qty = qty.to_int()
        emit half = qty.to_int() / 2.0
  - type: sink
    name: totals
    input: calc
    config:
      type: table
      table: TABLE
  - type: sink
    name: copy
    input: calc
    config:
      type: csv
      path: ./out/copy.csv
"""


def table_case(folder: Path, table: str, rows: list[tuple[str, str]]) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "out").mkdir(exist_ok=True)
    (folder / "pipeline.yaml").write_text(TABLE_SINK.replace("TABLE", table), encoding="utf-8")
    (folder / "in.csv").write_text("id,qty\n" + "".join(f"{i},{q}\n" for i, q in rows),
                                   encoding="utf-8")
    return folder / "pipeline.yaml"


def table_rows(url: str, table: str) -> list[dict]:
    with ThriftExecutor(parse_target_url(url)) as session:
        return list(session.query(f"SELECT * FROM {table} ORDER BY id"))


def table_names(url: str) -> set[str]:
    with ThriftExecutor(parse_target_url(url)) as session:
        return {r["tableName"] for r in session.query("SHOW TABLES IN default")
                if not r["isTemporary"]}


def test_table_sink_writes_typed_rows_and_replaces_the_table_whole(thrift_url, tmp_path):
    table_case(tmp_path / "one", "default.clinker_t1", [("a", "1"), ("b", "x"), ("c", "3")])
    proc = run_cli(["run", "pipeline.yaml", "--target", thrift_url, "-q"], tmp_path / "one")
    assert proc.returncode == 2, proc.stderr  # one DLQ entry
    assert table_rows(thrift_url, "default.clinker_t1") == [
        {"id": "a", "qty": 1, "half": 0.5}, {"id": "c", "qty": 3, "half": 1.5}]
    # a second run replaces the rows; no staging or old table is left behind
    table_case(tmp_path / "two", "default.clinker_t1", [("z", "8")])
    proc = run_cli(["run", "pipeline.yaml", "--target", thrift_url, "-q"], tmp_path / "two")
    assert proc.returncode == 0, proc.stderr
    assert table_rows(thrift_url, "default.clinker_t1") == [{"id": "z", "qty": 8, "half": 4.0}]
    assert not {n for n in table_names(thrift_url) if n.startswith("clinker_t1__")}


class _FailingFileWrite(ThriftExecutor):
    """The real server; the CSV sink's write fails after the table sink was staged."""

    def execute(self, sql: str) -> None:
        if sql.startswith("INSERT OVERWRITE DIRECTORY") and "copy.csv.clinker-staging" in sql:
            sql = "SELECT raise_error('injected failure: no space left on device')"
        super().execute(sql)


def test_table_sink_keeps_the_old_table_when_the_run_fails(thrift_url, tmp_path):
    table_case(tmp_path / "one", "default.clinker_t2", [("a", "1")])
    assert run_cli(["run", "pipeline.yaml", "--target", thrift_url, "-q"],
                   tmp_path / "one").returncode == 0
    pipeline = table_case(tmp_path / "two", "default.clinker_t2", [("q", "5"), ("r", "6")])
    with _FailingFileWrite(parse_target_url(thrift_url)) as session:
        with pytest.raises(DiagnosticError) as info:
            Project(pipeline, tmp_path / "two" / "target").run(executor=session,
                                                               base=tmp_path / "two")
    assert info.value.diagnostics[0].code == "CS032"
    assert table_rows(thrift_url, "default.clinker_t2") == [{"id": "a", "qty": 1, "half": 0.5}]
    assert not {n for n in table_names(thrift_url) if n.startswith("clinker_t2__")}
    assert listing(tmp_path / "two" / "out") == []


def test_table_sink_on_a_local_run_is_refused_before_spark_starts(tmp_path, monkeypatch):
    table_case(tmp_path, "default.t3", [("a", "1")])
    monkeypatch.chdir(tmp_path)  # its source, ./in.csv, is found (else E216 comes first)
    result = CliRunner().invoke(cli, ["run", str(tmp_path / "pipeline.yaml")],
                                catch_exceptions=False)
    assert result.exit_code == 4
    assert "error[CS037]" in result.output and "Traceback" not in result.output


@pytest.mark.parametrize("config,code,needle", [
    ("type: table\n      table: a..b", "E000", "table must be a name"),
    ("type: table\n      table: t\n      path: ./x.csv", "E000", "remove `path`"),
    ("type: table", "E000", "table"),
])
def test_table_sink_config_errors(tmp_path, config, code, needle):
    text = TABLE_SINK.replace("type: table\n      table: TABLE", config)
    (tmp_path / "pipeline.yaml").write_text(text, encoding="utf-8")
    result = CliRunner().invoke(cli, ["validate", str(tmp_path / "pipeline.yaml")])
    assert result.exit_code == 1
    assert f"error[{code}]" in result.output and needle in result.output


def test_two_sinks_to_one_table_is_e322(tmp_path):
    text = TABLE_SINK.replace("type: csv\n      path: ./out/copy.csv",
                              "type: table\n      table: DEFAULT.T4").replace("TABLE", "default.t4")
    (tmp_path / "pipeline.yaml").write_text(text, encoding="utf-8")
    result = CliRunner().invoke(cli, ["validate", str(tmp_path / "pipeline.yaml")])
    assert result.exit_code == 1 and "error[E322]" in result.output
