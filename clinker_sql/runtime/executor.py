"""The executor interface: the local SparkSession and (later) a Thrift server
run the very same compiled statements."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from pathlib import Path

    from clinker_sql.codegen.plan import Compiled


class StatementFailed(Exception):
    """A statement failed on the engine; `error_class` is Spark's error class if known."""

    def __init__(self, message: str, error_class: str | None = None):
        super().__init__(message)
        self.message = message
        self.error_class = error_class


@dataclass(frozen=True)
class Capabilities:
    """What an executor does beyond running statements. The runner asks these fields, never
    the executor's attributes: an operation not declared here is done with plain
    statements (or not at all), so a minimal executor runs every pipeline the same."""

    #: output paths are on this machine's filesystem (the client assembles the files)
    local_files: bool = True
    #: its catalog outlives the run, so that a table sink's table is kept
    keeps_tables: bool = False
    #: `observe`: counts taken while a statement's rows are written
    observe: bool = False
    #: `list_files`: a scan's files listed without a job
    list_files: bool = False
    #: `keep_in_driver`: a view of a few rows kept in the driver instead of copied
    keep_in_driver: bool = False
    #: `copy`: a checkpoint written and its rows counted in one job
    copy: bool = False
    #: `copy_counting`: a checkpoint that also counts other views' rows as it is written
    copy_counting: bool = False
    #: `empty`: a view redefined as an empty relation without a statement
    empty: bool = False
    #: `planned_empty`: whether the optimizer already knows a view has no row
    planned_empty: bool = False
    #: `broadcastable`: whether the optimizer estimates a view under its broadcast size
    broadcastable: bool = False


class Executor(ABC):
    capabilities: Capabilities = Capabilities()
    #: the folder under which the runner makes its scratch folder (None: the system's)
    scratch_root: str | None = None

    @abstractmethod
    def execute(self, sql: str) -> None: ...

    @abstractmethod
    def query(self, sql: str) -> Iterator[dict[str, Any]]: ...

    def first(self, sql: str) -> dict[str, Any] | None:
        """The query's first row, or None: for checks and probes, which stop at one."""
        return next(iter(self.query(sql)), None)

    def close(self) -> None:  # pragma: no cover - optional
        pass

    def prepare(self, compiled: Compiled, base: Path) -> Compiled:
        """The compiled pipeline as this executor runs it, called before the first
        statement (a remote server needs absolute paths)."""
        return compiled

    def cancel(self) -> None:
        """Stop the running jobs when a signal unwinds the run (best effort)."""

    # The operations below run only when `capabilities` declares them.

    def observe(self, view: str, counts: dict[str, str]) -> Callable[[], dict | None]:
        raise NotImplementedError

    def list_files(self, scan: str, view: str) -> list[str]:
        raise NotImplementedError

    def keep_in_driver(self, view: str) -> None:
        raise NotImplementedError

    def copy(self, view: str, path: str) -> int | None:
        raise NotImplementedError

    def copy_counting(self, view: str, path: str, counts: dict[str, str]
                      ) -> dict[str, int] | None:
        raise NotImplementedError

    def empty(self, view: str) -> None:
        raise NotImplementedError

    def planned_empty(self, view: str) -> bool:
        raise NotImplementedError

    def broadcastable(self, view: str) -> bool:
        raise NotImplementedError

    def __enter__(self) -> Executor:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
