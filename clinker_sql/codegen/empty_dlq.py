"""Knowing that the DLQ is empty without computing it (a compiler pass).

The DLQ is the union of every node's error view, and computing it is a pass of its own
over the data: a fused chain's failing rows are one more evaluation of the chain (at 1M
rows, 0 bad, transform_chain spent 3.7 s of 13.8 s writing no rows). When the outputs do
not depend on the DLQ (no correlation key, no retraction, `strategy: continue`), the
writes can run first and count, as they go, the rows that would fail
(`Dataset.observe`); when every count is 0, the DLQ is empty and its pass is skipped.

For each error view the pass looks for a *witness*: a view that the output writes (or the
copies made before them, such as a combine's build side) read in full, and a condition on its rows, such that no row meeting the condition means no DLQ
entry. An error view is a filter (`SELECT ... FROM x WHERE c`); when the writes do not read
`x` (a fused chain's failing rows), `x` is itself a filter or a projection of a view `y`,
or `y` joined with others with `y` as the driving side (a combine's failing driver rows
joined with the build side), and so on: an empty `y WHERE c'` leaves `x` empty, and the
error view with it. When some error view has no witness (an aggregate or a union on the
way, a condition the writes do not see), nothing is planned and the run computes the DLQ
before the writes, as always.

The plan: each witness view with the condition to count (`Compiled.dlq_witnesses`), each
error view's own witness (`Compiled.dlq_witnessed`), and the checkpoints that only the DLQ
needs (`CheckpointStep.after_writes`), which the runner makes after the writes, or not at all when
the DLQ is empty (runtime/runner.py). When some error views met rows and others did not,
the runner defines the others as empty before the DLQ's pass, so that the pass computes
only the error views that have entries (a combine's faults without a scan of the driver's
source for type errors, a source's type errors without a window's shuffle).
"""

from __future__ import annotations

from dataclasses import replace

import sqlglot
from sqlglot import exp

from clinker_sql import sqlbuild as S
from clinker_sql.codegen import shared_values
from clinker_sql.codegen.plan import Statement
from clinker_sql.codegen.run_plan import WriteStep



def plan_empty_dlq(statements: list[Statement], error_views: list[str]
                   ) -> tuple[list[Statement], dict[str, str], dict[str, list[str]]]:
    """The statements (DLQ-only checkpoints marked), the witnesses (view -> condition, SQL
    over the view's columns) and each witnessed error view's own (witness view, condition):
    when only some error views meet rows, the runner computes only those. No witnesses:
    the statements are returned as they are."""
    defs = {s.name: s for s in statements if s.kind == "view"}
    writes = [r for s in statements if isinstance(s.step, WriteStep) and not s.step.dlq
              for r in s.reads]
    checks = [r for s in statements if s.kind == "check" for r in s.reads]
    # a copy the writes need, directly or to make another copy they need, is made first
    first = _upstream(writes + checks, defs, set())
    copied = {s.name for s in statements if s.kind == "checkpoint"}
    # what the writes and the copies made before them read in full
    scanned = _upstream(writes, defs, copied) | _upstream(
        [r for s in statements if s.kind == "checkpoint" and s.name in first
         for r in defs[s.name].reads if s.name in defs], defs, copied)
    found: dict[str, list[str]] = {}
    witnessed: dict[str, list[str]] = {}
    for view in error_views:
        witness = _witness(view, defs, scanned)
        if witness is None:
            return statements, {}, {}
        if witness[1] == "FALSE":  # a filter that keeps nothing (a node that cannot fail)
            continue
        witnessed[view] = list(witness)
        conditions = found.setdefault(witness[0], [])
        if witness[1] not in conditions:
            conditions.append(witness[1])
    if set(found) & _upstream(checks, defs, copied):
        return statements, {}, {}  # a check may stop reading early: its count is short
    witnesses = {v: " OR ".join(f"({c})" for c in cs) if len(cs) > 1 else cs[0]
                 for v, cs in found.items()}
    watched = ", ".join(witnesses)
    out = []
    for s in statements:
        if s.kind == "checkpoint" and s.name not in first:
            s = replace(s, step=replace(s.step, after_writes=True), header=(
                f"{s.header}; made after the writes, and only when they met a row that "
                f"fails in {watched} (codegen/empty_dlq.py)"))
        elif s.kind == "report":
            s = replace(s, header=(f"{s.header}, after the writes: they count the rows that "
                                   f"fail in {watched}, and with none the DLQ is empty and "
                                   "not computed (codegen/empty_dlq.py)"))
        out.append(s)
    return out, witnesses, witnessed


def _upstream(reads: list[str], defs: dict[str, Statement], copied: set[str]) -> set[str]:
    """The views planned by statements that read `reads`: through every view they read,
    but not past a view in `copied` (a copy is read as it is)."""
    stack = list(reads)
    seen: set[str] = set()
    while stack:
        name = stack.pop()
        if name in seen or name not in defs:
            continue
        seen.add(name)
        if name not in copied:
            stack += defs[name].reads
    return seen


def _witness(view: str, defs: dict[str, Statement], scanned: set[str]
             ) -> tuple[str, str] | None:
    """(a view the writes read, a condition on its rows) such that no row meeting the
    condition means no row in `view`, or None."""
    name = view
    while True:
        shape = _rows_of(defs.get(name))
        if shape is None:
            return None
        source, where = shape
        if source in scanned:  # a condition to count on it, or no witness
            return (source, where) if where is not None else None
        name = source  # `name` is empty when no row of `source` meets `where`


def _rows_of(stmt: Statement | None) -> tuple[str, str | None] | None:
    """When every row of the view comes from a row of one view it reads: (that view, the
    condition its rows must meet, or None when there is none to state). A filter or a
    projection of one view gives its WHERE; a view whose FROM is joined with others (inner,
    left, semi, anti or cross: no row without a FROM row) gives None (its rows need more
    than a condition on the FROM rows), as does one whose FROM is a subquery of this shape.
    No grouping, union or generator; None for any other view."""
    if stmt is None:
        return None
    tree = sqlglot.parse_one(stmt.sql, read=S.DIALECT)
    query = tree.expression if isinstance(tree, exp.Create) else None
    found = _driven_by(query)
    if found is None or found[0] not in stmt.reads:
        return None
    return found


def _driven_by(query: exp.Expression | None) -> tuple[str, str | None] | None:
    if not isinstance(query, exp.Select) or not isinstance(query.args.get("from_"), exp.From):
        return None
    if any(query.args.get(k) for k in ("group", "having", "laterals", "with")):
        return None
    if any(not agg.find_ancestor(exp.Window) for agg in query.find_all(exp.AggFunc)):
        return None  # an aggregate makes rows out of none
    joins = query.args.get("joins") or []
    if any(j.side not in ("", "LEFT") or j.side == "" and j.kind not in ("", "INNER", "CROSS",
                                                                           "SEMI", "ANTI")
           for j in joins):
        return None  # a right or full join makes rows out of the other side
    unshared = shared_values.unshared(query)
    if unshared is not None:  # values moved below by a pass: the shape before it
        return _driven_by(unshared)
    source = query.args["from_"].this
    if isinstance(source, exp.Subquery):
        inner = _driven_by(source.this)
        return (inner[0], None) if inner is not None else None
    if not isinstance(source, exp.Table) or source.args.get("db"):
        return None
    where = query.args.get("where")
    plain = not joins and not query.args.get("distinct") and not query.args.get("limit")
    return source.name, (S.to_sql(where.this) if where is not None and plain else None)
