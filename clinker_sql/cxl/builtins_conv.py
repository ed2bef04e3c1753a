"""Conversion and introspection builtins (spec §6.5-§6.6, builtins_impl.rs,
clinker-record coercion.rs). `to_*` raise conversion_failed on a non-null
receiver that does not convert; `try_*` give null instead."""

from __future__ import annotations

from decimal import Decimal, InvalidOperation

from sqlglot import exp

from clinker_sql import sqlbuild as S
from clinker_sql.cxl import functions as F
from clinker_sql.cxl import types as T
from clinker_sql.cxl.lower import Fault, Val, coerce, error
from clinker_sql.cxl.registry import ANY, METHODS, Builtin, Call, method, saturating_int, \
    typed_null
from clinker_sql.cxl.text import to_text
from clinker_sql.cxl.types import CxlType


def conversion_fault(recv: Val, value: exp.Expression, target: str) -> Fault:
    text = to_text(recv.sql, recv.type)
    message = F.call("conversion_failed", text, S.string(target))
    # The test stays written out, not a library function: the view reads the converted
    # value too, and only a call repeated as is gets evaluated once (a function holding
    # the call would match the receiver's regular expression a second time a row).
    return Fault(S.and_(S.not_null(recv.sql), S.is_null(value)), message, text)


def _rlike(x: exp.Expression, pattern: str) -> exp.Expression:
    return S.is_true(exp.RegexpLike(this=x, expression=S.string(pattern)))


def _int_value(c: Call, lenient: bool) -> exp.Expression:
    r, k = c.recv.sql, c.recv.type.kind
    if k == "int":
        return r
    if k == "string":  # Rust's strict i64 parse: sign, digits, nothing else
        return F.call("string_to_int", r)
    if k == "float":  # `f as i64`: truncate, saturate, NaN -> 0
        return saturating_int(r)
    if k == "decimal" and not lenient:  # truncates toward zero; out of range fails
        return S.try_cast(r, "BIGINT")
    if k == "bool":
        return S.case([(r, S.bigint(1))], S.case([(S.not_null(r), S.bigint(0))]))
    return typed_null(T.INT)  # try_int on a Decimal, and every other type


def _float_value(c: Call, lenient: bool) -> exp.Expression:
    r, k = c.recv.sql, c.recv.type.kind
    if k == "float":
        return r
    if k == "int" or (k == "decimal" and not lenient):
        return S.cast(r, "DOUBLE")
    if k == "string":  # Rust's f64 grammar
        return F.call("string_to_float", r)
    return typed_null(T.FLOAT)


def _bool_value(c: Call) -> exp.Expression:
    r, k = c.recv.sql, c.recv.type.kind
    if k == "bool":
        return r
    if k == "string":
        return F.call("string_to_bool", r)
    if k == "int":
        return exp.NEQ(this=r, expression=S.bigint(0))
    return typed_null(T.BOOL)  # a Float fails


_DECIMAL_RE = r"^[+-]?([0-9]+[.]?[0-9]*|[.][0-9]+)([eE][+-]?[0-9]+)?\z"


def _date_value(c: Call, kind: str) -> exp.Expression:
    from clinker_sql.cxl.strftime import java_pattern, parse_complete

    r = c.recv.sql
    spark_type = "DATE" if kind == "date" else "TIMESTAMP_NTZ"
    result = T.DATE if kind == "date" else T.DATETIME
    if c.recv.type.kind != "string":  # even a Date receiver fails (spec §12)
        return typed_null(result)
    if c.args and c.kind(0) != "string":  # a null format parses nothing
        return typed_null(result)
    if c.args:
        fmt = c.literal_string(0, "format")
        if not parse_complete(fmt, c.node.args[0], kind):
            return typed_null(result)  # chrono cannot build a full value: always fails
        pattern = java_pattern(fmt, c.node.args[0])
        return S.try_cast(S.fn("try_to_timestamp", r, S.string(pattern)), spark_type)
    return F.call("string_to_date" if kind == "date" else "string_to_datetime", r)


def _decimal_literal(text: str) -> Decimal | None:
    """rust_decimal's from_str / from_scientific on a literal string."""
    try:
        d = Decimal(text)
    except InvalidOperation:
        return None
    if not d.is_finite() or text != text.strip() or "_" in text:
        return None
    return d


def _decimal_value(c: Call) -> tuple[exp.Expression, CxlType]:
    r, k = c.recv.sql, c.recv.type.kind
    if k == "decimal":
        return r, c.recv.type
    if k == "int":
        t = T.decimal(38, 0)
        return S.cast(r, T.spark_type_sql(t)), t
    if k == "string":
        node = c.node.receiver
        from clinker_sql.cxl import ast as a

        if isinstance(node, a.Literal) and node.kind == "string":
            d = _decimal_literal(node.value)
            if d is None:
                t = T.decimal(38, 0)
                return typed_null(t), t
            scale = max(-d.as_tuple().exponent, 0)  # type: ignore[operator]
            t = T.decimal(38, min(scale, 28))
            return S.try_cast(S.string(node.value), T.spark_type_sql(t)), t
    if k in ("string", "float"):
        # Clinker keeps each value's own scale: a decimal of no declared scale (types.py)
        t = T.decimal(38, T.FREE_SCALE, free=True)
        value = S.try_cast(r, T.spark_type_sql(t))
        if k == "string":  # rust_decimal's from_str, then from_scientific: no blanks
            value = S.case([(_rlike(r, _DECIMAL_RE), value)])
        return value, t
    t = T.decimal(38, 0)
    return typed_null(t), t  # Bool, Date, ... never convert


def _conversion(name: str, target: str, value_of, result: CxlType | None, lenient: bool,
                args: tuple[str, ...] = (), min_args: int = 0) -> None:
    def handler(c: Call) -> Val:
        if result is None:
            value, t = _decimal_value(c)
            if lenient and c.recv.type.kind not in ("int", "decimal", "string"):
                return Val(typed_null(t), t)
        else:
            value, t = value_of(c), result
        faults = () if lenient else (conversion_fault(c.recv, value, target),)
        return Val(value, t, faults)
    METHODS[name] = Builtin(name, ANY, args, min_args, len(args), handler)


_conversion("to_int", "Int", lambda c: _int_value(c, False), T.INT, False)
_conversion("try_int", "Int", lambda c: _int_value(c, True), T.INT, True)
_conversion("to_float", "Float", lambda c: _float_value(c, False), T.FLOAT, False)
_conversion("try_float", "Float", lambda c: _float_value(c, True), T.FLOAT, True)
_conversion("to_bool", "Bool", _bool_value, T.BOOL, False)
_conversion("try_bool", "Bool", _bool_value, T.BOOL, True)
_conversion("to_decimal", "Decimal", None, None, False)
_conversion("try_decimal", "Decimal", None, None, True)
for _lenient, _prefix in ((False, "to"), (True, "try")):
    _conversion(f"{_prefix}_date", "Date", lambda c: _date_value(c, "date"), T.DATE, _lenient,
                ("string",))
    _conversion(f"{_prefix}_datetime", "DateTime", lambda c: _date_value(c, "datetime"),
                T.DATETIME, _lenient, ("string",))


@method("to_string", ANY)
def _to_string(c: Call) -> Val:
    return Val(to_text(c.recv.sql, c.recv.type), T.STRING)


# ---- introspection (a null receiver is allowed) -----------------------------------------------
@method("is_null", ANY)
def _is_null(c: Call) -> Val:
    return Val(S.is_null(c.recv.sql), T.BOOL)


@method("is_empty", ANY)
def _is_empty(c: Call) -> Val:
    r, k = c.recv.sql, c.recv.type.kind
    if k == "string":
        return Val(S.or_(S.is_null(r), S.eq(r, S.string(""))), T.BOOL)
    if k == "array":
        return Val(S.or_(S.is_null(r), S.eq(S.fn("size", r), S.small_int(0))), T.BOOL)
    return Val(S.is_null(r), T.BOOL)  # an empty map is not empty


@method("catch", ANY, ("any",))
def _catch(c: Call) -> Val:
    t = T.unify(c.recv.type, c.args[0].type)
    if t is None:
        # Clinker's typecheck accepts it (catch takes Any and gives Any)
        raise error("CS001", f"catch() with a {c.args[0].type} fallback on a {c.recv.type} "
                    "receiver cannot be translated: its value would be of either type, and a "
                    "Spark column has one", c.node)
    return Val(S.fn("coalesce", coerce(c.recv, t).sql, coerce(c.args[0], t).sql), t)


@method("debug", ANY, ("string",), min_args=0)
def _debug(c: Call) -> Val:
    return Val(c.recv.sql, c.recv.type)  # logging only


@method("type_of", ANY)
def _type_of(c: Call) -> Val:
    name = c.recv.type.kind
    if name in ("any", "json"):
        raise error("CS001", "type_of() on a value whose type is only known at run time",
                    c.node)
    return Val(S.case([(S.is_null(c.recv.sql), S.string("null"))], S.string(name)), T.STRING)
