"""Clinker's nested map key grammar (clinker-record `NestedKey`): a key that starts with
a backslash escapes a reserved-looking literal key (`\\@id` is the key `@id`), and only
`\\@...`, `\\#text` and `\\\\...` are canonical escapes."""

from __future__ import annotations

ESCAPE_TAIL = "; only `\\@...`, `\\#text`, and `\\\\...` are valid escaped forms"


def debug_str(text: str) -> str:
    """Rust's `{:?}` of a string (quotes, escaped backslashes and quotes)."""
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") \
        .replace("\t", "\\t").replace("\r", "\\r") + '"'


def decode(key: str) -> str | None:
    """The logical key a spelling stands for; None when its escape is not canonical."""
    if not key.startswith("\\"):
        return key
    rest = key[1:]
    if rest.startswith("@") or rest == "#text" or rest.startswith("\\"):
        return rest
    return None


def non_canonical(key: str) -> str:
    """Clinker's message for a key whose escape is not canonical."""
    return f"non-canonical nested key escape in {debug_str(key)}{ESCAPE_TAIL}"
