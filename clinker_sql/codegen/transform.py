"""Transform node -> eval, ok and error views."""

from __future__ import annotations

import difflib
from dataclasses import replace

from sqlglot import exp

from clinker_sql import sqlbuild as S
from clinker_sql.codegen import fusion, node_view, steps
from clinker_sql.codegen.context import Context
from clinker_sql.codegen.cxl_errors import ERR, ERR_TYPE, KEEP, error_struct, raised
from clinker_sql.codegen.cxl_scope import compile_cxl, scope_for
from clinker_sql.codegen.dlq_shape import dlq_select
from clinker_sql.codegen.materialize import counted_in
from clinker_sql.codegen.plan import SOURCE_FILE, SOURCE_NAME, SOURCE_ROW, ErrorView, Relation
from clinker_sql.codegen.plan import NODE_LAYER, Statement
from clinker_sql.codegen.retraction import needs_retraction, retract_input
from clinker_sql.codegen.templates import Sql, ident, render, select_list, sql
from clinker_sql.config import model as m
from clinker_sql.cxl import ast as a
from clinker_sql.cxl import types as T
from clinker_sql.cxl.errors import CxlError
from clinker_sql.cxl.parser import parse_program
from clinker_sql.cxl.program import LoweredProgram, lower_program
from clinker_sql.cxl.text import to_cell
from clinker_sql.cxl.windows import WindowContext
from clinker_sql.diagnostics import fail

__all__ = ["ERR", "KEEP", "compile_transform", "error_struct", "out_name"]


def out_name(name: str) -> str:
    return f"$out.{name}"


def compile_transform(ctx: Context, node: m.TransformNode, upstream: Relation) -> Relation:
    scope = scope_for(ctx, upstream)
    input_view, where = upstream.view, None
    window_note = ""
    if node.analytic_window is not None:
        buffer_mode = _window_checks(ctx, node, upstream)
        w = node.analytic_window
        partition = list(w.group_by)
        if buffer_mode:
            # Survivors form partitions of their own: window values are recomputed over the
            # rows not retracted, while retracted rows still flow (flagged) so that the
            # group numbers of downstream aggregates stay stable across passes.
            input_view = retract_input(ctx, node.name, upstream)
            partition.append("$retracted")
            window_note = " (window in buffer mode: partitions recomputed over surviving rows)"
        elif upstream.carried:  # over a fused chain's carry (codegen/fusion.py)
            partition.append(fusion.LIVE)
            where = S.or_(S.col(fusion.LIVE), S.not_null(S.col(fusion.DLQ)))
            window_note = " (over a fused chain: partitions of live rows apart)"
        scope.window = WindowContext(partition, list(w.sort_by), upstream.arrival())
    program: LoweredProgram = compile_cxl(node.cxl, lambda: _lower(node, scope, upstream,
                                                                     input_view))
    _log_checks(node, scope, upstream)
    eval_view, ok_view, err_view = (ctx.view(node.name, p) for p in ("eval", None, "errors"))

    # the node file's view: the input row (`*`) and one column per emit, ungated (CXL's
    # functions return NULL rather than fail, and only live rows are kept downstream); the
    # fault column `$err` is the machinery's, in `<node>.checked` over it
    items: list[tuple[exp.Expression, str]] = [(v.sql, out_name(n))
                                               for n, v in program.emits.items()]
    if steps.staged(program):
        items += steps.eval_items(program)
    else:
        items.append((program.keep if program.keep is not None else S.boolean(True), KEEP))
        items.append((error_struct(program, node.name), ERR))
    err = dict((n, e) for e, n in items).get(ERR)
    # no filter: every row is kept, which is the machinery's to say
    machinery = [(e, n) for e, n in items if n == KEEP and program.keep is None]
    items = [(e, n) for e, n in items if n != ERR and (e, n) not in machinery]
    if err is not None and upstream.carried:  # a row no longer live raises nothing new
        err = S.case([(S.col(fusion.LIVE), err)])
    if err is not None and input_view != upstream.view:  # nor does a retracted row
        err = S.case([(S.col("$retracted"), S.cast(S.null(), ERR_TYPE))], err)
    inputs = [n for n, _ in upstream.all_columns] + fusion.carried_columns(upstream)
    if err is not None:
        machinery.append((err, ERR))
    checked = ctx.view(node.name, "checked") if machinery else eval_view
    node_select, err_select, source = node_view.split_select(
        inputs, items, machinery, input_view, where)
    ctx.add(Statement("view", node.name, eval_view, render(
        "transform_eval.sql.j2", view=ident(eval_view), input=source,
        select_list=node_select, where=sql(where) if where is not None else None),
        header=f"transform {node.name}: the CXL, one column per emit{window_note}",
        layer=NODE_LAYER))
    if machinery:
        ctx.add(Statement("view", node.name, checked, render(
            "transform_checked.sql.j2", view=ident(checked), input=ident(eval_view),
            select_list=err_select),
            header=f"transform {node.name}: each row's first failure ($err), in statement "
                   "order"))
    # the error condition of the view the errors are read from (a distinct step adds its own)
    own_err = None if program.dedups else err
    if program.dedups:
        checked = steps.distinct_views(ctx, node.name, program, eval_view, upstream)

    columns = list(upstream.columns)
    names = [n for n, _ in columns]
    for name, t in program.columns.items():
        if name in names:
            columns[names.index(name)] = (name, t)
        else:
            columns.append((name, t))
            names.append(name)
    emitted = set(program.columns)
    ok_items = [(S.col(out_name(n)) if n in emitted else S.col(n), n) for n, _ in columns]
    ok_items += [(S.col(n), n) for n, _ in upstream.hidden]
    entry = dlq_select(
        source_name=S.col(SOURCE_NAME), source_file=S.col(SOURCE_FILE),
        source_row=S.col(SOURCE_ROW), order=S.col("$source.order"),
        field=_err_field("field"), value=_err_field("value"),
        category=_err_field("category"), detail=_err_field("detail"),
        stage=S.string(f"transform:{node.name}"), trigger=True,
        payload={n: to_cell(S.col(n), t) for n, t in upstream.columns + upstream.ck})
    error_view = ErrorView(err_view, node.name,
                           tuple(n for n, _ in upstream.columns + upstream.ck), 3, "CS002")
    relation = Relation(ok_view, tuple(columns), ck=upstream.ck, emitted=frozenset(emitted),
                        fan=upstream.fan or bool(program.blocks), widened=upstream.widened,
                        doc=upstream.doc)
    fuse_down = fusion.fuses_into_consumer(ctx, node)
    if upstream.carried or fuse_down:
        ctx.error_views.append(error_view)
        carry, carried = fusion.carry_view(ctx, node.name, checked, ok_items, entry,
                                           upstream.carried)
        if fuse_down:
            return replace(relation, view=carry, carried=carried)
        fusion.end_chain(ctx, node.name, carry, ok_items, carried)
        return relation
    if program.blocks:
        steps.fanout_view(ctx, node.name, program, checked, upstream, columns)
    else:
        ctx.add(Statement("view", node.name, ok_view, render(
            "transform_ok.sql.j2", view=ident(ok_view), eval=ident(checked),
            select_list=select_list(ok_items)), header=f"transform {node.name}: good rows"))
    ctx.add(Statement("view", node.name, err_view, render(
        "node_errors.sql.j2", view=ident(err_view), input=ident(checked),
        select_list=select_list(entry), condition=Sql(raised(own_err))),
        header=f"transform {node.name}: rows whose evaluation failed",
        step=counted_in(checked, raised(own_err))))
    ctx.error_views.append(error_view)
    return relation


def _lower(node: m.TransformNode, scope, upstream: Relation, input_view: str) -> LoweredProgram:
    # a bare `distinct` keys on every field of the input record: Clinker's record also
    # holds the engine-stamped $ck.*, $source.file and $source.name (not $source.row)
    record = [scope.columns[n] for n, _ in upstream.columns]
    record += [(S.col(n), t) for n, t in upstream.ck]
    record += [(S.col(SOURCE_FILE), T.STRING), (S.col(SOURCE_NAME), T.STRING)]
    program = lower_program(node.cxl.text, scope, fanout=True, record=record,
                            max_expansion=node.max_expansion)
    if program.dedups and input_view != upstream.view:
        d = program.dedups[0]
        raise CxlError("CS001", "distinct in a transform whose analytic window runs in buffer "
                       "mode (a retraction pipeline) is not supported: Clinker recomputes such "
                       "windows over surviving rows, and which row a distinct keeps would "
                       "depend on it", d.pos.line, d.pos.col)
    return program


def _log_checks(node: m.TransformNode, scope, upstream: Relation) -> None:
    """A `log:` directive emits nothing here, but Clinker checks it against the input row:
    a `fields` selector the row does not carry is E374, a condition must be one boolean
    predicate (E373 for more statements; a type error as in any CXL)."""
    names = [n for n, _ in upstream.columns + upstream.ck]
    for index, d in enumerate(node.log):
        for f in d.fields:
            if f not in names:
                near = difflib.get_close_matches(f, names, n=1)
                raise fail("E374", f"transform '{node.name}' log[{index}].fields requests "
                           f"'{f}', which the input record does not carry", d.loc,
                           f"write `fields: [{near[0]}]`" if near else
                           "request a column the input row declares")
        if d.condition is None:
            continue
        text = "filter " + d.condition.text
        statements = compile_cxl(d.condition, lambda: parse_program(text).statements)
        if len(statements) != 1:
            raise fail("E373", f"transform '{node.name}' log[{index}].condition must be one "
                       f"predicate, but it parses as {len(statements)} statements", d.loc,
                       "write the gate as a single expression")
        shifted = replace(d.condition, column=d.condition.column - len("filter "))
        compile_cxl(shifted, lambda: lower_program(text, scope))


def _window_checks(ctx: Context, node: m.TransformNode, upstream: Relation) -> bool:
    """Window diagnostics (E150, E150d) and whether the window runs in buffer mode."""
    w = node.analytic_window
    assert w is not None
    names = {n for n, _ in upstream.columns} | {c for c, _ in upstream.ck}
    for f in list(w.group_by) + [f for f, _ in w.sort_by]:
        if f not in names:
            raise fail("E150b", f"window of '{node.name}' uses '{f}', which its input does not "
                       "carry", w.loc)
    producer = ctx.pipeline.node(node.input.node)
    if isinstance(producer, m.CombineNode):  # a `match: collect` combine's arrays
        arrays = {n for n, t in upstream.columns if t.kind == "array"}
        try:
            body = {n.name for n in a.walk(parse_program(node.cxl.text))
                    if isinstance(n, a.Name)}
        except CxlError:  # reported where the program is compiled
            body = set()
        read = set(w.group_by) | {f for f, _ in w.sort_by} | body
        for f in sorted(arrays & read):
            raise fail("E150e", f"windowed transform '{node.name}' references field '{f}' "
                       "typed as Array; window builtin does not support array-typed field "
                       f"'{f}' from `match: collect` combine '{producer.name}'; flatten the "
                       "array upstream or use `match: first | all`", w.loc)
    ck_fields = [c for c, _ in upstream.ck]
    buffer_mode = needs_retraction(ctx.pipeline) and any(
        c.startswith("$ck.aggregate.") or c[len("$ck."):] not in w.group_by for c in ck_fields)
    if isinstance(producer, m.MergeNode):
        raise fail("E150d", f"the window of '{node.name}' is rooted at merge "
                   f"'{producer.name}'", w.loc)
    if isinstance(producer, m.SourceNode) and producer.config.correlation_key and \
            not buffer_mode:
        raise fail("E150", f"transform '{node.name}' uses an analytic window directly on "
                   f"source '{producer.name}', which declares a correlation_key", w.loc)
    return buffer_mode


def _err_field(name: str) -> exp.Expression:
    return exp.Dot(this=S.col(ERR), expression=S.ident(name))
