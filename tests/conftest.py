"""Shared fixtures: one SparkSession for the whole test session."""

from __future__ import annotations

import pytest


@pytest.fixture(scope="session")
def spark():
    from clinker_sql.runtime.local import get_session

    return get_session({"spark.sql.shuffle.partitions": "2", "spark.default.parallelism": "2"})


@pytest.fixture(scope="session")
def executor(spark):
    from clinker_sql.runtime.local import LocalSparkExecutor

    return LocalSparkExecutor()
