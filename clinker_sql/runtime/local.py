"""Executor over an embedded local SparkSession (one per process)."""

from __future__ import annotations

import logging
import os
import re
import signal
import threading
import time
import uuid
import warnings
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from clinker_sql import sqlbuild as S
from clinker_sql.codegen.retraction import CHECKPOINT_CODEC, copy_view_statement
from clinker_sql.codegen.templates import ident
from clinker_sql.cxl.functions import without_calls
from clinker_sql.diagnostics import fail
from clinker_sql.runtime.executor import Capabilities, Executor, StatementFailed
from clinker_sql.runtime.java import ensure_java

log = logging.getLogger(__name__)

CODEGEN_CACHE_ENTRIES = 2000

DEFAULT_CONF = {
    "spark.ui.enabled": "false",
    # with no UI, nothing reads the finished jobs, stages and SQL executions Spark's status
    # store keeps (1000 each by default, a plan graph per execution: ~2.5 MB per pipeline
    # run here); a session running pipeline after pipeline (the tests, a notebook) keeps few
    "spark.sql.ui.retainedExecutions": "20",
    "spark.ui.retainedJobs": "50",
    "spark.ui.retainedStages": "50",
    "spark.ui.retainedTasks": "1000",
    "spark.sql.shuffle.partitions": "4",
    "spark.sql.adaptive.enabled": "true",
    "spark.ui.showConsoleProgress": "false",
    "spark.driver.memory": "2g",
    "spark.sql.ansi.enabled": "true",
    "spark.sql.session.timeZone": "UTC",
    "spark.sql.caseSensitive": "true",
    # compiled code for whole-stage codegen, kept by its source: Spark keeps 100 classes,
    # and one run of a pipeline with a retraction aggregate or a combine generates 60-190,
    # so a session that runs pipelines again (tests, the benchmarks, a notebook) compiled
    # nearly all of them again each run (~15 ms each with Janino); a static setting
    "spark.sql.codegen.cache.maxEntries": str(CODEGEN_CACHE_ENTRIES),
    "spark.sql.warehouse.dir": os.path.join(os.path.expanduser("~"), ".cache", "clinker-sql",
                                            "warehouse"),
}

# how long to wait for a write's observed counts before counting with a query instead
OBSERVE_WAIT_SECONDS = 30.0
# how long a signal's cleanup waits for the cancelled jobs to stop
CANCEL_WAIT_SECONDS = 10.0
# how long nothing may run before a cancelled run's staging folders are removed
CANCEL_QUIET_SECONDS = 0.5

_session = None


def get_session(conf: dict[str, str] | None = None):
    """The process-wide SparkSession (tests share one; runs create it once)."""
    global _session
    if _session is not None:
        return _session
    ensure_java()
    # pyspark's value converters import its testing helpers, which warn once about the
    # pandas version when pandas is installed (the Connect extra brings it): not ours to
    # print on a run's standard error
    warnings.filterwarnings("ignore", message="PySpark does not yet fully support pandas")
    os.environ.setdefault("PYSPARK_PYTHON", "python3")
    os.environ.setdefault("SPARK_LOCAL_IP", "127.0.0.1")
    log_conf = os.path.join(os.path.dirname(__file__), "log4j2.properties")
    os.environ.setdefault(
        "PYSPARK_SUBMIT_ARGS",
        f"--driver-java-options -Dlog4j2.configurationFile=file:{log_conf} pyspark-shell")
    try:
        from pyspark.sql import SparkSession  # heavy: loaded only when a session starts
    except ImportError:
        raise fail("CS011", "`run` needs the embedded Spark, and pyspark is not installed "
                   "(pip install 'clinker-sql[spark]')") from None

    builder = SparkSession.builder.master(os.environ.get("CLINKER_SQL_MASTER", "local[2]"))
    builder = builder.appName("clinker-sql")
    settings = dict(DEFAULT_CONF)
    settings.update(conf or {})
    for key, value in settings.items():
        builder = builder.config(key, value)
    with _own_sigint():
        _session = builder.getOrCreate()
    _session.sparkContext.setLogLevel("ERROR")
    _quiet_pyspark_error_logs()
    return _session


@contextmanager
def _own_sigint() -> Iterator[None]:
    """Keep the SIGINT handler in place that was there before the SparkContext: PySpark's
    own cancels every job through Py4J from inside the call it interrupts (a reentrant
    call on that call's connection, which fails, and a traceback logged for each). The
    runner cancels the jobs itself as it unwinds (`LocalSparkExecutor.cancel`)."""
    main = threading.current_thread() is threading.main_thread()
    before = signal.getsignal(signal.SIGINT) if main else None
    try:
        yield
    finally:
        if before is not None:
            signal.signal(signal.SIGINT, before)


def _quiet_pyspark_error_logs() -> None:
    """PySpark 4 logs every analysis error it raises as a JSON line on stderr (its query
    context loggers); clinker-sql reports each error itself, with a code and a location."""
    try:
        from pyspark.logger import PySparkLogger
    except ImportError:  # an older PySpark logs nothing of the kind
        return
    for name in ("SQLQueryContextLogger", "DataFrameQueryContextLogger"):
        PySparkLogger.getLogger(name).disabled = True


class LocalSparkExecutor(Executor):
    capabilities = Capabilities(
        local_files=True, observe=True, list_files=True, keep_in_driver=True, copy=True,
        copy_counting=True, empty=True, planned_empty=True, broadcastable=True)

    def __init__(self, conf: dict[str, str] | None = None):
        self.spark = get_session(conf)

    def prepare(self, compiled, base):
        """A pipeline's relative paths resolve against its folder (`base`), as in Clinker,
        while the embedded Spark resolves them against the folder its JVM started in: the
        local file system's working folder (which Spark qualifies a relative path with,
        reading and writing) is set to `base` for the run. The statements keep their text."""
        jvm = self.spark._jvm
        fs = jvm.org.apache.hadoop.fs.FileSystem.get(
            jvm.java.net.URI("file:///"), self.spark._jsc.hadoopConfiguration())
        fs.setWorkingDirectory(jvm.org.apache.hadoop.fs.Path(
            os.path.abspath(base) if base else os.getcwd()))
        return compiled

    def cancel(self, wait: float = CANCEL_WAIT_SECONDS) -> None:
        """Cancel the running jobs (a signal unwinds the run) and wait until the engine has
        been quiet for a moment: no job, no task, no statement running. The statement a
        signal interrupted goes on in the driver (the signal stops only the Python side of
        the call): it may submit its job after a first cancel, and a write creates its
        staging folder as it starts, so jobs are cancelled again until nothing runs; then
        no task writes into a staging folder the runner removes."""
        sc = self.spark.sparkContext
        tracker = sc.statusTracker()
        deadline = time.monotonic() + wait
        quiet_since: float | None = None
        while (now := time.monotonic()) < deadline:
            sc.cancelAllJobs()
            if tracker.getActiveJobsIds() or _running_tasks(sc) or \
                    _running_statements(self.spark):
                quiet_since = None
            elif quiet_since is None:
                quiet_since = now
            elif now - quiet_since >= CANCEL_QUIET_SECONDS:
                return
            time.sleep(0.02)

    def execute(self, sql: str) -> None:
        """Run one statement. Spark runs a command (CREATE, INSERT, SET...) as soon as it is
        submitted; collecting its empty result planned one more query, ~15 ms a statement.
        A `SET key=value` or `RESET key` goes to the session's conf directly (no SQL round
        trip: ~0.1 ms instead of ~5)."""
        try:
            setting = _SET.fullmatch(sql.strip())
            if setting:
                self.spark.conf.set(setting["key"], setting["value"])
                return
            reset = _RESET.fullmatch(sql.strip())
            if reset:
                self.spark.conf.unset(reset["key"])
                return
            result = self.spark.sql(sql)
            if _QUERY.match(sql):
                result.collect()
        except Exception as exc:  # noqa: BLE001 - translated into a StatementFailed
            raise _translate(exc) from None

    def query(self, sql: str) -> Iterator[dict[str, Any]]:
        """All the query's rows, collected in one action (the runner's queries return a
        few rows; a check or probe asks for its `first`). Not `toLocalIterator`: its jobs
        start after the query's SQL execution has ended, and Spark 4.3 then never forgets
        them (`DAGScheduler.activeQueryToJobs`), nor the broadcast relations they hold (a
        32 MB page each): a session running pipeline after pipeline ran out of memory."""
        try:
            rows = self.spark.sql(sql).collect()
        except Exception as exc:  # noqa: BLE001
            raise _translate(exc) from None
        return iter([row.asDict() for row in rows])

    def first(self, sql: str) -> dict[str, Any] | None:
        try:
            rows = self.spark.sql(sql).take(1)
        except Exception as exc:  # noqa: BLE001
            raise _translate(exc) from None
        return rows[0].asDict() if rows else None

    def observe(self, view: str, counts: dict[str, str]) -> Callable[[], dict | None]:
        """Count while the next statement reading `view` runs (`Dataset.observe`): the view
        is redefined over an observed copy of itself. Returns a function giving the counts
        once that statement has run (None if Spark did not report them in time: the caller
        then counts with a query)."""
        from pyspark.sql import Observation  # heavy: loaded with the session
        from pyspark.sql import functions as F

        observation = Observation(f"clinker-sql-{uuid.uuid4().hex}")
        name = ident(view)
        try:
            df = self.spark.table(name)
            df.observe(observation, *[F.expr(without_calls(e)).alias(k)
                                      for k, e in counts.items()]
                       ).createOrReplaceTempView(name)
        except Exception as exc:  # noqa: BLE001
            raise _translate(exc) from None

        seen: list[dict] = []

        def result(wait: float = OBSERVE_WAIT_SECONDS) -> dict | None:
            # once arrived, the counts never change: kept, since handing them over from
            # the JVM again cost ~45 ms a call (a source's key sketch is 32 KB)
            if not seen:
                got = _observed(observation, view, wait)
                if got is None:
                    return None
                seen.append(got)
            return seen[0]

        return result

    def copy(self, view: str, path: str, wait: float = 2.0) -> int | None:
        """Write `view` as Parquet at `path` and redefine it over the copy; returns the rows
        written, counted while writing (`Dataset.observe`; None when Spark did not report
        them in time): a copy of failures then needs no query to tell whether it is
        empty."""
        seen = self.copy_counting(view, path, {}, wait)
        return None if seen is None else seen["n"]

    def copy_counting(self, view: str, path: str, counts: dict[str, str],
                      wait: float = 2.0) -> dict[str, int] | None:
        """`copy`, counting `counts` too (name -> SQL aggregate) while writing: the rows
        written (`n`) and each count by name, or None when Spark did not report them."""
        from pyspark.sql import Observation  # heavy: loaded with the session
        from pyspark.sql import functions as F

        observation = Observation(f"clinker-sql-copy-{uuid.uuid4().hex}")
        try:
            df = self.spark.table(ident(view)).observe(
                observation, F.count(F.lit(1)).alias("n"),
                *[F.expr(without_calls(e)).alias(f"x{i}")
                  for i, e in enumerate(counts.values())])
            df.write.mode("overwrite").option("compression", CHECKPOINT_CODEC).parquet(path)
            self.spark.sql(copy_view_statement(view, path))
        except Exception as exc:  # noqa: BLE001
            raise _translate(exc) from None
        seen = _observed(observation, view, wait)
        if seen is None:
            return None
        return {"n": int(seen["n"]), **{name: int(seen[f"x{i}"])
                                        for i, name in enumerate(counts)}}

    def planned_empty(self, view: str) -> bool:
        """Whether Spark's optimizer already proved `view` empty (its optimized plan is an
        empty local relation: a union of empty copies, a filter that is always false): a
        copy of it would write no row, so the runner skips the job."""
        try:
            plan = self.spark.table(ident(view))._jdf.queryExecution().optimizedPlan()
            return plan.getClass().getSimpleName() == "LocalRelation" and plan.data().isEmpty()
        except Exception:  # noqa: BLE001 - only a shortcut: the copy is made as before
            return False

    def broadcastable(self, view: str) -> bool:
        """Whether Spark's optimizer estimates `view` under its broadcast-join threshold
        (no job runs): a join planned with it as its build side then broadcasts it."""
        try:
            state = self.spark._jsparkSession.sessionState()
            limit = int(state.conf().autoBroadcastJoinThreshold())
            plan = self.spark.table(ident(view))._jdf.queryExecution().optimizedPlan()
            return 0 <= int(str(plan.stats().sizeInBytes())) <= limit
        except Exception:  # noqa: BLE001 - only a shortcut: the copy is made as before
            return False

    def list_files(self, scan: str, view: str) -> list[str]:
        """Define `view` (one column, `$file`) as the files the scan `scan` reads, as
        `input_file_name()` names them: Spark's file index lists them, no job runs.
        Returns them, in name order."""
        try:
            files = sorted(set(self.spark.table(ident(scan)).inputFiles()))
            self.spark.sql(S.values_view(view, [("$file", "string")], [(f,) for f in files]))
        except Exception as exc:  # noqa: BLE001
            raise _translate(exc) from None
        return files

    def keep_in_driver(self, view: str) -> None:
        """Redefine `view` over its rows collected into the driver (a local relation):
        for views of a few rows (one per file), which every reader then joins without a
        job of its own."""
        try:
            df = self.spark.table(ident(view))
            columns = [(f.name, f.dataType.simpleString()) for f in df.schema.fields]
            self.spark.sql(S.values_view(view, columns, [tuple(r) for r in df.collect()]))
        except Exception as exc:  # noqa: BLE001
            raise _translate(exc) from None

    def empty(self, view: str) -> None:
        """Redefine `view` with its columns and no row: an empty local relation, which
        Spark plans no read for. Not `LIMIT 0` over the view: that keeps the view's whole
        plan below it, and every view that reads it analyzes that plan again (a clean
        retraction run's DLQ views took 0.13 s more each to define)."""
        try:
            jvm, session = self.spark._jvm, self.spark._jsparkSession
            schema = self.spark.table(ident(view))._jdf.schema()
            session.createDataFrame(jvm.java.util.ArrayList(), schema) \
                .createOrReplaceTempView(ident(view))
        except Exception as exc:  # noqa: BLE001
            raise _translate(exc) from None


def _running_statements(spark) -> int:
    """SQL statements still running in the driver: a write whose job was cancelled then
    aborts its commit (FileFormatWriter), which may create its output folder again after
    the runner removed it."""
    try:
        store = spark._jsparkSession.sharedState().statusStore()
        count = int(store.executionsCount())
        recent = store.executionsList(max(0, count - 8), 8)  # a running one is recent
        return sum(1 for i in range(recent.size())
                   if recent.apply(i).completionTime().isEmpty())
    except Exception:  # noqa: BLE001 - only a wait: none known
        return 0


def _running_tasks(sc) -> int:
    """Tasks still running (a cancelled job's tasks stop after the job is gone)."""
    try:
        return sum(int(e.numRunningTasks())
                   for e in sc._jsc.sc().statusTracker().getExecutorInfos())
    except Exception:  # noqa: BLE001 - only a wait: none known
        return 0


def _observed(observation, view: str, wait: float) -> dict | None:
    """An observation's counts once its statement has run; None when Spark did not report
    them within `wait` seconds, or could not hand the row over (an assertion in PySpark's
    row conversion, met in combine runs when a source's rows were observed): the caller
    then counts with a query."""
    done = observation._jo.future()  # metrics arrive through the listener bus, just after
    deadline = time.monotonic() + wait
    while not done.isCompleted():
        if time.monotonic() > deadline:
            if wait > 0:
                log.warning("no observed counts for %s", view)
            return None
        time.sleep(0.005)
    try:
        return dict(observation.get)
    except Exception:  # noqa: BLE001 - see above; also met when every row is bad
        log.debug("observed counts for %s could not be read", view)
        return None


_SET = re.compile(r"SET (?P<key>[A-Za-z0-9_.]+)=(?P<value>[^;\s]*)")
_RESET = re.compile(r"RESET (?P<key>[A-Za-z0-9_.]+)")
_QUERY = re.compile(r"\s*(\(|SELECT\b|WITH\b|FROM\b|VALUES\b|TABLE\b)", re.IGNORECASE)
_CLASS = re.compile(r"\[([A-Z][A-Z0-9_]+(?:\.[A-Z0-9_]+)*)\]")


def _translate(exc: Exception) -> StatementFailed:
    """Spark's error class and a one-line message, whatever wrapper the error came in."""
    text = str(exc)
    error_class = None
    getter = getattr(exc, "getCondition", None) or getattr(exc, "getErrorClass", None)
    if getter is not None:
        try:
            error_class = getter()
        except Exception:  # noqa: BLE001
            error_class = None
    matches = _CLASS.findall(text)
    # the root cause is the most specific class (e.g. MALFORMED_CSV_RECORD under FAILED_READ_FILE)
    for candidate in reversed(matches):
        if candidate.split(".")[0] in _SPECIFIC:
            error_class = candidate
            break
    else:
        error_class = error_class or (matches[0] if matches else None)
    lines = text.splitlines()
    # without an error class, the JVM's root cause says more than Py4J's first line
    causes = [ln.strip()[len("Caused by: "):] for ln in lines
              if ln.strip().startswith("Caused by: ")]
    # Py4J's first line only names the call ("An error occurred while calling o48.sql."):
    # the JVM's exception is the next line, ": java.lang.Foo: message"
    thrown = next((ln[2:].strip() for ln in lines[1:] if ln.startswith(": ")), None)
    line = next((ln.strip() for ln in lines if error_class and error_class in ln),
                causes[-1] if causes and not error_class else
                thrown if thrown and not error_class else
                lines[0] if lines else type(exc).__name__)
    if line is not thrown:  # an unexpected JVM failure keeps its exception's name
        line = re.sub(r"^.*?Exception: ", "", line)
    return StatementFailed(line, error_class)


_SPECIFIC = {"MALFORMED_CSV_RECORD", "MALFORMED_RECORD_IN_PARSING", "PATH_NOT_FOUND",
             "UNRESOLVED_COLUMN", "CANNOT_PARSE_JSON_FIELD", "FAILED_READ_FILE"}
