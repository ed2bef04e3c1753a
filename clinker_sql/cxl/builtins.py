"""CXL builtin methods -> Spark SQL (spec §5-§6).

One-to-one builtins are rows of `SIMPLE`; every irregular builtin is a small
function registered with `@method`. Anything not listed is refused with a
diagnostic that names it (never silently mistranslated).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from sqlglot import exp

from clinker_sql.codegen import sql as S
from clinker_sql.cxl import ast as a
from clinker_sql.cxl import types as T
from clinker_sql.cxl.lower import Fault, Val, error
from clinker_sql.cxl.text import to_text
from clinker_sql.cxl.types import CxlType

if TYPE_CHECKING:
    from clinker_sql.cxl.lower import Lowerer


@dataclass(frozen=True)
class Call:
    node: a.MethodCall
    recv: Val
    args: list[Val]
    lowerer: Lowerer

    def arg(self, i: int) -> exp.Expression:
        return self.args[i].sql

    def literal_string(self, i: int, what: str) -> str:
        node = self.node.args[i]
        if not (isinstance(node, a.Literal) and node.kind == "string"):
            raise error("E200", f"{self.node.method}() needs a string literal {what}", node)
        return node.value


Handler = Callable[[Call], Val]
METHODS: dict[str, tuple[tuple[str, ...], tuple[int, int], Handler]] = {}

STR, NUM, ANYK = ("string",), ("int", "float", "decimal"), ("*",)
DATES = ("date", "datetime")


def method(name: str, receivers: tuple[str, ...], arity: tuple[int, int] = (0, 0)):
    def register(fn: Handler) -> Handler:
        METHODS[name] = (receivers, arity, fn)
        return fn
    return register


def simple(name: str, receivers: tuple[str, ...], spark: str, result: CxlType,
           arity: int = 0) -> None:
    def handler(c: Call) -> Val:
        return Val(S.fn(spark, c.recv.sql, *[v.sql for v in c.args]), result)
    METHODS[name] = (receivers, (arity, arity), handler)


simple("upper", STR, "upper", T.STRING)
simple("lower", STR, "lower", T.STRING)
simple("reverse", STR, "reverse", T.STRING)
simple("starts_with", STR, "startswith", T.BOOL, 1)
simple("ends_with", STR, "endswith", T.BOOL, 1)
simple("contains", STR, "contains", T.BOOL, 1)
simple("year", DATES, "year", T.INT)
simple("month", DATES, "month", T.INT)
simple("day", DATES, "dayofmonth", T.INT)


def lower_method(lw: Lowerer, e: a.MethodCall) -> Val:
    entry = METHODS.get(e.method)
    if entry is None:
        raise error("CS001" if e.method in KNOWN_UNSUPPORTED else "E203",
                    f"builtin method {e.method}() is not supported yet"
                    if e.method in KNOWN_UNSUPPORTED else f"unknown method {e.method}()", e)
    receivers, (lo, hi), handler = entry
    recv = lw.lower(e.receiver)
    if not lo <= len(e.args) <= hi:
        want = str(lo) if lo == hi else f"{lo} to {hi}"
        raise error("E200", f"{e.method}() takes {want} argument(s), got {len(e.args)}", e)
    if recv.type.kind not in ("null", "any") and "*" not in receivers and \
            recv.type.kind not in receivers:
        raise error("E200", f"{e.method}() is not defined on {recv.type}", e,
                    f"it applies to: {', '.join(receivers)}")
    args = [lw.lower(x) for x in e.args]
    out = handler(Call(e, recv, args, lw))
    faults = recv.faults + tuple(f for v in args for f in v.faults) + out.faults
    return Val(out.sql, out.type, faults)


KNOWN_UNSUPPORTED = frozenset({
    "filter", "map", "find", "any", "flat_map", "remove", "keys", "values", "merge", "set",
    "remove_field", "unset", "file_name", "file_stem", "extension", "parent", "parent_name",
})


# ---- conversions (fallible) ---------------------------------------------------------------
def conversion_fault(recv: Val, value: exp.Expression, target: str) -> Fault:
    text = to_text(recv.sql, recv.type)
    message = S.fn("concat", S.string("conversion failed: cannot convert '"), text,
                   S.string(f"' to {target}"))
    return Fault(S.and_(S.not_null(recv.sql), S.is_null(value)), message, text)


def _int_value(recv: Val) -> exp.Expression:
    r, k = recv.sql, recv.type.kind
    if k == "int":
        return r
    if k == "string":
        return S.case([(S.is_true(exp.RegexpLike(this=r, expression=S.string(r"^[+-]?[0-9]+$"))),
                        S.try_cast(r, "BIGINT"))])
    if k == "float":
        # Rust `as i64`: truncate, saturate, NaN -> 0
        return S.case([(S.fn("isnan", r), S.bigint(0)),
                       (exp.GTE(this=r, expression=S.double(9.223372036854775807e18)),
                        S.bigint(S.INT64_MAX)),
                       (exp.LTE(this=r, expression=S.double(-9.223372036854775808e18)),
                        S.bigint(S.INT64_MIN))], S.cast(r, "BIGINT"))
    if k == "decimal":
        return S.try_cast(r, "BIGINT")
    if k == "bool":
        return S.case([(r, S.bigint(1))], S.case([(S.not_null(r), S.bigint(0))]))
    return S.cast(S.null(), "BIGINT")


_FLOAT_RE = r"^[+-]?([0-9]+[.]?[0-9]*([eE][+-]?[0-9]+)?|[.][0-9]+([eE][+-]?[0-9]+)?|" \
            r"(?i:inf|infinity|nan))$"


def _float_value(recv: Val) -> exp.Expression:
    r, k = recv.sql, recv.type.kind
    if k == "float":
        return r
    if k in ("int", "decimal"):
        return S.cast(r, "DOUBLE")
    if k == "string":
        norm = S.fn("regexp_replace", r, S.string("(?i)^([+-]?)inf$"), S.string("$1Infinity"))
        return S.case([(S.is_true(exp.RegexpLike(this=r, expression=S.string(_FLOAT_RE))),
                        S.try_cast(norm, "DOUBLE"))])
    return S.cast(S.null(), "DOUBLE")


def _bool_value(recv: Val) -> exp.Expression:
    r, k = recv.sql, recv.type.kind
    if k == "bool":
        return r
    if k == "string":
        low = S.fn("lower", r)
        return S.case([(exp.In(this=low, expressions=[S.string(x) for x in ("true", "1", "yes")]),
                        S.boolean(True)),
                       (exp.In(this=low, expressions=[S.string(x) for x in ("false", "0", "no")]),
                        S.boolean(False))])
    if k == "int":
        return exp.NEQ(this=r, expression=S.bigint(0))
    return S.cast(S.null(), "BOOLEAN")


_DATE_RE = r"^[0-9]{4}-[0-9]{1,2}-[0-9]{1,2}$"
_DATETIME_RE = r"^[0-9]{4}-[0-9]{1,2}-[0-9]{1,2}[Tt ][0-9]{1,2}:[0-9]{1,2}:[0-9]{1,2}([.][0-9]+)?$"


def _date_value(c: Call, kind: str) -> exp.Expression:
    r = c.recv.sql
    spark_type = "DATE" if kind == "date" else "TIMESTAMP_NTZ"
    if c.recv.type.kind != "string":
        return S.cast(S.null(), spark_type)
    if c.args:
        from clinker_sql.cxl.strftime import java_pattern

        pattern = java_pattern(c.literal_string(0, "format"), c.node, parsing=True)
        parsed = S.fn("try_to_timestamp", r, S.string(pattern))
        return S.try_cast(parsed, spark_type)
    regex = _DATE_RE if kind == "date" else _DATETIME_RE
    return S.case([(S.is_true(exp.RegexpLike(this=r, expression=S.string(regex))),
                    S.try_cast(r, spark_type))])


def _conversion(name: str, target: str, result: CxlType, value_of, fallible: bool,
                receivers: tuple[str, ...] = ANYK, arity: tuple[int, int] = (0, 0)) -> None:
    def handler(c: Call) -> Val:
        value = value_of(c)
        faults = (conversion_fault(c.recv, value, target),) if fallible else ()
        return Val(value, result, faults)
    METHODS[name] = (receivers, arity, handler)


_conversion("to_int", "Int", T.INT, lambda c: _int_value(c.recv), True)
_conversion("try_int", "Int", T.INT,
            lambda c: S.cast(S.null(), "BIGINT") if c.recv.type.kind == "decimal"
            else _int_value(c.recv), False)
_conversion("to_float", "Float", T.FLOAT, lambda c: _float_value(c.recv), True)
_conversion("try_float", "Float", T.FLOAT,
            lambda c: S.cast(S.null(), "DOUBLE") if c.recv.type.kind == "decimal"
            else _float_value(c.recv), False)
_conversion("to_bool", "Bool", T.BOOL, lambda c: _bool_value(c.recv), True)
_conversion("try_bool", "Bool", T.BOOL, lambda c: _bool_value(c.recv), False)
_conversion("to_date", "Date", T.DATE, lambda c: _date_value(c, "date"), True, arity=(0, 1))
_conversion("try_date", "Date", T.DATE, lambda c: _date_value(c, "date"), False, arity=(0, 1))
_conversion("to_datetime", "DateTime", T.DATETIME, lambda c: _date_value(c, "datetime"), True,
            arity=(0, 1))
_conversion("try_datetime", "DateTime", T.DATETIME, lambda c: _date_value(c, "datetime"), False,
            arity=(0, 1))


@method("to_string", ANYK)
def _to_string(c: Call) -> Val:
    return Val(to_text(c.recv.sql, c.recv.type), T.STRING)


METHODS["format"] = (ANYK, (1, 1), lambda c: _to_string(c))


# ---- introspection ------------------------------------------------------------------------
@method("is_null", ANYK)
def _is_null(c: Call) -> Val:
    return Val(S.is_null(c.recv.sql), T.BOOL)


@method("is_empty", ANYK)
def _is_empty(c: Call) -> Val:
    r, k = c.recv.sql, c.recv.type.kind
    if k == "string":
        return Val(S.or_(S.is_null(r), S.eq(r, S.string(""))), T.BOOL)
    if k == "array":
        return Val(S.or_(S.is_null(r), S.eq(S.fn("size", r), S.small_int(0))), T.BOOL)
    return Val(S.is_null(r), T.BOOL)


@method("catch", ANYK, (1, 1))
def _catch(c: Call) -> Val:
    t = T.unify(c.recv.type, c.args[0].type)
    if t is None:
        raise error("E200", "catch() fallback has a different type than the receiver", c.node)
    from clinker_sql.cxl.lower import coerce

    return Val(S.fn("coalesce", coerce(c.recv, t).sql, coerce(c.args[0], t).sql), t)


METHODS["debug"] = (ANYK, (0, 1), lambda c: Val(c.recv.sql, c.recv.type))

_TYPE_NAMES = {"int": "int", "float": "float", "decimal": "decimal", "string": "string",
               "bool": "bool", "date": "date", "datetime": "datetime", "array": "array",
               "map": "map", "null": "null"}


@method("type_of", ANYK)
def _type_of(c: Call) -> Val:
    name = _TYPE_NAMES.get(c.recv.type.kind)
    if name is None:
        raise error("CS001", f"type_of() on a value of unknown type {c.recv.type}", c.node)
    return Val(S.case([(S.is_null(c.recv.sql), S.string("null"))], S.string(name)), T.STRING)


# ---- strings ------------------------------------------------------------------------------
_WS = r"(?U)^\s+|\s+$"


@method("trim", STR)
def _trim(c: Call) -> Val:
    return Val(S.fn("regexp_replace", c.recv.sql, S.string(_WS), S.string("")), T.STRING)


@method("trim_start", STR)
def _trim_start(c: Call) -> Val:
    return Val(S.fn("regexp_replace", c.recv.sql, S.string(r"(?U)^\s+"), S.string("")), T.STRING)


@method("trim_end", STR)
def _trim_end(c: Call) -> Val:
    return Val(S.fn("regexp_replace", c.recv.sql, S.string(r"(?U)\s+$"), S.string("")), T.STRING)


@method("length", ("string", "array"))
def _length(c: Call) -> Val:
    if c.recv.type.kind == "array":
        return Val(S.cast(S.fn("size", c.recv.sql), "BIGINT"), T.INT)
    return Val(S.cast(S.fn("char_length", c.recv.sql), "BIGINT"), T.INT)


@method("replace", STR, (2, 2))
def _replace(c: Call) -> Val:
    r, f, to = c.recv.sql, c.arg(0), c.arg(1)
    # Rust: an empty pattern inserts the replacement between characters.
    between = S.fn("regexp_replace", r, S.string(""), to)
    return Val(S.case([(S.eq(f, S.string("")), between)], S.fn("replace", r, f, to)), T.STRING)


@method("substring", STR, (1, 2))
def _substring(c: Call) -> Val:
    start = exp.Add(this=S.fn("greatest", c.arg(0), S.bigint(0)), expression=S.small_int(1))
    start_i = S.cast(start, "INT")
    if len(c.args) == 1:
        return Val(S.fn("substring", c.recv.sql, start_i), T.STRING)
    length = c.arg(1)
    to_end = S.fn("substring", c.recv.sql, start_i)
    return Val(S.case([(exp.LT(this=length, expression=S.bigint(0)), to_end)],
                      S.fn("substring", c.recv.sql, start_i, S.cast(length, "INT"))), T.STRING)


def _negative_is_null(c: Call, value: exp.Expression) -> Val:
    return Val(S.case([(exp.LT(this=c.arg(0), expression=S.bigint(0)), S.null())], value),
               T.STRING)


METHODS["left"] = (STR, (1, 1), lambda c: _negative_is_null(
    c, S.fn("left", c.recv.sql, S.cast(c.arg(0), "INT"))))
METHODS["right"] = (STR, (1, 1), lambda c: _negative_is_null(
    c, S.fn("right", c.recv.sql, S.cast(c.arg(0), "INT"))))

_MAX_STRING = 10 * 1024 * 1024


def _size_fault(length: exp.Expression) -> Fault:
    too_big = S.is_true(exp.GT(this=length, expression=S.bigint(_MAX_STRING)))
    return Fault(too_big, S.fn("concat", S.string("string output exceeds maximum size ("),
                               S.cast(length, "STRING"),
                               S.string(f" bytes, limit {_MAX_STRING})")))


def _pad(c: Call, spark: str) -> Val:
    width = c.arg(0)
    fill = S.string(" ")
    if len(c.args) == 2:
        fill = S.fn("substring", S.fn("coalesce", S.fn("nullif", c.arg(1), S.string("")),
                                      S.string(" ")), S.small_int(1), S.small_int(1))
    padded = S.fn(spark, c.recv.sql, S.cast(width, "INT"), fill)
    value = S.case([(exp.LT(this=width, expression=S.bigint(0)), S.null()),
                    (exp.GTE(this=S.fn("char_length", c.recv.sql), expression=width),
                     c.recv.sql),
                    (exp.GT(this=width, expression=S.bigint(_MAX_STRING)), S.null())], padded)
    return Val(value, T.STRING, (_size_fault(S.and_(S.not_null(c.recv.sql), width)),))


METHODS["pad_left"] = (STR, (1, 2), lambda c: _pad(c, "lpad"))
METHODS["pad_right"] = (STR, (1, 2), lambda c: _pad(c, "rpad"))


@method("repeat", STR, (1, 1))
def _repeat(c: Call) -> Val:
    n = c.arg(0)
    total = exp.Mul(this=S.cast(S.fn("octet_length", c.recv.sql), "BIGINT"), expression=n)
    value = S.case([(exp.LT(this=n, expression=S.bigint(0)), S.null()),
                    (exp.GT(this=total, expression=S.bigint(_MAX_STRING)), S.null())],
                   S.fn("repeat", c.recv.sql, S.cast(n, "INT")))
    return Val(value, T.STRING, (_size_fault(S.case([(S.not_null(c.recv.sql), total)])),))


@method("split", STR, (1, 1))
def _split(c: Call) -> Val:
    d = c.arg(0)
    quoted = S.fn("concat", S.string("\\Q"), S.fn("replace", d, S.string("\\E"),
                                                   S.string("\\E\\\\E\\Q")), S.string("\\E"))
    # Rust: splitting on "" yields ["", each char..., ""]
    chars = S.fn("concat", S.fn("array", S.string("")),
                 S.fn("split", c.recv.sql, S.string("(?!^)")), S.fn("array", S.string("")))
    empty_recv = S.fn("array", S.string(""), S.string(""))
    value = S.case([(S.eq(d, S.string("")),
                     S.case([(S.eq(c.recv.sql, S.string("")), empty_recv)], chars))],
                   S.fn("split", c.recv.sql, quoted, S.small_int(-1)))
    return Val(value, T.array_of(T.STRING))


@method("join", ("array",), (1, 1))
def _join(c: Call) -> Val:
    elem = c.recv.type.elem or T.STRING
    as_text = exp.Lambda(this=to_text(S.col("x"), elem), expressions=[S.ident("x")])
    strings = S.fn("transform", c.recv.sql, as_text)
    return Val(S.fn("array_join", strings, c.arg(0), S.string("")), T.STRING)


@method("concat", STR, (0, 64))
def _concat(c: Call) -> Val:
    parts = [c.recv.sql] + [to_text(v.sql, v.type) for v in c.args]
    return Val(S.case([(S.not_null(c.recv.sql), S.fn("concat_ws", S.string(""), *parts))]),
               T.STRING)


def _regex(c: Call, i: int) -> str:
    from clinker_sql.cxl.regex import java_regex

    return java_regex(c.literal_string(i, "pattern"), c.node.args[i])


@method("matches", STR, (1, 1))
def _matches(c: Call) -> Val:
    return Val(exp.RegexpLike(this=c.recv.sql, expression=S.string(_regex(c, 0))), T.BOOL)


METHODS["find"] = (STR, (1, 1), _matches)


@method("capture", STR, (1, 2))
def _capture(c: Call) -> Val:
    from clinker_sql.cxl.regex import group_count

    pattern = _regex(c, 0)
    group = 0
    if len(c.args) == 2:
        node = c.node.args[1]
        if not (isinstance(node, a.Literal) and node.kind == "int"):
            raise error("CS001", "capture() needs an integer literal group", node)
        group = node.value
    if group > group_count(c.literal_string(0, "pattern")):
        return Val(S.cast(S.null(), "STRING"), T.STRING)
    extracted = S.fn("regexp_extract", c.recv.sql, S.string(pattern), S.small_int(group))
    hit = exp.RegexpLike(this=c.recv.sql, expression=S.string(pattern))
    return Val(S.case([(S.is_true(hit), S.fn("nullif", extracted, S.string("")))]), T.STRING)


# ---- numbers ------------------------------------------------------------------------------
@method("abs", NUM)
def _abs(c: Call) -> Val:
    r = c.recv.sql
    if c.recv.type.kind == "int":  # i64::MIN.abs() wraps to MIN in Clinker's release build
        return Val(S.case([(S.eq(r, S.bigint(S.INT64_MIN)), r)], S.fn("abs", r)), T.INT)
    return Val(S.fn("abs", r), c.recv.type)


def _ceil_floor(c: Call, spark: str) -> Val:
    r, k = c.recv.sql, c.recv.type.kind
    if k == "int":
        return Val(r, T.INT)
    if k == "decimal":
        return Val(S.fn(spark, r), c.recv.type)
    sat = S.case([(S.fn("isnan", r), S.bigint(0)),
                  (exp.GTE(this=r, expression=S.double(9.223372036854775807e18)),
                   S.bigint(S.INT64_MAX)),
                  (exp.LTE(this=r, expression=S.double(-9.223372036854775808e18)),
                   S.bigint(S.INT64_MIN))], S.cast(S.fn(spark, r), "BIGINT"))
    return Val(sat, T.INT)


METHODS["ceil"] = (NUM, (0, 0), lambda c: _ceil_floor(c, "ceil"))
METHODS["floor"] = (NUM, (0, 0), lambda c: _ceil_floor(c, "floor"))


def _round(c: Call, int_gives_null: bool) -> Val:
    r, k = c.recv.sql, c.recv.type.kind
    n = c.arg(0) if c.args else S.bigint(0)
    if k == "int":
        return Val(S.cast(S.null(), "BIGINT") if int_gives_null else r, T.INT)
    if k == "decimal":
        places = S.cast(S.fn("greatest", n, S.bigint(0)), "INT")
        return Val(S.fn("bround", r, places), c.recv.type)
    scale = S.fn("power", S.small_int(10), n)
    scaled = exp.Mul(this=r, expression=scale)
    rounded = S.fn("round", scaled, S.small_int(0))
    return Val(exp.Div(this=rounded, expression=scale), T.FLOAT)


METHODS["round"] = (NUM, (0, 1), lambda c: _round(c, False))
METHODS["round_to"] = (NUM, (1, 1), lambda c: _round(c, True))


@method("clamp", NUM, (2, 2))
def _clamp(c: Call) -> Val:
    r, lo, hi = c.recv.sql, c.arg(0), c.arg(1)
    return Val(S.case([(S.is_true(exp.LT(this=r, expression=lo)), lo),
                       (S.is_true(exp.GT(this=r, expression=hi)), hi)], r), c.recv.type)


def _min_max(c: Call, node: type[exp.Expression]) -> Val:
    r, o = c.recv.sql, c.arg(0)
    return Val(S.case([(S.is_null(o), S.null()), (node(this=r, expression=o), r)], o),
               c.recv.type)


METHODS["min"] = (NUM + STR + DATES, (1, 1), lambda c: _min_max(c, exp.LT))
METHODS["max"] = (NUM + STR + DATES, (1, 1), lambda c: _min_max(c, exp.GT))


# ---- dates --------------------------------------------------------------------------------
def _time_part(c: Call, spark: str) -> Val:
    if c.recv.type.kind != "datetime":
        return Val(S.cast(S.null(), "BIGINT"), T.INT)
    return Val(S.cast(S.fn(spark, c.recv.sql), "BIGINT"), T.INT)


for _name in ("hour", "minute", "second"):
    METHODS[_name] = (DATES, (0, 0), lambda c, _s=_name: _time_part(c, _s))


@method("add_days", DATES, (1, 1))
def _add_days(c: Call) -> Val:
    if c.recv.type.kind == "date":
        return Val(S.fn("date_add", c.recv.sql, S.cast(c.arg(0), "INT")), T.DATE)
    return Val(S.fn("timestampadd", exp.var("DAY"), c.arg(0), c.recv.sql), T.DATETIME)


def _add_months(c: Call, factor: int) -> Val:
    if c.recv.type.kind != "date":
        return Val(S.cast(S.null(), "DATE"), T.DATE)
    months = c.arg(0) if factor == 1 else exp.Mul(this=c.arg(0), expression=S.bigint(factor))
    return Val(S.fn("add_months", c.recv.sql, S.cast(months, "INT")), T.DATE)


METHODS["add_months"] = (DATES, (1, 1), lambda c: _add_months(c, 1))
METHODS["add_years"] = (DATES, (1, 1), lambda c: _add_months(c, 12))


@method("diff_days", DATES, (1, 1))
def _diff_days(c: Call) -> Val:
    if c.recv.type.kind != "date" or c.args[0].type.kind != "date":
        return Val(S.cast(S.null(), "BIGINT"), T.INT)
    return Val(S.cast(S.fn("datediff", c.recv.sql, c.arg(0)), "BIGINT"), T.INT)


METHODS["diff_months"] = (DATES, (1, 1), lambda c: Val(S.cast(S.null(), "BIGINT"), T.INT))
METHODS["diff_years"] = (DATES, (1, 1), lambda c: Val(S.cast(S.null(), "BIGINT"), T.INT))


@method("format_date", DATES, (1, 1))
def _format_date(c: Call) -> Val:
    from clinker_sql.cxl.strftime import format_expression

    return Val(format_expression(c.recv.sql, c.literal_string(0, "format"), c.node), T.STRING)
