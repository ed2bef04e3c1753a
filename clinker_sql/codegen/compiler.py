"""The compiler: a sequence of small passes from a loaded pipeline to formatted
Spark SQL statements. `compile` never starts Spark."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import sqlglot

from clinker_sql import sqlbuild as S
from clinker_sql.codegen import run_identity, shared_values
from clinker_sql.codegen.aggregate import AggregatePlan, compile_aggregate
from clinker_sql.codegen.alternatives import add_alternatives
from clinker_sql.codegen.combine_chain import compile_combine
from clinker_sql.codegen.conditions import plain_conditions
from clinker_sql.codegen.context import Context
from clinker_sql.codegen.correlation import lattice
from clinker_sql.codegen.cull import compile_cull
from clinker_sql.codegen.dlq import TRIGGERS_VIEW, compile_commit
from clinker_sql.codegen.empty_dlq import plan_empty_dlq
from clinker_sql.codegen.lineage import column_lineage
from clinker_sql.codegen.materialize import plan_checkpoints
from clinker_sql.codegen.plan import Compiled, Relation, Statement
from clinker_sql.codegen.prune import mark_unread
from clinker_sql.codegen.records_copy import drop_row_wise_copies
from clinker_sql.codegen.reshape import compile_reshape
from clinker_sql.codegen.retraction import hoist, needs_retraction
from clinker_sql.codegen.route import compile_merge, compile_route
from clinker_sql.codegen.run_plan import DlqLimits, RateLimit, ViewStep, WriteStep
from clinker_sql.codegen.sink import SinkPlan, compile_sink, table_create_sql
from clinker_sql.codegen.source import compile_source
from clinker_sql.codegen.transform import compile_transform
from clinker_sql.config import model as m
from clinker_sql.config.checks import check_pipeline, resolve_port, upstream
from clinker_sql.config.sink_paths import resolve_sink_paths
from clinker_sql.cxl import functions, module_scope
from clinker_sql.cxl.modules import Modules, RulesSetting
from clinker_sql.diagnostics import fail

EMPTY_PROPAGATION_KEY = "spark.sql.adaptive.optimizer.excludedRules"
EMPTY_PROPAGATION_RULE = "org.apache.spark.sql.execution.adaptive.AQEPropagateEmptyRelation"

SESSION_SETTINGS = (
    ("spark.sql.ansi.enabled", "true"),
    ("spark.sql.caseSensitive", "true"),
    ("spark.sql.session.timeZone", "UTC"),
    ("spark.sql.csv.parser.columnPruning.enabled", "false"),
    ("spark.sql.mapKeyDedupPolicy", "LAST_WIN"),
    ("spark.sql.legacy.timeParserPolicy", "CORRECTED"),
    # never substitute ${...} inside user string literals
    ("spark.sql.variable.substitute", "false"),
    # a temporary view keeps its analyzed plan: Spark analyzes each view once instead of
    # parsing and analyzing its text again in every statement that reads it (the runner
    # redefines the readers of a view it replaces: runtime/runner.py, _Views)
    ("spark.sql.legacy.storeAnalyzedPlanForView", "true"),
    # a shuffle stage that ran empty must not take the observations before it out of the
    # final plan: their counts would be lost (runtime/runner.py, Dataset.observe); the
    # runner allows the rule again for a statement whose plan observes nothing
    # (`_Views.adaptive`)
    (EMPTY_PROPAGATION_KEY, EMPTY_PROPAGATION_RULE),
)


def dlq_limits(p: m.Pipeline) -> DlqLimits | None:
    """The DLQ rate ceilings the run checks (runtime/dlq_rate.py), `min_records` resolved:
    a source's own, else the pipeline's, else 100 (Clinker's DEFAULT_DLQ_MIN_RECORDS)."""
    dlq = p.error_handling.dlq
    if dlq is None:
        return None
    floor = dlq.limit.min_records if dlq.limit.min_records is not None else 100
    pipeline = RateLimit(dlq.limit.max_rate, floor) if dlq.limit.max_rate is not None \
        else None
    sources = {s: RateLimit(lim.max_rate, lim.min_records if lim.min_records is not None
                            else floor)
               for s, lim in dlq.per_source if lim.max_rate is not None}
    return DlqLimits(pipeline, sources) if pipeline or sources else None


def compile_pipeline(p: m.Pipeline, base: Path | None = None) -> Compiled:
    """`base`: the folder relative source paths resolve against, where the compiler reads
    the CSV sources' headers for their undeclared columns (codegen/unmapped.py); None
    reads no file. The CXL modules the pipeline imports are found in its workspace (the
    pipeline file's folder, as Clinker's default) and admitted for this compile only."""
    workspace = Path(p.file).parent
    with module_scope.admitted(Modules(RulesSetting(workspace, p.rules_path))):
        return _compile(p, base)


def _compile(p: m.Pipeline, base: Path | None) -> Compiled:
    p = resolve_sink_paths(p)
    order, warnings = check_pipeline(p, base)  # E-SEC-001 before any file is read
    compiled = Compiled(pipeline=p.name, file=p.file, strategy=p.error_handling.strategy,
                        warnings=warnings, dlq_limits=dlq_limits(p))
    ctx = Context(p, compiled, base=base)
    ctx.documents = _document_combines(p)
    for key, value in SESSION_SETTINGS:
        compiled.add(Statement("setup", None, key, f"SET {key}={value}"))
    for stmt in run_identity.declarations(p):  # $pipeline.execution_id, ...
        compiled.add(stmt)
    by_name = {n.name: n for n in p.nodes}
    retraction = needs_retraction(p)
    aggregates: list[AggregatePlan] = []
    sources: list[str] = []
    sinks: list[SinkPlan] = []
    for node in order:
        compiled.nodes.append({"name": node.name, "kind": node.kind,
                               "inputs": [str(r) for r in node.inputs]})
        if isinstance(node, m.SourceNode):
            ctx.relations[(node.name, None)] = compile_source(ctx, node, len(sources))
            sources.append(node.name)
        elif isinstance(node, m.TransformNode):
            upstream = _input(ctx, node, node.input, by_name)
            ctx.relations[(node.name, None)] = compile_transform(ctx, node, upstream)
        elif isinstance(node, m.RouteNode):
            compile_route(ctx, node, _input(ctx, node, node.input, by_name))
        elif isinstance(node, m.CullNode):
            compile_cull(ctx, node, _input(ctx, node, node.input, by_name))
        elif isinstance(node, m.ReshapeNode):
            upstream = _input(ctx, node, node.input, by_name)
            ctx.relations[(node.name, None)] = compile_reshape(ctx, node, upstream)
        elif isinstance(node, m.MergeNode):
            inputs = [_input(ctx, node, ref, by_name) for ref in node.merge_inputs]
            ctx.relations[(node.name, None)] = compile_merge(ctx, node, inputs)
        elif isinstance(node, m.CombineNode):
            inputs = [(q, _input(ctx, node, ref, by_name)) for q, ref in node.combine_inputs]
            ctx.relations[(node.name, None)] = compile_combine(ctx, node, inputs)
        elif isinstance(node, m.AggregateNode):
            upstream = _input(ctx, node, node.input, by_name)
            relation, plan = compile_aggregate(ctx, node, upstream,
                                               _several_documents(node, by_name))
            ctx.relations[(node.name, None)] = relation
            aggregates.append(plan)
        elif isinstance(node, m.SinkNode):
            sinks.append(compile_sink(ctx, node, _input(ctx, node, node.input, by_name)))
        else:
            raise fail("CS001", f"{node.kind} nodes are not supported by clinker-sql yet",
                       node.loc)
    compiled.error_views = list(ctx.error_views)
    # formatted first: the commit layer reads what each node statement reads
    compiled.statements = [_format(s) for s in compiled.statements]
    formatted = len(compiled.statements)
    compile_commit(ctx, sinks, sources, aggregates, retraction)
    compiled.aggregates = aggregates
    compiled.sources = sources
    statements = compiled.statements[:formatted] + [
        _format(s) for s in compiled.statements[formatted:]]
    if retraction:
        statements = hoist(statements)
    compiled.statements = mark_unread(drop_row_wise_copies(plan_checkpoints(statements)))
    if p.error_handling.strategy == "continue" and not retraction and not lattice(ctx):
        # the outputs do not depend on the DLQ: the writes may run first and tell whether
        # it is empty (codegen/empty_dlq.py)
        triggers = next(s for s in compiled.statements if s.name == TRIGGERS_VIEW)
        compiled.statements, compiled.dlq_witnesses, compiled.dlq_witnessed = \
            plan_empty_dlq(compiled.statements, list(triggers.reads))
    # for explain, lineage and the file headers: what each node (or route branch) offers
    compiled.relations = {f"{n}.{port}" if port else n: r
                          for (n, port), r in ctx.relations.items()}
    compiled.lineage = column_lineage(p, compiled, {s.node.name: s.columns for s in sinks})
    compiled.statements = _with_functions(compiled.statements)
    add_alternatives(compiled, EMPTY_PROPAGATION_KEY)  # after the run's own statements
    return compiled


def _with_functions(statements: list[Statement]) -> list[Statement]:
    """The statements, the library functions they call defined right after the session
    settings (with those the functions call, each after those it calls)."""
    names: set[str] = set()
    for stmt in statements:
        names |= functions.used_in_text(stmt.sql)
        step = stmt.step
        if isinstance(step, ViewStep):  # the alternative texts a run may define it with
            for text in (step.clean_groups.define if step.clean_groups else "",
                         step.few_files.sql if step.few_files else ""):
                names |= functions.used_in_text(text)
    at = next((i for i, s in enumerate(statements) if s.kind != "setup"), len(statements))
    defined = [Statement("function", None, fn.name, sql, header=fn.comment)
               for fn, sql in functions.definitions(names)]
    return statements[:at] + defined + statements[at:]


def _rewrite(tree: sqlglot.exp.Expression) -> sqlglot.exp.Expression:
    # Spark cannot call a SQL function inside a lambda: there the call is its body
    return shared_values.share(plain_conditions(functions.inline_in_lambdas(tree)))


def _several_documents(node: m.Node, by_name: dict[str, m.Node]) -> bool:
    """Whether a strict aggregate's input can span several documents (files): Clinker
    then keeps one group table per document (spec §2.9)."""
    sources = [n for n in upstream(by_name.values(), [r.node for r in node.inputs])
               if isinstance(n, m.SourceNode)]
    return len(sources) > 1 or any(s.config.path_kind != "path" for s in sources)


def _document_combines(p: m.Pipeline) -> set[str]:
    """The combines a strict aggregate grouping per document reads from: their rows keep
    their driver's document (`$doc`), as Clinker's combine does (spec §2.9)."""
    by_name = {n.name: n for n in p.nodes}
    found: set[str] = set()
    for node in p.nodes:
        if isinstance(node, m.AggregateNode) and _several_documents(node, by_name):
            found |= {n.name for n in upstream(p.nodes, [r.node for r in node.inputs])
                      if isinstance(n, m.CombineNode)}
    return found


def _input(ctx: Context, node: m.Node, ref: m.Ref, by_name: dict[str, m.Node]) -> Relation:
    producer = by_name[ref.node]
    port = resolve_port(node, ref, producer)
    return ctx.relations[(ref.node, port)]


def _format(stmt: Statement) -> Statement:
    """Check each statement with sqlglot and pretty-print it (Spark dialect)."""
    if stmt.kind in ("setup", "fixpoint", "checkpoint"):
        return stmt
    try:
        # a node file reads like the CXL: an emit's call on one line of the file's width
        body, reads = S.pretty_with_reads(stmt.sql, _rewrite, 100 if stmt.layer == "node" else 80)
    except sqlglot.errors.ParseError as exc:  # a compiler bug, never a user error
        raise RuntimeError(f"generated SQL for {stmt.name} does not parse: {exc}\n{stmt.sql}")
    stmt = replace(stmt, reads=reads)
    # the runner's other definitions of the view: when nothing is retracted before an
    # aggregate (codegen/one_pass.py), for a source of a few files (codegen/source.py)
    step = stmt.step
    if isinstance(step, ViewStep) and step.clean_groups:
        other = _format(replace(stmt, sql=step.clean_groups.define, step=ViewStep())).sql
        stmt = replace(stmt, step=replace(step, clean_groups=replace(step.clean_groups,
                                                                     define=other)))
    step = stmt.step
    if isinstance(step, ViewStep) and step.few_files:
        other = _format(replace(stmt, sql=step.few_files.sql, step=ViewStep())).sql
        stmt = replace(stmt, step=replace(step, few_files=replace(step.few_files, sql=other)))
    step = stmt.step
    if isinstance(step, WriteStep) and step.format == "table":
        return replace(stmt, sql=table_create_sql(step, body))
    if isinstance(step, WriteStep):
        fmt = "parquet" if step.format == "parquet" else "text"
        target = S.to_sql(S.string(step.staging))
        body = f"INSERT OVERWRITE DIRECTORY {target} USING {fmt}\n{body}"
    return replace(stmt, sql=body)
