"""Route node -> an eval view and one view per branch (spec §2.4)."""

from __future__ import annotations

import dataclasses

from sqlglot import exp

from clinker_sql import sqlbuild as S
from clinker_sql.codegen import unmapped
from clinker_sql.codegen.conditions import decided
from clinker_sql.codegen.context import Context
from clinker_sql.codegen.cxl_errors import raised
from clinker_sql.codegen.cxl_scope import compile_cxl, scope_for
from clinker_sql.codegen.dlq_shape import dlq_select
from clinker_sql.codegen.materialize import counted_in
from clinker_sql.codegen.plan import (
    DOC,
    FAN,
    FAN_TYPE,
    SOURCE_FILE,
    SOURCE_NAME,
    SOURCE_ROW,
    WIDENED,
    WIDENED_TYPE,
)
from clinker_sql.codegen.plan import NODE_LAYER, ErrorView, Relation, Statement
from clinker_sql.codegen.templates import Sql, ident, render, select_list, sql
from clinker_sql.codegen.transform import ERR, error_struct
from clinker_sql.config import model as m
from clinker_sql.cxl import types as T
from clinker_sql.cxl.lower import guard_all
from clinker_sql.cxl.program import FieldFault, LoweredProgram, lower_condition
from clinker_sql.cxl.text import to_cell
from clinker_sql.diagnostics import fail


def when_column(branch: str) -> str:
    return f"$when.{branch}"


def compile_route(ctx: Context, node: m.RouteNode, upstream: Relation) -> None:
    scope = scope_for(ctx, upstream, "route")
    program = LoweredProgram()
    taken: list[tuple[str, exp.Expression]] = []
    none_before: exp.Expression | None = None
    for branch, source in node.conditions:
        v = compile_cxl(source, lambda s=source: lower_condition(s.text, scope))
        # exclusive: a condition is evaluated only while no earlier one matched
        guard = none_before if node.mode == "exclusive" else None
        program.faults.extend(FieldFault(f, None) for f in guard_all(v.faults, guard))
        hit = S.is_true(v.sql)
        taken.append((branch, S.and_(guard, hit) if guard is not None else hit))
        none_before = S.and_(none_before, S.not_(hit))
    rest = none_before if none_before is not None else S.boolean(True)
    if node.default in dict(taken):  # Clinker allows it: the branch also takes the unmatched rows
        taken = [(b, S.or_(c, rest) if b == node.default else c) for b, c in taken]
    else:
        taken.append((node.default, rest))

    # the node file's view: the input row and one column per branch, its condition as
    # written (a branch reads it in a WHERE, where NULL is false); the fault column `$err`
    # is the machinery's, in `<node>.checked` over it, when a condition can fail
    eval_view = ctx.view(node.name, "eval")
    items = [(decided(cond), when_column(b)) for b, cond in taken]
    err_expr = error_struct(program, node.name)
    can_fail = not S.is_null_literal(err_expr)
    checked = ctx.view(node.name, "checked") if can_fail else eval_view
    ctx.add(Statement("view", node.name, eval_view, render(
        "route_eval.sql.j2", view=ident(eval_view), input=ident(upstream.view),
        select_list=select_list(items)), header=f"route {node.name} ({node.mode}): conditions",
        layer=NODE_LAYER))
    if can_fail:
        ctx.add(Statement("view", node.name, checked, render(
            "transform_checked.sql.j2", view=ident(checked), input=ident(eval_view),
            select_list=select_list([(err_expr, ERR)])),
            header=f"route {node.name}: each row's first condition that failed to evaluate "
                   "($err)"))
    for branch, _ in taken:
        view = ctx.view(node.name, branch)
        condition = S.and_(S.is_null(S.col(ERR)) if can_fail else None,
                           S.col(when_column(branch)))
        ctx.add(Statement("view", node.name, view, render(
            "route_branch.sql.j2", view=ident(view), eval=ident(checked),
            condition=sql(condition),
            select_list=select_list([(S.col(n), n) for n, _ in upstream.all_columns])),
            header=f"route {node.name}: branch {branch}"))
        ctx.relations[(node.name, branch)] = dataclasses.replace(upstream, view=view)

    err_view = ctx.view(node.name, "errors")
    err = S.col(ERR) if can_fail else err_expr  # a null struct: its view selects no row
    entry = dlq_select(
        source_name=S.col(SOURCE_NAME), source_file=S.col(SOURCE_FILE),
        source_row=S.col(SOURCE_ROW), order=S.col("$source.order"),
        field=S.cast(S.null(), "STRING"),
        value=exp.Dot(this=err, expression=S.ident("value")),
        category=exp.Dot(this=err, expression=S.ident("category")),
        detail=exp.Dot(this=err, expression=S.ident("detail")),
        stage=S.string("route_eval"), trigger=True,
        payload={n: to_cell(S.col(n), t) for n, t in upstream.columns + upstream.ck})
    ctx.add(Statement("view", node.name, err_view, render(
        "node_errors.sql.j2", view=ident(err_view), input=ident(checked),
        select_list=select_list(entry), condition=Sql(raised(err_expr))),
        header=f"route {node.name}: rows whose condition failed to evaluate",
        step=counted_in(checked, raised(err_expr))))
    ctx.error_views.append(ErrorView(err_view, node.name,
                                     tuple(n for n, _ in upstream.columns + upstream.ck), 3,
                                     "CS002"))


def compile_merge(ctx: Context, node: m.MergeNode, inputs: list[Relation]) -> Relation:
    fan = any(rel.fan for rel in inputs)  # inputs without a fan-out get a null `$fan`
    # `$widened` holds each row's own undeclared columns: the merge's keys are all of
    # them, and an input without any gives a null map (codegen/unmapped.py)
    widened = unmapped.union([rel.widened for rel in inputs])
    doc = any(rel.doc for rel in inputs)  # each input's documents stay its own
    first = dataclasses.replace(inputs[0], fan=fan, widened=widened, doc=doc)
    names = [n for n, _ in first.all_columns]
    parts = []
    for ref, rel in zip(node.merge_inputs, inputs):
        other = [n for n, _ in dataclasses.replace(rel, fan=fan, widened=widened,
                                                   doc=doc).all_columns]
        if sorted(other) != sorted(names):
            missing = sorted(set(names) ^ set(other))
            raise fail("E314", f"merge '{node.name}': input '{ref}' has different columns than "
                       f"the first input ({', '.join(missing)})", ref.loc)
        # what an input without one of the hidden columns the others carry gives
        lacking = {FAN: None if rel.fan else S.cast(S.null(), T.spark_type_sql(FAN_TYPE)),
                   WIDENED: None if rel.widened else S.cast(S.null(),
                                                            T.spark_type_sql(WIDENED_TYPE)),
                   DOC: None if rel.doc else rel.document()}
        items = [(S.col(n) if lacking.get(n) is None else lacking[n], n) for n in names]
        parts.append(Sql(f"{select_list(items)}\n"
                         f"FROM {ident(rel.view)}"))
    view = ctx.view(node.name)
    ctx.add(Statement("view", node.name, view, render("merge.sql.j2", view=ident(view),
                                                      parts=parts),
                      header=f"merge {node.name}: {', '.join(str(r) for r in node.merge_inputs)}",
                      layer=NODE_LAYER))
    return Relation(view, first.columns, first.ck, first.emitted, fan=fan, widened=widened,
                    doc=doc)

