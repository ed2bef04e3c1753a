"""The DLQ: union of every node's error view, its report counts and its file."""

from __future__ import annotations

from sqlglot import exp

from clinker_sql.codegen import sql as S
from clinker_sql.codegen.context import Context
from clinker_sql.codegen.dlq_shape import DLQ_COLUMNS, ORDER
from clinker_sql.codegen.plan import Statement
from clinker_sql.codegen.sink import csv_line, staging_path
from clinker_sql.codegen.templates import Sql, ident, render, select_list, sql
from clinker_sql.cxl import types as T

DLQ_VIEW = "$pipeline.dlq"


def payload_columns(ctx: Context) -> list[str]:
    """Clinker: schema order when every entry has the same layout, else the sorted union."""
    layouts = {ev.payload for ev in ctx.error_views}
    if len(layouts) == 1:
        return list(next(iter(layouts)))
    return sorted({c for layout in layouts for c in layout})


def compile_dlq(ctx: Context) -> None:
    payload = payload_columns(ctx)
    parts = []
    for ev in ctx.error_views:
        items = [(S.col(c), c) for c in DLQ_COLUMNS + (ORDER,)]
        items += [(S.col(c) if c in ev.payload else S.cast(S.null(), "STRING"), c)
                  for c in payload]
        parts.append(Sql(f"{select_list(items)}\nFROM {ident(ev.view)}"))
    if not parts:
        empty = [(S.cast(S.null(), "STRING"), c) for c in DLQ_COLUMNS + (ORDER,)]
        parts.append(Sql(f"{select_list(empty)}\nWHERE FALSE"))
    ctx.add(Statement("view", None, DLQ_VIEW, render("dlq.sql.j2", view=ident(DLQ_VIEW),
                                                     parts=parts),
                      header="the DLQ: every error view of the pipeline"))
    eh = ctx.pipeline.error_handling
    if eh.strategy == "fail_fast":
        ctx.add(Statement("check", None, "fail_fast", render("fail_fast_check.sql.j2",
                                                             dlq=ident(DLQ_VIEW)),
                          header="fail_fast: abort on the first failure before any write"))
        return
    if eh.dlq is None or not eh.dlq.path:
        return
    header = ["_cxl_dlq_id", "_cxl_dlq_timestamp", "_cxl_dlq_source_file",
              "_cxl_dlq_source_name", "_cxl_dlq_source_row", "_cxl_dlq_triggering_field",
              "_cxl_dlq_triggering_value"]
    if eh.dlq.include_reason:
        header += ["_cxl_dlq_error_category", "_cxl_dlq_error_detail"]
    header += ["_cxl_dlq_stage", "_cxl_dlq_route", "_cxl_dlq_trigger"]
    if eh.dlq.include_source_row:
        header += payload
    computed: dict[str, tuple[exp.Expression, T.CxlType]] = {
        "_cxl_dlq_id": (S.fn("uuid"), T.STRING),
        "_cxl_dlq_timestamp": (S.fn("date_format", S.fn("current_timestamp"),
                                    S.string("yyyy-MM-dd'T'HH:mm:ss'Z'")), T.STRING),
        "_cxl_dlq_source_row": (S.col("_cxl_dlq_source_row"), T.INT),
        "_cxl_dlq_trigger": (S.col("_cxl_dlq_trigger"), T.BOOL),
    }
    columns = [(name, *computed.get(name, (S.col(name), T.STRING))) for name in header]
    line = csv_line(columns, ",")
    body = render("write_text.sql.j2", line=sql(line), input=ident(DLQ_VIEW),
                  order_by=Sql(f"{ident(ORDER)}, {ident('_cxl_dlq_source_row')}"))
    ctx.add(Statement("write", None, "dlq", body, header=f"DLQ: write {eh.dlq.path}",
                      meta={"path": eh.dlq.path, "staging": staging_path(eh.dlq.path),
                            "format": "csv", "header": header, "include_header": True,
                            "delimiter": ",", "json_format": "", "rows_view": DLQ_VIEW,
                            "dlq": True}))
    ctx.compiled.dlq = {"path": eh.dlq.path}


def compile_report(ctx: Context, sources: list[str]) -> None:
    """One query with every count the run summary needs."""
    def count(view: str) -> exp.Expression:
        return exp.Subquery(this=exp.select(exp.Count(this=exp.Star())).from_(
            exp.Table(this=S.ident(view))))

    items: list[tuple[exp.Expression, str]] = []
    for src in sources:
        items.append((count(ctx.view(src, "rows")), f"total:{src}"))
    items.append((count(DLQ_VIEW), "dlq"))
    for sink in ctx.compiled.sinks:
        items.append((count(sink["rows_view"]), f"written:{sink['name']}"))
    if ctx.compiled.sinks:
        union = None
        for sink in ctx.compiled.sinks:
            q = exp.select(S.col("$source.name"), S.col("$source.row")).from_(
                exp.Table(this=S.ident(sink["rows_view"])))
            union = q if union is None else exp.union(union, q, distinct=True)
        ok = exp.Subquery(this=exp.select(exp.Count(this=exp.Star())).from_(
            exp.Subquery(this=union, alias=exp.TableAlias(this=S.ident("reached")))))
        items.append((ok, "ok"))
    for src in sources:
        q = exp.select(exp.Count(this=exp.Star())).from_(exp.Table(this=S.ident(DLQ_VIEW))).where(
            exp.EQ(this=S.col("_cxl_dlq_source_name"), expression=S.string(src)))
        items.append((exp.Subquery(this=q), f"dlq:{src}"))
    ctx.add(Statement("report", None, "report", render("report.sql.j2",
                                                       select_list=select_list(items)),
                      header="run summary counts"))
