"""Correlation keys at commit (spec §4.1): dirty groups, per-source narrowing,
group overflow, and the collateral DLQ entries they produce.

Every record a sink receives is a member of the commit buffer. A trigger marks
its (source, key) cell dirty; members of a dirty cell are not written and
become `correlated` collaterals. Keys are compared as normalized text (null and
'' count as null); a key whose every part is null is a group of one.
"""

from __future__ import annotations

from dataclasses import replace

from sqlglot import exp

from clinker_sql import sqlbuild as S
from clinker_sql.codegen.context import Context
from clinker_sql.codegen.dlq_shape import dlq_select
from clinker_sql.codegen.materialize import checkpoint
from clinker_sql.codegen.names import (
    CK_BIG as BIG,
    CK_COLLATERAL as COLLATERAL,
    CK_DIRTY as DIRTY,
    CK_MEMBERS as MEMBERS,
    CK_OVERFLOW as OVERFLOW,
)
from clinker_sql.codegen.plan import SOURCE_FILE, SOURCE_NAME, SOURCE_ROW, Statement, ck_cell
from clinker_sql.codegen.run_plan import ViewStep
from clinker_sql.codegen.sink import SinkPlan
from clinker_sql.codegen.templates import Sql, ident, render, select_list, sql
from clinker_sql.codegen.written import distinct_records
from clinker_sql.config.checks import upstream
from clinker_sql.cxl.text import to_cell



def lattice(ctx: Context) -> list[str]:
    out: list[str] = []
    for relation in ctx.relations.values():
        for name, _ in relation.ck:
            if name not in out:
                out.append(name)
    return out


def _has_key(keys: list[str], table: str | None = None) -> exp.Expression:
    return S.or_(*[S.not_null(S.col(k, table)) for k in keys])


def _match(keys: list[str], left: str, right: str, with_source: bool,
           merged: bool = False) -> Sql:
    conds = [S.null_safe_eq(S.col(k, left), S.col(k, right)) for k in keys]
    if with_source:
        conds.insert(0, _same_source(left, right, merged))
    return Sql(sql(S.and_(*conds)))


def _same_source(dirty: str, rows: str, merged: bool) -> exp.Expression:
    """Per-source narrowing; '<merged>' rows (combine and aggregate output) are never spared."""
    same = S.eq(S.col(SOURCE_NAME, dirty), S.col(SOURCE_NAME, rows))
    if not merged:
        return same
    return S.or_(same, S.eq(S.col(SOURCE_NAME, rows), S.string("<merged>")))


def _has_combine(ctx: Context) -> bool:
    """Whether any row can be '<merged>' (a combine or aggregate output)."""
    return any(n.kind in ("combine", "aggregate") for n in ctx.pipeline.nodes)


def _sketch_bound(ctx: Context, limit: int) -> dict | None:
    """How a local run may know `$pipeline.ck_big` is empty without counting the groups
    (runtime/runner.py, `_Views.largest_group`): each correlated source's rows are counted
    per key into a count-min sketch while they are read (`ViewStep.ck_sketch`). When no
    two records the sinks receive share a row identity (`written.distinct_records`), a
    group of key `c` holds at most the rows of `c` (a sketch never counts a key short, so
    at most the largest cells of the sketches summed) and, for each aggregate, at most as
    many of its rows: each of those has rows of `c` in its group, and no two share one.
    An aggregate's own group number (`$ck.aggregate.<node>`, the retraction path) keys one
    record. So the bound is the summed cells times one plus the number of aggregates
    (`factor`), provided no aggregate reads another's rows (that one could repeat a
    group number). None with a combine (its rows carry the keys of both sides), when the
    records may repeat a row, or when a check may stop reading the rows early
    (`fail_fast`)."""
    if ctx.pipeline.error_handling.strategy != "continue":
        return None
    nodes = ctx.pipeline.nodes
    if any(n.kind == "combine" for n in nodes) or not distinct_records(ctx):
        return None
    aggregates = [n for n in nodes if n.kind == "aggregate"]
    for agg in aggregates:
        if any(u.kind == "aggregate" for u in upstream(nodes, [r.node for r in agg.inputs])):
            return None
    sketches = {s.step.observed: s.step.ck_sketch for s in ctx.compiled.statements
                if isinstance(s.step, ViewStep) and s.step.ck_sketch}
    if not sketches:
        return None
    return {"limit": limit, "sketches": sketches, "factor": 1 + len(aggregates)}


def compile_correlation(ctx: Context, sinks: list[SinkPlan], triggers_view: str,
                        payload: list[str], sink_layouts: dict[str, int]) -> dict[str, str]:
    """Adds the commit-layer views; returns sink name -> view of its clean records."""
    keys = lattice(ctx)
    carried = [k for k in keys if k in payload]  # a key no trigger carries is null there
    key_values = [S.fn("nullif", S.col(k), S.string("")) if k in carried
                  else S.cast(S.null(), "STRING") for k in keys]
    key_items = Sql(",\n  ".join(f"{sql(v)} AS {ident(k)}" for v, k in zip(key_values, keys)))
    ctx.add(Statement("view", None, DIRTY, render(
        "ck_dirty_groups.sql.j2", view=ident(DIRTY), keys=key_items,
        triggers=ident(triggers_view),
        has_key=sql(S.or_(*[S.not_(S.fn("coalesce", S.col(k), S.string("")).eq(S.string("")))
                            for k in carried]))),
        header="correlation: (source, key) cells that hold a trigger"))

    parts = []
    for i, plan in enumerate(sinks):
        rel = plan.relation
        present = dict(rel.ck)
        items: list[tuple[exp.Expression, str]] = [
            (S.bigint(i), "$sink"), (S.bigint(sink_layouts[plan.node.name]), "$layout")]
        items += [(S.col(h), h) for h in (SOURCE_NAME, SOURCE_FILE, SOURCE_ROW, "$source.order")]
        for k in keys:
            value = ck_cell(S.col(k), present[k]) \
                if k in present else S.cast(S.null(), "STRING")
            items.append((value, k))
        record = dict(rel.columns)
        for c in payload:
            if c in keys:
                continue
            items.append((to_cell(S.col(c), record[c]) if c in record
                          else S.cast(S.null(), "STRING"), f"$payload.{c}"))
        parts.append(Sql(f"{select_list(items)}\nFROM {ident(rel.view)}"))
    ctx.add(Statement("view", None, MEMBERS, render("ck_members.sql.j2", view=ident(MEMBERS),
                                                     parts=parts),
                      header="correlation: every record that reached a sink"))

    limit = ctx.pipeline.error_handling.max_group_buffer
    ctx.add(Statement("view", None, BIG, render(
        "ck_big_groups.sql.j2", view=ident(BIG), key_names=Sql(", ".join(
            ident(k) for k in keys)), members=ident(MEMBERS), has_key=sql(_has_key(keys)),
        limit=sql(S.small_int(limit))),
        header=f"correlation: the keys of the groups over max_group_buffer ({limit})"))
    big = checkpoint(BIG, None, "the group sizes are counted once for every commit and "
                     "the collateral entries", failures=True)
    bound = _sketch_bound(ctx, limit)
    if bound is not None:
        big = replace(big, step=replace(big.step, bound=bound), header=(
            f"{big.header}; a local run first bounds the groups by a sketch of each "
            "correlated source's keys, counted while its rows are read, and makes no copy "
            "when no group can exceed the buffer"))
    ctx.add(big)
    ctx.add(Statement("view", None, OVERFLOW, render(
        "ck_overflow_groups.sql.j2", view=ident(OVERFLOW),
        keys=Sql(", ".join(f"members.{ident(k)}" for k in keys)), members=ident(MEMBERS),
        big=ident(BIG), big_match=_match(keys, "big", "members", with_source=False)),
        header=f"correlation: groups over max_group_buffer ({limit}), with their first "
               "record"))
    ctx.add(checkpoint(OVERFLOW, None, "the first records are found once for every commit "
                       "and the collateral entries", failures=True))

    # A trigger whose key is null is a group of its own source row (Clinker keys its
    # buffer cell by the row): every other record of that row (emit each siblings, route
    # copies) is dropped with it, without a collateral entry.
    no_key = S.not_(S.or_(*[S.not_(S.fn("coalesce", S.col(k), S.string("")).eq(S.string("")))
                            for k in carried])) if carried else S.boolean(True)
    row_cells = exp.select(S.col("_cxl_dlq_source_name").as_(S.ident(SOURCE_NAME)),
                           S.col("_cxl_dlq_source_row").as_(S.ident(SOURCE_ROW))).distinct(
    ).from_(exp.Table(this=S.ident(triggers_view))).where(S.and_(
        exp.NEQ(this=S.col("_cxl_dlq_stage"), expression=S.string("source")), no_key,
        exp.NEQ(this=S.col("_cxl_dlq_source_name"), expression=S.string("<merged>"))))
    commits: dict[str, str] = {}
    for plan in sinks:
        rel = plan.relation
        present = dict(rel.ck)
        view = ctx.view(plan.node.name, "commit")
        row_keys = {k: (ck_cell(S.col(k, "rows"), present[k])
                        if k in present else S.cast(S.null(), "STRING")) for k in keys}
        dirty_match = S.and_(_same_source("dirty", "rows", _has_combine(ctx)),
                             *[S.null_safe_eq(S.col(k, "dirty"), v) for k, v in row_keys.items()])
        overflow_match = S.and_(*[S.null_safe_eq(S.col(k, "overflow"), v)
                                  for k, v in row_keys.items()])
        ctx.add(Statement("view", plan.node.name, view, render(
            "ck_commit.sql.j2", view=ident(view), rows=ident(rel.view), dirty=ident(DIRTY),
            overflow=ident(OVERFLOW), dirty_match=sql(dirty_match), dirty_rows=sql(row_cells),
            overflow_match=sql(overflow_match)),
            header=f"sink {plan.node.name}: records of clean correlation groups (chosen for "
                   "speed: broadcast anti-joins, the dirty and overflowing cells are small; "
                   "benchmarks/dirty_groups.py)"))
        commits[plan.node.name] = view

    first = exp.Dot(this=S.col("$first"), expression=S.ident("r"))
    is_first = S.and_(S.not_null(S.col("$first")),
                      S.eq(exp.Dot(this=S.col("$first"), expression=S.ident("s")),
                           S.col(SOURCE_NAME)),
                      S.eq(first, S.col(SOURCE_ROW)))
    overflow_trigger = S.and_(S.not_(S.col("$dirty")), is_first)
    entry = dlq_select(
        source_name=S.col(SOURCE_NAME), source_file=S.col(SOURCE_FILE),
        source_row=S.col(SOURCE_ROW), order=S.col("$source.order"),
        field=S.cast(S.null(), "STRING"), value=S.cast(S.null(), "STRING"),
        category=S.case([(overflow_trigger, S.string("group_size_exceeded"))],
                        S.string("correlated")),
        detail=S.case([(overflow_trigger, S.string(
            f"correlation group exceeds max_group_buffer ({limit})"))],
            S.string("correlated with failure in group")),
        stage=S.string("correlation_commit"), trigger=False,
        payload={c: S.col(c if c in keys else f"$payload.{c}") for c in payload},
        extra={"$layout": S.col("$layout")})
    entry = [(S.case([(overflow_trigger, S.boolean(True))], S.boolean(False)), n)
             if n == "_cxl_dlq_trigger" else (e, n) for e, n in entry]
    ctx.add(Statement("view", None, COLLATERAL, render(
        "ck_collateral.sql.j2", view=ident(COLLATERAL), parts=parts,
        dirty=ident(DIRTY), overflow=ident(OVERFLOW), triggers=ident(triggers_view),
        dirty_match=_match(keys, "dirty", "members", True, _has_combine(ctx)),
        overflow_match=_match(keys, "overflow", "members", False),
        select_list=select_list(entry)),
        header="correlation: collateral DLQ entries (chosen for speed: broadcast joins of "
                   "the small dirty and overflow cells; only the rows of hit groups are ranked)"))
    return commits
