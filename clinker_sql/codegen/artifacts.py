"""What `compile` writes: numbered .sql files, run.sql and manifest.json.

Everything here is a pure function of the pipeline, so compiling twice gives
byte-identical files (no timestamps, no absolute paths)."""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path

from clinker_sql import __version__
from clinker_sql.codegen.numbering import FEW_FILES, MAPPED_FILES_MAX
from clinker_sql.codegen.one_pass import CLEAN_GROUPS
from clinker_sql.codegen.plan import Compiled, Statement

MANIFEST_VERSION = "clinker-sql/manifest/v1"


def safe_name(name: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]+", "_", name).strip("._") or "x"


def statement_text(stmt: Statement, lineage: list[str] | None = None) -> str:
    header = f"-- {stmt.header}\n" if stmt.header else ""
    header += "".join(f"{line}\n" for line in lineage or ())
    if stmt.sql.startswith("--"):  # a step the runner performs (checkpoint, fixpoint)
        return f"{header}{stmt.sql}\n"
    clean = stmt.meta.get(CLEAN_GROUPS)
    if clean:  # codegen/one_pass.py
        return (f"{header}{stmt.sql};\n-- when {', '.join(clean['unless'])} has no row, "
                "nothing is retracted before it: the runner defines it instead as\n"
                f"{_commented(clean['define'])}")
    few = stmt.meta.get(FEW_FILES)
    if few:  # codegen/source.py
        return (f"{header}{stmt.sql};\n-- when the listing finds at most {MAPPED_FILES_MAX} "
                "files, the runner defines it instead as below, with the listed files in a "
                "literal MAP\n-- (each one's $path and $rank) in place of the subquery: no "
                f"job builds the map\n{_commented(few['sql'])}")
    return f"{header}{stmt.sql};\n"


def _commented(sql: str) -> str:
    """A statement the runner may run instead, as SQL comment lines."""
    return "".join(f"-- {line}\n" for line in f"{sql};".splitlines())


def lineage_header(compiled: Compiled, stmt: Statement) -> list[str]:
    """Column lineage for the file that defines a node's output (its good rows, a route
    branch, or a sink's write); nothing for the other statements."""
    from clinker_sql.inspect.lineage import header_lines

    nl = compiled.lineage.get(stmt.node) if stmt.node else None
    if nl is None:
        return []
    if stmt.kind == "write" and nl.kind == "sink":
        return header_lines(nl)
    outputs = {r.view for key, r in compiled.relations.items()
               if key.partition(".")[0] == stmt.node}
    return header_lines(nl) if stmt.kind == "view" and stmt.name in outputs else []


def numbered(compiled: Compiled) -> list[tuple[str, Statement]]:
    """(file name, statement) for every statement but the session settings, in run order."""
    rest = [s for s in compiled.statements if s.kind != "setup"]
    width = max(2, len(str(len(rest))))
    return [(f"{i:0{width}d}_{safe_name(s.name)}.sql", s) for i, s in enumerate(rest, start=1)]


def files(compiled: Compiled) -> dict[str, str]:
    """File name -> content, in dependency order."""
    out: dict[str, str] = {}
    setup = [s for s in compiled.statements if s.kind == "setup"]
    out["00_session.sql"] = "-- session settings every statement relies on\n" + "".join(
        f"{s.sql};\n" for s in setup)
    texts = {id(s): statement_text(s, lineage_header(compiled, s))
             for s in compiled.statements if s.kind != "setup"}
    for name, stmt in numbered(compiled):
        out[name] = texts[id(stmt)]
    out["run.sql"] = (f"-- clinker-sql {__version__}: pipeline {compiled.pipeline}\n"
                      "-- every statement of the run, in order\n\n" +
                      "\n".join(texts.get(id(s)) or statement_text(s)
                                for s in compiled.statements))
    out["manifest.json"] = json.dumps(manifest(compiled, out), indent=2) + "\n"
    return out


def manifest(compiled: Compiled, contents: dict[str, str]) -> dict:
    return {
        "manifest_version": MANIFEST_VERSION,
        "generator": f"clinker-sql {__version__}",
        "pipeline": compiled.pipeline,
        "strategy": compiled.strategy,
        "nodes": compiled.nodes,
        "statements": [{"file": f, "kind": s.kind, "node": s.node, "name": s.name,
                        "sha256": hashlib.sha256(contents[f].encode("utf-8")).hexdigest(),
                        **({"output": {k: v for k, v in s.meta.items() if k != "rows_view"}}
                           if s.kind == "write" else {})}
                       for f, s in numbered(compiled)],
        "error_views": [{"view": e.view, "node": e.node, "payload": list(e.payload)}
                        for e in compiled.error_views],
        "sources": compiled.sources,
        "sinks": compiled.sinks,
        "dlq": compiled.dlq,
        # views the writes read, with the condition of a failing row: counted during the
        # writes, they tell a local run whether the DLQ is empty (codegen/empty_dlq.py)
        "dlq_witnesses": compiled.dlq_witnesses,
        "dlq_witnessed": compiled.dlq_witnessed,
    }


def write_target(compiled: Compiled, out_dir: str | Path) -> Path:
    target = Path(out_dir) / safe_name(compiled.pipeline)
    target.mkdir(parents=True, exist_ok=True)
    for old in target.glob("*.sql"):
        old.unlink()
    for name, content in files(compiled).items():
        (target / name).write_text(content, encoding="utf-8")
    return target
