"""`clinker-sql run` stopped by a signal while Spark writes its outputs: Ctrl-C and SIGTERM
unwind (exit 130, as Clinker, one line on stderr, nothing left behind); after SIGKILL the
next run removes what the killed one left. The previous outputs stay as they were."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from .pipelines import pipeline, run, sink, source, write_case

CLI = Path(sys.executable).with_name("clinker-sql")
ROWS = 60_000  # enough that the write takes a while: the signal comes while it runs
PREVIOUS = {"out.csv": b"id,qty\nold,9\n", "dlq.csv": b"previous dlq\n"}


def _case(folder: Path) -> Path:
    folder.mkdir(exist_ok=True)
    (folder / "out").mkdir()
    for name, data in PREVIOUS.items():
        (folder / "out" / name).write_bytes(data)
    rows = "".join(f"r{i},{'x' if i % 20_000 == 7 else i}\n" for i in range(ROWS))
    text = pipeline(source("src", "id, qty: int"), sink("out", "src"))
    text = text.replace("{dir}/", "")  # relative paths: the command runs in the folder
    return write_case(folder, text, {"src.csv": "id,qty\n" + rows})


def _start(folder: Path) -> subprocess.Popen:
    env = dict(os.environ, TMPDIR=str(_scratch_root(folder)))
    return subprocess.Popen([str(CLI), "run", "-q", "pipeline.yaml"], cwd=folder, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True)


def _scratch_root(folder: Path) -> Path:
    root = folder / "tmp"
    root.mkdir(exist_ok=True)
    return root


def _when_writing(proc: subprocess.Popen, folder: Path, timeout: float = 400) -> None:
    """Wait until Spark is writing the sink's parts (its staging folder has them)."""
    staging = folder / "out" / "out.csv.clinker-staging" / "_temporary"
    deadline = time.monotonic() + timeout
    while not staging.exists():
        if proc.poll() is not None:
            pytest.fail(f"the run ended before its write: {proc.communicate()}")
        if time.monotonic() > deadline:
            proc.kill()
            pytest.fail("the run did not reach its write")
        time.sleep(0.005)


def _left(folder: Path) -> dict[str, object]:
    return {"out": {p.name: p.read_bytes() if p.is_file() else "<folder>"
                    for p in (folder / "out").iterdir()},
            "scratch": sorted(p.name for p in _scratch_root(folder).iterdir()
                              if p.name.startswith("clinker-sql-run-"))}


@pytest.mark.parametrize("how", ["ctrl-c", "sigterm"])
def test_a_signal_while_writing_exits_130_and_cleans_up(tmp_path, how):
    folder = tmp_path / "run"
    _case(folder)
    proc = _start(folder)
    _when_writing(proc, folder)
    if how == "ctrl-c":  # the terminal signals the whole process group (the JVM ignores it)
        os.killpg(proc.pid, signal.SIGINT)
    else:
        proc.send_signal(signal.SIGTERM)
    out, err = proc.communicate(timeout=120)
    assert proc.returncode == 130, err
    assert "Traceback" not in err and "ERROR" not in err, err
    assert err.strip().splitlines()[-1] == "interrupted"
    assert _left(folder) == {"out": PREVIOUS, "scratch": []}
    results = (folder / "target" / "t" / "run_results.json").read_text()
    assert '"status": "interrupted"' in results and '"exit_code": 130' in results


def test_after_sigkill_the_next_run_removes_what_was_left(executor, tmp_path, monkeypatch):
    folder = tmp_path / "killed"
    _case(folder)
    proc = _start(folder)
    _when_writing(proc, folder)
    jvm = _children(proc.pid)
    proc.kill()
    proc.communicate(timeout=60)
    _wait_gone(jvm)  # the JVM ends when its parent's pipe closes
    left = _left(folder)
    assert left["scratch"], "a killed run leaves its scratch folder"
    assert "out.csv.clinker-staging" in left["out"]

    monkeypatch.setattr("tempfile.tempdir", str(_scratch_root(folder)))
    (tmp_path / "next").mkdir()
    nxt = run(executor, tmp_path / "next", pipeline(source("src", "id"), sink("out", "src")),
              {"src.csv": "id\na\n"})
    assert nxt.result.exit_code == 0
    assert _left(folder) == {"out": PREVIOUS, "scratch": []}


def _children(pid: int) -> list[int]:
    try:
        text = Path(f"/proc/{pid}/task/{pid}/children").read_text()
    except OSError:
        return []
    return [int(c) for c in text.split()]


def _wait_gone(pids: list[int], timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    for pid in pids:
        while Path(f"/proc/{pid}").exists() and time.monotonic() < deadline:
            try:
                if Path(f"/proc/{pid}/stat").read_text().split(") ")[1][0] == "Z":
                    break  # exited, waiting to be reaped
            except OSError:
                break
            time.sleep(0.1)
