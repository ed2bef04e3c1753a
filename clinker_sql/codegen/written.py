"""The run summary's written counts: the records each sink wrote (`written:<sink>`), the
distinct records that reached any sink (`ok`) and the rows of each source written as
themselves (`written_rows:<source>`).

Two ways to the same numbers. The `written` statement reads every sink's records again and
groups them per row identity (`$source.name`, `$source.row`, `$source.order`), so that a
record fanned out by `emit each`, or reaching two sinks, counts once: one more pass over
everything the sinks write. When no two records the sinks receive can share a row identity
(`distinct_records`), the same numbers are plain counts over each sink's records, and an
executor that can observe a statement (the local SparkSession, `Dataset.observe`) takes
them from the writes themselves, with no pass of their own. A Thrift server, or a pipeline
whose records may repeat an identity, runs the statement.
"""

from __future__ import annotations

from dataclasses import replace

from sqlglot import exp

from clinker_sql import sqlbuild as S
from clinker_sql.codegen.context import Context
from clinker_sql.codegen.dlq_shape import ORDER, real_row
from clinker_sql.codegen.plan import SOURCE_NAME, SOURCE_ROW, Statement
from clinker_sql.codegen.run_plan import Observe, WriteStep
from clinker_sql.codegen.templates import render, select_list, sql
from clinker_sql.config import model as m
from clinker_sql.config.checks import resolve_port

# (row-identity namespace, the branches of exclusive routes the records took)
Origin = tuple[str, frozenset[tuple[str, str]]]
# every aggregate names its rows `$merged` and numbers them from 1: two aggregates'
# rows share identities
AGGREGATED = "$merged"
# merges of route branches multiply the origins; past this many, give up (count by query)
MAX_ORIGINS = 64


def compile_written(ctx: Context, sources: list[str]) -> None:
    """The `written` statement, and on each sink's write the counts to observe instead."""
    sinks = ctx.compiled.sinks
    distinct = distinct_records(ctx)
    real = real_row()

    def of(src: str) -> exp.Expression:
        return S.eq(S.col(SOURCE_NAME), S.string(src))

    parts = [exp.select(S.bigint(i).as_(S.ident("sink")), S.col(SOURCE_NAME),
                        S.col(SOURCE_ROW), S.col(ORDER)).from_(S.table(sink.rows_view))
             for i, sink in enumerate(sinks)]
    items: list[tuple[exp.Expression, str]] = []
    if parts:
        reached = parts[0]
        for part in parts[1:]:
            reached = exp.union(reached, part, distinct=False)
        per_record = exp.select(
            S.col(SOURCE_NAME), S.col(ORDER),
            *[exp.Sum(this=S.case([(S.eq(S.col("sink"), S.bigint(i)), S.bigint(1))],
                                  S.bigint(0))).as_(S.ident(f"w{i}"))
              for i in range(len(parts))],
        ).from_(exp.Subquery(this=reached, alias=exp.TableAlias(this=S.ident("reached")))
                ).group_by(S.col(SOURCE_NAME), S.col(SOURCE_ROW), S.col(ORDER))
        items += [(S.fn("coalesce", exp.Sum(this=S.col(f"w{i}")), S.bigint(0)),
                   f"written:{sink.name}") for i, sink in enumerate(sinks)]
        items.append((exp.Count(this=exp.Star()), "ok"))
        items += [(S.fn("count_if", S.and_(of(src), real)), f"written_rows:{src}")
                  for src in sources]
        body = render("report_written.sql.j2", select_list=select_list(items),
                      per_record=sql(per_record))
    else:
        items = [(S.bigint(0), "ok")] + [(S.bigint(0), f"written_rows:{s}") for s in sources]
        body = render("report_written.sql.j2", select_list=select_list(items), per_record=None)
    ctx.add(Statement("written", None, "report.written", body,
                      header="run summary: what the sinks wrote" + (
                          " (each sink's records have distinct row identities: a local run "
                          "counts them as they are written and skips this query)"
                          if distinct else "")))
    if not distinct:
        return
    at = {s.name: i for i, s in enumerate(ctx.compiled.statements)
          if isinstance(s.step, WriteStep) and not s.step.dlq}
    for sink in sinks:
        # a split write reads the sink's records with the failing rows (split_write.py)
        when = S.col(sink.observe_when) if sink.observe_when else None
        counts = [(S.fn("count_if", when) if when else exp.Count(this=exp.Star()),
                   f"written:{sink.name}")]
        counts += [(S.fn("count_if", S.and_(when, of(src), real)), f"written_rows:{src}")
                   for src in sources]
        write = ctx.compiled.statements[at[sink.name]]
        ctx.compiled.statements[at[sink.name]] = replace(write, step=replace(
            write.step, observe=Observe(sink.observe_view or sink.rows_view,
                                        {name: S.to_sql(e) for e, name in counts})))


def distinct_records(ctx: Context) -> bool:
    """Whether no two records the sinks receive share a row identity: within each sink
    (no `emit each` upstream, no merge of overlapping streams, no combine `match: all`) and
    across sinks (different sources, or different branches of one exclusive route)."""
    by_name = {n.name: n for n in ctx.pipeline.nodes}
    memo: dict[tuple[str, str | None], frozenset[Origin] | None] = {}
    streams = []
    for node in ctx.pipeline.nodes:
        if isinstance(node, m.SinkNode):
            origins = _origins(ctx, node, node.input, by_name, memo)
            if origins is None:
                return False
            streams.append(origins)
    return all(_disjoint(a, b) for i, a in enumerate(streams) for b in streams[i + 1:])


def _origins(ctx: Context, consumer: m.Node, ref: m.Ref, by_name: dict[str, m.Node],
             memo: dict) -> frozenset[Origin] | None:
    """Where the records on `ref` come from, or None when two of them may share a row
    identity."""
    producer = by_name[ref.node]
    port = resolve_port(consumer, ref, producer)
    key = (producer.name, port)
    if key in memo:
        return memo[key]
    relation = ctx.relations.get(key)
    out: frozenset[Origin] | None
    if relation is None or relation.fan:
        out = None
    elif isinstance(producer, m.SourceNode):
        out = frozenset({(producer.name, frozenset())})
    elif isinstance(producer, m.AggregateNode):
        out = frozenset({(AGGREGATED, frozenset())})
    else:
        inputs = [_origins(ctx, producer, r, by_name, memo) for r in producer.inputs]
        if any(i is None for i in inputs) or not all(
                _disjoint(a, b) for n, a in enumerate(inputs) for b in inputs[n + 1:]):
            out = None  # a merge or combine of streams that may overlap
        else:
            out = frozenset().union(*inputs)  # type: ignore[arg-type]
            if isinstance(producer, m.RouteNode) and producer.mode == "exclusive":
                out = frozenset((name, taken | {(producer.name, port)}) for name, taken in out)
            if len(out) > MAX_ORIGINS:
                out = None
    memo[key] = out
    return out


def _disjoint(a: frozenset[Origin], b: frozenset[Origin]) -> bool:
    return all(_apart(x, y) for x in a for y in b)


def _apart(x: Origin, y: Origin) -> bool:
    if x[0] != y[0]:
        return True
    routes = dict(x[1])
    return any(route in routes and routes[route] != branch for route, branch in y[1])
