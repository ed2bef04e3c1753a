"""`dlq_granularity: document` at commit (spec §2.1, §3): a failure rejects its whole file.

Clinker buffers, at each sink, the records of a source that declares the policy by their
file, and rejects a file any of whose records failed (clinker-exec document_dlq.rs):

* the file's first failure (in the order the nodes ran, then the rows) stays the trigger;
  a later failure of the same file becomes a collateral;
* every record of the file a sink received is not written but a collateral: category
  `document_rejected`, stage `document_dlq`, once per source row however many sinks
  received it;
* only records that carry their source's name and file are governed: a combine's or an
  aggregate's rows (`<merged>`) are written as they are, and a record that no sink
  received (filtered, folded into an aggregate) has no entry.

Here the rejected files are a small view of the triggers (`$pipeline.doc_failed`), the
sinks' records are anti-joined with it (a broadcast), and their collaterals are ranked
by source row. Clinker's sinks decide a file in turn, and the first to reject it emits
its entries; a later sink finds the file no longer marked and writes its records. Every
sink withholds them here.
"""

from __future__ import annotations

from sqlglot import exp

from clinker_sql import sqlbuild as S
from clinker_sql.codegen.context import Context
from clinker_sql.codegen.dlq_shape import DLQ_COLUMNS, dlq_select
from clinker_sql.codegen.names import (
    DOC_COLLATERAL as COLLATERAL,
    DOC_FAILED as FAILED,
    DOC_TRIGGERS as TRIGGERS,
)
from clinker_sql.codegen.plan import SOURCE_FILE, SOURCE_NAME, SOURCE_ROW, Statement
from clinker_sql.codegen.sink import SinkPlan
from clinker_sql.codegen.templates import ident, sql
from clinker_sql.config import model as m
from clinker_sql.cxl.text import to_cell

_LATER = 1_000_000  # the rank of a stage no node of the pipeline names


def document_sources(pipeline: m.Pipeline) -> list[str]:
    return [n.name for n in pipeline.nodes
            if isinstance(n, m.SourceNode) and n.config.document_dlq is not None]


def _stage_rank(ctx: Context) -> exp.Expression:
    """The order in which Clinker's nodes raise a stage's failures: sources first, then
    each node in compile (topological) order; every route shares `route_eval`."""
    by_name = {n.name: n for n in ctx.pipeline.nodes}
    ranks: dict[str, int] = {"source": 0}
    for i, ev in enumerate(ctx.error_views, start=1):
        node = by_name.get(ev.node)
        stage = {"transform": f"transform:{ev.node}", "aggregate": f"aggregate:{ev.node}",
                 "combine": f"combine:{ev.node}", "route": "route_eval"}.get(
            node.kind if node is not None else "")
        if stage is not None:
            ranks.setdefault(stage, i)
    return S.case([(S.eq(S.col("_cxl_dlq_stage"), S.string(stage)), S.bigint(rank))
                   for stage, rank in ranks.items()], S.bigint(_LATER))


def compile_documents(ctx: Context, sinks: list[SinkPlan], triggers_view: str,
                      payload: list[str], sink_layouts: dict[str, int]) -> dict[str, str]:
    """Adds the views of rejected files, the triggers with later failures of a rejected
    file as collaterals (TRIGGERS) and the sinks' collaterals (COLLATERAL); returns sink
    name -> view of the records it writes."""
    docs = document_sources(ctx.pipeline)
    stage_rank = _stage_rank(ctx)
    first = exp.Min(this=S.fn("named_struct", S.string("k"), stage_rank.copy(),
                              S.string("r"), S.col("_cxl_dlq_source_row")))
    failed = exp.select(
        S.col("_cxl_dlq_source_name").as_(S.ident(SOURCE_NAME)),
        S.col("_cxl_dlq_source_file").as_(S.ident(SOURCE_FILE)),
        first.as_(S.ident("$first")),
    ).from_(S.table(triggers_view)).where(S.and_(
        exp.In(this=S.col("_cxl_dlq_source_name"), expressions=[S.string(d) for d in docs]),
        S.not_null(S.col("_cxl_dlq_source_file")),
        S.col("_cxl_dlq_trigger"))).group_by(S.col("_cxl_dlq_source_name"),
                                             S.col("_cxl_dlq_source_file"))
    ctx.add(Statement("view", None, FAILED, _view(FAILED, failed),
                      header="document DLQ: the files of "
                             f"{', '.join(docs)} that hold a failure, with their first"))

    # a later failure of a rejected file: a collateral of it
    governed = S.not_null(S.col("$first", "d"))
    is_first = S.and_(
        S.eq(exp.Dot(this=S.col("$first", "d"), expression=S.ident("k")), stage_rank),
        S.eq(exp.Dot(this=S.col("$first", "d"), expression=S.ident("r")),
             S.col("_cxl_dlq_source_row", "t")))
    later = S.and_(governed, S.not_(is_first))
    rejected = _rejected(S.col("_cxl_dlq_source_file", "t"))
    overrides = {
        "_cxl_dlq_triggering_field": S.cast(S.null(), "STRING"),
        "_cxl_dlq_triggering_value": S.cast(S.null(), "STRING"),
        "_cxl_dlq_error_category": S.string("document_rejected"),
        "_cxl_dlq_error_detail": rejected,
        "_cxl_dlq_stage": S.string("document_dlq"),
        "_cxl_dlq_route": S.cast(S.null(), "STRING"),
        "_cxl_dlq_trigger": S.boolean(False),
    }
    star = exp.Star(except_=[S.col(c) for c in overrides])
    items = [exp.Column(this=star, table=S.ident("t"))] + [
        S.case([(later, value)], S.col(c, "t")).as_(S.ident(c)) for c, value in overrides.items()]
    triggers = exp.select(*items).from_(_as(triggers_view, "t")).join(
        _as(FAILED, "d"), on=_same_file("d", "t", "_cxl_dlq_source_name",
                                        "_cxl_dlq_source_file"), join_type="left")
    ctx.add(Statement("view", None, TRIGGERS, _view(TRIGGERS, triggers),
                      header="document DLQ: the triggers, each rejected file's later "
                             "failures turned into its collaterals"))

    commits: dict[str, str] = {}
    parts: list[exp.Expression] = []
    for i, plan in enumerate(sinks):
        rel = plan.relation
        view = ctx.view(plan.node.name, "commit")
        kept = exp.select(exp.Column(this=exp.Star(), table=S.ident("rows"))).from_(
            _as(rel.view, "rows")).join(_as(FAILED, "d"), on=_same_file("d", "rows"),
                                        join_type="left anti")
        ctx.add(Statement("view", plan.node.name, view, _view(view, _broadcast(kept)),
                          header=f"sink {plan.node.name}: records of files not rejected "
                                 "(chosen for speed: a broadcast anti-join, the rejected "
                                 "files are few)"))
        commits[plan.node.name] = view
        record = dict(rel.columns + rel.ck)
        entry = dlq_select(
            source_name=S.col(SOURCE_NAME, "rows"), source_file=S.col(SOURCE_FILE, "rows"),
            source_row=S.col(SOURCE_ROW, "rows"), order=S.col("$source.order", "rows"),
            field=S.cast(S.null(), "STRING"), value=S.cast(S.null(), "STRING"),
            category=S.string("document_rejected"),
            detail=_rejected(S.col(SOURCE_FILE, "rows")), stage=S.string("document_dlq"),
            trigger=False,
            payload={c: to_cell(S.col(c, "rows"), record[c]) if c in record
                     else S.cast(S.null(), "STRING") for c in payload},
            extra={"$layout": S.bigint(sink_layouts[plan.node.name]), "$sink": S.bigint(i)})
        parts.append(_broadcast(exp.select(*[e.as_(S.ident(n)) for e, n in entry]).from_(
            _as(rel.view, "rows")).join(_as(FAILED, "d"), on=_same_file("d", "rows"),
                                        join_type="left semi")))
    if not parts:  # no sink: no record was received, none is a collateral
        return commits
    union = parts[0]
    for part in parts[1:]:
        union = exp.union(union, part, distinct=False)
    rank = exp.Window(this=exp.RowNumber(), partition_by=[S.col("_cxl_dlq_source_name"),
                                                          S.col("_cxl_dlq_source_row")],
                      order=exp.Order(expressions=[exp.Ordered(this=S.col("$sink"))]))
    ranked = exp.select(exp.Star(), rank.as_(S.ident("$n"))).from_(
        exp.Subquery(this=union, alias=exp.TableAlias(this=S.ident("c"))))
    once = exp.select(*[S.col(c) for c in DLQ_COLUMNS + ("$source.order", "$layout")],
                      *[S.col(c) for c in payload]).from_(
        exp.Subquery(this=ranked, alias=exp.TableAlias(this=S.ident("r")))).where(
        S.eq(S.col("$n"), S.small_int(1)))
    ctx.add(Statement("view", None, COLLATERAL, _view(COLLATERAL, once),
                      header="document DLQ: a collateral entry for each record of a rejected "
                             "file that a sink received, once per source row"))
    return commits


def _rejected(file: exp.Expression) -> exp.Expression:
    return S.fn("concat", S.string('document "'), file,
                S.string('" rejected: a sibling record failed'))


def _same_file(failed: str, rows: str, name: str = SOURCE_NAME, file: str = SOURCE_FILE
               ) -> exp.Expression:
    return S.and_(S.eq(S.col(SOURCE_NAME, failed), S.col(name, rows)),
                  S.eq(S.col(SOURCE_FILE, failed), S.col(file, rows)))


def _as(view: str, alias: str) -> exp.Table:
    return exp.Table(this=S.ident(view), alias=exp.TableAlias(this=S.ident(alias)))


def _broadcast(select: exp.Select) -> exp.Select:
    select.set("hint", exp.Hint(expressions=[exp.Anonymous(this="BROADCAST",
                                                           expressions=[S.ident("d")])]))
    return select


def _view(name: str, query: exp.Expression) -> str:
    return f"CREATE OR REPLACE TEMPORARY VIEW {ident(name)} AS\n{sql(query)}"
