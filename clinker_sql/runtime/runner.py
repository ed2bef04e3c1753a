"""Run compiled statements on an executor, write outputs atomically, report."""

from __future__ import annotations

import json
import re
import struct
import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager, nullcontext
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, TextIO

from clinker_sql import __version__
from clinker_sql import sqlbuild as S
from clinker_sql.codegen import alternatives as A
from clinker_sql.codegen import numbering
from clinker_sql.codegen import retraction as R
from clinker_sql.codegen.compiler import EMPTY_PROPAGATION_KEY
from clinker_sql.codegen.dlq import TRIGGERS_VIEW
from clinker_sql.codegen.numbering import counted_total
from clinker_sql.codegen.plan import Compiled, Statement
from clinker_sql.codegen.retraction import (
    checkpoint_path,
    checkpoint_statements,
    empty_copy_statements,
)
from clinker_sql.codegen.run_plan import (
    CheckpointStep,
    CheckStep,
    CleanGroups,
    FixpointStep,
    ReportStep,
    ViewStep,
    WriteStep,
)
from clinker_sql.codegen.source import listed_rows
from clinker_sql.config.discovery import checkable, matched_files
from clinker_sql.diagnostics import (
    EXIT_CONFIG,
    EXIT_DLQ,
    EXIT_EVAL,
    EXIT_INTERRUPTED,
    EXIT_IO,
    EXIT_OK,
    Diagnostic,
    DiagnosticError,
    fail,
)
from clinker_sql.runtime import dlq_rate, leftovers, outputs, run_identity, signals
from clinker_sql.runtime.executor import Executor, StatementFailed

RUN_RESULTS_VERSION = "clinker-sql/run-results/v1"
# how long to wait for a witness count after the writes: the counts come through Spark's
# listener bus just after the write that made them; without one the DLQ is computed
WITNESS_WAIT_SECONDS = 2.0
# a write's side lines (codegen/split_write.py) up to this many are read as they are by
# the views over them, with no copy: parsing a few JSON lines again costs less than a
# job that copies them (transform_chain, 1M rows, 0.1% bad: the triggers' copy, 0.14 s)
SMALL_SIDE_ROWS = 20_000


@dataclass
class RunResult:
    exit_code: int
    counts: dict[str, int]
    timings: list[dict[str, Any]] = field(default_factory=list)
    per_source: dict[str, dict[str, int]] = field(default_factory=dict)
    written: dict[str, int] = field(default_factory=dict)

    @property
    def summary(self) -> str:
        c = self.counts
        return (f"Pipeline complete: {c['total']} total, {c['ok']} ok, {c['written']} written, "
                f"{c['dlq']} dlq")


def preflight(compiled: Compiled, base: Path, executor_keeps_tables: bool = False,
              local_files: bool = True) -> None:
    """Cheap checks before Spark starts: every source matches a file (E216, as Clinker's
    discovery checks before anything else; `local_files`: the sources are on this
    machine), every output can be written (its folder exists and is writable, and it is
    not an existing folder: runtime/outputs.py, `check_target`)."""
    for stmt in compiled.statements if local_files else ():
        found = stmt.step.discovery if isinstance(stmt.step, ViewStep) else None
        if found and found.on_no_match == "error" and \
                checkable(found.kind, list(found.paths)) and \
                not matched_files(found.kind, list(found.paths), base, found.filters):
            raise fail("E216", f"source '{found.source}' discovery failed: no files "
                       f"matched {', '.join(found.paths)}",
                       hint="check the path (relative paths resolve against the pipeline "
                            "file's folder)")
    for stmt in compiled.statements:
        step = stmt.step
        if not isinstance(step, WriteStep):
            continue
        if step.format == "table":
            if not executor_keeps_tables:
                raise fail("CS037", f"sink {stmt.name} writes the table "
                           f"{'.'.join(step.table or ())}, but a local run's catalog ends "
                           "with the run", hint="run it on a Spark Thrift server: "
                           "--target thrift://host:port (see `clinker-sql thrift-server`)")
            continue
        target = base / step.path
        if step.fan_out is None:
            outputs.check_target(target, step.path)
        elif "{" not in str(target.parent):  # else each file's folder is checked as its
            outputs.check_folder(target.parent, step.path)  # output is assembled


def run_compiled(compiled: Compiled, executor: Executor, base: Path,
                 progress=None, partial: dict[str, Any] | None = None,
                 preview: TextIO | None = None) -> RunResult:
    """`partial`, when given, receives what the run got to (its `statements` timings, then
    its `counts`), for the run results of a run that fails. `preview` (run --dry-run -n,
    Clinker's preview_writer_registry): the outputs are assembled, written to this stream
    one after the other instead of their paths, and discarded; no DLQ is written and no
    table swapped."""
    caps = executor.capabilities
    compiled = executor.prepare(compiled, base)  # Thrift: absolute paths for the server
    preflight(compiled, base, caps.keeps_tables, caps.local_files)
    leftovers.sweep(executor.scratch_root)  # what killed runs left
    run = _Run(compiled, executor, base, _Timings(progress), progress)
    run.preview = preview is not None
    if partial is not None:
        partial["statements"] = run.timings
    try:
        run.define()
        run.check()
        counts = run.write()
        if partial is not None:
            partial["counts"] = counts
        run.check_input_bytes()  # before anything is committed
        if compiled.strategy == "continue":  # before anything is committed
            run.check_after_writes()
            dlq_rate.check(compiled.dlq_limits, counts, compiled.sources)
        if preview is not None:
            outputs.show(run.pending, preview)
            run.discard()
        else:
            with signals.deferred():  # a signal now waits for the commit's end
                _swap_tables(executor, compiled, run.tables)  # before the files: a failed swap leaves them
                outputs.commit(run.pending, run.files)
    except StatementFailed as exc:
        run.discard()
        raise _engine_failure(exc, compiled) from None
    except BaseException as exc:
        with signals.deferred():  # a second Ctrl-C does not cut the cleanup short
            if not isinstance(exc, Exception):  # a signal: stop Spark's jobs writing first
                _cancel(executor)
            run.discard()
        raise
    finally:
        run.files.remove()
    return _result(compiled, counts, run.timings)


def _cancel(executor: Executor) -> None:
    try:
        executor.cancel()
    except Exception:  # noqa: BLE001 - best effort: the engine may be gone
        pass


def _constant_check(stmt: Statement) -> bool:
    """A coded check that reads no view: what the compiler found in a source's files."""
    return isinstance(stmt.step, CheckStep) and bool(stmt.step.code) and not stmt.reads


class _Run:
    """One run of a compiled pipeline: its views, then its checks, then its writes."""

    def __init__(self, compiled: Compiled, executor: Executor, base: Path, timings: list,
                 progress) -> None:
        self.compiled, self.executor, self.base = compiled, executor, base
        self.timings, self.progress = timings, progress
        self.writes = [s for s in compiled.statements if isinstance(s.step, WriteStep)]
        self.tables = [s for s in self.writes if s.step.format == "table"]
        self.pending: list[outputs.PendingOutput] = []
        self.files = leftovers.RunFiles.create(executor.scratch_root)
        self.files.add(p for s in self.writes if s.step.staging is not None for p in (
            base / s.step.staging,
            *(() if s.step.fan_out is not None else
              (outputs.temp_path(base / s.step.path),))))
        self.views = _Views(executor, timings, str(self.files.scratch), progress, compiled)
        self.views.error_views = {s.name for s in compiled.statements
                                  if isinstance(s.step, ViewStep) and s.step.counted_in}
        # codegen/written.py, empty_dlq.py
        self.observe = executor.observe if executor.capabilities.observe else None
        # the writes go first and tell whether the DLQ is empty (codegen/empty_dlq.py)
        self.writes_first = bool(compiled.dlq_witnesses) and self.observe is not None
        self.deferred: list[Statement] = []  # checkpoints only the DLQ needs
        self.preview = False  # run --dry-run -n: no DLQ file (run_compiled)
        if self.writes_first:  # counted by whatever reads them first, copies or writes
            self.views.watch(_conditions(compiled), self.observe)
        # each source's rows, counted the same way for the run summary: no pass to count them
        counted = [s for s in compiled.statements
                   if isinstance(s.step, ViewStep) and s.step.observed] if self.observe else []
        self.totals = {s.step.observed: s.name for s in counted}
        self.views.watch_totals({s.step.observed: s.step.files for s in counted}, self.observe)
        if self.observe is not None:  # each correlated source's keys, sketched the same way
            for s in compiled.statements:
                if isinstance(s.step, CheckpointStep) and s.step.bound:
                    self.views.sketches.update(s.step.bound["sketches"])
        # and a UTF-8 source's rows holding U+FFFD (codegen/input_bytes.py)
        self.views.suspects = {s.step.observed: s.step.suspect for s in counted
                               if s.step.suspect}

    def define(self) -> None:
        for stmt in self.compiled.statements:
            if isinstance(stmt.step, (ViewStep, CheckpointStep)) and stmt.step.unread:
                continue  # kept for review; nothing in the run reads it
            if stmt.kind in ("setup", "function"):
                _timed(self.executor, stmt, self.timings, self.progress)
                run_identity.bind(self.executor, stmt.step)  # $pipeline.execution_id, ...
            elif _constant_check(stmt):  # a source's header (CS105, E217): before a scan
                self._coded_check(stmt)
            elif stmt.kind == "view":
                self.views.pend(stmt)
            elif stmt.kind == "fixpoint":
                news, = self.compiled.alternative(A.RETRACTION_NEWS)
                _iterate(self.views, stmt, news)
            elif isinstance(stmt.step, CheckpointStep) and self.writes_first and \
                    stmt.step.after_writes:
                self.deferred.append(stmt)
            elif isinstance(stmt.step, CheckpointStep):
                self.views.checkpoint(stmt.name, failures=stmt.step.failures, stmt=stmt)

    def check(self) -> None:
        """Coded checks (e.g. combine on_miss: error, E319), then fail_fast's."""
        for stmt in self.compiled.statements:
            step = stmt.step
            if isinstance(step, CheckStep) and step.code and not step.after_writes \
                    and not _constant_check(stmt) and not step.bytes_rows:
                self._coded_check(stmt)
        if self.compiled.strategy == "fail_fast":
            check = next(s for s in self.compiled.statements
                         if isinstance(s.step, CheckStep) and not s.step.code)
            self.views.need(check.reads)
            first = self.executor.first(check.sql)
            if first is not None:
                raise _fail_fast(first)

    def _coded_check(self, stmt: Statement) -> None:
        self.views.need(stmt.reads)
        hit = self.executor.first(stmt.sql)
        if hit is not None:  # a check on the DLQ itself is a run-time ceiling: exit 3
            raise fail(stmt.step.code, str(hit["detail"]),
                       exit=EXIT_EVAL if stmt.step.after_writes else None)

    def check_input_bytes(self) -> None:
        """A UTF-8 source's files tested for bytes that are not UTF-8 (CS109,
        codegen/input_bytes.py): only when a row read held U+FFFD, or was not counted."""
        for stmt in self.compiled.statements:
            rows = stmt.step.bytes_rows if isinstance(stmt.step, CheckStep) else None
            if rows is not None and self.views.suspect(rows) is not False:
                self._coded_check(stmt)

    def check_after_writes(self) -> None:
        """Checks on the DLQ itself (codegen/type_threshold.py), before any commit."""
        for stmt in self.compiled.statements:
            if isinstance(stmt.step, CheckStep) and stmt.step.after_writes:
                self._coded_check(stmt)

    def write(self) -> dict[str, Any]:
        """Every write; the report after the outputs (they count the sources' rows, and
        may tell that the DLQ is empty), before the DLQ's. Returns the run's counts."""
        executor, compiled = self.executor, self.compiled
        report = next(s for s in compiled.statements if s.kind == "report")
        counts = None
        watched: list = []
        for stmt in self.writes:
            step: WriteStep = stmt.step
            if step.dlq and self.preview:
                continue
            if step.dlq and counts is None:
                if self.writes_first:
                    _dlq_after_writes(self.views, self.deferred, compiled.dlq_witnessed)
                counts = self._report(report)
            if step.dlq and not _dlq_has_entries(counts, step):
                continue
            self.views.need(stmt.reads)
            self.views.settle(list(stmt.reads))  # before the write's own counts
            if self.observe is not None and step.observe is not None:
                self.views.need([step.observe.view])
                watched.append(self.observe(step.observe.view, dict(step.observe.counts)))
            if step.format == "table":
                for sql in compiled.alternative(A.table(stmt.name, "prepare")):
                    executor.execute(sql)
            with self.views.adaptive(list(stmt.reads), observing=step.observe is not None):
                _timed(executor, stmt, self.timings, self.progress)
            if step.fan_out is not None:
                self.pending.extend(outputs.assemble_fan_out(
                    step, self.base, self._listed(stmt.name, step.fan_out.files)))
                self.files.add(o.temp for o in self.pending)
            elif step.format != "table":
                self.pending.append(outputs.assemble(step, self.base))
            if step.split:  # the failing rows it split off (codegen/split_write.py)
                define, = compiled.alternative(A.side(step.split.failed))
                self.views.sides[step.split.failed] = (define, self.pending[-1].failures)
        if counts is None:  # no DLQ write (no dlq path)
            if self.writes_first:
                _dlq_after_writes(self.views, self.deferred, compiled.dlq_witnessed)
            counts = self._report(report)
        written = next((s for s in compiled.statements if s.kind == "written"), None)
        if written is not None:
            counts = {**counts, **_written_counts(self.views, written, watched, compiled)}
        return counts

    def _listed(self, sink: str, files_view: str | None) -> list[str]:
        """The paths of a source's files (a few rows: one per file or split), for a sink
        writing one file per source file (codegen/sink.py, `_files_view`)."""
        if files_view is None:
            return []
        self.views.need([files_view])
        sql, = self.compiled.alternative(A.listed(sink))
        return [r["p"] for r in self.executor.query(sql)]

    def _report(self, report: Statement) -> dict[str, Any]:
        """The run summary's counts; a source whose rows the writes counted gets that
        count as its total, and its offsets are not read for it (codegen/numbering.py).
        With every total counted and the DLQ known to be empty, no query (codegen/dlq.py,
        `ReportStep.empty_report`)."""
        start = time.perf_counter()
        counted: dict[str, int] = {}
        for rows, total in self.totals.items():
            n = self.views.total(rows, WITNESS_WAIT_SECONDS)
            if n is not None:
                self.executor.execute(counted_total(total, n))
                self.views.defined_as_is(total)
                counted[total] = n
        known = report.step.empty_report if isinstance(report.step, ReportStep) else None
        if known and self.views.empty.issuperset(known["unless"]) and \
                counted.keys() >= set(known["totals"].values()):
            self.timings.append({"node": None, "name": report.name, "kind": "report",
                                 "seconds": round(time.perf_counter() - start, 4),
                                 "known": True})
            return {**{c: counted[v] for c, v in known["totals"].items()},
                    **known["zeros"]}
        self.views.need(report.reads)
        if self.views.unwatched:  # the counted views it reads, without their counts
            self.views.settle(list(report.reads))
        with self.views.adaptive(list(report.reads)):
            return _report(self.executor, report, self.timings)

    def discard(self) -> None:
        outputs.discard(self.pending, [self.base / s.step.staging for s in self.writes
                                       if s.step.staging is not None])
        _discard_tables(self.executor, self.compiled, self.tables)


def _report(executor: Executor, report: Statement, timings: list) -> dict[str, Any]:
    start = time.perf_counter()
    counts = executor.first(report.sql)
    timings.append({"node": None, "name": report.name, "kind": "report",
                    "seconds": round(time.perf_counter() - start, 4)})
    return counts


def _conditions(compiled: Compiled) -> dict[str, list[str]]:
    """Witness view -> the conditions to count on it, one per distinct condition of an
    error view (codegen/empty_dlq.py)."""
    out: dict[str, list[str]] = {}
    for view, condition in compiled.dlq_witnessed.values():
        if condition not in out.setdefault(view, []):
            out[view].append(condition)
    return out


def _dlq_after_writes(views: _Views, deferred: list[Statement],
                      witnessed: dict[str, list[str]]) -> None:
    """After the output writes: when they (and the copies before them) counted no failing
    row in any witness view, the DLQ is empty and its pass is skipped; otherwise (or when a
    count did not arrive) the error views whose own condition met no row are defined as
    empty, and the checkpoints that the others need are made now (codegen/empty_dlq.py)."""
    if views.failing(WITNESS_WAIT_SECONDS) is False:
        views.emptied(TRIGGERS_VIEW)
        return
    quiet = views.quiet(WITNESS_WAIT_SECONDS)
    views.unwatch()  # the DLQ's pass reads the witness views: without the counts
    empty = [e for e, (view, cond) in witnessed.items()
             if (view, cond) in quiet and e in views.views]
    # a copy that only the emptied error views read is not made
    unread = views.upstream(empty, stop=set()) - views.upstream(
        [e for e in witnessed if e not in empty] + [TRIGGERS_VIEW], stop=set(empty))
    for name in empty:
        views.emptied(name)
        views.timings.append({"node": views.views[name].stmt.node, "name": name,
                              "kind": "empty", "seconds": 0.0})
    for stmt in deferred:
        if stmt.name not in unread:
            views.checkpoint(stmt.name, failures=stmt.step.failures, stmt=stmt)


def _swap_tables(executor: Executor, compiled: Compiled, tables: list[Statement]) -> None:
    """Table sinks: each staging table takes its target's name (codegen/sink.py), by the
    compiled swap for a table that exists or for a new one."""
    for stmt in tables:
        target = stmt.step.table[-1].lower()
        listing, = compiled.alternative(A.table(stmt.name, "tables"))
        exists = any(str(row.get("tableName", "")).lower() == target
                     and not row.get("isTemporary")
                     for row in executor.query(listing))
        for sql in compiled.alternative(A.table(stmt.name, "swap" if exists else "swap_new")):
            executor.execute(sql)


def _discard_tables(executor: Executor, compiled: Compiled, tables: list[Statement]) -> None:
    for stmt in tables:
        for sql in compiled.alternative(A.table(stmt.name, "discard")):
            try:
                executor.execute(sql)
            except Exception:  # noqa: BLE001 - best effort: the session may be gone
                pass


@dataclass(frozen=True)
class _Adaptive:
    """The compiled statements that allow Spark's adaptive empty-branch rule around a
    statement (codegen/alternatives.py) and exclude it again (the session's setting)."""

    allow: str
    exclude: str

    @staticmethod
    def of(compiled: Compiled) -> _Adaptive:
        allow, = compiled.alternative(A.ADAPTIVE_ALLOW)
        exclude = next(s.sql for s in compiled.statements
                       if s.kind == "setup" and s.name == EMPTY_PROPAGATION_KEY)
        return _Adaptive(allow, exclude)


class _Timings(list):
    """The timing entries of the run; each one is also handed to `progress.finished`,
    when the progress callback has that method (a live display, runtime/progress.py)."""

    def __init__(self, progress=None):
        super().__init__()
        self._finished = getattr(progress, "finished", None)

    def append(self, entry: dict[str, Any]) -> None:
        super().append(entry)
        if self._finished is not None:
            self._finished(entry)


def _checkpoint(executor: Executor, view: _View, timings: list, scratch: str, suffix: str,
                known: set[str], inline: Callable[[], tuple | None] | None = None,
                job: Callable[[], Any] = nullcontext,
                need: Callable[[list[str]], None] = lambda names: None) -> bool:
    """Materialize a view that many later statements read, so that Spark plans it once.

    A source's files (`CheckpointStep.listing`) are listed instead (their names kept in
    `view.listed`), and a view of a few rows (`CheckpointStep.local`) kept in the driver, when
    the executor can; `inline`, when given, gives its columns and rows if they are known;
    a copy that only views known to be empty would need (`CheckpointStep.skip_unless`) is not
    made (returns False).

    `known`: the views known to have no row (copies found empty). A view that has no row
    without them (`CheckpointStep.empty_unless`), or a copy of failures that Spark's
    optimizer already proved empty, is defined as empty instead: no job runs for it. A copy
    of failures found empty joins `known`.

    `job()`: the context a job for it runs in, entered only when one does (a copy, or
    the rows kept in the driver): it may first define again what the job reads. `need`
    defines the views a path reads that are not defined yet (`_Views.need`): a listing
    needs only the scan, rows counted by the writes nothing."""
    start = time.perf_counter()
    name = view.stmt.name
    known.discard(name)
    view.counted = None  # what an earlier copy counted no longer holds
    step = view.checkpoint.step if view.checkpoint is not None else CheckpointStep()
    caps = executor.capabilities
    lister = executor.list_files if caps.list_files else None
    if step.listing and lister is not None:  # a source's files, listed: no job
        need([step.listing.scan])
        view.listed = lister(step.listing.scan, step.listing.view)
        executor.execute(step.listing.sql)
        view.pending = False
        _checkpoint_timing(timings, view, start, listed=True)
        return True
    if step.skip_unless and known.issuperset(step.skip_unless):
        return False  # nothing will read it: the views it is made for have no row
    counted = inline() if inline is not None else None
    if counted is not None:  # rows the writes counted: no job
        executor.execute(S.values_view(name, *counted))
        view.pending = False
        _checkpoint_timing(timings, view, start, counted=True)
        return True
    keep = executor.keep_in_driver if caps.keep_in_driver else None
    local = step.local and keep is not None
    # the empty checks first: they run no job, so nothing needs defining again for them
    needs = step.empty_unless
    known_empty = not local and bool(needs) and known.issuperset(needs)
    if known_empty and view.pending:
        view.empty_pending = True  # defined as empty if a statement needs it (`need`)
        known.add(name)
        _checkpoint_timing(timings, view, start, empty=True)
        return True
    need([name])
    # asked only of copies expected to be empty: optimizing a large plan takes time
    planned = executor.planned_empty if view.failures and caps.planned_empty else None
    if known_empty or (not local and planned is not None and planned(name)):
        _define_empty(executor, name)
        known.add(name)
        _checkpoint_timing(timings, view, start, empty=True)
        return True
    with job():
        if local:  # a few rows: no copy, no job to read them
            keep(name)
            _checkpoint_timing(timings, view, start, local=True)
            return True
        rows = None
        copy = executor.copy if view.failures and caps.copy else None
        counting = executor.copy_counting if step.counts and caps.copy_counting else None
        if counting is not None:  # rows of other views counted while written (one_pass.py)
            seen = counting(name, checkpoint_path(name, scratch, suffix), dict(step.counts))
            view.counted = {k: n for k, n in (seen or {}).items() if k != "n"}
            rows = seen.get("n") if seen else None
        elif copy is not None:  # counted while written: no query to tell whether it is empty
            rows = copy(name, checkpoint_path(name, scratch, suffix))
        else:
            for sql in checkpoint_statements(name, scratch, suffix):
                executor.execute(sql)
        if view.failures:  # usually few rows, none in a clean run
            probe = empty_copy_statements(name)[0]
            if rows == 0 or rows is None and executor.first(probe) is None:
                _define_empty(executor, name)
                known.add(name)
    _checkpoint_timing(timings, view, start)
    return True


def _checkpoint_timing(timings: list, view: _View, start: float, **how: Any) -> None:
    """A checkpoint's entry in the run's timings; `how`: how it was made (listed, counted,
    local, empty, side, broadcast) when not by a copy."""
    timings.append({"node": view.stmt.node, "name": view.stmt.name, "kind": "checkpoint",
                    "seconds": round(time.perf_counter() - start, 4), **how})


def _define_empty(executor: Executor, name: str) -> None:
    """`name` redefined with its columns and no row, a relation Spark knows is empty."""
    if executor.capabilities.empty:
        executor.empty(name)
        return
    executor.execute(empty_copy_statements(name)[1])


_TOTAL = "total"  # the observed count of a source's rows (_Views.watch_totals)
_SUSPECT = "suspect"  # of those, the rows holding U+FFFD (codegen/input_bytes.py)
_WITNESS = re.compile(r"c\d+")  # the observed count of a witness condition (_Views.watch)
_SKETCH = "ck_sketch"  # a correlated source's keys, counted into a count-min sketch
# width 4000 (2 / 0.0005), one row (confidence 0.5): its largest cell bounds the count of
# every key; 32 KB a partition
SKETCH_SHAPE = "0.0005D, 0.5D, 0"
# the sketch comes with the counts of a statement that has run: it arrives in milliseconds,
# and a short wait costs little when no statement has read the rows yet
SKETCH_WAIT_SECONDS = 0.25


def sketch_max(data: bytes) -> int:
    """The largest count in the first row of a Spark count-min sketch (its layout,
    CountMinSketchImpl.writeTo: version, total, depth, width, the depth hash seeds, then
    the rows of counts); a sketch of no row is its total."""
    _, total, depth, width = struct.unpack_from(">iqii", data, 0)
    if depth < 1 or width < 1:
        return total
    return max(struct.unpack_from(f">{width}q", data, 20 + 8 * depth))


@dataclass
class _View:
    stmt: Statement  # its definition
    materialized: bool = False  # redefined over a copy (a checkpoint)
    replaced: bool = False  # redefined by the runner (a retraction snapshot): never replayed
    failures: bool = False  # a copy of failures: an empty one is planned as empty
    checkpoint: Statement | None = None  # the statement that materialized it
    listed: list[str] | None = None  # a source's files view, listed: the names in order
    counted: dict[str, int] | None = None  # views whose rows its copy counted (one_pass.py)
    pending: bool = False  # not defined in the session yet (`_Views.need`)
    empty_pending: bool = False  # pending, and known to have no row: defined as empty
    small: bool = False  # over a write's side lines, few of them (SMALL_SIDE_ROWS)


class _Views:
    """The temporary views of the run, as the session holds them.

    The session keeps each view's analyzed plan (`spark.sql.legacy.storeAnalyzedPlanForView`,
    codegen/compiler.py): Spark analyzes a view once, not again in every statement that
    reads it. A view therefore keeps the plans of the views it read when it was defined;
    whenever a view gets a new definition (a checkpoint's copy, a retraction snapshot),
    every view defined before that read it, directly or through others, is defined again,
    in order, and one that was materialized is materialized again.

    A view is defined when a statement that runs first needs it (`need`), not at its place
    in the compiled order: one that nothing run reads (most error and DLQ views of a clean
    run) is never analyzed (~20 ms a view). Defined later, it reads the latest definition
    of each view before it, which is what redefining it again would give."""

    def __init__(self, executor: Executor, timings: list, scratch: str, progress,
                 compiled: Compiled):
        self.executor, self.timings, self.scratch = executor, timings, scratch
        # the compiled alternatives it runs (codegen/alternatives.py)
        self.compiled, self.allow = compiled, _Adaptive.of(compiled)
        self.progress = progress
        self.views: dict[str, _View] = {}  # in order of first definition
        self.watched: dict[str, list[str]] = {}  # witness view -> its conditions (empty_dlq)
        self.observers: dict[str, list] = {}  # its counts, one per definition
        self.counting: dict[str, Callable] = {}  # a view -> the counts of its definition
        self.observe = None
        self.empty: set[str] = set()  # views known to have no row (see _checkpoint)
        self.totals: set[str] = set()  # views whose rows are counted (run summary)
        self.files: dict[str, str | None] = {}  # such a view -> its source's files view
        # a chain's failing rows, split off by a write: view -> (its definition, rows)
        self.sides: dict[str, tuple[str | None, int]] = {}
        self.sketches: dict[str, str] = {}  # rows view -> its correlation key, sketched
        self.suspects: dict[str, str] = {}  # rows view -> a cell holds U+FFFD (input_bytes)
        self.error_views: set[str] = set()  # views a copy may count (materialize.counted_in)
        self.unwatched = False  # the writes' counts are in (`unwatch`)

    def watch(self, witnesses: dict[str, list[str]], observe) -> None:
        """Count the rows meeting each witness condition in every definition of its view
        (`Dataset.observe`): the first statement that reads a definition counts them."""
        self.watched, self.observe = dict(witnesses), observe
        self.observers = {v: [] for v in witnesses}

    def watch_totals(self, views: dict[str, str | None], observe) -> None:
        """Count the rows of `views` too, in the same way (a source's rows view -> its
        files view, when its rows hold positions: each file's rows are counted too, for
        the DLQ's row numbers, if it has few files)."""
        self.totals, self.files, self.observe = set(views), dict(views), observe
        for name in views:
            self.observers.setdefault(name, [])

    def _observe(self, name: str) -> None:
        counts = {f"c{i}": f"count_if({c})" for i, c in enumerate(self.watched.get(name, ()))}
        if name in self.totals:
            counts[_TOTAL] = "count(1)"
            if name in self.suspects:
                counts[_SUSPECT] = f"count_if({self.suspects[name]})"
            if name in self.sketches:
                counts[_SKETCH] = f"count_min_sketch({self.sketches[name]}, {SKETCH_SHAPE})"
            files = self._listed(name)
            if files is not None and files <= numbering.COUNTED_FILES_MAX:
                counts.update(numbering.per_file_counts(files))
        self.counting.pop(name, None)
        if counts and self.observe is not None:
            self.observers[name].append(self.observe(name, counts))
            self.counting[name] = self.observers[name][-1]

    def settle(self, reads: list[str]) -> None:
        """Before a statement reading `reads` runs: define again without its counts each
        view it reads whose current definition has been counted (an earlier statement
        read it, its counts arrived), and what reads that view. An observation stands in
        Spark's way (no column pruning or filter through it, the counts evaluated again);
        the views are defined again only when a statement will read them (~20 ms a view)."""
        if not self.counting:
            return
        counted = self._counted(reads)
        done = [name for name, counts in self.counting.items()
                if name in counted and (self.unwatched or counts(wait=0) is not None)]
        for name in done:  # one defined again may define another again (what reads it)
            if self.counting.pop(name, None) is not None:
                self._uncounted(name)

    def _uncounted(self, name: str) -> None:
        """`name` defined again from its statement (without counts), and what reads it."""
        view = self.views.get(name)
        if view is None or view.materialized or view.replaced:
            return
        self.executor.execute(view.stmt.sql)
        self._refresh({name}, rows_changed=False)

    def suspect(self, rows: str) -> bool | None:
        """Whether a row of `rows` held U+FFFD as it was read; None when not counted."""
        found = [c[_SUSPECT] for c in (self._counts(rows, WITNESS_WAIT_SECONDS)
                                       if rows in self.observers else []) if _SUSPECT in c]
        return any(found) if found else None

    def total(self, name: str, wait: float) -> int | None:
        """The rows counted in `name` (the same in every definition counted), or None."""
        counts = [c[_TOTAL] for c in self._counts(name, wait) if _TOTAL in c]
        return max(counts) if counts else None

    def largest_group(self, sketches: dict[str, str], wait: float) -> int | None:
        """At least as many records as the largest correlation group holds (see
        codegen/correlation.py, `_sketch_bound`): the largest cell of each source's key
        sketch, summed; None when a sketch has not arrived. Each sketch comes from the
        definition of its rows view that counted the most rows (a whole read)."""
        out = 0
        for name in sketches:
            found = [c for c in (self._counts(name, wait) if name in self.observers else [])
                     if c.get(_SKETCH) is not None]
            if not found:
                return None
            out += sketch_max(bytes(max(found, key=lambda c: c[_TOTAL])[_SKETCH]))
        return out

    def _bounded(self, view: _View, bound: dict) -> bool:
        """`$pipeline.ck_big` defined as empty, with no job, when the sketches show that
        no group can exceed the buffer (their cells times `factor`: see
        codegen/correlation.py, `_sketch_bound`)."""
        start = time.perf_counter()
        largest = self.largest_group(bound["sketches"], SKETCH_WAIT_SECONDS)
        if largest is None:
            return False
        largest *= bound.get("factor", 1)
        if largest > bound["limit"]:
            return False
        name = view.stmt.name
        _define_empty(self.executor, name)
        self.empty.add(name)
        view.materialized = True
        _checkpoint_timing(self.timings, view, start, bounded=largest)
        self._refresh({name}, rows_changed=False)
        return True

    def _listed(self, rows: str) -> int | None:
        """How many files the source of the rows view `rows` has, when they were listed."""
        files = self.views.get(self.files.get(rows) or "")
        return len(files.listed) if files is not None and files.listed is not None else None

    def counted_numbering(self, sources: list[dict], wait: float) -> tuple | None:
        """`$pipeline.numbering`'s columns and rows from each file's rows counted while
        the rows were written (codegen/numbering.py); None when a count is missing."""
        rows: list[tuple] = []
        for source in sources:
            files = self._listed(source["rows"])
            if files is None:
                return None
            if files == 0:  # nothing to number
                continue
            found = (numbering.counted_rows(source["order"], c, files)
                     for c in self._counts(source["rows"], wait))
            mine = next((r for r in found if r is not None), None)
            if mine is None:
                return None
            rows += mine
        return numbering.NUMBERING_COLUMNS, rows

    def unwatch(self) -> None:
        """No more counts: the DLQ's pass after the writes needs none. A count stands in
        Spark's way (no filter or column pruning through it), so each witness view is
        defined again without it, and what reads it, before a statement reads it (`settle`,
        whether its counts arrived or not); most are read by no statement of that pass (its
        failing rows come from a copy or from what a write split off), and redefining them
        all took 0.15 s a view."""
        self.watched, self.totals, self.unwatched = {}, set(), True

    def _counts(self, name: str, wait: float) -> list[dict]:
        """The counts reported for the definitions of a witness view (the last one waited
        for when none has arrived yet)."""
        observers = self.observers[name]
        counts = [c for c in (o(wait=0) for o in observers) if c is not None]
        if not counts and observers:
            counts = [c for c in (observers[-1](wait=wait),) if c is not None]
        return counts

    def failing(self, wait: float) -> bool | None:
        """Whether a witness view met a failing row; None when one reported no count (no
        statement read it whole, or Spark did not report in time)."""
        for name in self.watched:
            counts = self._counts(name, wait)
            if not counts:
                return None
            if any(any(v for k, v in c.items() if _WITNESS.fullmatch(k)) for c in counts):
                return True
        return False

    def quiet(self, wait: float) -> set[tuple[str, str]]:
        """The (witness view, condition) pairs that met no row in any definition counted."""
        out: set[tuple[str, str]] = set()
        for name, conditions in self.watched.items():
            counts = self._counts(name, wait)
            for i, condition in enumerate(conditions):
                if counts and not any(c[f"c{i}"] for c in counts):
                    out.add((name, condition))
        return out

    @contextmanager
    def adaptive(self, reads: list[str], observing: bool = False) -> Iterator[None]:
        """Spark's adaptive rule that drops a branch once it ran empty (a join or union
        with an empty side, `AQEPropagateEmptyRelation`) is excluded for the session
        (compiler.SESSION_SETTINGS): it would drop the observations below that branch with
        it. It is allowed again while a statement reading `reads` runs when nothing it
        plans is observed: no view it reads, directly or through others, is being counted,
        and the statement itself counts nothing (`observing`, e.g. a copy counted as it is
        written). A retraction pass then skips reading an aggregate's input rows again for
        the groups of its failed outputs when there are none.

        Not set back when the statement fails: the run ends there (an interrupt may have
        closed the session already), and the next run's setup excludes the rule again."""
        if observing or self._counted(reads):
            yield
            return
        self.executor.execute(self.allow.allow)
        yield
        self.executor.execute(self.allow.exclude)

    def _counted(self, reads: list[str]) -> set[str]:
        """The views being counted (an observation in their current definition) that a
        statement reading `reads` plans: directly or through views that are not copies."""
        copies = {n for n, v in self.views.items() if v.materialized and n not in reads}
        return self.counting.keys() & self.upstream(reads, stop=copies)

    def upstream(self, names: list[str], stop: set[str]) -> set[str]:
        """The views `names` read, directly or through others, not through `stop`."""
        seen: set[str] = set()
        stack = [n for n in names if n not in stop]
        while stack:
            name = stack.pop()
            if name in seen or name not in self.views:
                continue
            seen.add(name)
            stack += [r for r in self.views[name].stmt.reads if r not in stop]
        return seen

    def few_files(self, stmt: Statement) -> Statement:
        """A source's rows view in its form for a few files (a lookup in a literal map of
        the listed files instead of a join, codegen/source.py) when its files were listed
        and are few enough."""
        few = stmt.step.few_files if isinstance(stmt.step, ViewStep) else None
        files = self.views.get(few.files) if few else None
        if files is None or files.listed is None or \
                len(files.listed) > numbering.MAPPED_FILES_MAX:
            return stmt
        return replace(stmt, sql=listed_rows(few, files.listed))

    def pend(self, stmt: Statement) -> None:
        """A view's definition, run when a statement needs it (`need`); one that is
        defined already (a new definition of a view in use) is run now."""
        view = self.views.get(stmt.name)
        if view is not None and not view.pending:
            self._define(stmt)
        elif view is not None:
            view.stmt = stmt
        else:
            self.views[stmt.name] = _View(stmt, pending=True)

    def need(self, names: Iterable[str]) -> None:
        """Define the views `names` read, directly or through others, that are not
        defined yet, in their compiled order (each after those it reads)."""
        todo = self.upstream(list(names), stop={n for n, v in self.views.items()
                                                if not v.pending})
        for name, view in list(self.views.items()):
            if name in todo and view.pending:
                self._define(view.stmt)

    def defined_as_is(self, name: str) -> None:
        """`name` was defined by the runner in another form (rows counted, a listing):
        its own definition is not run unless something it reads changes (`_refresh`)."""
        view = self.views.get(name)
        if view is not None:
            view.pending = False

    def _define(self, stmt: Statement) -> None:
        stmt = self.few_files(stmt)
        _timed(self.executor, stmt, self.timings, self.progress)
        self.defined(stmt)
        view = self.views[stmt.name]
        if view.empty_pending:  # its checkpoint found it empty before anything read it
            view.empty_pending = False
            _define_empty(self.executor, stmt.name)
            self.empty.add(stmt.name)

    def defined(self, stmt: Statement) -> None:
        old = self.views.get(stmt.name)
        again = old is not None and not old.pending
        if old is not None and old.pending:  # keeps what the runner noted about it
            old.stmt, old.pending = stmt, False
        else:
            self.views[stmt.name] = _View(stmt)
        self.empty.discard(stmt.name)
        self._counted_empty(stmt)
        self._observe(stmt.name)
        if again:  # a new definition: its readers read it from now on
            self._refresh({stmt.name}, rows_changed=True)

    def checkpoint(self, name: str, suffix: str = "", failures: bool = False,
                   stmt: Statement | None = None) -> None:
        """Materialize a view; the views defined before that read it read the copy from
        now on (same rows, a flat plan). `failures`: see materialize.checkpoint; `stmt`,
        the checkpoint statement (its `empty_unless`)."""
        view = self.views[name]
        view.failures = view.failures or failures
        view.checkpoint = stmt or view.checkpoint
        if name in self.sides:
            self.need([name])
            self._from_side(view, *self.sides.pop(name))
            return
        if view.failures and self._over_small(name):  # no copy: its readers parse them
            start = time.perf_counter()
            self.need([name])
            _checkpoint_timing(self.timings, view, start, small=True)
            return
        own = view.stmt.step if isinstance(view.stmt.step, ViewStep) else ViewStep()
        clean = own.clean_groups
        if clean and not view.replaced and self.empty.issuperset(clean.unless):
            self.need(own.also_reads)  # what its other definition reads
            view.pending = False
            self._clean_groups(view, clean)
            return
        if self._broadcast(view):
            return
        bound = view.checkpoint.step.bound if view.checkpoint is not None else None
        if bound and self.sketches:
            self.need([name])  # its columns, when defined as empty
            if self._bounded(view, bound):
                return
        sources = view.checkpoint.step.per_file if view.checkpoint else None
        inline = (lambda: self.counted_numbering(sources, WITNESS_WAIT_SECONDS)) \
            if sources else None
        if self._copy(view, suffix, inline, settle=True):
            view.materialized = True
            self._refresh({name}, rows_changed=False)
            for counted, rows in (view.counted or {}).items():  # defined over this copy
                if counted not in self.error_views:
                    self.sides[counted] = (None, rows)

    def _broadcast(self, view: _View) -> bool:
        """A copy made for its size (`CheckpointStep.broadcast`) that Spark's optimizer already
        estimates under its broadcast threshold: not made, the join broadcasts the view
        from its sources."""
        small = self.executor.broadcastable if self.executor.capabilities.broadcastable \
            else None
        if view.checkpoint is None or not view.checkpoint.step.broadcast or small is None:
            return False
        start = time.perf_counter()
        self.need([view.stmt.name])
        if not small(view.stmt.name):
            return False
        _checkpoint_timing(self.timings, view, start, broadcast=True)
        return True

    def _counted_empty(self, stmt: Statement) -> None:
        """An error view whose rows the copy it reads counted as it was written
        (materialize.counted_in) and found none: defined as empty, so that Spark plans the
        triggers that read it as empty. A view whose rows are observed is left as it is."""
        count = stmt.step.counted_in if isinstance(stmt.step, ViewStep) else None
        copy = self.views.get(count.view) if count else None
        if copy is None or not copy.materialized or (copy.counted or {}).get(stmt.name) != 0 \
                or stmt.name in self.watched or stmt.name in self.totals:
            return
        _define_empty(self.executor, stmt.name)
        self.empty.add(stmt.name)

    def _clean_groups(self, view: _View, clean: CleanGroups) -> None:
        """Nothing retracted before this aggregate: its emitted rows from the groups the
        chain's pass already computed (codegen/one_pass.py), no pass of their own, and its
        failed finalizes as that pass counted them. A later retraction pass defines the
        view again from its statement (`_refresh`)."""
        start = time.perf_counter()
        define, = self.compiled.alternative(A.clean_groups(view.stmt.name))
        self.executor.execute(define)
        view.materialized = True  # over a copy: nothing it reads changes before a pass
        spec = self.views.get(clean.spec)
        if spec is not None and spec.materialized and spec.counted:
            view.counted = {n: spec.counted[n] for n in clean.counted
                            if n in spec.counted}
        _checkpoint_timing(self.timings, view, start, clean=True)
        self._refresh({view.stmt.name}, rows_changed=False)

    def _over_small(self, name: str) -> bool:
        """Whether `name` reads nothing but views over a few side lines (`_View.small`),
        and views known to have no row, through views that are not copies."""
        stop = {n for n, v in self.views.items() if v.materialized or n in self.empty}
        leaves = set()
        for up in self.upstream([name], stop):
            reads = self.views[up].stmt.reads
            if not reads or any(r not in self.views for r in reads):
                return False  # a scan, or a table
            leaves.update(r for r in reads if r in stop)
        small = {n for n in leaves if self.views[n].small}
        return bool(small) and leaves <= small | self.empty

    def _from_side(self, view: _View, define: str | None, rows: int) -> None:
        """A chain's failing rows, defined over the lines a write split off (`define`), or
        already over a copy that counted them (no `define`): no copy of their own."""
        start = time.perf_counter()
        name = view.stmt.name
        self.empty.discard(name)
        if not rows:
            _define_empty(self.executor, name)
            self.empty.add(name)
        elif define:
            self.executor.execute(define)
            view.small = rows <= SMALL_SIDE_ROWS
        view.materialized = True
        _checkpoint_timing(self.timings, view, start, side=rows)
        self._refresh({name}, rows_changed=False)

    def emptied(self, name: str) -> None:
        """No row: `name` is redefined as empty, and what reads it is computed again."""
        self.need([name])  # its columns
        self.executor.empty(name)
        self.empty.add(name)
        self.views[name].replaced = True
        self._refresh({name}, rows_changed=True)

    def replaced(self, names: set[str]) -> None:
        """Views the runner redefined with new rows (a retraction snapshot): everything
        that depends on them is computed again."""
        for name in names:
            self.views[name].replaced = True
            self.empty.discard(name)
        self._refresh(set(names), rows_changed=True)

    def _refresh(self, stale: set[str], rows_changed: bool) -> None:
        """Define again what reads the views `stale`, directly or through others. A view
        not defined yet will read their new definitions when it is; it passes the change
        on to a view defined in another form that reads it (an aggregate's clean groups)."""
        for name, view in list(self.views.items()):
            if name in stale or view.replaced or not stale.intersection(view.stmt.reads):
                continue
            if view.pending and not (view.empty_pending and rows_changed):
                stale.add(name)
                continue
            if view.materialized and not rows_changed:
                continue  # its copy reads nothing
            self.need(view.stmt.reads)
            self.executor.execute(view.stmt.sql)
            view.pending = view.empty_pending = False
            self.empty.discard(name)
            self._counted_empty(view.stmt)
            self._observe(name)
            if view.materialized:
                view.materialized = self._copy(view, "next")
            stale.add(name)

    def _copy(self, view: _View, suffix: str,
              inline: Callable[[], tuple | None] | None = None, settle: bool = False) -> bool:
        """`_checkpoint`; its job runs with Spark's adaptive empty-branch rule when nothing
        is observed (a copy of failures or one that counts as it writes observes its rows).
        `settle`: the views the job reads are settled first, when a job runs (a copy
        proved empty, or not needed, plans nothing: redefining them took ~20 ms a view)."""
        counts = view.checkpoint.step.counts if view.checkpoint is not None else {}
        name = view.stmt.name

        def job():
            if settle:
                self.settle([name])
            return self.adaptive([name], observing=view.failures or bool(counts))

        return _checkpoint(self.executor, view, self.timings, self.scratch, suffix,
                           self.empty, inline, job, self.need)


def _iterate(views: _Views, fixpoint: Statement, news: str) -> int:
    """Repeat the pass until nothing new is retracted (codegen/retraction.py). The views
    the fixpoint statement reads (the pass's triggers) are materialized: the candidates,
    the snapshot of the triggers seen and the DLQ after the last pass read that copy
    instead of computing every error view again. A new snapshot of what is retracted
    defines again, and materializes again, every view that depends on it (`_Views`); the
    others (the source, the nodes before the retraction inputs, an aggregate's arguments)
    keep their first definition. `news`: the compiled query that finds new triggers
    (codegen/alternatives.py)."""
    executor = views.executor
    for name in fixpoint.reads:
        views.checkpoint(name, failures=True)  # the pass's triggers
    k = 0
    start = time.perf_counter()
    reads = [R.CANDIDATES, R.RETRACTED, TRIGGERS_VIEW]
    late = fixpoint.step.late if isinstance(fixpoint.step, FixpointStep) else None
    while True:
        # the candidates are what is retracted plus what the triggers retract: none, none
        # new; or, after the first pass, only the early triggers that seeded what is
        # retracted, when that pass counted no row of the other error views
        known = TRIGGERS_VIEW in views.empty or (
            k == 0 and late is not None and views.empty.issuperset(late))
        if known:
            new = None
        else:
            views.need(reads)
            with views.adaptive(reads):
                new = executor.first(news)
        views.timings.append({"node": None, "name": f"retraction pass {k}", "kind": "fixpoint",
                              "seconds": round(time.perf_counter() - start, 4),
                              **({"known": True} if known else {})})
        if new is None:
            return k
        k += 1
        if k > R.MAX_ITERATIONS:
            raise fail("CS021", f"retraction did not reach a fixpoint in {R.MAX_ITERATIONS} "
                       "passes")
        start = time.perf_counter()
        with views.adaptive(reads):
            for statement in R.iteration_statements(k, views.scratch):
                executor.execute(statement)
        views.replaced({R.TRIGGERS_SEEN, R.RETRACTED})


def _written_counts(views: _Views, stmt: Statement, watched: list, compiled: Compiled
                    ) -> dict[str, Any]:
    """What the sinks wrote (codegen/written.py): counted while the writes ran when the
    executor observed every sink's write (the compiler asks for it only when the counts
    need no grouping), else by the `written` query."""
    observed = [w() for w in watched]
    if watched and len(observed) == len(compiled.sinks) and None not in observed:
        out: dict[str, Any] = {}
        for part in observed:
            for key, value in part.items():
                out[key] = out.get(key, 0) + int(value or 0)
        out["ok"] = sum(int(v) for k, v in out.items() if k.startswith("written:"))
        return out
    views.need(stmt.reads)
    if views.unwatched:  # the counted views it reads, without their counts
        views.settle(list(stmt.reads))
    start = time.perf_counter()
    out = views.executor.first(stmt.sql)
    views.timings.append({"node": None, "name": stmt.name, "kind": "report",
                          "seconds": round(time.perf_counter() - start, 4)})
    return out


def _dlq_has_entries(counts: dict[str, Any], step: WriteStep) -> bool:
    """Whether a DLQ write runs: Clinker writes no DLQ file without entries (each write
    lays out its columns from its entries itself, codegen/dlq.py::_dlq_write); a file of
    some sources' entries (`per_source.<s>.path`) counts theirs."""
    def of(sources: tuple[str, ...]) -> int:
        return sum(int(counts.get(f"dlq:{s}") or 0) for s in sources)
    if step.dlq_only:
        return of(step.dlq_only) > 0
    return int(counts.get("dlq") or 0) - of(step.dlq_except) > 0


def _timed(executor: Executor, stmt: Statement, timings: list, progress) -> None:
    if progress:
        progress(stmt)
    start = time.perf_counter()
    try:
        executor.execute(stmt.sql)
    except StatementFailed as exc:
        exc.statement = stmt  # type: ignore[attr-defined]
        raise
    timings.append({"node": stmt.node, "name": stmt.name, "kind": stmt.kind,
                    "seconds": round(time.perf_counter() - start, 4)})


def _result(compiled: Compiled, counts: dict[str, Any], timings: list) -> RunResult:
    per_source = {s: _fates(counts, s) for s in compiled.sources}
    written = {s.name: int(counts.get(f"written:{s.name}") or 0) for s in compiled.sinks}
    total = sum(v["total"] for v in per_source.values())
    dlq = int(counts.get("dlq") or 0)
    summary = {"total": total, "ok": int(counts.get("ok") or 0),
               "written": sum(written.values()), "dlq": dlq}
    code = EXIT_DLQ if dlq and compiled.strategy == "continue" else EXIT_OK
    return RunResult(code, summary, timings, per_source, written)


def _fates(counts: dict[str, Any], src: str) -> dict[str, int]:
    """Where the rows of one source ended up. `dlq` counts DLQ entries (an inclusive route
    or a combine may give one row several); the rest count distinct source rows, and
    `total = written + dlq_rows + removed` when nothing is lost (`removed`: dropped by a
    filter or a skip, or folded into an aggregate row)."""
    n = {k: int(counts.get(f"{k}:{src}") or 0)
         for k in ("total", "dlq", "dlq_rows", "dlq_triggers", "written_rows")}
    return {"total": n["total"], "written": n["written_rows"], "dlq": n["dlq"],
            "dlq_triggers": n["dlq_triggers"],
            "dlq_collaterals": n["dlq_rows"] - n["dlq_triggers"],
            "removed": n["total"] - n["written_rows"] - n["dlq_rows"]}


def _fail_fast(first: dict[str, Any]) -> Exception:
    stage = first.get("_cxl_dlq_stage") or ""
    detail = first.get("_cxl_dlq_error_detail") or ""
    if stage == "source":
        return fail("E126", f"source type error under strategy: fail_fast: {detail}",
                    hint="fix the value, or use `strategy: continue` with a dlq to route bad "
                         "rows to the DLQ")
    if stage.startswith("output:"):  # a CSV sink's multi-value join (codegen/multi_value.py)
        return fail("CS106", f"{stage}: {detail} ({first.get('_cxl_dlq_source_name')} row "
                    f"{first.get('_cxl_dlq_source_row')})",
                    hint="set the field's join_values on_conflict to escape or encode_json, or "
                         "use `strategy: continue` with a dlq to route the record to the DLQ")
    err = fail("CS002", f"{stage}: evaluation failed on {first.get('_cxl_dlq_source_name')} row "
               f"{first.get('_cxl_dlq_source_row')}: {detail}",
               hint="use `strategy: continue` with a dlq to route failing rows to the DLQ")
    err.diagnostics[0] = Diagnostic("CS002", err.diagnostics[0].message, None,
                                    err.diagnostics[0].hint)
    assert err.exit_code == EXIT_EVAL
    return err


_ENGINE_CODES = {
    "MALFORMED_CSV_RECORD": "CS101", "MALFORMED_RECORD_IN_PARSING": "CS101",
    "FAILED_READ_FILE": "CS101", "PATH_NOT_FOUND": "CS102",
}


def _engine_failure(exc: StatementFailed, compiled: Compiled) -> Exception:
    stmt: Statement | None = getattr(exc, "statement", None)
    where = "" if stmt is None else \
        f" (node {stmt.node}, {stmt.name})" if stmt.node else f" ({stmt.name})"
    cls = (exc.error_class or "").split(".")[0]
    code = getattr(exc, "code", None) or _ENGINE_CODES.get(cls)
    if code is None and "Malformed" in exc.message:
        code = "CS101"
    if code is None and cls == "UNRESOLVED_COLUMN" and stmt is not None and \
            stmt.name.endswith(".rows"):
        return fail("CS102", f"a column declared in the schema is missing from the file"
                    f"{where}: {exc.message}")
    found = stmt.step.discovery if stmt is not None and isinstance(stmt.step, ViewStep) \
        else None
    if cls == "PATH_NOT_FOUND" and found:  # a server's sources (a local run checks first)
        return fail("E216", f"source '{found.source}' discovery failed: {exc.message}")
    default = "CS032" if getattr(exc, "remote", False) else "CS020"  # a server's error
    return fail(code or default, f"{exc.message}{where}")


def write_run_results(compiled: Compiled, result: RunResult, target: Path,
                      started: float) -> Path:
    return _write_results(target, {
        "pipeline": compiled.pipeline,
        "status": "completed_with_dlq" if result.exit_code == EXIT_DLQ else "success",
        "exit_code": result.exit_code,
        "error": None,
        "elapsed_seconds": round(time.time() - started, 3),
        "counts": result.counts,
        "per_source": result.per_source,
        "written": result.written,
        "statements": result.timings,
    })


def write_failed_run_results(pipeline: str, error: BaseException, target: Path,
                             started: float, compiled: Compiled | None = None,
                             partial: dict[str, Any] | None = None) -> Path:
    """The run results of a run that did not finish: its status (`failed`, or
    `interrupted` by a signal), the exit code the command ends with, the diagnostics,
    and what it got to (`partial`, from `run_compiled`): its counts when the writes had
    run (nothing was committed), the statements that ran."""
    partial = partial or {}
    counts = partial.get("counts")
    result = _result(compiled, counts, []) if counts and compiled is not None else None
    return _write_results(target, {
        "pipeline": pipeline,
        "status": "interrupted" if isinstance(error, KeyboardInterrupt) else "failed",
        "exit_code": failure_exit_code(error),
        "error": _failure(error),
        "elapsed_seconds": round(time.time() - started, 3),
        "counts": result.counts if result else None,
        "per_source": result.per_source if result else None,
        "written": result.written if result else None,
        "statements": list(partial.get("statements") or []),
    })


def failure_exit_code(error: BaseException) -> int:
    """The exit code the command line ends a run with for `error` (cli.py, `_guard`)."""
    if isinstance(error, DiagnosticError):
        return error.exit_code
    if isinstance(error, KeyboardInterrupt):
        return EXIT_INTERRUPTED
    return EXIT_CONFIG  # CS999


def _failure(error: BaseException) -> dict[str, Any]:
    if isinstance(error, DiagnosticError):
        diags = [{"code": d.code, "message": d.message,
                  "location": None if d.location is None else str(d.location)}
                 for d in error.diagnostics]
        first = diags[0] if diags else {"code": None, "message": str(error)}
        return {"code": first["code"], "message": first["message"], "diagnostics": diags}
    if isinstance(error, KeyboardInterrupt):
        return {"code": None, "message": "interrupted", "diagnostics": []}
    message = f"internal error in clinker-sql: {type(error).__name__}: {error}"
    return {"code": "CS999", "message": message,
            "diagnostics": [{"code": "CS999", "message": message, "location": None}]}


def _write_results(target: Path, fields: dict[str, Any]) -> Path:
    """run_results.json, replaced whole (a killed process leaves the previous one)."""
    target.mkdir(parents=True, exist_ok=True)
    data = {"run_results_version": RUN_RESULTS_VERSION,
            "generator": f"clinker-sql {__version__}", **fields}
    path = target / "run_results.json"
    temp = target / ".run_results.json.tmp"
    temp.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
    temp.replace(path)
    return path


__all__ = ["EXIT_IO", "RunResult", "run_compiled", "write_failed_run_results",
           "write_run_results"]
