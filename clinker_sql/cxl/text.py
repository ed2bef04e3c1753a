"""Values rendered as text exactly as Clinker prints them (spec §6.5.1).

`to_text` is CXL's `to_string()` (DateTime with a space); `to_cell` is what a
CSV sink writes (DateTime with a `T`, arrays joined with `;`).
"""

from __future__ import annotations

from sqlglot import exp

from clinker_sql import sqlbuild as S
from clinker_sql.cxl.types import CxlType


def float_text(x: exp.Expression) -> exp.Expression:
    """Rust's shortest round-trip f64 Display (macros/functions/float_text.sql)."""
    from clinker_sql.cxl import functions

    return functions.call("float_text", x)


def datetime_text(x: exp.Expression, separator: str) -> exp.Expression:
    base = S.fn("date_format", x, S.string(f"yyyy-MM-dd'{separator}'HH:mm:ss"))
    frac = S.fn("date_format", x, S.string("SSSSSS"))
    millis = S.fn("substring", frac, S.small_int(1), S.small_int(3))
    tail = S.case([(S.eq(frac, S.string("000000")), S.string("")),
                   (S.eq(S.fn("substring", frac, S.small_int(4), S.small_int(3)),
                         S.string("000")), S.fn("concat", S.string("."), millis))],
                  S.fn("concat", S.string("."), frac))
    return S.fn("concat", base, tail)


def to_text(x: exp.Expression, t: CxlType) -> exp.Expression:
    k = t.kind
    if k == "string":
        return x
    if k == "json":  # a string as its characters, anything else as its JSON text
        from clinker_sql.cxl import functions

        return functions.call("json_cell", x)
    if k == "float":
        return float_text(x)
    if k == "datetime":
        return datetime_text(x, " ")
    if k == "array":
        elem = t.elem or CxlType("string")
        lam = exp.Lambda(this=S.fn("coalesce", to_text(S.col("e"), elem), S.string("")),
                         expressions=[S.ident("e")])
        inner = S.fn("array_join", S.fn("transform", x, lam), S.string(", "), S.string(""))
        return S.case([(S.not_null(x), S.fn("concat", S.string("["), inner, S.string("]")))])
    if k == "map":  # {k: v, k2: v2}, a null value printed as nothing
        elem = t.elem or CxlType("string")
        entry = S.col("e")
        key = exp.Dot(this=entry, expression=S.ident("key"))
        value = exp.Dot(this=entry.copy(), expression=S.ident("value"))
        lam = exp.Lambda(this=S.fn("concat", key, S.string(": "),
                                   S.fn("coalesce", to_text(value, elem), S.string(""))),
                         expressions=[S.ident("e")])
        inner = S.fn("array_join", S.fn("transform", S.fn("map_entries", x), lam),
                     S.string(", "))
        return S.case([(S.not_null(x), S.fn("concat", S.string("{"), inner, S.string("}")))])
    if k == "decimal" and t.free:
        return free_decimal_text(x)
    return S.cast(x, "STRING")


def free_decimal_text(x: exp.Expression) -> exp.Expression:
    """A decimal of no declared scale, without the zeros its held scale adds (`24.50` is
    written `24.5`, `3.000` `3`; Clinker writes each value at its own scale)."""
    text = S.cast(x, "STRING")
    digits = exp.Trim(this=text.copy(), expression=S.string("0"), position="TRAILING")
    return S.case([(S.fn("contains", text, S.string(".")),
                    exp.Trim(this=digits, expression=S.string("."), position="TRAILING"))],
                  text.copy())


def to_cell(x: exp.Expression, t: CxlType) -> exp.Expression:
    """A value as a CSV sink (and the DLQ file) writes it."""
    if t.kind == "datetime":
        return datetime_text(x, "T")
    if t.kind == "json":
        from clinker_sql.cxl import json_values

        return json_values.cell(x)
    if t.kind == "map":
        from clinker_sql.cxl import json_values

        return S.fn("to_json", json_values.for_json_sink(x, t))
    if t.kind == "array":
        elem = t.elem or CxlType("string")
        lam = exp.Lambda(this=to_cell(S.col("e"), elem), expressions=[S.ident("e")])
        return S.fn("array_join", S.fn("transform", x, lam), S.string(";"), S.string(""))
    return to_text(x, t)
