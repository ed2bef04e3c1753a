"""The README.md `compile` writes into each compiled folder: what the folder holds, the
pipeline's nodes in dependency order with the file of each one's logic, and a legend of
the hidden names its files use (codegen/legend.py).

Node names can hold any character: each reaches the Markdown only inside a code span, on
one line (codegen/comments.py escapes line breaks and controls), fenced by more backticks
than it holds, so no name can open a heading, a link or HTML. A link's target is a file
name of the folder, made of letters, digits and `_.-` only (codegen/layout.py)."""

from __future__ import annotations

import re
from pathlib import PurePath

from clinker_sql import __version__
from clinker_sql.codegen import legend
from clinker_sql.codegen.comments import comment_text
from clinker_sql.codegen.layout import FUNCTIONS_FILE, README_FILE, Placed, node_files
from clinker_sql.codegen.plan import Compiled


def code(text: str) -> str:
    """`text` as a Markdown code span that shows it as written."""
    text = comment_text(text)
    fence = "`" * (max((len(r) for r in re.findall(r"`+", text)), default=0) + 1)
    if text.startswith("`") or text.endswith("`") or (
            text.startswith(" ") and text.endswith(" ") and text.strip(" ")):
        text = f" {text} "
    return f"{fence}{text}{fence}"


def readme(compiled: Compiled, stmts: list[Placed], contents: dict[str, str]) -> str:
    lines = [f"# Compiled pipeline {code(compiled.pipeline)}", "",
             f"Written by clinker-sql {__version__} from {code(PurePath(compiled.file).name)}"
             " by `clinker-sql compile`, which rewrites this folder: edit the pipeline, not "
             "these files.", "",
             "## Files", "",
             "- `nodes/`: one file per node, with the statements that hold its logic: what "
             "to review.",
             "- `engine/`: every other statement, one a file, numbered by its step in the run "
             "(row identity, scans, checkpoints, DLQ entries, the commit of correlated rows, "
             "writes, checks, the run summary); the missing numbers are steps in `nodes/`."]
    if FUNCTIONS_FILE in contents:
        lines.append("- `functions.sql`: the SQL functions the statements call.")
    lines += ["- `session.sql`: the Spark settings every statement relies on.",
              "- `run.sql`: every statement, in the order a run executes them.",
              "- `manifest.json`: each statement's file, step, kind and node, for tools.", "",
              "## Nodes, in dependency order", ""]
    files = node_files(compiled)
    for n in compiled.nodes:
        reads = ", ".join(code(i) for i in n["inputs"])
        where = files.get(n["name"])
        lines.append(f"- {code(n['name'])} ({n['kind']}"
                     + (f", reads {reads}" if reads else "") + "): "
                     + (f"[{code(where)}]({where})" if where else "no statement of its own"))
    lines += ["", "## Hidden names", "",
              "Columns and views the compiler adds (`<n>` is a number; `<node>`, "
              "`<column>`, `<field>`, `<branch>`, `<port>` are names from the pipeline):", ""]
    lines += [f"- {code(e.shown)}: {e.meaning}" for e in used(compiled, stmts, contents)[0]]
    return "\n".join(lines) + "\n"


def used(compiled: Compiled, stmts: list[Placed], contents: dict[str, str]
         ) -> tuple[list[legend.Entry], set[str]]:
    """The legend entries of the hidden names the folder's files use, in the legend's
    order, and the names the legend does not explain (a test keeps these none)."""
    found: set[legend.Entry] = set()
    unexplained: set[str] = set()

    def note(name: str, entry: legend.Entry | None) -> None:
        if entry is None:
            unexplained.add(name)
        else:
            found.add(entry)

    for path, text in contents.items():
        if path != README_FILE:
            for name in legend.hidden_names(text):
                note(name, legend.lookup(legend.COLUMNS, name))
    ports: dict[str, set[str]] = {}
    for key in compiled.relations:
        node, _, port = key.partition(".")
        if port:
            ports.setdefault(node, set()).add(port)
    for at in stmts:
        s = at.statement
        if s.layer == "session" or s.name == s.node:
            continue
        if s.node is not None and s.name.startswith(f"{s.node}."):  # a name may start with $
            note(s.name, legend.suffix_entry(s.name, frozenset(ports.get(s.node, ()))))
        elif s.name.startswith("$"):
            note(s.name, legend.lookup(legend.COLUMNS, s.name))
        else:
            note(s.name, legend.lookup(legend.STATEMENTS, s.name) or legend.suffix_entry(s.name))
    order = legend.COLUMNS + legend.SUFFIXES + legend.STATEMENTS
    return [e for e in order if e in found], unexplained
