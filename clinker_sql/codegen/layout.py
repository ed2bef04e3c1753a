"""The compiled folder's layout: where each statement goes, and the names of its files
(codegen/artifacts.py writes them, codegen/target_readme.py describes them)."""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass

from clinker_sql.codegen.plan import Compiled, Statement

SESSION_FILE = "session.sql"
FUNCTIONS_FILE = "functions.sql"
RUN_FILE = "run.sql"
README_FILE = "README.md"
MANIFEST_FILE = "manifest.json"
NODES_DIR = "nodes"
ENGINE_DIR = "engine"


@dataclass(frozen=True)
class Placed:
    """A statement where the compiled folder holds it."""

    file: str  # its file, relative to the folder ("/"-separated)
    statement: Statement
    text: str  # its text, in its file as in run.sql
    # its place in the run among the node and engine statements (the numbers of the
    # engine files); None for a session setting or a function
    step: int | None


def node_files(compiled: Compiled) -> dict[str, str]:
    """Node name -> its file, for every node with a statement of its own logic. Two names
    that make the same file name (`a b` and `a_b`, or `A` and `a` on a file system that
    ignores case) each get a hash of the whole name, so no node's file hides another's."""
    owners = [n["name"] for n in compiled.nodes
              if any(s.layer == "node" and s.node == n["name"] for s in compiled.statements)]
    base = {n: safe_name(n) for n in owners}
    taken: dict[str, int] = {}
    for name in base.values():
        taken[name.casefold()] = taken.get(name.casefold(), 0) + 1
    out = {}
    for n, name in base.items():
        if taken[name.casefold()] > 1:
            name = f"{name[:100]}_{_digest(n)}"
        out[n] = f"{NODES_DIR}/{name}.sql"
    return out


def engine_file(step: int, width: int, name: str) -> str:
    """An engine statement's file: its step in the run, zero-padded so the files sort in
    run order, and its name."""
    return f"{ENGINE_DIR}/{step:0{width}d}_{safe_name(name)}.sql"


def safe_name(name: str) -> str:
    """A file name for `name`: a long one is cut, with a hash of the whole kept unique,
    so that a numbered file of the folder stays within the 255 bytes of a file name."""
    safe = re.sub(r"[^A-Za-z0-9_.-]+", "_", name).strip("._") or "x"
    if len(safe) <= 120:
        return safe
    return f"{safe[:100]}_{_digest(name)}"


def _digest(name: str) -> str:
    return hashlib.sha256(name.encode("utf-8", "surrogatepass")).hexdigest()[:16]


