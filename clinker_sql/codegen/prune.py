"""Views that nothing reads (a compiler pass, after the checkpoints are placed).

Every node compiles to its views, and some of them end up read by no statement of the run:
the error view of each node of a fused chain (the DLQ reads the chain's entries from its
failing rows in one branch, codegen/fusion.py). They stay in the compiled files, where a
reviewer can read and query them, but the runner does not define them: each definition is
a round trip and an analysis in Spark (20-40 ms; a 200-node chain has 200 such views).
"""

from __future__ import annotations

from dataclasses import replace

from clinker_sql.codegen.names import CANDIDATES
from clinker_sql.codegen.plan import Statement
from clinker_sql.codegen.run_plan import ViewStep

# statements the run needs for themselves: what they read is needed
_ROOTS = ("write", "report", "written", "check", "fixpoint")
# read by the statements the runner builds for each retraction pass (runtime/runner.py)
_PASS_READS = (CANDIDATES,)


def mark_unread(statements: list[Statement]) -> list[Statement]:
    """Mark (`unread` in its step) every view, and its checkpoint, that no statement the run
    needs reads, directly or through other views."""
    # a view the runner may define another view over instead (codegen/one_pass.py)
    reads = {s.name: tuple(s.reads) + s.step.also_reads
             for s in statements if isinstance(s.step, ViewStep)}
    needed: set[str] = set()
    stack = [r for s in statements if s.kind in _ROOTS for r in s.reads]
    if any(s.kind == "fixpoint" for s in statements):
        stack += [v for v in _PASS_READS if v in reads]
    while stack:
        name = stack.pop()
        if name in needed:
            continue
        needed.add(name)
        stack += reads.get(name, ())
    out = []
    for s in statements:
        if s.kind in ("view", "checkpoint") and s.name in reads and s.name not in needed:
            s = replace(s, step=replace(s.step, unread=True),
                        header=f"{s.header} (not run: no statement reads it)".lstrip())
        out.append(s)
    return out
