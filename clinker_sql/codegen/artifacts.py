"""What `compile` writes into OUT/<pipeline>/: nodes/<node>.sql (each user node's own
logic), engine/NN_<name>.sql (the machinery around it, numbered in run order),
functions.sql, session.sql, run.sql (every statement in run order), manifest.json and a
README.md that maps the folder.

Everything here is a pure function of the pipeline, so compiling twice gives
byte-identical files (no timestamps, no absolute paths)."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from clinker_sql import __version__
from clinker_sql.codegen.atomic_folder import write_folder
from clinker_sql.codegen.comments import comment_lines, comment_text
from clinker_sql.codegen.lineage import header_lines
from clinker_sql.codegen.numbering import MAPPED_FILES_MAX
from clinker_sql.codegen.plan import Compiled, Statement
from clinker_sql.codegen.layout import (
    ENGINE_DIR,
    FUNCTIONS_FILE,
    MANIFEST_FILE,
    NODES_DIR,
    README_FILE,
    RUN_FILE,
    SESSION_FILE,
    Placed,
    engine_file,
    node_files,
    safe_name,
)
from clinker_sql.codegen.lineage import header_lines
from clinker_sql.codegen.run_plan import ViewStep, WriteStep
from clinker_sql.codegen.target_readme import readme
from clinker_sql.diagnostics import fail

MANIFEST_VERSION = "clinker-sql/manifest/v2"


def statement_text(stmt: Statement) -> str:
    header = comment_line(stmt.header) if stmt.header else ""
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


def node_lineage(compiled: Compiled, node: str) -> list[str]:
    """The column lineage of a node's output, for the head of its node file: each column
    it computes with the CXL that computes it, the columns it passes on, its filters."""
    nl = compiled.lineage.get(node)
    return header_lines(nl) if nl is not None else []


def placed(compiled: Compiled) -> list[Placed]:
    """Every statement in run order, with its file: the session settings in session.sql,
    the functions in functions.sql, each node's own logic in nodes/<node>.sql, and every
    other statement in its own engine/NN_<name>.sql, numbered by its place in the run
    (a node statement takes a number too, so the gaps show where the node files run)."""
    width = max(2, len(str(sum(s.layer in ("node", "engine") for s in compiled.statements))))
    by_node = node_files(compiled)
    out: list[Placed] = []
    step = 0
    for s in compiled.statements:
        if s.layer == "session":
            out.append(Placed(SESSION_FILE, s, f"{s.sql};\n", None))
            continue
        text = statement_text(s)
        if s.layer == "function":
            out.append(Placed(FUNCTIONS_FILE, s, text, None))
            continue
        step += 1
        if s.layer == "node":
            out.append(Placed(by_node[s.node], s, text, step))
        else:
            out.append(Placed(engine_file(step, width, s.name), s, text, step))
    return out


def files(compiled: Compiled) -> dict[str, str]:
    """File path (relative to the folder) -> content."""
    stmts = placed(compiled)
    grouped: dict[str, list[Placed]] = {}
    for p in stmts:
        grouped.setdefault(p.file, []).append(p)
    kinds = {n["name"]: n["kind"] for n in compiled.nodes}
    out: dict[str, str] = {}
    out[SESSION_FILE] = "-- session settings every statement relies on\n" + "".join(
        p.text for p in grouped.pop(SESSION_FILE, []))
    functions = grouped.pop(FUNCTIONS_FILE, [])
    if functions:
        out[FUNCTIONS_FILE] = ("-- the SQL functions the statements call, defined before "
                               "them\n\n" + "\n".join(p.text for p in functions))
    for path, group in grouped.items():
        if path.startswith(f"{ENGINE_DIR}/"):
            out[path] = group[0].text
            continue
        node = group[0].statement.node or ""
        steps = ("step " if len(group) == 1 else "steps ") + ", ".join(
            str(p.step) for p in group)
        out[path] = (comment_line(f"{kinds.get(node, 'node')} {node}: the statements that "
                                  f"hold its logic ({steps} of run.sql)")
                     + "".join(comment_line(line) for line in node_lineage(compiled, node))
                     + "".join(f"\n-- step {p.step}\n{p.text}" for p in group))
    out[RUN_FILE] = (comment_line(f"clinker-sql {__version__}: pipeline {compiled.pipeline}")
                     + "-- every statement of the run, in order; the alternatives a run may "
                     "pick instead (kind `alternative`) are only in engine/, each saying when\n\n"
                     + "\n".join(p.text for p in stmts if p.statement.kind != "alternative"))
    out[MANIFEST_FILE] = json.dumps(manifest(compiled, stmts), indent=2) + "\n"
    out[README_FILE] = readme(compiled, stmts, out)
    return out


def manifest(compiled: Compiled, stmts: list[Placed]) -> dict:
    return {
        "manifest_version": MANIFEST_VERSION,
        "generator": f"clinker-sql {__version__}",
        "pipeline": compiled.pipeline,
        "strategy": compiled.strategy,
        "nodes": compiled.nodes,
        "node_files": node_files(compiled),
        "statements": [{"file": p.file, "layer": s.layer, "step": p.step, "kind": s.kind,
                        "node": s.node, "name": s.name,
                        "sha256": hashlib.sha256(p.text.encode("utf-8")).hexdigest(),
                        **({"output": s.step.output()}
                           if isinstance(s.step, WriteStep) else {})}
                       for p in stmts for s in (p.statement,)],
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
    """An entry of OUT/<pipeline>/ that `compile` writes (and replaces); it keeps the
    others there (run_results.json, docs.html, a user's notes). A top-level .sql file is
    the compiler's too: an earlier version wrote its numbered files there."""
    return name.endswith(".sql") or name in (MANIFEST_FILE, README_FILE, NODES_DIR,
                                             ENGINE_DIR)


def write_target(compiled: Compiled, out_dir: str | Path, folder: str | None = None) -> Path:
    """Write OUT/<pipeline>/ (or OUT/<folder>/) at once: a failure leaves the previous files
    as they were, and a success leaves no .sql file of an earlier compile
    (codegen/atomic_folder.py)."""
    target = Path(out_dir) / (folder or safe_name(compiled.pipeline))
    contents = files(compiled)
    try:
        write_folder(target, contents, compiled_file)
    except OSError as exc:
        raise fail("CS103", f"cannot write the compiled SQL to {target}: "
                   f"{exc.strerror or exc}", hint="check that the --out folder can be "
                   "written and that no file stands where the folder goes") from exc
    return target
