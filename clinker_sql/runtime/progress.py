"""What `run` shows while it works: which step is executing, and how long each took.

The runner calls the progress object with each statement before running it, and its
`finished` method with each timing entry afterwards (statements, checkpoints,
retraction passes). Steps are grouped by node: consecutive statements of one node are
one step; the statements that belong to no node (the DLQ and commit views) are the
`DLQ and commit` step, the session settings (and Spark's start) the `session` step; each output write and the whole retraction fixpoint are steps too.

Four modes: `json` (`--log-format json`: one JSON object a line, for log collectors),
`live` on a terminal (one line per step, the running one updated in place
with its elapsed time), `plain` otherwise, for CI logs (`writing X` before each write, and
one line per finished step that took a second or more, each write and each retraction
pass; a failure prints only its diagnostic), `quiet` (nothing). Every step's time is in
run_results.json either way, and every event (`events`) in the compiled folder's
`run.log`, one JSON object a line, whatever the mode.
"""

from __future__ import annotations

import json
import os
import shutil
import sys
import threading
import time
from typing import Any, TextIO

TICK = 0.25  # seconds between redraws of the running line
PLAIN_MIN = 1.0  # plain mode lists the steps that took at least this long (and every write)
WIDTH = 26


def choose_mode(stream: TextIO, quiet: bool) -> str:
    if quiet:
        return "quiet"
    tty = getattr(stream, "isatty", lambda: False)()
    if tty and os.environ.get("TERM", "") != "dumb" and not os.environ.get("CI"):
        return "live"
    return "plain"


def _label(stmt: Any) -> str:
    if stmt.kind == "write":
        return f"write {stmt.name}"
    if stmt.kind == "setup":
        return "session"
    return stmt.node or "DLQ and commit"


def _seconds(s: float) -> str:
    return f"{s:.2f}s" if s < 60 else f"{int(s // 60)}m{s % 60:04.1f}s"


class RunProgress:
    def __init__(self, stream: TextIO | None = None, mode: str | None = None):
        self.stream = stream or sys.stderr
        self.mode = mode or choose_mode(self.stream, False)
        self.label: str | None = None
        self.detail = ""
        self.started = 0.0
        self.statements = 0
        self.passes = 0
        self.steps: list[tuple[str, float]] = []  # finished steps, for tests and summaries
        self.events: list[dict[str, Any]] = []  # every event, for run.log (`event`)
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._ticker: threading.Thread | None = None

    # ---- the runner's hooks --------------------------------------------------------------
    def __call__(self, stmt: Any) -> None:
        """A statement is about to run."""
        with self._lock:
            label = _label(stmt)
            if label != self.label:
                self._switch(label)
                if stmt.kind == "write":
                    self.event("write_started", sink=stmt.name)
                if self.mode == "plain" and stmt.kind == "write":
                    self._print(f"  writing {stmt.name}")
            self.statements += 1
            self.detail = stmt.name
            self._draw()

    def finished(self, entry: dict[str, Any]) -> None:
        """A step of the run finished (a timing entry of run_results.json)."""
        with self._lock:
            if entry.get("kind") == "fixpoint":
                if self.label != "retraction":
                    self._switch("retraction")
                self.passes += 1
                self.event("retraction_pass", name=entry["name"], seconds=entry["seconds"])
                if self.mode == "plain":
                    self._print(f"  {entry['name']:<{WIDTH}} {_seconds(entry['seconds'])}")
            self.detail = f"{entry['name']}" + (
                f" (pass {self.passes})" if self.label == "retraction" else "")
            self._draw()

    def close(self, failed: bool = False) -> None:
        """The run ended (or failed): finish the last line, stop redrawing."""
        with self._lock:
            self._finish(failed)
            self.label = None
        self._stop.set()
        if self._ticker is not None:
            self._ticker.join(timeout=1)

    def event(self, kind: str, /, **fields: Any) -> dict[str, Any]:
        """Record an event of `kind` (and print it as a JSON line in `json` mode)."""
        entry = {"ts": time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime()) + "Z",
                 "event": kind, **fields}
        self.events.append(entry)
        if self.mode == "json":
            self.stream.write(json.dumps(entry, ensure_ascii=False) + "\n")
            self.stream.flush()
        return entry

    def write_log(self, folder) -> None:
        """The run's events as the compiled folder's `run.log` (JSON lines)."""
        try:
            with open(os.path.join(folder, "run.log"), "w", encoding="utf-8") as f:
                for entry in self.events:
                    f.write(json.dumps(entry, ensure_ascii=False) + "\n")
        except OSError:
            pass  # the log is a convenience: the run's outcome is run_results.json

    # ---- drawing -------------------------------------------------------------------------
    def _switch(self, label: str) -> None:
        self._finish(False)
        self.label, self.started, self.statements, self.detail = label, time.perf_counter(), 0, ""
        if label == "retraction":
            self.passes = 0
        if self.mode == "live" and self._ticker is None:
            self._ticker = threading.Thread(target=self._tick, daemon=True)
            self._ticker.start()

    def _finish(self, failed: bool) -> None:
        if self.label is None:
            return
        elapsed = time.perf_counter() - self.started
        self.steps.append((self.label, elapsed))
        self.event("step_finished", step=self.label, seconds=round(elapsed, 4),
                   **({"failed": True} if failed else {}))
        extra = f"  ({self.passes} passes)" if self.label == "retraction" else ""
        if self.mode == "live":
            mark = "✗" if failed else "✓"
            self._line(f"  {mark} {self.label:<{WIDTH}} {_seconds(elapsed):>8}{extra}", end="\n")
        elif self.mode == "plain" and self.label != "retraction" and not failed and (
                elapsed >= PLAIN_MIN or self.label.startswith("write ")):
            done = f"wrote {self.label[6:]}" if self.label.startswith("write ") else self.label
            self._print(f"  {done:<{WIDTH}} {_seconds(elapsed)}")

    def _draw(self) -> None:
        if self.mode != "live" or self.label is None:
            return
        elapsed = time.perf_counter() - self.started
        self._line(f"  ▸ {self.label:<{WIDTH}} {_seconds(elapsed):>8}  {self.detail}")

    def _tick(self) -> None:
        while not self._stop.wait(TICK):
            with self._lock:
                self._draw()

    def _line(self, text: str, end: str = "") -> None:
        width = shutil.get_terminal_size((100, 20)).columns
        if len(text) >= width:
            text = text[:max(10, width - 2)] + "…"
        self.stream.write("\r\x1b[2K" + text + end)
        self.stream.flush()

    def _print(self, text: str) -> None:
        if self.mode == "quiet":
            return
        self.stream.write(text + "\n")
        self.stream.flush()
