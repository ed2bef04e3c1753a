"""What `compile` writes: numbered .sql files, run.sql and manifest.json.

Everything here is a pure function of the pipeline, so compiling twice gives
byte-identical files (no timestamps, no absolute paths)."""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path

from clinker_sql import __version__
from clinker_sql.codegen.atomic_folder import write_folder
from clinker_sql.codegen.comments import comment_lines, comment_text
from clinker_sql.codegen.lineage import header_lines
from clinker_sql.codegen.numbering import MAPPED_FILES_MAX
from clinker_sql.codegen.plan import Compiled, Statement
from clinker_sql.codegen.run_plan import ViewStep, WriteStep
from clinker_sql.diagnostics import fail

MANIFEST_VERSION = "clinker-sql/manifest/v1"


def safe_name(name: str) -> str:
    """A file name for `name`: a long one is cut, with a hash of the whole kept unique,
    so that a numbered file of the folder stays within the 255 bytes of a file name."""
    safe = re.sub(r"[^A-Za-z0-9_.-]+", "_", name).strip("._") or "x"
    if len(safe) <= 120:
        return safe
    return safe[:100] + "_" + hashlib.sha256(name.encode("utf-8", "surrogatepass")
                                             ).hexdigest()[:16]


def statement_text(stmt: Statement, lineage: list[str] | None = None) -> str:
    header = comment_line(stmt.header) if stmt.header else ""
    header += "".join(comment_line(line) for line in lineage or ())
    if stmt.sql.startswith("--"):  # a step the runner performs (checkpoint, fixpoint)
        return header + "".join(comment_line(line) for line in stmt.sql.split("\n"))
    clean = stmt.step.clean_groups if isinstance(stmt.step, ViewStep) else None
    if clean:  # codegen/one_pass.py
        unless = comment_text(", ".join(clean.unless))
        return (f"{header}{stmt.sql};\n-- when {unless} has no row, "
                "nothing is retracted before it: the runner defines it instead as\n"
                f"{_commented(clean.define)}")
    few = stmt.step.few_files if isinstance(stmt.step, ViewStep) else None
    if few:  # codegen/source.py
        return (f"{header}{stmt.sql};\n-- when the listing finds at most {MAPPED_FILES_MAX} "
                "files, the runner defines it instead as below, with the listed files in a "
                "literal MAP\n-- (each one's $path and $rank) in place of the subquery: no "
                f"job builds the map\n{_commented(few.sql)}")
    return f"{header}{stmt.sql};\n"


def comment_line(text: str) -> str:
    """One `--` line of a file, whatever wrote its text (which may start with `--`): no
    name, path or CXL in it can end the comment (codegen/comments.py)."""
    body = text[2:] if text.startswith("--") else f" {text}"
    return f"--{comment_text(body)}\n"


def _commented(sql: str) -> str:
    """A statement the runner may run instead, as SQL comment lines."""
    return comment_lines(f"{sql};")


def lineage_header(compiled: Compiled, stmt: Statement) -> list[str]:
    """Column lineage for the file that defines a node's output (its good rows, a route
    branch, or a sink's write); nothing for the other statements."""
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
    out["run.sql"] = (comment_line(f"clinker-sql {__version__}: pipeline {compiled.pipeline}")
                      + "-- every statement of the run, in order\n\n" +
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
                        **({"output": s.step.output()}
                           if isinstance(s.step, WriteStep) else {})}
                       for f, s in numbered(compiled)],
        "error_views": [{"view": e.view, "node": e.node, "payload": list(e.payload)}
                        for e in compiled.error_views],
        "sources": compiled.sources,
        "sinks": [s.manifest() for s in compiled.sinks],
        "dlq": compiled.dlq,
        # views the writes read, with the condition of a failing row: counted during the
        # writes, they tell a local run whether the DLQ is empty (codegen/empty_dlq.py)
        "dlq_witnesses": compiled.dlq_witnesses,
        "dlq_witnessed": compiled.dlq_witnessed,
    }


def compiled_file(name: str) -> bool:
    """A file `compile` writes (and replaces) in OUT/<pipeline>/; it keeps the others
    there (run_results.json, docs.html, a user's notes)."""
    return name.endswith(".sql") or name == "manifest.json"


def write_target(compiled: Compiled, out_dir: str | Path) -> Path:
    """Write OUT/<pipeline>/ at once: a failure leaves the previous files as they were,
    and a success leaves no .sql file of an earlier compile (codegen/atomic_folder.py)."""
    target = Path(out_dir) / safe_name(compiled.pipeline)
    contents = files(compiled)
    try:
        write_folder(target, contents, compiled_file)
    except OSError as exc:
        raise fail("CS103", f"cannot write the compiled SQL to {target}: "
                   f"{exc.strerror or exc}", hint="check that the --out folder can be "
                   "written and that no file stands where the folder goes") from exc
    return target
