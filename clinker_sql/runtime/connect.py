"""Executor over a Spark Connect server (pyspark's own Connect client, gRPC).

One remote SparkSession for the whole run: the compiled statements create temporary views,
which live in the session that created them; closing the executor releases that session
(never the server). Each statement runs in a worker thread under the target's statement
timeout; at the deadline, or on Ctrl-C, every operation of the session is interrupted
(`interruptAll`). Errors keep Spark's error class, as in a local run (the Connect client
raises the server's error with its class).

As with a Thrift server, the server reads and writes the files itself: relative paths are
made absolute before the run (runtime/remote.py `absolutize`), and the client assembles the
staged parts, so the server must see this machine's paths: a server on this machine
(loopback) does; any other host is refused (CS034) unless the target declares
`shared_filesystem` (cluster-native I/O is a later step).
"""

from __future__ import annotations

import logging
import os
import re
import socket
import threading
import time
import warnings
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any, TypeVar
from urllib.parse import quote, unquote, urlsplit

from clinker_sql.diagnostics import fail
from clinker_sql.runtime.executor import Capabilities, Executor, StatementFailed
from clinker_sql.runtime.local import _QUERY, _quiet_pyspark_error_logs, _translate
from clinker_sql.runtime.remote import (
    RemoteExecutor,
    RemoteTarget,
    one_line,
    quietly,
    seconds,
    statement_timeout,
)

DEFAULT_PORT = 15002
#: connection attempts before a run gives up (refused, unreachable, timed out), and the
#: wait before the second one (doubled each time)
CONNECT_TRIES = 3
CONNECT_BACKOFF = 0.5
#: how long closing the session, or an interrupt, may take before it is abandoned
CLOSE_WAIT = 5.0

_URL_KEYS = ("token", "use_ssl", "user_id", "statement_timeout", "connect_timeout",
             "shared_filesystem")
_TRUE = ("1", "true", "yes", "on")

T = TypeVar("T")


@dataclass(frozen=True)
class ConnectTarget(RemoteTarget):
    """Where and how to connect. The token is never part of repr() or messages."""

    port: int = DEFAULT_PORT
    token: str | None = field(default=None, repr=False)
    use_ssl: bool = False
    user: str | None = None  # Spark Connect's user_id

    @property
    def url(self) -> str:
        """The URL for messages: never the token."""
        host = self.url_host
        params = (["use_ssl=true"] if self.use_ssl else []) + \
            ([f"user_id={quote(self.user, safe='')}"] if self.user else [])
        return f"sc://{host}:{self.port}" + (f"/;{';'.join(params)}" if params else "")

    def client_url(self) -> str:
        """The URL for pyspark's Connect client, with the token."""
        host = self.url_host
        params = [f"token={self.token}"] if self.token else []
        if self.use_ssl:
            params.append("use_ssl=true")
        if self.user:
            params.append(f"user_id={self.user}")
        return f"sc://{host}:{self.port}" + (f"/;{';'.join(params)}" if params else "")

    def validate(self) -> ConnectTarget:
        self.check_numbers(self.port)
        for what, value in (("token", self.token), ("user_id", self.user)):
            if value is not None and (not value or any(c in value for c in ";/ \t\r\n")):
                raise fail("CS035", f"the {what} may not be empty nor hold ';', '/' or "
                           "spaces")
        return self


def _in_thread(fn: Callable[[], Any], limit: float
               ) -> tuple[threading.Thread, dict[str, Any]]:
    """Start `fn` in a daemon thread and wait up to `limit` seconds: the thread (alive when
    `fn` has not returned) and what it gave, `value` or `error`."""
    box: dict[str, Any] = {}

    def work() -> None:
        try:
            box["value"] = fn()
        except BaseException as exc:  # noqa: BLE001 - handed to the calling thread
            box["error"] = exc
    worker = threading.Thread(target=work, name="clinker-sql-connect", daemon=True)
    worker.start()
    worker.join(limit)
    return worker, box


def parse_connect_url(url: str) -> ConnectTarget:
    """`sc://host[:port][/;token=...;use_ssl=true;user_id=...]`, Spark Connect's own URL
    shape, plus clinker-sql's `statement_timeout`, `connect_timeout` and
    `shared_filesystem` parameters."""
    parts = urlsplit(url)
    if parts.scheme != "sc" or not parts.hostname:
        raise fail("CS035", "not a Spark Connect target URL: "
                   f"'{_without_token(url)}'",
                   hint="write sc://host:port, e.g. sc://127.0.0.1:15002")
    if parts.username is not None or parts.query or parts.fragment:
        raise fail("CS035", f"a Spark Connect URL takes its options as /;key=value, not as "
                   f"user@, ?query or #fragment: '{_without_token(url)}'",
                   hint="e.g. sc://host:15002/;user_id=etl;use_ssl=true")
    try:
        port = parts.port or DEFAULT_PORT
    except ValueError:
        raise fail("CS035", f"invalid port in '{parts.netloc}'") from None
    path = parts.path
    if path not in ("", "/") and not path.startswith("/;"):
        raise fail("CS035", f"a Spark Connect URL has no path: '{_without_token(url)}'",
                   hint="options follow a slash and semicolons: sc://host:port/;key=value")
    kwargs: dict[str, Any] = {}
    for item in path[2:].split(";") if path.startswith("/;") else []:
        if not item:
            continue
        key, eq, value = item.partition("=")
        if not eq:
            raise fail("CS035", f"option '{key}' in the target URL has no value (key=value)")
        value = unquote(value)
        if key == "token":
            kwargs["token"] = value
        elif key == "use_ssl":
            kwargs["use_ssl"] = value.lower() in _TRUE
        elif key == "user_id":
            kwargs["user"] = value
        elif key in ("statement_timeout", "connect_timeout"):
            kwargs[key] = seconds(value, key)
        elif key == "shared_filesystem":
            kwargs[key] = value.lower() in _TRUE
        else:
            raise fail("CS035", f"unknown option '{key}' in the target URL",
                       hint=f"known: {', '.join(_URL_KEYS)}")
    return ConnectTarget(parts.hostname, port, **kwargs).validate()


def _without_token(url: str) -> str:
    """The URL as a message may show it: the token's value masked."""
    head, sep, rest = url.partition(";")
    if not sep:
        return url
    items = [("token=***" if p.startswith("token=") else p) for p in rest.split(";")]
    return head + sep + ";".join(items)


# --------------------------------------------------------------------------
# the executor
# --------------------------------------------------------------------------


class ConnectExecutor(RemoteExecutor):
    """Runs statements in one Spark Connect session."""

    # the server's catalog outlives the run: table sinks work; the rest is plain SQL
    capabilities = Capabilities(local_files=True, keeps_tables=True)

    def __init__(self, target: ConnectTarget, tries: int = CONNECT_TRIES,
                 backoff: float = CONNECT_BACKOFF):
        super().__init__(target)
        self.spark = None
        self._connect(tries, backoff)

    # -- connection ---------------------------------------------------------

    def _connect(self, tries: int, backoff: float) -> None:
        _quiet_client()
        try:
            with warnings.catch_warnings():  # pyspark warns about pandas versions it meets
                warnings.simplefilter("ignore")
                # gRPC's C core logs a failed handshake on stderr itself
                os.environ.setdefault("GRPC_VERBOSITY", "NONE")
                from pyspark.sql.connect.client.retries import DefaultPolicy
                # the Connect session class itself: pyspark.sql.SparkSession's builder marks
                # the whole process as Connect-only (SPARK_CONNECT_MODE_ENABLED), and an
                # embedded local session could then no longer start in it
                from pyspark.sql.connect.session import SparkSession
        except ImportError as exc:
            raise fail("CS035", f"the Spark Connect target needs pyspark's Connect client "
                       f"({exc})", hint="pip install 'clinker-sql[connect]'") from None
        _quiet_pyspark_error_logs()
        t = self.target
        for attempt in range(1, max(tries, 1) + 1):
            try:
                self._reachable()
                self.spark = self._bounded(
                    lambda: SparkSession.builder.remote(t.client_url()).create(),
                    t.connect_timeout, "opening the session")
                # a lost server fails a statement within seconds, not after the client's
                # default ten minutes of retries
                self.spark.client.set_retry_policies([DefaultPolicy(
                    max_retries=3, initial_backoff=200, max_backoff=2000)])
                self._bounded(lambda: self.spark.conf.get("spark.sql.session.timeZone"),
                              t.connect_timeout, "opening the session")
                return
            except KeyboardInterrupt:
                self.close()
                raise
            except _Unreachable as exc:
                self.close()
                if attempt >= tries:
                    raise fail("CS030", f"cannot reach the Spark Connect server at {t.url}: "
                               f"{exc}") from None
            except Exception as exc:  # noqa: BLE001 - classified into a coded diagnostic
                self.close()
                error, final = _connect_failure(exc, t)
                if final or attempt >= tries:
                    raise error from None
            time.sleep(backoff * 2 ** (attempt - 1))

    def _reachable(self) -> None:
        """A TCP connection to the server's port (refused or silent: CS030 at once, without
        the gRPC client's own minutes of reconnecting)."""
        t = self.target
        try:
            with socket.create_connection((t.host, t.port), timeout=t.connect_timeout):
                pass
        except (socket.timeout, TimeoutError):
            raise _Unreachable(f"no answer within {t.connect_timeout:g}s") from None
        except ConnectionRefusedError:
            raise _Unreachable("connection refused") from None
        except socket.gaierror as exc:
            raise _Unreachable(f"unknown host ({exc.strerror})") from None
        except OSError as exc:
            raise _Unreachable(exc.strerror or str(exc)) from None

    def close(self) -> None:
        """Release the session on the server (not the server) and close the channel."""
        spark, self.spark = self.spark, None
        if spark is not None:
            worker = threading.Thread(target=quietly, args=(spark.stop,), daemon=True)
            worker.start()
            worker.join(CLOSE_WAIT)

    # -- statements ---------------------------------------------------------

    def execute(self, sql: str) -> None:
        """Run one statement: a command runs when it is submitted; a query only when its
        rows are asked for, so it is collected."""
        def run() -> None:
            result = self._session().sql(sql)
            if _QUERY.match(sql):
                result.collect()
        self._statement(run)

    def query(self, sql: str) -> Iterator[dict[str, Any]]:
        """All the query's rows (the runner's queries return a few rows), with the same
        Python values as the local executor."""
        rows = self._statement(lambda: self._session().sql(sql).collect())
        return iter([row.asDict() for row in rows])

    def first(self, sql: str) -> dict[str, Any] | None:
        rows = self._statement(lambda: self._session().sql(sql).take(1))
        return rows[0].asDict() if rows else None

    def cancel(self) -> None:
        """Interrupt every running operation of the session (a signal unwinds the run)."""
        spark = self.spark
        if spark is not None:
            worker = threading.Thread(target=quietly, args=(spark.interruptAll,), daemon=True)
            worker.start()
            worker.join(CLOSE_WAIT)

    def _session(self):
        if self.spark is None:
            raise StatementFailed(f"the session with {self.target.url} is closed", None)
        return self.spark

    def _statement(self, fn: Callable[[], T]) -> T:
        """`fn` in a worker thread, under the statement timeout: at the deadline the
        session's operations are interrupted (CS033); Ctrl-C interrupts them, closes the
        session and re-raises; a failure is Spark's error class and message."""
        limit = self.target.statement_timeout
        try:
            worker, box = _in_thread(fn, limit)
        except KeyboardInterrupt:
            self.cancel()
            self.close()
            raise
        if worker.is_alive():
            self.cancel()
            worker.join(CLOSE_WAIT)
            raise statement_timeout(limit)
        if "error" in box:
            exc = box["error"]
            if isinstance(exc, StatementFailed):
                raise exc
            if isinstance(exc, KeyboardInterrupt):
                raise exc
            raise _statement_failure(exc, self.target) from None
        return box["value"]

    def _bounded(self, fn: Callable[[], T], limit: float, what: str) -> T:
        """`fn` in a worker thread, given up after `limit` seconds (as unreachable)."""
        worker, box = _in_thread(fn, limit)
        if worker.is_alive():
            raise _Unreachable(f"no answer within {limit:g}s while {what}")
        if "error" in box:
            raise box["error"]
        return box["value"]


class _Unreachable(Exception):
    """The server's port did not answer (refused, unreachable, silent)."""


def _quiet_client() -> None:
    """The Connect client logs gRPC errors itself, and warns when its retries are spent;
    clinker-sql reports them, coded."""
    warnings.filterwarnings("ignore", message=r"\[RETRIES_EXCEEDED\]")
    # the client converts results through pandas, and warns once about its version
    warnings.filterwarnings("ignore", message="PySpark does not yet fully support pandas",
                            category=FutureWarning)
    for name in ("pyspark.sql.connect.client.core", "pyspark.sql.connect.client",
                 "pyspark.sql.connect", "grpc"):
        logger = logging.getLogger(name)
        if not any(isinstance(h, logging.NullHandler) for h in logger.handlers):
            logger.addHandler(logging.NullHandler())
        logger.propagate = False


def _grpc_code(exc: BaseException) -> str:
    getter = getattr(exc, "getGrpcStatusCode", None)
    code = None
    if getter is not None:
        try:
            code = getter()
        except Exception:  # noqa: BLE001
            code = None
    if code is None:
        code_fn = getattr(exc, "code", None)
        try:
            code = code_fn() if callable(code_fn) else None
        except Exception:  # noqa: BLE001
            code = None
    return getattr(code, "name", str(code or ""))


def _connect_failure(exc: BaseException, t: ConnectTarget):
    """A coded diagnostic for a session that could not be opened, and whether to give up
    at once: CS031 when the server refused the credentials; CS030 otherwise (a TLS
    handshake that failed is not tried again)."""
    code = _grpc_code(exc)
    text = _reason(exc, t)
    low = str(exc).lower()
    if code in ("UNAUTHENTICATED", "PERMISSION_DENIED") or \
            any(w in low for w in ("unauthenticated", "permission denied", "invalid token")):
        who = f" for user '{t.user}'" if t.user else ""
        return fail("CS031", f"{t.url} refused the session{who}"
                    f"{' (with a token)' if t.token else ''}: {text}"), True
    if "ssl" in low or "tls" in low or "handshake" in low:
        return fail("CS030", f"cannot open a TLS session with {t.url}: {text}",
                    hint="check use_ssl: a server without TLS needs it off, one with TLS "
                         "on"), True
    return fail("CS030", f"cannot open a session on {t.url}: {text}"), False


_DETAILS = re.compile(r'details = "(.*?)"\s*$', re.MULTILINE)


def _reason(exc: BaseException, t: ConnectTarget) -> str:
    """One line of an error from the client: gRPC's details when it wraps an RPC error;
    never the token."""
    text = str(exc)
    found = _DETAILS.search(text)
    line = one_line(found.group(1) if found else text) or type(exc).__name__
    return line.replace(t.token, "***") if t.token else line


def _statement_failure(exc: BaseException, t: ConnectTarget) -> StatementFailed:
    """Spark's error class and a one-line message, as the local executor reports them; a
    lost connection is CS030."""
    code = _grpc_code(exc)
    if code in ("UNAVAILABLE", "DEADLINE_EXCEEDED") and not _has_class(exc):
        out = StatementFailed(f"lost the connection to {t.url}: {_reason(exc, t)}",
                              "CLINKER_CONNECTION_LOST")
        out.code = "CS030"  # type: ignore[attr-defined]
        return out
    failed = _translate(exc if isinstance(exc, Exception) else Exception(str(exc)))
    failed.code = None  # type: ignore[attr-defined]
    failed.remote = True  # type: ignore[attr-defined]
    return failed


def _has_class(exc: BaseException) -> bool:
    getter = getattr(exc, "getCondition", None)
    try:
        return bool(getter and getter())
    except Exception:  # noqa: BLE001
        return False


def open_executor(target) -> Executor:
    """The executor of a remote target: a Thrift or a Spark Connect session."""
    if isinstance(target, ConnectTarget):
        return ConnectExecutor(target)
    from clinker_sql.runtime.thrift import ThriftExecutor

    return ThriftExecutor(target)
