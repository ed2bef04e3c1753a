"""`error_handling.type_error_threshold` (E368, exit 3).

Clinker checks it after each source-type rejection (a value that does not match its
declared column type), under `strategy: continue`: rejected rows over the rows read so
far, `>` trips. It reads its sources one after the other, in the pipeline's order, each
from its first row to its last, so at the k-th rejection, row r of the i-th source, the
rows read are all rows of the sources before it plus r. The check reads the DLQ's source
entries after the writes are staged and before anything is committed (the runner runs
`after_writes` checks then); it fails on the first rejection over the threshold.
"""

from __future__ import annotations

from sqlglot import exp

from clinker_sql import sqlbuild as S
from clinker_sql.codegen.context import Context
from clinker_sql.codegen.dlq_shape import ORDER
from clinker_sql.codegen.names import SPLIT_ROWS
from clinker_sql.codegen.plan import Statement
from clinker_sql.codegen.run_plan import CheckStep
from clinker_sql.codegen.templates import ident, render, sql



def compile_type_threshold(ctx: Context, sources: list[str], dlq_view: str) -> None:
    eh = ctx.pipeline.error_handling
    if eh.type_error_threshold is None or eh.strategy != "continue":
        return  # under fail_fast the first rejection already aborts (E126)
    threshold = eh.type_error_threshold

    def total(src: str) -> exp.Expression:
        return exp.Subquery(this=exp.select(S.col(SPLIT_ROWS)).from_(
            S.table(ctx.view(src, "total"))))

    # the rows of the sources read before source i
    bases, before = [], []
    for i, src in enumerate(sources):
        acc: exp.Expression = S.bigint(0)
        for b in before:
            acc = exp.Add(this=acc, expression=b)
        bases.append((S.eq(S.col("o"), S.bigint(i)), acc))
        before.append(total(src))
    base = S.case(bases, S.bigint(0))
    rate = exp.Div(this=S.cast(S.col("rejected"), "DOUBLE"), expression=S.col("attempted"))
    detail = S.fn("concat", S.string("type error threshold exceeded: observed rate "),
                  S.fn("format_number", rate, S.small_int(4)),
                  S.string(f" is above the configured type_error_threshold {threshold:.4f} ("),
                  S.cast(S.col("rejected"), "STRING"), S.string("/"),
                  S.cast(S.col("attempted"), "STRING"), S.string(" source records)"))
    ctx.add(Statement("check", None, "type_error_threshold", render(
        "type_error_threshold_check.sql.j2", detail=sql(detail), base=sql(base),
        order=ident(ORDER), dlq=ident(dlq_view), threshold=sql(S.double(threshold))),
        header=f"type_error_threshold {threshold:g}: abort when rejected source rows exceed "
               "that share of the rows read so far",
        step=CheckStep(code="E368", after_writes=True)))
