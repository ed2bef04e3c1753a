"""User text in the comments of the compiled files: names, paths and CXL strings carrying
line breaks, a trailing backslash, comment markers, quotes or a whole statement stay inside
their comment, quoted identifier or string literal. The compiled files are tokenized with
Spark's rules (sqlglot) to prove it."""

from __future__ import annotations

import csv
import json
import shutil
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from sqlglot.dialects.spark import Spark
from sqlglot.errors import TokenError
from sqlglot.tokens import TokenType

from clinker_sql import sqlbuild as S
from clinker_sql.codegen.artifacts import comment_line, files, placed
from clinker_sql.codegen.comments import comment_text
from clinker_sql.diagnostics import CODES, DiagnosticError
from clinker_sql.project import Project
from tests.reliability.injection import check_readme

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "employee_tiers"
DROP = "x\nDROP TABLE important;\n--"
PAYLOADS = {
    "lf": "a\nb", "cr": "a\rb", "crlf": "a\r\nb", "u2028": "a\u2028b", "nel": "a\x85b",
    "vt_ff": "a\x0b\x0cb", "backslash": "a\\", "close": "a*/b", "open": "a/*b",
    "dashes": "a--b", "semicolon": "a;b", "backtick": "a`b", "quote": "a'b",
    "dquote": 'a"b', "drop": DROP, "backslash_drop": "a\\\n;DROP TABLE important;--\\",
}
PLACES = ("pipeline", "source", "source_name", "transform", "sink", "column", "source_path",
          "sink_path", "dlq_path", "cxl_string", "cxl_filter")  # source_name: not in the SQL


# ---- the escaping function ---------------------------------------------------------------

@given(st.text())
def test_comment_text_is_one_safe_line(text):
    out = comment_text(text)
    assert len(f"-- {out}x".splitlines()) == 1
    assert not out.endswith("\\")
    assert "*/" not in out and "/*" not in out
    assert comment_text(out) == out  # idempotent: applied where made and where written


@given(st.text(alphabet=st.characters(blacklist_categories=("Cc", "Cs", "Zl", "Zp"),
                                      blacklist_characters="*\\\u061c\u200e\u200f")))
def test_ordinary_text_is_kept_as_written(text):
    assert comment_text(text) == text


def test_escapes_are_visible():
    assert comment_text(DROP) == "x\\nDROP TABLE important;\\n--"
    assert comment_text("a\r\nb\u2028c") == "a\\r\\nb\\u{2028}c"
    assert comment_text("C:\\out\\") == "C:\\out\\u{5C}"
    assert comment_text("/*/ */") == "/\\*\\/ *\\/"
    assert comment_line("--   x\nDROP") == "--   x\\nDROP\n"


@pytest.mark.parametrize("payload", list(PAYLOADS.values()), ids=list(PAYLOADS))
def test_names_and_strings_are_one_quoted_token(payload):
    """What sqlbuild.py builds from user text reads back as one token holding it."""
    for e, kind in ((S.table(payload), TokenType.IDENTIFIER),
                    (S.col(payload, payload), None), (S.string(payload), TokenType.STRING)):
        tokens = _tokens(S.to_sql(e))
        names = [t for t in tokens if t.token_type != TokenType.DOT]
        assert all(t.token_type == (kind or TokenType.IDENTIFIER) and t.text == payload
                   for t in names) and names


# ---- compiled files ----------------------------------------------------------------------

def _yaml(text: str) -> str:
    return json.dumps(text)  # a YAML double-quoted scalar


def _cxl(text: str) -> str:
    """`text` as a CXL string literal (escapes: \\\\ \\" \\n \\r \\t)."""
    out = text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")
    return '"' + out.replace("\r", "\\r").replace("\t", "\\t") + '"'


def _pipeline(folder: Path, payload: str, places: tuple[str, ...]) -> Path:
    """examples/employee_tiers with `payload` in each of `places`."""
    shutil.copytree(EXAMPLE, folder, dirs_exist_ok=True)
    text = (EXAMPLE / "pipeline.yaml").read_text(encoding="utf-8")

    def put(old: str, new: str, count: int = 1) -> None:
        nonlocal text
        assert text.count(old) == count, old
        text = text.replace(old, new)

    w = "w" + payload  # a name starting with a letter
    if "pipeline" in places:
        put("  name: employee_tiers", f"  name: {_yaml(w)}")
    if "source" in places:
        put("\n    name: employees\n", f"\n    name: {_yaml('s' + payload)}\n")
        put("input: employees", f"input: {_yaml('s' + payload)}")
    if "source_name" in places:
        put("      name: employees\n", f"      name: {_yaml('n' + payload)}\n")
    if "transform" in places:
        put("name: enrich", f"name: {_yaml('t' + payload)}")
        put("input: enrich", f"input: {_yaml('t' + payload)}")
    if "sink" in places:
        put("\n    name: roster\n", f"\n    name: {_yaml('k' + payload)}\n")
    if "column" in places:
        put("        - { name: active, type: bool }",
            f"        - {{ name: active, type: bool }}\n        - {{ name: {_yaml(w)}, "
            "type: string }")
        data = folder / "data" / "employees.csv"
        rows = list(csv.reader(data.open(encoding="utf-8", newline="")))
        with data.open("w", encoding="utf-8", newline="") as f:
            csv.writer(f).writerows([rows[0] + [w]] + [r + ["v"] for r in rows[1:]])
    if "source_path" in places:
        put("path: ./data/employees.csv", f"path: {_yaml('./data/e' + payload + '.csv')}")
    if "sink_path" in places:
        put("path: ./out/roster.csv", f"path: {_yaml('./out/r' + payload + '.csv')}")
    if "dlq_path" in places:
        put("path: ./out/dlq.csv", f"path: {_yaml('./out/d' + payload + '.csv')}")
    if "cxl_string" in places:
        put('"principal"', _cxl(payload))
    if "cxl_filter" in places:
        put("filter active\n", f"filter active and name != {_cxl(payload)}\n")
    out = folder / "pipeline.yaml"
    out.write_text(text, encoding="utf-8")
    return out


def _tokens(text: str) -> list:
    return Spark().tokenizer().tokenize(text)


def _problems(name: str, text: str, statements: int) -> list[str]:
    """What escaped a comment, a quoted identifier or a literal in one compiled file."""
    try:
        tokens = _tokens(text)
    except TokenError as exc:  # a quote left open: something ended a comment early
        return [f"{name}: does not tokenize: {exc}"]
    problems = []
    gaps, pos = [], 0
    for tok in tokens:  # between two tokens: only blanks and `--` comments
        gaps.append(text[pos:tok.start])
        pos = tok.end + 1
        if tok.token_type == TokenType.DROP:
            problems.append(f"{name}: a live DROP (line {tok.line})")
        if tok.token_type not in (TokenType.STRING, TokenType.IDENTIFIER) and \
                "important" in tok.text:
            problems.append(f"{name}: payload outside a literal: {tok.text!r}")
    gaps.append(text[pos:])
    for gap in gaps:
        for line in gap.splitlines():  # every line break an editor may show
            if not line.strip():
                continue
            if not line.lstrip(" ").startswith("--"):
                problems.append(f"{name}: a comment line without '--': {line!r}")
            if line.endswith("\\"):  # Spark continues a `--` comment past `\` + newline
                problems.append(f"{name}: a comment line ends in a backslash: {line!r}")
            if "*/" in line or "/*" in line:
                problems.append(f"{name}: a block comment marker in a comment: {line!r}")
    found = sum(t.token_type == TokenType.SEMICOLON for t in tokens)
    if found != statements:
        problems.append(f"{name}: {found} statement separators, {statements} statements")
    return problems


def _check_compiled(compiled) -> list[str]:
    contents = files(compiled)
    runs: dict[str, int] = {}  # statements each file runs (a checkpoint is a runner's step)
    for at in placed(compiled):
        runs[at.file] = runs.get(at.file, 0) + int(not at.statement.sql.startswith("--"))
    problems = []
    for name, count in runs.items():
        problems += _problems(name, contents[name], count)
    in_run = sum(int(not at.statement.sql.startswith("--")) for at in placed(compiled)
                 if at.statement.kind != "alternative")  # alternatives: engine/ only
    problems += _problems("run.sql", contents["run.sql"], in_run)
    return problems + check_readme(contents["README.md"])


def _compile(folder: Path, payload: str, places: tuple[str, ...]):
    """The compiled pipeline, or the diagnostic that refused it (a coded one)."""
    pipeline = _pipeline(folder, payload, places)
    try:
        return Project(pipeline).compile(base=folder)
    except DiagnosticError as exc:
        codes = [d.code for d in exc.diagnostics]
        assert "CS999" not in codes and all(c in CODES for c in codes), codes
        return None


@pytest.mark.parametrize("payload", list(PAYLOADS.values()), ids=list(PAYLOADS))
def test_payload_everywhere_stays_inside(tmp_path, payload):
    compiled = _compile(tmp_path / "all", payload, PLACES)
    if compiled is not None:
        assert _check_compiled(compiled) == []
        return
    for place in PLACES:  # refused as a whole: each place on its own
        compiled = _compile(tmp_path / place, payload, (place,))
        if compiled is not None:
            assert _check_compiled(compiled) == [], place


@pytest.mark.parametrize("place", PLACES)
def test_statement_payload_in_each_place(tmp_path, place):
    compiled = _compile(tmp_path, DROP, (place,))
    if compiled is None:  # refused with a code (a path may be); Clinker admits these
        assert place not in ("source", "transform", "sink", "cxl_string", "cxl_filter")
        return
    assert _check_compiled(compiled) == []
    contents = files(compiled)
    # the payload did reach the files: as a quoted name or literal, or an escaped comment
    escaped = comment_text(DROP)
    kept = [t for t in _tokens(contents["run.sql"])
            if t.token_type in (TokenType.STRING, TokenType.IDENTIFIER)
            and "DROP TABLE important" in t.text]
    assert kept or escaped in contents["run.sql"] or place == "source_name", place


def test_header_names_the_node_escaped(tmp_path):
    compiled = _compile(tmp_path, DROP, ("transform", "pipeline"))
    contents = files(compiled)
    assert contents["run.sql"].startswith(f"-- clinker-sql {_version()}: pipeline "
                                          "wx\\nDROP TABLE important;\\n--\n")
    node_file = next(n for n in contents if n.startswith("nodes/t"))
    assert contents[node_file].startswith("-- transform tx\\nDROP TABLE important;\\n--: ")
    assert all("\n" not in s.header for s in compiled.statements)


def test_compiled_files_on_disk_tokenize_clean(tmp_path):
    """Through the command line: the files written are those checked above."""
    from click.testing import CliRunner

    from clinker_sql.cli import cli

    pipeline = _pipeline(tmp_path / "p", "a\\\n;DROP TABLE important;--\\", PLACES)
    out = tmp_path / "target"
    r = CliRunner().invoke(cli, ["compile", str(pipeline), "--out", str(out)])
    if r.exit_code != 0:  # refused: with a code of its own
        assert "error[CS999]" not in r.output and "error[" in r.output, r.output
        return
    target = next(out.iterdir())
    manifest = json.loads((target / "manifest.json").read_text(encoding="utf-8"))
    runs: dict[str, int] = {}
    for entry in manifest["statements"]:  # a checkpoint or fixpoint is a runner's step
        runs[entry["file"]] = runs.get(entry["file"], 0) + int(
            entry["kind"] not in ("checkpoint", "fixpoint"))
    for name, count in runs.items():
        text = (target / name).read_text(encoding="utf-8")
        assert _problems(name, text, count) == []
    assert check_readme((target / "README.md").read_text(encoding="utf-8")) == []


def _version() -> str:
    from clinker_sql import __version__

    return __version__
