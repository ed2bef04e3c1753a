"""`compile --check`: are the compiled files committed in the output folder up to date?

Compiles in memory (nothing is written) and compares, byte for byte, with what is on
disk. A file that differs (shown as a unified diff), a missing file, and a leftover
file that `compile` would delete (a .sql file at the folder's top, any file under
nodes/ or engine/) make the check fail (CS040)."""

from __future__ import annotations

import difflib
from dataclasses import dataclass, field
from pathlib import Path

from clinker_sql.codegen.artifacts import ENGINE_DIR, NODES_DIR, files
from clinker_sql.codegen.plan import Compiled


@dataclass
class Staleness:
    target: Path
    changed: list[str] = field(default_factory=list)
    missing: list[str] = field(default_factory=list)
    extra: list[str] = field(default_factory=list)
    diff: str = ""

    @property
    def stale(self) -> bool:
        return bool(self.changed or self.missing or self.extra)

    def summary(self) -> str:
        parts = [f"{len(v)} {k}" for k, v in (("changed", self.changed),
                                              ("missing", self.missing),
                                              ("left over", self.extra)) if v]
        return ", ".join(parts)


def _read(path: Path) -> str | None:
    try:
        return path.read_bytes().decode("utf-8", errors="replace")
    except OSError:
        return None


def check_target(compiled: Compiled, target: Path) -> Staleness:
    wanted = files(compiled)
    result = Staleness(target)
    chunks: list[str] = []
    for name, content in wanted.items():
        have = _read(target / name)
        if have == content:
            continue
        if have is None:
            result.missing.append(name)
            chunks.append(f"Only in compiled: {target / name}\n")
        else:
            result.changed.append(name)
            chunks.append(_diff(have, content, target / name))
    for old in _generated(target):
        if old not in wanted:
            result.extra.append(old)
            chunks.append(f"Only in committed: {target / old}\n")
    result.diff = "".join(chunks)
    return result


def _generated(target: Path) -> list[str]:
    """The files of the folder that `compile` would replace or delete (relative paths):
    the .sql files at its top (an earlier layout's) and everything under nodes/ and
    engine/."""
    if not target.is_dir():
        return []
    found = [p for p in target.glob("*.sql") if p.is_file()]
    for folder in (NODES_DIR, ENGINE_DIR):
        if (target / folder).is_dir():
            found += [p for p in (target / folder).rglob("*") if p.is_file()]
    return sorted(p.relative_to(target).as_posix() for p in found)


def _diff(have: str, want: str, path: Path) -> str:
    lines = difflib.unified_diff(have.splitlines(keepends=True), want.splitlines(keepends=True),
                                 fromfile=f"committed/{path}", tofile=f"compiled/{path}")
    return "".join(line if line.endswith("\n") else line + "\n\\ No newline at end of file\n"
                   for line in lines)
