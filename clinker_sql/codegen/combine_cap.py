"""A combine's `max_output_rows` (E325, exit 1): Clinker checks the cap before each output
row, so exactly `cap` rows may land and the first one over it aborts the run; it never
truncates. Rows the body filters out or sends to the DLQ are not output rows."""

from __future__ import annotations

from clinker_sql import sqlbuild as S
from clinker_sql.codegen.context import Context
from clinker_sql.codegen.plan import Statement
from clinker_sql.codegen.run_plan import CheckStep
from clinker_sql.codegen.templates import ident, render, sql
from clinker_sql.config import model as m


def output_cap_check(ctx: Context, node: m.CombineNode, output_view: str) -> None:
    if node.max_output_rows is None:
        return
    cap = node.max_output_rows
    detail = S.fn("concat", S.string(f"combine '{node.name}' emitted "),
                  S.cast(S.col("rows"), "STRING"),
                  S.string(f" rows, over its max_output_rows cap of {cap}"))
    ctx.add(Statement("check", node.name, ctx.view(node.name, "output_cap"), render(
        "combine_output_cap_check.sql.j2", output=ident(output_view), detail=sql(detail),
        cap=sql(S.bigint(cap))),
        header=f"combine {node.name}: more than max_output_rows ({cap}) output rows abort "
               "the run", step=CheckStep(code="E325")))
