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


def split_values(node: YNode | None, what: str) -> tuple[m.SplitValues, ...]:
    """A source's `split_values:` (Clinker's SplitValues: `field`, `delimiter` `;`,
    `escape` none, `json` false)."""
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
        if entry.delimiter == "":
            raise fail("E358", f"{what}: `split_values` field '{entry.field}' declares an empty "
                       "delimiter", loc, "omit `delimiter` to take the default `;`")
        if entry.escape and not entry.json and (len(entry.delimiter) != 1 or
                                                len(entry.escape) != 1 or
                                                entry.escape == entry.delimiter):
            raise fail("E358", f"{what}: `split_values` field '{entry.field}' escapes with "
                       f"{entry.escape!r} around the delimiter {entry.delimiter!r}: with "
                       "`escape`, the delimiter and the escape must each be one character, "
                       "and differ", loc, "use a one-character delimiter and escape")
        out.append(entry)
    return tuple(out)


def check_source(cfg: m.SourceConfig, what: str, loc: Location) -> None:
    """E358: an entry on a reader that never reads it, or naming no `multiple: true`
    column (or its exposed name instead of its `source_name`); E361: a `multiple: true`
    column of a CSV source no entry covers. A JSON source's column is its array."""
    multiple = [c for c in cfg.schema if c.multiple]
    if cfg.split_values and cfg.format != "csv":
        entry = cfg.split_values[0]
        if cfg.format == "json":
            raise fail("CS001", f"{what}: `split_values` on a JSON source is not supported yet "
                       "(a `multiple: true` column reads the field's JSON array)", entry.loc)
        raise fail("E358", f"{what}: `split_values` is declared on a `{cfg.format}` source, "
                   "whose reader is never handed it", entry.loc, "remove the block")
    if multiple and cfg.format not in ("csv", "json"):
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
