"""End of the pipeline: triggers, the correlation commit, the DLQ, the
fail_fast check, every write, and the report query."""

from __future__ import annotations

from dataclasses import replace

from sqlglot import exp

from clinker_sql import sqlbuild as S
from clinker_sql.codegen import retraction as R
from clinker_sql.codegen.context import Context
from clinker_sql.codegen.correlation import COLLATERAL, OVERFLOW, compile_correlation, lattice
from clinker_sql.codegen.dlq_shape import DLQ_COLUMNS, ORDER, real_row
from clinker_sql.codegen.documents import COLLATERAL as DOC_COLLATERAL
from clinker_sql.codegen.documents import TRIGGERS as DOC_TRIGGERS
from clinker_sql.codegen.documents import compile_documents, document_sources
from clinker_sql.codegen.fusion import chain_entries, row_wise
from clinker_sql.codegen.materialize import checkpoint
from clinker_sql.codegen.names import (
    DLQ_VIEW,
    EARLY_VIEW,
    FIELDS,
    FILE_LAYOUT,
    HEADER,
    LAYOUT,
    LIVE_VIEW,
    SPLIT_ROWS,
    TRIGGERS_VIEW,
)
from clinker_sql.codegen.numbering import (
    REF_ORDER,
    REF_ROW,
    compile_numbering,
    numbered_select,
)
from clinker_sql.codegen.plan import Statement
from clinker_sql.codegen.retraction import TRIGGERS_SEEN
from clinker_sql.codegen.run_plan import CheckStep, ReportStep, WriteStep
from clinker_sql.codegen.sink import SinkPlan, compile_write, csv_cell, csv_line, staging_path
from clinker_sql.codegen.source_order import compile_lines
from clinker_sql.codegen.templates import Sql, ident, render, select_list, sql
from clinker_sql.codegen.type_threshold import compile_type_threshold
from clinker_sql.codegen.written import compile_written
from clinker_sql.config import model as m
from clinker_sql.config.checks import upstream
from clinker_sql.cxl import types as T

# the unions of error views (and what reads them whole): they carry `$ref.*` when any does
_UNIONS = {TRIGGERS_VIEW, LIVE_VIEW, EARLY_VIEW, TRIGGERS_SEEN, DOC_TRIGGERS}
_DELIMITER = ","


def layouts(ctx: Context, sinks: list[SinkPlan], correlated: bool) -> list[tuple[str, ...]]:
    """Distinct record layouts a DLQ entry can have, in first-seen order."""
    out: list[tuple[str, ...]] = []
    candidates = [ev.payload for ev in ctx.error_views]
    if correlated:
        candidates += [sink_layout(p) for p in sinks]
    for layout in candidates:
        if layout not in out:
            out.append(layout)
    return out


def sink_layout(plan: SinkPlan) -> tuple[str, ...]:
    return tuple(n for n, _ in plan.relation.columns + plan.relation.ck)


def union_columns(all_layouts: list[tuple[str, ...]]) -> list[str]:
    """Clinker: schema order when every entry has the same layout, else the sorted union."""
    if len(all_layouts) == 1:
        return list(all_layouts[0])
    return sorted({c for layout in all_layouts for c in layout})


def _union(ctx: Context, view: str, sources: list[tuple[str, tuple[str, ...], int | None]],
           payload: list[str], header: str) -> None:
    parts = []
    chains: dict[str, list[tuple[str, int]]] = {}  # a fused chain's failing rows -> its nodes
    for source_view, _, layout in sources:
        if source_view in ctx.fused_errors and layout is not None:
            failed, node = ctx.fused_errors[source_view]
            chains.setdefault(failed, []).append((node, layout))
    # entries whose detail names another row carry it (`$ref.*`, codegen/numbering.py)
    refs = bool(ctx.numbered or ctx.sorted_rows) and any(ev.refers for ev in ctx.error_views)
    carry = {ev.view for ev in ctx.error_views if ev.refers} | _UNIONS

    def ref_items(source_view: str | None) -> list[tuple[exp.Expression, str]]:
        if not refs:
            return []
        return [(S.col(c) if source_view in carry else S.cast(S.null(), "BIGINT"), c)
                for c in (REF_ORDER, REF_ROW)]

    for failed, members in chains.items():
        items = chain_entries(failed, members, payload) + ref_items(None)
        parts.append(Sql(f"{select_list(items)}\nFROM {ident(failed)}"))
    for source_view, columns, layout in sources:
        if source_view in ctx.fused_errors and layout is not None:
            continue
        items = [(S.col(c), c) for c in DLQ_COLUMNS + (ORDER,)]
        items.append((S.col(LAYOUT) if layout is None else S.bigint(layout), LAYOUT))
        items += [(S.col(c) if c in columns else S.cast(S.null(), "STRING"), c)
                  for c in payload]
        items += ref_items(source_view)
        parts.append(Sql(f"{select_list(items)}\nFROM {ident(source_view)}"))
    if not parts:
        typed = {"_cxl_dlq_source_row": "BIGINT", "_cxl_dlq_trigger": "BOOLEAN", ORDER: "BIGINT",
                 LAYOUT: "BIGINT"}
        empty = [(S.cast(S.null(), typed.get(c, "STRING")), c)
                 for c in DLQ_COLUMNS + (ORDER, LAYOUT) + tuple(payload)] + ref_items(None)
        parts.append(Sql(f"{select_list(empty)}\nWHERE FALSE"))
    numbered = None
    if view == DLQ_VIEW and (ctx.numbered or ctx.sorted_rows):  # row numbers here
        union = render("dlq.sql.j2", view=None, parts=parts, numbered=None)
        numbered = numbered_select(list(DLQ_COLUMNS + (ORDER, LAYOUT)) + list(payload),
                                   Sql(f"(\n{union}\n)"), refs, positions=bool(ctx.numbered),
                                   lines=bool(ctx.sorted_rows))
    ctx.add(Statement("view", None, view, render("dlq.sql.j2", view=ident(view), parts=parts,
                                                 numbered=numbered),
                      header=header + (" (row numbers from their positions: "
                                       "codegen/numbering.py)" if numbered else "")))


def compile_commit(ctx: Context, sinks: list[SinkPlan], sources: list[str],
                   aggregates: list | None = None, retraction: bool = False) -> None:
    aggregates = aggregates or []
    keys = lattice(ctx)
    # with no sink no record is committed: no group has a collateral or overflows
    correlated = bool(keys) and bool(sinks)
    documents = bool(document_sources(ctx.pipeline))  # never with keys (E370)
    all_layouts = layouts(ctx, sinks, correlated or documents)
    payload = union_columns(all_layouts) if all_layouts else []
    live = [(ev.view, ev.payload, all_layouts.index(ev.payload)) for ev in ctx.error_views]
    if retraction:
        # the forward pass's triggers (raised before any retraction-mode node) are computed
        # once and seed the first pass; the others are computed again in every pass
        dependent = R.dependent_views(ctx.compiled.statements)
        _union(ctx, EARLY_VIEW, [x for x in live if x[0] not in dependent], payload,
               "DLQ triggers that do not depend on the retraction state")
        ctx.add(checkpoint(EARLY_VIEW, None, "they are computed once: they seed the "
                           "retraction and stay the same in every pass", failures=True))
        R.compile_seed(ctx, EARLY_VIEW)
        _union(ctx, LIVE_VIEW, [(EARLY_VIEW, tuple(payload), None)]
               + [x for x in live if x[0] in dependent], payload,
               "DLQ triggers of the current pass")
        # triggers of earlier fixpoint passes stay in the DLQ (codegen/retraction.py)
        ctx.add(Statement("view", None, TRIGGERS_SEEN,
                          f"CREATE OR REPLACE TEMPORARY VIEW {ident(TRIGGERS_SEEN)} AS "
                          f"SELECT * FROM {ident(LIVE_VIEW)} WHERE FALSE",
                          header="DLQ triggers of earlier passes (none before the first)"))
        ctx.add(Statement("view", None, TRIGGERS_VIEW, render(
            "triggers_accumulated.sql.j2", view=ident(TRIGGERS_VIEW), seen=ident(TRIGGERS_SEEN),
            live=ident(LIVE_VIEW)), header="DLQ triggers of every pass"))
        R.compile_candidates(ctx, TRIGGERS_VIEW, aggregates)
        ctx.add(Statement("fixpoint", None, "retraction", "-- in every pass the runner "
                          "materializes $pipeline.triggers, then repeats the pass until "
                          "$pipeline.retract_candidates adds nothing to $pipeline.retracted",
                          header="retraction fixpoint", reads=(TRIGGERS_VIEW,),
                          step=R.first_pass_step(
                              [x[0] for x in live if x[0] in dependent],
                              [x[1] for x in live if x[0] not in dependent], aggregates)))
    else:
        _union(ctx, TRIGGERS_VIEW, live, payload, "DLQ triggers: every node's error view")
        ctx.add(checkpoint(TRIGGERS_VIEW, None, None, failures=True))
    if correlated:
        for plan in sinks:
            if _shuffles_upstream(ctx, plan.node):
                _checkpoint(ctx, plan.relation.view)
    commits = {p.node.name: p.relation.view for p in sinks}
    dlq_parts: list[tuple[str, tuple[str, ...], int | None]] = [
        (TRIGGERS_VIEW, tuple(payload), None)]
    if correlated:
        sink_layouts = {p.node.name: all_layouts.index(sink_layout(p)) for p in sinks}
        commits = compile_correlation(ctx, sinks, TRIGGERS_VIEW, payload, sink_layouts)
        dlq_parts.append((COLLATERAL, tuple(payload), None))
    elif documents:
        commits = compile_documents(ctx, sinks, TRIGGERS_VIEW, payload, {
            p.node.name: all_layouts.index(sink_layout(p)) for p in sinks})
        dlq_parts = [(DOC_TRIGGERS, tuple(payload), None)] + (
            [(DOC_COLLATERAL, tuple(payload), None)] if sinks else [])
    entries = (TRIGGERS_VIEW, OVERFLOW) if correlated else (TRIGGERS_VIEW,)
    for stmt in compile_numbering(ctx.numbered, entries):
        ctx.add(stmt)
    if ctx.sorted_rows:
        compile_lines(ctx, ctx.sorted_rows)
    _union(ctx, DLQ_VIEW, dlq_parts, payload, "the DLQ: triggers and collaterals")
    if correlated and ctx.pipeline.error_handling.strategy == "continue":
        # the report and the DLQ write each read it: the collaterals are ranked once
        ctx.add(checkpoint(DLQ_VIEW, None, "the collateral entries are computed once for the "
                           "report and the DLQ file", failures=True,
                           empty_unless=(TRIGGERS_VIEW, OVERFLOW)))
    if ctx.pipeline.error_handling.strategy == "fail_fast":
        ctx.add(Statement("check", None, "fail_fast", render("fail_fast_check.sql.j2",
                                                             dlq=ident(TRIGGERS_VIEW)),
                          header="fail_fast: abort on the first failure before any write"))
    _continue_without_dlq(ctx)
    for plan in sinks:
        compile_write(ctx, plan, commits[plan.node.name])
    if ctx.pipeline.error_handling.strategy == "continue":
        _dlq_write(ctx, all_layouts, payload)
    compile_report(ctx, sources, entries)
    compile_type_threshold(ctx, sources, DLQ_VIEW)
    compile_written(ctx, sources)


def _shuffles_upstream(ctx: Context, sink: m.SinkNode) -> bool:
    """Whether a sink's records come through a window, `distinct`, an aggregate or a
    combine. The commit layer reads a sink's records three times (group sizes,
    collaterals, the write): worth a copy only when producing them shuffles. Row-wise
    records are cheaper to evaluate again than to copy (ck_dlq, 1M rows: 13.9 -> 12.6 s
    without the copies)."""
    return any(isinstance(n, (m.AggregateNode, m.CombineNode)) or (
        isinstance(n, m.TransformNode) and not row_wise(n))
        for n in upstream(ctx.pipeline.nodes, [r.node for r in sink.inputs]))


def _checkpoint(ctx: Context, view: str) -> None:
    """A sink's records, copied (not when they are computed row by row from copies:
    codegen/records_copy.py)."""
    copy = checkpoint(view, None, None)
    ctx.add(replace(copy, step=replace(copy.step, records_copy=True)))


def _continue_without_dlq(ctx: Context) -> None:
    """Under `strategy: continue` with no `error_handling.dlq`, a source-type rejection
    has nowhere to go: Clinker fails the run on the first one ([E126] "source type error
    requires `error_handling.dlq`", clinker-exec dispatch.rs), before anything is written.
    Other failures are only counted then. A `dlq:` block without a `path` is a DLQ for this
    test (Clinker checks `dlq.is_none()`): its entries are counted and the run goes on."""
    eh = ctx.pipeline.error_handling
    if eh.strategy != "continue" or eh.dlq is not None:
        return
    detail = S.fn("concat", S.string("source type error requires `error_handling.dlq` under "
                                     "strategy continue: "), S.col("_cxl_dlq_error_detail"))
    check = exp.select(exp.alias_(detail, "detail")).from_(S.table(TRIGGERS_VIEW)).where(
        S.eq(S.col("_cxl_dlq_stage"), S.string("source"))).limit(1)
    ctx.add(Statement("check", None, "continue_without_dlq", sql(check),
                      header="continue with no DLQ: a source-type rejection aborts the run",
                      step=CheckStep(code="E126")))


def _dlq_write(ctx: Context, all_layouts: list[tuple[str, ...]], payload: list[str]) -> None:
    """The DLQ file, header line included, in one statement whatever entries it holds.

    Clinker lays the file out from the entries it writes: a record layout's own columns in
    schema order when every entry has that layout, else the sorted union of the
    pipeline's record columns (`payload`). Which case holds is known only once the entries
    are: a window aggregate over the lines decides it (`$file_layout`) in the one partition
    the lines are sorted in anyway, so it costs no job of its own. Each cell is computed
    once, below the choice; the header is the row of the column names, built as a line
    (`templates/dlq_write.sql.j2`)."""
    dlq = ctx.pipeline.error_handling.dlq
    if dlq is None:
        return
    # Clinker's partition_dlq_entries: a source with its own `per_source.<s>.path` writes
    # its entries there, the others go to `path` (none when it is not set)
    own = [(src, limit.path) for src, limit in dlq.per_source if limit.path]
    name = S.col("_cxl_dlq_source_name")
    if dlq.path:
        others = S.not_(exp.In(this=name, expressions=[S.string(src) for src, _ in own])) \
            if own else None
        _dlq_bucket(ctx, dlq, all_layouts, payload, "dlq", dlq.path, others,
                    WriteStep(dlq_except=tuple(src for src, _ in own)))
    for src, path in own:
        _dlq_bucket(ctx, dlq, all_layouts, payload, f"dlq.{src}", path,
                    S.eq(name, S.string(src)), WriteStep(dlq_only=(src,)))
    if dlq.path or own:
        ctx.compiled.dlq = {"path": dlq.path, **({"per_source": dict(own)} if own else {})}


def _dlq_bucket(ctx: Context, dlq: m.DlqConfig, all_layouts: list[tuple[str, ...]],
                payload: list[str], name: str, path: str, where: exp.Expression | None,
                which: WriteStep) -> None:
    """One DLQ file: the entries `where` keeps (all when None), laid out from them."""
    fields = ["_cxl_dlq_id", "_cxl_dlq_timestamp", "_cxl_dlq_source_file",
              "_cxl_dlq_source_name", "_cxl_dlq_source_row", "_cxl_dlq_triggering_field",
              "_cxl_dlq_triggering_value"]
    if dlq.include_reason:
        fields += ["_cxl_dlq_error_category", "_cxl_dlq_error_detail"]
    fields += ["_cxl_dlq_stage", "_cxl_dlq_route", "_cxl_dlq_trigger"]
    record = payload if dlq.include_source_row else []
    computed: dict[str, tuple[exp.Expression, T.CxlType]] = {
        "_cxl_dlq_id": (S.fn("uuid"), T.STRING),
        "_cxl_dlq_timestamp": (S.fn("date_format", S.fn("current_timestamp"),
                                    S.string("yyyy-MM-dd'T'HH:mm:ss'Z'")), T.STRING),
        "_cxl_dlq_source_row": (S.case([(S.eq(S.col(ORDER), S.bigint(-1)), S.bigint(0))],
                                        S.col("_cxl_dlq_source_row")), T.INT),
        "_cxl_dlq_trigger": (S.col("_cxl_dlq_trigger"), T.BOOL),
    }
    columns = [(name, *computed.get(name, (S.col(name), T.STRING))) for name in fields]
    plain = frozenset({"_cxl_dlq_id", "_cxl_dlq_timestamp"})
    entry = [(csv_line(columns, _DELIMITER, plain=plain), FIELDS)]
    entry += [(csv_cell(S.col(c), _DELIMITER), c) for c in record]
    entry += [(S.boolean(False), HEADER), (S.col(LAYOUT), LAYOUT), (S.col(ORDER), ORDER),
              (S.col("_cxl_dlq_source_row"), "_cxl_dlq_source_row")]
    names = [(S.string(_DELIMITER.join(_header_cell(f) for f in fields)), FIELDS)]
    names += [(S.string(_header_cell(c)), c) for c in record]
    names += [(S.boolean(True), HEADER)] + [(S.null(), c) for c in (
        LAYOUT, ORDER, "_cxl_dlq_source_row")]

    def line(cells: list[str]) -> exp.Expression:
        return S.fn("concat_ws", S.string(_DELIMITER), S.col(FIELDS),
                    *[S.col(c) for c in cells])

    mixed = [list(layout) for layout in all_layouts] if len(all_layouts) > 1 else []
    if mixed and record:
        value = exp.Case(ifs=[exp.If(this=S.eq(S.col(FILE_LAYOUT), S.bigint(i)),
                                     true=line(layout)) for i, layout in enumerate(mixed)],
                         default=line(record))
    else:  # one layout, or no record columns: every line has the same cells
        value = line(record)
    lowest, highest = (exp.Window(this=agg(this=S.col(LAYOUT))) for agg in (exp.Min, exp.Max))
    file_layout = exp.Case(ifs=[exp.If(this=exp.EQ(this=lowest, expression=highest),
                                       true=lowest.copy())])
    entries = ident(DLQ_VIEW) if where is None else sql(exp.Subquery(
        this=exp.select(exp.Star()).from_(S.table(DLQ_VIEW)).where(where),
        alias=exp.TableAlias(this=S.ident("entries"))))
    body = render("dlq_write.sql.j2", line=sql(value), header=select_list(names),
                  entry=select_list(entry), input=entries,
                  file_layout=sql(file_layout) if mixed and record else None,
                  file_layout_name=ident(FILE_LAYOUT),
                  order_by=Sql(", ".join([f"{ident(HEADER)} DESC", ident(ORDER),
                                          ident("_cxl_dlq_source_row")])))
    shape = ("columns as the entries' layouts say (all one layout: its schema order, else "
             "the sorted union), decided by a window in the one partition the lines are "
             "sorted in: no extra job" if mixed and record else "one record layout")
    whose = "" if where is None else (
        f" (the entries of source {which.dlq_only[0]})" if which.dlq_only else
        f" (the entries of the sources other than {', '.join(which.dlq_except)})")
    ctx.add(Statement("write", None, name, body,
                      header=f"DLQ: write {path}{whose} with its header line; {shape} "
                             "(sorted in one partition, chosen for speed)",
                      step=replace(which, path=path, staging=staging_path(path),
                                   format="csv", include_header=False,
                                   delimiter=_DELIMITER, json_format="", dlq=True)))


def _header_cell(name: str) -> str:
    """A column name as a header cell, quoted as the CSV writer quotes a value."""
    if any(ch in name for ch in (_DELIMITER, '"', "\r", "\n")):
        return '"' + name.replace('"', '""') + '"'
    return name


def compile_report(ctx: Context, sources: list[str], entries: tuple[str, ...]) -> None:
    """One query with the counts the run needs before the DLQ's writes: the rows each
    source read (`<source>.total`: from its offsets, or counted during the writes) and
    where the DLQ entries come from (in the DLQ as a trigger or a collateral). What the
    sinks wrote is counted by the `written` statement, or observed on the writes
    (codegen/written.py).

    `entries`: the views without a row of which the DLQ has none (its triggers, and a
    correlated pipeline's oversized groups). When the runner knows them all empty and has
    counted every source's rows, it knows the whole summary: it runs no query (a job over
    an empty DLQ still costs ~0.1-0.2 s).

    Chosen for speed: the DLQ is read once and grouped per source row, then counted (a
    scalar subquery per count read it once per count)."""
    def total(expr: exp.Expression) -> exp.Expression:
        return S.fn("coalesce", exp.Sum(this=expr), S.bigint(0))

    def of(src: str, name: str) -> exp.Expression:
        return S.eq(S.col(name), S.string(src))

    # the DLQ, one row per (source, source row, real row): entries, any trigger
    real = real_row()
    per_row = exp.select(
        S.col("_cxl_dlq_source_name").as_(S.ident("n")),
        S.col("_cxl_dlq_source_row").as_(S.ident("r")),
        real.as_(S.ident("real")),
        exp.Count(this=exp.Star()).as_(S.ident("c")),
        exp.Max(this=S.cast(S.col("_cxl_dlq_trigger"), "INT")).as_(S.ident("t")),
    ).from_(S.table(DLQ_VIEW)).group_by(S.col("_cxl_dlq_source_name"),
                                      S.col("_cxl_dlq_source_row"), real)
    listed = S.and_(S.col("real"), S.not_null(S.col("r")))
    dlq_items: list[tuple[exp.Expression, str]] = []
    for src in sources:
        mine = of(src, "n")
        dlq_items += [
            (total(S.case([(mine, S.col("c"))], S.bigint(0))), f"dlq:{src}"),
            (S.fn("count_if", S.and_(mine, listed)), f"dlq_rows:{src}"),
            (S.fn("count_if", S.and_(mine, listed, S.eq(S.col("t"), S.small_int(1)))),
             f"dlq_triggers:{src}")]
    dlq_items.append((total(S.col("c")), "dlq"))
    dlq_summary = exp.select(*[e.as_(S.ident(n)) for e, n in dlq_items]).from_(
        exp.Subquery(this=per_row, alias=exp.TableAlias(this=S.ident("per_row"))))

    items: list[tuple[exp.Expression, str]] = []
    for src in sources:
        q = exp.select(S.col(SPLIT_ROWS)).from_(S.table(ctx.view(src, "total")))
        items.append((exp.Subquery(this=q), f"total:{src}"))
    items += [(S.col(n), n) for _, n in dlq_items]
    counts = exp.Subquery(this=dlq_summary, alias=exp.TableAlias(this=S.ident("d")))
    known = ReportStep(empty_report={
        "unless": list(entries),
        "totals": {f"total:{src}": ctx.view(src, "total") for src in sources},
        "zeros": {n: 0 for _, n in dlq_items}})
    ctx.add(Statement("report", None, "report", render(
        "report.sql.j2", select_list=select_list(items), counts=sql(counts)),
                      header="run summary counts (chosen for speed: with no row in "
                      f"{', '.join(entries)} and every source's rows counted while read, "
                      "the runner knows them without this query)", step=known))
