"""A group's `match:` selector, evaluated over a channel's labels.

Clinker evaluates the selector as a one-expression CXL predicate whose only names are the
channel's scalar labels (its `selector.rs`). The config layer sits below the CXL compiler,
and selectors only ever compare labels, so the subset used is evaluated here: labels,
string, number and boolean literals, `==`, `!=`, `<`, `<=`, `>`, `>=`, `and`, `or`, `not`
and parentheses. A label the channel does not declare is an error, never a silent false,
as in Clinker; so is a comparison of a string with a number."""

from __future__ import annotations

import re
from typing import Any

from clinker_sql.diagnostics import Location, fail

_TOKEN = re.compile(r"""\s*(?:(?P<num>-?\d+(?:\.\d+)?)|(?P<str>"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*')
                        |(?P<op>==|!=|<=|>=|<|>|\(|\)|!)|(?P<name>[A-Za-z_][A-Za-z0-9_]*))""",
                    re.VERBOSE)


def select(text: str, labels: dict[str, Any], loc: Location, group: str) -> bool:
    tokens = _tokens(text, loc, group)
    parser = _Parser(tokens, labels, loc, group)
    value = parser.expr()
    if parser.pos != len(tokens):
        raise parser.error(f"unexpected '{tokens[parser.pos][1]}'")
    if not isinstance(value, bool):
        raise parser.error("the selector must be a boolean expression")
    return value


def _tokens(text: str, loc: Location, group: str) -> list[tuple[str, Any]]:
    out: list[tuple[str, Any]] = []
    pos = 0
    while pos < len(text):
        if not text[pos:].strip():
            break
        m = _TOKEN.match(text, pos)
        if not m or m.end() == pos:
            raise fail("CS076", f"group '{group}': selector parse error at "
                       f"'{text[pos:].strip()[:20]}'", loc)
        pos = m.end()
        if m.group("num") is not None:
            raw = m.group("num")
            out.append(("lit", float(raw) if "." in raw else int(raw)))
        elif m.group("str") is not None:
            raw = m.group("str")[1:-1]
            out.append(("lit", re.sub(r"\\(.)", r"\1", raw)))
        elif m.group("op") is not None:
            out.append(("op", m.group("op")))
        else:
            word = m.group("name")
            if word in ("true", "false"):
                out.append(("lit", word == "true"))
            elif word in ("and", "or", "not"):
                out.append(("op", word))
            else:
                out.append(("name", word))
    return out


class _Parser:
    def __init__(self, tokens, labels, loc, group):
        self.tokens, self.labels, self.loc, self.group = tokens, labels, loc, group
        self.pos = 0

    def error(self, message: str):
        return fail("CS076", f"group '{self.group}': {message}", self.loc)

    def peek(self, *ops: str) -> bool:
        return self.pos < len(self.tokens) and self.tokens[self.pos] in [("op", o) for o in ops]

    def expr(self) -> Any:
        left = self.conj()
        while self.peek("or"):
            self.pos += 1
            right = self.conj()
            left = self.logic(left, right, "or")
        return left

    def conj(self) -> Any:
        left = self.neg()
        while self.peek("and"):
            self.pos += 1
            right = self.neg()
            left = self.logic(left, right, "and")
        return left

    def logic(self, a: Any, b: Any, op: str) -> bool:
        if not isinstance(a, bool) or not isinstance(b, bool):
            raise self.error(f"`{op}` needs boolean operands")
        return (a or b) if op == "or" else (a and b)

    def neg(self) -> Any:
        if self.peek("not", "!"):
            self.pos += 1
            value = self.neg()
            if not isinstance(value, bool):
                raise self.error("`not` needs a boolean operand")
            return not value
        return self.cmp()

    def cmp(self) -> Any:
        left = self.atom()
        if self.peek("==", "!=", "<", "<=", ">", ">="):
            op = self.tokens[self.pos][1]
            self.pos += 1
            right = self.atom()
            numeric = all(isinstance(v, (int, float)) and not isinstance(v, bool)
                          for v in (left, right))
            if not numeric and type(left) is not type(right):
                raise self.error(f"cannot compare {left!r} with {right!r}")
            if op in ("<", "<=", ">", ">=") and isinstance(left, bool):
                raise self.error(f"`{op}` does not order booleans")
            return {"==": left == right, "!=": left != right, "<": left < right,
                    "<=": left <= right, ">": left > right, ">=": left >= right}[op]
        return left

    def atom(self) -> Any:
        if self.pos >= len(self.tokens):
            raise self.error("the selector ends early")
        kind, value = self.tokens[self.pos]
        self.pos += 1
        if kind == "lit":
            return value
        if kind == "name":
            if value not in self.labels or not isinstance(self.labels[value],
                                                          (str, int, float, bool)):
                raise self.error(f"selector references an unknown label: {value}")
            return self.labels[value]
        if value == "(":
            inner = self.expr()
            if not self.peek(")"):
                raise self.error("missing ')'")
            self.pos += 1
            return inner
        raise self.error(f"unexpected '{value}'")
