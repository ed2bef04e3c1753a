"""Evaluate CXL expressions on Spark: lower each one, format it through sqlglot
(as the compiler does) and run it over a one-row input.

Column values are given as name=(type, value); types are CXL type names:
int float string bool date datetime decimal(p,s) array<T> map<T>.
`evaluate_many` runs a whole table of cases as one Spark query (one column
pair per case) and falls back to one query per case if that query fails.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from clinker_sql import sqlbuild as S
from clinker_sql.codegen.templates import ident
from clinker_sql.cxl import types as T
from clinker_sql.cxl.errors import CxlError
from clinker_sql.cxl.lower import Lowerer, Scope, Val
from clinker_sql.cxl.parser import parse_expression

_TYPES = {"int": T.INT, "float": T.FLOAT, "string": T.STRING, "bool": T.BOOL, "date": T.DATE,
          "datetime": T.DATETIME}


def cxl_type(name: str) -> T.CxlType:
    name = name.strip()
    if name in _TYPES:
        return _TYPES[name]
    m = re.fullmatch(r"decimal\((\d+),\s*(\d+)\)", name)
    if m:
        return T.decimal(int(m.group(1)), int(m.group(2)))
    m = re.fullmatch(r"(array|map)<(.*)>", name)
    if m:
        return T.CxlType(m.group(1), cxl_type(m.group(2)))
    raise ValueError(f"unknown test type {name}")


@dataclass
class Outcome:
    value: Any
    error: str | None  # first fault message, None when the expression evaluated cleanly
    sql: str


def _scope(columns: dict[str, tuple[str, Any]], prefix: str = "") -> Scope:
    return Scope(columns={n: (S.col(prefix + n), cxl_type(t)) for n, (t, _) in columns.items()})


def lower(expr: str, columns: dict[str, tuple[str, Any]] | None = None) -> Val:
    return Lowerer(_scope(columns or {})).lower(parse_expression(expr))


def _error_sql(v: Val):
    if not v.faults:
        return S.cast(S.null(), "STRING")
    return S.case([(S.is_true(f.cond), f.message) for f in v.faults])


_DEFINED: set[int] = set()


def prepare(spark, sql: str) -> str:
    """The statement as the compiler prints it (a library call inside a lambda replaced
    by the function's body), with the function library defined in the session."""
    import sqlglot

    from clinker_sql.cxl import functions

    if id(spark) not in _DEFINED:
        for _, create in functions.definitions(functions.library()):
            spark.sql(create)
        _DEFINED.add(id(spark))
    tree = functions.inline_in_lambdas(sqlglot.parse_one(sql, read=S.DIALECT))
    return S.DIALECT.generate(tree, pretty=True)


def _column_sql(columns: dict[str, tuple[str, Any]], prefix: str = "") -> list[str]:
    return [S.to_sql(S.cast(_literal(value, cxl_type(t)), T.spark_type_sql(cxl_type(t))))
            + " AS " + ident(prefix + name) for name, (t, value) in columns.items()]


def evaluate(spark, expr: str, **columns: tuple[str, Any]) -> Outcome:
    v = lower(expr, columns)
    cols = _column_sql(columns)
    inner = "SELECT " + (", ".join(cols) if cols else "1 AS `$one`")
    statement = prepare(spark, f"SELECT {S.to_sql(v.sql)} AS v, {S.to_sql(_error_sql(v))} AS e "
                         f"FROM ({inner}) AS t")
    row = spark.sql(statement).collect()[0]
    return Outcome(row["v"], row["e"], statement)


_CHUNK = 30  # Spark plans a few narrow queries faster than one very wide one


def evaluate_many(spark, cases: list[tuple[str, dict[str, tuple[str, Any]]]]) -> list[Outcome]:
    """One query per chunk of cases; a case that fails to lower gets error 'LOWER ...'."""
    if len(cases) > _CHUNK:
        return [o for i in range(0, len(cases), _CHUNK)
                for o in evaluate_many(spark, cases[i:i + _CHUNK])]
    outs: list[Outcome | None] = [None] * len(cases)
    selects: list[str] = []
    cols: list[str] = []
    index: list[int] = []
    for i, (expr, columns) in enumerate(cases):
        prefix = f"c{i}_"
        try:
            v = Lowerer(_scope(columns, prefix)).lower(parse_expression(expr))
        except CxlError as exc:
            outs[i] = Outcome(None, f"LOWER {exc.code}: {exc.message}", "")
            continue
        cols += _column_sql(columns, prefix)
        n = len(index)
        selects.append(f"{S.to_sql(v.sql)} AS v{n}, {S.to_sql(_error_sql(v))} AS e{n}")
        index.append(i)
    if index:
        inner = "SELECT " + (", ".join(cols) if cols else "1 AS `$one`")
        statement = f"SELECT {', '.join(selects)} FROM ({inner}) AS t"
        try:
            row = spark.sql(prepare(spark, statement)).collect()[0]
            for n, i in enumerate(index):
                outs[i] = Outcome(row[f"v{n}"], row[f"e{n}"], selects[n])
        except Exception:  # noqa: BLE001 - isolate the failing case
            for i in index:
                expr, columns = cases[i]
                try:
                    outs[i] = evaluate(spark, expr, **columns)
                except Exception as exc:  # noqa: BLE001
                    outs[i] = Outcome(None, f"SPARK {str(exc).splitlines()[0][:300]}", "")
    return [o for o in outs if o is not None]


def _literal(value: Any, t: T.CxlType | None = None):
    if value is None:
        return S.null()
    if isinstance(value, bool):
        return S.boolean(value)
    if isinstance(value, int):
        return S.bigint(value)
    if isinstance(value, float):
        return S.double(value)
    if isinstance(value, Decimal):
        return S.string(str(value))
    if isinstance(value, (list, tuple)):
        elem = t.elem if t is not None and t.elem is not None else T.STRING
        items = [S.cast(_literal(x, elem), T.spark_type_sql(elem)) for x in value]
        return S.fn("array", *items)
    if isinstance(value, dict):
        elem = t.elem if t is not None and t.elem is not None else T.STRING
        args = []
        for k, x in value.items():
            args += [S.string(k), S.cast(_literal(x, elem), T.spark_type_sql(elem))]
        return S.fn("map", *args)
    return S.string(str(value))


# ---- table-driven tests -------------------------------------------------------------------
@dataclass(frozen=True)
class Err:
    """An expected fault message (the value is then irrelevant)."""

    message: str


NAN = float("nan")


def split_case(case: tuple) -> tuple[str, Any, dict[str, tuple[str, Any]]]:
    expr, expected = case[0], case[1]
    columns = case[2] if len(case) > 2 else {}
    return expr, expected, columns


def check(out: Outcome, expected: Any) -> None:
    import math

    where = f"\nSQL: {out.sql}"
    if isinstance(expected, Err):
        assert out.error == expected.message, f"error {out.error!r}, value {out.value!r}{where}"
        return
    assert out.error is None, f"unexpected error {out.error!r}{where}"
    if isinstance(expected, float) and math.isnan(expected):
        assert isinstance(out.value, float) and math.isnan(out.value), f"{out.value!r}{where}"
        return
    assert _same(out.value, expected), f"got {out.value!r}, want {expected!r}{where}"


def _same(got: Any, want: Any) -> bool:
    if isinstance(want, Decimal):
        return isinstance(got, Decimal) and str(got) == str(want)
    if isinstance(want, (bool, int, float, str)) and want is not None:
        return type(got) is type(want) and got == want
    if isinstance(want, list):
        return isinstance(got, list) and len(got) == len(want) and \
            all(_same(g, w) for g, w in zip(got, want))
    if isinstance(want, dict):  # pyspark does not keep a map's order; test keys() for that
        return isinstance(got, dict) and set(got) == set(want) and \
            all(_same(got[k], want[k]) for k in want)
    return got == want


# ---- whole programs and analytic windows ---------------------------------------------------
SKIP = "SKIP"  # a program's filters dropped the row


def _record(row: Any) -> Any:
    return row.asDict(recursive=True) if hasattr(row, "asDict") else row


def evaluate_programs(spark, cases: list[tuple]) -> list[Outcome]:
    """Run whole transform programs (lets, emits, filters, `emit each`) over a one-row input,
    through the same views' items a transform compiles to (codegen/steps.eval_items).

    An outcome's value is SKIP when a filter drops the row, the list of records (dicts) when
    an `emit each` produces some, else the dict of top-level emits. Its error is the row's
    first failure as the DLQ detail, without the `row 1: ` prefix. A program that does not
    lower gets error 'LOWER <code>: <message>'."""
    from clinker_sql.codegen.steps import EACH, eval_items
    from clinker_sql.cxl.program import lower_program

    if len(cases) > _CHUNK:
        return [o for i in range(0, len(cases), _CHUNK)
                for o in evaluate_programs(spark, cases[i:i + _CHUNK])]
    outs: list[Outcome | None] = [None] * len(cases)
    selects: list[str] = []
    cols: list[str] = ["1 AS `$source.row`"]
    plans: list[tuple[int, list[str], bool]] = []
    for i, case in enumerate(cases):  # (text, columns[, max_expansion])
        text, columns = case[0], case[1]
        prefix = f"c{i}_"
        try:
            program = lower_program(text, _scope(columns, prefix), fanout=True,
                                    **({"max_expansion": case[2]} if len(case) > 2 else {}))
            if program.dedups:
                raise CxlError("CS001", "distinct needs several rows: not run by this harness")
        except CxlError as exc:
            outs[i] = Outcome(None, f"LOWER {exc.code}: {exc.message}", "")
            continue
        cols += _column_sql(columns, prefix)
        items = dict((name, e) for e, name in eval_items(program))
        part = [f"{S.to_sql(items['$keep'])} AS k{i}", f"{S.to_sql(items['$err'])} AS e{i}"]
        if EACH in items:
            part.append(f"{S.to_sql(items[EACH])} AS r{i}")
        names = list(program.emits)
        part += [f"{S.to_sql(v.sql)} AS f{i}_{j}" for j, v in enumerate(program.emits.values())]
        selects += part
        plans.append((i, names, list(program.columns) if EACH in items else None))
    if plans:
        statement = prepare(spark, f"SELECT {', '.join(selects)} FROM (SELECT {', '.join(cols)}) AS t")
        row = spark.sql(statement).collect()[0]
        for i, names, fans in plans:
            err = row[f"e{i}"]
            if err is not None:
                detail = re.sub(r"^row 1: ", "", err["detail"])
                outs[i] = Outcome(None, detail, statement)
            elif row[f"k{i}"] is False:
                outs[i] = Outcome(SKIP, None, statement)
            elif fans is not None and row[f"r{i}"]:
                # a record struct's fields are f0, f1, ... in the program's column order
                outs[i] = Outcome([{fans[int(k[1:])]: v for k, v in _record(r).items()}
                                   for r in row[f"r{i}"]], None, statement)
            else:
                outs[i] = Outcome({n: _record(row[f"f{i}_{j}"]) for j, n in enumerate(names)},
                                  None, statement)
    return [o for o in outs if o is not None]


def evaluate_window(spark, expr: str, types: dict[str, str], rows: list[dict[str, Any]],
                    sort: list[tuple[str, str]] | None = None,
                    partition: list[str] | None = None) -> list[Outcome]:
    """Evaluate `expr` on every row of a small partition (a transform's analytic_window:
    `partition` fields, `sort` [(field, asc|desc)], then arrival order)."""
    from clinker_sql.cxl.windows import WindowContext

    window = WindowContext(partition=partition or [], sort=sort or [], arrival=["_ord"])
    scope = Scope(columns={n: (S.col(n), cxl_type(t)) for n, t in types.items()},
                  window=window)
    v = Lowerer(scope).lower(parse_expression(expr))
    selects = []
    for n, r in enumerate(rows):
        cells = [S.to_sql(S.cast(_literal(r.get(c), cxl_type(t)), T.spark_type_sql(cxl_type(t))))
                 + " AS " + ident(c) for c, t in types.items()]
        selects.append("SELECT " + ", ".join(cells + [f"{n} AS _ord"]))
    statement = prepare(spark, f"SELECT {S.to_sql(v.sql)} AS v, {S.to_sql(_error_sql(v))} AS e "
                         f"FROM ({' UNION ALL '.join(selects)}) AS t ORDER BY _ord")
    return [Outcome(_record(r["v"]), r["e"], statement) for r in spark.sql(statement).collect()]
