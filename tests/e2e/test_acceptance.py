"""The shared acceptance cases (../shared/acceptance) run through the real CLI."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

RUNNER = Path(__file__).resolve().parents[3] / "shared" / "acceptance" / "run.py"

# Every shared case; each runs the real CLI in a fresh JVM.
PASSING = ["001", "002", "007", "015", "018", "024", "027", "030", "035", "037", "039", "045",
           "201", "207", "212", "217", "221", "222", "224", "228"]


@pytest.mark.skipif(not RUNNER.exists(), reason="../shared/acceptance is not beside the repo")
@pytest.mark.parametrize("case", PASSING)
def test_acceptance_case(case):
    cmd = f"{sys.executable} -m clinker_sql run pipeline.yaml --quiet"
    proc = subprocess.run([sys.executable, str(RUNNER), "-k", case, "--cmd", cmd],
                          capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "1 passed, 0 failed" in proc.stdout
