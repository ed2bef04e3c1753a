"""Array and map expression forms: literals, indexing, comprehensions, `.field`
(spec §3.2), and the per-element fault collection closures share.

Spark arrays and maps hold one element type, so a literal whose elements have
different types (Clinker allows `[1, "a"]`, `{"a": 1, "b": "x"}`, and keeps `[1, 2.5]`
an Int and a Float) holds them as `json` values, each as its JSON text
(cxl/json_values.py).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from sqlglot import exp

from clinker_sql import sqlbuild as S
from clinker_sql.cxl import ast as a
from clinker_sql.cxl import json_values
from clinker_sql.cxl import nested_key
from clinker_sql.cxl import types as T
from clinker_sql.cxl.lower import Fault, Val, coerce, error, guard_all
from clinker_sql.cxl.registry import lam, typed_null

if TYPE_CHECKING:
    from clinker_sql.cxl.lower import Lowerer


# ---- element faults -------------------------------------------------------------------------
def element_faults(lw: Lowerer, arr: exp.Expression, var: str, faults: tuple[Fault, ...],
                   upto: exp.Expression | None = None) -> tuple[Fault, ...]:
    """The faults of a body evaluated once per element of `arr` (element bound to
    `var`) as one array-level fault: the first element whose body fails, and that
    body's first failing check. `upto` limits evaluation to elements whose 0-based
    index is <= upto (find/any stop at the first match); NULL means all."""
    if not faults:
        return ()
    idx = lw.fresh("i")
    message = S.case([(S.is_true(f.cond), f.message) for f in faults])
    value = S.case([(S.is_true(f.cond), f.value if f.value is not None else S.null())
                    for f in faults])
    if upto is not None:
        reached = S.fn("coalesce", exp.LTE(this=S.col(idx), expression=S.paren(upto)),
                       S.boolean(True))
        message = S.case([(reached, message)])
        value = S.case([(reached, value)])
    entry = S.fn("named_struct", S.string("m"), message, S.string("v"),
                 S.cast(value, "STRING"))
    s = lw.fresh("f")
    failing = S.fn("filter", S.fn("transform", arr, lam(entry, var, idx)),
                   lam(S.not_null(exp.Dot(this=S.col(s), expression=S.ident("m"))), s))
    first = S.fn("get", failing, S.small_int(0))
    return (Fault(S.not_null(first), exp.Dot(this=first.copy(), expression=S.ident("m")),
                  exp.Dot(this=first.copy(), expression=S.ident("v")), faults[0].category),)


def as_array(v: Val) -> Val:
    """A `json` value where an array is expected: its elements (null: not an array)."""
    if v.type.kind != "json":
        return v
    return Val(json_values.elements(v.sql), T.array_of(T.JSON), v.faults)


def as_map(v: Val) -> Val:
    """A `json` value where a map is expected: its entries (null: not an object)."""
    if v.type.kind != "json":
        return v
    return Val(json_values.entries(v.sql), T.CxlType("map", T.JSON), v.faults)


def elem_type(t: T.CxlType) -> T.CxlType:
    return t.elem if t.elem is not None else T.NULL


def _same_type(lw: Lowerer, vals: list[Val], what: str, node: a.Expr) -> T.CxlType:
    """The one type all non-null values share; `json` when they differ (each value
    then held as its JSON text)."""
    t: T.CxlType = T.NULL
    for v in vals:
        k = v.type
        if k.kind == "null":
            continue
        if t.kind == "null":
            t = k
            continue
        if k != t:
            u = T.unify(t, k)
            if u is not None and u.kind in ("array", "map") and u.kind == t.kind == k.kind:
                t = u  # e.g. [[], [1]]: empty inner arrays take the other's element type
                continue
            return T.JSON
    return t


def _held(v: Val, t: T.CxlType) -> exp.Expression:
    """An element or value of a literal as the literal's element type holds it."""
    if t.kind == "json":
        return json_values.text_of(v.sql, v.type)
    return coerce(v, t).sql if t.kind != "null" else v.sql


# ---- literals ---------------------------------------------------------------------------------
def array_literal(lw: Lowerer, e: a.ArrayLit) -> Val:
    items = [lw.lower(x) for x in e.items]
    t = _same_type(lw, items, "an array literal", e)
    faults = tuple(f for v in items for f in v.faults)
    if not items:
        return Val(S.cast(S.fn("array"), T.spark_type_sql(T.array_of(T.NULL))),
                   T.array_of(T.NULL), faults)
    sql = [_held(v, t) for v in items]
    value = S.fn("array", *sql)
    if t.kind == "null":
        value = S.cast(value, T.spark_type_sql(T.array_of(T.NULL)))
    return Val(value, T.array_of(t), faults)


def map_literal(lw: Lowerer, e: a.MapLit) -> Val:
    faults: list[Fault] = []
    keys: list[exp.Expression] = []
    logical: list[exp.Expression] = []
    values: list[Val] = []
    checks: list[exp.Expression] = []  # all must hold for the map to be built
    seen: list[tuple[exp.Expression, str | None]] = []
    for key_node, value_node in e.entries:
        if isinstance(key_node, a.Literal) and key_node.kind == "string":
            # the parser refused a static key that is not canonical or repeats one (E202)
            text = key_node.value
            decoded = nested_key.decode(text)
            decoded_sql: exp.Expression = S.string(decoded if decoded is not None else text)
            for prev_sql, prev_text in seen:
                if prev_text is None:  # a computed key before it
                    dup = S.is_true(S.eq(prev_sql, decoded_sql))
                    faults.append(Fault(dup, S.string(f"duplicate map key '{decoded}'")))
                    checks.append(S.not_(dup))
            seen.append((decoded_sql, decoded))
            key_sql: exp.Expression = S.string(text)
        else:
            k = lw.lower(key_node)
            if k.type.kind not in ("string", "any"):
                raise error("E200", f"computed map key must be String, got {k.type}", key_node,
                            "convert the key explicitly with `.to_string()`")
            faults.extend(k.faults)
            key_sql = k.sql
            null_key = S.is_null(k.sql)
            faults.append(Fault(null_key, S.string(
                "type mismatch: expected non-null String map key, got null")))
            checks.append(S.not_null(k.sql))
            escaped = S.fn("startswith", k.sql, S.string("\\"))
            rest = S.fn("substring", k.sql, S.small_int(2))
            canonical = S.or_(S.fn("startswith", rest, S.string("@")),
                              S.eq(rest, S.string("#text")),
                              S.fn("startswith", rest, S.string("\\")))
            bad = S.is_true(S.and_(escaped, S.not_(canonical)))
            dbg = S.fn("concat", S.string('"'), S.fn("replace", S.fn("replace", k.sql,
                       S.string("\\"), S.string("\\\\")), S.string('"'), S.string('\\"')),
                       S.string('"'))
            faults.append(Fault(bad, S.fn("concat", S.string("invalid nested map key "), dbg,
                                          S.string(": non-canonical nested key escape in "),
                                          dbg, S.string(nested_key.ESCAPE_TAIL)),
                                k.sql))
            checks.append(S.not_(bad))
            decoded_sql = S.case([(escaped, rest)], k.sql)
            for prev_sql, _prev in seen:
                dup = S.is_true(S.eq(prev_sql, decoded_sql))
                faults.append(Fault(dup, S.fn("concat", S.string("duplicate map key '"),
                                              decoded_sql, S.string("'"))))
                checks.append(S.not_(dup))
            seen.append((decoded_sql, None))
        v = lw.lower(value_node)
        faults.extend(v.faults)
        keys.append(key_sql)
        logical.append(decoded_sql)
        values.append(v)
    t = _same_type(lw, values, "a map literal", e)
    vt = T.CxlType("map", t)
    if not values:
        return Val(S.cast(S.fn("map"), T.spark_type_sql(vt)), vt, tuple(faults))
    args: list[exp.Expression] = []
    for k_sql, v in zip(keys, values):
        args += [k_sql, _held(v, t)]
    value = S.fn("map", *args)
    if t.kind == "null":
        value = S.cast(value, T.spark_type_sql(vt))
    if checks:
        value = S.case([(S.and_(*checks), value)], typed_null(vt))
    return Val(value, vt, tuple(faults))


# ---- indexing ---------------------------------------------------------------------------------
def index(lw: Lowerer, e: a.Index) -> Val:
    target = lw.lower(e.target)
    idx = lw.lower(e.index)
    faults = target.faults + guard_all(idx.faults, S.not_null(target.sql))
    tk, ik = target.type.kind, idx.type.kind
    if tk == "json":  # an array's element or an object's entry, chosen by the index type
        if ik in ("int", "null"):
            value = S.fn("get", json_values.elements(target.sql), S.try_cast(idx.sql, "INT"))
            return Val(value, T.JSON, faults)
        if ik in ("string", "json"):
            key = idx.sql if ik == "string" else json_values.as_scalar(idx.sql, T.STRING)
            return Val(S.fn("try_element_at", json_values.entries(target.sql), key), T.JSON,
                       faults)
    if tk == "array" and ik in ("int", "null", "any"):
        t = elem_type(target.type)
        value = S.fn("get", target.sql, S.try_cast(idx.sql, "INT"))
        return Val(value, t, faults)
    if tk == "map" and ik in ("string", "null", "any"):
        t = elem_type(target.type)
        return Val(S.fn("try_element_at", target.sql, idx.sql), t, faults)
    # Anything else (a scalar receiver, a float index, ...) is null in Clinker.
    return Val(S.null(), T.NULL, faults)


def field(lw: Lowerer, e: a.Field) -> Val:
    """Clinker parses `expr.name` on a non-name receiver as the zero-argument
    method call `expr.name()`; a name that is no builtin always fails."""
    from clinker_sql.cxl.builtins import METHODS  # importing builtins fills the registry

    if e.name in METHODS and METHODS[e.name].min_args == 0:
        return lw.lower(a.MethodCall(e.pos, e.target, e.name, ()))
    lw.lower(e.target)  # report problems in the receiver first
    raise error("E203", f"unknown field or method '{e.name}'", e,
                "to read a map entry write `m[\"name\"]`")


# ---- comprehensions ---------------------------------------------------------------------------
def comprehension(lw: Lowerer, e: a.Comprehension) -> Val:
    src = as_array(lw.lower(e.source))
    if src.type.kind not in ("array", "any"):
        raise error("E200", f"array comprehension requires an Array source, got {src.type}",
                    e.source, "handle null explicitly or provide an Array-valued expression")
    if e.binding in lw.scope.lets or e.binding in lw.scope.columns:
        raise error("E203", f"array-comprehension binding '{e.binding}' shadows an existing "
                    "name", e, "choose a fresh binding name for the comprehension")
    var = lw.fresh("b")
    inner = lw.nested({e.binding: Val(S.col(var), elem_type(src.type))})
    pred = inner.lower(e.predicate) if e.predicate is not None else None
    item = inner.lower(e.item)
    if pred is not None and pred.type.kind not in ("bool", "any"):
        raise error("E200", f"array-comprehension predicate must be Bool, got {pred.type}",
                    e.predicate or e, "use an explicit boolean comparison")
    source_null = Fault(S.is_null(src.sql), S.string(
        "type mismatch: expected Array comprehension source, got null"))
    per_elem: list[Fault] = []
    kept: exp.Expression = S.boolean(True)
    if pred is not None:
        per_elem += list(pred.faults)
        per_elem.append(Fault(S.is_null(pred.sql), S.string(
            "type mismatch: expected Bool comprehension predicate, got null")))
        kept = S.is_true(pred.sql)
    per_elem += list(guard_all(item.faults, kept if pred is not None else None))
    items = S.fn("transform", src.sql, lam(item.sql, var))
    if pred is not None:
        filtered = S.fn("filter", src.sql, lam(kept, var))
        items = S.fn("transform", filtered, lam(item.sql, var))
    faults = src.faults + (source_null,) + element_faults(lw, src.sql, var, tuple(per_elem))
    t = item.type if item.type.kind != "null" else T.NULL
    return Val(items, T.array_of(t), faults)
