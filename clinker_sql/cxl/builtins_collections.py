"""Array and map builtins, closures included (spec §6.7-§6.8, compiled.rs
compile_maplike, builtins_impl.rs)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from sqlglot import exp

from clinker_sql import sqlbuild as S
from clinker_sql.cxl import ast as a
from clinker_sql.cxl import json_values
from clinker_sql.cxl import types as T
from clinker_sql.cxl.containers import elem_type, element_faults
from clinker_sql.cxl.lower import Val, coerce, error
from clinker_sql.cxl.registry import Call, lam, method, share, typed_null

if TYPE_CHECKING:
    from clinker_sql.cxl.lower import Lowerer

# Closure methods; `find` shares its entry with the String regex form.
for _name in ("filter", "map", "any", "flat_map"):
    method(_name, ("array",), ("any",), closure=True)(lambda c: Val(S.null(), T.NULL))


def lower_closure(lw: Lowerer, e: a.MethodCall, recv: Val, closure: a.Lambda) -> Val:
    """filter / map / find / any / flat_map with `it => body`. The body runs once
    per element, only for a non-null array receiver."""
    var = lw.fresh("it")
    et = elem_type(recv.type)
    body = lw.nested({"it": Val(S.col(var), et)}).lower(closure.body)
    arr, m = recv.sql, e.method
    true = S.is_true(body.sql)
    upto = None
    if m in ("find", "any"):  # evaluation stops at the first match
        i, h = lw.fresh("i"), lw.fresh("h")
        hits = S.fn("filter", S.fn("transform", arr, lam(S.case([(true, S.col(i))]), var, i)),
                    lam(S.not_null(S.col(h)), h))
        upto = S.fn("get", hits, S.small_int(0))
    faults = recv.faults + element_faults(lw, arr, var, body.faults, upto)
    out = _closure_value(lw, m, arr, var, et, recv, body, true, faults)
    if recv.type.kind == "null":  # a null receiver skips the body
        return Val(typed_null(out.type), out.type, recv.faults)
    return out


def _closure_value(lw: Lowerer, m: str, arr: exp.Expression, var: str, et: T.CxlType,
                   recv: Val, body: Val, true: exp.Expression, faults) -> Val:
    if m == "filter":
        t = recv.type if recv.type.kind == "array" else T.array_of(T.NULL)
        return Val(S.fn("filter", arr, lam(true, var)), t, faults)
    if m == "map":
        return Val(S.fn("transform", arr, lam(body.sql, var)), T.array_of(body.type), faults)
    if m == "find":
        return Val(S.fn("get", S.fn("filter", arr, lam(true, var)), S.small_int(0)), et, faults)
    if m == "any":
        value = S.case([(S.not_null(arr), S.fn("exists", arr, lam(true, var)))])
        return Val(value, T.BOOL, faults)
    # flat_map: array results are concatenated, null results skipped, scalars appended
    mapped = S.fn("transform", arr, lam(body.sql, var))
    y = lw.fresh("y")
    kept = S.fn("filter", mapped, lam(S.not_null(S.col(y)), y))
    if body.type.kind == "array":
        return Val(S.fn("flatten", kept), T.array_of(elem_type(body.type)), faults)
    if body.type.kind == "null":
        return Val(S.case([(S.not_null(arr), S.cast(S.fn("array"), "ARRAY<STRING>"))]),
                   T.array_of(T.NULL), faults)
    return Val(kept, T.array_of(body.type), faults)


@method("remove", ("array",), ("int",))
def _remove(c: Call) -> Val:
    if c.kind(0) != "int":  # only an Int index; anything else gives null
        return Val(typed_null(c.recv.type), c.recv.type)
    x, j = c.lowerer.fresh("x"), c.lowerer.fresh("j")
    keep = exp.NEQ(this=S.col(j), expression=S.paren(c.arg(0)))
    value = S.case([(S.not_null(c.arg(0)), S.fn("filter", c.recv.sql, lam(keep, x, j)))])
    return Val(value, c.recv.type)


# ---- maps -------------------------------------------------------------------------------------
@method("keys", ("map",))
def _keys(c: Call) -> Val:
    return Val(S.fn("map_keys", c.recv.sql), T.array_of(T.STRING))


@method("values", ("map",))
def _values(c: Call) -> Val:
    return Val(S.fn("map_values", c.recv.sql), T.array_of(elem_type(c.recv.type)))


def _value_type(c: Call, other: T.CxlType) -> T.CxlType:
    mine = elem_type(c.recv.type)
    if other.kind == "null" or other == mine:
        return mine if mine.kind != "null" else other
    if mine.kind == "null":
        return other
    u = T.unify(mine, other)
    if u is not None and u.kind in ("array", "map") and u.kind == mine.kind == other.kind:
        return u
    raise error("CS001", f"{c.node.method}() would mix {mine} and {other} map values, which a "
                "Spark map cannot hold", c.node)


def _as_map(v: Val, t: T.CxlType) -> exp.Expression:
    return coerce(v, T.CxlType("map", t)).sql


@method("merge", ("map",), ("map",))
def _merge(c: Call) -> Val:
    if c.kind(0) != "map":
        return Val(typed_null(c.recv.type), c.recv.type)
    t = _value_type(c, elem_type(c.args[0].type))
    mt = T.CxlType("map", t)
    lw = c.lowerer

    def build(m: exp.Expression) -> exp.Expression:
        def with_other(o: exp.Expression) -> exp.Expression:
            k, v = lw.fresh("k"), lw.fresh("v")
            # Right side wins; an existing key keeps its position (IndexMap insert).
            updated = S.fn("transform_values", m, lam(
                S.case([(S.fn("map_contains_key", o, S.col(k)),
                         S.fn("try_element_at", o, S.col(k)))], S.col(v)), k, v))
            added = S.fn("map_filter", o, lam(S.not_(S.fn("map_contains_key", m, S.col(k))),
                                              k, v))
            return S.case([(S.not_null(o), S.fn("map_concat", updated, added))])
        return share(lw, _as_map(c.args[0], t), with_other)
    return Val(share(lw, _as_map(c.recv, t), build), mt)


def _bare_key(c: Call, i: int = 0) -> str:
    lit = c.literal(i)
    if lit is None or lit.kind != "string":
        raise error("CS001", f"{c.node.method}() needs a literal key to be translated: a key "
                    "with `.` or `[n]` is a nested path", c.node)
    if "." in lit.value or "[" in lit.value:
        raise error("CS001", f"{c.node.method}() with the nested path \"{lit.value}\" cannot "
                    "be translated to Spark SQL; only a bare key can", c.node)
    return lit.value


@method("set", ("map",), ("string", "any"))
def _set(c: Call) -> Val:
    if c.kind(0) != "string":  # a non-String key gives null
        return Val(typed_null(c.recv.type), c.recv.type)
    key = _bare_key(c)
    lw = c.lowerer
    if elem_type(c.recv.type).kind == "json":  # a JSON object: the value as JSON text
        t = T.JSON
        v = json_values.text_of(c.args[1].sql, c.args[1].type)
    else:
        t = _value_type(c, c.args[1].type)
        v = coerce(c.args[1], t).sql if c.kind(1) != "null" else typed_null(t)

    def build(m: exp.Expression) -> exp.Expression:
        k, old = lw.fresh("k"), lw.fresh("v")
        replaced = S.fn("transform_values", m, lam(
            S.case([(S.eq(S.col(k), S.string(key)), v)], S.col(old)), k, old))
        appended = S.fn("map_concat", m, S.fn("map", S.string(key), v))
        return S.case([(S.fn("map_contains_key", m, S.string(key)), replaced)], appended)
    value = share(lw, _as_map(c.recv, t), build)
    return Val(c.when_recv(value), T.CxlType("map", t))


def _without(c: Call, key: exp.Expression) -> exp.Expression:
    k, v = c.lowerer.fresh("k"), c.lowerer.fresh("v")
    return S.fn("map_filter", c.recv.sql, lam(S.not_(S.eq(S.col(k), key)), k, v))


@method("remove_field", ("map",), ("string",))
def _remove_field(c: Call) -> Val:
    if c.kind(0) != "string":
        return Val(typed_null(c.recv.type), c.recv.type)
    return Val(S.case([(S.not_null(c.arg(0)), _without(c, c.arg(0)))]), c.recv.type)


@method("unset", ("map",), ("string",))
def _unset(c: Call) -> Val:
    if c.kind(0) != "string":
        return Val(typed_null(c.recv.type), c.recv.type)
    lit = c.literal(0)
    if elem_type(c.recv.type).kind == "json" and lit is not None and lit.kind == "string" \
            and "." in lit.value and "[" not in lit.value:
        return Val(_unset_path(c, c.recv.sql, lit.value.split(".")), c.recv.type)
    return Val(_without(c, S.string(_bare_key(c))), c.recv.type)


def _unset_path(c: Call, m: exp.Expression, path: list[str]) -> exp.Expression:
    """A JSON object's entries without the nested key `path` (`meta.flag`): the entry on
    the way rewritten when it holds an object, left as it is otherwise."""
    k, v = c.lowerer.fresh("k"), c.lowerer.fresh("v")
    if len(path) == 1:
        return S.fn("map_filter", m, lam(S.not_(S.eq(S.col(k), S.string(path[0]))), k, v))
    inner = json_values.entries(S.col(v))
    rewritten = json_values.object_text(_unset_path(c, inner, path[1:]), T.JSON)
    return S.fn("transform_values", m, lam(S.case([(S.is_true(S.and_(
        S.eq(S.col(k), S.string(path[0])), S.not_null(inner.copy()))), rewritten)],
        S.col(v)), k, v))

