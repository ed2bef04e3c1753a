"""Exit codes of the command line that need no Spark: usage errors, and how SIGINT and
SIGTERM unwind (the runs themselves: tests/e2e/test_signals.py)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from clinker_sql.cli import cli
from clinker_sql.diagnostics import EXIT_DLQ, EXIT_USAGE
from clinker_sql.runtime import signals

CLI = Path(sys.executable).with_name("clinker-sql")


@pytest.mark.parametrize("args", [
    ["run", "--quite", "p.yaml"],  # a mistyped flag
    ["run"],  # a missing argument
    ["rnu", "p.yaml"],  # a mistyped command
    ["run", "--explain=yaml", "p.yaml"],  # a value not among the choices
])
def test_a_command_line_that_does_not_parse_exits_with_the_usage_code(args):
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == EXIT_USAGE == 64
    assert result.exit_code != EXIT_DLQ
    assert "Usage:" in result.output


def test_help_and_version_exit_0():
    assert CliRunner().invoke(cli, ["run", "--help"]).exit_code == 0
    assert CliRunner().invoke(cli, ["--version"]).exit_code == 0


def test_the_installed_command_exits_64_on_a_mistyped_flag(tmp_path):
    proc = subprocess.run([str(CLI), "validate", "--allow-absolute-pathz", "p.yaml"],
                          capture_output=True, text=True, cwd=tmp_path, timeout=120)
    assert proc.returncode == 64, proc.stderr
    assert "No such option" in proc.stderr and "Traceback" not in proc.stderr


@pytest.fixture
def handlers():
    saved = {s: signal.getsignal(s) for s in signals.CAUGHT}
    yield
    for s, h in saved.items():
        signal.signal(s, h)


def test_sigterm_unwinds_as_ctrl_c(handlers):
    signals.install()
    with pytest.raises(KeyboardInterrupt) as info:
        os.kill(os.getpid(), signal.SIGTERM)
        for _ in range(1000):  # the handler runs between two bytecodes
            pass
    assert isinstance(info.value, signals.Terminated)


def test_a_signal_during_the_commit_waits_for_its_end(handlers):
    signals.install()
    done = []
    with pytest.raises(KeyboardInterrupt):
        with signals.deferred():
            os.kill(os.getpid(), signal.SIGTERM)
            os.kill(os.getpid(), signal.SIGINT)
            for _ in range(1000):
                pass
            done.append("committed")
    assert done == ["committed"]
    assert signal.getsignal(signal.SIGTERM) is signals._raise
