"""An executor that records what a run asks of another one: every statement's text, and
every operation that is not a statement (a copy through the DataFrame API, an observation,
a listing). The check that a run executes only compiled statements (issue 39) runs the
pipelines through it and compares what it recorded with the compiled folder
(`uncompiled`)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from clinker_sql.runtime.executor import Executor

if TYPE_CHECKING:
    from clinker_sql.codegen.plan import Compiled

# operations that only ask the optimizer or the file index, and change nothing
INSPECTIONS = frozenset({"planned_empty", "broadcastable"})


@dataclass(frozen=True)
class Recorded:
    """One thing the runner asked: `how` is `execute`, `query` or `first` for a statement
    (`text` its SQL), else the operation's name (`text` the view it works on)."""

    how: str
    text: str

    @property
    def statement(self) -> bool:
        return self.how in ("execute", "query", "first")


@dataclass
class RecordingExecutor(Executor):
    inner: Executor
    recorded: list[Recorded] = field(default_factory=list)
    compiled: Compiled | None = None  # as compiled, before the inner executor prepares it

    def __post_init__(self) -> None:
        self.capabilities = self.inner.capabilities
        self.scratch_root = self.inner.scratch_root

    def _note(self, how: str, text: str) -> None:
        self.recorded.append(Recorded(how, text))

    def prepare(self, compiled: Compiled, base: Path) -> Compiled:
        self.compiled = compiled
        return self.inner.prepare(compiled, base)

    def execute(self, sql: str) -> None:
        self._note("execute", sql)
        self.inner.execute(sql)

    def query(self, sql: str) -> Iterator[dict[str, Any]]:
        self._note("query", sql)
        return self.inner.query(sql)

    def first(self, sql: str) -> dict[str, Any] | None:
        self._note("first", sql)
        return self.inner.first(sql)

    def cancel(self) -> None:
        self.inner.cancel()

    def close(self) -> None:
        self.inner.close()

    def observe(self, view: str, counts: dict[str, str]) -> Callable[[], dict | None]:
        self._note("observe", view)
        return self.inner.observe(view, counts)

    def list_files(self, scan: str, view: str) -> list[str]:
        self._note("list_files", view)
        return self.inner.list_files(scan, view)

    def keep_in_driver(self, view: str) -> None:
        self._note("keep_in_driver", view)
        self.inner.keep_in_driver(view)

    def copy(self, view: str, path: str) -> int | None:
        self._note("copy", view)
        return self.inner.copy(view, path)

    def copy_counting(self, view: str, path: str, counts: dict[str, str]
                      ) -> dict[str, int] | None:
        self._note("copy_counting", view)
        return self.inner.copy_counting(view, path, counts)

    def empty(self, view: str) -> None:
        self._note("empty", view)
        self.inner.empty(view)

    def planned_empty(self, view: str) -> bool:
        self._note("planned_empty", view)
        return self.inner.planned_empty(view)

    def broadcastable(self, view: str) -> bool:
        self._note("broadcastable", view)
        return self.inner.broadcastable(view)


def compiled_texts(folder: Path) -> list[str]:
    """The text of every .sql file of a compiled folder."""
    return [p.read_text(encoding="utf-8") for p in sorted(folder.rglob("*.sql"))]


def in_files(sql: str, texts: list[str]) -> bool:
    """Whether `sql` is a statement of one of the files: its text, byte for byte, from
    the start of a line to the `;` that ends it (a commented copy does not count)."""
    whole = f"{sql};\n"
    for text in texts:
        at = text.find(whole)
        while at >= 0:
            if at == 0 or text[at - 1] == "\n":
                return True
            at = text.find(whole, at + 1)
    return False


def uncompiled(recorded: list[Recorded], folder: Path) -> list[Recorded]:
    """What a run did that is not a statement of the compiled folder `folder`: statements
    not in its files, and operations other than inspections."""
    texts = compiled_texts(folder)
    return [r for r in recorded if r.how not in INSPECTIONS and
            not (r.statement and in_files(r.text, texts))]
