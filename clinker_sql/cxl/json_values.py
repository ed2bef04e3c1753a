"""JSON values of dynamic shape (CXL type `json`): a JSON source's `any` field holding
arrays, and what is read out of it (`items[0]`, `it["price"]`, `g` in `emit each`).

A `json` value is held as its JSON text (a STRING), exactly as the file spells it: a
Spark VARIANT would sort an object's keys, and Clinker keeps them in document order
(its maps are IndexMaps: `keys()`, `set()` and the writers follow that order). A JSON
null is SQL NULL. VARIANT is used only to learn a value's type (`schema_of_variant`)
and to read a scalar out of it.

- `elements` / `entries`: an array's elements / an object's entries as `json` texts, in
  document order (an ARRAY<STRING> / MAP<STRING, STRING>), so that the array and map
  builtins, closures and `emit each` run on them unchanged;
- `as_scalar`: a `json` value read as a CXL scalar type where one is expected (a
  comparison with an Int, ...): null when it holds another type;
- `text_of`: any CXL value as JSON text (a value `set()` puts into an object);
- `object_text`: a MAP<STRING, json> back to JSON text (`unset("a.b")`);
- `text_of` for a JSON sink (codegen/sink.py builds a record holding `json` values as
  text); `for_json_sink`, the same value as VARIANTs (a map's `to_json`); `cell` /
  `csv_guard`: a CSV cell.
"""

from __future__ import annotations

from hashlib import sha1

from sqlglot import exp

from clinker_sql import sqlbuild as S
from clinker_sql.cxl import functions
from clinker_sql.cxl import types as T

def _fresh(stem: str, of: exp.Expression) -> str:
    """A lambda variable's name, the same in every compile: derived from the expression
    the lambda works on, so that a lambda nested in another's input has another name."""
    return f"j{stem}_{sha1(S.to_sql(of).encode()).hexdigest()[:8]}"


def _lam(body: exp.Expression, *names: str) -> exp.Lambda:
    return exp.Lambda(this=body, expressions=[S.ident(n) for n in names])


def _variant(text: exp.Expression) -> exp.Expression:
    """The VARIANT of a JSON text (always valid here; `try_parse_json` because sqlglot
    drops a `parse_json` call when it prints Spark SQL)."""
    return S.fn("try_parse_json", text)


def elements(text: exp.Expression) -> exp.Expression:
    """A JSON array's elements as JSON texts (null: not an array)."""
    return functions.call("json_elements", text)


def entries(text: exp.Expression) -> exp.Expression:
    """A JSON object's entries, key to JSON text, in document order (null: not an
    object)."""
    return functions.call("json_entries", text)


_AS = {"string": "json_as_string", "bool": "json_as_bool"}


def as_scalar(text: exp.Expression, t: T.CxlType) -> exp.Expression:
    """A `json` value as the scalar type `t` (string, bool, else a number as a Float):
    null when it holds another type."""
    return functions.call(_AS.get(t.kind, "json_as_double"), text)


def _string_text(x: exp.Expression) -> exp.Expression:
    """A string as a JSON string literal."""
    return functions.call("json_string", x)


def text_of(x: exp.Expression, t: T.CxlType) -> exp.Expression:
    """Any CXL value as JSON text (null stays null)."""
    k = t.kind
    if k == "json":
        return x
    if k == "null":
        return S.cast(S.null(), "STRING")
    if k == "string":
        return _string_text(x)
    if k in ("int", "bool"):
        return S.cast(x, "STRING")
    if k in ("float", "decimal"):  # as TO_JSON writes it
        return S.fn("regexp_extract", S.fn("to_json", S.fn("array", x)),
                    S.string(r"^\[(.*)\]$"), S.small_int(1))
    if k == "array":
        e = _fresh("e", x)
        inner = S.fn("transform", x, _lam(S.fn("coalesce", text_of(S.col(e), t.elem or T.NULL),
                                                S.string("null")), e))
        return S.case([(S.not_null(x.copy()), S.fn(
            "concat", S.string("["), S.fn("array_join", inner, S.string(",")), S.string("]")))])
    if k == "map":
        return object_text(x, t.elem or T.NULL)
    return _string_text(S.cast(x, "STRING"))  # a date or datetime: its text


def object_text(m: exp.Expression, elem: T.CxlType) -> exp.Expression:
    """A MAP<STRING, _> as a JSON object's text, keys in the map's order."""
    e = _fresh("e", m)
    key = exp.Dot(this=S.col(e), expression=S.ident("key"))
    value = exp.Dot(this=S.col(e), expression=S.ident("value"))
    pair = S.fn("concat", _string_text(logical_key(key)), S.string(":"),
                S.fn("coalesce", text_of(value, elem), S.string("null")))
    inner = S.fn("array_join", S.fn("transform", S.fn("map_entries", m), _lam(pair, e)),
                 S.string(","))
    return S.case([(S.not_null(m.copy()), S.fn("concat", S.string("{"), inner,
                                                S.string("}")))])


def holds_json(t: T.CxlType) -> bool:
    return t.kind == "json" or (t.kind in ("array", "map") and t.elem is not None
                                and holds_json(t.elem))


def for_json_sink(x: exp.Expression, t: T.CxlType) -> exp.Expression:
    """A value holding `json` parts as a JSON sink nests it: each part a VARIANT
    (`to_json` writes it as the JSON it is; an object's keys come out sorted)."""
    if t.kind == "json":
        return _variant(x)
    if t.kind == "array" and t.elem is not None and holds_json(t.elem):
        e = _fresh("e", x)
        return S.fn("transform", x, _lam(for_json_sink(S.col(e), t.elem), e))
    if t.kind == "map" and t.elem is not None and holds_json(t.elem):
        k, v = _fresh("k", x), _fresh("v", x)
        values = S.fn("transform_values", x, _lam(for_json_sink(S.col(v), t.elem), k, v))
        return S.fn("transform_keys", values, _lam(logical_key(S.col(k)), k, v))
    return x


def logical_key(key: exp.Expression) -> exp.Expression:
    """A map key as the writers spell it: an escaped reserved-looking key (`\\@id`,
    `\\#text`, `\\\\x`; cxl/nested_key.py, its escape checked where the map is built)
    without its backslash."""
    return S.case([(S.fn("startswith", key, S.string("\\")),
                    S.fn("substring", key.copy(), S.small_int(2)))], key.copy())


def cell(x: exp.Expression) -> exp.Expression:
    """A `json` value as a CSV cell (a DLQ entry's too): a string as its characters,
    anything else as its JSON text."""
    return functions.call("json_cell", x)


def csv_guard(x: exp.Expression, t: T.CxlType) -> exp.Expression:
    """A value a CSV sink writes: a `json` value (or an array's `json` element) holding an
    object or array stops the run, as Clinker's CSV writer refuses a map or a nested
    array in a cell (UnserializableMapValue / UnserializableArrayValue)."""
    if t.kind == "array" and t.elem is not None and t.elem.kind == "json":
        e = _fresh("e", x)
        return S.fn("transform", x, _lam(csv_guard(S.col(e), t.elem), e))
    if t.kind != "json":
        return x
    nested = S.or_(S.fn("startswith", x, S.string("{")), S.fn("startswith", x.copy(),
                                                               S.string("[")))
    return S.case([(S.is_true(nested), S.fn("raise_error", S.string(
        "a CSV cell cannot hold a JSON object or array (Clinker's CSV writer refuses a map "
        "or a nested array value)")))], x.copy())
