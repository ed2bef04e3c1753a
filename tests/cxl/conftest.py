from __future__ import annotations

import pytest

from .harness import evaluate, evaluate_many, split_case


@pytest.fixture(scope="session")
def cxl(spark):
    """cxl(expr, **columns) -> Outcome(value, error, sql); columns are name=(type, value)."""
    def run(expr: str, **columns):
        return evaluate(spark, expr, **columns)
    return run


@pytest.fixture(scope="session")
def cxl_many(spark):
    """cxl_many(cases) -> [Outcome]: a table of (expr, expected[, columns]) in one query."""
    def run(cases):
        return evaluate_many(spark, [(split_case(c)[0], split_case(c)[2]) for c in cases])
    return run
