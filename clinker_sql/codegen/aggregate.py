"""Aggregate node -> eval, groups, final, ok and error views (spec §2.3, §4.2).

Path selection happens here, at compile time, and is written in the SQL
header: *strict* when `group_by` covers every correlation-key field visible at
the input (a dirty group's output row is rolled back at commit), *retraction*
when it omits one (the failing rows' contributions leave and the group is
recomputed over the survivors; see codegen/retraction.py).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from sqlglot import exp

from clinker_sql import sqlbuild as S
from clinker_sql.codegen.context import Context
from clinker_sql.codegen.cxl_scope import compile_cxl, scope_for
from clinker_sql.codegen.dlq_shape import dlq_select
from clinker_sql.codegen.materialize import counted_in
from clinker_sql.codegen.names import (
    EARLY_VIEW,
    FIRST,
    GROUP_INDEX as INDEX,
    LIVE,
    RETRACTED_COLUMN as RETRACTED,
    aggregate_ck,
    index_key,
)
from clinker_sql.codegen.one_pass import chain_failures_with_groups, clean_groups_step
from clinker_sql.codegen.plan import (
    DOC,
    NODE_LAYER,
    SOURCE_FILE,
    SOURCE_NAME,
    SOURCE_ORDER,
    SOURCE_ROW,
    ErrorView,
    Relation,
    Statement,
    ck_column,
)
from clinker_sql.codegen.retraction import retract_input
from clinker_sql.codegen.run_plan import ViewStep
from clinker_sql.codegen.templates import Sql, ident, render, select_list, sql
from clinker_sql.codegen.time_window import WINDOW_KEYS, window_input
from clinker_sql.codegen.transform import ERR, KEEP, error_struct
from clinker_sql.config import model as m
from clinker_sql.cxl import ast as a
from clinker_sql.cxl import types as T
from clinker_sql.cxl.aggregates import AggregateCollector, aggregate_expression
from clinker_sql.cxl.lower import Fault, Lowerer, Scope, Val, error, guard_all
from clinker_sql.cxl.parser import parse_program
from clinker_sql.cxl.program import FieldFault, LoweredProgram
from clinker_sql.cxl.text import to_cell
from clinker_sql.diagnostics import fail

MERGED = "<merged>"
SYNTHETIC = -1  # $source.order of an aggregate row: its DLQ source row is 0


@dataclass(frozen=True)
class AggregatePlan:
    """What the retraction pass and `explain` need to know about one aggregate."""

    node: str
    relaxed: bool
    eval_view: str
    keys: tuple[str, ...]  # the group key columns in the eval view
    input_ck: tuple[str, ...]  # $ck.* columns at the aggregate's input
    bindings: tuple[tuple[str, str], ...]  # (function, Reversible | BufferRequired)


def aggregate_scopes(ctx: Context, upstream: Relation, group_by: list[str]
                     ) -> tuple[Scope, AggregateCollector, Scope]:
    """The scopes of an aggregate-context program: (its rows', the collector of its
    aggregate calls, its groups': the group keys and the aggregates). A cull's rules are
    lowered in them too (codegen/cull.py)."""
    types = dict(upstream.columns)
    row_scope = scope_for(ctx, upstream, "aggregate")
    collector = AggregateCollector(row_scope)
    system = {k: v for k, v in row_scope.system.items() if k[0] in ("vars", "pipeline")}
    group_scope = Scope(columns={g: (S.col(g), types[g]) for g in group_by}, system=system,
                        context="aggregate", aggregates=collector)
    return row_scope, collector, group_scope


def _lower_body(ctx: Context, node: m.AggregateNode, upstream: Relation, group_by: list[str]):
    types = dict(upstream.columns)
    row_scope, collector, group_scope = aggregate_scopes(ctx, upstream, group_by)
    program = parse_program(node.cxl.text)
    keep: exp.Expression | None = None
    let_faults: list[Fault] = []
    emits: dict[str, Val] = {}
    for stmt in program.statements:
        if isinstance(stmt, a.Let):
            v = Lowerer(row_scope).lower(stmt.value)
            let_faults.extend(guard_all(v.faults, keep))
            row_scope.lets[stmt.name] = Val(v.sql, v.type)
        elif isinstance(stmt, a.Filter):
            v = Lowerer(row_scope).lower(stmt.cond)
            let_faults.extend(guard_all(v.faults, keep))
            keep = S.and_(keep, S.is_true(v.sql))
        elif isinstance(stmt, a.Emit) and stmt.scope is None:
            _check_bare_fields(stmt.value, set(group_by), set(types), inside=False)
            emits[stmt.name] = Lowerer(group_scope).lower(stmt.value)
        elif isinstance(stmt, a.Trace):
            continue
        elif isinstance(stmt, a.Emit):
            # Clinker's extract_aggregates rejects a scoped write, and its lowering reports
            # every extraction failure as E210 (clinker-plan config/pipeline.rs)
            raise error("E210", f"aggregate extraction failed for {node.name!r}: `emit "
                        "$pipeline.x` / `emit $source.x` / `emit $record.x` are not permitted "
                        "inside an aggregate transform; scoped-variable writes belong on a "
                        "regular transform upstream or downstream of the aggregate", stmt)
        else:
            raise error("E200", f"{type(stmt).__name__.lower()} is not allowed in an aggregate",
                        stmt)
    # filters form one pre-aggregation WHERE: arguments are evaluated only for kept rows
    row_faults = let_faults + list(guard_all(tuple(collector.row_faults), keep))
    return collector, keep, row_faults, emits


def _check_bare_fields(e: a.Expr, group: set[str], inputs: set[str], inside: bool) -> None:
    if isinstance(e, a.Call):
        inside = True
    if isinstance(e, a.Name) and not inside and e.name in inputs and e.name not in group:
        raise error("E200", f"'{e.name}' is not a group_by field; use it inside an aggregate "
                    "function", e)
    for value in vars(e).values():
        for child in (value if isinstance(value, tuple) else (value,)):
            if isinstance(child, a.Expr):
                _check_bare_fields(child, group, inputs, inside)
            elif isinstance(child, a.MatchArm):
                for part in (child.pattern, child.result):
                    if part is not None:
                        _check_bare_fields(part, group, inputs, inside)


def compile_aggregate(ctx: Context, node: m.AggregateNode, upstream: Relation,
                      documents: bool) -> tuple[Relation, AggregatePlan]:
    types = dict(upstream.columns)
    for g in node.group_by:
        if g not in types:
            raise fail("E200", f"aggregate '{node.name}' groups by '{g}', which is not a field "
                       "of its input", node.loc)
    group_by = list(node.group_by)
    windows: list[str] = []  # time windows: rows are grouped per window too
    if node.time_window is not None:
        upstream, windows = window_input(ctx, node, upstream), list(WINDOW_KEYS)
        documents = False  # Clinker's windows span the files of a source
    input_ck = [c for c, _ in upstream.ck]
    relaxed = any(not c.startswith("$ck.aggregate.") and c[len("$ck."):] not in group_by
                  or c.startswith("$ck.aggregate.") for c in input_ck)
    if relaxed and node.strategy == "streaming":
        raise fail("E15Y", f"aggregate '{node.name}' omits a correlation-key field from group_by "
                   "(retraction mode) and cannot use strategy: streaming", node.loc,
                   "use strategy: auto or hash, or add the key field to group_by")
    collector, keep, row_faults, emits = compile_cxl(
        node.cxl, lambda: _lower_body(ctx, node, upstream, group_by))
    strict_ck = [ck_column(g) for g in group_by if ck_column(g) in input_ck] if not relaxed else []
    doc_key = ([DOC] if upstream.doc else [SOURCE_NAME, SOURCE_FILE]) \
        if documents and not relaxed else []
    keys = group_by + windows + strict_ck + doc_key

    eval_view, groups_view, final_view, ok_view, err_view = (
        ctx.view(node.name, p) for p in ("eval", "groups", "final", None, "errors"))
    path = "retraction" if relaxed else "strict"
    klass = {b.klass for b in collector.bindings}
    why = (f"group_by omits correlation-key field(s) "
           f"{', '.join(c for c in input_ck if c[4:] not in group_by)}" if relaxed else
           "group_by covers every correlation-key field" if input_ck else "no correlation keys")
    header = (f"aggregate {node.name}: {path} path ({why}); bindings "
              f"{', '.join(sorted(klass)) or 'none'}")

    items = [(S.col(n), n) for n, _ in upstream.all_columns]
    for b in collector.bindings:
        items += [(v.sql, c) for v, c in zip(b.args, b.arg_columns)]
    items += [(S.col(w), w) for w in windows]
    items.append((keep if keep is not None else S.boolean(True), KEEP))
    program = LoweredProgram(faults=[FieldFault(f, None) for f in row_faults])
    items.append((_with_category(error_struct(program, node.name)), ERR))
    # the arguments, the group numbers and the argument errors are the same in every
    # retraction pass: only the groups read the retraction state (flagged below)
    ctx.add(Statement("view", node.name, eval_view, render(
        "aggregate_eval.sql.j2", view=ident(eval_view), input=ident(upstream.view),
        select_list=select_list(items[len(upstream.all_columns):])),
        header=f"{header}: per-row arguments",
        layer=NODE_LAYER))
    grouped_view = eval_view
    if relaxed:
        grouped_view = retract_input(ctx, node.name, replace(upstream, view=eval_view))

    first = exp.Min(this=_arrival_position(upstream))
    group_items = [(S.col(k), k) for k in keys]
    overflow: list[tuple[str, exp.Expression]] = []
    for b in collector.bindings:
        agg = aggregate_expression(b, upstream.fan)
        if b.function == "sum" and b.args[0].type.kind == "int":
            value = S.try_cast(agg, "BIGINT")
            group_items.append((value, b.column))
            flag = f"{b.column}.overflow"
            group_items.append((S.and_(S.not_null(agg), S.is_null(value)), flag))
            overflow.append((b.function, S.col(flag)))
        else:
            group_items.append((agg, b.column))
    group_items.append((first, FIRST))
    finalize_faults = [Fault(S.is_true(flag), S.string(f"aggregate {node.name}.{fn}: integer "
                                                      "overflow"), category="aggregate_finalize")
                       for fn, flag in overflow]
    for v in emits.values():
        finalize_faults.extend(Fault(f.cond, f.message, f.value, "aggregate_finalize")
                               for f in v.faults)
    # retraction path with a group key: one aggregation per (group, retracted or not), then
    # per group the values of its surviving rows and its first-seen position over every
    # row, which numbers the groups stably (`$ck.aggregate.<name>`) in every pass
    numbered = relaxed and bool(keys)
    where = S.and_(S.is_null(S.col(ERR)), S.col(KEEP),
                   S.not_(S.col(RETRACTED)) if relaxed and not numbered else None)
    group_tuple = Sql(", ".join(ident(k) for k in keys)) if keys else None
    clean = None
    if numbered:
        clean = chain_failures_with_groups(
            ctx, node.name, upstream.view, items, keys, group_items,
            (ctx.view(node.name, "finalize_errors"), [f.cond for f in finalize_faults]))
        live = S.not_(S.col(RETRACTED))
        outer = [(S.col(k), k) for k in keys]
        outer += [(exp.Filter(this=S.fn("any_value", S.col(c)), expression=exp.Where(this=live)),
                   c) for _, c in group_items[len(keys):] if c != FIRST]
        outer += [(exp.Min(this=S.col(FIRST)), FIRST), (S.fn("bool_or", live), LIVE)]
        ctx.add(Statement("view", node.name, groups_view, render(
            "aggregate_groups_retraction.sql.j2", view=ident(groups_view),
            input=ident(grouped_view), select_list=select_list(outer),
            partial_list=select_list(group_items + [(S.col(RETRACTED), RETRACTED)]),
            where=sql(where), group_by=group_tuple, retracted=ident(RETRACTED)),
            header=f"aggregate {node.name}: one row per group: the values over the rows not "
                   "retracted, the first-seen position over every row", layer=NODE_LAYER))
    else:
        # a global fold flushed per document still owes its one row when no row arrives
        # (Clinker's empty-input sentinel): the fold over nothing, when there is nothing
        empty = [(S.cast(S.null(), "STRING") if k in doc_key else v, k) for v, k in group_items]
        ctx.add(Statement("view", node.name, groups_view, render(
            "aggregate_groups.sql.j2", view=ident(groups_view), eval=ident(grouped_view),
            select_list=select_list(group_items), where=sql(where), group_by=group_tuple,
            empty_list=select_list(empty) if doc_key and not group_by else None),
            header=f"aggregate {node.name}: one row per group"
            + (" over the rows not retracted" if relaxed else "")
            + ("; and the fold over nothing when no row arrives (one row per file "
               "otherwise)" if doc_key and not group_by else ""), layer=NODE_LAYER))

    columns = [(g, types[g]) for g in group_by]
    names = list(group_by)
    for name, v in emits.items():
        if name in names:
            columns[names.index(name)] = (name, v.type)
        else:
            columns.append((name, v.type))
            names.append(name)
    final_items = [((emits[n].sql if n in emits else S.col(n, "groups")), n)
                   for n, _ in columns]
    if numbered:
        ordinal: exp.Expression = exp.Add(this=S.col(INDEX, "groups"), expression=S.small_int(1))
    elif relaxed:  # a single group (no key): number 0
        ordinal = S.small_int(1)
    else:
        ordinal = exp.Window(this=exp.RowNumber(), order=exp.Order(expressions=[
            exp.Ordered(this=S.col(c)) for c in windows + [FIRST]]))
    final_items += [(S.string(MERGED), SOURCE_NAME), (S.string(MERGED), SOURCE_FILE),
                    (S.cast(ordinal, "BIGINT"), SOURCE_ROW), (S.bigint(SYNTHETIC), SOURCE_ORDER)]
    ck: list[tuple[str, T.CxlType]] = []
    if relaxed:
        index = exp.Sub(this=S.cast(ordinal, "BIGINT"), expression=S.bigint(1))
        final_items.append((index, aggregate_ck(node.name)))
        ck.append((aggregate_ck(node.name), T.INT))
    else:
        final_items += [(S.col(c, "groups"), c) for c in strict_ck]
        ck += [(c, t) for c, t in upstream.ck if c in strict_ck]
    final_program = LoweredProgram(faults=[FieldFault(f, None) for f in finalize_faults])
    final_items.append((_with_category(error_struct(final_program, node.name)), ERR))
    if numbered:  # the raw key values, for the group numbers' lookup (codegen/retraction.py)
        final_items += [(S.col(k, "groups"), index_key(i)) for i, k in enumerate(keys)]
        final_items.append((S.col(INDEX, "groups"), INDEX))
    def final_sql(groups: str) -> str:
        return render("aggregate_final.sql.j2", view=ident(final_view), groups=ident(groups),
                      select_list=select_list(final_items), numbered=numbered,
                      live=ident(LIVE), first=ident(FIRST), index=ident(INDEX))

    header = f"aggregate {node.name}: emitted values (first-seen group order)"
    step = ViewStep()
    if clean is not None:  # codegen/one_pass.py
        step = clean_groups_step(final_sql(clean), clean, EARLY_VIEW, ctx.view(node.name, "spec"),
                                 ctx.view(node.name, "finalize_errors"))
        header += f"; when nothing is retracted, read from {clean} instead (the same SELECT)"
    ctx.add(Statement("view", node.name, final_view, final_sql(groups_view), header=header,
                      step=step, layer=NODE_LAYER))
    if relaxed:
        index_view = ctx.view(node.name, "index")
        keys_sql = ", ".join(ident(index_key(i)) for i in range(len(keys)))
        body = (f"SELECT {keys_sql}, {ident(INDEX)} FROM {ident(final_view)}" if numbered
                else f"SELECT 1 AS {ident('$all')}, 0 AS {ident(INDEX)}")
        ctx.add(Statement("view", node.name, index_view,
                          f"CREATE OR REPLACE TEMPORARY VIEW {ident(index_view)} AS {body}",
                          header=f"aggregate {node.name}: the groups' stable numbers "
                                 "(first-seen order over every input row)"))
    out_cols = [(S.col(n), n) for n, _ in columns]
    out_cols += [(S.col(h), h) for h in (SOURCE_NAME, SOURCE_FILE, SOURCE_ROW, SOURCE_ORDER)]
    out_cols += [(S.col(c), c) for c, _ in ck]
    ctx.add(Statement("view", node.name, ok_view, render(
        "aggregate_ok.sql.j2", view=ident(ok_view), final=ident(final_view),
        select_list=select_list(out_cols)), header=f"aggregate {node.name}: good rows"))
    relation = Relation(ok_view, tuple(columns), tuple(ck), emitted=None)

    _error_views(ctx, node, upstream, eval_view, final_view, err_view, relation)
    plan = AggregatePlan(node.name, relaxed, eval_view, tuple(keys), tuple(input_ck),
                         tuple((b.function, b.klass) for b in collector.bindings))
    return relation, plan


def _with_category(struct: exp.Expression) -> exp.Expression:
    """Aggregate failures are `aggregate_finalize` (Clinker's add and finalize errors)."""
    for lit in struct.find_all(exp.Literal):
        if lit.is_string and lit.this == "type_coercion_failure":
            lit.replace(S.string("aggregate_finalize"))
    return struct


def _error_views(ctx: Context, node: m.AggregateNode, upstream: Relation, eval_view: str,
                 final_view: str, err_view: str, relation: Relation) -> None:
    err = S.col(ERR)

    def part(field: str) -> exp.Expression:
        return exp.Dot(this=err, expression=S.ident(field))

    rows_entry = dlq_select(
        source_name=S.col(SOURCE_NAME), source_file=S.col(SOURCE_FILE),
        source_row=S.col(SOURCE_ROW), order=S.col(SOURCE_ORDER), field=part("field"),
        value=part("value"), category=part("category"), detail=part("detail"),
        stage=S.string(f"aggregate:{node.name}"), trigger=True,
        payload={n: to_cell(S.col(n), t) for n, t in upstream.columns + upstream.ck})
    ctx.add(Statement("view", node.name, err_view, render(
        "node_errors.sql.j2", view=ident(err_view), input=ident(eval_view),
        select_list=select_list(rows_entry), condition=sql(S.not_null(err))),
        header=f"aggregate {node.name}: input rows whose arguments failed",
        step=counted_in(eval_view, sql(S.not_null(err)))))
    ctx.error_views.append(ErrorView(err_view, node.name, tuple(
        n for n, _ in upstream.columns + upstream.ck), 3, "CS002"))

    final_err = ctx.view(node.name, "finalize_errors")
    final_entry = dlq_select(
        source_name=S.col(SOURCE_NAME), source_file=S.col(SOURCE_FILE),
        source_row=S.col(SOURCE_ROW), order=S.col(SOURCE_ORDER), field=part("field"),
        value=part("value"), category=part("category"), detail=part("detail"),
        stage=S.string(f"aggregate:{node.name}"), trigger=True,
        payload={n: to_cell(S.col(n), t) for n, t in relation.columns + relation.ck})
    ctx.add(Statement("view", node.name, final_err, render(
        "node_errors.sql.j2", view=ident(final_err), input=ident(final_view),
        select_list=select_list(final_entry), condition=sql(S.not_null(err))),
        header=f"aggregate {node.name}: groups whose finalize failed",
        step=counted_in(final_view, sql(S.not_null(err)))))
    ctx.error_views.append(ErrorView(final_err, node.name, tuple(
        n for n, _ in relation.columns + relation.ck), 3, "CS002"))


# `$source.row` (a row number, or a position: codegen/numbering.py) is under 2^53, and a
# pipeline has fewer than 1023 sources: the arrival position fits in one BIGINT
_ROW_BITS = 53


def _arrival_position(upstream: Relation) -> exp.Expression:
    """A row's arrival position, whose minimum over a group is where it was first seen.

    One BIGINT, `($source.order + 1) * 2^53 + $source.row` (orders start at -1 for
    aggregate rows; a row number or position is under 2^53): Spark computes its
    minimum in a hash aggregate, where the minimum of a struct makes it sort every row
    (retraction benchmark, 1M rows: the groups 1.85 -> 1.15 s). Rows fanned out by an
    `emit each` add their fan-out index: the struct then stays."""
    if upstream.fan:
        return S.fn("named_struct", *[x for i, c in enumerate(upstream.arrival())
                                      for x in (S.string("orf"[i]), S.col(c))])
    order = exp.Paren(this=exp.Add(this=S.col(SOURCE_ORDER), expression=S.small_int(1)))
    return exp.Add(this=exp.Mul(this=order, expression=exp.Literal.number(2 ** _ROW_BITS)),
                   expression=S.col(SOURCE_ROW))
