"""A fixed-width sink (Clinker's fixed_width/writer.rs): each record one line of text,
each column of the sink's `schema:` at its byte range.

- The fields are written in the order of their starts; bytes no field covers are spaces.
- A field is its value's text cut to `width` bytes at a character boundary (never
  mid-character) and padded to exactly `width` bytes with `pad` (a space when none is
  given): on the left when right-justified, which a numeric column (int, float, decimal)
  is unless `justify` says otherwise, on the right otherwise (`cxl_fixed_width_cell`).
- The text of a value is Clinker's `format_value`: null (or a column the record does not
  carry) is empty; a float as Rust prints it; a decimal at its own scale (rounded first
  to a `scale` the column declares, as every sink does); a bool `true` / `false`; a date
  `YYYYMMDD`; a date_time `YYYYMMDDHHMMSS` (no fraction).
- A value longer than its field is cut, silently or with a warning Clinker keeps to
  itself (`truncation: silent | warn`, a non-numeric column's default); under
  `truncation: error` (a numeric column's default) it stops the run before anything is
  written (CS116, exit 4), as does a record carrying a column the layout does not declare
  (Clinker's SchemaDrift): both are found by a check over the records the sink writes.
- Each line ends with a line feed (`line_separator: lf`), a carriage return and a line
  feed (crlf) or nothing (none): the text writer ends each line with a line feed, which
  the run drops as it assembles a `none` output (runtime/outputs.py).
"""

from __future__ import annotations

from sqlglot import exp

from clinker_sql import sqlbuild as S
from clinker_sql.codegen.plan import Statement
from clinker_sql.codegen.run_plan import CheckStep
from clinker_sql.config import model as m
from clinker_sql.cxl import functions
from clinker_sql.cxl.text import to_text
from clinker_sql.cxl.types import CxlType
from clinker_sql.diagnostics import fail

REFUSED = "CS116"  # a value wider than its field under truncation: error, or an undeclared column


def _text(value: exp.Expression, t: CxlType, name: str, sink: str) -> exp.Expression:
    """A value's text as Clinker's fixed-width `format_value` writes it."""
    if t.kind == "date":
        return S.fn("date_format", value, S.string("yyyyMMdd"))
    if t.kind == "datetime":
        return S.fn("date_format", value, S.string("yyyyMMddHHmmss"))
    if t.kind in ("array", "map"):
        raise fail("CS001", f"sink '{sink}': the {t.kind} column '{name}' cannot be written to "
                   "a fixed-width file (Clinker's writer refuses an array or map value)",
                   hint="turn it into a scalar in CXL (e.g. to_string) before the sink")
    return to_text(value, t)


def record_bytes(cfg: m.SinkConfig) -> int:
    """The bytes of one line, without its separator: up to the end of the last field."""
    return max(c.layout.start + c.layout.width for c in cfg.schema)


def _fields(cfg: m.SinkConfig, typed: list[tuple[str, exp.Expression, CxlType]], sink: str
            ) -> list[tuple[m.Column, exp.Expression | None]]:
    """Each layout column in byte order with its value's text (None: a column the records
    do not carry, always empty)."""
    values = {n: (e, t) for n, e, t in typed}
    out = []
    for col in sorted(cfg.schema, key=lambda c: c.layout.start):
        found = values.get(col.name)
        out.append((col, None if found is None else _text(*found, col.name, sink)))
    return out


def line(cfg: m.SinkConfig, typed: list[tuple[str, exp.Expression, CxlType]], sink: str
         ) -> exp.Expression:
    """A record's line: the fields at their byte ranges, the gaps between them spaces,
    and a carriage return under `line_separator: crlf` (the text writer adds the line
    feed). One argument of the concat per field."""
    parts: list[exp.Expression] = []
    cursor = 0
    for col, text in _fields(cfg, typed, sink):
        f = col.layout
        if f.start > cursor:
            parts.append(S.string(" " * (f.start - cursor)))
        if text is None:
            parts.append(S.string(f.pad * f.width))
        else:
            parts.append(functions.call("fixed_width_cell", text, S.small_int(f.width),
                                        S.string(f.pad), S.boolean(f.justify == "right")))
        cursor = f.start + f.width
    if cfg.line_separator == "crlf":
        parts.append(S.string("\r"))
    return parts[0] if len(parts) == 1 else S.fn("concat", *parts)


def compile_check(ctx, node: m.SinkNode, input_view: str,
                  typed: list[tuple[str, exp.Expression, CxlType]],
                  widened: dict[str, exp.Expression]) -> None:
    """CS116: a record Clinker's writer refuses, which stops its run (a format error,
    exit 4) before the output is published: one carrying a column the layout does not
    declare (an undeclared column of the pipeline: any record; an unmapped one surfaced
    by auto_widen: a record holding it), or a value longer than its field under
    `truncation: error`. `widened`: the written name of each unmapped column with its
    value."""
    cfg = node.config
    declared = {c.name for c in cfg.schema}
    whens: list[tuple[exp.Expression, exp.Expression]] = []
    for name, value, _ in typed:
        if name in declared:
            continue
        held = S.not_null(widened[name].copy()) if name in widened else S.boolean(True)
        whens.append((held, S.string(
            f"fixed-width writer received a record carrying column \"{name}\", which the "
            "writer's output column set does not declare. A tabular / positional writer "
            "emits a fixed column set (a fixed-width layout's declared byte ranges, or an "
            "envelope-framed CSV's first-document header), so a column that `auto_widen` "
            "surfaced only on a later record cannot be placed and would otherwise be "
            f"dropped. Declare \"{name}\" in the output (or source) `schema:` so every "
            "record carries it, or route to a self-describing format (JSON / NDJSON / XML) "
            "that needs no shared column set.")))
    for col, text in _fields(cfg, typed, node.name):
        f = col.layout
        if text is None or f.truncation != "error":
            continue
        whens.append((exp.GT(this=S.fn("octet_length", text.copy()),
                             expression=S.small_int(f.width)),
                      S.fn("concat", S.string(f"invalid record at row 0: field '{col.name}': "
                                              "value '"), text.copy(), S.string("' ("),
                           S.cast(S.fn("octet_length", text.copy()), "STRING"),
                           S.string(f" bytes) exceeds width {f.width} — truncation policy "
                                    "is 'error'"))))
    if not whens:
        return
    inner = exp.select(exp.alias_(S.case(whens), "detail")).from_(S.table(input_view))
    check = exp.select(S.col("detail")).from_(inner.subquery("records")).where(
        S.not_null(S.col("detail"))).limit(1)
    ctx.add(Statement("check", node.name, f"{node.name}.refused", S.to_sql(check),
                      header=f"sink {node.name}: a record its fixed-width layout cannot hold "
                             "(an undeclared column, or a value wider than a field whose "
                             "truncation is error) stops the run",
                      step=CheckStep(code=REFUSED)))
