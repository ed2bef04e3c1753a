"""The SQL the README and the pages under docs/ show is SQL the compiler writes.

Every ```sql block is preceded by a marker line naming a committed compiled file,
`<!-- compiled: tests/golden/<pipeline>/<file> -->`, and must be an excerpt of that file:
its parts, separated by lines holding only `...`, each appear in the file exactly, in
order. The golden files are checked against the compiler by `compile --check`, so a change
to the SQL shows up here as a stale excerpt: recompile the golden files, then copy the new
lines into the page.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
PAGES = [REPO / "README.md", *sorted((REPO / "docs").glob("*.md"))]
MARKER = re.compile(r"<!-- compiled: (\S+) -->")
ELISION = "..."


@dataclass(frozen=True)
class SqlBlock:
    line: int  # of the opening fence, 1-based
    text: str
    source: str | None  # the path the marker names, relative to the repository


def sql_blocks(page: str) -> list[SqlBlock]:
    """The ```sql blocks of a Markdown page, each with the marker on the line before it
    (blank lines between the two allowed)."""
    lines = page.splitlines()
    blocks = []
    i = 0
    while i < len(lines):
        if lines[i].strip() == "```sql":
            start = i
            end = next((j for j in range(i + 1, len(lines)) if lines[j].strip() == "```"),
                       None)
            if end is None:
                raise AssertionError(f"line {start + 1}: a ```sql block that never closes")
            before = start - 1
            while before >= 0 and not lines[before].strip():
                before -= 1
            marker = MARKER.fullmatch(lines[before].strip()) if before >= 0 else None
            blocks.append(SqlBlock(start + 1, "\n".join(lines[start + 1:end]),
                                   marker.group(1) if marker else None))
            i = end + 1
        else:
            i += 1
    return blocks


def excerpt_problem(block: str, compiled: str) -> str | None:
    """None when `block` is an excerpt of `compiled`: its parts between `...` lines are
    exact substrings of the file, in order, none empty. Otherwise what is wrong."""
    parts, current = [], []
    for line in block.split("\n"):
        if line.strip() == ELISION:
            parts.append("\n".join(current))
            current = []
        else:
            current.append(line)
    parts.append("\n".join(current))
    position = 0
    for n, part in enumerate(parts, 1):
        if not part.strip():
            return f"part {n} is empty (a `...` line at the start, the end, or twice)"
        found = compiled.find(part, position)
        if found < 0:
            where = "after the previous part" if part in compiled else "in the file"
            return f"part {n} is not {where}: {part.splitlines()[0]!r}"
        position = found + len(part)
    return None


def _cases():
    for page in PAGES:
        for block in sql_blocks(page.read_text(encoding="utf-8")):
            yield pytest.param(page, block, id=f"{page.relative_to(REPO)}:{block.line}")


def test_the_readme_shows_compiled_sql():
    assert any(sql_blocks((REPO / "README.md").read_text(encoding="utf-8")))


@pytest.mark.parametrize("page,block", list(_cases()))
def test_sql_block_is_an_excerpt_of_the_compiled_file_its_marker_names(page, block):
    where = f"{page.relative_to(REPO)}, line {block.line}"
    assert block.source is not None, (
        f"{where}: a ```sql block needs a `<!-- compiled: tests/golden/<pipeline>/<file> -->` "
        "line before it")
    assert block.source.startswith("tests/golden/"), f"{where}: {block.source} is not golden"
    source = REPO / block.source
    assert source.is_file(), f"{where}: {block.source} does not exist"
    problem = excerpt_problem(block.text, source.read_text(encoding="utf-8"))
    assert problem is None, f"{where}: not an excerpt of {block.source}: {problem}"


# The checker itself, on known inputs.

FILE = "-- header\nSELECT\n  a,\n  b,\n  c\nFROM t;\n"


@pytest.mark.parametrize("block", [
    "-- header\nSELECT",
    "-- header\n...\n  c\nFROM t;",
    "SELECT\n...\n  b,\n...\nFROM t;",
])
def test_an_excerpt_is_accepted(block):
    assert excerpt_problem(block, FILE) is None


@pytest.mark.parametrize("block,why", [
    ("SELECT\n  a,\n  c", "not in the file"),  # a line left out without `...`
    ("  c\n...\n  a,", "after the previous part"),  # parts out of order
    ("SELECT\n  a,  \n", "not in the file"),  # whitespace differs
    ("...\nSELECT", "empty"),
    ("SELECT\n...\n...\nFROM t;", "empty"),
])
def test_a_block_that_is_not_an_excerpt_is_refused(block, why):
    problem = excerpt_problem(block, FILE)
    assert problem is not None and why in problem


def test_markers_are_found_before_their_block():
    page = ("text\n\n<!-- compiled: tests/golden/p/nodes/x.sql -->\n\n```sql\nSELECT 1\n```\n"
            "\n```sql\nSELECT 2\n```\n")
    first, second = sql_blocks(page)
    assert (first.source, first.text, first.line) == ("tests/golden/p/nodes/x.sql",
                                                      "SELECT 1", 5)
    assert second.source is None and second.text == "SELECT 2"
