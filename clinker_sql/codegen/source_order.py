"""A source's `sort_order`: the order of the records inside each of its files.

Clinker verifies each physical file against it as it reads: `on_unsorted: warn` (the
default) repairs an unsorted file, sorting it before releasing any of its records (a
stable sort: equal keys keep their file order), `error` refuses the file (E366). Files
keep their name order. A record keeps its identity, its row number in the source's files
(`$source.row` in CXL, the DLQ's `_cxl_dlq_source_row`); only its arrival changes.

clinker-sql numbers the rows in arrival order: `$source.row` is the sorted order, so every
later sort, join and group that reads arrival order reads it unchanged, and
`$source.line` keeps the file row number. The DLQ prints the line (`$pipeline.lines` maps
one to the other, codegen/numbering.py `numbered_select`), as does a source type error's
detail. Refused (CS001): a CXL program reading `$source.row` in a pipeline with a sorted
source. Two messages name the arrival number instead of the line: a fail_fast CXL error
(`row N: ...`) and E319's unmatched driver row.
"""

from __future__ import annotations

from sqlglot import exp

from clinker_sql import sqlbuild as S
from clinker_sql.codegen.context import Context
from clinker_sql.codegen.ingest import typed_value
from clinker_sql.codegen.numbering import LINES_VIEW
from clinker_sql.codegen.plan import Statement
from clinker_sql.codegen.run_plan import CheckStep
from clinker_sql.codegen.templates import Sql, ident, render, sql
from clinker_sql.config import model as m

LINE = "$source.line"


def _typed_key(cfg: m.SourceConfig, key: m.SortKey) -> exp.Expression:
    column = next(c for c in cfg.schema if c.name == key.field)
    return typed_value(S.col(key.field), column)


def _ordered(cfg: m.SourceConfig) -> list[exp.Expression]:
    return [exp.Ordered(this=_typed_key(cfg, k), desc=k.desc,
                        nulls_first=k.null_order == "first") for k in cfg.sort_order]


def rows_args(cfg: m.SourceConfig, extra: list[str]) -> dict[str, Sql]:
    """The arguments of templates/source_rows_sorted.sql.j2 beyond those of
    source_rows.sql.j2; `extra`: the raw undeclared columns (codegen/unmapped.py)."""
    return {"columns": Sql(", ".join(ident(n) for n in [c.name for c in cfg.schema] + extra)),
            "keys": Sql(", ".join(sql(o) for o in _ordered(cfg)))}


def compile_lines(ctx: Context, sorted_rows: dict[str, tuple[int, str]]) -> None:
    """`$pipeline.lines`: (source order, arrival number, file row number) of every row of
    the sorted sources (`sorted_rows`: source -> (order, rows view))."""
    parts = [exp.select(S.col("$source.order"), S.col("$source.row"), S.col(LINE))
             .from_(S.table(rows)) for _, rows in sorted_rows.values()]
    union = parts[0]
    for p in parts[1:]:
        union = exp.union(union, p, distinct=False)
    ctx.add(Statement("view", None, LINES_VIEW,
                      f"CREATE OR REPLACE TEMPORARY VIEW {ident(LINES_VIEW)} AS\n"
                      f"{S.to_sql(union)}",
                      header="the sorted sources' rows: arrival number -> row number in the "
                             "files, for the DLQ (codegen/source_order.py)"))


def compile_unsorted_check(ctx: Context, node: m.SourceNode, rows: str) -> None:
    """`on_unsorted: error`: the first row of a file whose keys sort before the previous
    row's refuses the run (E366, exit 1); nothing is written."""
    cfg = node.config
    rank = exp.Window(this=exp.Anonymous(this="dense_rank"),
                      partition_by=[S.col("$source.file")],
                      order=exp.Order(expressions=_ordered(cfg)))
    detail = S.fn("concat", S.string(f"source '{node.name}' file '"), S.col("$source.file"),
                  S.string("' violates declared sort_order between rows "),
                  S.cast(S.col("$previous_line"), "STRING"),
                  S.string(" and "), S.cast(S.col(LINE), "STRING"))
    # a row whose key does not convert is a rejection, not a record: not in the order
    typed = S.and_(*[S.or_(S.not_null(_typed_key(cfg, k)), S.is_null(S.col(k.field)),
                           S.eq(S.col(k.field), S.string(""))) for k in cfg.sort_order])
    ctx.add(Statement("check", node.name, ctx.view(node.name, "unsorted"), render(
        "source_unsorted_check.sql.j2", rows=ident(rows), rank=sql(rank), detail=sql(detail),
        typed=sql(typed)),
        header=f"source {node.name}: on_unsorted: error refuses a file whose rows are not in "
               "its sort_order", step=CheckStep(code="E366")))
