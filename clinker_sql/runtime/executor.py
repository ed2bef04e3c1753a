"""The executor interface: the local SparkSession and (later) a Thrift server
run the very same compiled statements."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterator
from typing import Any


class StatementFailed(Exception):
    """A statement failed on the engine; `error_class` is Spark's error class if known."""

    def __init__(self, message: str, error_class: str | None = None):
        super().__init__(message)
        self.message = message
        self.error_class = error_class


class Executor(ABC):
    #: whether output paths are on this machine's filesystem (the client assembles files)
    local_files: bool = True

    @abstractmethod
    def execute(self, sql: str) -> None: ...

    @abstractmethod
    def query(self, sql: str) -> Iterator[dict[str, Any]]: ...

    def first(self, sql: str) -> dict[str, Any] | None:
        """The query's first row, or None: for checks and probes, which stop at one."""
        return next(iter(self.query(sql)), None)

    def close(self) -> None:  # pragma: no cover - optional
        pass

    def __enter__(self) -> Executor:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
