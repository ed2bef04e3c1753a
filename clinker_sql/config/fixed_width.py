"""A fixed-width source's or sink's layout: each column's byte range (`start` with `width`
or `end`), its padding (`justify`, `pad`, `trim`), a sink column's `truncation`, and the
`options.line_separator`, checked as Clinker's ResolvedField::from_column, validate_pad
and FixedWidthWriter::new check them."""

from __future__ import annotations

from dataclasses import replace

from clinker_sql.config import model as m
from clinker_sql.config.fields import Fields
from clinker_sql.config.yamlnodes import YMap, YNode
from clinker_sql.diagnostics import fail

LAYOUT_KEYS = ("start", "width", "end", "justify", "pad", "trim", "truncation")
NUMERIC = ("int", "float", "decimal")  # right-justified, truncation: error by default (writer)


def column_layout(c: Fields, name: str) -> m.FixedField:
    """One schema column's byte range and padding (`truncation` only matters to a
    writer: read and ignored, as Clinker's reader does)."""
    start = c.int("start")
    width, end = c.int("width"), c.int("end")
    justify = c.choice("justify", ("left", "right"), "left")
    pad = c.str("pad", default=" ")
    trim = c.bool("trim", True)
    c.choice("truncation", ("error", "warn", "silent"))
    where = c.loc
    if start is None:
        raise fail("E000", f"field '{name}': fixed-width field must have 'start'", where)
    if width is not None and end is not None:
        raise fail("E000", f"field '{name}': fixed-width field 'width' and 'end' are mutually "
                   "exclusive — declare one", c.key_loc("end"))
    if width is None and end is None:
        raise fail("E000", f"field '{name}': fixed-width field must have 'width' or 'end'",
                   where)
    if start < 0:
        raise fail("E000", f"field '{name}': 'start' must be a byte offset (0 or more)",
                   c.key_loc("start"))
    if width is None:
        if end < start:
            raise fail("E000", f"field '{name}': fixed-width field 'end' must be >= 'start'",
                       c.key_loc("end"))
        width = end - start
    if width <= 0:
        raise fail("E000", f"field '{name}': fixed-width field width must be > 0", where)
    if pad and len(pad.encode()) != 1:
        raise fail("E000", f"field '{name}': `pad` must be a single-byte (ASCII) character so "
                   "padding fills exact byte widths and strips as a single character (got "
                   f"{pad!r})", c.key_loc("pad"))
    return m.FixedField(start, width, justify, pad, trim)


def sink_column_layout(c: Fields, name: str, ctype: str) -> m.FixedField:
    """One column of a fixed-width sink's `schema:` as FixedWidthWriter::new resolves it:
    `start` may be left out (the column then continues at the previous one's end: the
    start is set by `resolve_sink`); a numeric column (int, float, decimal) is
    right-justified and refuses a value wider than its field (`truncation: error`) unless
    told otherwise, any other left-justified with `truncation: warn`; an empty or absent
    `pad` pads with a space. `trim` only matters to a reader: read and ignored."""
    numeric = ctype in NUMERIC
    start = c.int("start")
    width, end = c.int("width"), c.int("end")
    justify = c.choice("justify", ("left", "right"), "right" if numeric else "left")
    pad = c.str("pad", default="")
    c.bool("trim", True)
    truncation = c.choice("truncation", ("error", "warn", "silent"),
                          "error" if numeric else "warn")
    if width is not None and end is not None:
        raise fail("E000", f"field '{name}': fixed-width field 'width' and 'end' are mutually "
                   "exclusive — declare one", c.key_loc("end"))
    if width is None and end is None:
        raise fail("E000", f"field '{name}': fixed-width field must have 'width' or 'end'",
                   c.loc)
    if start is not None and start < 0:
        raise fail("E000", f"field '{name}': 'start' must be a byte offset (0 or more)",
                   c.key_loc("start"))
    if width is not None and width <= 0:
        raise fail("E000", f"field '{name}': fixed-width field width must be > 0", c.loc)
    if pad and len(pad.encode()) != 1:
        raise fail("E000", f"field '{name}': `pad` must be a single-byte (ASCII) character so "
                   "padding fills exact byte widths and strips as a single character (got "
                   f"{pad!r})", c.key_loc("pad"))
    # `end` is resolved against the start by `resolve_sink` (width -1 until then)
    return m.FixedField(start, width if width is not None else -1, justify, pad or " ",
                        truncation=truncation, end=end)


def resolve_sink(columns: tuple[m.Column, ...]) -> tuple[m.Column, ...]:
    """Each sink column's start and width (a column without `start` continues at the
    previous one's end, in declared order), then the ranges, sorted by start, checked not
    to overlap: FixedWidthWriter::new."""
    out: list[m.Column] = []
    next_start = 0
    for col in columns:
        f = col.layout
        start = f.start if f.start is not None else next_start
        width = f.width
        if f.end is not None:
            if f.end < start:
                raise fail("E000", f"field '{col.name}': fixed-width field 'end' must be >= "
                           "'start'", col.loc)
            width = f.end - start
            if width == 0:
                raise fail("E000", f"field '{col.name}': fixed-width field width must be > 0",
                           col.loc)
        next_start = start + width
        out.append(replace(col, layout=replace(f, start=start, width=width, end=None)))
    ranges = sorted(out, key=lambda c: c.layout.start)
    for prev, nxt in zip(ranges, ranges[1:]):
        p, n = prev.layout, nxt.layout
        if n.start < p.start + p.width:
            raise fail("E000", f"field '{nxt.name}': fixed-width field range {n.start}.."
                       f"{n.start + n.width} overlaps field '{prev.name}' ({p.start}.."
                       f"{p.start + p.width})", nxt.loc)
    return tuple(out)


def sink_options(o: Fields) -> str:
    """A fixed-width sink's `options`: `line_separator` (lf, the default, crlf, or none:
    the records one after the other); `envelope` (framing under reconstruct_envelope)
    is refused."""
    sep = o.choice("line_separator", ("lf", "crlf", "none"), "lf")
    if o.has("envelope"):
        o.raw("envelope")
        raise fail("CS001", "a fixed-width sink's `options.envelope` (header and footer lines "
                   "under reconstruct_envelope) is not supported yet",
                   o.key_loc("envelope"))
    return sep


def line_separator(o: Fields) -> str:
    """`options.line_separator`: lf (the default on this platform) or crlf; `none`
    (records of exactly the layout's width, no separator) is refused."""
    sep = o.choice("line_separator", ("lf", "crlf", "none"), "lf")
    if sep == "none":
        raise fail("CS001", "a fixed-width source with `line_separator: none` is not "
                   "supported yet", o.key_loc("line_separator"), "write one record a line")
    return sep


def refuse_multi_record(schema: YNode | None) -> None:
    """A map-form `schema:` (a `discriminator:` and `records:`) reads several record
    types from one file: refused."""
    if isinstance(schema, YMap) and ("records" in schema.entries
                                     or "discriminator" in schema.entries):
        raise fail("CS001", "a multi-record fixed-width schema (`discriminator:` and "
                   "`records:`) is not supported yet", schema.loc,
                   "read each record type from a file of its own with a column-list schema")
