"""SIGINT and SIGTERM: the run unwinds, removes what it staged, and exits 130, as
Clinker's signal handler does for both. A signal that arrives while the outputs are
being moved into place waits until that commit is done (Clinker: publication, once
begun, is not interrupted)."""

from __future__ import annotations

import logging
import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager

CAUGHT = (signal.SIGINT, signal.SIGTERM)


class Terminated(KeyboardInterrupt):
    """SIGTERM, unwinding as Ctrl-C does: a KeyboardInterrupt, so that Py4J closes the
    connection a call was waiting on (any other exception would leave its answer unread)."""


def _raise(signum: int, frame) -> None:
    quiet_shutdown()
    raise Terminated() if signum == signal.SIGTERM else KeyboardInterrupt()


def install() -> None:
    """Both signals unwind the main thread (the command then exits 130)."""
    if threading.current_thread() is threading.main_thread():
        for sig in CAUGHT:
            signal.signal(sig, _raise)


class _Py4JShutdownNoise(logging.Filter):
    """Py4J logs, through the root logger, a traceback for each call a signal interrupts
    ("KeyboardInterrupt while sending command."); the run reports the interruption itself."""

    def filter(self, record: logging.LogRecord) -> bool:
        return "py4j" not in record.pathname


_NOISE = _Py4JShutdownNoise()


def quiet_shutdown() -> None:
    """From the signal on, nothing of Py4J's logging: its own loggers (the connections
    it then closes fail: "Exception occurred while shutting down connection") and what it
    logs through the root logger."""
    logging.getLogger("py4j").setLevel(logging.CRITICAL + 1)
    root = logging.getLogger()
    if _NOISE not in root.filters:
        root.addFilter(_NOISE)


@contextmanager
def deferred() -> Iterator[None]:
    """Hold SIGINT and SIGTERM back for the duration (the commit of the outputs); one that
    arrived meanwhile is handled as the block ends. Outside the main thread, nothing."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    pending: list[int] = []
    previous = {sig: signal.getsignal(sig) for sig in CAUGHT}

    def hold(signum: int, frame) -> None:
        pending.append(signum)

    for sig in CAUGHT:
        signal.signal(sig, hold)
    try:
        yield
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
        if pending:
            signal.raise_signal(pending[0])
