"""CXL binary operators with Clinker's runtime semantics (spec §4.2)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from sqlglot import exp

from clinker_sql import sqlbuild as S
from clinker_sql.cxl import ast as a
from clinker_sql.cxl import json_values
from clinker_sql.cxl import types as T
from clinker_sql.cxl.lower import Fault, Val, coerce, error, guard_all

if TYPE_CHECKING:
    from clinker_sql.cxl.lower import Lowerer

_OP_NAMES = {"+": "addition", "-": "subtraction", "*": "multiplication", "/": "division",
             "%": "modulo"}
_TRY = {"+": "try_add", "-": "try_subtract", "*": "try_multiply"}
_ARITH = {"+": exp.Add, "-": exp.Sub, "*": exp.Mul, "/": exp.Div, "%": exp.Mod}
_ORDER = {"<": exp.LT, ">": exp.GT, "<=": exp.LTE, ">=": exp.GTE}
_BOOLISH = ("bool", "any", "null")


def _is_field(lw: Lowerer, node: a.Expr) -> bool:
    return isinstance(node, a.Name) and node.name in lw.scope.columns and \
        node.name not in lw.scope.lets


def logical(lw: Lowerer, e: a.Binary) -> Val:
    """Clinker's typecheck lets any operand through, except an input field of another type
    (a schema conflict); at run time (eval/compiled.rs compile_binary) a non-bool left
    operand gives null without evaluating the right one, and `true and x` / `false or x`
    give x itself, whatever its type."""
    left, right = lw.lower(e.left), lw.lower(e.right)
    for node, v in ((e.left, left), (e.right, right)):
        if v.type.kind not in _BOOLISH and _is_field(lw, node):
            raise error("E200", f"field '{node.name}' is declared as {v.type} but used as bool "
                        f"by `{e.op}`", e)
    if left.type.kind not in _BOOLISH:
        return Val(S.cast(S.null(), "BOOLEAN"), T.BOOL, left.faults)
    if right.type.kind not in _BOOLISH:
        raise error("CS001", f"`{e.op}` with a {right.type} right operand cannot be translated: "
                    f"Clinker gives that operand's value itself when the left one is "
                    f"{'true' if e.op == 'and' else 'false'}, which a bool column cannot hold",
                    e, "compare the operand to get a bool, e.g. `x != 0`")
    # Short-circuit: `false and x` and `true or x` never evaluate x.
    stop = S.boolean(e.op == "or")
    evaluated = S.not_(S.null_safe_eq(left.sql, stop))
    node = exp.And if e.op == "and" else exp.Or
    value = node(this=S.paren(left.sql), expression=S.paren(right.sql))
    return Val(value, T.BOOL, left.faults + guard_all(right.faults, evaluated))


def _json_operands(left: Val, right: Val) -> tuple[Val, Val]:
    """A JSON value compared with a scalar: read as that scalar's type (a number as a
    Float, the other side too): null when it holds another type."""
    pair = [left, right]
    for i in (0, 1):
        mine, other = pair[i], pair[1 - i]
        if mine.type.kind != "json" or other.type.kind not in (
                "int", "float", "decimal", "string", "bool"):
            continue
        t = T.FLOAT if other.type.numeric else other.type
        pair[i] = Val(json_values.as_scalar(mine.sql, t), t, mine.faults)
        if other.type.numeric and other.type.kind != "float":
            pair[1 - i] = Val(S.cast(other.sql, "DOUBLE"), T.FLOAT, other.faults)
    return pair[0], pair[1]


def equality(e: a.Binary, left: Val, right: Val) -> Val:
    left, right = _json_operands(left, right)
    faults = left.faults + right.faults
    lt, rt = left.type, right.type
    mixed = {lt.kind, rt.kind} == {"float", "decimal"}  # typechecks, never equal at run time
    if T.unify(lt, rt) is None and not mixed and not (
            lt.kind == rt.kind and lt.kind in ("array", "map")):
        # provably different types can never be equal: Clinker's typecheck refuses them
        raise error("E200", f"cannot compare {lt} and {rt} for equality: they are different "
                    "types", e)
    if {lt.kind, rt.kind} & {"array", "map"}:
        # values_equal: arrays and maps never equal anything; two nulls are equal.
        both_null = S.and_(S.is_null(left.sql), S.is_null(right.sql))
        return Val(both_null if e.op == "==" else S.not_(both_null), T.BOOL, faults)
    if mixed:  # a decimal and a float are different types (spec §4.2)
        return Val(S.boolean(e.op == "!="), T.BOOL, faults)
    same = S.null_safe_eq(left.sql, right.sql)
    if "float" in (lt.kind, rt.kind):
        # IEEE: NaN equals nothing, unlike Spark's NaN = NaN.
        same = S.and_(same, S.fn("coalesce", S.not_(S.fn("isnan", _as_double(left))),
                                 S.boolean(True)))
    value = same if e.op == "==" else S.not_(same)
    return Val(value, T.BOOL, faults)


def ordering(e: a.Binary, left: Val, right: Val) -> Val:
    left, right = _json_operands(left, right)
    faults = left.faults + right.faults
    lt, rt = left.type.kind, right.type.kind
    ok = (lt in ("null", "any") or rt in ("null", "any") or
          (left.type.numeric and right.type.numeric and {lt, rt} != {"float", "decimal"}) or
          (lt == rt and lt in ("string", "date", "datetime")))
    if not ok:
        if lt == rt or {lt, rt} <= {"date", "datetime"} or "bool" in (lt, rt):
            # incomparable at run time: false, not an error (spec §4.2)
            return Val(S.boolean(False), T.BOOL, faults)
        raise error("E200", f"cannot compare {left.type} with {right.type}", e)
    node = _ORDER[e.op]
    value = node(this=S.paren(left.sql), expression=S.paren(right.sql))
    if "float" in (lt, rt):
        nan = S.or_(S.fn("isnan", _as_double(left)), S.fn("isnan", _as_double(right)))
        value = S.case([(S.is_true(nan), S.boolean(False))], value)
    return Val(value, T.BOOL, faults)


def _as_double(v: Val) -> exp.Expression:
    return v.sql if v.type.kind == "float" else S.cast(v.sql, "DOUBLE")


def arithmetic(e: a.Binary, left: Val, right: Val) -> Val:
    faults = left.faults + right.faults
    lt, rt = left.type.kind, right.type.kind
    if "null" in (lt, rt):
        t = right.type if lt == "null" else left.type
        return Val(S.cast(S.null(), T.spark_type_sql(t if t.kind != "null" else T.INT)),
                   t if t.kind != "null" else T.INT, faults)
    if e.op == "+" and lt == rt == "string":
        return Val(S.fn("concat", left.sql, right.sql), T.STRING, faults)
    if not (left.type.numeric and right.type.numeric):
        raise error("E200", f"`{e.op}` is not defined for {left.type} and {right.type}", e)
    if {lt, rt} == {"float", "decimal"}:
        raise error("E200", f"`{e.op}` mixes decimal and float; convert one side first", e)
    if lt == rt == "int":
        return _int_arith(e.op, left, right, faults)
    t = T.unify(left.type, right.type)
    assert t is not None
    if t.kind == "float":
        return _float_arith(e.op, coerce(left, t), coerce(right, t), faults)
    return _decimal_arith(e.op, left, right, faults)


def _int_arith(op: str, left: Val, right: Val, faults: tuple[Fault, ...]) -> Val:
    a_, b_ = left.sql, right.sql
    both = S.and_(S.not_null(a_), S.not_null(b_))
    overflow = S.string(f"integer overflow in {_OP_NAMES[op]} operation")
    if op in _TRY:
        value = S.fn(_TRY[op], a_, b_)
        fault = Fault(S.and_(both, S.is_null(value)), overflow)
        return Val(value, T.INT, faults + (fault,))
    zero = S.is_true(S.eq(b_, S.bigint(0)))
    min_neg = S.is_true(S.and_(S.eq(a_, S.bigint(S.INT64_MIN)), S.eq(b_, S.bigint(-1))))
    if op == "/":
        compute: exp.Expression = exp.IntDiv(this=S.paren(a_), expression=S.paren(b_))
    else:
        compute = exp.Mod(this=S.paren(a_), expression=S.paren(b_))
    value = S.case([(S.or_(zero, min_neg), S.null())], compute)
    return Val(value, T.INT, faults + (Fault(zero, S.string("division by zero")),
                                       Fault(min_neg, overflow)))


def _float_arith(op: str, left: Val, right: Val, faults: tuple[Fault, ...]) -> Val:
    a_, b_ = left.sql, right.sql
    node = _ARITH[op]
    compute = node(this=S.paren(a_), expression=S.paren(b_))
    if op == "/":
        zero = S.is_true(S.eq(b_, S.double(0.0)))
        value = S.case([(zero, S.null())], compute)
        return Val(value, T.FLOAT, faults + (Fault(zero, S.string("division by zero")),))
    if op == "%":
        zero = S.is_true(S.eq(b_, S.double(0.0)))
        return Val(S.case([(zero, S.cast(S.string("NaN"), "DOUBLE"))], compute), T.FLOAT,
                   faults)
    return Val(compute, T.FLOAT, faults)


def _decimal_arith(op: str, left: Val, right: Val, faults: tuple[Fault, ...]) -> Val:
    a_, b_ = left.sql, right.sql
    decimals = [v.type for v in (left, right) if v.type.kind == "decimal"]
    t = T.decimal(38, max(d.scale for d in decimals), any(d.free for d in decimals))
    both = S.and_(S.not_null(a_), S.not_null(b_))
    overflow = S.string("integer overflow in decimal operation")
    if op in _TRY:
        value = S.fn(_TRY[op], a_, b_)
        return Val(value, t, faults + (Fault(S.and_(both, S.is_null(value)), overflow),))
    zero = S.is_true(S.eq(b_, S.small_int(0)))
    if op == "/":  # a quotient has the scale its digits need (Spark gives at least 6), not
        # its operands' (Clinker's Decimal division): a free decimal, so that a
        # round_to(2) of 760 * 100 / 1899 keeps 40.02
        t = T.decimal(38, T.FREE_SCALE, free=True)
    compute = S.fn("try_divide", a_, b_) if op == "/" else S.fn("try_mod", a_, b_)
    value = S.case([(zero, S.null())], compute)
    return Val(value, t, faults + (Fault(zero, S.string("division by zero")),
                                   Fault(S.and_(both, S.not_(zero), S.is_null(compute)),
                                         overflow)))
