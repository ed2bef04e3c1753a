"""Where the runner materializes views, so that Spark plans small pieces (a compiler pass).

A temporary view keeps its analyzed plan (compiler.SESSION_SETTINGS), and a statement
that reads it gets that whole plan inlined: a view read along several paths is copied
once per path, and every copy is optimized and planned again (stored as SQL text, the
views would also be parsed and analyzed again, and Spark would refuse one nested more than
100 views deep). A long pipeline therefore needs cuts: a *checkpoint* statement makes the runner write the view as Parquet into its
scratch folder and redefine the view over that copy, so that everything after it reads
one flat relation.

This pass walks the statements in run order over the graph of what each reads
(`Statement.reads`). For each statement it knows the nesting depth and the *expanded
size* (views analyzed, counted once per path) of its plan; when either is over budget it
checkpoints the upstream node view whose cut removes the most analysis work
(size x paths), and repeats until the statement fits. Ordinary pipelines stay under the
budget and get no extra checkpoint; a long chain gets one every few dozen views.

Last, an *optional* checkpoint (a source's copy of its files) is kept only when the scans
that would read its view otherwise outnumber MAX_PARSES (`_optional_copies`).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from clinker_sql.codegen.comments import comment_text
from clinker_sql.codegen.plan import Statement
from clinker_sql.codegen.retraction import dependent_views
from clinker_sql.codegen.run_plan import CheckpointStep, Counted, ViewStep

# A deep plan is slow to optimize (and over Spark's limit of 100 nested views stored as text).
MAX_DEPTH = 40
# A statement planned over more nested view copies than this gets cuts while a cut
# saves at least MIN_GAIN of them: a copy costs ~10-30 ms to plan (2 cores), a checkpoint
# of a small relation one job of ~0.3 s. Normal pipelines
# stay under it and get no extra checkpoint.
MAX_EXPANDED = 60
MIN_GAIN = 24
# Views materialized in every retraction pass (those that depend on the retraction state).
SEGMENT_BOUNDARIES = (".eval", ".final")
# A source's files are copied as Parquet only when more scans than this would parse them
# otherwise: at 1M rows a copy costs ~1.2-2.6 s, one more CSV parse ~0.2-0.6 s over reading
# the copy (benchmarks, 2 cores: 3-14% faster without the copy at 2-6 scans; retraction's
# 7 scans 1.4-1.9 s faster without it once a source's rows are read without their counts
# after the first scan, runtime/runner.py::_Views.settle).
MAX_PARSES = 12
def counted_in(view: str, condition: str) -> ViewStep:
    """An error view's step: its rows are the rows of `view` that meet `condition`. A copy
    of `view` counts them as it is written (`CheckpointStep.counts`, a local run); when it
    counted none, the runner defines the error view as empty (runtime/runner.py, `_Views`),
    and Spark plans the triggers that read it as empty: no job (a clean run's DLQ)."""
    return ViewStep(counted_in=Counted(view, f"count_if({condition})"))


def filters(view: str, condition: str) -> ViewStep:
    """The step of a view that is the rows of `view` meeting `condition` and has a
    checkpoint of its own (a fused chain's failing rows, codegen/fusion.py). A copy of
    `view` counts them as it is written (`CheckpointStep.counts`, a local run); the runner
    then makes no copy of them: they are read through the copy of `view`, or defined as
    empty when it counted none (ck_dlq, 1M rows: a copy of the failing rows, 0.13-0.18 s, saved)."""
    return ViewStep(filters=Counted(view, f"count_if({condition})"))


@dataclass
class _View:
    index: int  # position of the defining statement
    reads: list[str]
    node: str | None
    flat: bool = False  # materialized (or a scan): depth and size 1
    consumers: list[str] = field(default_factory=list)


def _segment_boundaries(statements: list[Statement]) -> set[str]:
    """Views materialized in each retraction pass, so that every pass plans small segments
    instead of the whole pipeline under the DLQ machinery: the evaluations that depend on
    the retraction state. A view computed once before the passes is not copied: its few
    readers (the first pass, the forward triggers) evaluate it again for less than a copy
    of every row costs (retraction, 1M rows, 0.1% bad: 13.5 -> 11.0 s)."""
    dependent = dependent_views(statements)
    return {s.name for s in statements if s.kind == "view" and s.node is not None
            and s.name.endswith(SEGMENT_BOUNDARIES)
            and s.name in dependent}


def plan_checkpoints(statements: list[Statement]) -> list[Statement]:
    segmented = any(s.kind == "fixpoint" for s in statements)
    shared = (dict.fromkeys(_segment_boundaries(statements), "") if segmented
              else _fanned_out(statements))
    views: dict[str, _View] = {}
    out: list[Statement] = []
    for stmt in statements:
        if stmt.kind == "checkpoint" and stmt.name in views:
            views[stmt.name].flat = True
        if stmt.kind == "fixpoint":  # the runner materializes what it reads in every pass
            for r in stmt.reads:
                views[r].flat = True
        reads = [r for r in stmt.reads if r in views]
        if reads and stmt.kind in ("view", "write", "report", "check"):
            for cut in _cuts(views, reads):
                out.append(_checkpoint(cut, views[cut].node, stmt))
                views[cut].flat = True
        out.append(stmt)
        if stmt.kind == "view":
            views[stmt.name] = _View(len(out), reads, stmt.node, flat=not reads)
            for r in reads:
                views[r].consumers.append(stmt.name)
            if stmt.name in shared:
                out.append(_checkpoint(stmt.name, stmt.node, None, segmented,
                                       shared[stmt.name]))
                views[stmt.name].flat = True
    return _count_errors(_optional_copies(out))


def _count_errors(statements: list[Statement]) -> list[Statement]:
    """Each checkpoint of a view that error views (`counted_in`) or checkpointed filters
    (`filters`) read counts their rows as it writes the copy."""
    errors: dict[str, dict[str, str]] = {}
    views = {s.name: s for s in statements if s.kind == "view"}
    for s in statements:
        if isinstance(s.step, ViewStep):
            for counted in (s.step.counted_in, s.step.filters):
                if counted is not None:
                    errors.setdefault(counted.view, {})[s.name] = counted.count
    out = []
    for s in statements:
        counts = errors.get(s.name) if isinstance(s.step, CheckpointStep) else None
        if counts:
            s = replace(s, step=replace(s.step, counts={**counts, **s.step.counts}),
                        sql=s.sql + f"\n-- it counts the rows of {', '.join(counts)} as it "
                                    "writes them: none, and the runner defines those as empty"
                                    + ("; a checkpointed filter of it is read through this "
                                       "copy, with no copy of its own" if any(
                                           views[v].step.filters is not None
                                           for v in counts) else ""))
        out.append(s)
    return out


def _optional_copies(statements: list[Statement]) -> list[Statement]:
    """Drop an optional checkpoint (`CheckpointStep.optional`, a source's copy of its files) when
    the scans that would read its view without it are few (MAX_PARSES); a kept one says
    in its header how many it saves."""
    optional = [s for s in statements
                if isinstance(s.step, CheckpointStep) and s.step.optional]
    if not optional:
        return statements
    scans = _scans(statements, {s.name for s in optional})
    out = []
    for s in statements:
        if s in optional:
            if scans[s.name] <= MAX_PARSES:
                continue
            s = replace(s, header=f"{s.header} ({scans[s.name]} scans read it)")
        out.append(s)
    return out


def _scans(statements: list[Statement], targets: set[str]) -> dict[str, int]:
    """How many scans of each target view the statements that run Spark jobs would plan
    if the targets were not materialized: the paths from each such statement to the
    target through views that are not (yet) copies. A statement the retraction passes
    run again counts twice."""
    reads = {s.name: s.reads for s in statements if s.kind == "view"}
    again = dependent_views(statements) if any(s.kind == "fixpoint" for s in statements) \
        else set()
    # what the writes and the report read: every copy (the fixpoint copies what it reads)
    final = {v for s in statements if s.kind in ("checkpoint", "fixpoint")
             for v in ((s.name,) if s.kind == "checkpoint" else s.reads) if v not in targets}
    flat: set[str] = set()
    counts = dict.fromkeys(targets, 0)
    memo: dict[tuple[bool, str], dict[str, int]] = {}

    def paths(view: str, last: bool) -> dict[str, int]:  # last: after every checkpoint
        if view in targets:
            return {view: 1}
        if view in (final if last else flat) or view not in reads:
            return {}
        if (last, view) not in memo:
            found: dict[str, int] = {}
            for r in reads[view]:
                for t, n in paths(r, last).items():
                    found[t] = found.get(t, 0) + n
            memo[last, view] = found
        return memo[last, view]

    for s in statements:
        # a copy's own job goes with it; the written counts are observed during the writes
        if s.kind in ("view", "setup", "written") or s.name in targets:
            continue
        before = s.kind in ("checkpoint", "fixpoint")  # run in order; the rest at the end
        for r in s.reads:
            for t, n in paths(r, not before).items():
                counts[t] += n * (2 if before and r in again else 1)
        if before:
            flat.update((s.name,) if s.kind == "checkpoint" else s.reads)
            memo = {k: v for k, v in memo.items() if k[0]}
    return counts


def _fanned_out(statements: list[Statement]) -> dict[str, str]:
    """Evaluation views that a node splits into several views (a route's branches and its
    errors): each branch is computed in its own pass over the input, so the evaluation
    is materialized once. Returns view -> why.

    When the route reads the good rows of a transform, the transform's evaluation is
    materialized instead: its errors and everything downstream then read one copy (the
    route's conditions, cheap, are tested again in each branch), where a copy of the
    route's evaluation left the transform to be evaluated again for its errors (ck_dlq,
    1M rows: 10.6 -> 9.7 s)."""
    defs = {s.name: s for s in statements if s.kind == "view"}
    readers: dict[str, set[str]] = {}
    for s in defs.values():
        for r in s.reads:
            readers.setdefault(r, set()).add(s.name)
    out: dict[str, str] = {}
    for v, rs in readers.items():
        node = defs[v].node if v in defs else None
        if node is None or not v.endswith(".eval") or \
                sum(defs[r].node == node for r in rs) < 3:
            continue
        upstream = _transform_eval(defs[v], defs, readers)
        if upstream is None:
            out[v] = "its branches and errors are each computed in a pass of their own over it"
        else:
            out[upstream] = (f"its errors and the branches of {node} each read it (the "
                             f"branch conditions are tested again, not the transform)")
    return out


def _transform_eval(route_eval: Statement, defs: dict[str, Statement],
                    readers: dict[str, set[str]]) -> str | None:
    """The evaluation view of the transform whose good rows `route_eval` reads, when that
    evaluation feeds nothing but those good rows and the transform's errors: its `.eval`,
    or the `.carry` of a fused chain it ends (read by its failing rows' filter)."""
    if len(route_eval.reads) != 1 or route_eval.reads[0] not in defs:
        return None
    good = defs[route_eval.reads[0]]
    if good.node != good.name or len(good.reads) != 1:
        return None
    evaluation = good.reads[0]
    if evaluation not in (f"{good.node}.{v}" for v in ("eval", "checked", "carry")) or \
            evaluation not in defs:
        return None
    if not readers.get(evaluation, set()) <= {good.name, f"{good.node}.errors",
                                               f"{good.node}.failed"}:
        return None
    return evaluation


def _cuts(views: dict[str, _View], reads: list[str]) -> list[str]:
    cuts: list[str] = []
    while True:
        depth, size = _measure(views, reads)
        if depth <= MAX_DEPTH and size <= MAX_EXPANDED:
            return cuts
        best = _best_cut(views, reads)
        if best is None or (depth <= MAX_DEPTH and best[0] < MIN_GAIN):
            return cuts
        cuts.append(best[1])
        views[best[1]].flat = True


def _measure(views: dict[str, _View], reads: list[str]) -> tuple[int, int]:
    depth: dict[str, int] = {}
    size: dict[str, int] = {}

    def visit(name: str) -> None:
        if name in depth:
            return
        v = views[name]
        if v.flat:
            depth[name], size[name] = 1, 1
            return
        for r in v.reads:
            visit(r)
        depth[name] = 1 + max((depth[r] for r in v.reads), default=0)
        size[name] = 1 + sum(size[r] for r in v.reads)

    for r in reads:
        visit(r)
    return 1 + max(depth[r] for r in reads), 1 + sum(size[r] for r in reads)


def _best_cut(views: dict[str, _View], reads: list[str]) -> tuple[int, str] | None:
    """The node view (not yet materialized) whose checkpoint saves the most analyses:
    (its expanded size - 1) x the number of paths by which the statement reaches it."""
    ancestors: dict[str, _View] = {}
    stack = list(reads)
    while stack:
        name = stack.pop()
        if name in ancestors:
            continue
        ancestors[name] = views[name]
        if not views[name].flat:
            stack += views[name].reads
    sizes: dict[str, int] = {}
    for name in sorted(ancestors, key=lambda n: ancestors[n].index):
        v = ancestors[name]
        sizes[name] = 1 if v.flat else 1 + sum(sizes[r] for r in v.reads)
    paths: dict[str, int] = {name: reads.count(name) for name in ancestors}
    for name in sorted(ancestors, key=lambda n: -ancestors[n].index):
        v = ancestors[name]
        if v.flat:
            continue
        for r in v.reads:
            paths[r] += paths[name]
    candidates = [(sizes[n] - 1) * paths[n] for n in ancestors]
    best = max(((gain, ancestors[n].index, n) for n, gain in zip(ancestors, candidates)
                if gain > 0 and ancestors[n].node is not None and not ancestors[n].flat),
               default=None)
    return (best[0], best[2]) if best else None


def _checkpoint(view: str, node: str | None, before: Statement | None,
                segment: bool = False, shared: str = "") -> Statement:
    why = (f"so that Spark does not analyze its views again for every statement below "
           f"({before.name} nests too many views)" if before is not None else
           "a segment boundary: each retraction pass plans the views after it over this copy"
           if segment else shared)
    return checkpoint(view, node, why)


def checkpoint(view: str, node: str | None, why: str | None, failures: bool = False,
               empty_unless: tuple[str, ...] = (), broadcast: bool = False) -> Statement:
    """A statement that makes the runner write `view` as Parquet in its scratch folder and
    redefine the view over that copy; `why` goes into the header (a choice made for speed).

    `failures`: the view holds failures (few rows, none in a clean run). When the copy is
    empty the runner defines the view as an empty relation, which Spark prunes from every
    plan that reads it: joins with it, filters on what it would add (runtime/runner.py).

    `empty_unless`: views the copy has no row without (the DLQ's collaterals exist only
    for dirty or overflowing groups). When the runner found each of them empty, it defines
    the view as empty instead of running the copy: Spark's optimizer does not always see it
    (a filter that became `... AND false` after the empty joins were removed still scans).

    `broadcast`: the copy is made for its size, which Spark reads to plan a join with it
    (a join's build side). When Spark's optimizer already estimates the view under its
    broadcast threshold, the runner makes no copy: the join broadcasts it from its sources."""
    step = CheckpointStep(failures=bool(failures),
                          empty_unless=tuple(empty_unless) if empty_unless else None,
                          broadcast=bool(broadcast))
    text = f"-- the runner materializes {comment_text(view)} as Parquet in its scratch " \
           "folder and redefines the view over it, so that the statements below plan it once"
    if broadcast:
        text += ("\n-- unless Spark's optimizer estimates it under the broadcast-join "
                 "threshold (spark.sql.autoBroadcastJoinThreshold):\n-- then no copy is "
                 "made, and the join broadcasts it from its sources")
    if empty_unless:
        text += f"\n-- it has no row when {comment_text(', '.join(empty_unless))} have none: " \
                "then the runner defines it as empty and makes no copy"
    return Statement(
        "checkpoint", node, view, text,
        header=f"checkpoint {view}: chosen for speed, {why}" if why else f"checkpoint {view}",
        step=step, reads=(view,))
