"""A fixed-width source's layout: each column's byte range (`start` with `width` or
`end`), its padding (`justify`, `pad`, `trim`) and the source's `options.line_separator`,
checked as Clinker's ResolvedField::from_column and validate_pad check them."""

from __future__ import annotations

from clinker_sql.config import model as m
from clinker_sql.config.fields import Fields
from clinker_sql.config.yamlnodes import YMap, YNode
from clinker_sql.diagnostics import fail

LAYOUT_KEYS = ("start", "width", "end", "justify", "pad", "trim", "truncation")


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
