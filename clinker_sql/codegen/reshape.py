"""Reshape node -> a rules view, a groups view, the output rows and the conflicts (Clinker's
reshape_dispatch.rs).

Every rule reads the rows as they arrived (no cascade): `<reshape>.rules` computes, per
row, each rule's trigger (`when`), its `mutate.set` values and its `synthesize.overrides`
values. When two rules write one field (a conflict is possible), `<reshape>.groups`
numbers the rows of each group of `partition_by` (a blank or NaN key is the null group, as
Clinker's partition_key) in `order_by` then arrival order, and finds the group's first
mutation conflict (two rules writing one field of one row; the first in rule order, then
row order, as Clinker's loop breaks on it); otherwise no row depends on its group and there
is no such view. The output is the rows of the groups without a conflict: each row with
its trigger rules' writes, then (UNION ALL) one row per trigger row and synthesizing rule,
a single explode of the rules that fired on it. A group with a conflict leaves nothing: one
`mutation_conflict` DLQ entry names the colliding row.

A synthesized row keeps its trigger row's identity and sorts right after it (one more
`$fan` entry); Clinker emits a group's synthesized rows after all its rows, in groups of
first-seen order: an output's row order differs when rows of groups interleave or
`order_by` reorders them. `$meta.*` audit columns are not kept: Clinker keeps them out of
the written rows, and its CXL has no `$meta` namespace to read them with (E202 here too).
"""

from __future__ import annotations

import dataclasses

from sqlglot import exp

from clinker_sql import sqlbuild as S
from clinker_sql.codegen.context import Context
from clinker_sql.codegen.cxl_scope import compile_cxl, scope_for
from clinker_sql.codegen.dlq_shape import dlq_select
from clinker_sql.codegen.materialize import counted_in
from clinker_sql.codegen.run_plan import CheckStep
from clinker_sql.codegen.plan import (FAN, NODE_LAYER, SOURCE_FILE, SOURCE_NAME, SOURCE_ORDER,
                                      SOURCE_ROW, ErrorView, Relation, Statement)
from clinker_sql.codegen.templates import Sql, ident, render, select_list, sql
from clinker_sql.config import model as m
from clinker_sql.config.reshape import check_reshape
from clinker_sql.cxl import types as T
from clinker_sql.cxl.lower import Lowerer
from clinker_sql.cxl.nested_key import debug_str
from clinker_sql.cxl.parser import parse_expression
from clinker_sql.cxl.text import to_cell
from clinker_sql.diagnostics import fail

POS, CONFLICT, FIRST, FAULT = "$pos", "$conflict", "$first_conflict", "$fault"
RULE = "$rule"


def _when(i: int) -> str:
    return f"$when.{i}"


def _set(i: int, field: str) -> str:
    return f"$set.{i}.{field}"


def _override(i: int, field: str) -> str:
    return f"$override.{i}.{field}"


def _view(name: str, query: exp.Expression) -> str:
    return f"CREATE OR REPLACE TEMPORARY VIEW {ident(name)} AS\n{sql(query)}"


def compile_reshape(ctx: Context, node: m.ReshapeNode, upstream: Relation) -> Relation:
    check_reshape(node, [n for n, _ in upstream.columns])
    if upstream.ck:
        raise fail("CS001", f"reshape {node.name!r} under correlation keys (rows carrying "
                   "$ck.*) is not supported yet: a rolled-back group would have to join "
                   "the correlation commit", node.loc)
    if upstream.widened and any(r.copy_from == "none" for r in node.rules):
        raise fail("CS001", f"reshape {node.name!r}: `copy_from: none` over rows with "
                   "auto-widened columns is not supported yet", node.loc)
    if ctx.pipeline.error_handling.strategy == "fail_fast" and _can_conflict(node):
        raise fail("CS001", f"reshape {node.name!r}: two rules write one field, and a "
                   "mutation conflict under strategy: fail_fast is not supported yet "
                   "(Clinker records its DLQ entry and goes on; a fail_fast run here stops "
                   "at its first DLQ entry)", node.loc)
    types = dict(upstream.columns)
    scope = scope_for(ctx, upstream)
    items = [(S.col(n), n) for n, _ in upstream.all_columns]
    faults: list[tuple[exp.Expression, exp.Expression]] = []
    for i, rule in enumerate(node.rules):
        when = _lower(scope, rule.when)
        faults += _messages(node, rule.name, "when", when.faults, None)
        if when.type.kind not in ("bool", "null", "any"):
            raise fail("E200", f"reshape {node.name!r} rule {rule.name!r}: when must be a "
                       f"boolean, not {when.type}", rule.when.location(1, 1))
        items.append((S.fn("coalesce", S.is_true(when.sql), S.boolean(False)), _when(i)))
        for what, pairs, name in (("mutate.set", rule.set, _set),
                                  ("overrides", rule.overrides, _override)):
            for field, source in pairs:
                if field not in types:  # a set target is checked above (E200)
                    raise fail("CS001", f"reshape {node.name!r} rule {rule.name!r}: override "
                               f"{field!r} names no upstream column (Clinker drops it)",
                               rule.loc)
                v = _lower(scope, source)
                faults += _messages(node, rule.name, field, v.faults, S.is_true(when.sql))
                items.append((_typed(v, types[field], node, rule.name, field, source),
                              name(i, field)))
    items.append((_fault(faults), FAULT))
    rules_view = ctx.view(node.name, "rules")
    ctx.add(Statement("view", node.name, rules_view, _view(
        rules_view, exp.select(*[e.as_(n) for e, n in items]).from_(
            S.table(upstream.view))),
        header=f"reshape {node.name}: each rule's trigger and values, read from the rows as "
               "they arrived", layer=NODE_LAYER))
    if faults:
        ctx.add(Statement("check", node.name, ctx.view(node.name, "failed"), _view_free(
            exp.select(S.col(FAULT).as_("detail")).from_(S.table(rules_view)).where(
                S.not_null(S.col(FAULT)))),
            header=f"reshape {node.name}: a rule expression that fails on a row stops the run",
            step=CheckStep(code="CS140")))

    if not _can_conflict(node):  # no group is rolled back: the rows need no grouping
        return _output(ctx, node, upstream, rules_view, conflicts=False)
    keys = [_key(k, types[k]) for k in node.partition_by]
    groups_view = ctx.view(node.name, "groups")
    order = [exp.Ordered(this=S.col(k.field), desc=k.desc, nulls_first=False)
             for k in node.order_by] + [exp.Ordered(this=c, nulls_first=False)
                                        for c in upstream.order_by()]
    numbered = exp.select(exp.Star(), exp.Window(
        this=exp.RowNumber(), partition_by=keys,
        order=exp.Order(expressions=order)).as_(POS), _conflict(node).as_(CONFLICT)).from_(
        S.table(ctx.view(node.name, "rules")))
    first = exp.Window(this=exp.Min(this=S.fn("if", S.not_null(S.col(CONFLICT)), S.fn(
        "named_struct", S.string("rule"), exp.Dot(this=S.col(CONFLICT),
                                                  expression=exp.to_identifier("rule")),
        S.string("pos"), S.col(POS)), S.null())), partition_by=keys)
    ctx.add(Statement("view", node.name, groups_view, _view(groups_view, exp.select(
        exp.Star(), first.as_(FIRST)).from_(numbered.subquery("r"))),
        header=f"reshape {node.name}: the groups of [{', '.join(node.partition_by)}], "
               "each row's place in its group and the group's first mutation conflict",
        layer=NODE_LAYER))

    relation = _output(ctx, node, upstream, groups_view, conflicts=True)
    _errors(ctx, node, upstream, groups_view)
    return relation


def _lower(scope, source: m.CxlSource):
    return compile_cxl(source, lambda: Lowerer(scope).lower(parse_expression(source.text)))


def _fault(faults: list[tuple[exp.Expression, exp.Expression]]) -> exp.Expression:
    """A row's first failing rule expression, as Clinker's abort names it."""
    return S.case(faults) if faults else S.cast(S.null(), "STRING")


def _messages(node: m.ReshapeNode, rule: str, what: str, faults, guard
              ) -> list[tuple[exp.Expression, exp.Expression]]:
    prefix = f"internal error in reshape '{node.name}': rule {debug_str(rule)} field " \
             f"{debug_str(what)} eval failed: "
    return [(f.guarded(guard).cond, S.fn("concat", S.string(prefix), f.message))
            for f in faults]


def _view_free(query: exp.Expression) -> str:
    return sql(query)


def _typed(v, column: T.CxlType, node: m.ReshapeNode, rule: str, field: str,
           source: m.CxlSource) -> exp.Expression:
    """The value, of its column's type: a row keeps its columns' types."""
    if v.type.kind == "null":
        return S.cast(v.sql, T.spark_type_sql(column))
    if v.type != column:
        raise fail("CS001", f"reshape {node.name!r} rule {rule!r}: {field!r} is a {column} "
                   f"column and its expression is of type {v.type}: not supported yet",
                   source.location(1, 1), "convert it in the expression")
    return v.sql


def _key(field: str, t: T.CxlType) -> exp.Expression:
    """A partition value as Clinker keys it: '' and NaN (and a multi-value cell) are null."""
    c = S.col(field)
    if t.kind == "string":
        return S.fn("nullif", c, S.string(""))
    if t.kind == "float":
        return S.case([(S.fn("isnan", c), S.cast(S.null(), "DOUBLE"))], c)
    if t.kind in ("array", "map"):
        return S.cast(S.null(), "STRING")
    return c


def _can_conflict(node: m.ReshapeNode) -> bool:
    written = [f for r in node.rules for f in {f for f, _ in r.set}]
    return len(written) != len(set(written))


def _conflict(node: m.ReshapeNode) -> exp.Expression:
    """A row's first conflict, in Clinker's order: the later rule first, then the field in
    its `set` order; the earlier rule that wrote the field is the only one (two earlier
    writers would have collided first)."""
    whens = []
    for j, rule in enumerate(node.rules):
        for field, _ in rule.set:
            for i, earlier in enumerate(node.rules[:j]):
                if any(f == field for f, _ in earlier.set):
                    detail = (f"reshape {debug_str(node.name)}: rules {debug_str(earlier.name)} "
                              f"and {debug_str(rule.name)} both write field {debug_str(field)} "
                              "on the same row — the correlation group is rolled back")
                    whens.append((S.and_(S.col(_when(j)), S.col(_when(i))), S.fn(
                        "named_struct", S.string("rule"), S.bigint(j), S.string("field"),
                        S.string(field), S.string("stage"),
                        S.string(f"reshape:{node.name}:{earlier.name}+{rule.name}"),
                        S.string("detail"), S.string(detail))))
    if not whens:
        return S.cast(S.null(), "STRUCT<rule: BIGINT, field: STRING, stage: STRING, "
                                "detail: STRING>")
    return S.case(whens)


def _output(ctx: Context, node: m.ReshapeNode, upstream: Relation, groups: str,
            conflicts: bool) -> Relation:
    """`groups`: the rules view when no two rules write one field (`conflicts` False)."""
    clean = S.is_null(S.col(FIRST)) if conflicts else None
    fan = S.col(FAN) if upstream.fan else S.cast(S.fn("array"), "ARRAY<INT>")
    kept = []
    for name, _ in upstream.columns:
        writes = [(S.col(_when(i)), S.col(_set(i, name)))
                  for i, r in enumerate(node.rules) if any(f == name for f, _ in r.set)]
        kept.append((S.case(writes, S.col(name)) if writes else S.col(name), name))
    hidden = [n for n, _ in upstream.hidden if n != FAN]
    rows = exp.select(*[e.as_(n) for e, n in kept], *[S.col(h) for h in hidden],
                      S.fn("concat", fan, S.fn("array", S.cast(S.small_int(0), "INT"))).as_(FAN)).from_(
        S.table(groups))
    if clean is not None:
        rows = rows.where(clean)
    synth = [(i, r) for i, r in enumerate(node.rules) if r.copy_from is not None]
    query: exp.Expression = rows
    if synth:
        fired = S.fn("explode", S.fn("array_compact", S.fn("array", *[
            S.fn("if", S.col(_when(i)), S.bigint(i), S.cast(S.null(), "BIGINT"))
            for i, _ in synth])))
        triggers = exp.select(exp.Star(), fired.as_(RULE)).from_(S.table(groups)).where(
            S.and_(clean, S.or_(*[S.col(_when(i)) for i, _ in synth])))
        made = []
        for name, t in upstream.columns:
            values = []
            for i, r in synth:
                given = dict(r.overrides)
                value = S.col(_override(i, name)) if name in given else (
                    S.col(name) if r.copy_from == "trigger" else
                    S.cast(S.null(), T.spark_type_sql(t)))
                values.append((exp.EQ(this=S.col(RULE), expression=S.bigint(i)), value))
            made.append((S.case(values), name))
        made_rows = exp.select(*[e.as_(n) for e, n in made], *[S.col(h) for h in hidden],
                               S.fn("concat", fan, S.fn("array", S.cast(exp.Add(
                                   this=S.col(RULE), expression=S.bigint(1)), "INT"))).as_(FAN)
                               ).from_(triggers.subquery("t"))
        query = exp.union(rows, made_rows, distinct=False)
    view = ctx.view(node.name)
    rules = "; ".join(r.name for r in node.rules)
    ctx.add(Statement("view", node.name, view, _view(view, query),
                      header=f"reshape {node.name}: the rows of the groups without a "
                             f"conflict, rewritten by their rules, then the rows the rules "
                             f"synthesize (rules: {rules})", layer=NODE_LAYER))
    return dataclasses.replace(upstream, view=view, fan=True)


def _errors(ctx: Context, node: m.ReshapeNode, upstream: Relation, groups: str) -> None:
    view = ctx.view(node.name, "errors")
    part = {p: exp.Dot(this=S.col(CONFLICT), expression=exp.to_identifier(p))
            for p in ("field", "stage", "detail")}
    entry = dlq_select(
        source_name=S.col(SOURCE_NAME), source_file=S.col(SOURCE_FILE),
        source_row=S.col(SOURCE_ROW), order=S.col(SOURCE_ORDER),
        field=part["field"], value=S.cast(S.null(), "STRING"),
        category=S.string("mutation_conflict"), detail=part["detail"],
        stage=part["stage"], trigger=True,
        payload={n: to_cell(S.col(n), t) for n, t in upstream.columns})
    condition = S.to_sql(S.and_(S.not_null(S.col(FIRST)), S.eq(
        exp.Dot(this=S.col(FIRST), expression=exp.to_identifier("pos")), S.col(POS))))
    ctx.add(Statement("view", node.name, view, render(
        "node_errors.sql.j2", view=ident(view), input=ident(groups),
        select_list=select_list(entry), condition=Sql(condition)),
        header=f"reshape {node.name}: the row of each group's first mutation conflict (the "
               "group is rolled back)", step=counted_in(groups, condition)))
    ctx.error_views.append(ErrorView(view, node.name, tuple(n for n, _ in upstream.columns),
                                     3, "CS002"))
