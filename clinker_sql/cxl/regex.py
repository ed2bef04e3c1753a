"""Rust `regex` patterns -> Java patterns as Spark runs them (spec §6.1).

- `(?U)` makes `\\d \\w \\s \\b` Unicode-aware like Rust; `(?d)` makes `\\n` the
  only line terminator for `.`, `^` and `$`, as in Rust.
- Rust's `$` (without the `m` flag) matches only at the very end; Java's also
  before a final newline, so it becomes `\\z`.
- `(?P<name>...)` becomes `(?<name>...)`; POSIX classes `[[:alpha:]]` are spelled out.
- Syntax Rust rejects (look-around, back-references) is an E200 compile error,
  like Clinker's typecheck. The pattern is validated with Python's `re` after
  mapping the Rust-only escapes to equivalents Python understands.
"""

from __future__ import annotations

import re
import re._parser as sre_parse  # type: ignore[import-not-found]

from clinker_sql.cxl import ast as a
from clinker_sql.cxl.lower import error

_POSIX = {"alnum": "0-9A-Za-z", "alpha": "A-Za-z", "ascii": "\\x00-\\x7F", "blank": "\\t ",
          "cntrl": "\\x00-\\x1F\\x7F", "digit": "0-9", "graph": "!-~", "lower": "a-z",
          "print": " -~", "punct": "!-/:-@\\[-`{-~", "space": "\\t\\n\\x0B\\f\\r ",
          "upper": "A-Z", "word": "0-9A-Za-z_", "xdigit": "0-9A-Fa-f"}


def _translate(pattern: str, node: a.Expr) -> tuple[str, str]:
    """(Java pattern body, Python pattern for validation)."""
    java: list[str] = []
    py: list[str] = []
    multiline = bool(re.search(r"\(\?[a-zA-Z]*m", pattern))
    i, depth = 0, 0  # depth > 0 inside a character class
    while i < len(pattern):
        ch = pattern[i]
        if ch == "\\":
            if i + 1 >= len(pattern):
                raise error("E200", "invalid regular expression: trailing backslash", node)
            nxt = pattern[i + 1]
            if nxt.isdigit() and nxt != "0" and depth == 0:
                raise error("E200", "invalid regular expression: back-references are not "
                            "supported", node)
            if nxt in "pP":
                end = i + 2
                if end < len(pattern) and pattern[end] == "{":
                    close = pattern.find("}", end)
                    end = close + 1 if close >= 0 else len(pattern)
                else:
                    end += 1
                java.append(pattern[i:end])
                py.append("\\w")
                i = end
                continue
            if nxt == "x" and pattern.startswith("{", i + 2):
                close = pattern.find("}", i)
                java.append(pattern[i:close + 1])
                py.append("a")
                i = close + 1
                continue
            java.append(ch + nxt)
            py.append("\\Z" if nxt == "z" else ch + nxt)
            i += 2
            continue
        if depth > 0 and pattern.startswith("[:", i):
            close = pattern.find(":]", i + 2)
            name = pattern[i + 2:close] if close >= 0 else ""
            if name in _POSIX:
                java.append(_POSIX[name])
                py.append(_POSIX[name])
                i = close + 2
                continue
            if name.startswith("^") and name[1:] in _POSIX:
                raise error("CS001", f"the negated POSIX class [:{name}:] cannot be translated",
                            node)
        if ch == "[":
            depth += 1
            java.append(ch)
            py.append(ch)
            # a leading `]` (or `^]`) is literal
            j = i + 1
            if pattern.startswith("^", j):
                java.append("^")
                py.append("^")
                j += 1
            if pattern.startswith("]", j):
                java.append("\\]")
                py.append("\\]")
                j += 1
            i = j
            continue
        if ch == "]" and depth > 0:
            depth -= 1
        if depth == 0 and ch == "(" and pattern.startswith("(?", i):
            rest = pattern[i + 2:]
            if rest[:1] in ("=", "!") or rest[:2] in ("<=", "<!"):
                raise error("E200", "invalid regular expression: look-around is not "
                            "supported", node)
            if rest.startswith("P<"):
                java.append("(?<")
                py.append("(?P<")
                i += 4
                continue
            if rest.startswith("<"):
                java.append("(?<")
                py.append("(?P<")
                i += 3
                continue
            flags = re.match(r"-?[a-zA-Z-]*[:)]", rest)
            if flags and ("U" in flags.group(0) or "R" in flags.group(0)):
                raise error("CS001", "the regex flags U (swap greed) and R (CRLF) cannot be "
                            "translated to Java", node)
            if flags and flags.group(0).endswith(")"):
                # Rust allows flag groups anywhere; Python only at the start.
                text = "(?" + flags.group(0)
                java.append(text)
                if i == 0 and "-" not in text:
                    py.append(text)
                i += len(text)
                continue
        if depth == 0 and ch == "$" and not multiline:
            java.append("\\z")
            py.append("\\Z")
            i += 1
            continue
        java.append(ch)
        py.append(ch)
        i += 1
    return "".join(java), "".join(py)


def java_regex(pattern: str, node: a.Expr) -> str:
    java, py = _translate(pattern, node)
    try:
        re.compile(py)
    except re.error as exc:
        raise error("E200", f"invalid regex pattern: {exc}", node) from None
    return "(?Ud)" + java


def group_info(pattern: str) -> list[tuple[bool, bool]]:
    """Per group number (0 = the whole match): (can match the empty string,
    may not take part in a successful match)."""
    _java, py = _translate(pattern, a.Literal(a.Pos(0, 0), pattern, "string"))
    tree = sre_parse.parse(py)
    info: dict[int, tuple[bool, bool]] = {0: (tree.getwidth()[0] == 0, False)}

    def walk(sub, optional: bool) -> None:
        for op, av in sub.data:
            name = str(op)
            if name == "SUBPATTERN":
                gid, _add, _del, inner = av
                if gid is not None:
                    info[gid] = (inner.getwidth()[0] == 0, optional)
                walk(inner, optional)
            elif name == "BRANCH":
                alts = av[1]
                for alt in alts:
                    walk(alt, optional or len(alts) > 1)
            elif name in ("MAX_REPEAT", "MIN_REPEAT", "POSSESSIVE_REPEAT"):
                lo, _hi, inner = av
                walk(inner, optional or lo == 0)
            elif name in ("ASSERT", "ASSERT_NOT", "ATOMIC_GROUP"):
                inner = av[1] if isinstance(av, tuple) else av
                walk(inner, True)
    walk(tree, False)
    return [info.get(g, (True, True)) for g in range(tree.state.groups)]
