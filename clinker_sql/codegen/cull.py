"""Cull node -> an eval view, a decision per group and one view per port (spec §2.8).

A group (the rows sharing every `partition_by` value; a null is one group of its own,
`""` another) is removed when any rule's `drop_group_when` holds: an aggregate-context
predicate, lowered as an aggregate's emits are (cxl/aggregates.py). The decision is one
GROUP BY over the input (`<cull>.decide`); each port joins its rows back to it, null-safe:
the kept groups leave by the node's name, the removed ones by `<cull>.<removed_to>`. A
null decision (an aggregate over nothing but nulls) keeps the group, as in Clinker.
"""

from __future__ import annotations

import dataclasses

from sqlglot import exp

from clinker_sql import sqlbuild as S
from clinker_sql.codegen.aggregate import aggregate_scopes
from clinker_sql.codegen.context import Context
from clinker_sql.codegen.cxl_scope import compile_cxl
from clinker_sql.codegen.plan import NODE_LAYER, Relation, Statement
from clinker_sql.codegen.templates import ident, sql
from clinker_sql.config import model as m
from clinker_sql.cxl.aggregates import aggregate_expression
from clinker_sql.cxl.lower import Lowerer
from clinker_sql.cxl.parser import parse_expression
from clinker_sql.diagnostics import fail

DROP = "$drop"
# order-insensitive aggregates: `order_by` then changes no decision
_ORDERLESS = ("count", "sum", "min", "max", "avg", "weighted_avg")


def _view(name: str, query: exp.Expression) -> str:
    return f"CREATE OR REPLACE TEMPORARY VIEW {ident(name)} AS\n{sql(query)}"


def compile_cull(ctx: Context, node: m.CullNode, upstream: Relation) -> None:
    types = dict(upstream.columns)
    for f in list(node.partition_by) + [k.field for k in node.order_by]:
        if f not in types:
            what = "partition_by" if f in node.partition_by else "order_by"
            raise fail("E200", f"cull {node.name!r}: {what} field {f!r} is not present in the "
                       "upstream schema", node.loc, "declare the column in the source's "
                       "`schema:` block or emit it from an upstream transform")
    _, collector, group_scope = aggregate_scopes(ctx, upstream, list(node.partition_by))
    decisions = []
    for rule, source in node.rules:
        v = compile_cxl(source, lambda s=source: Lowerer(group_scope).lower(
            parse_expression(s.text)))
        if v.type.kind not in ("bool", "null", "any"):
            raise fail("E200", f"cull {node.name!r}: rule {rule!r}: drop_group_when must be a "
                       f"boolean, not {v.type}", source.location(1, 1))
        if v.faults:
            raise fail("CS001", f"cull {node.name!r}: rule {rule!r} can fail while it is "
                       "decided (a division, a conversion): not supported yet",
                       source.location(1, 1))
        decisions.append(S.is_true(v.sql))
    if collector.row_faults:
        raise fail("CS001", f"cull {node.name!r}: an aggregate argument can fail on a row (a "
                   "conversion, a division): not supported yet", node.loc)
    if node.order_by and any(b.function not in _ORDERLESS for b in collector.bindings):
        raise fail("CS001", f"cull {node.name!r}: an order-sensitive aggregate with order_by "
                   "is not supported yet", node.loc)

    eval_view, decide_view = ctx.view(node.name, "eval"), ctx.view(node.name, "decide")
    keys = list(node.partition_by)
    items = [S.col(n).as_(n) for n, _ in upstream.all_columns]
    for b in collector.bindings:
        items += [v.sql.as_(c) for v, c in zip(b.args, b.arg_columns)]
    ctx.add(Statement("view", node.name, eval_view, _view(
        eval_view, exp.select(*items).from_(S.table(upstream.view))),
        header=f"cull {node.name}: per-row arguments of its rules", layer=NODE_LAYER))
    groups = exp.select(*[S.col(k) for k in keys],
                        *[aggregate_expression(b, upstream.fan).as_(b.column)
                          for b in collector.bindings]).from_(S.table(eval_view))
    if keys:
        groups = groups.group_by(*[S.col(k) for k in keys])
    decide = exp.select(*[S.col(k) for k in keys], S.or_(*decisions).as_(DROP)).from_(
        groups.subquery("g"))
    rules = "; ".join(f"{r}: {' '.join(s.text.split())}" for r, s in node.rules)
    ctx.add(Statement("view", node.name, decide_view, _view(decide_view, decide),
                      header=f"cull {node.name}: one decision per group of "
                             f"[{', '.join(keys)}] (removed when any rule holds: {rules})",
                      layer=NODE_LAYER))
    for port, removed in ((None, False), (node.removed_to, True)):
        view = ctx.view(node.name, port)
        on = S.and_(*[S.null_safe_eq(S.col(k, "r"), S.col(k, "d"))
                      for k in keys]) if keys else S.boolean(True)
        dropped = S.fn("coalesce", S.col(DROP, "d"), S.boolean(False))
        query = exp.select(*[S.col(n, "r").as_(n) for n, _ in upstream.all_columns]).from_(
            exp.alias_(S.table(upstream.view), "r")).join(
            exp.alias_(S.table(decide_view), "d"), on=on, join_type="left").where(
            dropped if removed else S.not_(dropped))
        ctx.add(Statement("view", node.name, view, _view(view, query),
                          header=f"cull {node.name}: the rows of the "
                                 f"{'removed' if removed else 'kept'} groups",
                          layer=NODE_LAYER))
        ctx.relations[(node.name, port)] = dataclasses.replace(upstream, view=view)

