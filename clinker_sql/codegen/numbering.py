"""Row numbers a clean run never counts: positions in place of `$source.row`.

A source's rows are numbered across its files in name order. Numbering them up front
takes a pass over the files before anything else runs (each file's row count and where
its rows start in its split: `<source>.offsets`). Where Spark reads each file whole
(CSV, JSON documents), a row's *position* needs no such pass:

    position = rank of its file (name order) * 2^33 + its place in the file's split

(`monotonically_increasing_id()` keeps a split's rows in file order, in its low 33
bits). Positions sort like row numbers and identify a row, so every join, sort, group
and arrival order downstream reads them as it would row numbers. The file ranks come from
a listing of the files (`<source>.files`: a local run lists them, no job). Only the DLQ
prints row numbers: `$pipeline.dlq` turns positions back into numbers through each
file's offsets (`$pipeline.numbering`), which are computed after the writes and only when
the DLQ has entries; the run summary's row total is counted while the rows are written
(`<source>.total`, runtime/runner.py).

An entry whose detail names another row than its own (a combine's build row: the detail
names the driver row it matched) carries that row's order and position in `$ref.order` /
`$ref.row`, which the DLQ turns into its number the same way.

Sources keep their numbers from the start (`lazy` is false) when something else prints
or reads a row number: a CXL expression reading `$source.row`, a combine with
`on_miss: error` (its E319 message names the driver row before anything is written),
`fail_fast` (its message names the first failing row), or files Spark cuts into several
splits (NDJSON, Parquet).
"""

from __future__ import annotations

import dataclasses
import re
from dataclasses import replace

from sqlglot import exp

from clinker_sql import sqlbuild as S
from clinker_sql.codegen.materialize import checkpoint
from clinker_sql.codegen.names import (
    LINES_VIEW,
    NUMBERING_VIEW,
    REF_ORDER,
    REF_ROW,
    SOURCE_ORDER as ORDER,
)
from clinker_sql.codegen.plan import Statement
from clinker_sql.codegen.templates import Sql, ident, select_list, sql
from clinker_sql.config import model as m

LOW_BITS = 33  # monotonically_increasing_id(): the place in the split, under the split id
SCALE = 2 ** LOW_BITS
ROW = "_cxl_dlq_source_row"
DETAIL = "_cxl_dlq_error_detail"
# up to this many listed files, a row finds its file's rank in a map (a literal of the
# listed files) instead of a hash join; a map lookup compares the keys in turn (~5 ns each)
MAPPED_FILES_MAX = 16
COUNTED_FILES_MAX = 8  # a source of more files gets its offsets from a pass of their own
# (each file costs two conditional aggregates a row: ~8 ms per 1M rows and file)
NUMBERING_COLUMNS = [(ORDER, "bigint"), ("$rank", "bigint"), ("$first", "bigint"),
                     ("$before", "bigint")]

_READS_ROW = re.compile(r"\$source\s*\.\s*row\b")


def lazy(pipeline: m.Pipeline, cfg: m.SourceConfig, whole_files: bool) -> bool:
    """Whether the source's `$source.row` holds positions until the DLQ (see above)."""
    if not whole_files or pipeline.error_handling.strategy != "continue" or cfg.sort_order:
        return False  # a sorted source maps its rows to lines instead (source_order.py)
    if any(isinstance(n, m.CombineNode) and n.on_miss == "error" for n in pipeline.nodes):
        return False  # its E319 message names the driver row before anything is written
    return not reads_source_row(pipeline)


def _cxl_sources(value: object, seen: set[int] | None = None) -> list[m.CxlSource]:
    """Every CXL program in the pipeline's nodes (a walk over the frozen dataclasses)."""
    seen = set() if seen is None else seen
    if id(value) in seen:
        return []
    seen.add(id(value))
    if isinstance(value, m.CxlSource):
        return [value]
    if isinstance(value, (list, tuple)):
        return [c for v in value for c in _cxl_sources(v, seen)]
    if isinstance(value, dict):
        return [c for v in value.values() for c in _cxl_sources(v, seen)]
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return [c for f in dataclasses.fields(value)
                for c in _cxl_sources(getattr(value, f.name), seen)]
    return []


def cxl_programs(pipeline: m.Pipeline) -> list[m.CxlSource]:
    """Every CXL program of the pipeline."""
    return _cxl_sources(pipeline)


def reads_source_row(pipeline: m.Pipeline) -> bool:
    """Whether a CXL program of the pipeline reads `$source.row`."""
    return any(_READS_ROW.search(c.text) for c in _cxl_sources(pipeline))


def counted_total(view: str, rows: int) -> str:
    """`<source>.total` redefined with the rows the run counted while writing."""
    select = exp.select(S.bigint(int(rows)).as_(S.ident("$rows")))
    return f"CREATE OR REPLACE TEMPORARY VIEW {ident(view)} AS {S.to_sql(select)}"


def position(rank: exp.Expression, mid: exp.Expression) -> exp.Expression:
    return exp.Add(this=exp.Mul(this=rank, expression=S.bigint(SCALE)),
                   expression=exp.Paren(this=exp.Mod(this=mid, expression=S.bigint(SCALE))))


def low_bits(mid: exp.Expression) -> exp.Expression:
    return exp.Mod(this=mid, expression=S.bigint(SCALE))


def per_file_counts(files: int) -> dict[str, str]:
    """What a local run counts while it writes the rows of a source of `files` files
    (named by rank): each file's rows (`f<rank>`) and its smallest position (`m<rank>`).
    With them the DLQ's numbering needs no pass of its own. A file's positions are a range
    (`rank * 2^33` up): two comparisons a row and file, no division."""
    pos = S.col("$source.row")
    out = {}
    for rank in range(files):
        mine = S.and_(exp.GTE(this=pos.copy(), expression=S.bigint(rank * SCALE)),
                      exp.LT(this=pos.copy(), expression=S.bigint((rank + 1) * SCALE)))
        out[f"f{rank}"] = sql(S.fn("count_if", mine.copy()))
        out[f"m{rank}"] = sql(S.fn("min", S.case([(mine, pos.copy())])))
    return out


def counted_rows(order: int, counts: dict, files: int) -> list[tuple] | None:
    """`$pipeline.numbering`'s rows for one source (NUMBERING_COLUMNS) from the counts
    of `per_file_counts`; None when they are not all there."""
    rows, before = [], 0
    for rank in range(files):
        n = counts.get(f"f{rank}")
        if n is None:
            return None
        if n:
            rows.append((order, rank, int(counts[f"m{rank}"]) % SCALE, before))
            before += int(n)
    return rows


def compile_numbering(numbered: dict[str, tuple[int, str, str, str]],
                      entries: tuple[str, ...]) -> list[Statement]:
    """`$pipeline.numbering`: per file of each source with positions, its source order,
    rank, first position in its split and the rows before it; materialized only when
    `entries` (the views the DLQ's entries come from) have rows. `numbered`: source ->
    (order, files view, offsets view, rows view). A local run that counted each file's
    rows while writing them (`per_file_counts`) defines it from those counts instead."""
    if not numbered:
        return []
    parts = []
    for order, files, offsets, _ in numbered.values():
        parts.append(
            f"SELECT {sql(S.bigint(order))} AS {ident(ORDER)}, f.`$rank`, o.`$first`, "
            f"o.`$before`\nFROM {ident(files)} AS f\nJOIN {ident(offsets)} AS o "
            "ON f.`$file` = o.`$file`")
    body = f"CREATE OR REPLACE TEMPORARY VIEW {ident(NUMBERING_VIEW)} AS\n" + \
        "\nUNION ALL\n".join(parts)
    copy = checkpoint(NUMBERING_VIEW, None, "one pass over the files, made only when the DLQ "
                      "has entries; a local run keeps its rows (one per file) in the "
                      "driver: the DLQ's readers join them with no job; a local run that "
                      f"counted the rows of each file while writing them (up to "
                      f"{COUNTED_FILES_MAX} files a source) makes no pass")
    sources = [{"order": order, "files": files, "rows": rows}
               for order, files, _, rows in numbered.values()]
    return [Statement(
        "view", None, NUMBERING_VIEW, body,
        header="where each file's rows start: turns the positions in $source.row into row "
               "numbers for the DLQ (codegen/numbering.py)"),
        replace(copy, step=replace(copy.step, local=True, skip_unless=tuple(entries),
                                   per_file=tuple(sources)))]


def _numbered(order: str, row: str, alias: str) -> tuple[exp.Expression, exp.Expression]:
    """The join condition of an entry's (`e`) order and position columns with a file of
    `$pipeline.numbering` (as `alias`), and the row number it gives."""
    pos = S.col(row, "e")
    number = exp.Add(this=exp.Sub(this=exp.Add(this=S.col("$before", alias),
                                                expression=low_bits(pos.copy())),
                                  expression=S.col("$first", alias)),
                     expression=S.bigint(1))
    on = S.and_(S.eq(S.col(order, "e"), S.col(ORDER, alias)),
                S.eq(exp.IntDiv(this=pos.copy(), expression=S.bigint(SCALE)),
                     S.col("$rank", alias)))
    return on, number


def _cxl_prefix(detail: exp.Expression, row: exp.Expression, number: exp.Expression
                ) -> tuple[exp.Expression, exp.Expression]:
    """(whether `detail` is a CXL failure's `row N: ...` naming `row`, the detail naming
    `number` instead)."""
    p, r = S.cast(row, "STRING"), S.cast(number, "STRING")
    return (S.fn("startswith", detail.copy(),
                 S.fn("concat", S.string("row "), p.copy(), S.string(": "))),
            S.fn("concat", S.string("row "), r, S.fn(
                "substr", detail.copy(),
                exp.Add(this=S.bigint(5), expression=S.fn("length", p.copy())))))


def _found(order: str, row: str, positions: bool, lines: bool, alias: str
           ) -> tuple[list[str], str, str]:
    """The joins that turn an entry's (order, row) into its row number: a file of
    `$pipeline.numbering` (`positions`, as `alias`) and a row of `$pipeline.lines` (a
    sorted source, codegen/source_order.py, as `alias` + "l"); (joins, found, number)."""
    joins, found, number = [], [], S.col(row, "e")
    if positions:
        on, n = _numbered(order, row, alias)
        joins.append(f"LEFT JOIN {ident(NUMBERING_VIEW)} AS {alias}\n  ON {sql(on)}")
        found.append(S.not_null(S.col(ORDER, alias)))
        number = n
    if lines:
        la = alias + "l"
        on = S.and_(S.eq(S.col(order, "e"), S.col(ORDER, la)),
                    S.eq(S.col(row, "e"), S.col("$source.row", la)))
        joins.append(f"LEFT JOIN {ident(LINES_VIEW)} AS {la}\n  ON {sql(on)}")
        found.append(S.not_null(S.col(ORDER, la)))
        number = S.case([(found[-1], S.col("$source.line", la))], number)
    return joins, sql(S.or_(*found)), sql(number)


def numbered_select(columns: list[str], entries: Sql, refs: bool = False,
                    positions: bool = True, lines: bool = False) -> Sql:
    """SELECT list and FROM over `entries` (a view, or a parenthesized query with an
    alias-free body) with each position in `_cxl_dlq_source_row`, and in the detail text
    that names it, turned into its row number (`positions`), and each arrival number of a
    sorted source into its row number in the files (`lines`). Entries of sources numbered
    up front, and aggregate rows, match no file and keep theirs. `refs`: the entries have
    `$ref.order` and `$ref.row`, the row their detail names when it is not their own (else
    NULL)."""
    joins, found, number = _found(ORDER, ROW, positions, lines, "n")
    selected = f"{found} AS `$found`, {number} AS `$number`"
    if refs:
        ref_joins, ref_found, ref_number = _found(REF_ORDER, REF_ROW, positions, lines, "m")
        joins += ref_joins
        selected += f", {ref_found} AS `$ref_found`, {ref_number} AS `$ref_number`"
    hint = ", ".join(f"BROADCAST({a})" for a in ("n", "m")[:1 + refs]) if positions else ""
    hint = f"/*+ {hint} */ " if hint else ""
    inner = (f"SELECT {hint}e.*, {selected}\n  FROM {entries} AS e\n  " +
             "\n  ".join(joins))
    p, r = S.cast(S.col(ROW), "STRING"), S.cast(S.col("$number"), "STRING")
    detail = S.col(DETAIL)
    e126 = S.fn("instr", detail.copy(), S.fn("concat", S.string('" row='), p.copy(),
                                             S.string(" column=")))
    relabeled = S.case([
        # a CXL failure: `row N: ...`
        _cxl_prefix(detail, S.col(ROW), S.col("$number")),
        # a source type error: `[E126] source="s" file="f" row=N column=...`
        (exp.GT(this=e126, expression=S.bigint(0)),
         S.fn("overlay", detail.copy(), r.copy(),
              exp.Add(this=e126.copy(), expression=S.bigint(6)), S.fn("length", p.copy()))),
    ], detail.copy())
    found = S.col("$found")
    items = []
    for c in columns:
        if c == ROW:
            items.append((S.case([(found.copy(), S.col("$number"))], S.col(ROW)), ROW))
        elif c == DETAIL:
            whens = [(found.copy(), relabeled)]
            if refs:  # a detail naming another row: that row's number
                names, named = _cxl_prefix(detail, S.col(REF_ROW), S.col("$ref_number"))
                whens.insert(0, (S.and_(S.col("$ref_found"), names), named))
            items.append((S.case(whens, S.col(DETAIL)), DETAIL))
        else:
            items.append((S.col(c), c))
    return Sql(f"{select_list(items)}\nFROM (\n  {inner}\n) AS numbered")
