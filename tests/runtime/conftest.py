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


@pytest.fixture(scope="session")
def thrift_server(tmp_path_factory):
    from clinker_sql.runtime import thrift_server

    given = os.environ.get("CLINKER_SQL_THRIFT_STATE")  # .ci/run starts (and stops) one
    if given:
        running, state = thrift_server.status(Path(given))
        assert running == "running", f"no Thrift server running from {given}"
        yield state
        return
    reason = _missing()
    if reason:
        if os.environ.get("CI"):
            pytest.fail(reason)
        pytest.skip(reason)

    state_dir = tmp_path_factory.mktemp("thrift-server")
    state = thrift_server.start(state_dir, timeout=600)
    try:
        yield state
    finally:
        thrift_server.stop(state_dir)


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

    given = os.environ.get("CLINKER_SQL_CONNECT_STATE")  # .ci/run starts (and stops) one
    if given:
        running, state = connect_server.status(Path(given))
        assert running == "running", f"no Spark Connect server running from {given}"
        yield state
        return
    reason = _connect_missing()
    if reason:
        if os.environ.get("CI"):
            pytest.fail(reason)
        pytest.skip(reason)

    state_dir = tmp_path_factory.mktemp("connect-server")
    state = connect_server.start(state_dir, timeout=600)
    try:
        yield state
    finally:
        connect_server.stop(state_dir)


@pytest.fixture(scope="session")
def connect_url(connect_server) -> str:
    return connect_server.url
