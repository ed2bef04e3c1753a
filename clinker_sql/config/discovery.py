"""The files a source reads, found as Clinker's discovery finds them (path, glob or
paths; name order) when they are on this machine: for the compiler, which reads CSV
headers (codegen/unmapped.py), and for a local run's check that every source matches a
file before Spark starts (E216, runtime/runner.py::preflight)."""

from __future__ import annotations

import glob
import os
import stat
from pathlib import Path


def matched_files(kind: str, paths: tuple[str, ...] | list[str], base: Path) -> list[Path]:
    """The files matched, in name order; relative paths resolve against `base`."""
    found: list[Path] = []
    for pattern in paths:
        full = base / pattern
        if kind == "glob":
            found += [Path(p) for p in glob.glob(str(full))]
        elif full.is_file():
            found.append(full)
    return sorted(p for p in found if p.is_file())


def checkable(kind: str, paths: tuple[str, ...] | list[str]) -> bool:
    """Whether Python's glob reads the patterns as Hadoop's does (no brace groups)."""
    return kind != "glob" or not any(ch in p for p in paths for ch in "{}")


def relative(path: Path, base: Path) -> str:
    """A listed file as a relative matcher names it: relative to `base` when under it."""
    try:
        return str(path.relative_to(base))
    except ValueError:
        return str(path)


def read_head(path: Path, limit: int) -> bytes | None:
    """At most `limit` bytes from the start of `path`, or None when it cannot be read or is
    not a regular file. Opened without blocking, so that a FIFO or a device the path turns
    out to be (after the config checks, config/checks.py) cannot hang the compiler."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except (OSError, ValueError):
        return None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return None
        chunks: list[bytes] = []
        left = limit
        while left > 0:
            chunk = os.read(fd, min(left, 1 << 16))
            if not chunk:
                break
            chunks.append(chunk)
            left -= len(chunk)
        return b"".join(chunks)
    except OSError:
        return None
    finally:
        os.close(fd)
