"""Evaluate one CXL expression on Spark: lower it, format it through sqlglot
(as the compiler does) and run it over a one-row input."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from clinker_sql.codegen import sql as S
from clinker_sql.codegen.templates import ident
from clinker_sql.cxl import types as T
from clinker_sql.cxl.lower import Lowerer, Scope
from clinker_sql.cxl.parser import parse_expression

_TYPES = {"int": T.INT, "float": T.FLOAT, "string": T.STRING, "bool": T.BOOL, "date": T.DATE,
          "datetime": T.DATETIME}


@dataclass
class Outcome:
    value: Any
    error: str | None  # first fault message, None when the expression evaluated cleanly
    sql: str


def lower(expr: str, columns: dict[str, tuple[str, Any]] | None = None):
    columns = columns or {}
    scope = Scope(columns={n: (S.col(n), _TYPES[t]) for n, (t, _) in columns.items()})
    return Lowerer(scope).lower(parse_expression(expr))


def evaluate(spark, expr: str, **columns: tuple[str, Any]) -> Outcome:
    v = lower(expr, columns)
    error = S.case([(S.is_true(f.cond), f.message) for f in v.faults]) if v.faults else \
        S.cast(S.null(), "STRING")
    cols = [S.to_sql(S.cast(_literal(value), T.spark_type_sql(_TYPES[t])))
            + " AS " + ident(name) for name, (t, value) in columns.items()]
    inner = "SELECT " + (", ".join(cols) if cols else "1 AS `$one`")
    statement = S.pretty(f"SELECT {S.to_sql(v.sql)} AS v, {S.to_sql(error)} AS e "
                         f"FROM ({inner}) AS t")
    row = spark.sql(statement).collect()[0]
    return Outcome(row["v"], row["e"], statement)


def _literal(value: Any):
    if value is None:
        return S.null()
    if isinstance(value, bool):
        return S.boolean(value)
    if isinstance(value, int):
        return S.bigint(value)
    if isinstance(value, float):
        return S.double(value)
    return S.string(str(value))
