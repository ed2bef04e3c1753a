"""The corpus tests' counts, printed at the end of the session (also under -q)."""

from __future__ import annotations

from tests.reliability.outcomes import STATS


def pytest_terminal_summary(terminalreporter, exitstatus, config):
    if not any(s.cases for s in STATS.values()):
        return
    terminalreporter.write_sep("=", "bad-input corpus")
    for group, stats in STATS.items():
        for i, line in enumerate(stats.lines()):
            terminalreporter.write_line((f"{group}: " if i == 0 else "  ") + line)
