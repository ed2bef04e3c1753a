"""Row-wise chain fusion: consecutive plain transforms share one evaluation (a compiler pass
inside `compile_transform`).

Compiled one by one, a chain `t1 -> t2 -> t3` has one error view per node, and each reads
its node's evaluation: the DLQ then evaluates the chain once per node (t3's errors
evaluate t1, t2 and t3 again), the sink once more and the report once more. Spark shares
no work between the branches of a `UNION ALL`, so the cost grows with the square of the
chain's length.

Fused, a transform whose only consumer is another plain transform hands on a *carry*
view instead of its good rows: every row, with `$live` (still good: evaluated cleanly and
kept by every filter so far) and its DLQ entry as one struct column `$dlq` (NULL unless the
row failed in the chain). The next transform evaluates over the carry; its `$err` (and every
value it computes) is gated by `$live`, so a row that failed or was filtered upstream raises
nothing new, exactly as if it had been removed. A row therefore fails at one node at most,
and one column holds the entry of whichever node it failed at: the DLQ fields, the node
(`$node`) and the failing record as a map of its columns' text (`$payload`; each node's
record has columns of its own, a map gives every node's entry the same type). One column,
however long the chain: a column per node made a 200-node chain's carry 200 structs wide,
and Spark took minutes to plan and copy it. The last transform of the chain writes the rows
that failed anywhere in it once (a checkpoint: one evaluation, few rows), and the error view
of every node of the chain is a filter of that copy. The good rows are read from the carry
itself: writing every row would cost more than evaluating the chain again (measured:
transform_chain, 1M rows). When a text sink writes the chain's good rows, its write takes
the failing rows along instead, and the copy is read from what it split off
(codegen/split_write.py).

A source whose only consumer is a plain transform starts the chain: its carry holds the
typed rows, `$live` (every value cast) and its type-error entry, so the source's DLQ
entries come from the chain's one copy of failing rows too, not from a pass of their own.

Plain: no `distinct`, no `emit each` (they need the filtered rows). An analytic window
fuses too: it partitions by `$live` as well, and reads only the carry's live and failed
rows (no filtered row goes through its shuffle), so a good row's partition holds exactly
the good rows it would have read; not in a retraction pipeline. In
a retraction pipeline only the nodes computed once, before the passes, fuse: the passes
replay the views after an aggregate or a window (codegen/retraction.py); before them, the
forward pass's DLQ triggers come from one copy of failing rows (retraction, 1M rows:
7.65 -> 7.31 s).
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlglot import exp

from clinker_sql import sqlbuild as S
from clinker_sql.codegen import node_view
from clinker_sql.codegen.context import Context
from clinker_sql.codegen.cxl_errors import ERR, KEEP
from clinker_sql.codegen.dlq_shape import DLQ_COLUMNS, ORDER
from clinker_sql.codegen.materialize import checkpoint, filters
from clinker_sql.codegen.names import DLQ, LIVE, NODE, PAYLOAD, RAW
from clinker_sql.codegen.plan import NODE_LAYER, Statement
from clinker_sql.codegen.retraction import needs_retraction
from clinker_sql.codegen.templates import Sql, ident, render, select_list, sql
from clinker_sql.config import model as m
from clinker_sql.config.checks import upstream
from clinker_sql.cxl import ast as a
from clinker_sql.cxl.errors import CxlError
from clinker_sql.cxl.parser import parse_program

ENTRY_FIELDS = frozenset(DLQ_COLUMNS + (ORDER,))
# the type of `$dlq` (`_entry`: dlq_shape.dlq_select's fields, the node, the payload)
DLQ_TYPE = "STRUCT<" + ", ".join(
    f"{S.to_sql(S.ident(n))}: {t}" for n, t in [
        *[(c, "STRING") for c in DLQ_COLUMNS[:2]], (DLQ_COLUMNS[2], "BIGINT"),
        *[(c, "STRING") for c in DLQ_COLUMNS[3:9]], (DLQ_COLUMNS[9], "BOOLEAN"),
        (ORDER, "BIGINT"), (NODE, "STRING"), (PAYLOAD, "MAP<STRING, STRING>")]) + ">"


@dataclass(frozen=True)
class CarriedErrors:
    """A fused node's DLQ entries, carried in the chain's `$dlq` column until it ends."""

    view: str  # the node's error view, defined over the chain's failing rows (end_chain)
    fields: tuple[str, ...]  # the entry's columns (dlq_shape.dlq_select), in order
    node: str


def fuses_into_consumer(ctx: Context, node: m.TransformNode) -> bool:
    """Whether this transform hands a carry view to its only consumer."""
    return fusable(ctx, node) and _feeds_one_fusable_transform(ctx, node.name)


def source_fuses(ctx: Context, node: m.SourceNode) -> bool:
    """Whether a source hands a carry to its only consumer, a fusable transform: its rows are
    typed in the chain's evaluation, and its type errors come from the chain's one copy of
    failing rows (no pass of their own over the source)."""
    return _feeds_one_fusable_transform(ctx, node.name)


def _feeds_one_fusable_transform(ctx: Context, name: str) -> bool:
    if needs_retraction(ctx.pipeline) and not _before_passes(ctx, name):
        return False
    consumers = [n for n in ctx.pipeline.nodes for ref in n.inputs if ref.node == name]
    return len(consumers) == 1 and isinstance(consumers[0], m.TransformNode) and \
        fusable(ctx, consumers[0])


def fusable(ctx: Context, node: m.TransformNode) -> bool:
    """Whether a transform can evaluate over a carry: no `distinct` and no `emit each`
    (they need the filtered rows). An analytic window's partitions then split by `$live`
    too (the good rows' partitions hold exactly the rows its good-rows input would),
    except in a retraction pipeline (its windows run in buffer mode over the passes'
    rows)."""
    if node.analytic_window is not None and needs_retraction(ctx.pipeline):
        return False
    return not _has(node, a.Distinct) and not _has(node, a.EmitEach)


def _before_passes(ctx: Context, name: str) -> bool:
    """In a retraction pipeline: whether the node is computed once, before the passes (no
    aggregate or analytic window reads into it; the passes replay those and what follows)."""
    return not any(isinstance(n, m.AggregateNode) or
                   (isinstance(n, m.TransformNode) and n.analytic_window is not None)
                   for n in upstream(ctx.pipeline.nodes, [name]))


def row_wise(node: m.TransformNode) -> bool:
    """No analytic window and no `distinct`: each row is computed from itself alone."""
    return node.analytic_window is None and not _has(node, a.Distinct)


def _has(node: m.TransformNode, kind: type) -> bool:
    try:
        program = parse_program(node.cxl.text)
    except CxlError:
        return True  # reported where the node itself is compiled
    return any(isinstance(s, kind) for s in program.statements)


def gate(items: list[tuple[exp.Expression, str]], computed: set[str]
         ) -> list[tuple[exp.Expression, str]]:
    """Evaluation items over a carry: what the node computes is NULL for a row that is no
    longer live, so it can neither fail nor raise."""
    live = S.col(LIVE)
    return [(S.case([(live.copy(), e)]) if n in computed else e, n) for e, n in items]


def carry_view(ctx: Context, node: str, source: str, ok_items, entry, carried_in,
               ) -> tuple[str, tuple[CarriedErrors, ...]]:
    """`<node>.carry`: the good-row columns, `$live` and every DLQ struct of the chain."""
    view = ctx.view(node, "carry")
    own, struct = _entry(ctx, node, entry)
    live = S.and_(S.col(LIVE) if carried_in else None, S.is_null(S.col(ERR)), S.col(KEEP))
    items = list(ok_items) + [(live, LIVE)]
    # a row failed upstream is not live here: its `$err` is NULL and its entry stays
    items.append((S.case([(S.not_null(S.col(ERR)), struct)],
                         S.col(DLQ) if carried_in else None), DLQ))
    ctx.add(Statement("view", node, view, render(
        "transform_carry.sql.j2", view=ident(view), eval=ident(source),
        select_list=select_list(items)),
        header=f"transform {node}: every row, still live or not, with its DLQ entry "
               "(a fused chain, codegen/fusion.py)"))
    return view, tuple(carried_in) + (own,)


def source_carry(ctx: Context, node: str, rows: str, items, bad: exp.Expression, entry
                 ) -> tuple[str, tuple[CarriedErrors, ...]]:
    """`<source>.typed`, the node's view: its typed columns (and the text read, `$raw`, for
    the machinery); then `<source>.carry` over it: `$live` (every value cast) and the
    type-error entry as a struct; the first view of a fused chain."""
    typed, view = ctx.view(node, "typed"), ctx.view(node, "carry")
    own, struct = _entry(ctx, node, entry)
    machinery = [(S.not_(bad), LIVE), (S.case([(bad, struct)]), DLQ)]
    node_items = list(items) + [(exp.Struct(expressions=[exp.Star()]), RAW)]
    own_items, rest, source = node_view.split([], node_items, machinery, rows, None)
    ctx.add(Statement("view", node, typed, render(
        "source_typed_columns.sql.j2", view=ident(typed), input=sql(source),
        select_list=Sql(",\n  ".join(S.to_sql(e) for e in own_items))),
        header=f"source {node}: every row typed", layer=NODE_LAYER))
    passed = [(S.col(n), n) for _, n in items]
    ctx.add(Statement("view", node, view, render(
        "transform_carry.sql.j2", view=ident(view), eval=ident(typed),
        select_list=Sql(f"{select_list(passed)},\n  {node_view.read_from(rest, RAW)}")),
        header=f"source {node}: every row, good or not, with its type-error entry "
               "(the first view of a fused chain, codegen/fusion.py)"))
    return view, (own,)


def _entry(ctx: Context, node: str, entry) -> tuple[CarriedErrors, exp.Struct]:
    """A node's DLQ entry as the carried struct: the entry's own fields, the node, and the
    record's columns (`dlq_shape.dlq_select`'s payload, already text) as a map."""
    own = CarriedErrors(ctx.view(node, "errors"), tuple(n for _, n in entry), node)
    fields = [exp.alias_(e, S.ident(n)) for e, n in entry if n in ENTRY_FIELDS]
    pairs = [part for e, n in entry if n not in ENTRY_FIELDS for part in (S.string(n), e)]
    payload = S.cast(S.fn("map", *pairs), "MAP<STRING, STRING>")
    fields += [exp.alias_(S.string(node), S.ident(NODE)), exp.alias_(payload, S.ident(PAYLOAD))]
    return own, exp.Struct(expressions=fields)


def end_chain(ctx: Context, node: str, carry: str, ok_items,
              carried: tuple[CarriedErrors, ...]) -> str:
    """The last node of a fused chain: its good rows, and the error view of every node of
    the chain read from one materialized copy of the failing rows."""
    names = " -> ".join(c.node for c in carried)
    failed = ctx.view(node, "failed")
    failing = sql(S.not_null(S.col(DLQ)))  # its rows, and what a copy of the carry counts
    ctx.add(Statement("view", node, failed, render(
        "carry_filter.sql.j2", view=ident(failed), carry=ident(carry),
        select_list=select_list([(S.col(DLQ), DLQ)]), condition=failing),
        header=f"transform {node}: the rows of the fused chain {names} that failed",
        step=filters(carry, failing)))
    ctx.add(checkpoint(failed, node, f"the fused chain {names} is evaluated once for the "
                       "errors of all its nodes, and only the failing rows are written", failures=True))
    ok_view = ctx.view(node)
    ctx.chain_ends[ok_view] = (carry, failed)
    ok_items = [(S.col(n), n) for _, n in ok_items]  # named as good-row columns in the carry
    ctx.add(Statement("view", node, ok_view, render(
        "carry_filter.sql.j2", view=ident(ok_view), carry=ident(carry),
        select_list=select_list(ok_items), condition=Sql(ident(LIVE))),
        header=f"transform {node}: good rows"))
    for c in carried:
        ctx.fused_errors[c.view] = (failed, c.node)
        entry = [(_field(f) if f in ENTRY_FIELDS else
                  exp.Bracket(this=_field(PAYLOAD), expressions=[S.string(f)]), f)
                 for f in c.fields]
        ctx.add(Statement("view", c.node, c.view, render(
            "carry_filter.sql.j2", view=ident(c.view), carry=ident(failed),
            select_list=select_list(entry), condition=sql(S.eq(_field(NODE),
                                                               S.string(c.node)))),
            header=f"transform {c.node}: rows whose evaluation failed (read from {failed}, "
                   "the fused chain's failing rows)"))
    return ok_view


def chain_entries(failed: str, members: list[tuple[str, int]], payload: list[str]
                  ) -> list[tuple[exp.Expression, str]]:
    """One DLQ union branch for every node of a fused chain (dlq.py): the entries read from
    the chain's failing rows, each node's layout index from `$node`, the record's columns
    from the map (a column the node's record lacks is NULL), instead of one branch per node
    (a 200-node chain's union took Spark 20 s to plan)."""
    items = [(_field(f), f) for f in DLQ_COLUMNS + (ORDER,)]
    layout = exp.Case(this=_field(NODE), ifs=[
        exp.If(this=S.string(node), true=S.bigint(index)) for node, index in members])
    items.append((layout, "$layout"))
    items += [(exp.Bracket(this=_field(PAYLOAD), expressions=[S.string(c)]), c)
              for c in payload]
    return items


def _field(name: str) -> exp.Expression:
    return exp.Dot(this=S.col(DLQ), expression=S.ident(name))


def carried_columns(relation) -> list[str]:
    """The carry columns a node evaluating over `relation` passes on."""
    return [LIVE, DLQ] if relation.carried else []
