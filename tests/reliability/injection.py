"""The injection family: text that would end a SQL comment, identifier or literal early,
put into every name, path, string literal and var of a pipeline, and the check that the
compiled files keep it inside (`check_target`)."""

from __future__ import annotations

import json
import re
from pathlib import Path

from sqlglot.dialects.spark import Spark
from sqlglot.errors import TokenError
from sqlglot.tokens import TokenType

DROP = "x\nDROP TABLE important;\n--"
PAYLOADS = {
    "lf": "\n", "cr": "\r", "crlf": "\r\n", "u2028": "\u2028", "backslash": "\\",
    "close_comment": "*/", "open_comment": "/*", "dashes": "--", "semicolon": ";",
    "backtick": "`", "quote": "'", "dquote": '"', "drop": DROP,
    "backslash_drop": "\\\n;DROP TABLE important;--\\",
}


def cxl_string(text: str) -> str:
    """`text` as a CXL string literal (escapes: \\\\ \\" \\n \\r \\t)."""
    out = text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")
    return '"' + out.replace("\r", "\\r").replace("\t", "\\t") + '"'


def _comment_problems(gap: str) -> list[str]:
    """Text between two tokens is whitespace and `--` comments only: every line of it
    (split at every line break a reader's editor may show) is blank or starts with `--`
    and does not end in a backslash (Spark continues a `--` comment past `\\` + newline)."""
    problems = []
    for line in gap.splitlines():
        text = line.strip(" \t")
        if not text:
            continue
        if not text.startswith("--"):
            problems.append(f"a comment line does not start with '--': {line!r}")
        elif text.endswith("\\"):
            problems.append(f"a comment line ends in a backslash: {line!r}")
    return problems


def check_sql(text: str, name: str) -> tuple[list[str], list]:
    """Problems of one compiled file, and its tokens."""
    try:
        tokens = Spark().tokenizer().tokenize(text)
    except TokenError as exc:
        return [f"{name}: does not tokenize: {exc}"], []
    problems = []
    pos = 0
    for tok in tokens:
        problems += [f"{name}: {p}" for p in _comment_problems(text[pos:tok.start])]
        pos = tok.end + 1
        if tok.token_type == TokenType.DROP:
            problems.append(f"{name}: a DROP keyword outside any literal (line {tok.line})")
        if tok.token_type not in (TokenType.STRING, TokenType.IDENTIFIER) and \
                "important" in tok.text.lower():
            problems.append(f"{name}: payload text as a bare token {tok.text!r}")
    problems += [f"{name}: {p}" for p in _comment_problems(text[pos:])]
    return problems, tokens


def _statements(tokens: list, name: str) -> tuple[int, list[str]]:
    """The number of statements: every `;` ends one and no code follows the last."""
    count, code, problems = 0, False, []
    for tok in tokens:
        if tok.token_type == TokenType.SEMICOLON:
            if not code:
                problems.append(f"{name}: an empty statement (line {tok.line})")
            count, code = count + 1, False
        else:
            code = True
    if code:
        problems.append(f"{name}: code after the last ';'")
    return count, problems


def check_target(target: Path) -> list[str]:
    """Tokenize every compiled .sql file and run.sql with Spark's rules (sqlglot) and list
    what escaped a comment, a quoted identifier or a literal. Each file holds the
    statements manifest.json lists for it (none for a step the runner performs: a
    checkpoint or the retraction fixpoint), session.sql only SETs; run.sql holds exactly
    those statements in the manifest's order, token for token, except the compiled
    alternatives (engine files the runner runs by name in place of a listed statement)."""
    manifest = json.loads((target / "manifest.json").read_text(encoding="utf-8"))
    entries = manifest["statements"]
    problems: list[str] = []
    per_file: dict[str, list[list]] = {}
    for name in dict.fromkeys(e["file"] for e in entries):
        tokens_problems, tokens = check_sql((target / name).read_text(encoding="utf-8"), name)
        problems += tokens_problems
        problems += _statements(tokens, name)[1]
        per_file[name] = _split(tokens)
    expected: list = []
    for e in entries:
        if e["kind"] in ("checkpoint", "fixpoint"):  # comments only: the runner's step
            continue
        left = per_file[e["file"]]
        if not left:
            problems.append(f"{e['file']}: fewer statements than the manifest lists")
            continue
        statement = left.pop(0)
        if e["kind"] == "alternative":  # compiled, run only by name, not listed in run.sql
            continue
        if e["file"] == "session.sql" and statement[0].token_type != TokenType.SET:
            problems.append("session.sql: a statement that is not a SET")
        expected += [(t.token_type, t.text) for t in statement]
    for name, left in per_file.items():
        if left:
            problems.append(f"{name}: {len(left)} statements more than the manifest lists")
    run_problems, run_tokens = check_sql((target / "run.sql").read_text(encoding="utf-8"),
                                         "run.sql")
    problems += run_problems
    problems += _statements(run_tokens, "run.sql")[1]
    if [(t.token_type, t.text) for t in run_tokens] != expected:
        problems.append("run.sql: its statements are not those of the compiled files")
    return problems + check_readme((target / "README.md").read_text(encoding="utf-8"))


def check_readme(text: str) -> list[str]:
    """User text in the generated README.md: only inside code spans, on its own line."""
    problems = []
    for line in text.splitlines():
        # what is left once the code spans (a run of backticks to the same run) are out
        rest = re.sub(r"(?<!`)(`+)(?!`).*?(?<!`)\1(?!`)", "", line)
        rest = re.sub(r"\]\(nodes/[A-Za-z0-9_.-]+\.sql\)", "]", rest)  # a node file's link
        if "important" in rest or "<" in rest or "`" in rest:
            problems.append(f"README.md: user text outside a code span: {line!r}")
        if line and not line.startswith(("# Compiled pipeline ", "## ", "- ", "Written by ",
                                         "Columns and views ")):
            problems.append(f"README.md: a line the README does not write: {line!r}")
    return problems


def _split(tokens: list) -> list[list]:
    """The statements of a file's tokens, each with its `;`."""
    out: list[list] = [[]]
    for tok in tokens:
        out[-1].append(tok)
        if tok.token_type == TokenType.SEMICOLON:
            out.append([])
    return [s for s in out if s]
