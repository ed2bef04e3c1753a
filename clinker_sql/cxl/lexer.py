"""CXL lexer (spec §1). Newlines are tokens: they end expressions."""

from __future__ import annotations

import datetime as _dt
from dataclasses import dataclass

from clinker_sql.cxl.errors import CxlError

KEYWORDS = frozenset(
    "let emit if then else and or not match use as fn trace null true false now it filter "
    "distinct by for in".split())

PUNCT = ("??", "==", "!=", ">=", "<=", "=>", "::", "+", "-", "*", "/", "%", ">", "<", "=",
         "(", ")", "[", "]", "{", "}", ",", ".", ":", "|", "$")

MAX_PROGRAM = 64 * 1024
_ESCAPES = {"\\": "\\", '"': '"', "'": "'", "n": "\n", "t": "\t", "r": "\r"}


@dataclass(frozen=True)
class Token:
    kind: str  # INT FLOAT STRING DATE IDENT KW PUNCT NL EOF
    value: object
    line: int
    col: int
    length: int = 1

    def is_(self, kind: str, value: object = None) -> bool:
        return self.kind == kind and (value is None or self.value == value)


def tokenize(text: str) -> list[Token]:
    try:
        size = len(text.encode("utf-8"))
    except UnicodeEncodeError as exc:  # a lone surrogate, e.g. from a YAML "\ud800" escape
        before = text[:exc.start]
        raise CxlError("E202", f"invalid character U+{ord(text[exc.start]):04X} (a lone "
                       "surrogate is not text)", before.count("\n") + 1,
                       exc.start - (before.rfind("\n") + 1) + 1) from None
    if size > MAX_PROGRAM:
        raise CxlError("E202", "CXL program exceeds 64 KiB", 1, 1)
    tokens: list[Token] = []
    i, line, col = 0, 1, 1
    n = len(text)

    def add(kind: str, value: object, start_col: int, length: int) -> None:
        tokens.append(Token(kind, value, line, start_col, length))

    while i < n:
        ch = text[i]
        if ch in " \t":
            i += 1
            col += 1
            continue
        if ch in "\r\n":
            add("NL", None, col, 1)
            i += 2 if text.startswith("\r\n", i) else 1
            line += 1
            col = 1
            continue
        if ch == "#":
            if i + 1 < n and text[i + 1].isdigit():
                end = text.find("#", i + 1)
                raw = text[i + 1:end] if end != -1 else ""
                try:
                    value = _dt.date.fromisoformat(raw) if len(raw) == 10 else None
                except ValueError:
                    value = None
                if end == -1 or value is None:
                    raise CxlError("E202", f"invalid date literal #{raw}#", line, col)
                add("DATE", value, col, end - i + 1)
                col += end - i + 1
                i = end + 1
                continue
            while i < n and text[i] not in "\r\n":
                i += 1
            continue
        if ch.isascii() and ch.isdigit():
            start = i
            while i < n and text[i].isascii() and text[i].isdigit():
                i += 1
            if i + 1 < n and text[i] == "." and text[i + 1].isascii() and text[i + 1].isdigit():
                i += 1
                while i < n and text[i].isascii() and text[i].isdigit():
                    i += 1
                add("FLOAT", float(text[start:i]), col, i - start)
            else:
                value = int(text[start:i])
                if value > 2**63 - 1:
                    raise CxlError("E202", f"integer literal {text[start:i]} does not fit in "
                                   "64 bits", line, col)
                add("INT", value, col, i - start)
            col += i - start
            continue
        if ch.isascii() and (ch.isalpha() or ch == "_"):
            start = i
            while i < n and text[i].isascii() and (text[i].isalnum() or text[i] == "_"):
                i += 1
            word = text[start:i]
            add("KW" if word in KEYWORDS else "IDENT", word, col, i - start)
            col += i - start
            continue
        if ch in "\"'":
            start_col = col
            quote = ch
            i += 1
            col += 1
            buf: list[str] = []
            while True:
                if i >= n or text[i] in "\r\n":
                    raise CxlError("E202", "unterminated string literal", line, start_col)
                c = text[i]
                if c == quote:
                    i += 1
                    col += 1
                    break
                if c == "\\" and i + 1 < n and text[i + 1] in _ESCAPES:
                    buf.append(_ESCAPES[text[i + 1]])
                    i += 2
                    col += 2
                    continue
                buf.append(c)
                i += 1
                col += 1
            add("STRING", "".join(buf), start_col, col - start_col)
            continue
        for p in PUNCT:
            if text.startswith(p, i):
                add("PUNCT", p, col, len(p))
                i += len(p)
                col += len(p)
                break
        else:
            if ch in "!&?" or text.startswith("||", i):
                hint = {"!": "write `not`", "&": "write `and`", "?": "write `??`"}.get(ch, "")
                raise CxlError("E202", f"unexpected character '{ch}'", line, col, hint=hint)
            raise CxlError("E202", f"unexpected character {ch!r}", line, col)
    tokens.append(Token("EOF", None, line, col))
    return tokens
