"""The retraction protocol as SQL (spec §4.2, seeds/001).

Contract: the output equals a rerun with the failing source rows removed.
`$pipeline.retracted` holds what has been retracted so far: correlation cells
(source, key) and single rows (source, row); before the first pass it holds the
cells of the triggers that do not depend on it (`compile_seed`). Retraction-mode
aggregates (and buffer-mode windows) read their input through `<node>.input`,
which flags retracted rows; they recompute over the survivors. After a pass, every new
trigger retracts its cell, and an aggregate row that failed downstream retracts
its contributors (through the stable `$ck.aggregate.<name>` group index). The
runner repeats the pass until nothing new is retracted (a fixpoint); triggers
seen in earlier passes stay in the DLQ.
"""

from __future__ import annotations

from sqlglot import exp

from clinker_sql import sqlbuild as S
from clinker_sql.codegen.context import Context
from clinker_sql.codegen.names import (
    CANDIDATES,
    GROUP_INDEX as INDEX,
    RETRACTED,
    TRIGGERS_SEEN,
    aggregate_ck,
    index_key,
)
from clinker_sql.codegen.plan import (
    SOURCE_NAME,
    SOURCE_ROW,
    Relation,
    Statement,
    ck_cell,
    ck_column,
)
from clinker_sql.codegen.run_plan import FixpointStep
from clinker_sql.codegen.templates import Sql, ident, literal, render, sql
from clinker_sql.config import model as m

MAX_ITERATIONS = 20
MERGED = "<merged>"


def source_keys(pipeline: m.Pipeline) -> list[str]:
    keys: list[str] = []
    for node in pipeline.nodes:
        if isinstance(node, m.SourceNode):
            for f in node.config.correlation_key:
                if ck_column(f) not in keys:
                    keys.append(ck_column(f))
    return keys


def needs_retraction(pipeline: m.Pipeline) -> bool:
    has_ck = bool(source_keys(pipeline))
    return has_ck and any(isinstance(n, m.AggregateNode) for n in pipeline.nodes)


def dependent_views(statements: list[Statement]) -> set[str]:
    """The views whose rows depend on the retraction state: they read what is retracted
    or the triggers of earlier passes, directly or through other views (statements come
    in dependency order). Everything else is computed once, before the first pass."""
    out = {RETRACTED, TRIGGERS_SEEN}
    for stmt in statements:
        if stmt.kind == "view" and out.intersection(stmt.reads):
            out.add(stmt.name)
    return out


def compile_seed(ctx: Context, early: str) -> None:
    """`$pipeline.retracted` before the first pass: the cells (or rows) of the triggers
    raised before any retraction-mode node (`early`, the forward pass's failures).
    Clinker detects them before it recomputes anything, so the first pass already runs
    the nodes after the aggregate without them (spec §4.2: initial detect, then
    recompute, then dispatch)."""
    cells, rows = _trigger_cells(source_keys(ctx.pipeline), early)
    ctx.add(Statement("view", None, RETRACTED,
                      f"CREATE OR REPLACE TEMPORARY VIEW {ident(RETRACTED)} AS "
                      f"{sql(exp.union(cells, rows, distinct=True))}",
                      header="retraction: the first pass retracts the cells of the triggers "
                             "raised before any retraction-mode node"))


def hoist(statements: list[Statement]) -> list[Statement]:
    """Order the statements before the fixpoint so that everything independent of the
    retraction state runs first, then the seed, then the views the passes replay."""
    fix = next(i for i, s in enumerate(statements) if s.kind == "fixpoint")
    head = statements[:fix]
    dependent = dependent_views(head)

    def depends(stmt: Statement) -> bool:
        return stmt.name in dependent if stmt.kind == "view" else \
            bool(dependent.intersection(stmt.reads))

    seed = [s for s in head if s.kind == "view" and s.name == RETRACTED]
    return ([s for s in head if not depends(s)] + seed
            + [s for s in head if depends(s) and s not in seed] + statements[fix:])


def _normalized(rel: Relation, key: str, table: str) -> exp.Expression:
    present = dict(rel.ck)
    if key not in present:
        return S.cast(S.null(), "STRING")
    return ck_cell(S.col(key, table), present[key])


def retract_input(ctx: Context, node: str, upstream: Relation) -> str:
    """`<node>.input`: the upstream rows with a `$retracted` flag."""
    keys = source_keys(ctx.pipeline)
    view = ctx.view(node, "input")
    match = S.and_(S.eq(S.col(SOURCE_NAME, "cells"), S.col(SOURCE_NAME, "input")),
                   *[S.null_safe_eq(S.col(k, "cells"), _normalized(upstream, k, "input"))
                     for k in keys])
    ctx.add(Statement("view", node, view, render(
        "retraction_input.sql.j2", view=ident(view), input=ident(upstream.view),
        retracted=ident(RETRACTED), cell_match=sql(match),
        cell_columns=Sql(", ".join(ident(c) for c in [SOURCE_NAME] + keys))),
        header=f"{node}: input rows, flagged when retracted (chosen for speed: broadcast "
               "joins, the retracted cells are few)"))
    return view


def compile_candidates(ctx: Context, triggers: str, aggregates: list) -> None:
    keys = source_keys(ctx.pipeline)
    cells, rows = _trigger_cells(keys, triggers)
    parts = [Sql(f"SELECT * FROM {ident(RETRACTED)}"), Sql(sql(cells)), Sql(sql(rows))]
    for plan in aggregates:
        if plan.relaxed:
            parts.append(Sql(sql(_contributors(plan, keys, triggers))))
    ctx.add(Statement("view", None, CANDIDATES, render(
        "retraction_candidates.sql.j2", view=ident(CANDIDATES), parts=parts),
        header="retraction: what the next pass retracts"))


def first_pass_step(late: list[str], early_payloads: list[tuple[str, ...]],
                    aggregates: list) -> FixpointStep:
    """What lets the runner end the fixpoint without its query after the first pass:
    `late`, the error views computed again in every pass. When the first pass found none
    of their rows, its triggers are the early ones, whose cells and rows are exactly what
    the seed retracted (`compile_seed`), and the candidates add nothing new. That holds
    only if no early trigger names the group of a relaxed aggregate (its contributors
    would be retracted too): checked here on the early views' columns, not assumed."""
    groups = {aggregate_ck(plan.node) for plan in aggregates if plan.relaxed}
    if any(groups.intersection(columns) for columns in early_payloads):
        return FixpointStep()
    return FixpointStep(late=tuple(late))


def _trigger_cells(keys: list[str], triggers: str) -> tuple[exp.Select, exp.Select]:
    """What a trigger retracts: its correlation cell, or its own row when its key is
    empty. Declared-type rejections at ingest (stage `source`) retract nothing."""
    has_key = S.or_(*[S.not_(S.eq(S.fn("coalesce", S.col(k), S.string("")), S.string("")))
                      for k in keys])
    real = S.and_(exp.NEQ(this=S.col("_cxl_dlq_stage"), expression=S.string("source")))
    cells = exp.select(
        S.col("_cxl_dlq_source_name").as_(S.ident(SOURCE_NAME)),
        *[S.fn("nullif", S.col(k), S.string("")).as_(S.ident(k)) for k in keys],
        S.cast(S.null(), "BIGINT").as_(S.ident(SOURCE_ROW)),
    ).from_(exp.Table(this=S.ident(triggers))).where(S.and_(real, has_key))
    rows = exp.select(
        S.col("_cxl_dlq_source_name").as_(S.ident(SOURCE_NAME)),
        *[S.cast(S.null(), "STRING").as_(S.ident(k)) for k in keys],
        S.col("_cxl_dlq_source_row").as_(S.ident(SOURCE_ROW)),
    ).from_(exp.Table(this=S.ident(triggers))).where(S.and_(
        real, S.not_(has_key),
        exp.NEQ(this=S.col("_cxl_dlq_source_name"), expression=S.string(MERGED))))
    return cells, rows


def _contributors(plan, keys: list[str], triggers: str) -> exp.Expression:
    """Rows that fed an aggregate row which failed downstream: their cells, or themselves."""
    ck_name = aggregate_ck(plan.node)
    failed = exp.select(S.cast(S.col(ck_name), "BIGINT").as_(S.ident("idx"))).distinct().from_(
        exp.Table(this=S.ident(triggers))).where(S.not_null(S.col(ck_name)))
    has_key = S.or_(*[S.not_null(S.col(k, "e")) for k in plan.input_ck if k in keys]) \
        if any(k in keys for k in plan.input_ck) else S.boolean(False)
    key_values = [(S.case([(has_key, S.col(k, "e"))]) if k in plan.input_ck
                   else S.cast(S.null(), "STRING")) for k in keys]
    # the failed groups' keys first (the index is small, the failures few), then the input
    # rows of those groups by a broadcast semi-join: when no aggregate row failed, Spark
    # sees an empty broadcast and does not evaluate the aggregate's input at all
    failed_keys = exp.select(*[S.col(index_key(j), "i").as_(S.ident(index_key(j)))
                               for j in range(len(plan.keys))] or [S.boolean(True)]).from_(
        exp.Table(this=S.ident(f"{plan.node}.index"), alias=exp.TableAlias(this=S.ident("i")))
    ).join(exp.Subquery(this=failed, alias=exp.TableAlias(this=S.ident("f"))),
           on=S.eq(S.col("idx", "f"), S.col(INDEX, "i")))
    key_match = S.and_(*[S.null_safe_eq(S.col(k, "e"), S.col(index_key(j), "h"))
                         for j, k in enumerate(plan.keys)]) if plan.keys else S.boolean(True)
    select = exp.select(
        S.col(SOURCE_NAME, "e").as_(S.ident(SOURCE_NAME)),
        *[S.fn("nullif", S.cast(v, "STRING"), S.string("")).as_(S.ident(k))
          for k, v in zip(keys, key_values)],
        S.case([(has_key, S.cast(S.null(), "BIGINT"))], S.col(SOURCE_ROW, "e")).as_(
            S.ident(SOURCE_ROW)),
    ).from_(exp.Table(this=S.ident(plan.eval_view), alias=exp.TableAlias(this=S.ident("e"))))
    select = select.join(exp.Subquery(this=failed_keys, alias=exp.TableAlias(this=S.ident("h"))),
                         on=key_match, join_type="LEFT SEMI")
    select.set("hint", exp.Hint(expressions=[exp.JoinHint(
        this="BROADCAST", expressions=[exp.Table(this=S.ident("h"))])]))
    return select


def iteration_statements(k: int, scratch: str) -> list[str]:
    """One step of the fixpoint: freeze the triggers seen so far and what is retracted.

    The snapshots are written as Parquet and read back, so that the next pass does
    not reference the views being redefined (Spark would see a recursive view)."""
    seen_path = literal(f"{scratch}/triggers_seen_{k}")
    retracted_path = literal(f"{scratch}/retracted_{k}")
    return [
        f"INSERT OVERWRITE DIRECTORY {seen_path} USING parquet "
        f"SELECT * FROM {ident('$pipeline.triggers')}",
        f"INSERT OVERWRITE DIRECTORY {retracted_path} USING parquet "
        f"SELECT DISTINCT * FROM {ident(CANDIDATES)}",
        f"CREATE OR REPLACE TEMPORARY VIEW {ident(TRIGGERS_SEEN)} USING parquet "
        f"OPTIONS (path {seen_path})",
        f"CREATE OR REPLACE TEMPORARY VIEW {ident(RETRACTED)} USING parquet "
        f"OPTIONS (path {retracted_path})",
    ]


# lz4: a copy is read back within the run; it spends ~10% less time than snappy
# (transform_chain, 1M rows) and stays compressed in the scratch folder
CHECKPOINT_CODEC = "lz4"


def checkpoint_path(view: str, scratch: str, suffix: str = "") -> str:
    """Where the runner copies `view` in its scratch folder."""
    import hashlib
    import uuid

    tag = hashlib.sha1(view.encode()).hexdigest()[:12]
    if suffix:  # a new snapshot of a view redefined in a later pass
        tag += "_" + uuid.uuid4().hex[:8]
    return f"{scratch}/checkpoint_{tag}"


def checkpoint_statements(view: str, scratch: str, suffix: str = "") -> list[str]:
    path = checkpoint_path(view, scratch, suffix)
    return [f"INSERT OVERWRITE DIRECTORY {literal(path)} USING parquet OPTIONS "
            f"('compression'={literal(CHECKPOINT_CODEC)}) SELECT * FROM {ident(view)}",
            copy_view_statement(view, path)]


def copy_view_statement(view: str, path: str) -> str:
    """`view` redefined over its copy at `path`."""
    return f"CREATE OR REPLACE TEMPORARY VIEW {ident(view)} USING parquet OPTIONS " \
           f"(path {literal(path)})"


def empty_copy_statements(view: str) -> tuple[str, str]:
    """Whether a copy has a row, and the definition that replaces an empty one: the same
    columns as a relation Spark knows to be empty (`LIMIT 0` over the copy), so that the
    plans reading it drop it (an anti-join with it, a union branch, a join that adds
    nothing) instead of scanning their other inputs for nothing."""
    return (f"SELECT 1 AS hit FROM {ident(view)} LIMIT 1",
            f"CREATE OR REPLACE TEMPORARY VIEW {ident(view)} AS "
            f"SELECT * FROM {ident(view)} LIMIT 0")


def news_sql() -> str:
    """A row when the candidates hold something not retracted yet: the pass found new
    triggers (the candidates contain every retracted cell, so an empty difference is the
    fixpoint; EXCEPT compares NULLs as equal)."""
    return (f"SELECT 1 AS new FROM (SELECT * FROM {ident(CANDIDATES)} EXCEPT "
            f"SELECT * FROM {ident(RETRACTED)}) AS t LIMIT 1")
