"""The outputs' commit is all-or-nothing (no Spark: outputs already assembled)."""

from __future__ import annotations

import errno
import os
from pathlib import Path

import pytest

from clinker_sql.diagnostics import DiagnosticError
from clinker_sql.runtime import leftovers, outputs
from clinker_sql.runtime.outputs import PendingOutput


def _pending(folder: Path, name: str, new: str, previous: str | None) -> PendingOutput:
    path = folder / name
    if previous is not None:
        path.write_bytes(previous.encode())
    temp = outputs.temp_path(path)
    temp.write_bytes(new.encode())
    staging = folder / f"{name}.clinker-staging"
    staging.mkdir()
    (staging / "part-00000").write_text(new)
    return PendingOutput(path, staging, temp)


def _listing(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir()) if p.is_file()}


def test_every_output_is_moved_and_nothing_else_is_left(tmp_path):
    pending = [_pending(tmp_path, "a.csv", "new a\n", "old a\n"),
               _pending(tmp_path, "b.csv", "new b\n", None)]
    outputs.commit(pending)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.csv", "b.csv"]
    assert _listing(tmp_path) == {"a.csv": b"new a\n", "b.csv": b"new b\n"}


@pytest.mark.parametrize("failing", [1, 2, 3])
def test_a_failed_move_puts_every_previous_file_back(tmp_path, monkeypatch, failing):
    """The n-th move fails (a full disk): the outputs moved before it get their previous
    file back, one that had none is removed, and CS103 (exit 4) says nothing changed."""
    pending = [_pending(tmp_path, "a.csv", "new a\n", "old a\n"),
               _pending(tmp_path, "b.csv", "new b\n", None),
               _pending(tmp_path, "c.csv", "new c\n", "old c\n")]
    before = {n: b for n, b in _listing(tmp_path).items() if not n.startswith(".")}
    moves = []
    real = outputs._move

    def move(temp, target):
        moves.append(target)
        if len(moves) == failing:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        real(temp, target)

    monkeypatch.setattr(outputs, "_move", move)
    with pytest.raises(DiagnosticError) as info:
        outputs.commit(pending)
    assert info.value.diagnostics[0].code == "CS103" and info.value.exit_code == 4
    assert "no output was changed" in info.value.diagnostics[0].message
    after = {n: b for n, b in _listing(tmp_path).items() if not n.endswith(".clinker-tmp")}
    assert after == before  # no backup left, nothing new, every previous file as it was
    outputs.discard(pending, [o.staging for o in pending])
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.csv", "c.csv"]


@pytest.mark.parametrize("which", [0, 1])
def test_a_target_that_is_a_folder_is_refused_before_the_first_move(tmp_path, which):
    pending = [_pending(tmp_path, "a.csv", "new a\n", "old a\n"),
               _pending(tmp_path, "b.csv", "new b\n", "old b\n")]
    pending[which].path.unlink()
    pending[which].path.mkdir()
    with pytest.raises(DiagnosticError) as info:
        outputs.commit(pending)
    d = info.value.diagnostics[0]
    assert d.code == "CS103" and info.value.exit_code == 4
    assert "is an existing folder" in d.message and str(pending[which].path) in d.message
    other = pending[1 - which].path
    assert other.read_text() == f"old {other.stem}\n"


def test_a_missing_or_read_only_folder_is_refused(tmp_path):
    with pytest.raises(DiagnosticError, match="does not exist"):
        outputs.check_target(tmp_path / "nope" / "a.csv")
    locked = tmp_path / "locked"
    locked.mkdir()
    locked.chmod(0o500)
    try:
        if os.access(locked, os.W_OK):
            pytest.skip("running as a user every folder is writable to")
        with pytest.raises(DiagnosticError, match="not writable"):
            outputs.check_target(locked / "a.csv")
    finally:
        locked.chmod(0o700)


def test_a_dead_runs_unfinished_commit_is_rolled_back_by_the_next_sweep(tmp_path):
    """A run killed between two moves: the next run's sweep restores the first output's
    previous file and removes the second's new one, then everything the run staged."""
    outs, scratch_root = tmp_path / "out", tmp_path / "scratch"
    outs.mkdir()
    scratch_root.mkdir()
    pending = [_pending(outs, "a.csv", "new a\n", "old a\n"),
               _pending(outs, "b.csv", "new b\n", None),
               _pending(outs, "c.csv", "new c\n", "old c\n")]
    files = leftovers.RunFiles.create(str(scratch_root))
    files.add(p for o in pending for p in (o.staging, o.temp))
    moves = [(o.path, o.temp, outputs.backup_path(o.path) if o.path.exists() else None)
             for o in pending]
    files.add(b for _, _, b in moves if b is not None)
    files.committing(moves)
    for target, temp, backup in moves[:2]:  # the process dies after the second move
        if backup is not None:
            os.link(target, backup)
        os.replace(temp, target)
    files.data["pid"] = _dead_pid()
    files._save()
    assert leftovers.sweep(str(scratch_root)) == [files.scratch]
    assert _listing(outs) == {"a.csv": b"old a\n", "c.csv": b"old c\n"}
    assert sorted(p.name for p in outs.iterdir()) == ["a.csv", "c.csv"]
    assert list(scratch_root.iterdir()) == []


def test_the_sweep_leaves_a_live_run_alone(tmp_path):
    live = leftovers.RunFiles.create(str(tmp_path))
    staging = tmp_path / "x.clinker-staging"
    staging.mkdir()
    live.add([staging])
    assert leftovers.sweep(str(tmp_path)) == []
    assert staging.is_dir() and live.scratch.is_dir()
    live.data["pid"] = _dead_pid()
    live._save()
    assert leftovers.sweep(str(tmp_path)) == [live.scratch]
    assert list(tmp_path.iterdir()) == []


def _dead_pid() -> int:
    """The pid of a process that has exited."""
    import subprocess
    import sys

    proc = subprocess.Popen([sys.executable, "-c", "pass"])
    proc.wait()
    return proc.pid
