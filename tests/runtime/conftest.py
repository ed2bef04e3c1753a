"""One local Spark Thrift server and one local Spark Connect server for the whole test
session, started from the installed pyspark exactly as `clinker-sql thrift-server start`
and `clinker-sql connect-server start` do."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest


def _missing() -> str | None:
    """Why a Thrift server cannot run here at all, or None."""
    try:
        import pyhive.hive  # noqa: F401
        import thrift_sasl  # noqa: F401
    except ImportError:
        return "PyHive is not installed: pip install '.[thrift]' (the dev extra includes it)"
    from clinker_sql.runtime import thrift_server

    if thrift_server.thriftserver_jar() is None:
        return "the installed pyspark ships no spark-hive-thriftserver jar"
    if not (os.environ.get("JAVA_HOME") or shutil.which("java")):
        return "no Java runtime to run the Thrift server"
    return None


def _server(module, env: str, missing, tmp_path_factory):
    """The server `.ci/run` started (its state folder in `env`), else one started here for
    the session and stopped after it; skipped (failed under CI) where none can run."""
    given = os.environ.get(env)
    if given:
        running, state = module.status(Path(given))
        assert running == "running", f"no server running from {given}"
        yield state
        return
    reason = missing()
    if reason:
        if os.environ.get("CI"):
            pytest.fail(reason)
        pytest.skip(reason)
    state_dir = tmp_path_factory.mktemp(module.__name__.rsplit(".", 1)[-1])
    state = module.start(state_dir, timeout=600)
    try:
        yield state
    finally:
        module.stop(state_dir)


@pytest.fixture(scope="session")
def thrift_server(tmp_path_factory):
    from clinker_sql.runtime import thrift_server

    yield from _server(thrift_server, "CLINKER_SQL_THRIFT_STATE", _missing, tmp_path_factory)


@pytest.fixture(scope="session")
def thrift_url(thrift_server) -> str:
    return thrift_server.url


def _connect_missing() -> str | None:
    """Why a Spark Connect server (or its client) cannot run here at all, or None."""
    try:
        import grpc  # noqa: F401
        import pyarrow  # noqa: F401
    except ImportError:
        return "pyspark's Connect client is not installed: pip install '.[connect]' (the dev " \
               "extra includes it)"
    from clinker_sql.runtime import connect_server

    if connect_server.connect_jar() is None:
        return "the installed pyspark ships no spark-connect jar"
    if not (os.environ.get("JAVA_HOME") or shutil.which("java")):
        return "no Java runtime to run the Spark Connect server"
    return None


@pytest.fixture(scope="session")
def connect_server(tmp_path_factory):
    from clinker_sql.runtime import connect_server

    yield from _server(connect_server, "CLINKER_SQL_CONNECT_STATE", _connect_missing,
                       tmp_path_factory)


@pytest.fixture(scope="session")
def connect_url(connect_server) -> str:
    return connect_server.url
