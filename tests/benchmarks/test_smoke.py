"""The benchmark runner at a tiny size, as a smoke test (never a timed test): it completes,
and without bad rows clinker-sql writes exactly the rows of the hand-written Spark SQL."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
SHAPES = {"transform_chain", "ck_dlq", "retraction", "window", "combine"}


def test_benchmark_runner_at_a_tiny_size(tmp_path):
    results = tmp_path / "results.json"
    cmd = [sys.executable, str(REPO / "benchmarks" / "run.py"), "--sizes", "2k",
           "--bad-share", "0,0.005", "--repeat", "1", "--warmup", "0", "--partitions", "2",
           "--check", "--data-dir", str(tmp_path / "data"), "--work-dir", str(tmp_path / "work"),
           "--json", str(results)]
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=1800, cwd=tmp_path)
    assert proc.returncode == 0, proc.stdout[-4000:] + proc.stderr[-4000:]
    data = json.loads(results.read_text())
    measured = {(r["shape"], r["bad_share"]) for r in data["results"]}
    assert measured == {(s, b) for s in SHAPES for b in (0.0, 0.005)}
    for r in data["results"]:
        if r["bad_share"] == 0:
            assert r["equal"] is True, r["shape"]
            assert r["dlq"] == 0, r["shape"]
        else:
            assert r["dlq"] > 0, r["shape"]  # the bad rows reach the DLQ
    assert "| shape | rows |" in proc.stdout
