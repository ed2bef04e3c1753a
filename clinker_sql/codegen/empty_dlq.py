"""Knowing that the DLQ is empty without computing it (a compiler pass).

The DLQ is the union of every node's error view, and computing it is a pass of its own
over the data: a fused chain's failing rows are one more evaluation of the chain (at 1M
rows, 0 bad, transform_chain spent 3.7 s of 13.8 s writing no rows). When the outputs do
not depend on the DLQ (no correlation key, no retraction, `strategy: continue`), the
writes can run first and count, as they go, the rows that would fail
(`Dataset.observe`); when every count is 0, the DLQ is empty and its pass is skipped.

For each error view the pass looks for a *witness*: a view that the output writes read
in full, and a condition on its rows, such that no row meeting the condition means no DLQ
entry. An error view is a filter (`SELECT ... FROM x WHERE c`); when the writes do not read
`x` (a fused chain's failing rows), `x` is itself a filter or a projection of a view `y`,
and so on: an empty `y WHERE c'` leaves `x` empty, and the error view with it. When some
error view has no witness (a join, an aggregate on the way), nothing is planned and the
run computes the DLQ before the writes, as always.

The plan: each witness view with the condition to count (`Compiled.dlq_witnesses`), and
the checkpoints that only the DLQ needs (`meta["after_writes"]`), which the runner makes
after the writes, or not at all when the DLQ is empty (runtime/runner.py).
"""

from __future__ import annotations

from dataclasses import replace

import sqlglot
from sqlglot import exp

from clinker_sql.codegen import sql as S
from clinker_sql.codegen.plan import Statement

AFTER_WRITES = "after_writes"


def plan_empty_dlq(statements: list[Statement], error_views: list[str]
                   ) -> tuple[list[Statement], dict[str, str]]:
    """The statements (DLQ-only checkpoints marked) and the witnesses: view -> condition
    (SQL over the view's columns). No witnesses: the statements are returned as they are."""
    defs = {s.name: s for s in statements if s.kind == "view"}
    writes = [r for s in statements if s.kind == "write" and not s.meta.get("dlq")
              for r in s.reads]
    copied = {s.name for s in statements if s.kind == "checkpoint"}
    scanned = _upstream(writes, defs, copied)
    found: dict[str, list[str]] = {}
    for view in error_views:
        witness = _witness(view, defs, scanned)
        if witness is None:
            return statements, {}
        conditions = found.setdefault(witness[0], [])
        if witness[1] not in conditions:
            conditions.append(witness[1])
    witnesses = {v: " OR ".join(f"({c})" for c in cs) if len(cs) > 1 else cs[0]
                 for v, cs in found.items()}
    # a copy the writes need, directly or to make another copy they need, is made first
    first = _upstream(writes + [r for s in statements if s.kind == "check" for r in s.reads],
                      defs, set())
    watched = ", ".join(witnesses)
    out = []
    for s in statements:
        if s.kind == "checkpoint" and s.name not in first:
            s = replace(s, meta={**s.meta, AFTER_WRITES: True}, header=(
                f"{s.header}; made after the writes, and only when they met a row that "
                f"fails in {watched} (codegen/empty_dlq.py)"))
        elif s.kind == "report":
            s = replace(s, header=(f"{s.header}, after the writes: they count the rows that "
                                   f"fail in {watched}, and with none the DLQ is empty and "
                                   "not computed (codegen/empty_dlq.py)"))
        out.append(s)
    return out, witnesses


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
        shape = _filter_of(defs.get(name))
        if shape is None or shape[1] is None:
            return None  # not a filter of one view: no condition to count
        source, where = shape
        if source in scanned:
            return source, where
        name = source  # `name` is empty when no row of `source` meets `where`


def _filter_of(stmt: Statement | None) -> tuple[str, str | None] | None:
    """(the one view it reads, its WHERE condition or None) when the view is rows of one
    other view, filtered and projected (no join, grouping, distinct or limit)."""
    if stmt is None or len(stmt.reads) != 1:
        return None
    tree = sqlglot.parse_one(stmt.sql, read=S.DIALECT)
    query = tree.expression if isinstance(tree, exp.Create) else None
    if not isinstance(query, exp.Select) or not isinstance(query.args.get("from_"), exp.From):
        return None
    if not isinstance(query.args["from_"].this, exp.Table):
        return None
    if any(query.args.get(k) for k in ("joins", "group", "having", "distinct", "limit",
                                       "qualify", "laterals")):
        return None
    if any(not agg.find_ancestor(exp.Window) for agg in query.find_all(exp.AggFunc)):
        return None  # an aggregate makes rows out of none
    where = query.args.get("where")
    return stmt.reads[0], (S.to_sql(where.this) if where is not None else None)
