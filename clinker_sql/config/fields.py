"""Strict field access on located YAML maps: every key read is ticked off, and
whatever is left unread at the end is an unknown field (E000)."""

from __future__ import annotations

import difflib
from typing import Any

from clinker_sql.config.yamlnodes import YMap, YNode, YScalar, YSeq
from clinker_sql.diagnostics import Location, fail

_MISSING = object()


def type_name(node: YNode) -> str:
    if isinstance(node, YMap):
        return "a mapping"
    if isinstance(node, YSeq):
        return "a list"
    value = node.value if isinstance(node, YScalar) else None
    if value is None:
        return "null"
    return {bool: "a boolean", int: "an integer", float: "a number", str: "a string"}.get(
        type(value), type(value).__name__)


class Fields:
    """Reads the keys of one YAML mapping; `done()` rejects the keys nobody read."""

    def __init__(self, node: YNode, what: str):
        if not isinstance(node, YMap):
            raise fail("E000", f"{what} must be a mapping, found {type_name(node)}", node.loc)
        self.node = node
        self.what = what
        self.seen: set[str] = set()

    @property
    def loc(self) -> Location:
        return self.node.loc

    def has(self, key: str) -> bool:
        return key in self.node.entries

    def raw(self, key: str, required: bool = False) -> YNode | None:
        self.seen.add(key)
        value = self.node.get(key)
        if value is None and required:
            raise fail("E000", f"{self.what} is missing the required field '{key}'", self.loc)
        return value

    def key_loc(self, key: str) -> Location:
        return self.node.key_loc(key) if key in self.node.entries else self.loc

    def _scalar(self, key: str, kinds: tuple[type, ...], label: str, required: bool,
                default: Any) -> Any:
        node = self.raw(key, required)
        if node is None:
            return default
        if isinstance(node, YScalar) and node.value is None and not required:
            return default
        if not isinstance(node, YScalar) or not isinstance(node.value, kinds) or (
                bool not in kinds and isinstance(node.value, bool)):
            raise fail("E000", f"'{key}' in {self.what} must be {label}, found {type_name(node)}",
                       node.loc)
        return node.value

    def str(self, key: str, required: bool = False, default: Any = None) -> Any:
        return self._scalar(key, (str,), "a string", required, default)

    def bool(self, key: str, default: bool = False) -> bool:
        return self._scalar(key, (bool,), "true or false", False, default)

    def int(self, key: str, default: Any = None) -> Any:
        return self._scalar(key, (int,), "an integer", False, default)

    def number(self, key: str, default: Any = None) -> Any:
        return self._scalar(key, (int, float), "a number", False, default)

    def choice(self, key: str, choices: tuple[str, ...], default: Any = None,
               required: bool = False) -> Any:
        value = self.str(key, required, default)
        if value is not None and value not in choices:
            node = self.node.get(key)
            raise fail("E000", f"'{key}' in {self.what} must be one of {', '.join(choices)}; "
                       f"found '{value}'", node.loc if node else self.loc)
        return value

    def str_list(self, key: str, allow_single: bool = False) -> tuple[list[str], YNode | None]:
        node = self.raw(key)
        if node is None:
            return [], None
        if allow_single and isinstance(node, YScalar) and isinstance(node.value, str):
            return [node.value], node
        if not isinstance(node, YSeq):
            raise fail("E000", f"'{key}' in {self.what} must be a list of strings", node.loc)
        out = []
        for item in node.items:
            if not isinstance(item, YScalar) or not isinstance(item.value, str):
                raise fail("E000", f"'{key}' in {self.what} must be a list of strings", item.loc)
            out.append(item.value)
        return out, node

    def refuse(self, keys: tuple[str, ...], message: str) -> None:
        """Keys Clinker accepts that clinker-sql does not implement: CS001 at the first one
        present (`message` formats `{key}`), never silently ignored."""
        for key in keys:
            if self.has(key):
                self.raw(key)
                raise fail("CS001", message.format(key=key), self.key_loc(key))

    def done(self, allowed_extra: tuple[str, ...] = ()) -> None:
        for key, (key_node, _) in self.node.entries.items():
            if key in self.seen or key in allowed_extra:
                continue
            known = sorted(self.seen)
            near = difflib.get_close_matches(key, known, n=1)
            hint = f"did you mean '{near[0]}'?" if near else (
                f"known fields: {', '.join(known)}" if known else "")
            raise fail("E000", f"unknown field '{key}' in {self.what}", key_node.loc, hint,
                       length=len(key))
