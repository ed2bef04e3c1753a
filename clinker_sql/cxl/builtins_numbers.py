"""Numeric and date builtins (spec §6.3-§6.4, builtins_impl.rs)."""

from __future__ import annotations

from sqlglot import exp

from clinker_sql import sqlbuild as S
from clinker_sql.cxl import ast as a
from clinker_sql.cxl import functions
from clinker_sql.cxl import types as T
from clinker_sql.cxl.lower import Val, coerce, error
from clinker_sql.cxl.registry import (DATES, NUM, Call, gt, int_arg, lt, method,
                                      saturating_int, share, typed_null)
from clinker_sql.cxl.registry import _never_null


# ---- numbers --------------------------------------------------------------------------------
@method("abs", NUM)
def _abs(c: Call) -> Val:
    r = c.recv.sql
    if c.recv.type.kind == "int":  # i64::MIN.abs() wraps to MIN in Clinker's release build
        return Val(share(c.lowerer, r, lambda x: S.case([(S.eq(x, S.bigint(S.INT64_MIN)), x)],
                                                        S.fn("abs", x))), T.INT)
    if c.recv.type.kind == "null":
        return Val(typed_null(T.INT), T.INT)
    return Val(S.fn("abs", r), c.recv.type)


def _ceil_floor(c: Call, spark: str) -> Val:
    r, k = c.recv.sql, c.recv.type.kind
    if k == "decimal":
        t = T.decimal(38, 0)
        return Val(S.cast(S.fn(spark, r), T.spark_type_sql(t)), t)
    if k == "float":  # `f.ceil() as i64`: saturating, NaN -> 0
        return Val(saturating_int(r, spark), T.INT)  # a call: its argument is read once
    if k == "int":
        return Val(r, T.INT)
    return Val(typed_null(T.INT), T.INT)


method("ceil", NUM)(lambda c: _ceil_floor(c, "ceil"))
method("floor", NUM)(lambda c: _ceil_floor(c, "floor"))


def _places_literal(c: Call) -> int | None:
    if not c.args:
        return 0
    node = c.node.args[0]
    sign = 1
    if isinstance(node, a.Unary) and node.op == "-":
        node, sign = node.operand, -1
    lit = node if isinstance(node, a.Literal) else None
    if lit is not None and lit.kind in ("int", "float"):
        return sign * int(lit.value)  # `as_i64` truncates a Float
    if lit is not None and lit.kind == "null":
        return 0
    return None


def _round(c: Call, int_gives_null: bool) -> Val:
    r, k = c.recv.sql, c.recv.type.kind
    if k == "int":
        return Val(typed_null(T.FLOAT), T.FLOAT) if int_gives_null else Val(r, T.INT)
    if k == "decimal":
        places = _places_literal(c)
        if places is None:
            raise error("CS001", f"{c.node.method}() on a decimal needs a literal number of "
                        "places: the result's scale would vary per row", c.node)
        scale = min(c.recv.type.scale, max(places, 0))
        t = T.decimal(38, scale)
        return Val(S.cast(S.fn("bround", r, S.small_int(max(places, 0))),
                          T.spark_type_sql(t)), t)
    if k != "float":
        return Val(typed_null(T.FLOAT), T.FLOAT)
    # (x * 10^n).round() / 10^n on the binary product, half away from zero; a
    # missing or null `n` is 0.
    n = S.fn("coalesce", int_arg(c.args[0]), S.bigint(0)) if c.args else S.bigint(0)
    return Val(functions.call("float_round", r, n), T.FLOAT)


method("round", NUM, ("int",), min_args=0)(lambda c: _round(c, False))
method("round_to", NUM, ("int",))(lambda c: _round(c, True))


def _less(a: Val, b: Val) -> exp.Expression:
    """compare_values(a, b) == Less, as a never-null boolean."""
    return _order(a, b, lt)


def _greater(a: Val, b: Val) -> exp.Expression:
    return _order(a, b, gt)


def _order(a: Val, b: Val, op) -> exp.Expression:
    kinds = {a.type.kind, b.type.kind}
    if not kinds <= {"int", "float", "decimal"} or kinds == {"float", "decimal"}:
        return S.boolean(False)  # incomparable (or a null literal): no ordering
    cond = op(a.sql, b.sql)
    if "float" in kinds:  # NaN is unordered in Rust; Spark sorts it above everything
        nan = [S.fn("isnan", S.cast(v.sql, "DOUBLE")) for v in (a, b)]
        cond = S.and_(cond, S.not_(S.or_(*nan)))
    return S.is_true(cond)


def _result_type(*vals: Val) -> T.CxlType:
    t = T.NULL
    for v in vals:
        u = T.unify(t, v.type)
        t = u if u is not None else v.type
    return t


def _comparable(a: Val, b: Val) -> bool:
    kinds = {a.type.kind, b.type.kind}
    return kinds <= {"int", "float", "decimal"} and kinds != {"float", "decimal"}


def _pick(t: T.CxlType, v: Val) -> exp.Expression:
    return coerce(v, t).sql if v.type.kind != "null" else typed_null(t)


@method("clamp", NUM, ("numeric", "numeric"))
def _clamp(c: Call) -> Val:
    x, lo, hi = c.recv, c.args[0], c.args[1]
    # Only a comparable bound can be returned; an incomparable or null one is skipped.
    t = _result_type(x, *[b for b in (lo, hi) if _comparable(x, b)])
    value = S.case([(_less(x, lo), _pick(t, lo)), (_greater(x, hi), _pick(t, hi))],
                   _pick(t, x))
    return Val(value, t)


def _min_max(c: Call, pick) -> Val:
    x, o = c.recv, c.args[0]
    if not _comparable(x, o) and o.type.kind != "null":
        return Val(c.when_recv(o.sql), o.type)  # incomparable: always the argument
    t = _result_type(x, o)
    if t.kind == "null":
        return Val(typed_null(x.type), x.type)  # a null argument gives null
    # The receiver when strictly smaller (larger), otherwise the argument. Both are
    # stated more than once: complex ones are evaluated once each (share), so nesting
    # does not double the SQL at every level.
    def build(xs: exp.Expression) -> exp.Expression:
        def inner(os: exp.Expression) -> exp.Expression:
            xv, ov = Val(xs, x.type), Val(os, o.type)
            return S.case([(pick(xv, ov), _pick(t, xv))], _pick(t, ov))
        value = share(c.lowerer, o.sql, inner)
        return value if _never_null(x.sql) else S.case([(S.not_null(xs), value)])
    return Val(share(c.lowerer, x.sql, build), t)


method("min", NUM, ("numeric",))(lambda c: _min_max(c, _less))
method("max", NUM, ("numeric",))(lambda c: _min_max(c, _greater))


# ---- dates ----------------------------------------------------------------------------------
def _part(c: Call, spark: str, datetime_only: bool = False) -> Val:
    if c.recv.type.kind == "datetime" or (c.recv.type.kind == "date" and not datetime_only):
        return Val(S.cast(S.fn(spark, c.recv.sql), "BIGINT"), T.INT)
    return Val(typed_null(T.INT), T.INT)


for _name, _spark, _dt_only in (("year", "year", False), ("month", "month", False),
                                ("day", "dayofmonth", False), ("hour", "hour", True),
                                ("minute", "minute", True), ("second", "second", True)):
    method(_name, DATES)(lambda c, _s=_spark, _o=_dt_only: _part(c, _s, _o))

# Days Spark can add without overflowing (chrono's range is smaller anyway).
_MAX_DAYS = 100_000_000
_MAX_MONTHS = 3_000_000


def _count(c: Call, limit: int) -> tuple[exp.Expression, exp.Expression]:
    """`as_i64(arg).unwrap_or(0)` and whether it is within `limit`."""
    n = S.fn("coalesce", int_arg(c.args[0]), S.bigint(0))
    return n, exp.Between(this=n, low=S.bigint(-limit), high=S.bigint(limit))


@method("add_days", DATES, ("int",))
def _add_days(c: Call) -> Val:
    n, ok = _count(c, _MAX_DAYS)
    if c.recv.type.kind == "date":
        return Val(S.case([(ok, S.fn("date_add", c.recv.sql, S.cast(n, "INT")))]), T.DATE)
    if c.recv.type.kind == "datetime":
        value = S.fn("timestampadd", exp.var("DAY"), n, c.recv.sql)
        return Val(S.case([(ok, value)]), T.DATETIME)
    return Val(typed_null(T.DATE), T.DATE)


def _add_months(c: Call, factor: int) -> Val:
    if c.recv.type.kind != "date":  # a DateTime gives null
        return Val(typed_null(T.DATE), T.DATE)
    n, ok = _count(c, _MAX_MONTHS // factor)
    months = n if factor == 1 else exp.Mul(this=n, expression=S.bigint(factor))
    return Val(S.case([(ok, S.fn("add_months", c.recv.sql, S.cast(months, "INT")))]), T.DATE)


method("add_months", DATES, ("int",))(lambda c: _add_months(c, 1))
method("add_years", DATES, ("int",))(lambda c: _add_months(c, 12))


@method("diff_days", DATES, ("date",))
def _diff_days(c: Call) -> Val:
    if c.recv.type.kind != "date" or c.kind(0) != "date":
        return Val(typed_null(T.INT), T.INT)
    return Val(S.cast(S.fn("datediff", c.recv.sql, c.arg(0)), "BIGINT"), T.INT)


# Not implemented in Clinker: always null.
method("diff_months", DATES, ("date",))(lambda c: Val(typed_null(T.INT), T.INT))
method("diff_years", DATES, ("date",))(lambda c: Val(typed_null(T.INT), T.INT))


@method("format_date", DATES, ("string",))
def _format_date(c: Call) -> Val:
    from clinker_sql.cxl.strftime import format_expression

    if c.recv.type.kind not in DATES:
        return Val(typed_null(T.STRING), T.STRING)
    lit = c.literal(0)
    if lit is not None and lit.kind == "null":
        return Val(typed_null(T.STRING), T.STRING)
    fmt = c.literal_string(0, "format")
    value = share(c.lowerer, c.recv.sql,
                  lambda x: format_expression(x, fmt, c.node.args[0],
                                              has_time=c.recv.type.kind == "datetime"))
    return Val(c.when_recv(value), T.STRING)
