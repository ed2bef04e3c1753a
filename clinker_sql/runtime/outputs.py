"""Turn Spark's staging folders into single files at the configured paths.

Every output of a run is first assembled next to its target as a hidden temp
file; only when all of them are ready are they moved into place (os.replace is
atomic on one filesystem). On any failure the staging data is removed and the
previous outputs stay untouched.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TextIO

from clinker_sql.codegen.split_write import MARKER, SPLIT


@dataclass
class PendingOutput:
    path: Path
    staging: Path
    temp: Path
    failures: int | None = None  # a split write: the failing rows split off (split_write.py)


def _csv_cell(value: str, delimiter: str) -> str:
    if any(ch in value for ch in (delimiter, '"', "\r", "\n")):
        return '"' + value.replace('"', '""') + '"'
    return value


def _parts(staging: Path) -> list[Path]:
    return sorted(p for p in staging.iterdir() if p.name.startswith("part-"))


def assemble(meta: dict, base: Path) -> PendingOutput:
    path = base / meta["path"]
    staging = base / meta["staging"]
    temp = path.with_name(f".{path.name}.clinker-tmp")
    fmt = meta["format"]
    if fmt == "parquet":
        parts = [p for p in _parts(staging) if p.suffix == ".parquet"]
        if len(parts) != 1:
            raise RuntimeError(f"expected one parquet part in {staging}, found {len(parts)}")
        shutil.copyfile(parts[0], temp)
        return PendingOutput(path, staging, temp)
    split = meta.get(SPLIT)
    pending = PendingOutput(path, staging, temp, 0 if split else None)
    with open(temp, "w", encoding="utf-8", newline="") as out:
        sources = _sources(staging, base / split["side"] if split else None, pending)
        if fmt == "csv" and meta.get("include_header", True):
            delim = meta.get("delimiter", ",")
            out.write(delim.join(_csv_cell(h, delim) for h in meta["header"]) + "\n")
        if fmt == "csv" or meta.get("json_format") == "ndjson":
            for src in sources:
                shutil.copyfileobj(src, out, 1 << 20)
        else:
            out.write("[")
            first = True
            for src in sources:
                for line in iter(src.readline, ""):
                    out.write(("\n" if first else ",\n") + line.rstrip("\n"))
                    first = False
            out.write("\n]\n" if not first else "]\n")
        out.flush()
        os.fsync(out.fileno())
    return pending


def _sources(staging: Path, side: Path | None, pending: PendingOutput) -> Iterator[TextIO]:
    """The staged parts in order, each open at its first output line: a split write's
    first part holds the failing rows before a marker line, which go to `side`."""
    parts = _parts(staging)
    if side is not None and not parts:
        raise RuntimeError(f"no part in {staging}")
    for i, part in enumerate(parts):
        # newline="": a CR inside a quoted value stays a CR (no newline translation)
        with open(part, encoding="utf-8", newline="") as src:
            if side is not None and i == 0:
                pending.failures = _split_off(src, side)
            yield src


def _split_off(src: TextIO, side: Path) -> int:
    """Copy the lines before the marker line into `side`; returns how many."""
    n = 0
    with open(side, "w", encoding="utf-8", newline="") as out:
        for line in iter(src.readline, ""):
            if line.rstrip("\r\n") == MARKER:
                return n
            out.write(line)
            n += 1
    raise RuntimeError(f"no end of the failing rows in {src.name}")


def commit(outputs: list[PendingOutput]) -> None:
    for o in outputs:
        os.replace(o.temp, o.path)
    for o in outputs:
        shutil.rmtree(o.staging, ignore_errors=True)


def discard(outputs: list[PendingOutput], stagings: list[Path]) -> None:
    for o in outputs:
        o.temp.unlink(missing_ok=True)
    for s in stagings:
        shutil.rmtree(s, ignore_errors=True)
