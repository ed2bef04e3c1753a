"""Executor over a Spark Thrift server (HiveServer2 protocol, PyHive).

One connection, hence one server session, for the whole run: the compiled
statements create temporary views, which live in the session that created them.
Each statement is submitted asynchronously and polled with back-off, under a
per-statement timeout; Ctrl-C cancels the running operation and closes the
session. Results are fetched in batches.

The server reads and writes the files itself, so relative paths in the compiled
SQL (relative to the client's working folder, as in a local run) are made
absolute before the run (`absolutize`). The client then assembles the staged
parts as in a local run, which needs the server to see the same filesystem: a
server on this machine (loopback) does; for any other host the run is refused
(CS034) unless the target declares `shared_filesystem: true`.
"""

from __future__ import annotations

import json
import logging
import re
import socket
import time
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from datetime import date
from typing import Any
from urllib.parse import parse_qsl, unquote, urlsplit

from clinker_sql import sqlbuild as S
from clinker_sql.diagnostics import fail
from clinker_sql.runtime.executor import Capabilities, StatementFailed
from clinker_sql.runtime.local import _translate
from clinker_sql.runtime.remote import (  # noqa: F401 - absolutize, resolve_path: API here too
    RemoteExecutor,
    RemoteTarget,
    absolutize,
    is_loopback,
    resolve_path,
)
from clinker_sql.runtime.remote import one_line as _one_line
from clinker_sql.runtime.remote import quietly as _quietly
from clinker_sql.runtime.remote import seconds as _seconds
from clinker_sql.runtime.remote import statement_timeout as _timeout

AUTH_MODES = ("NONE", "NOSASL", "LDAP", "CUSTOM")
DEFAULT_PORT = 10000

# TOperationState (TCLIService): the states in which an operation is still going
_INITIALIZED, _RUNNING, _FINISHED, _CANCELED, _CLOSED, _ERROR, _UNKNOWN, _PENDING, _TIMEDOUT = \
    range(9)
_GOING = (_INITIALIZED, _RUNNING, _PENDING)


@dataclass(frozen=True)
class ThriftTarget(RemoteTarget):
    """Where and how to connect. The password is never part of repr() or messages."""

    port: int = DEFAULT_PORT
    database: str = "default"
    user: str | None = None
    auth: str = "NONE"
    password: str | None = field(default=None, repr=False)

    @property
    def url(self) -> str:
        db = "" if self.database == "default" else f"/{self.database}"
        return f"thrift://{self.url_host}:{self.port}{db}"

    def validate(self) -> ThriftTarget:
        auth = (self.auth or "NONE").upper()
        if auth not in AUTH_MODES:
            raise fail("CS035", f"unknown Thrift auth mode '{self.auth}'",
                       hint=f"use one of {', '.join(AUTH_MODES)}")
        if self.password is not None and auth not in ("LDAP", "CUSTOM"):
            raise fail("CS035", f"a password is only used with auth LDAP or CUSTOM, not {auth}",
                       hint="add --auth LDAP (or auth: LDAP in the profile), or drop the "
                            "password")
        if auth in ("LDAP", "CUSTOM") and not self.password:
            raise fail("CS035", f"auth {auth} needs a password",
                       hint="name the environment variable that holds it with --password-env "
                            "(or password_env: in the profile)")
        if not re.fullmatch(r"[A-Za-z0-9_]+", self.database or ""):
            raise fail("CS035", f"invalid database name '{self.database}'")
        self.check_numbers(self.port)
        return replace(self, auth=auth)


def parse_target_url(url: str) -> ThriftTarget:
    """`thrift://[user@]host[:port][/database][?auth=LDAP&statement_timeout=600]`."""
    parts = urlsplit(url)
    if parts.scheme != "thrift" or not parts.hostname:
        raise fail("CS035", f"not a Thrift target URL: '{url}'",
                   hint="write thrift://host:port, e.g. thrift://127.0.0.1:10000")
    if parts.password is not None:
        raise fail("CS035", "a password may not be written into the target URL",
                   hint="put it in an environment variable and pass --password-env NAME")
    try:
        port = parts.port or DEFAULT_PORT
    except ValueError:
        raise fail("CS035", f"invalid port in '{parts.netloc}'") from None
    kwargs: dict[str, Any] = {}
    for key, value in parse_qsl(parts.query, keep_blank_values=True):
        if key == "auth":
            kwargs["auth"] = value
        elif key in ("statement_timeout", "connect_timeout"):
            kwargs[key] = _seconds(value, key)
        elif key == "shared_filesystem":
            kwargs[key] = value.lower() in ("1", "true", "yes", "on")
        else:
            raise fail("CS035", f"unknown option '{key}' in the target URL",
                       hint="known: auth, statement_timeout, connect_timeout, "
                            "shared_filesystem")
    database = unquote(parts.path.strip("/")) or "default"
    user = unquote(parts.username) if parts.username else None
    return ThriftTarget(parts.hostname, port, database, user, **kwargs)


# --------------------------------------------------------------------------
# the executor
# --------------------------------------------------------------------------


class ThriftExecutor(RemoteExecutor):
    """Runs statements in one HiveServer2 session."""

    # the server's catalog outlives the run: table sinks work; the rest is plain SQL
    capabilities = Capabilities(local_files=True, keeps_tables=True)

    def __init__(self, target: ThriftTarget, batch_size: int = 10_000,
                 poll_initial: float = 0.02, poll_max: float = 0.5):
        super().__init__(target)
        self.batch_size = batch_size
        self.poll_initial = poll_initial
        self.poll_max = poll_max
        self._conn = None
        self._cursor = None
        self._socket = None
        self._connect()

    # -- connection ---------------------------------------------------------

    def _connect(self) -> None:
        try:
            from pyhive import hive
            from thrift.transport import TSocket, TTransport
        except ImportError:
            raise fail("CS035", "the Thrift target needs PyHive",
                       hint="pip install 'clinker-sql[thrift]'") from None
        _quiet_libraries()
        t = self.target
        user = t.user or _login_name()
        sock = TSocket.TSocket(t.host, t.port)
        sock.setTimeout(t.connect_timeout * 1000)
        if t.auth == "NOSASL":
            transport = TTransport.TBufferedTransport(sock)
        else:
            import thrift_sasl

            password = t.password if t.auth in ("LDAP", "CUSTOM") else "x"

            def sasl_client():
                return hive.get_installed_sasl(host=t.host, sasl_auth="PLAIN", service=None,
                                               username=user, password=password)
            transport = thrift_sasl.TSaslClientTransport(sasl_client, "PLAIN", sock)
        try:
            self._conn = hive.Connection(thrift_transport=transport, username=user)
        except KeyboardInterrupt:
            _quietly(transport.close)
            raise
        except Exception as exc:  # noqa: BLE001 - classified into a coded diagnostic
            _quietly(transport.close)
            raise _connect_failure(exc, t) from None
        self._socket = sock
        # RPCs are short (statements run asynchronously): a dead server must not hang us
        sock.setTimeout(max(t.connect_timeout, 60.0) * 1000)
        self._cursor = self._conn.cursor(arraysize=self.batch_size)
        if t.database != "default":
            try:
                self._guarded(lambda: self._run(f"USE {S.to_sql(S.ident(t.database))}"))
            except StatementFailed as exc:
                self.close()
                raise fail("CS035", f"cannot use database '{t.database}' on {t.url}: "
                           f"{exc.message}") from None

    def close(self) -> None:
        conn, self._conn, self._cursor = self._conn, None, None
        if conn is not None:
            if self._socket is not None:
                _quietly(lambda: self._socket.setTimeout(5000))
            _quietly(conn.close)
            _quietly(conn._transport.close)  # noqa: SLF001 - when CloseSession failed

    # -- statements ---------------------------------------------------------

    def execute(self, sql: str) -> None:
        self._guarded(lambda: self._run(sql))

    def query(self, sql: str) -> Iterator[dict[str, Any]]:
        cursor = self._guarded(lambda: self._run(sql))
        names = [d[0] for d in cursor.description or []]
        kinds = [d[1] for d in cursor.description or []]
        while True:
            rows = self._guarded(lambda: cursor.fetchmany(self.batch_size))
            if not rows:
                return
            for row in rows:
                yield {n: _decode(v, k) for n, k, v in zip(names, kinds, row)}

    def _guarded(self, fn):
        """Ctrl-C: cancel the running operation, close the session, re-raise."""
        try:
            return fn()
        except KeyboardInterrupt:
            self._cancel()
            self.close()
            raise
        except StatementFailed:
            raise
        except Exception as exc:  # noqa: BLE001 - the transport or the protocol failed
            raise _rpc_failure(exc, self.target) from None

    def _run(self, sql: str):
        if self._cursor is None:
            raise StatementFailed(f"the session with {self.target.url} is closed", None)
        from pyhive.exc import OperationalError

        cursor = self._cursor
        # the limit covers the whole statement: a server may do part of the work (or all
        # of it) before it answers the submission
        deadline = time.monotonic() + self.target.statement_timeout
        try:
            cursor.execute(sql, async_=True)
        except OperationalError as exc:
            raise _statement_failure(_status_text(exc)) from None
        delay = self.poll_initial
        while True:
            status = cursor.poll(get_progress_update=False)
            state = status.operationState
            if state == _FINISHED:
                if time.monotonic() >= deadline:  # done, but later than allowed
                    raise _timeout(self.target.statement_timeout, cancelled=False)
                return cursor
            if state not in _GOING:
                text = status.errorMessage or f"operation ended in state {state}"
                raise _statement_failure(text)
            if time.monotonic() >= deadline:
                self._cancel()
                raise _timeout(self.target.statement_timeout)
            time.sleep(min(delay, max(0.0, deadline - time.monotonic())))
            delay = min(delay * 1.5, self.poll_max)

    def _cancel(self) -> None:
        cursor = self._cursor
        if cursor is None or getattr(cursor, "_operationHandle", None) is None:
            return
        if self._socket is not None:
            _quietly(lambda: self._socket.setTimeout(5000))
        _quietly(cursor.cancel)


def _quiet_libraries() -> None:
    """thrift logs connection errors itself; clinker-sql reports them, coded, instead."""
    for name in ("thrift", "thrift_sasl", "pyhive"):
        logger = logging.getLogger(name)
        if not any(isinstance(h, logging.NullHandler) for h in logger.handlers):
            logger.addHandler(logging.NullHandler())


def _login_name() -> str:
    try:
        import getpass

        return getpass.getuser()
    except Exception:  # noqa: BLE001
        return "clinker-sql"


def _status_text(exc: Exception) -> str:
    """The server's message from a PyHive OperationalError (a Thrift response)."""
    resp = exc.args[0] if exc.args else None
    status = getattr(resp, "status", None)
    if status is not None:
        return status.errorMessage or "\n".join(status.infoMessages or []) or str(exc)
    return str(exc)


_HIVE_PREFIX = re.compile(r"^(?:org\.apache\.hive\.service\.cli\.)?HiveSQLException:\s*"
                          r"(?:Error running query:\s*)?")
_JAVA_EXC = re.compile(r"(\[[A-Z][A-Z0-9_.]*\] )[a-z][\w.$]*(?:Exception|Error): (\[[A-Z][A-Z0-9_.]*\] )")


def _statement_failure(text: str) -> StatementFailed:
    """Spark's error class and a one-line message, as the local executor reports them."""
    text = _HIVE_PREFIX.sub("", text.strip())
    text = _JAVA_EXC.sub(lambda m: m.group(2) if m.group(1) == m.group(2) else m.group(0), text)
    exc = _translate(Exception(text))
    exc.code = None  # type: ignore[attr-defined]
    exc.remote = True  # type: ignore[attr-defined]
    return exc


def _connect_failure(exc: Exception, t: ThriftTarget) -> Exception:
    text = _status_text(exc)
    low = text.lower()
    if any(w in low for w in ("authentication", "login", "sasl", "password", "impersonat",
                              "not allowed", "permission denied", "bad status: 3",
                              "bad status: 4", "unauthorized")):
        return fail("CS031", f"{t.url} refused the login for user "
                    f"'{t.user or _login_name()}' (auth {t.auth}): {_one_line(text)}")
    if isinstance(exc, (socket.timeout, TimeoutError)) or "timed out" in low:
        return fail("CS030", f"cannot reach the Thrift server at {t.url}: no answer within "
                    f"{t.connect_timeout:g}s")
    if "could not connect" in low or isinstance(exc, ConnectionError) or \
            "connection refused" in low:
        return fail("CS030", f"cannot reach the Thrift server at {t.url}: connection refused")
    if "read 0 bytes" in low or "end of file" in low or "reset by peer" in low:
        return fail("CS031", f"{t.url} closed the connection while logging in (auth "
                    f"{t.auth}); is the server's hive.server2.authentication "
                    f"{'NOSASL' if t.auth != 'NOSASL' else 'a SASL mode'}?")
    return fail("CS030", f"cannot open a session on {t.url}: {_one_line(text)}")


def _rpc_failure(exc: Exception, t: ThriftTarget) -> StatementFailed:
    reason = _one_line(str(exc)) or type(exc).__name__
    out = StatementFailed(f"lost the connection to {t.url}: {reason}", "CLINKER_CONNECTION_LOST")
    out.code = "CS030"  # type: ignore[attr-defined]
    return out


def _decode(value: Any, kind: str) -> Any:
    """Thrift sends nested values as JSON-like text and dates as text: match the local
    executor's Python values."""
    if value is None:
        return None
    if kind in ("ARRAY_TYPE", "MAP_TYPE", "STRUCT_TYPE") and isinstance(value, str):
        try:
            return json.loads(value)
        except ValueError:
            return value
    if kind == "DATE_TYPE" and isinstance(value, str):
        try:
            return date.fromisoformat(value)
        except ValueError:
            return value
    return value
