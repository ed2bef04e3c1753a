"""Running on a Spark Connect server: the same outputs as a local run, coded errors, one
remote session per run.

The server tests share one local Spark Connect server (conftest.py), started from the
installed pyspark as `clinker-sql connect-server start` does. The acceptance cases are not
run through it yet (CI's time): every example is.
"""

from __future__ import annotations

import os
import textwrap
import threading
import time
from concurrent import futures

import pytest
from click.testing import CliRunner

from clinker_sql.cli import cli
from clinker_sql.diagnostics import DiagnosticError
from clinker_sql.project import Project
from clinker_sql.runtime import connect_server
from clinker_sql.runtime.connect import ConnectExecutor, ConnectTarget, parse_connect_url
from clinker_sql.runtime.executor import StatementFailed
from clinker_sql.runtime.profiles import load_target
from tests.runtime.parity import EXAMPLES, assert_same_outputs, copy_case, parity_cases
from tests.runtime.test_thrift import listing, make_case, run_cli

# --------------------------------------------------------------------------
# without a server
# --------------------------------------------------------------------------


def _code(info) -> str:
    return info.value.diagnostics[0].code


def test_connect_url():
    t = parse_connect_url("sc://10.0.0.5:15003/;token=s3cr3t;use_ssl=true;user_id=etl;"
                          "statement_timeout=60;shared_filesystem=true")
    assert (t.host, t.port, t.token, t.use_ssl, t.user, t.statement_timeout, t.shares_files) \
        == ("10.0.0.5", 15003, "s3cr3t", True, "etl", 60.0, True)
    assert "s3cr3t" not in repr(t) and "s3cr3t" not in t.url
    assert t.url == "sc://10.0.0.5:15003/;use_ssl=true;user_id=etl"
    assert "token=s3cr3t" in t.client_url()
    plain = parse_connect_url("sc://localhost")
    assert (plain.port, plain.token, plain.use_ssl, plain.loopback, plain.url) == \
        (15002, None, False, True, "sc://localhost:15002")
    assert parse_connect_url("sc://127.0.0.1:1/").port == 1
    for bad, words in [("http://h:1", "not a Spark Connect target"),
                       ("sc://h:1/default", "has no path"),
                       ("sc://h:1/;colour=red;token=s3cr3t", "unknown option 'colour'"),
                       ("sc://h:99999", "invalid port"),
                       ("sc://u@h:1/;token=s3cr3t", "not as user@"),
                       ("sc://h:1/;statement_timeout=soon", "number of seconds"),
                       ("sc://h:1/;statement_timeout=0", "positive"),
                       ("sc://h:1/;token", "has no value")]:
        with pytest.raises(DiagnosticError) as info:
            parse_connect_url(bad)
        assert _code(info) == "CS035", bad
        assert words in info.value.diagnostics[0].message, bad
        assert "s3cr3t" not in info.value.diagnostics[0].message


def test_connect_profile(tmp_path, monkeypatch):
    (tmp_path / "profiles.yml").write_text(textwrap.dedent("""
        outputs:
          lake:
            type: connect
            host: 127.0.0.1
            port: 15010
            token_env: LAKE_TOKEN
            user: etl
            statement_timeout: 120
          wrong:
            type: connect
            host: 127.0.0.1
            database: etl
          wrong_way:
            type: thrift
            host: 127.0.0.1
            use_ssl: true
    """), encoding="utf-8")
    monkeypatch.setenv("LAKE_TOKEN", "tok-123")
    lake = load_target("lake", tmp_path)
    assert isinstance(lake, ConnectTarget)
    assert (lake.host, lake.port, lake.token, lake.user, lake.statement_timeout,
            lake.shares_files) == ("127.0.0.1", 15010, "tok-123", "etl", 120.0, True)
    assert "tok-123" not in repr(lake)
    for name, words in [("wrong", "'database' does not apply to a connect target"),
                        ("wrong_way", "'use_ssl' does not apply to a thrift target")]:
        with pytest.raises(DiagnosticError) as info:
            load_target(name, tmp_path)
        assert _code(info) == "CS035" and words in info.value.diagnostics[0].message


def test_cli_refuses_thrift_options_and_remote_hosts_without_shared_files(tmp_path):
    pipeline = make_case(tmp_path, [("a", "1")])
    runner = CliRunner()
    for option in (["--database", "etl"], ["--auth", "LDAP"], ["--password-env", "X"]):
        result = runner.invoke(cli, ["run", str(pipeline), "--target", "sc://127.0.0.1:1",
                                     *option])
        assert result.exit_code == 1 and "error[CS035]" in result.output, result.output
        assert f"{option[0]} applies to a Thrift target" in result.output
    # a remote host: refused before any connection is attempted (10.255.255.1 is unroutable)
    started = time.monotonic()
    result = runner.invoke(cli, ["run", str(pipeline), "--target", "sc://10.255.255.1:1"])
    assert result.exit_code == 1 and "error[CS034]" in result.output, result.output
    assert time.monotonic() - started < 20
    assert listing(tmp_path / "out") == []


def test_server_down_is_cs030_and_writes_nothing(tmp_path):
    make_case(tmp_path, [("a", "1")])
    (tmp_path / "out" / "a.csv").write_text("previous\n")
    port = connect_server.free_port()
    proc = run_cli(["run", "pipeline.yaml", "--target", f"sc://127.0.0.1:{port}"], tmp_path,
                   timeout=120)
    assert proc.returncode == 4, proc.stderr
    assert proc.stderr.startswith("error[CS030]: cannot reach the Spark Connect server at "
                                  f"sc://127.0.0.1:{port}: connection refused"), proc.stderr
    assert "Traceback" not in proc.stderr and proc.stdout == ""
    assert listing(tmp_path / "out") == ["a.csv"]


def _refusing_server(message: str):
    """A gRPC server that refuses every call as unauthenticated, as a Spark Connect server
    behind an authenticating proxy does for a bad token."""
    import grpc

    class Refuse(grpc.GenericRpcHandler):
        def service(self, details):
            def refuse(request, context):
                context.abort(grpc.StatusCode.UNAUTHENTICATED, message)
            if details.method.endswith(("ExecutePlan", "ReattachExecute")):
                return grpc.unary_stream_rpc_method_handler(refuse)
            return grpc.unary_unary_rpc_method_handler(refuse)

    server = grpc.server(futures.ThreadPoolExecutor(max_workers=2),
                         handlers=[Refuse()])
    port = server.add_insecure_port("127.0.0.1:0")
    server.start()
    return server, port


def test_login_refused_is_cs031():
    server, port = _refusing_server("invalid credentials for user etl")
    try:
        started = time.monotonic()
        with pytest.raises(DiagnosticError) as info:
            ConnectExecutor(parse_connect_url(f"sc://127.0.0.1:{port}/;user_id=etl"))
        assert time.monotonic() - started < 30  # not tried again
    finally:
        server.stop(0)
    diag = info.value.diagnostics[0]
    assert diag.code == "CS031" and info.value.exit_code == 4
    assert diag.message.startswith(f"sc://127.0.0.1:{port}/;user_id=etl refused the session "
                                   "for user 'etl'"), diag.message
    assert "invalid credentials" in diag.message
    # the process is not marked Connect-only: an embedded local session still starts in it
    assert "SPARK_CONNECT_MODE_ENABLED" not in os.environ


# --------------------------------------------------------------------------
# against the local Spark Connect server
# --------------------------------------------------------------------------


def test_connect_server_status_cli(connect_server):
    runner = CliRunner()
    result = runner.invoke(cli, ["connect-server", "status", "--state-dir",
                                 connect_server.state_dir])
    assert result.exit_code == 0, result.output
    assert result.output.startswith(f"running {connect_server.url}")
    assert connect_server.url.startswith("sc://127.0.0.1:")
    result = runner.invoke(cli, ["connect-server", "start", "--state-dir",
                                 connect_server.state_dir])
    assert result.exit_code == 0 and "already running" in result.output


def test_query_values_and_errors_match_the_local_executor(connect_url, executor):
    sql = ("SELECT 1 AS i, CAST(2 AS BIGINT) AS b, 'x' AS s, CAST(NULL AS STRING) AS n, "
           "ARRAY(CAST(3 AS BIGINT), 1) AS arr, DATE'2024-02-29' AS d, "
           "CAST(1.50 AS DECIMAL(5,2)) AS dec, TRUE AS t, 0.25D AS f, MAP('k', 1) AS m")
    with ConnectExecutor(parse_connect_url(connect_url)) as remote:
        assert list(remote.query(sql)) == list(executor.query(sql))
        assert remote.first("SELECT id FROM range(3) ORDER BY id DESC") == {"id": 2}
        for bad in ("SELECT * FROM `no.such.view`", "SELECT raise_error('boom')",
                    "SELECT 1 / 0"):
            with pytest.raises(StatementFailed) as remote_error:
                remote.execute(bad)
            with pytest.raises(StatementFailed) as local_error:
                executor.execute(bad)
            assert remote_error.value.error_class == local_error.value.error_class, bad
            assert remote_error.value.message == local_error.value.message, bad
        # the session is still usable after its statements failed
        remote.execute("CREATE OR REPLACE TEMPORARY VIEW `v.mine` AS SELECT 1 AS x")
        assert list(remote.query("SELECT x FROM `v.mine`")) == [{"x": 1}]


def test_statement_timeout_and_cancel_interrupt_the_session(connect_url):
    long = "SELECT sum(id % 7) FROM range(0, 100000000000)"  # minutes of work
    executor = ConnectExecutor(parse_connect_url(connect_url + "/;statement_timeout=1"))
    try:
        started = time.monotonic()
        with pytest.raises(StatementFailed, match="did not finish within 1s") as info:
            executor.execute(long)
        assert info.value.code == "CS033"  # type: ignore[attr-defined]
        assert time.monotonic() - started < 30
        assert list(executor.query("SELECT 1 AS x")) == [{"x": 1}]
    finally:
        executor.close()
    with ConnectExecutor(parse_connect_url(connect_url)) as executor:
        failed: list[BaseException] = []

        def run() -> None:
            try:
                executor.execute(long)
            except BaseException as exc:  # noqa: BLE001 - checked below
                failed.append(exc)
        worker = threading.Thread(target=run)
        worker.start()
        time.sleep(2)
        started = time.monotonic()
        executor.cancel()
        worker.join(30)
        assert not worker.is_alive() and time.monotonic() - started < 30
        assert len(failed) == 1 and isinstance(failed[0], StatementFailed)
        assert list(executor.query("SELECT 2 AS x")) == [{"x": 2}]


def test_engine_errors_keep_their_local_codes(connect_url, tmp_path):
    pipeline = make_case(tmp_path, "id,qty\na,1\nb,2,extra\n")
    (tmp_path / "out" / "a.csv").write_text("previous\n")
    with pytest.raises(DiagnosticError) as info:
        Project(pipeline, tmp_path / "target").run(remote=parse_connect_url(connect_url),
                                                   base=tmp_path)
    assert _code(info) == "CS101" and info.value.exit_code == 4
    assert listing(tmp_path / "out") == ["a.csv"]
    assert (tmp_path / "out" / "a.csv").read_text() == "previous\n"


def test_cli_run_of_an_example_on_a_connect_target(connect_url, tmp_path, monkeypatch):
    """`run --target sc://...` through the CLI: examples/employee_tiers, whose roster is
    Clinker's expected file byte for byte (its DLQ differs in the per-run columns only)."""
    folder = copy_case(EXAMPLES / "employee_tiers", tmp_path / "case")
    monkeypatch.chdir(folder)
    result = CliRunner().invoke(cli, ["run", "pipeline.yaml", "-q", "--target", connect_url,
                                      "--statement-timeout", "600"], catch_exceptions=False)
    assert result.exit_code == 2, result.output  # finished with DLQ entries
    assert result.output.startswith("Pipeline complete: "), result.output
    assert listing(folder / "out") == ["dlq.csv", "roster.csv"]
    assert (folder / "out" / "roster.csv").read_bytes() == \
        (EXAMPLES / "employee_tiers" / "expected" / "roster.csv").read_bytes()


# --------------------------------------------------------------------------
# parity: every example, local run vs Spark Connect run
# --------------------------------------------------------------------------

_CASES = parity_cases(acceptance=False)  # the acceptance cases: a later step (CI's time)


@pytest.mark.parametrize("name,folder", _CASES, ids=[c[0] for c in _CASES])
def test_same_outputs_as_a_local_run(name, folder, connect_url, tmp_path, executor, spark):
    assert_same_outputs(name, folder, parse_connect_url(connect_url), tmp_path, executor,
                        spark)
