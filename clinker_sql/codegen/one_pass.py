"""A retraction aggregate over a fused chain: its groups and the chain's failing rows in
one pass (called by `aggregate.compile_aggregate`).

A fused chain's failing rows are a copy of their own (`<chain>.failed`, codegen/fusion.py):
one evaluation of the chain over its source. A retraction aggregate reading the chain's
good rows evaluates the chain again, after the failures are known, because a failing row
retracts its correlation group's contributions (codegen/retraction.py). Parsing the
source is most of each pass: two passes where the job written by hand makes one.

Most runs retract nothing. So the first pass computes both at once, `<node>.spec`, copied:
each failing row as a group of its own (its entry as JSON, as a split write keeps it,
codegen/split_write.py) and every good row in its group, as if nothing were retracted.
The chain's failing rows are read from that copy, which counts them as it is written (a
local run): they need no copy of their own (`CheckpointStep.counts`). When the triggers
raised before any retraction-mode node turn out empty, nothing is retracted in the first
pass, and the runner defines `<node>.final` over the groups of that copy
(`<node>.spec_groups`) instead of a second pass (runtime/runner.py,
`ViewStep.clean_groups`). Otherwise `<node>.final` is computed as before, and each later
retraction pass computes it again.

A failing row's arguments are not evaluated (`CASE WHEN $dlq IS NULL`): its values may be
anything the chain left there.
"""

from __future__ import annotations

from dataclasses import replace

from sqlglot import exp

from clinker_sql import sqlbuild as S
from clinker_sql.codegen.context import Context
from clinker_sql.codegen.fusion import DLQ, DLQ_TYPE, LIVE
from clinker_sql.codegen.materialize import checkpoint
from clinker_sql.codegen.names import FAIL, FAIL_ENTRY as ENTRY
from clinker_sql.codegen.plan import Statement
from clinker_sql.codegen.run_plan import CleanGroups, ViewStep
from clinker_sql.codegen.templates import Sql, ident, is_column, render, select_list, sql
from clinker_sql.codegen.transform import ERR, KEEP



def chain_failures_with_groups(ctx: Context, node: str, chain_ok: str, eval_items: list,
                               keys: list[str], group_items: list,
                               finalize: tuple[str, list[exp.Expression]]) -> str | None:
    """`group_items`: the key columns, then each binding's value and `$first`;
    `finalize`: the aggregate's view of failed finalizes and the conditions of its faults
    (over the group columns), which the copy counts for the groups read when nothing is
    retracted (`_finalize_count`).

    Add `<node>.spec` (copied) before the chain's failing rows and read those from it;
    add `<node>.spec_groups`, its groups shaped as `<node>.groups`, and return its name
    (None when `chain_ok` is not a fused chain's good rows)."""
    end = ctx.chain_ends.get(chain_ok)
    if end is None:
        return None
    carry, failed = end
    statements = ctx.compiled.statements
    at = next((i for i, s in enumerate(statements) if s.kind == "view" and s.name == failed),
              None)
    if at is None:
        return None
    spec = ctx.view(node, "spec")
    good = S.is_null(S.col(DLQ))
    failing = S.not_null(S.col(DLQ))
    inner = [(e if is_column(e, n) else S.case([(good.copy(), e)]), n) for e, n in eval_items]
    inner += [(S.case([(failing.copy(), S.fn("monotonically_increasing_id"))]), FAIL),
              (S.case([(failing.copy(), S.fn("to_json", S.col(DLQ)))]), ENTRY)]
    body = render(
        "aggregate_spec.sql.j2", view=ident(spec), carry=ident(carry),
        inner_list=select_list(inner), select_list=select_list(
            group_items + [(S.col(FAIL), FAIL), (S.col(ENTRY), ENTRY)]),
        rows=sql(S.or_(S.col(LIVE), failing.copy())),
        where=sql(S.or_(S.not_null(S.col(FAIL)), S.and_(S.is_null(S.col(ERR)), S.col(KEEP)))),
        group_by=Sql(", ".join(ident(k) for k in keys + [FAIL, ENTRY])))
    added = [Statement("view", node, spec, body,
                       header=f"aggregate {node}: one pass over the fused chain before it "
                              f"({carry}): its failing rows, each a group of its own, and "
                              "its good rows' groups as if nothing were retracted "
                              "(codegen/one_pass.py)"),
             _counting(checkpoint(spec, node, f"one pass gives {failed} and, when nothing "
                                              f"is retracted, the groups of {node}"), failed,
                       _finalize_count(finalize, keys + [c for _, c in group_items]))]
    entry = S.fn("from_json", S.col(ENTRY), S.string(DLQ_TYPE))
    # counted by the spec's copy
    statements[at] = replace(statements[at], step=ViewStep(), sql=render(
        "carry_filter.sql.j2", view=ident(failed), carry=ident(spec),
        select_list=select_list([(entry, DLQ)]), condition=sql(S.not_null(S.col(FAIL)))),
        header=statements[at].header + f" (read from {spec})")
    statements[at:at] = added
    groups = ctx.view(node, "spec_groups")
    items = [(S.col(c), c) for _, c in group_items]  # the keys first, as in the groups
    items.append((S.boolean(True), LIVE))
    ctx.add(Statement("view", node, groups, render(
        "carry_filter.sql.j2", view=ident(groups), carry=ident(spec),
        select_list=select_list(items), condition=sql(S.is_null(S.col(FAIL)))),
        header=f"aggregate {node}: the groups of {spec}, as if nothing were retracted "
               f"(read for {ctx.view(node, 'final')} when nothing is)"))
    return groups


def clean_groups_step(final_sql: str, groups: str, unless: str, spec: str,
                      finalize_errors: str) -> ViewStep:
    """`<node>.final`'s step: its definition over `groups` (`<node>.spec_groups`), which
    the runner uses when `unless` (the early triggers) was found empty; then the rows of
    `finalize_errors` are those the copy of `spec` counted (when it did)."""
    return ViewStep(clean_groups=CleanGroups(final_sql, (unless,), spec, (finalize_errors,)),
                    also_reads=(groups,))


def _finalize_count(finalize: tuple[str, list[exp.Expression]], columns: list[str]
                    ) -> dict[str, str]:
    """The count of the groups whose finalize fails, over the copy's good groups: only
    when every fault condition reads the copy's columns (no qualifier, nothing computed
    in `<node>.final` itself); else nothing is counted."""
    view, conditions = finalize
    conditions = [c.copy() for c in conditions]
    for c in conditions:
        for column in c.find_all(exp.Column):
            column.set("table", None)
    if any(col.name not in columns for c in conditions for col in c.find_all(exp.Column)):
        return {}
    fails = S.or_(*conditions) if conditions else S.boolean(False)
    return {view: S.to_sql(S.fn("count_if", S.and_(S.is_null(S.col(FAIL)), fails)))}


def _counting(copy: Statement, failed: str, more: dict[str, str]) -> Statement:
    """The copy counts the chain's failing rows as it is written (a local run): `failed`
    is then defined over it with no copy of its own, or as empty (runtime/runner.py);
    `more`: other views' rows it counts."""
    count = S.fn("count_if", S.not_null(S.col(FAIL)))
    return replace(copy, step=replace(copy.step, counts={failed: S.to_sql(count), **more}),
                   sql=copy.sql + f"\n-- it counts the rows of {failed} as it writes them: "
                                  "the runner then makes no copy of those" + "".join(
                       f"\n-- and the rows {v} has when nothing is retracted" for v in more))
