"""The files a source reads, found as Clinker's discovery finds them (path, glob, regex
or paths, then its filters; name order) when they are on this machine: for the compiler, which reads CSV
headers (codegen/unmapped.py), and for a local run's check that every source matches a
file before Spark starts (E216, runtime/runner.py::preflight)."""

from __future__ import annotations

import fnmatch
import glob
import os
import re
import stat
from pathlib import Path

from clinker_sql.config.model import FileFilters


def matched_files(kind: str, paths: tuple[str, ...] | list[str], base: Path,
                  filters: FileFilters | None = None) -> list[Path]:
    """The files matched, in name order; relative paths resolve against `base`. With
    `filters`, as Clinker's discover() keeps them (visit_discovered_files): a `regex` kind
    walks `base`, then exclude, sizes and modification times drop files."""
    found: list[Path] = []
    if kind == "regex":
        found = _walk(base, re.compile(paths[0]),
                      filters is None or filters.recursive is not False)
    for pattern in paths if kind != "regex" else ():
        full = base / pattern
        if kind == "glob":
            found += [Path(p) for p in glob.glob(str(full))]
        elif full.is_file():
            found.append(full)
    return sorted(p for p in found if p.is_file() and (filters is None or _kept(p, filters)))


def _walk(base: Path, pattern: re.Pattern, recursive: bool) -> list[Path]:
    """The files under `base` (its own only unless `recursive`) whose full path, with `/`
    separators, the regex finds a match in; symbolic links are not followed nor kept
    (Clinker's walk filters them out)."""
    found: list[Path] = []
    for folder, dirs, names in os.walk(base, followlinks=False):
        here = Path(folder)
        dirs[:] = [d for d in dirs if recursive and not (here / d).is_symlink()]
        for name in names:
            path = here / name
            if not path.is_symlink() and path.is_file() and \
                    pattern.search(str(path).replace("\\", "/")):
                found.append(path)
    return found


def _kept(path: Path, filters: FileFilters) -> bool:
    """Whether a matched file passes the filters: no exclude glob matches its full path
    or its name, its size is within min_size / max_size and its modification time within
    modified_after / modified_before (bounds included)."""
    full = str(path).replace("\\", "/")
    if any(fnmatch.fnmatchcase(full, g) or fnmatch.fnmatchcase(path.name, g)
           for g in filters.exclude):
        return False
    st = path.stat()
    if filters.min_size is not None and st.st_size < filters.min_size:
        return False
    if filters.max_size is not None and st.st_size > filters.max_size:
        return False
    if filters.modified_after is not None and st.st_mtime < filters.modified_after:
        return False
    return filters.modified_before is None or st.st_mtime <= filters.modified_before


def checkable(kind: str, paths: tuple[str, ...] | list[str]) -> bool:
    """Whether Python's glob reads the patterns as Hadoop's does (no brace groups)."""
    return kind != "glob" or not any(ch in p for p in paths for ch in "{}")


def relative(path: Path, base: Path) -> str:
    """A listed file as a relative matcher names it: relative to `base` when under it."""
    try:
        return str(path.relative_to(base))
    except ValueError:
        return str(path)


class NotDecodable(Exception):
    """The bytes read from a file do not decode in its source's encoding."""


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
