"""YAML with positions: every value remembers the line and column it came from.

PyYAML's composer gives nodes with marks; we turn them into small wrappers so
that the strict model builder can point each diagnostic at the exact spot.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import yaml

from clinker_sql.diagnostics import Location, fail


@dataclass
class YNode:
    loc: Location


@dataclass
class YScalar(YNode):
    value: Any
    style: str | None = None  # '|', '>', '"', "'" or None (plain)
    raw_line: int = 0  # 0-based line of the scalar's first character


@dataclass
class YSeq(YNode):
    items: list[YNode] = field(default_factory=list)


@dataclass
class YMap(YNode):
    entries: dict[str, tuple[YScalar, YNode]] = field(default_factory=dict)

    def get(self, key: str) -> YNode | None:
        entry = self.entries.get(key)
        return entry[1] if entry else None

    def key_loc(self, key: str) -> Location:
        return self.entries[key][0].loc


def _loc(file: str, mark: yaml.Mark) -> Location:
    return Location(file, mark.line + 1, mark.column + 1)


def load_yaml(text: str, file: str) -> YNode:
    try:
        node = yaml.compose(text, Loader=yaml.SafeLoader)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        loc = _loc(file, mark) if mark else None
        raise fail("E000", f"malformed YAML: {exc.problem or exc}", loc) from None
    except yaml.YAMLError as exc:
        raise fail("E000", f"malformed YAML: {exc}") from None
    if node is None:
        raise fail("E000", "the pipeline file is empty", Location(file, 1, 1))
    return _convert(node, file)


_constructor = yaml.SafeLoader("")


def _convert(node: yaml.Node, file: str) -> YNode:
    loc = _loc(file, node.start_mark)
    if isinstance(node, yaml.ScalarNode):
        try:
            value = _constructor.construct_object(node, deep=True)
        except yaml.YAMLError as exc:
            raise fail("E000", f"bad YAML value: {exc}", loc) from None
        return YScalar(loc, value, node.style, node.start_mark.line)
    if isinstance(node, yaml.SequenceNode):
        return YSeq(loc, [_convert(item, file) for item in node.value])
    if isinstance(node, yaml.MappingNode):
        out = YMap(loc)
        for key_node, value_node in node.value:
            key = _convert(key_node, file)
            if not isinstance(key, YScalar) or not isinstance(key.value, (str, int, float, bool)):
                raise fail("E000", "mapping keys must be plain scalars", key.loc)
            name = str(key.value)
            if name == "<<":
                raise fail("E000", "YAML merge keys (<<) are not supported", key.loc)
            if name in out.entries:
                raise fail("E000", f"duplicate key '{name}'", key.loc, length=len(name))
            out.entries[name] = (key, _convert(value_node, file))
        return out
    raise fail("E000", "unsupported YAML node", loc)
