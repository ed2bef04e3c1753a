"""What a run writes besides its outputs (its scratch folder, the outputs' staging folders,
their temporary and backup copies), recorded in the scratch folder as it goes, so that a
run that was killed (SIGKILL, a power loss) is cleaned up by the next run, and one that
is still running is left alone.

The record is `owner.json` in the scratch folder: the process (host, pid, start time),
the paths to remove, and, while the outputs are being moved into place, each target and
its backup. A dead run's commit that had not finished is rolled back: every target gets
its previous file again (or none, when it had none)."""

from __future__ import annotations

import json
import os
import shutil
import socket
import tempfile
import time
from collections.abc import Iterable
from pathlib import Path

PREFIX = "clinker-sql-run-"
OWNER = "owner.json"
# a scratch folder without an owner record is a run's for the moment between creating
# the folder and writing the record, or one from a version that wrote none
UNOWNED_GRACE_SECONDS = 3600.0


def _started(pid: int) -> str | None:
    """The process's start time (Linux: /proc/<pid>/stat field 22), to tell a live
    process from a later one that was given the same pid; None where unknown."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    return stat.rsplit(")", 1)[1].split()[19]


def _alive(owner: dict) -> bool:
    if owner.get("host") != socket.gethostname():
        return True  # a shared scratch folder: another machine's run is not ours to judge
    pid = int(owner.get("pid", 0))
    if pid <= 0:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    started = _started(pid)
    return started is None or owner.get("started") in (None, started)


class RunFiles:
    """The record of one live run."""

    def __init__(self, scratch: Path):
        self.scratch = scratch
        self.data: dict = {"host": socket.gethostname(), "pid": os.getpid(),
                           "started": _started(os.getpid()), "paths": [], "commit": None}
        self._save()

    @classmethod
    def create(cls, root: str | None = None) -> RunFiles:
        return cls(Path(tempfile.mkdtemp(prefix=PREFIX, dir=root)))

    def add(self, paths: Iterable[Path]) -> None:
        """Paths this run may create (a folder or a file), removed if it dies."""
        known = set(self.data["paths"])
        new = [str(p) for p in paths if str(p) not in known]
        if new:
            self.data["paths"].extend(new)
            self._save()

    def committing(self, moves: list[tuple[Path, Path, Path | None]] | None) -> None:
        """(target, temp, backup or None) of each output while they are moved into place;
        None once every move is done."""
        self.data["commit"] = None if moves is None else \
            [[str(t), str(s), None if b is None else str(b)] for t, s, b in moves]
        self._save()

    def _save(self) -> None:
        tmp = self.scratch / f".{OWNER}.tmp"
        tmp.write_text(json.dumps(self.data), encoding="utf-8")
        os.replace(tmp, self.scratch / OWNER)

    def remove(self) -> None:
        shutil.rmtree(self.scratch, ignore_errors=True)


def sweep(root: str | None = None) -> list[Path]:
    """Remove what dead runs left under the scratch root (`root`, else the system's
    temporary folder); returns their scratch folders."""
    base = Path(root or tempfile.gettempdir())
    removed = []
    try:
        folders = [p for p in base.iterdir() if p.name.startswith(PREFIX) and p.is_dir()]
    except OSError:
        return removed
    for folder in folders:
        try:
            owner = json.loads((folder / OWNER).read_text(encoding="utf-8"))
        except FileNotFoundError:
            if _age(folder) < UNOWNED_GRACE_SECONDS:
                continue
            owner = {"host": socket.gethostname(), "pid": 0}
        except (OSError, ValueError):
            continue  # being written, or not ours to read
        if _alive(owner):
            continue
        _undo(owner)
        shutil.rmtree(folder, ignore_errors=True)
        removed.append(folder)
    return removed


def _age(path: Path) -> float:
    try:
        return time.time() - path.stat().st_mtime
    except OSError:
        return 0.0


def _undo(owner: dict) -> None:
    """Roll a dead run's unfinished commit back, then remove its staged paths."""
    for target, temp, backup in owner.get("commit") or ():
        try:
            if backup is not None and os.path.lexists(backup):
                os.replace(backup, target)
                Path(backup).unlink(missing_ok=True)  # there when both named one file
            elif backup is None and not os.path.lexists(temp):
                Path(target).unlink(missing_ok=True)  # moved in, and had no previous file
        except OSError:
            pass
    for path in owner.get("paths") or ():
        p = Path(path)
        if p.is_dir() and not p.is_symlink():
            shutil.rmtree(p, ignore_errors=True)
        else:
            try:
                p.unlink(missing_ok=True)
            except OSError:
                pass
