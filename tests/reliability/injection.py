"""The injection family: text that would end a SQL comment, identifier or literal early,
put into every name, path, string literal and var of a pipeline, and the check that the
compiled files keep it inside (`check_target`)."""

from __future__ import annotations

import json
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
    what escaped a comment, a quoted identifier or a literal. A numbered file holds one
    statement (none for a step the runner performs); run.sql holds exactly the session's
    and the numbered files' statements, token for token."""
    manifest = json.loads((target / "manifest.json").read_text(encoding="utf-8"))
    problems: list[str] = []
    expected: list = []
    files = ["00_session.sql"] + [s["file"] for s in manifest["statements"]]
    for name in files:
        tokens_problems, tokens = check_sql((target / name).read_text(encoding="utf-8"), name)
        problems += tokens_problems
        count, p = _statements(tokens, name)
        problems += p
        if name == "00_session.sql":
            heads = [t for i, t in enumerate(tokens)
                     if i == 0 or tokens[i - 1].token_type == TokenType.SEMICOLON]
            if any(t.token_type != TokenType.SET for t in heads):
                problems.append("00_session.sql: a statement that is not a SET")
        elif count > 1:
            problems.append(f"{name}: {count} statements in one file")
        expected += [(t.token_type, t.text) for t in tokens]
    run_problems, run_tokens = check_sql((target / "run.sql").read_text(encoding="utf-8"),
                                         "run.sql")
    problems += run_problems
    problems += _statements(run_tokens, "run.sql")[1]
    if [(t.token_type, t.text) for t in run_tokens] != expected:
        problems.append("run.sql: its statements are not those of the numbered files")
    return problems
