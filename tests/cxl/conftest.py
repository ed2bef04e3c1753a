from __future__ import annotations

import pytest

from .harness import evaluate


@pytest.fixture(scope="session")
def cxl(spark):
    """cxl(expr, **columns) -> Outcome(value, error, sql); columns are name=(type, value)."""
    def run(expr: str, **columns):
        return evaluate(spark, expr, **columns)
    return run
