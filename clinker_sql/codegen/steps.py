"""A transform whose CXL holds `distinct` or `emit each` (cxl/program.py steps).

`distinct` splits the program into segments. The eval view computes, per segment, the
first failure (`$err.<j>`) and whether the segment's filters pass (`$keep.<j>`), and per
`distinct` its key (`$key.<i>`) and key failure (`$keyerr.<i>`). Then one view per
`distinct` ranks the rows that reach it (`$part.<i>`: clean and kept so far, hashable key)
by arrival order within their key (`$rank.<i>`): the first row wins, later ones are
dropped and evaluate nothing further, as in Clinker (`eval/compiled.rs`, the dedup set of
one evaluator per transform, first seen wins). A last view (`<node>.checked`) gives the
row's `$err` and `$keep`.

A segment holding an `emit each` folds its failure events (cxl/fanout.py) with a record
counter: a `start` event with `max_expansion` records already produced is
`expansion_limit_exceeded`, as Clinker checks before each element.

The good rows of a fan-out are produced by `LATERAL VIEW OUTER posexplode` of the row's
records (`$each`); a row with no record is written as itself (its top-level emits). Every
produced row keeps its source row's `$source.*` and `$ck.*`; `$fan` appends its position.
"""

from __future__ import annotations

from sqlglot import exp

from clinker_sql import sqlbuild as S
from clinker_sql.codegen.context import Context
from clinker_sql.codegen.cxl_errors import (
    ERR,
    KEEP,
    error_struct,
    event_struct,
    fault_struct,
    no_error,
)
from clinker_sql.codegen.names import EACH, LEAF, POS
from clinker_sql.codegen.plan import FAN, FAN_TYPE, NODE_LAYER, Relation, Statement
from clinker_sql.codegen.templates import ident, render, select_list, sql
from clinker_sql.cxl import types as T
from clinker_sql.cxl.fanout import EVENT_TYPE, EXPANSION, event, events_array, fault_events
from clinker_sql.cxl.program import Block, Dedup, FieldFault, Gate, LoweredProgram, Step
from clinker_sql.cxl.registry import lam



def staged(program: LoweredProgram) -> bool:
    return bool(program.blocks or program.dedups)


def _segments(program: LoweredProgram) -> list[list[Step]]:
    segs: list[list[Step]] = [[]]
    for step in program.steps:
        if isinstance(step, Dedup):
            segs.append([])
        else:
            segs[-1].append(step)
    return segs


def _keep(steps: list[Step]) -> exp.Expression:
    return S.and_(*[s.cond for s in steps if isinstance(s, Gate)])


def _leaf_count(blocks: list[Block]) -> exp.Expression:
    out: exp.Expression = S.bigint(0)
    for b in blocks:
        assert b.leaves is not None
        out = exp.Add(this=out, expression=S.fn("size", b.leaves))
    return out


def _segment_error(steps: list[Step], produced: exp.Expression, limit: int) -> exp.Expression:
    """The first failure of a segment, given the records produced before it."""
    faults = [s for s in steps if isinstance(s, FieldFault)]
    if not any(isinstance(s, Block) for s in steps):
        return error_struct(LoweredProgram(faults=faults), "")
    parts: list[exp.Expression] = []
    for s in steps:
        if isinstance(s, FieldFault):
            e = fault_events((s.fault,), s.field)
            if e is not None:
                parts.append(S.fn("array", e))
        elif isinstance(s, Block):
            parts.append(s.events)
    acc, ev = S.col("_cxl_acc"), S.col("_cxl_ev")

    def dot(e: exp.Expression, name: str) -> exp.Expression:
        return exp.Dot(this=e.copy(), expression=S.ident(name))

    def state(n: exp.Expression, r: exp.Expression) -> exp.Expression:
        return S.fn("named_struct", S.string("n"), n, S.string("r"), r)

    overflow = event(False, S.string(EXPANSION),
                     S.string(f"emit_each fan-out exceeded max_expansion (limit {limit})"))
    step = S.case([
        (S.or_(S.not_null(dot(acc, "r")), S.is_null(ev)), acc),
        (S.and_(dot(ev, "s"), exp.GTE(this=dot(acc, "n"), expression=S.bigint(limit))),
         state(dot(acc, "n"), overflow)),
        (dot(ev, "s"), state(exp.Add(this=dot(acc, "n"), expression=S.bigint(1)),
                             dot(acc, "r"))),
        (S.not_null(dot(ev, "m")), state(dot(acc, "n"), ev)),
    ], acc)
    finish = S.case([(S.not_null(dot(acc, "r")), event_struct(dot(acc, "r")))], no_error())
    init = state(S.cast(produced, "BIGINT"), S.cast(S.null(), EVENT_TYPE))
    return S.fn("aggregate", events_array(parts), init, lam(step, "_cxl_acc", "_cxl_ev"),
                lam(finish, "_cxl_acc"))


def eval_items(program: LoweredProgram) -> list[tuple[exp.Expression, str]]:
    """`$each`, and `$err`/`$keep` (no distinct) or the per-segment columns."""
    items: list[tuple[exp.Expression, str]] = []
    blocks = program.blocks
    if blocks:
        leaves = [b.leaves for b in blocks]
        items.append((leaves[0] if len(leaves) == 1 else S.fn("concat", *leaves), EACH))
    segs = _segments(program)
    dedups = program.dedups
    before: list[Block] = []
    for j, steps in enumerate(segs):
        err = _segment_error(steps, _leaf_count(before), program.max_expansion)
        before += [s for s in steps if isinstance(s, Block)]
        if not dedups:
            return items + [(_keep(steps), KEEP), (err, ERR)]
        items += [(err, f"$err.{j}"), (_keep(steps), f"$keep.{j}")]
    for i, d in enumerate(dedups, 1):
        items.append((d.key, f"$key.{i}"))
        keyerr = no_error() if d.fault is None else S.case([(S.is_true(d.fault.cond), fault_struct(
            S.string(d.fault.category), d.fault.message, None, None))], no_error())
        items.append((keyerr, f"$keyerr.{i}"))
    return items


def _clean(j: int) -> exp.Expression:
    """Segment j ran without failure and its filters passed (given it was reached)."""
    return S.and_(S.is_null(S.col(f"$err.{j}")), S.col(f"$keep.{j}"))


def _won(i: int) -> exp.Expression:
    """The row reached distinct i and was the first of its key (so reached segment i)."""
    return S.and_(S.col(f"$part.{i}"), S.eq(S.col(f"$rank.{i}"), S.small_int(1)))


def distinct_views(ctx: Context, node: str, program: LoweredProgram, eval_view: str,
                   upstream: Relation) -> str:
    """One ranking view per distinct, then `<node>.checked`; returns the last view."""
    prev = eval_view
    k = len(program.dedups)
    for i in range(1, k + 1):
        reached = _clean(0) if i == 1 else S.and_(_won(i - 1), _clean(i - 1))
        part = S.and_(reached, S.is_null(S.col(f"$keyerr.{i}")))
        rank = exp.Window(this=exp.RowNumber(), partition_by=[part.copy(), S.col(f"$key.{i}")],
                          order=exp.Order(expressions=[exp.Ordered(this=c)
                                                       for c in upstream.order_by()]))
        view = ctx.view(node, f"distinct{i}")
        ctx.add(Statement("view", node, view, render(
            "transform_distinct.sql.j2", view=ident(view), input=ident(prev),
            select_list=select_list([(part, f"$part.{i}"), (rank, f"$rank.{i}")])),
            header=f"transform {node}: distinct #{i}, the first row of each key in arrival "
                   "order continues", layer=NODE_LAYER))
        prev = view
    whens = [(S.not_null(S.col("$err.0")), S.col("$err.0"))]
    for i in range(1, k + 1):
        reached = _clean(0) if i == 1 else S.and_(_won(i - 1), _clean(i - 1))
        whens.append((S.and_(reached, S.not_null(S.col(f"$keyerr.{i}"))),
                      S.col(f"$keyerr.{i}")))
        whens.append((S.and_(_won(i), S.not_null(S.col(f"$err.{i}"))), S.col(f"$err.{i}")))
    keep = S.and_(_won(k), S.col(f"$keep.{k}"))
    view = ctx.view(node, "checked")
    ctx.add(Statement("view", node, view, render(
        "transform_distinct.sql.j2", view=ident(view), input=ident(prev),
        select_list=select_list([(keep, KEEP), (S.case(whens, no_error()), ERR)])),
        header=f"transform {node}: each row's first failure and whether it continues",
        layer=NODE_LAYER))
    return view


def fanout_view(ctx: Context, node: str, program: LoweredProgram, input_view: str,
                upstream: Relation, columns: list[tuple[str, T.CxlType]]) -> None:
    """The good rows: each record of `$each`, or the row itself when it has none."""
    pos, leaf = S.col(POS), S.col(LEAF)
    fields = list(program.columns)
    items: list[tuple[exp.Expression, str]] = []
    upstream_types = dict(upstream.columns)
    for name, t in columns:
        if name not in program.columns:
            items.append((S.col(name), name))
            continue
        if name in program.emits:
            fallback: exp.Expression = S.col(f"$out.{name}")
            same = program.emits[name].type == t
        elif name in upstream_types:
            fallback, same = S.col(name), upstream_types[name] == t
        else:
            fallback, same = S.null(), False
        if not same:
            fallback = S.cast(fallback, T.spark_type_sql(t))
        field = exp.Dot(this=leaf.copy(), expression=S.ident(f"f{fields.index(name)}"))
        items.append((S.case([(S.is_null(pos), fallback)], field) if program.falls_back
                      else field, name))
    here = S.fn("array", S.cast(pos.copy(), "BIGINT"))
    if upstream.fan:  # a fan-out of a fanned-out row: positions nest
        old_fan: exp.Expression = S.col(FAN)
        new_fan = S.fn("concat", S.fn("coalesce", old_fan.copy(), S.cast(
            S.fn("array"), T.spark_type_sql(FAN_TYPE))), here)
    else:
        old_fan, new_fan = S.cast(S.null(), T.spark_type_sql(FAN_TYPE)), here
    for name, _ in upstream.hidden:
        if name != FAN:
            items.append((S.col(name), name))
    items.append((S.case([(S.is_null(pos), old_fan)], new_fan), FAN))
    view = ctx.view(node)
    ctx.add(Statement("view", node, view, render(
        "transform_fanout.sql.j2", view=ident(view), input=ident(input_view),
        each=sql(S.col(EACH)), pos=ident(POS), leaf=ident(LEAF),
        select_list=select_list(items)),
        header=f"transform {node}: good rows, one per emit each record (a row without any "
               "is written as itself)", layer=NODE_LAYER))
