"""An XML sink (Clinker's xml/writer.rs): each record's element built as text in SQL.

Spark's XML writer cannot give Clinker's bytes (it indents, declares, names differently),
so each record is one `<Record>...</Record>` text, written by the text writer; the run
puts the records between `<Root>` and `</Root>` with nothing between them
(runtime/outputs.py), as Clinker's writer does: no declaration, no indentation.

- a dotted column name is a path of elements (`address.city` is `<address><city>`),
  columns of one prefix grouped where the prefix first appears (the JSON writer's rule);
- a column whose last segment starts with `attribute_prefix` (`@id`, `address.@type`) is
  an attribute of its enclosing element, left out when null;
- a null element is left out (`preserve_nulls: true`: `<x/>`), an empty text is `<x/>`;
  an element holding nothing but attributes closes itself (`<address type="home"/>`),
  one holding nothing is left out; the record element is always written whole;
- a `multiple:` (array) column is one element per value, in order; an empty array
  writes nothing;
- text escapes & < > " ' (and in an attribute tab, line feed and carriage return as
  character references), as `write_escaped` does;
- values are written as Clinker's `Display` writes them (a date_time with a space).
"""

from __future__ import annotations

import re
from collections.abc import Callable

from sqlglot import exp

from clinker_sql import sqlbuild as S
from clinker_sql.config import model as m
from clinker_sql.cxl.text import datetime_text, to_text
from clinker_sql.cxl.types import CxlType
from clinker_sql.diagnostics import fail

_NAME = re.compile(r"[A-Za-z_:\u00C0-\uFFFF][A-Za-z0-9_:.\-\u00B7\u00C0-\uFFFF]*")
_TEXT_ESCAPES = (("&", "&amp;"), ("<", "&lt;"), (">", "&gt;"), ('"', "&quot;"),
                 ("'", "&apos;"))
_ATTR_ESCAPES = _TEXT_ESCAPES + (("\t", "&#9;"), ("\n", "&#10;"), ("\r", "&#13;"))
_VAR = "xv"


def _escaped(text: exp.Expression, escapes) -> exp.Expression:
    for ch, ref in escapes:
        text = S.fn("replace", text, S.string(ch), S.string(ref))
    return text


def _text(value: exp.Expression, t: CxlType, name: str) -> exp.Expression:
    if t.kind == "datetime":
        return datetime_text(value, " ")
    if t.kind in ("map", "array"):
        raise fail("CS001", f"XML output column '{name}': a {t.kind} value here is not "
                   "supported")
    return to_text(value, t)


def _concat(parts: list[exp.Expression]) -> exp.Expression:
    if not parts:
        return S.string("")
    if len(parts) == 1:
        return parts[0]
    return S.fn("concat", *parts)


def _element(name: str, value: exp.Expression, t: CxlType, column: str,
             preserve_nulls: bool) -> exp.Expression:
    """One element of a scalar value: null left out (or `<x/>`), '' as `<x/>`."""
    text = _text(value, t, column)
    empty = S.string(f"<{name}/>")
    full = _concat([S.string(f"<{name}>"), _escaped(text.copy(), _TEXT_ESCAPES),
                    S.string(f"</{name}>")])
    return S.case([(S.is_null(value.copy()), empty if preserve_nulls else S.string("")),
                   (S.eq(text, S.string("")), empty.copy())], full)


def _leaf(name: str, value: exp.Expression, t: CxlType, column: str,
          preserve_nulls: bool, repeat: tuple[str | None, str | None] | None = None
          ) -> exp.Expression:
    """A leaf column's elements; `repeat`: its `join_values` entry (repeat_as, wrap_in),
    which names each item and wraps them, a scalar as one item."""
    item = (repeat or (None, None))[0] or name
    wrap = (repeat or (None, None))[1]
    if t.kind != "array":
        one = _element(item, value, t, column, preserve_nulls)
        if wrap is None:
            return one
        return S.case([(S.eq(one, S.string("")), S.string(""))], _concat(
            [S.string(f"<{wrap}>"), one.copy(), S.string(f"</{wrap}>")]))
    each = _element(item, S.col(_VAR), t.elem or CxlType("string"), column, preserve_nulls)
    items = S.fn("array_join", S.fn("transform", value, exp.Lambda(
        this=each, expressions=[S.ident(_VAR)])), S.string(""))
    if wrap is not None:
        items = S.case([(S.eq(items, S.string("")), S.string(""))], _concat(
            [S.string(f"<{wrap}>"), items.copy(), S.string(f"</{wrap}>")]))
    empty = f"<{item}/>" if wrap is None else f"<{wrap}><{item}/></{wrap}>"
    return S.case([(S.is_null(value.copy()),
                    S.string(empty if preserve_nulls else ""))], items)


def _attribute(name: str, value: exp.Expression, t: CxlType, column: str) -> exp.Expression:
    if t.kind == "array":
        raise fail("CS001", f"XML output column '{column}': an attribute cannot hold several "
                   "values (E359)")
    return S.case([(S.is_null(value.copy()), S.string(""))], _concat([
        S.string(f' {name}="'), _escaped(_text(value, t, column), _ATTR_ESCAPES),
        S.string('"')]))


def _check_name(name: str, column: str) -> None:
    if not _NAME.fullmatch(name):
        raise fail("CS001", f"XML output column '{column}': {name!r} is not an XML name")


def _tree(columns, prefix: str, path_of: Callable[[str], list[str]]) -> dict:
    """{"attrs": [...], "children": {name: subtree | (value, type, column)}}."""
    root: dict = {"attrs": [], "children": {}}
    for name, value, t in columns:
        *branches, leaf = path_of(name)
        node = root
        for seg in branches:
            if seg.startswith(prefix):
                raise fail("CS001", f"XML output column '{name}': an attribute cannot hold "
                           "elements")
            _check_name(seg, name)
            child = node["children"].setdefault(seg, {"attrs": [], "children": {}})
            if not isinstance(child, dict):
                raise fail("CS001", f"XML output column '{name}' nests under the column "
                           f"'{seg}', which holds a value")
            node = child
        if leaf.startswith(prefix):
            attr = leaf[len(prefix):]
            _check_name(attr, name)
            if any(a == attr for a, *_ in node["attrs"]):
                raise fail("CS001", f"XML output column '{name}' takes the place of another one")
            node["attrs"].append((attr, value, t, name))
        else:
            _check_name(leaf, name)
            if leaf in node["children"]:
                raise fail("CS001", f"XML output column '{name}' takes the place of another "
                           "one, or holds a value where another column nests")
            node["children"][leaf] = (value, t, name)
    return root


def _body(node: dict, preserve_nulls: bool, repeats: dict
          ) -> tuple[exp.Expression, exp.Expression]:
    """(the start tag's attributes, the children's text) of a branch."""
    attrs = _concat([_attribute(a, v, t, c) for a, v, t, c in node["attrs"]])
    children = []
    for name, child in node["children"].items():
        if isinstance(child, dict):
            a, body = _body(child, preserve_nulls, repeats)
            children.append(S.case([
                (S.and_(S.eq(a, S.string("")), S.eq(body, S.string(""))), S.string("")),
                (S.eq(body.copy(), S.string("")),
                 _concat([S.string(f"<{name}"), a.copy(), S.string("/>")]))],
                _concat([S.string(f"<{name}"), a.copy(), S.string(">"), body.copy(),
                         S.string(f"</{name}>")])))
        else:
            value, t, column = child
            children.append(_leaf(name, value, t, column, preserve_nulls,
                                  repeats.get(column)))
    return attrs, _concat(children)


def xml_record(columns: list[tuple[str, exp.Expression, CxlType]], cfg: m.SinkConfig,
               path_of: Callable[[str], list[str]]) -> exp.Expression:
    """A record as its record element's text."""
    opts = cfg.xml or m.XmlSinkOptions()
    repeats = {f: (item, wrap) for f, item, wrap in opts.repeats}
    attrs, body = _body(_tree(columns, opts.attribute_prefix, path_of), cfg.preserve_nulls,
                        repeats)
    record = opts.record_element
    return _concat([S.string(f"<{record}"), attrs, S.string(">"), body,
                    S.string(f"</{record}>")])


def framed(record: exp.Expression) -> exp.Expression:
    """A record's text as the staged line `<length>:<text>` (length in characters): the
    run reads each record whole, line breaks in its values included."""
    return exp.Concat(expressions=[exp.cast(S.fn("length", record.copy()), "STRING"),
                                   exp.Literal.string(":"), record], safe=False,
                      coalesce=False)
