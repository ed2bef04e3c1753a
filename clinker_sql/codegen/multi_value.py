"""Multi-value columns (`multiple: true`): an ARRAY of the declared type.

Read: a CSV cell is split by its `split_values` entry (Clinker's csv/reader.rs
`decode_record`): an empty cell is [], a cell with no delimiter one element; `escape:`
un-escapes as it splits (`split_text_value_escaped`); `json: true` reads the cell as an
embedded JSON array. A JSON source's field is its array (a lone scalar one element, null
stays null). Each element is then coerced as a scalar cell of the declared type is
(codegen/ingest.py), and one that does not convert is the row's source type error
(schema_coerce.rs applies the scalar rule element-wise).

Write: a CSV sink joins an array column into one cell (csv/writer.rs
`write_joined_cell`) by its `join_values` entry or the defaults (`;`, `on_conflict:
error`): `error` withholds a record one of whose values holds the delimiter and makes it a
DLQ entry (`multi_value_join_collision`, stage `output:<sink>`); `escape` prefixes each
delimiter and escape character with the escape character; `encode_json` writes the JSON
array. Every delimiter reaches Spark as a string literal, quoted for a regex where one is
needed."""

from __future__ import annotations

from dataclasses import replace

from sqlglot import exp

from clinker_sql import sqlbuild as S
from clinker_sql.codegen.context import Context
from clinker_sql.codegen.dlq_shape import dlq_select
from clinker_sql.codegen.ingest import typed_value
from clinker_sql.codegen.plan import SOURCE_FILE, SOURCE_NAME, SOURCE_ROW, ErrorView, Statement
from clinker_sql.codegen.templates import ident, render, select_list, sql
from clinker_sql.config import model as m
from clinker_sql.cxl import types as T
from clinker_sql.cxl.text import to_cell

RAW = "ARRAY<STRING>"
CATEGORY = "multi_value_join_collision"
_VAR = "mv"  # the lambda variable of every element-wise function here


def column_type(c: m.Column) -> T.CxlType:
    """A declared column's CXL type: an array of the declared type when `multiple`."""
    t = T.from_column(c.type, c.precision, c.scale)
    return T.array_of(t) if c.multiple else t


def _lambda(body: exp.Expression) -> exp.Lambda:
    return exp.Lambda(this=body, expressions=[S.ident(_VAR)])


def _elem() -> exp.Expression:
    return S.col(_VAR)


def regex_quote(text: str) -> str:
    """`text` as a Java regex matching it literally: each character that is not a letter
    or a digit behind a backslash (Java reads any such escaped character as itself)."""
    return "".join(ch if ch.isalnum() and ch.isascii() else "\\" + ch for ch in text)


def _empty() -> exp.Expression:
    return S.cast(S.fn("array"), RAW)


def _json_array(text: exp.Expression) -> exp.Expression:
    """The elements of a JSON array's text (each as its text: a string unquoted, anything
    else its JSON); null when the text is not a JSON array."""
    parsed = S.fn("from_json", text, S.string(RAW))
    is_array = S.fn("startswith", S.fn("ltrim", text.copy()), S.string("["))
    return S.case([(S.is_true(is_array), parsed)])


def split_cell(cell: exp.Expression, entry: m.SplitValues) -> exp.Expression:
    """A CSV cell's elements as text (null: `json: true` and not a JSON array)."""
    empty = S.eq(S.fn("coalesce", cell, S.string("")), S.string(""))
    if entry.json:
        parts = _json_array(cell.copy())
    elif entry.escape:
        d, e = regex_quote(entry.delimiter[0]), regex_quote(entry.escape[0])
        # each match starts at an unescaped delimiter (one is put before the cell) and runs
        # to the next: an escape and the character after it are part of the value
        token = f"(?s){d}((?:[^{d}{e}]|{e}.|{e}\\z)*)"
        tokens = S.fn("regexp_extract_all", S.fn("concat", S.string(entry.delimiter[0]),
                                                 cell.copy()), S.string(token), S.small_int(1))
        parts = S.fn("transform", tokens, _lambda(S.fn(
            "regexp_replace", _elem(), S.string(f"(?s){e}(.)"), S.string("$1"))))
    else:
        parts = S.fn("split", cell.copy(), S.string(regex_quote(entry.delimiter)),
                     S.small_int(-1))
    return S.case([(empty, _empty())], parts)


def json_field(text: exp.Expression, kind: str | None) -> exp.Expression:
    """A JSON source's field (as the split view holds it: an array as its JSON text) as
    its elements' text: a lone value is one element, null stays null. `kind`: what the
    compiler saw in the files (codegen/unmapped.py json_keys), None when it read none."""
    if kind in ("array", None):
        return S.fn("from_json", text, S.string(RAW))
    # a scalar, or arrays and scalars mixed (Spark reads an array as its JSON text then)
    return S.case([(S.is_null(text), S.cast(S.null(), RAW)),
                   (S.not_null(_json_array(text.copy())), _json_array(text.copy()))],
                  S.fn("array", text.copy()))


def raw_text(value: exp.Expression, kind: str | None) -> exp.Expression:
    """A JSON source's multi-value field in the split view: an array as its JSON text."""
    if kind == "value":  # a scalar (or arrays and scalars mixed: Spark reads text then)
        return S.cast(value, "STRING")
    return S.fn("to_json", value)  # an array (or an object), or unread files: an array


def elements(cfg: m.SourceConfig, c: m.Column, raw: exp.Expression,
             kind: str | None = None) -> exp.Expression:
    """A multi-value column's elements as text, from its split-view column `raw`."""
    if cfg.format == "csv":
        physical = c.source_name or c.name
        entry = next(e for e in cfg.split_values if e.field == physical)
        return split_cell(raw, entry)
    return json_field(raw, kind)


def typed(c: m.Column, parts: exp.Expression, nulls: bool) -> exp.Expression:
    """The typed array: each element converted as a scalar cell of the column's type."""
    scalar = replace(c, multiple=False)
    return S.fn("transform", parts, _lambda(typed_value(_elem(), scalar, nulls)))


def is_bad(c: m.Column, parts: exp.Expression, nulls: bool, is_bad_scalar,
           raw: exp.Expression, rejects_null: bool) -> exp.Expression:
    """A row's type error in the column: text that is not an array (`json: true`, a null
    the column does not admit) or an element that does not convert."""
    scalar = replace(c, multiple=False)
    elem_bad = is_bad_scalar(_elem(), scalar, typed_value(_elem(), scalar, nulls), nulls)
    missing = S.or_(S.not_null(raw.copy()), S.boolean(rejects_null))
    return S.is_true(S.case([(S.is_null(parts), missing)],
                            S.fn("exists", parts.copy(), _lambda(elem_bad))))


# ---- sinks ------------------------------------------------------------------------------


def _entry(cfg: m.SinkConfig, name: str) -> m.JoinValues:
    return next((e for e in cfg.join_values if e.field == name), m.JoinValues(name))


def _texts(value: exp.Expression, t: T.CxlType) -> exp.Expression:
    """An array's elements as the CSV writer prints each (a null as nothing)."""
    elem = t.elem or T.STRING
    return S.fn("transform", value, _lambda(S.fn("coalesce", to_cell(_elem(), elem),
                                                 S.string(""))))


def joined(cfg: m.SinkConfig, name: str, value: exp.Expression, t: T.CxlType
           ) -> exp.Expression:
    """The one cell a CSV sink writes for the array column `name`."""
    entry = _entry(cfg, name)
    if entry.on_conflict == "encode_json":
        elem = t.elem or T.STRING
        native = elem.kind in ("string", "int", "float", "bool", "null")
        items = value if native else S.fn("transform", value, _lambda(to_cell(_elem(), elem)))
        return S.fn("to_json", items)
    texts = _texts(value, t)
    if entry.on_conflict == "escape":
        d, e = entry.delimiter[0], entry.escape[0]
        texts = S.fn("transform", texts, _lambda(S.fn(
            "replace", S.fn("replace", _elem(), S.string(e), S.string(e + e)),
            S.string(d), S.string(e + d))))
    return S.fn("array_join", texts, S.string(entry.delimiter))


def _collisions(cfg: m.SinkConfig, columns) -> list[tuple[str, exp.Expression]]:
    """(output name, its first value holding the delimiter, or null) of each array column
    joined under `on_conflict: error`, in output order."""
    out = []
    for name, src, t in columns:
        if t.kind != "array":
            continue
        entry = _entry(cfg, name)
        if entry.on_conflict != "error":
            continue
        clashing = S.fn("filter", _texts(S.col(src), t), _lambda(S.fn(
            "contains", _elem(), S.string(entry.delimiter))))
        out.append((name, S.fn("try_element_at", clashing, S.small_int(1))))
    return out


def compile_collisions(ctx: Context, node: m.SinkNode, rows_view: str, relation, columns
                       ) -> str | None:
    """A CSV sink's join collisions: their DLQ entries (an error view, as a node's), and
    the view of the records it writes without them (None: no column can collide)."""
    cfg = node.config
    if cfg.format != "csv":
        return None
    found = _collisions(cfg, columns)
    if not found:
        return None
    bad = S.or_(*[S.not_null(v.copy()) for _, v in found])
    entry = dlq_select(
        source_name=S.col(SOURCE_NAME), source_file=S.col(SOURCE_FILE),
        source_row=S.col(SOURCE_ROW), order=S.col("$source.order"),
        field=S.case([(S.not_null(v.copy()), S.string(n)) for n, v in found]),
        value=S.case([(S.not_null(v.copy()), v.copy()) for _, v in found]),
        category=S.string(CATEGORY),
        detail=S.case([(S.not_null(v.copy()), S.fn(
            "concat", S.string(f"CSV writer joining column \"{n}\" into one delimited cell "
                               "found a value \""), v.copy(), S.string(
                "\" that contains the join delimiter — under `on_conflict: error` the record "
                "is refused rather than emit a cell that would split back wrongly")))
            for n, v in found]),
        stage=S.string(f"output:{node.name}"), trigger=True,
        payload={n: to_cell(S.col(n), t) for n, t in relation.columns + relation.ck})
    err = ctx.view(node.name, "collisions")
    ctx.add(Statement("view", node.name, err, render(
        "node_errors.sql.j2", view=ident(err), input=ident(rows_view),
        select_list=select_list(entry), condition=sql(bad)),
        header=f"sink {node.name}: DLQ entries for records a value of which holds its "
               "multi-value join delimiter (on_conflict: error)"))
    ctx.error_views.append(ErrorView(err, node.name, tuple(
        n for n, _ in relation.columns + relation.ck), 4, "CS106"))
    kept = ctx.view(node.name, "joinable")
    ctx.add(Statement("view", node.name, kept, render(
        "sink_kept.sql.j2", view=ident(kept), input=ident(rows_view),
        condition=sql(S.not_(bad.copy()))),
        header=f"sink {node.name}: the records it writes, without those its multi-value "
               "join refuses"))
    return kept
