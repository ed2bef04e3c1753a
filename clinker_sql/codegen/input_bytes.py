"""A CSV source read as UTF-8 whose bytes do not decode: the run's check.

Clinker decodes every field strictly: bytes that are not UTF-8 fail the run (CS109, a
format error, exit 4; input_files.py). Spark's CSV reader puts U+FFFD in their place and
goes on, so a run would change the data silently. (Its JSON reader refuses them: a
malformed record.) The compiler tests the start of each file (input_files.py); the rest
is tested here, at a cost only when there is something to find:

- while the source's rows are read, they are counted (`Dataset.observe`, as for the run
  summary) with the rows holding U+FFFD in a cell (`ViewStep.suspect`: the reader writes one only
  in place of such bytes, or where the file holds one);
- after the writes and before anything is committed, the check reads the files' bytes,
  only when that count is not 0 or was not taken: Spark's `text` source keeps each line's
  bytes as they are, and `is_valid_utf8` tests them. A file that holds U+FFFD passes.

A source whose files may hold columns its rows do not carry (`on_unmapped: drop` with
undeclared columns, a header the compiler could not read) has no `ViewStep.suspect`: its check
always runs.
"""

from __future__ import annotations

from sqlglot import exp

from clinker_sql import sqlbuild as S
from clinker_sql.codegen import input_files
from clinker_sql.codegen.plan import Statement
from clinker_sql.codegen.run_plan import CheckStep, ViewStep
from clinker_sql.codegen.templates import Sql, ident, literal, render, sql


REPLACEMENT = "\ufffd"  # what Spark's decoder puts in place of bytes that do not decode


def suspect(columns: list[str]) -> str:
    """A row holding U+FFFD in one of the text `columns` of the rows view."""
    return S.to_sql(S.or_(*[S.fn("contains", S.col(c), S.string(REPLACEMENT))
                            for c in columns]) if columns else S.boolean(False))


def compile_check(ctx, source: str, path: str, file: exp.Expression, desc: bool,
                  rows: str) -> None:
    """The view of the source's files' lines as bytes and the check on them (read with
    the scan's `path` option); `file`: `$source.file` of a line read from the file
    `$file`; `desc`: the files are read in descending name order (`files: sort_order`),
    the first failing file in that order is named."""
    view = ctx.view(source, "bytes")
    ctx.add(Statement("view", source, view, render(
        "source_scan.sql.j2", view=ident(view), format=Sql("text"),
        options=Sql(f"path {literal(path)}")),
        header=f"source {source}: its files' lines as bytes (not decoded), for the "
               "UTF-8 check", step=ViewStep(scan_columns=("value",))))
    before, after = input_files.not_utf8_message(source)
    detail = S.fn("concat", S.string(before), file, S.string(after))
    ctx.add(Statement("check", source, f"{source}.utf8", render(
        "source_bytes_check.sql.j2", detail=sql(detail), bytes=ident(view), desc=desc),
        header=f"source {source}: bytes that are not UTF-8 fail the run (run only when a "
               "row read held U+FFFD, or the rows were not counted)",
        step=CheckStep(code=input_files.NOT_UTF8, bytes_rows=rows)))
