"""Text for the `--` comments of the compiled .sql files.

Names, paths and CXL written by the user reach the comments of the compiled files
(statement headers, column lineage, the commented alternative statements). Those files
are what people review, copy and run, so a comment must stay one comment: a line break
in a name would end it and turn the rest of the name into a live statement, and a line
that ends in a backslash continues the comment onto the next line in Spark's lexer
(`-- a\\` swallows the statement below it). `comment_text` is the one way text gets
there: it never returns a line break of any kind, a trailing backslash, or a block
comment marker (`/*`, `*/`), and it leaves every other character as written, so a
reviewer recognises the name.

It is idempotent (`comment_text(comment_text(t)) == comment_text(t)`), so it is applied
both where the text is made (a statement's header, a lineage line) and where the files
are assembled, without escaping twice. The price is that a backslash is kept as it is:
a name holding the two characters `\\n` reads like one holding a line break."""

from __future__ import annotations

import re

_NAMED = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}

# Characters written as an escape: C0 and C1 controls (every line break among them:
# \n \r \x0b \x0c \x1c-\x1e \x85), the line and paragraph separators, the bidirectional
# controls (they reorder what a reviewer sees) and lone surrogates (no UTF-8 form).
_ESCAPED = "\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069" \
           "\ud800-\udfff"
# what needs changing: an escaped character, a slash next to a star (a block comment
# marker) or a backslash at the end
_UNSAFE = re.compile(f"[{_ESCAPED}]|\\*/|/\\*|\\\\\\Z")
_CHAR = re.compile(f"[{_ESCAPED}]")
_MARKER = re.compile(r"(?<=\*)(?=/)|(?<=/)(?=\*)")


def _escape(m: re.Match[str]) -> str:
    ch = m.group()
    return _NAMED.get(ch) or f"\\u{{{ord(ch):04X}}}"


def comment_text(text: str) -> str:
    """`text` as it may stand in a SQL comment: on one line, with no block comment
    marker and no trailing backslash; control and line-break characters are written as
    `\\n`, `\\r`, `\\t` or `\\u{XXXX}`, `*/` and `/*` as `*\\/` and `/\\*`."""
    if _UNSAFE.search(text) is None:
        return text  # the common case: an ordinary name
    out = _MARKER.sub("\\\\", _CHAR.sub(_escape, text))
    if out.endswith("\\"):
        out = out[:-1] + "\\u{5C}"
    return out


def comment_lines(text: str, prefix: str = "-- ") -> str:
    """Text of several lines (a statement shown for reference) as comment lines: one
    `prefix` line per `\\n`-separated line of `text`, each ending in a newline; any other
    line break in it (a name's `\\r`, say) is written as an escape."""
    lines = text.split("\n")
    if lines[-1] == "":
        lines.pop()
    return "".join(f"{prefix}{comment_text(line)}\n" for line in lines)
