"""What `compile` writes: numbered .sql files, run.sql and manifest.json.

Everything here is a pure function of the pipeline, so compiling twice gives
byte-identical files (no timestamps, no absolute paths)."""

from __future__ import annotations

import json
import re
from pathlib import Path

from clinker_sql import __version__
from clinker_sql.codegen.plan import Compiled, Statement

MANIFEST_VERSION = "clinker-sql/manifest/v1"


def safe_name(name: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]+", "_", name).strip("._") or "x"


def statement_text(stmt: Statement) -> str:
    header = f"-- {stmt.header}\n" if stmt.header else ""
    if stmt.sql.startswith("--"):  # a step the runner performs (checkpoint, fixpoint)
        return f"{header}{stmt.sql}\n"
    return f"{header}{stmt.sql};\n"


def files(compiled: Compiled) -> dict[str, str]:
    """File name -> content, in dependency order."""
    out: dict[str, str] = {}
    setup = [s for s in compiled.statements if s.kind == "setup"]
    rest = [s for s in compiled.statements if s.kind != "setup"]
    out["00_session.sql"] = "-- session settings every statement relies on\n" + "".join(
        f"{s.sql};\n" for s in setup)
    width = max(2, len(str(len(rest))))
    for i, stmt in enumerate(rest, start=1):
        out[f"{i:0{width}d}_{safe_name(stmt.name)}.sql"] = statement_text(stmt)
    out["run.sql"] = (f"-- clinker-sql {__version__}: pipeline {compiled.pipeline}\n"
                      "-- every statement of the run, in order\n\n" +
                      "\n".join(statement_text(s) for s in compiled.statements))
    out["manifest.json"] = json.dumps(manifest(compiled, list(out)), indent=2) + "\n"
    return out


def manifest(compiled: Compiled, names: list[str]) -> dict:
    sql_files = [n for n in names if n[0].isdigit() and n != "00_session.sql"]
    rest = [s for s in compiled.statements if s.kind != "setup"]
    return {
        "manifest_version": MANIFEST_VERSION,
        "generator": f"clinker-sql {__version__}",
        "pipeline": compiled.pipeline,
        "strategy": compiled.strategy,
        "nodes": compiled.nodes,
        "statements": [{"file": f, "kind": s.kind, "node": s.node, "name": s.name,
                        **({"output": {k: v for k, v in s.meta.items() if k != "rows_view"}}
                           if s.kind == "write" else {})}
                       for f, s in zip(sql_files, rest)],
        "error_views": [{"view": e.view, "node": e.node, "payload": list(e.payload)}
                        for e in compiled.error_views],
        "sources": compiled.sources,
        "sinks": compiled.sinks,
        "dlq": compiled.dlq,
    }


def write_target(compiled: Compiled, out_dir: str | Path) -> Path:
    target = Path(out_dir) / safe_name(compiled.pipeline)
    target.mkdir(parents=True, exist_ok=True)
    for old in target.glob("*.sql"):
        old.unlink()
    for name, content in files(compiled).items():
        (target / name).write_text(content, encoding="utf-8")
    return target
