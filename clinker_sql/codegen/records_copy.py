"""A sink's records copy is not made when they are computed row by row from copies (a
compiler pass, after materialize.plan_checkpoints).

The commit layer of a correlated pipeline copies a sink's records when a shuffle produces
them (codegen/dlq.py, `_shuffles_upstream`): the group sizes, the collaterals and the write
each read them. A retraction pipeline, though, already copies the evaluations that
shuffle after the retraction state (materialize.py's segment boundaries: a window's
`.eval`, an aggregate's `.final`), in every pass. When every view between the records and
those copies selects from one relation, row by row (no join, grouping, window, DISTINCT,
set operation or subquery), each reader computes the records from the copies for about
what reading a copy of them costs, and the copy itself is one job saved (retraction
benchmark, 1M rows: `out.rows` took 0.3 s of a clean run).
"""

from __future__ import annotations

import sqlglot
from sqlglot import exp

from clinker_sql.codegen import shared_values
from clinker_sql.codegen.plan import Statement
from clinker_sql.codegen.run_plan import CheckpointStep

_SHUFFLES = (exp.Join, exp.Group, exp.Window, exp.Distinct, exp.Union, exp.Intersect,
             exp.Except, exp.Subquery, exp.AggFunc, exp.Order, exp.Limit, exp.Lateral,
             exp.Explode)


def drop_row_wise_copies(statements: list[Statement]) -> list[Statement]:
    """The statements without the records copies that `_row_wise` finds needless."""
    defs: dict[str, Statement] = {}
    copied: set[str] = set()
    out: list[Statement] = []
    for s in statements:
        if s.kind == "view":
            defs[s.name] = s
        elif s.kind == "fixpoint":  # the runner copies what it reads in every pass
            copied.update(s.reads)
        elif isinstance(s.step, CheckpointStep):
            if s.step.records_copy and _row_wise(s.name, defs, copied):
                continue
            # a checkpoint that may not copy its view before the records are read
            if not (s.step.skip_unless or s.step.after_writes):
                copied.add(s.name)
        out.append(s)
    return out


def _row_wise(view: str, defs: dict[str, Statement], copied: set[str]) -> bool:
    """Whether `view` is computed row by row from copies only."""
    stack, seen = [view], set()
    while stack:
        name = stack.pop()
        if name in seen or (name in copied and name != view):
            continue
        seen.add(name)
        stmt = defs.get(name)
        if stmt is None or not stmt.reads or not _selects_row_wise(stmt.sql):
            return False
        stack.extend(stmt.reads)
    return True


def _selects_row_wise(text: str) -> bool:
    """A SELECT from one relation, with nothing that shuffles or changes the row count."""
    tree = sqlglot.parse_one(text, read="spark")
    query = tree.expression if isinstance(tree, exp.Create) else tree
    if isinstance(query, exp.Select):  # values moved below it are computed row by row
        query = shared_values.unshared(query) or query
    if not isinstance(query, exp.Select) or any(query.find(t) for t in _SHUFFLES):
        return False
    return len(list(query.find_all(exp.Table))) == 1
