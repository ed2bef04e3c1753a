"""Multi-value columns at load: a source's `split_values` and a sink's `join_values`
entries (a bare field name or a mapping), checked as Clinker's planner checks them
(E358, E361, E362). What they compile to is codegen/multi_value.py."""

from __future__ import annotations

from clinker_sql.config import model as m
from clinker_sql.config.fields import Fields
from clinker_sql.config.yamlnodes import YNode, YScalar, YSeq
from clinker_sql.diagnostics import Location, fail


def _entries(node: YNode, what: str, code: str) -> list[tuple[str | None, Fields | None,
                                                              Location]]:
    if not isinstance(node, YSeq):
        raise fail(code, f"{what} must be a list of field names or mappings", node.loc)
    out = []
    for item in node.items:
        if isinstance(item, YScalar) and isinstance(item.value, str):
            out.append((item.value, None, item.loc))
        else:
            out.append((None, Fields(item, f"an entry of {what}"), item.loc))
    return out


def split_to_rows(node: YNode | None, what: str) -> tuple[m.SplitToRows, ...]:
    """A source's `split_to_rows:` (Clinker's SplitToRows: `field`, `keep_empty` true,
    `mode` extract, `position_column` none), read for its checks (`check_source`)."""
    if node is None:
        return ()
    out = []
    for name, f, loc in _entries(node, f"split_to_rows of {what}", "E358"):
        if f is None:
            out.append(m.SplitToRows(name, loc=loc))
            continue
        out.append(m.SplitToRows(f.str("field", required=True), f.bool("keep_empty", True),
                                 f.choice("mode", ("extract", "split"), "extract"),
                                 f.str("position_column"), loc))
        f.done()
    return tuple(out)


def split_values(node: YNode | None, what: str, fmt: str) -> tuple[m.SplitValues, ...]:
    """A source's `split_values:` (Clinker's SplitValues: `field`, `delimiter` `;`,
    `escape` none, `json` false). The escape's shape is checked on a CSV source only:
    another reader ignores the escape (`check_source` says so)."""
    if node is None:
        return ()
    out: list[m.SplitValues] = []
    for name, f, loc in _entries(node, f"split_values of {what}", "E358"):
        if f is None:
            entry = m.SplitValues(name, loc=loc)
        else:
            entry = m.SplitValues(f.str("field", required=True), f.str("delimiter", default=";"),
                                  f.str("escape", default=""), f.bool("json", False), loc)
            f.done()
        if any(e.field == entry.field for e in out):
            raise fail("E358", f"{what}: `split_values` declares field '{entry.field}' twice",
                       loc, "declare each field once")
        if entry.delimiter == "" and not entry.json:  # `json: true` ignores the delimiter
            raise fail("E358", f"{what}: `split_values` field '{entry.field}' declares an empty "
                       "delimiter", loc, "omit `delimiter` to take the default `;`")
        if fmt == "csv" and entry.escape and not entry.json and (len(entry.delimiter) != 1 or
                                                len(entry.escape) != 1 or
                                                entry.escape == entry.delimiter):
            raise fail("E358", f"{what}: `split_values` field '{entry.field}' escapes with "
                       f"{entry.escape!r} around the delimiter {entry.delimiter!r}: with "
                       "`escape`, the delimiter and the escape must each be one character, "
                       "and differ", loc, "use a one-character delimiter and escape")
        out.append(entry)
    return tuple(out)


def check_source(cfg: m.SourceConfig, what: str, loc: Location,
                 fan_out: tuple[m.SplitToRows, ...] = ()) -> None:
    """E358: an entry on a reader that never reads it, or naming no `multiple: true`
    column (or its exposed name instead of its `source_name`); E361: a `multiple: true`
    column of a CSV source no entry covers. A JSON source's column is its array; its
    `split_to_rows` and `split_values` are checked as Clinker checks them, then refused."""
    multiple = [c for c in cfg.schema if c.multiple]
    if cfg.format == "json" and (fan_out or cfg.split_values):
        _check_json_declarations(cfg, fan_out, what)
        if fan_out:
            raise fail("CS001", f"{what}: `split_to_rows` is not supported yet",
                       fan_out[0].loc, "read the array as a `multiple: true` column and fan "
                       "it out with `emit each`")
        raise fail("CS001", f"{what}: `split_values` on a JSON source is not supported yet "
                   "(a `multiple: true` column reads the field's JSON array)",
                   cfg.split_values[0].loc)
    if cfg.format == "xml" and (fan_out or cfg.split_values):
        _check_json_declarations(cfg, fan_out, what)  # the same checks, nesting refused
        if fan_out and not cfg.xml.attribute_prefix:
            raise fail("CS001", f"{what}: `split_to_rows` on an XML source whose "
                       "attribute_prefix is '' is not supported", fan_out[0].loc)
    if cfg.split_values and cfg.format not in ("csv", "xml"):
        entry = cfg.split_values[0]
        raise fail("E358", f"{what}: `split_values` is declared on a `{cfg.format}` source, "
                   "whose reader is never handed it", entry.loc, "remove the block")
    if multiple and cfg.format not in ("csv", "json", "xml"):
        raise fail("E361", f"{what}: the schema declares the multi-value column(s) "
                   f"{', '.join(repr(c.name) for c in multiple)} (`multiple: true`), and a "
                   f"`{cfg.format}` source has no way to produce a field holding more than "
                   "one value", multiple[0].loc or loc)
    named = set(cfg.correlation_key) | {k.field for k in cfg.sort_order} | (
        {cfg.watermark[1]} if cfg.watermark else set())
    keyed = [c for c in multiple if c.name in named]
    if keyed:
        raise fail("CS001", f"{what}: the multi-value column '{keyed[0].name}' as a "
                   "correlation key, sort key or watermark is not supported", keyed[0].loc or loc)
    _check_split_fields(cfg, what)
    covered = {e.field for e in cfg.split_values}
    if cfg.format == "csv":
        bare = [c for c in multiple if (c.source_name or c.name) not in covered]
        if bare:
            raise fail("E361", f"{what}: the schema declares the multi-value column(s) "
                       f"{', '.join(repr(c.name) for c in bare)} (`multiple: true`), and no "
                       "`split_values` entry covers them: a `csv` source has no way to produce "
                       "a field holding more than one value without one", bare[0].loc or loc,
                       "add `split_values: [{ field: " + (bare[0].source_name or bare[0].name)
                       + ", delimiter: \";\" }]`, or drop `multiple: true`")


def join_values(node: YNode | None, fmt: str, what: str) -> tuple[m.JoinValues, ...]:
    """A sink's `join_values:` (Clinker's JoinValues: `field`, `delimiter` `;`,
    `on_conflict` error, `escape` backslash), checked as E362 does."""
    if node is None:
        return ()
    if fmt != "csv":
        raise fail("E362", f"{what}: `join_values` is declared on a `{fmt}` output, whose "
                   "writer never consumes it — the declaration would be a silent no-op",
                   node.loc, "remove the block" + (" (a JSON output writes a native array)"
                                                   if fmt == "json" else ""))
    out: list[m.JoinValues] = []
    for name, f, loc in _entries(node, f"join_values of {what}", "E362"):
        if f is None:
            entry = m.JoinValues(name, loc=loc)
        else:
            for key in ("repeat_as", "wrap_in"):
                if f.has(key):
                    f.raw(key)
                    raise fail("E362", f"{what}: `{key}` names the XML writer's repeated "
                               "element; a CSV output never reads it", f.key_loc(key),
                               f"remove `{key}`")
            entry = m.JoinValues(
                f.str("field", required=True), f.str("delimiter", default=";"),
                f.choice("on_conflict", ("error", "escape", "encode_json"), "error"),
                f.str("escape", default="\\"), loc)
            f.done()
        if any(e.field == entry.field for e in out):
            raise fail("E362", f"{what}: `join_values` declares field '{entry.field}' twice",
                       loc, "declare each field once")
        _check_join(entry, what)
        out.append(entry)
    return tuple(out)


def _check_join(e: m.JoinValues, what: str) -> None:
    if e.delimiter == "":
        raise fail("E362", f"{what}: `join_values` field '{e.field}' declares an empty "
                   "delimiter", e.loc, "omit `delimiter` to take the default `;`")
    if e.on_conflict in ("error", "escape") and len(e.delimiter) != 1:
        raise fail("E362", f"{what}: `join_values` field '{e.field}' declares the "
                   f"multi-character delimiter {e.delimiter!r} under `on_conflict: "
                   f"{e.on_conflict}`", e.loc,
                   "use a single-character delimiter, or `on_conflict: encode_json`")
    if e.on_conflict == "escape" and (len(e.escape) != 1 or e.escape == e.delimiter):
        raise fail("E362", f"{what}: `join_values` field '{e.field}' needs a single-character "
                   "`escape` that differs from its delimiter under `on_conflict: escape`",
                   e.loc)


def _check_split_fields(cfg: m.SourceConfig, what: str) -> None:
    """E358: each `split_values` entry names a `multiple: true` column by the field the
    file carries (its `source_name`, not its exposed name)."""
    physical = {c.source_name or c.name: c for c in cfg.schema}
    for entry in cfg.split_values:
        col = physical.get(entry.field)
        if col is None:
            exposed = next((c for c in cfg.schema if c.name == entry.field), None)
            if exposed is not None:
                raise fail("E358", f"{what}: `split_values` names '{entry.field}', the exposed "
                           f"name of a column that reads the field '{exposed.source_name}'",
                           entry.loc, f"name the input field: `{exposed.source_name}`")
            raise fail("E358", f"{what}: `split_values` field '{entry.field}' is not declared "
                       "by the schema", entry.loc, "check the spelling against `schema:`")
        if not col.multiple:
            raise fail("E358", f"{what}: `split_values` field '{entry.field}' is not declared "
                       "`multiple: true`; splitting produces several values, and only a "
                       "multi-value column can hold them", entry.loc,
                       f"add `multiple: true` to the schema column '{col.name}'")


def _under(key: str, path: str) -> bool:
    return key == path or key.startswith(path + ".")


def _check_json_declarations(cfg: m.SourceConfig, fan_out: tuple[m.SplitToRows, ...],
                             what: str) -> None:
    """Clinker's E358 checks of a JSON or XML source's declarations, in its order
    (multi_value.rs validate_source_declarations; JSON tracks no occurrences, so a nested
    pair is refused only when the outer entry's `mode: extract` lifts the path away; XML
    refuses every nested pair)."""
    for i, a in enumerate(fan_out):
        if a.field == "" or "" in a.field.split("."):
            raise fail("E358", f"{what}: `split_to_rows` declares the field path '{a.field}', "
                       "which has an empty path segment", a.loc,
                       "name the repeated element by its record-relative dotted path "
                       "(`line_items`, `Items.Item`)")
        for b in fan_out[i + 1:]:
            if a.field == b.field:
                raise fail("E358", f"{what}: `split_to_rows` declares the field '{a.field}' "
                           "more than once", b.loc, "declare each field once")
            outer = a if _under(b.field, a.field) else b if _under(a.field, b.field) else None
            if outer is not None and cfg.format == "xml":
                raise fail("E358", f"{what}: `split_to_rows` fields '{a.field}' and "
                           f"'{b.field}' nest — on an xml source, declared fan-out fields must "
                           "name disjoint (non-nested) element groups", b.loc,
                           "fan out on the outer field alone, or on the inner one alone")
            if outer is not None and outer.mode == "extract":
                raise fail("E358", f"{what}: `split_to_rows` fields '{a.field}' and "
                           f"'{b.field}' nest, and the outer entry's `mode: extract` lifts the "
                           f"occurrence's own keys out from under '{outer.field}': the inner "
                           "entry addresses a path that no longer exists", outer.loc,
                           "declare the outer entry `mode: split`, or fan out on one field")
    for i, a in enumerate(fan_out):
        if a.position_column and any(b.position_column == a.position_column
                                     for b in fan_out[i + 1:]):
            raise fail("E358", f"{what}: two `split_to_rows` entries write the position "
                       f"column '{a.position_column}'", a.loc,
                       "give each entry its own `position_column`")
    for a in cfg.split_values:
        if any(e.field == a.field for e in fan_out):
            raise fail("E358", f"{what}: field '{a.field}' is declared in both "
                       "`split_to_rows` and `split_values`", a.loc,
                       "fan the field out to rows, or parse it in-cell, not both")
        if a.escape or a.json:
            raise fail("E358", f"{what}: `split_values` on field '{a.field}' sets "
                       f"`{'json' if a.json else 'escape'}`, which only the CSV reader honors",
                       a.loc, "drop `escape` / `json` on a JSON or XML source: its "
                       "values are read natively")
    _check_split_fields(cfg, what)
    physical = {c.source_name or c.name: c for c in cfg.schema}
    for a in fan_out:
        col = physical.get(a.field)
        if col is not None and col.multiple:
            raise fail("E358", f"{what}: field '{a.field}' is declared `multiple: true` and "
                       "also fanned out by `split_to_rows`: the first collects its occurrences "
                       "into one array, the second spends them one per record", a.loc,
                       f"drop `multiple: true` from '{a.field}', or drop the entry")
