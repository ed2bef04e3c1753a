"""run's progress display: live on a terminal, plain lines in CI, nothing with --quiet."""

from __future__ import annotations

import io
from dataclasses import dataclass

from clinker_sql.runtime.progress import RunProgress, choose_mode
from clinker_sql.runtime.runner import _Timings


@dataclass
class Stmt:
    kind: str
    node: str | None
    name: str


STEPS = [Stmt("setup", None, "spark.sql.ansi.enabled"), Stmt("view", "orders", "orders.scan"),
         Stmt("view", "orders", "orders"), Stmt("view", "price", "price.eval"),
         Stmt("view", None, "$pipeline.triggers"), Stmt("write", "big", "big"),
         Stmt("write", None, "dlq")]


def drive(progress: RunProgress) -> None:
    timings = _Timings(progress)
    for stmt in STEPS:
        progress(stmt)
        timings.append({"node": stmt.node, "name": stmt.name, "kind": stmt.kind,
                        "seconds": 0.01})
        if stmt.name == "$pipeline.triggers":
            for k in range(2):
                timings.append({"node": None, "name": f"retraction pass {k}",
                                "kind": "fixpoint", "seconds": 0.5})
    progress.close()


def test_plain_lines(monkeypatch):
    monkeypatch.setattr("clinker_sql.runtime.progress.PLAIN_MIN", 0.0)
    out = io.StringIO()
    progress = RunProgress(out, "plain")
    drive(progress)
    lines = [line.split() for line in out.getvalue().splitlines()]
    labels = [" ".join(w[:-1]) for w in lines]
    assert labels == ["session", "orders", "price", "DLQ and commit", "retraction pass 0",
                      "retraction pass 1", "writing", "wrote big", "writing", "wrote dlq"]
    assert out.getvalue().splitlines()[6] == "  writing big"
    assert [label for label, _ in progress.steps] == [
        "session", "orders", "price", "DLQ and commit", "retraction", "write big", "write dlq"]


def test_live_redraws_one_line_per_step():
    out = io.StringIO()
    drive(RunProgress(out, "live"))
    text = out.getvalue()
    assert "\x1b[2K" in text and "▸ orders" in text
    text = text.replace("\x1b[2K", "")
    finished = [line for line in text.replace("\r", "\n").splitlines() if "✓" in line]
    assert [line.split()[1] for line in finished] == [
        "session", "orders", "price", "DLQ", "retraction", "write", "write"]
    assert "(2 passes)" in next(line for line in finished if "retraction" in line)


def test_a_failure_marks_the_running_step():
    out = io.StringIO()
    progress = RunProgress(out, "live")
    progress(STEPS[1])
    progress.close(failed=True)
    assert "✗ orders" in out.getvalue()


def test_plain_mode_leaves_quick_steps_and_failures_to_the_report():
    out = io.StringIO()
    progress = RunProgress(out, "plain")
    for stmt in STEPS[:5]:
        progress(stmt)
    progress.close(failed=True)
    assert out.getvalue() == ""  # a failed run's stderr starts with its diagnostic
    out = io.StringIO()
    drive(RunProgress(out, "plain"))
    assert out.getvalue().splitlines() == [
        "  retraction pass 0          0.50s", "  retraction pass 1          0.50s",
        "  writing big", out.getvalue().splitlines()[3], "  writing dlq",
        out.getvalue().splitlines()[5]]
    assert out.getvalue().splitlines()[3].split()[:2] == ["wrote", "big"]


def test_quiet_prints_nothing():
    out = io.StringIO()
    drive(RunProgress(out, "quiet"))
    assert out.getvalue() == ""


def test_mode_choice(monkeypatch):
    class Tty(io.StringIO):
        def isatty(self):
            return True

    monkeypatch.delenv("CI", raising=False)
    monkeypatch.setenv("TERM", "xterm")
    assert choose_mode(Tty(), False) == "live"
    assert choose_mode(Tty(), True) == "quiet"
    assert choose_mode(io.StringIO(), False) == "plain"
    monkeypatch.setenv("CI", "true")
    assert choose_mode(Tty(), False) == "plain"
