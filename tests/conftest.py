"""Shared fixtures: one SparkSession for the whole test session (per worker when the suite
runs in parallel, `pytest -n 2`)."""

from __future__ import annotations

import os
import tempfile

import pytest


def pytest_configure(config):
    """Each test process keeps its tables in its own warehouse folder: two workers writing
    a table of the same name into the default one (~/.cache/clinker-sql/warehouse) would
    collide. Test processes only: a run of `clinker-sql` keeps the default."""
    from clinker_sql.runtime import local

    worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
    local.DEFAULT_CONF["spark.sql.warehouse.dir"] = tempfile.mkdtemp(
        prefix=f"clinker-sql-tests-{worker}-")


@pytest.fixture(scope="session")
def spark():
    from clinker_sql.runtime.local import get_session

    return get_session({"spark.sql.shuffle.partitions": "2", "spark.default.parallelism": "2"})


@pytest.fixture(scope="session")
def executor(spark):
    from clinker_sql.runtime.local import LocalSparkExecutor

    return LocalSparkExecutor()
