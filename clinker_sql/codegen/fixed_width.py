"""A fixed-width source: each line of its files (read `USING text`, one row a line) sliced
into its columns' byte ranges, the padding stripped, and typed as Clinker's fixed-width
reader types a field (crates/clinker-format/src/fixed_width/field.rs).

- A field is the bytes `start` to `start + width` of the line (bytes, not characters).
  A line that ends before `start` gives an empty field; one that ends inside the range
  is a truncated record, which stops Clinker's reader: the run fails (CS111).
- `strip_padding`: with `trim` (the default) the `pad` character is stripped from the
  end of a left-justified field (the start of a right-justified one), then whitespace;
  an empty `pad` strips whitespace only.
- An empty field is null (`parse_field_value`): a non-nullable column then rejects the
  record to the DLQ (E126, Clinker's typed-proof check). Text that does not parse as the
  column's type is a reader error in Clinker, which stops the run (CS111); so are bytes
  that are not UTF-8 in a field, or a character the field's range cuts in two (a field
  holding U+FFFD here: Spark's text reader replaces such bytes).
- `line_separator: crlf` drops the carriage return before the line feed; under `lf` a
  carriage return stays in the line (and is stripped as whitespace when trimmed).
"""

from __future__ import annotations

from dataclasses import replace

from sqlglot import exp

from clinker_sql import sqlbuild as S
from clinker_sql.codegen.ingest import typed_value as _ingest_typed
from clinker_sql.codegen.plan import Statement
from clinker_sql.codegen.run_plan import CheckStep
from clinker_sql.config import model as m

MALFORMED = "CS111"  # a truncated field or a value that does not parse: the run stops
LINE = "value"  # the text source's one column
LINE_BYTES = "$line_bytes"  # in the split view: the line's length in bytes (the check's)

_TRUE = ("true", "1", "yes", "y")  # coerce_scalar's Bool, after lowercasing
_FALSE = ("false", "0", "no", "n")


def spark_options(path: str) -> list[tuple[str, str]]:
    """The text scan: one row per line feed (a `crlf` line keeps its carriage return
    until `line`)."""
    return [("path", path), ("lineSep", "\n")]


def line(cfg: m.SourceConfig) -> exp.Expression:
    """The record's text, without its line terminator."""
    if cfg.line_separator == "crlf":
        return S.fn("regexp_replace", S.col(LINE), S.string("\r\\z"), S.string(""))
    return S.col(LINE)


def _length(cfg: m.SourceConfig) -> exp.Expression:
    return S.fn("octet_length", line(cfg))


def _slice(cfg: m.SourceConfig, f: m.FixedField) -> exp.Expression:
    data = S.fn("encode", line(cfg), S.string("UTF-8"))
    return S.fn("decode", S.fn("substring", data, S.bigint(f.start + 1), S.bigint(f.width)),
                S.string("UTF-8"))


def _hex(ch: str) -> str:
    return f"\\x{ord(ch):02x}"  # a regex escape for the one ASCII pad character


def _strip(text: exp.Expression, f: m.FixedField) -> exp.Expression:
    """Clinker's strip_padding."""
    if not f.trim:
        return text
    if f.pad:
        pad = _hex(f.pad)
        pattern = f"\\A{pad}+" if f.justify == "right" else f"{pad}+\\z"
        text = S.fn("regexp_replace", text, S.string(pattern), S.string(""))
    # Rust's str::trim: Unicode white space at both ends
    return S.fn("regexp_replace", text, S.string("(?U)\\A\\s+|\\s+\\z"), S.string(""))


def line_bytes(cfg: m.SourceConfig) -> exp.Expression:
    """The split view's `$line_bytes`."""
    return _length(cfg)


def _truncated(f: m.FixedField) -> exp.Expression:
    """The line ends inside the field's range (not before it)."""
    n = S.col(LINE_BYTES)
    return S.and_(exp.GT(this=n, expression=S.bigint(f.start)),
                  exp.LT(this=n.copy(), expression=S.bigint(f.start + f.width)))


def field_text(cfg: m.SourceConfig, column: m.Column) -> exp.Expression:
    """A column's text in the split view: the stripped field, null when empty (or when
    the line is too short to reach it, or ends inside it: CS111 stops the run then)."""
    f = column.layout
    stripped = _strip(_slice(cfg, f), f)
    return S.case([(exp.GT(this=_length(cfg), expression=S.bigint(f.start)),
                    S.fn("nullif", stripped, S.string("")))])


def typed_value(raw: exp.Expression, column: m.Column) -> exp.Expression:
    """A field's typed value from its stripped text (null: empty). Clinker's positional
    coercion differs from the CSV one in two types: a bool is true/1/yes/y or
    false/0/no/n, and a date without `format` is `%Y-%m-%d` only."""
    if column.type == "bool":
        low = S.fn("lower", raw)
        return S.case([(exp.In(this=low, expressions=[S.string(v) for v in _TRUE]),
                        S.boolean(True)),
                       (exp.In(this=low.copy(), expressions=[S.string(v) for v in _FALSE]),
                        S.boolean(False))])
    if column.type == "date" and column.format is None:
        column = replace(column, format="%Y-%m-%d")
    return _ingest_typed(raw, column, nulls=True)


_TYPE_WORDS = {"int": "int", "float": "float", "bool": "bool", "decimal": "decimal",
               "date": "date", "date_time": "date_time"}


def compile_check(ctx, node: m.SourceNode, split: str) -> None:
    """CS111: the first line of the source holding a truncated field or a value that
    does not parse as its column's type, which stops Clinker's reader (a format error,
    exit 4: nothing is written)."""
    cfg = node.config
    whens: list[tuple[exp.Expression, exp.Expression]] = []
    shown = S.string(cfg.paths[0]) if cfg.path_kind == "path" else S.fn(
        "regexp_replace", S.col("$file"), S.string("^file:(//)?"), S.string(""))
    prefix = S.fn("concat", S.string(f'source "{node.name}": file "'), shown,
                  S.string('": '))
    for c in cfg.schema:
        f = c.layout
        whens.append((_truncated(f), S.fn(
            "concat", prefix, S.string(f"field '{c.name}': value truncated — range "
                                       f"{f.start}..{f.start + f.width} overruns the "),
            S.cast(S.col(LINE_BYTES), "STRING"), S.string("-byte line"))))
    for c in cfg.schema:  # Spark's reader replaced them, or the range cuts a character
        whens.append((S.fn("contains", S.col(c.name), S.string("\ufffd")), S.fn(
            "concat", prefix.copy(), S.string(f"field '{c.name}': invalid UTF-8"))))
    for c in cfg.schema:
        if c.type not in _TYPE_WORDS:
            continue
        text = S.col(c.name)
        whens.append((S.and_(S.not_null(text), S.is_null(typed_value(text.copy(), c))),
                      S.fn("concat", prefix.copy(), S.string(f"field '{c.name}': cannot parse "
                                                             "'"), text.copy(),
                           S.string(f"' as {_TYPE_WORDS[c.type]}"))))
    detail = S.case(whens)
    inner = exp.select(exp.alias_(detail, "detail")).from_(S.table(split))
    check = exp.select(S.col("detail")).from_(inner.subquery("lines")).where(
        S.not_null(S.col("detail"))).limit(1)
    ctx.add(Statement("check", node.name, f"{node.name}.malformed", S.to_sql(check),
                      header=f"source {node.name}: a fixed-width line with a truncated field or "
                             "a value that does not parse stops the run",
                      step=CheckStep(code=MALFORMED)))
