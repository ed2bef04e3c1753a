"""An XML source (Clinker's xml/reader.rs), read by Spark's XML reader.

Spark selects the record elements by the last element name of `record_path` (`rowTag`),
with the declared fields' shape as the schema: every element an ARRAY of STRUCTs (each
occurrence, its text as `#text`, its declared children and attributes), every attribute
a STRING, so that nothing is inferred and every value reaches the typing of
codegen/ingest.py as text. Each declared column is then its path's occurrences:

- a column (`name`, `address.city`) is an element's text, an attribute field
  (`@id`, `address.@type`, with the source's `attribute_prefix`) an attribute's value;
- an empty element (`<x/>`, `<x></x>`) or an empty text is no value: null, as Clinker's
  reader pushes no field for it;
- a `multiple: true` column holds every occurrence in document order, an empty one as a
  null element (Clinker's `record_value_less_occurrence`);
- any other column occurring with more than one value in a record fails the run
  (CS113), as Clinker's reader refuses an undeclared repeat (`UndeclaredRepeatedField`);
- a `string` column whose text Clinker's reader infers as a number or a bool
  (`inferred_xml_value`: an i64, a float spelling, `true` / `false`) is a type error, as
  Clinker's schema check refuses the native value ("native int does not match declared
  string").

`split_to_rows` (Clinker's `apply_split_to_rows`): each entry's element occurrences are
exploded in a view of their own (`<source>.occurrences`, one LATERAL VIEW POSEXPLODE per
entry, in declaration order: a product of the occurrences), so every occurrence is a row
of its own before the rows are numbered, as Clinker numbers the records its reader yields.
A record with no occurrence stays one row (`keep_empty: true`, OUTER) or is dropped. A
column inside the occurrence reads it: under `mode: split` by its full path (`Item.sku`),
under `mode: extract` by the path inside the occurrence (`sku`; the element's own text
keeps its name), where a field of the occurrence shadows the record's field of that name;
a `position_column` holds the occurrence's 1-based position. `split_values` then splits
a `multiple: true` column's texts by the delimiter (Clinker's `split_text_value`: a text
its reader infers as a number or a bool is not split).
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from pathlib import Path

from sqlglot import exp

from clinker_sql import sqlbuild as S
from clinker_sql.codegen.context import Context
from clinker_sql.codegen.multi_value import regex_quote as _regex_quote
from clinker_sql.codegen.plan import Statement
from clinker_sql.codegen.run_plan import CheckStep, ViewStep
from clinker_sql.codegen.templates import Sql, ident, literal, render, sql
from clinker_sql.config import model as m
from clinker_sql.diagnostics import fail

TEXT = "#text"  # Spark's valueTag: an element's own text
BARE = "@"  # Spark's attribute prefix for a source whose `attribute_prefix` is ''
POS = "$pos{}"  # a split_to_rows entry's occurrence position (0-based), by entry index
OCC = "$occ{}"  # a split_to_rows entry's occurrence (the element's struct)
_VAR = "x"
_NAME = re.compile(r"[A-Za-z_\u00C0-\uFFFF][A-Za-z0-9_.\-\u00B7\u00C0-\uFFFF]*")
# Clinker's observe_xml_scalar: an i64, or a spelling with a float marker that parses
_I64 = r"^[+-]?[0-9]+\z"
_FLOAT = r"^[+-]?([0-9]+[.]?[0-9]*|[.][0-9]+)([eE][+-]?[0-9]+)?\z"


def record_tag(cfg: m.SourceConfig) -> str:
    return (cfg.xml.record_path or "").split("/")[-1]


def _prefix(cfg: m.SourceConfig) -> str:
    """The prefix Spark reads attributes under."""
    return cfg.xml.attribute_prefix or BARE


def _segments(cfg: m.SourceConfig, column: m.Column) -> tuple[list[str], str | None]:
    """A declared column's element path and its attribute (None for an element's text).
    With an empty `attribute_prefix` a name is an element's text and its parent's
    attribute of that name at once (`_bare_attribute`)."""
    name = column.source_name or column.name
    prefix = cfg.xml.attribute_prefix
    parts = name.split(".")
    attr = None
    if prefix and parts[-1].startswith(prefix):
        attr = parts.pop()[len(prefix):]
    ok = "\\" not in name and all(_NAME.fullmatch(p) for p in parts) and \
        (attr is None or _NAME.fullmatch(attr) is not None)
    if not ok:
        raise fail("CS001", f"XML column {name!r}: only a dotted path of XML element names, "
                   f"optionally ending in an attribute ({prefix}name), is supported",
                   column.loc)
    if not prefix and column.multiple and len(parts) > 1:
        raise fail("CS001", f"XML column {name!r}: a nested `multiple: true` column of a "
                   "source whose attribute_prefix is '' is not supported", column.loc)
    if column.multiple and attr is not None:
        raise fail("CS001", f"XML column {name!r}: a `multiple: true` attribute field is not "
                   "supported (an attribute occurs once per element)", column.loc)
    return parts, attr


@dataclass(frozen=True)
class _Place:
    """Where a declared column is read: in the record (`entry` None) or in an occurrence
    of the `split_to_rows` entry `entry`, at `parts` / `attr` inside it; `fallback`: the
    record's own field of that path when the occurrence has none (`mode: extract`);
    `position`: the entry's `position_column`."""
    parts: tuple[str, ...]
    attr: str | None
    entry: int | None = None
    fallback: bool = False
    position: bool = False


def _entry_parts(entry: m.SplitToRows) -> list[str]:
    return entry.field.split(".")


def _place(cfg: m.SourceConfig, column: m.Column) -> _Place:
    name = column.source_name or column.name
    for i, e in enumerate(cfg.split_to_rows):
        if e.position_column == name:
            return _Place((), None, i, position=True)
    parts, attr = _segments(cfg, column)
    for i, e in enumerate(cfg.split_to_rows):
        fs = _entry_parts(e)
        if e.mode == "split" and parts[:len(fs)] == fs:
            return _Place(tuple(parts[len(fs):]), attr, i)
        if e.mode == "extract":
            if parts == fs[-1:] and attr is None:  # the occurrence's own text
                return _Place((), None, i)
            return _Place(tuple(parts), attr, i, fallback=True)
    return _Place(tuple(parts), attr)


def _paths(cfg: m.SourceConfig) -> list[tuple[list[str], str | None]]:
    """Every element path (and attribute) the declared columns read in a record, and each
    `split_to_rows` element."""
    out: list[tuple[list[str], str | None]] = []
    for c in cfg.schema:
        p = _place(cfg, c)
        if p.position:
            continue
        if p.entry is None:
            out.append((list(p.parts), p.attr))
            continue
        out.append((_entry_parts(cfg.split_to_rows[p.entry]) + list(p.parts), p.attr))
        if p.fallback:
            out.append((list(p.parts), p.attr))
    out += [(_entry_parts(e), None) for e in cfg.split_to_rows]
    return out


def _shape(cfg: m.SourceConfig) -> tuple[list[str], dict]:
    """The record element's attributes, and the tree of its declared child elements:
    {name: (attributes, children)}."""
    attrs: list[str] = []
    tree: dict = {}
    if cfg.xml.attribute_prefix:
        paths = _paths(cfg)
    else:  # no split_to_rows here (config/multi_value.py)
        paths = [_segments(cfg, c) for c in cfg.schema]
    for parts, attr in paths:
        if not cfg.xml.attribute_prefix:  # also its parent's attribute of that name
            *parents, attr = parts
            node_attrs = attrs
            node = tree
            for seg in parents:
                node_attrs, node = node.setdefault(seg, ([], {}))
            if attr not in node_attrs:
                node_attrs.append(attr)
            attr = None
        if not parts:
            if attr not in attrs:
                attrs.append(attr)
            continue
        node = tree
        for i, seg in enumerate(parts):
            at, children = node.setdefault(seg, ([], {}))
            if i == len(parts) - 1 and attr is not None and attr not in at:
                at.append(attr)
            node = children
    return attrs, tree


def _element_type(prefix: str, node: tuple[list[str], dict]) -> exp.DataType:
    attrs, children = node
    fields = [exp.ColumnDef(this=S.ident(TEXT), kind=exp.DataType.build("STRING"))]
    fields += [exp.ColumnDef(this=S.ident(name), kind=_element_type(prefix, child))
               for name, child in children.items()]
    fields += [exp.ColumnDef(this=S.ident(prefix + a), kind=exp.DataType.build("STRING"))
               for a in attrs]
    struct = exp.DataType(this=exp.DataType.Type.STRUCT, expressions=fields, nested=True)
    return exp.DataType(this=exp.DataType.Type.ARRAY, expressions=[struct], nested=True)


def scan_names(cfg: m.SourceConfig) -> tuple[str, ...]:
    """The scan view's columns: the attributes (prefixed) and the top-level elements."""
    prefix = _prefix(cfg)
    attrs, tree = _shape(cfg)
    return tuple(prefix + a for a in attrs) + tuple(tree)


def scan(view: str, cfg: m.SourceConfig, path: str) -> str:
    """The scan view: the record elements with the declared fields' shape."""
    prefix = _prefix(cfg)
    attrs, tree = _shape(cfg)
    columns = [f"{ident(prefix + a)} STRING" for a in attrs]
    columns += [f"{ident(name)} {sql(_element_type(prefix, node))}"
                for name, node in tree.items()]
    options = [("path", path), ("rowTag", record_tag(cfg)), ("attributePrefix", prefix),
               ("valueTag", TEXT), ("ignoreNamespace", "true"), ("mode", "FAILFAST"),
               ("ignoreSurroundingSpaces", "true")]
    return render("source_scan_xml.sql.j2", view=ident(view), columns=Sql(
        ",\n  ".join(columns)), options=Sql(", ".join(f"{k} {literal(v)}" for k, v in options)))


def no_rows(cfg: m.SourceConfig) -> exp.Expression:
    """The scan of an XML source whose files matched nothing: its columns, no row."""
    prefix = _prefix(cfg)
    attrs, tree = _shape(cfg)
    cols = [exp.alias_(S.cast(S.null(), "STRING"), S.ident(prefix + a)) for a in attrs]
    cols += [exp.alias_(exp.Cast(this=S.null(), to=_element_type(prefix, node)), S.ident(name))
             for name, node in tree.items()]
    return exp.select(*cols).where(S.boolean(False))


def _lambda(body: exp.Expression) -> exp.Lambda:
    return exp.Lambda(this=body, expressions=[S.ident(_VAR)])


def _field(name: str) -> exp.Expression:
    return exp.Dot(this=S.col(_VAR), expression=S.ident(name))


def occurrences(cfg: m.SourceConfig, column: m.Column) -> exp.Expression:
    """Every occurrence's text of a declared column in a record (or in its row's
    `split_to_rows` occurrence), in document order (an empty one as null or ''); null when
    its path has no occurrence."""
    if cfg.split_to_rows:
        p = _place(cfg, column)
        if p.entry is not None:
            prefix = _prefix(cfg)
            occ = S.fn("filter", S.fn("array", S.col(OCC.format(p.entry))),
                       _lambda(S.not_null(S.col(_VAR))))
            inner = _from(occ, list(p.parts), p.attr, prefix)
            if not p.fallback:
                return inner
            found = inner if column.multiple else _valued(inner)
            return S.case([(S.is_true(exp.GT(this=S.fn("size", found), expression=S.bigint(
                0))), inner.copy())], _record_values(list(p.parts), p.attr, prefix))
    parts, attr = _segments(cfg, column)
    prefix = _prefix(cfg)
    if not parts:
        return S.fn("array", S.col(prefix + attr))
    if not cfg.xml.attribute_prefix:  # the parent's attribute first (it is in the start tag)
        texts = _path_values(parts, None, prefix)
        if len(parts) == 1:
            attribute = S.fn("array", S.col(prefix + parts[0]))
        else:
            attribute = _path_values(parts[:-1], parts[-1], prefix)
        attribute = S.fn("filter", attribute, _lambda(S.not_null(S.col(_VAR))))
        return S.fn("concat", attribute, S.fn("coalesce", texts, S.cast(
            S.fn("array"), "ARRAY<STRING>")))
    return _record_values(parts, attr, prefix)


def _record_values(parts: list[str], attr: str | None, prefix: str) -> exp.Expression:
    if not parts:
        return S.fn("array", S.col(prefix + attr))
    return _path_values(parts, attr, prefix)


def _from(base: exp.Expression, parts: list[str], attr: str | None, prefix: str
          ) -> exp.Expression:
    """The texts (or the attribute `attr`) of the elements at `parts` under the elements
    of the array `base`."""
    arr = base
    for seg in parts:
        present = S.fn("filter", arr, _lambda(S.not_null(_field(seg))))
        arr = S.fn("flatten", S.fn("transform", present, _lambda(_field(seg))))
    return S.fn("transform", arr, _lambda(_field(TEXT if attr is None else prefix + attr)))


def _elements(parts: list[str]) -> exp.Expression:
    """The elements at `parts` in a record (the scan's columns), in document order."""
    arr: exp.Expression = S.col(parts[0])
    for seg in parts[1:]:
        present = S.fn("filter", arr, _lambda(S.not_null(_field(seg))))
        arr = S.fn("flatten", S.fn("transform", present, _lambda(_field(seg))))
    return arr


def _path_values(parts: list[str], attr: str | None, prefix: str) -> exp.Expression:
    arr: exp.Expression = S.col(parts[0])
    for seg in parts[1:]:
        present = S.fn("filter", arr, _lambda(S.not_null(_field(seg))))
        arr = S.fn("flatten", S.fn("transform", present, _lambda(_field(seg))))
    return S.fn("transform", arr, _lambda(_field(TEXT if attr is None else prefix + attr)))


def _valued(occ: exp.Expression) -> exp.Expression:
    v = S.col(_VAR)
    return S.fn("filter", occ, _lambda(S.and_(S.not_null(v), exp.NEQ(
        this=v.copy(), expression=S.string("")))))


def split_value(cfg: m.SourceConfig, column: m.Column) -> exp.Expression:
    """A declared column's text in the split view: its one valued occurrence, null when
    none; a `multiple: true` column's occurrences as a JSON array's text (empty ones null),
    read back by codegen/multi_value.py; null when it has none."""
    if cfg.split_to_rows and _place(cfg, column).position:
        pos = S.col(POS.format(_place(cfg, column).entry))
        return S.cast(exp.Add(this=pos, expression=S.bigint(1)), "STRING")
    occ = occurrences(cfg, column)
    if column.multiple:
        items = S.fn("transform", occ, _lambda(S.fn("nullif", S.col(_VAR), S.string(""))))
        entry = next((e for e in cfg.split_values
                      if e.field == (column.source_name or column.name)), None)
        if entry is not None:  # Clinker's split_text_value: a native value stays whole
            v = S.col(_VAR)
            whole = S.or_(S.is_null(v), native_non_string(v.copy()))
            items = S.fn("flatten", S.fn("transform", items, _lambda(S.case(
                [(whole, S.fn("array", v.copy()))],
                S.fn("split", v.copy(), S.string(_regex_quote(entry.delimiter)),
                     S.small_int(-1))))))
        return S.case([(S.is_true(exp.GT(this=S.fn("size", occ.copy()),
                                         expression=S.bigint(0))),
                        S.fn("to_json", items))])
    return S.fn("try_element_at", _valued(occ), exp.Literal.number(1))


def repeats(cfg: m.SourceConfig) -> exp.Expression | None:
    """The first column (its name) that has more than one valued occurrence in the record
    though not `multiple: true`; None when no column can repeat."""
    whens = []
    for c in cfg.schema:
        parts, _ = _segments(cfg, c)
        place = _place(cfg, c) if cfg.split_to_rows else _Place(tuple(parts), None)
        if c.multiple or place.position or not (parts or place.entry is not None):
            continue
        count = S.fn("size", _valued(occurrences(cfg, c)))
        whens.append((S.is_true(exp.GT(this=count, expression=S.bigint(1))),
                      S.string(c.source_name or c.name)))
    return S.case(whens) if whens else None


def compile_repeat_check(ctx: Context, node: m.SourceNode, raw: str) -> None:
    """CS113: a record repeating a field whose column is not `multiple: true` fails the
    run before anything is written, as Clinker's reader refuses it."""
    which = repeats(node.config)
    if which is None:
        return
    detail = S.fn("concat", S.string(f"XML source '{node.name}': field '"), which,
                  S.string("' occurs more than once in a single record, but its schema column "
                           "is not declared `multiple: true`"))
    ctx.add(Statement("check", node.name, ctx.view(node.name, "repeats"), render(
        "source_xml_repeat_check.sql.j2", raw=ident(raw), detail=sql(detail),
        repeated=sql(S.not_null(which.copy()))),
        header=f"source {node.name}: a field repeated in a record without `multiple: true` "
               "refuses the run", step=CheckStep(code="CS113")))


def compile_fan_out(ctx: Context, node: m.SourceNode, raw: str) -> str:
    """The records fanned out by `split_to_rows`: one row per occurrence of each entry's
    element (its position and the occurrence as `$pos<i>` / `$occ<i>`)."""
    cfg = node.config
    view = ctx.view(node.name, "occurrences")
    laterals = [exp.Lateral(
        this=exp.Posexplode(this=_elements(_entry_parts(e))), view=True, outer=e.keep_empty,
        alias=exp.TableAlias(this=S.ident(f"f{i}"), columns=[
            S.ident(POS.format(i)), S.ident(OCC.format(i))]))
        for i, e in enumerate(cfg.split_to_rows)]
    query = exp.select(exp.Star()).from_(S.table(raw))
    query.set("laterals", laterals)
    ctx.add(Statement("view", node.name, view, render(
        "source_xml_fan_out.sql.j2", view=ident(view), query=sql(query)),
        header=f"source {node.name}: one row per occurrence of " + ", ".join(
            e.field for e in cfg.split_to_rows) + " (split_to_rows)",
        step=ViewStep(scan_columns=scan_names(cfg) + tuple(
            n.format(i) for i in range(len(cfg.split_to_rows)) for n in (POS, OCC)))))
    return view


def _count(steps: list[str], anywhere: bool) -> str:
    """An XPath counting the elements of local names `steps` from the document element
    (each name a checked XML name: no quote), or every element of the last one."""
    if anywhere:
        return f'count(//*[local-name()="{steps[-1]}"])'
    return "count(" + "".join(f'/*[local-name()="{s}"]' for s in steps) + ")"


def compile_path_check(ctx: Context, node: m.SourceNode, path: str) -> None:
    """CS114: Spark's reader takes every element named like the record element, Clinker's
    only those at `record_path`; a file holding one elsewhere (or one record inside
    another) refuses the run before anything is written. Each file is read whole once."""
    cfg = node.config
    docs = ctx.view(node.name, "documents")
    ctx.add(Statement("view", node.name, docs, render(
        "source_xml_documents.sql.j2", view=ident(docs), options=Sql(", ".join(
            f"{k} {literal(v)}" for k, v in (("path", path), ("wholetext", "true"))))),
        header=f"source {node.name}: its files, each as one text (the record_path check)",
        step=ViewStep(scan_columns=("value",))))
    steps = (cfg.xml.record_path or "").split("/")
    counts = [S.fn("xpath_int", S.col("value"), S.string(_count(steps, a)))
              for a in (True, False)]
    file = S.fn("regexp_replace", S.fn("input_file_name"), S.string("^file:(//)?"),
                S.string(""))
    detail = S.fn("concat", S.string(f"XML source '{node.name}': file "), file, S.string(
        f" holds '{steps[-1]}' elements outside record_path {cfg.xml.record_path}, which "
        "Spark's XML reader would read as records"))
    ctx.add(Statement("check", node.name, ctx.view(node.name, "elsewhere"), render(
        "source_xml_path_check.sql.j2", documents=ident(docs), detail=sql(detail),
        elsewhere=sql(exp.NEQ(this=counts[0], expression=counts[1]))),
        header=f"source {node.name}: a file with record elements outside record_path "
               "refuses the run", step=CheckStep(code="CS114")))


def native_non_string(raw: exp.Expression) -> exp.Expression:
    """Whether Clinker's XML reader infers a text as a number or a bool, which a `string`
    column refuses."""
    i64 = S.and_(exp.RegexpLike(this=raw, expression=S.string(_I64)),
                 S.not_null(S.try_cast(raw.copy(), "BIGINT")))
    marked = S.and_(exp.RegexpLike(this=raw.copy(), expression=S.string(_FLOAT)),
                    exp.RegexpLike(this=raw.copy(), expression=S.string("[.eE]")))
    return S.or_(S.is_true(i64), S.is_true(marked),
                 exp.In(this=raw.copy(), expressions=[S.string("true"), S.string("false")]))


# ---- the compiler's look at the files --------------------------------------------------

READ_MAX_BYTES = 16 * 1024 * 1024


def first_record_fields(cfg: m.SourceConfig, files: list[Path] | None) -> list[str] | None:
    """The field names of the first record of the first file, flattened as Clinker's
    reader flattens it (the schema it infers from that record); None when not read."""
    if not files or files[0].stat().st_size > READ_MAX_BYTES:
        return None
    path = (cfg.xml.record_path or "").split("/")
    prefix = cfg.xml.attribute_prefix
    stack: list[str] = []
    names: list[str] = []
    record_depth = None
    try:
        for event, el in ET.iterparse(str(files[0]), events=("start", "end")):
            tag = el.tag.rsplit("}", 1)[-1]
            if event == "start":
                stack.append(tag)
                if record_depth is None and stack == path:
                    record_depth = len(stack)
                    names += [prefix + k.rsplit("}", 1)[-1] for k in el.attrib]
                elif record_depth is not None:
                    dotted = ".".join(stack[record_depth:])
                    names += [f"{dotted}.{prefix}{k.rsplit('}', 1)[-1]}" for k in el.attrib]
            else:
                if record_depth is not None and len(stack) > record_depth:
                    if (el.text or "").strip(" \t\r\n") or len(el) == 0:
                        names.append(".".join(stack[record_depth:]))
                stack.pop()
                if record_depth is not None and len(stack) < record_depth:
                    break
    except (ET.ParseError, OSError, UnicodeDecodeError):
        return None
    return list(dict.fromkeys(names))


def _projected(cfg: m.SourceConfig, name: str) -> str:
    """A field's name once `split_to_rows` made its occurrence a record (Clinker's
    `projected_key`): under `mode: extract` without the entry's path (the element's own
    text keeps its last name)."""
    for e in cfg.split_to_rows:
        if e.mode == "extract" and (name == e.field or name.startswith(e.field + ".")):
            rest = name[len(e.field) + 1:]
            return rest or e.field.split(".")[-1]
    return name


def check_unmapped(node: m.SourceNode, files: list[Path] | None) -> None:
    """Undeclared fields in the first record: carried (auto_widen) or refused (reject) by
    Clinker, not supported here; `on_unmapped: drop` leaves them out, as here."""
    cfg = node.config
    if cfg.on_unmapped == "drop":
        return
    fields = [_projected(cfg, f) for f in first_record_fields(cfg, files) or ()] + [
        e.position_column for e in cfg.split_to_rows if e.position_column]
    declared = {c.source_name or c.name for c in cfg.schema}
    extra = [f for f in dict.fromkeys(fields) if f not in declared]
    if extra:
        raise fail("CS001", f"source '{node.name}': its XML records have fields the schema "
                   f"does not declare ({', '.join(extra)}); on_unmapped: {cfg.on_unmapped} is "
                   "not supported for them on an XML source", node.loc,
                   "declare them, or set `on_unmapped: {mode: drop}`")
