"""Run `validate` and `compile` in-process on one pipeline folder, classify what came out,
and keep the counts the corpus test prints at the end of the session."""

from __future__ import annotations

import re
import signal
import time
from collections import Counter
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from click.testing import CliRunner

from clinker_sql.cli import cli

# far above a normal validate or compile (about a second of CPU) and well below a hang:
# the bound is on the CPU time of the command (a shared machine stretches the wall clock),
# with a wall-clock bound behind it for a command that waits rather than computes
BOUND_SECONDS = 20.0
WALL_BOUND_SECONDS = 120.0
# codes that say "a bug in clinker-sql" rather than "a mistake in the pipeline"
BUG_CODES = frozenset({"CS999", "CS041"})
_CODE = re.compile(r"^error\[([A-Za-z0-9-]+)\]", re.M)
# worst first: a case counts under the worst outcome of its two commands
KINDS = ("overtime", "traceback", "bug_code", "uncoded", "injection", "refused", "clean")


class Overtime(BaseException):
    """Raised by the alarm; not an Exception, so that no `except Exception` swallows it."""


@contextmanager
def time_bound(cpu_seconds: float, wall_seconds: float):
    """Raise Overtime in this (the main) thread once the process used `cpu_seconds` of
    CPU, or `wall_seconds` went by."""
    def on_alarm(signum, frame):
        raise Overtime()

    timers = ((signal.ITIMER_PROF, signal.SIGPROF, cpu_seconds),
              (signal.ITIMER_REAL, signal.SIGALRM, wall_seconds))
    previous = [signal.signal(sig, on_alarm) for _, sig, _ in timers]
    for timer, _, seconds in timers:
        signal.setitimer(timer, seconds)
    try:
        yield
    finally:
        for (timer, sig, _), handler in zip(timers, previous):
            signal.setitimer(timer, 0)
            signal.signal(sig, handler)


@dataclass
class Outcome:
    command: str
    kind: str
    code: str | None
    seconds: float  # CPU
    output: str

    def describe(self) -> str:
        what = self.kind + (f" {self.code}" if self.code else "")
        return f"{self.command}: {what} in {self.seconds:.1f}s of CPU\n{self.output[-3000:]}"


def run_command(command: str, pipeline: Path, out_dir: Path | None = None) -> Outcome:
    """`clinker-sql validate|compile PIPELINE` through click's test runner (in this
    process, relative paths against the working folder)."""
    args = [command, str(pipeline)] + (["--out", str(out_dir)] if out_dir else [])
    started = time.process_time()
    try:
        with time_bound(BOUND_SECONDS, WALL_BOUND_SECONDS):
            result = CliRunner().invoke(cli, args, catch_exceptions=True)
    except Overtime:
        return Outcome(command, "overtime", None, time.process_time() - started,
                       f"stopped after {BOUND_SECONDS:.0f}s of CPU or "
                       f"{WALL_BOUND_SECONDS:.0f}s in all")
    seconds = time.process_time() - started
    output = result.output
    codes = _CODE.findall(output)
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        import traceback

        text = "".join(traceback.format_exception(*result.exc_info))
        return Outcome(command, "traceback", type(result.exception).__name__, seconds,
                       output + text)
    if "Traceback (most recent call last)" in output:
        kind, code = "traceback", None
    elif seconds > BOUND_SECONDS:
        kind, code = "overtime", None
    elif any(c in BUG_CODES for c in codes):
        kind, code = "bug_code", next(c for c in codes if c in BUG_CODES)
    elif result.exit_code == 0:
        kind, code = "clean", None
    elif codes:
        kind, code = "refused", codes[0]
    else:
        kind, code = "uncoded", f"exit {result.exit_code}"
    return Outcome(command, kind, code, seconds, output)


@dataclass
class Stats:
    cases: int = 0
    by_kind: Counter = field(default_factory=Counter)
    refused_codes: Counter = field(default_factory=Counter)
    bug_codes: Counter = field(default_factory=Counter)
    families: Counter = field(default_factory=Counter)
    injection_checked: int = 0
    cpu_seconds: float = 0.0
    slowest: list = field(default_factory=list)

    def add(self, family: str, outcomes: list[Outcome], injection_problems: bool | None,
            cpu: float) -> str:
        """Count one case; its kind."""
        kinds = [o.kind for o in outcomes] + (["injection"] if injection_problems else [])
        kind = min(kinds, key=KINDS.index)
        self.cases += 1
        self.families[family] += 1
        self.by_kind[kind] += 1
        self.cpu_seconds += cpu
        if injection_problems is not None:
            self.injection_checked += 1
        if kind == "refused":
            self.refused_codes[next(o.code for o in outcomes if o.kind == "refused")] += 1
        for o in outcomes:
            if o.kind == "bug_code":
                self.bug_codes[o.code] += 1
        return kind

    def note_time(self, case_id: str, seconds: float) -> None:
        self.slowest = sorted(self.slowest + [(seconds, case_id)], reverse=True)[:5]

    def lines(self) -> list[str]:
        k = self.by_kind
        families = ", ".join(f"{f} {n}" for f, n in sorted(self.families.items()))
        out = [f"{self.cases} cases ({families}), {self.cpu_seconds:.0f}s CPU",
               f"passed clean {k['clean']}, refused with a code {k['refused']}, "
               f"CS999/bug codes {k['bug_code']}, tracebacks {k['traceback']}, "
               f"over the time bound {k['overtime']}, uncoded failures {k['uncoded']}, "
               f"injections {k['injection']} (of {self.injection_checked} compiled and "
               "tokenized)"]
        if self.refused_codes:
            out.append("refused by code: " + ", ".join(
                f"{c} {n}" for c, n in sorted(self.refused_codes.items())))
        if self.bug_codes:
            out.append("bug codes (per command): " + ", ".join(
                f"{c} {n}" for c, n in sorted(self.bug_codes.items())))
        if self.slowest:
            out.append("slowest (CPU): " + ", ".join(f"{i} {s:.1f}s" for s, i in self.slowest))
        return out


STATS: dict[str, Stats] = {}


def stats(group: str) -> Stats:
    return STATS.setdefault(group, Stats())
