"""Turn Spark's staging folders into single files at the configured paths.

Every output of a run is first assembled next to its target as a hidden temp
file; only when all of them are ready are they moved into place (os.replace is
atomic on one filesystem). On any failure the staging data is removed and the
previous outputs stay untouched.
"""

from __future__ import annotations

import os
import shutil
from dataclasses import dataclass
from pathlib import Path


@dataclass
class PendingOutput:
    path: Path
    staging: Path
    temp: Path


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
    with open(temp, "w", encoding="utf-8", newline="") as out:
        if fmt == "csv":
            if meta.get("include_header", True):
                delim = meta.get("delimiter", ",")
                out.write(delim.join(_csv_cell(h, delim) for h in meta["header"]) + "\n")
            _concat(staging, out)
        elif meta.get("json_format") == "ndjson":
            _concat(staging, out)
        else:
            out.write("[")
            first = True
            for part in _parts(staging):
                with open(part, encoding="utf-8") as src:
                    for line in src:
                        out.write(("\n" if first else ",\n") + line.rstrip("\n"))
                        first = False
            out.write("\n]\n" if not first else "]\n")
        out.flush()
        os.fsync(out.fileno())
    return PendingOutput(path, staging, temp)


def _concat(staging: Path, out) -> None:
    for part in _parts(staging):
        # newline="": a CR inside a quoted value stays a CR (no newline translation)
        with open(part, encoding="utf-8", newline="") as src:
            shutil.copyfileobj(src, out, 1 << 20)


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
