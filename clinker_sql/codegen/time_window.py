"""A time-windowed aggregate's input: each record's windows, and its late records.

Clinker (clinker-exec executor/aggregate_dispatch.rs, `run_time_windowed_aggregate`, and
executor/time_window.rs) walks the aggregate's input in arrival order. A record's event
time is its source's `watermark.column` in microseconds (nanoseconds there), shifted
earlier by `watermark.delay`; a record without one (null, or outside the nanosecond range)
is skipped: it is in no window and not in the DLQ. The watermark a record meets is the
largest event time of the records before it. A window `[start, end)` is closed when
`watermark >= end + allowed_lateness`; a record whose windows are all closed is late: it
goes to the DLQ (`late_record`, stage `time_window:<node>`) and is in no window. A late
record never raises the watermark (its event time is below it), so the watermark is a
running maximum over the records before it, in arrival order.

- tumbling: the window `[t - t mod size, ... + size)`;
- hopping: every window whose start is a multiple of `slide` in `(t - size, t]` (none
  when `slide > size` leaves a gap: the record is skipped and raises no watermark); a
  record goes to its windows still open, and is late when none is; its DLQ entry names
  the first window;
- session: per group key, the records sorted by event time (then arrival) form a new
  session when they follow the previous one by more than `gap`; a session is
  `[first, last + gap)`, over all of its records, late ones included.

The aggregate then groups by `group_by` plus the window's start (`$window.start`), and
emits its rows in window order (codegen/aggregate.py).

Over the inputs of a merge (each from a source of its own), the records arrive input after
input (Clinker's merge concatenates them in declaration order) and the watermark is the
least of the running maxima of the sources seen so far (`_watermark_over_inputs`).

Out of reach, refused (CS001): a path from the sources through anything but transforms,
routes and one merge, a merge reading one source twice, a transform on the path that
writes a watermark column or fans records out, and correlation keys; under
`fail_fast`, a late record refuses the run when it is found (Clinker writes it to the
DLQ and goes on, which a fail_fast run here cannot).
"""

from __future__ import annotations

from dataclasses import replace

from sqlglot import exp

from clinker_sql import sqlbuild as S
from clinker_sql.codegen.context import Context
from clinker_sql.codegen.dlq_shape import dlq_select
from clinker_sql.codegen.materialize import counted_in
from clinker_sql.codegen.names import (
    BLOCK,
    BLOCK_BEFORE,
    BLOCK_MAX,
    BLOCK_OPEN,
    CLOSE,
    EVENT_TIME,
    LATE,
    SESSION_NEW,
    SESSION_NUMBER,
    WATERMARK,
    WINDOW_END,
    WINDOW_LAST,
    WINDOW_START,
)
from clinker_sql.codegen.plan import (
    NODE_LAYER,
    SOURCE_FILE,
    SOURCE_NAME,
    SOURCE_ORDER,
    SOURCE_ROW,
    ErrorView,
    Relation,
    Statement,
)
from clinker_sql.codegen.run_plan import CheckStep
from clinker_sql.codegen.templates import ident, render, select_list, sql
from clinker_sql.config import model as m
from clinker_sql.cxl import ast as a
from clinker_sql.cxl.parser import parse_program
from clinker_sql.cxl.text import to_cell
from clinker_sql.diagnostics import fail

# the event times Clinker can hold: nanoseconds in an i64 (`timestamp_nanos_opt`)
_MAX_MICROS = (2 ** 63 - 1) // 1000
_DAY_MICROS = 86_400_000_000

WINDOW_KEYS = (WINDOW_START,)  # what the aggregate groups by besides `group_by`


def window_input(ctx: Context, node: m.AggregateNode, upstream: Relation) -> Relation:
    """The aggregate's input rows, one per record and open window, with `$window.start`;
    the late records become DLQ entries. The relation's columns are the input's."""
    window = node.time_window
    assert window is not None
    sources = _sources(ctx, node, upstream)
    times = []
    for source in sources:
        column = source.config.watermark[1]  # type: ignore[index]
        kind = dict(upstream.columns).get(column)
        if kind is None or kind.kind not in ("date", "datetime"):
            raise fail("CS001", f"aggregate '{node.name}': the watermark column '{column}' of "
                       f"source '{source.name}' no longer holds its event time at the "
                       "aggregate's input; a time window reading it there is not supported "
                       "yet", window.loc)
        times.append(_event_time(S.col(column), kind.kind, source.config.watermark_delay_us))
    t = S.col(EVENT_TIME)
    first_layer = [(times[0], EVENT_TIME)]
    order = upstream.order_by()
    if len(sources) > 1:  # each record's own source's column; the merge's inputs in turn
        def by_source(values: list[exp.Expression]) -> exp.Expression:
            return S.case([(S.eq(S.col(SOURCE_NAME), S.string(src.name)), v)
                           for src, v in zip(sources, values)])
        first_layer = [(by_source(times), EVENT_TIME),
                       (by_source([S.small_int(i) for i in range(len(sources))]), BLOCK)]
        order = [S.col(BLOCK), S.col(SOURCE_ROW)]
    arrival = [exp.Ordered(this=c) for c in order]
    layers = [first_layer]
    where = exp.Between(this=t, low=S.bigint(-_MAX_MICROS), high=S.bigint(_MAX_MICROS))
    size = S.bigint(window.size_us)
    if window.kind == "tumbling":
        start = exp.Sub(this=t, expression=S.fn("pmod", t, size))
        layers.append([(start, WINDOW_START)])
        layers.append([(exp.Add(this=S.col(WINDOW_START), expression=size), WINDOW_END),
                       (S.col(WINDOW_START), WINDOW_LAST)])
    elif window.kind == "hopping":
        slide = S.bigint(window.slide_us)
        before = exp.Paren(this=exp.Sub(this=t, expression=size))
        first = exp.Add(this=exp.Sub(this=before, expression=S.fn("pmod", before, slide)),
                        expression=slide)
        layers.append([(first, WINDOW_START),
                       (exp.Sub(this=t, expression=S.fn("pmod", t, slide)), WINDOW_LAST)])
        layers.append([(exp.Add(this=S.col(WINDOW_START), expression=size), WINDOW_END)])
    else:  # session: the windows of the records of one group key
        keys = [S.col(g) for g in node.group_by]
        by_time = [exp.Ordered(this=t)] + arrival
        gap = size
        previous = exp.Window(this=exp.Lag(this=t), partition_by=keys,
                              order=exp.Order(expressions=by_time))
        follows = exp.LTE(this=exp.Sub(this=t, expression=previous), expression=gap)
        layers.append([(S.case([(follows, S.small_int(0))], S.small_int(1)), SESSION_NEW)])
        layers.append([(exp.Window(this=exp.Sum(this=S.col(SESSION_NEW)), partition_by=keys,
                                   order=exp.Order(expressions=[
                                       exp.Ordered(this=c) for c in (t, *order)]),
                                   spec=_unbounded(preceding_only=False)), SESSION_NUMBER)])
        session = keys + [S.col(SESSION_NUMBER)]
        layers.append([(exp.Window(this=exp.Min(this=t), partition_by=session), WINDOW_START),
                       (exp.Add(this=exp.Window(this=exp.Max(this=t), partition_by=session),
                                expression=gap), WINDOW_END)])
        layers.append([(S.col(WINDOW_START), WINDOW_LAST)])
    # the end of the record's last window: when it is closed, all are
    last_end = exp.Add(this=S.col(WINDOW_LAST), expression=size) \
        if window.kind != "session" else S.col(WINDOW_END)
    if window.kind == "hopping":  # a record in no window (a gap) is skipped
        where = S.and_(where, exp.LTE(this=S.col(WINDOW_START), expression=S.col(WINDOW_LAST)))
    if len(sources) == 1:
        watermark = exp.Window(this=exp.Max(this=t), order=exp.Order(expressions=arrival),
                               spec=_unbounded(preceding_only=True))
        closed = exp.GTE(this=S.col(WATERMARK), expression=_plus(last_end, window.lateness_us))
        after = [[(watermark, WATERMARK)], [(S.fn("coalesce", closed, S.boolean(False)), LATE)]]
    else:
        after = _watermark_over_inputs(len(sources), _plus(last_end, window.lateness_us))
    body = _layered(upstream.view, layers, where, after)
    events = ctx.view(node.name, "windows")
    ctx.add(Statement("view", node.name, events, render(
        "time_window_events.sql.j2", view=ident(events), body=sql(body)),
        header=f"aggregate {node.name}: {_describe(window)}; each record's event time, "
               "the watermark it meets (the largest event time before it"
               + ("; over a merge, the least of its sources'" if len(sources) > 1 else "")
               + ") and whether it is late", layer=NODE_LAYER))
    _late_records(ctx, node, upstream, events)

    columns = [S.col(n) for n, _ in upstream.all_columns]
    open_rows = S.not_(S.col(LATE))
    explode = None
    if window.kind == "hopping":
        hop = S.col(WINDOW_START, "hop")
        explode = sql(S.fn("sequence", S.col(WINDOW_START), S.col(WINDOW_LAST),
                           S.bigint(window.slide_us)))
        still_open = exp.LT(this=S.col(WATERMARK), expression=_plus(
            exp.Add(this=hop, expression=size), window.lateness_us))
        open_rows = S.and_(open_rows, S.or_(S.is_null(S.col(WATERMARK)), still_open))
        items = [(c, c.name) for c in columns] + [(hop, WINDOW_START)]
    else:
        items = [(c, c.name) for c in columns] + [(S.col(WINDOW_START), WINDOW_START)]
    windowed = ctx.view(node.name, "windowed")
    ctx.add(Statement("view", node.name, windowed, render(
        "time_window_rows.sql.j2", view=ident(windowed), events=ident(events),
        select_list=select_list(items), explode=explode, hop=ident("hop"),
        start=ident(WINDOW_START), where=sql(open_rows)),
        header=f"aggregate {node.name}: the records not late, one row per window "
               "still open", layer=NODE_LAYER))
    return replace(upstream, view=windowed, carried=())


def _watermark_over_inputs(n: int, close: exp.Expression
                           ) -> list[list[tuple[exp.Expression, str]]]:
    """The watermark over the records of n sources a merge concatenates (`$merge.input` is
    the input, `$source.row` the record's place in it): the least of the sources' running
    maxima, over the sources seen so far. While input k arrives, the inputs before it are
    done (their maxima `$merge.max.<i>` fixed) and those after it not started, so the
    watermark is the least of `$merge.before` (theirs) and the running maximum of input k.
    A late record does not raise its source's maximum: until input k's first record that
    is not late against `$merge.before` (`$merge.open`), input k has no maximum; after
    it, a late record is below the maximum already."""
    t, row, block = S.col(EVENT_TIME), S.col(SOURCE_ROW), S.col(BLOCK)

    def of_block(k: int, value: exp.Expression, cond: exp.Expression | None = None
                 ) -> exp.Expression:
        return S.case([(S.and_(S.eq(block, S.small_int(k)), cond), value)])

    def before(k: int) -> exp.Expression:
        maxima = [S.col(f"{BLOCK_MAX}{i}") for i in range(k)]
        return (S.cast(S.null(), "BIGINT") if not maxima else maxima[0] if len(maxima) == 1
                else S.fn("least", *maxima))

    def late(watermark: exp.Expression) -> exp.Expression:
        return S.fn("coalesce", exp.GTE(this=watermark, expression=S.col(CLOSE)),
                    S.boolean(False))

    layers: list[list[tuple[exp.Expression, str]]] = [[(close, CLOSE)]]
    for k in range(n):
        layers.append([(exp.Window(this=exp.Min(this=of_block(k, row, S.not_(late(before(k)))))),
                        f"{BLOCK_OPEN}.{k}")])
        if k < n - 1:
            layers.append([(exp.Window(this=exp.Max(this=of_block(k, t, exp.GTE(
                this=row, expression=S.col(f"{BLOCK_OPEN}.{k}"))))), f"{BLOCK_MAX}{k}")])
    layers.append([(S.case([(S.eq(block, S.small_int(k)), before(k)) for k in range(n)]),
                    BLOCK_BEFORE),
                   (S.case([(S.eq(block, S.small_int(k)), S.col(f"{BLOCK_OPEN}.{k}"))
                            for k in range(n)]), BLOCK_OPEN)])
    running = exp.Window(this=exp.Max(this=S.case([(exp.GTE(this=row, expression=S.col(
        BLOCK_OPEN)), t)])), partition_by=[block], order=exp.Order(expressions=[
            exp.Ordered(this=row)]), spec=_unbounded(preceding_only=True))
    layers.append([(S.fn("least", S.col(BLOCK_BEFORE), running), WATERMARK)])
    layers.append([(late(S.col(WATERMARK)), LATE)])
    return layers


def _plus(e: exp.Expression, micros: int) -> exp.Expression:
    return exp.Add(this=e, expression=S.bigint(micros)) if micros else e


def _describe(window: m.TimeWindow) -> str:
    def span(us: int) -> str:
        for unit, size in (("d", _DAY_MICROS), ("h", 3_600_000_000), ("m", 60_000_000),
                           ("s", 1_000_000), ("ms", 1000)):
            if us % size == 0:
                return f"{us // size}{unit}"
        return f"{us}us"
    what = {"tumbling": f"tumbling windows of {span(window.size_us)}",
            "hopping": f"hopping windows of {span(window.size_us)} every "
                       f"{span(window.slide_us)}",
            "session": f"session windows with a gap of {span(window.size_us)}"}[window.kind]
    return what + (f", allowed lateness {span(window.lateness_us)}" if window.lateness_us
                   else "")


def _unbounded(preceding_only: bool) -> exp.WindowSpec:
    """ROWS BETWEEN UNBOUNDED PRECEDING AND (1 PRECEDING | CURRENT ROW)."""
    if preceding_only:
        return exp.WindowSpec(kind="ROWS", start="UNBOUNDED", start_side="PRECEDING",
                              end=exp.Literal.number(1), end_side="PRECEDING")
    return exp.WindowSpec(kind="ROWS", start="UNBOUNDED", start_side="PRECEDING",
                          end="CURRENT ROW")


def _layered(view: str, layers: list[list[tuple[exp.Expression, str]]],
             where: exp.Expression, after: list[list[tuple[exp.Expression, str]]]
             ) -> exp.Select:
    """SELECT *, <layer n> FROM (... SELECT *, <layer 1> FROM view): each layer reads the
    columns of the ones before it; `where` keeps the records in a window, before the
    layers `after`."""
    def over(query: exp.Expression, layer: list[tuple[exp.Expression, str]]) -> exp.Select:
        return exp.select(exp.Star(), *[exp.alias_(e, S.ident(n)) for e, n in layer]) \
            .from_(query)

    query = exp.Table(this=S.ident(view))
    for i, layer in enumerate(layers + after):
        query = over(query if i == 0 else query.subquery(f"w{i}"), layer)
        if i == len(layers):  # a WHERE applies before the window functions of its SELECT
            query = query.where(where)
    return query


def _event_time(value: exp.Expression, kind: str, delay_us: int) -> exp.Expression:
    """Microseconds since the epoch, UTC (a date at midnight), shifted by the delay."""
    if kind == "date":
        micros = exp.Mul(this=S.cast(S.fn("unix_date", value), "BIGINT"),
                         expression=S.bigint(_DAY_MICROS))
    else:
        micros = S.fn("unix_micros", S.cast(value, "TIMESTAMP"))
    return exp.Sub(this=micros, expression=S.bigint(delay_us)) if delay_us else micros


def _late_records(ctx: Context, node: m.AggregateNode, upstream: Relation, events: str
                  ) -> None:
    """Clinker's `push_late_record`: the window's bounds in nanoseconds in the detail.
    Under `fail_fast` Clinker still writes a late record to the DLQ and goes on, which a
    fail_fast run here cannot: a late record refuses the run (CS001) instead."""
    if ctx.pipeline.error_handling.strategy == "fail_fast":
        detail = S.fn("concat", S.string(f"aggregate '{node.name}': a record of source '"),
                      S.col(SOURCE_NAME), S.string("' arrives after every window it falls in "
                                                   "closed; a late record under `strategy: "
                                                   "fail_fast` is not supported yet (Clinker "
                                                   "writes it to the DLQ and goes on)"))
        check = exp.select(exp.alias_(detail, "detail")).from_(
            exp.Table(this=S.ident(events))).where(S.col(LATE)).order_by(
            *upstream.order_by()).limit(1)
        ctx.add(Statement("check", node.name, ctx.view(node.name, "late"), S.to_sql(check),
                          header=f"aggregate {node.name}: under fail_fast, a late record "
                                 "refuses the run", step=CheckStep(code="CS001")))
        return
    def nanos(c: str) -> exp.Expression:
        return S.cast(exp.Mul(this=S.cast(S.col(c), "DECIMAL(38,0)"),
                              expression=exp.Literal.number(1000)), "STRING")
    detail = S.fn("concat", S.string(f"time-window {node.name}: record at event-time inside "
                                     "window ["), nanos(WINDOW_START), S.string(", "),
                  nanos(WINDOW_END), S.string(") (nanos) which had already closed"))
    entry = dlq_select(
        source_name=S.col(SOURCE_NAME), source_file=S.col(SOURCE_FILE),
        source_row=S.col(SOURCE_ROW), order=S.col(SOURCE_ORDER),
        field=S.cast(S.null(), "STRING"), value=S.cast(S.null(), "STRING"),
        category=S.string("late_record"), detail=detail,
        stage=S.string(f"time_window:{node.name}"), trigger=True,
        payload={n: to_cell(S.col(n), t) for n, t in upstream.columns + upstream.ck})
    view = ctx.view(node.name, "late")
    ctx.add(Statement("view", node.name, view, render(
        "node_errors.sql.j2", view=ident(view), input=ident(events),
        select_list=select_list(entry), condition=ident(LATE)),
        header=f"aggregate {node.name}: late records (every window they fall in had closed)",
        step=counted_in(events, ident(LATE))))
    ctx.error_views.append(ErrorView(view, node.name, tuple(
        n for n, _ in upstream.columns + upstream.ck), 3, "CS002"))


def _sources(ctx: Context, node: m.AggregateNode, upstream: Relation) -> list[m.SourceNode]:
    """The sources the aggregate's rows come from, through transforms and routes that
    leave the watermark columns as they were read: one, or the inputs of one merge, each
    from a source of its own, in the merge's order (Clinker concatenates them)."""
    window = node.time_window
    assert window is not None
    if upstream.ck:
        raise fail("CS001", f"aggregate '{node.name}': a time window over rows with "
                   "correlation keys is not supported yet", window.loc)
    by_name = {n.name: n for n in ctx.pipeline.nodes}
    transforms: list[m.TransformNode] = []

    def walk(current: m.Node, merged: bool) -> m.Node:
        while isinstance(current, (m.TransformNode, m.RouteNode)):
            if isinstance(current, m.TransformNode):
                transforms.append(current)
            current = by_name[current.inputs[0].node]
        if isinstance(current, m.SourceNode) or (isinstance(current, m.MergeNode)
                                                 and not merged):
            return current
        raise fail("CS001", f"aggregate '{node.name}': a time window over rows that come "
                   f"through {current.kind} '{current.name}' is not supported yet (only "
                   "through transforms, routes and one merge of sources)", window.loc)

    top = walk(by_name[node.input.node], merged=False)
    found = [walk(by_name[r.node], merged=True) for r in top.inputs] \
        if isinstance(top, m.MergeNode) else [top]
    sources = [n for n in found if isinstance(n, m.SourceNode)]
    if len({n.name for n in sources}) < len(sources):
        raise fail("CS001", f"aggregate '{node.name}': a time window over a merge that reads "
                   "one source through two of its inputs is not supported yet", window.loc)
    columns = {n.config.watermark[1] for n in sources if n.config.watermark}
    for transform in transforms:
        for stmt in parse_program(transform.cxl.text).statements:
            if isinstance(stmt, a.EmitEach) or (isinstance(stmt, a.Emit) and stmt.scope is None
                                                and stmt.name in columns):
                raise fail("CS001", f"aggregate '{node.name}': a time window after transform "
                           f"'{transform.name}', which writes a watermark column or fans "
                           "records out, is not supported yet", window.loc)
    return sources
