"""YAML with positions: every value remembers the line and column it came from.

The text is read as YAML 1.2, as Clinker reads it: `on`, `yes`, `no` and `off` are
strings, `0o17` is octal and `017` decimal, and nothing is a timestamp. The parser's
events are assembled here, without recursion, into small located wrappers so that the
strict model builder can point each diagnostic at the exact spot, and so that a file
nested too deep (CS060) or an alias bomb (CS061) is refused before it costs anything.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from typing import Any

from ruamel.yaml import YAML
from ruamel.yaml import events as ev
from ruamel.yaml.error import MarkedYAMLError, YAMLError
from ruamel.yaml.scanner import Scanner

from clinker_sql.diagnostics import Location, fail

# Clinker's YAML budget (its yaml.rs): 256 levels of nesting, 100,000 nodes. Nodes are
# counted here with every alias expanded, as the model builder sees them.
MAX_DEPTH = 256
MAX_NODES = 100_000


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


def load_yaml(text: str, file: str) -> YNode:
    builder = _Builder(file)
    parser = YAML(typ="safe", pure=True)
    parser.Scanner = _Scanner
    parser.located_file = file  # type: ignore[attr-defined]  # read by _Scanner
    try:
        for event in parser.parse(text):
            builder.feed(event)
    except MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        loc = _loc(file, mark) if mark else None
        raise fail("E000", f"malformed YAML: {exc.problem or exc.context}", loc) from None
    except YAMLError as exc:
        raise fail("E000", f"malformed YAML: {str(exc).splitlines()[0]}") from None
    except AssertionError as exc:  # ruamel asserts on a %YAML directive other than 1.1/1.2
        raise fail("E000", f"malformed YAML: {exc}", Location(file, 1, 1),
                   "drop the %YAML directive: pipelines are read as YAML 1.2") from None
    if builder.root is None:
        raise fail("E000", "the YAML file is empty", Location(file, 1, 1))
    return builder.root


def _loc(file: str, mark: Any) -> Location:
    return Location(file, mark.line + 1, mark.column + 1)


def _too_deep(loc: Location) -> Exception:
    return fail("CS060", f"the YAML nests deeper than {MAX_DEPTH} levels (the limit is "
                f"{MAX_DEPTH})", loc, "flatten the structure")


class _Scanner(Scanner):
    """The scanner reads a flow collection (`[[[...`) to its end before the parser sees
    its first event, in time quadratic in its depth: refuse one nested past the limit
    as soon as the scanner opens it."""

    def fetch_flow_collection_start(self, token_class: Any, to_push: str) -> None:
        if self.flow_level >= MAX_DEPTH:
            file = getattr(self.loader, "located_file", "")
            raise _too_deep(_loc(file, self.reader.get_mark()))
        super().fetch_flow_collection_start(token_class, to_push)


# YAML 1.2's core schema (spec 10.3.2): how a plain scalar resolves
_NULL = re.compile(r"null|Null|NULL|~|")
_BOOL = {"true": True, "True": True, "TRUE": True, "false": False, "False": False,
         "FALSE": False}
_INT = re.compile(r"[-+]?[0-9]+")
_OCT = re.compile(r"0o[0-7]+")
_HEX = re.compile(r"0x[0-9a-fA-F]+")
_FLOAT = re.compile(r"[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?")
_INF = re.compile(r"[-+]?\.(inf|Inf|INF)")
_NAN = re.compile(r"\.(nan|NaN|NAN)")
_SURROGATE = re.compile("[\ud800-\udfff]")
_TAG = "tag:yaml.org,2002:"


def _plain(value: str) -> Any:
    if _NULL.fullmatch(value):
        return None
    if value in _BOOL:
        return _BOOL[value]
    if _INT.fullmatch(value):
        return int(value)
    if _OCT.fullmatch(value):
        return int(value[2:], 8)
    if _HEX.fullmatch(value):
        return int(value[2:], 16)
    if _FLOAT.fullmatch(value):
        return float(value)
    if _INF.fullmatch(value):
        return -math.inf if value.startswith("-") else math.inf
    if _NAN.fullmatch(value):
        return math.nan
    return value


def _tagged(tag: str, value: str, loc: Location) -> Any:
    """A scalar with an explicit core-schema tag (`!!str 42`); any other tag is refused."""
    kind = tag[len(_TAG):] if tag.startswith(_TAG) else None
    if kind == "str" or tag == "!":
        return value
    resolved = _plain(value)
    wanted = {"null": type(None), "bool": bool, "int": int, "float": (int, float)}.get(kind or "")
    if wanted is None:
        raise fail("E000", f"unsupported YAML tag {tag!r}", loc,
                   "write the value without a tag")
    if not isinstance(resolved, wanted) or (kind == "int" and isinstance(resolved, bool)):
        raise fail("E000", f"{value!r} is not a valid !!{kind}", loc,
                   "remove the tag, or write a value of its type")
    return float(resolved) if kind == "float" else resolved


@dataclass
class _Open:
    """A collection being read: the node, its pending key (maps), its anchor, and the
    number of nodes below it, aliases expanded."""

    node: YSeq | YMap
    anchor: str | None
    size: int = 1
    key: YScalar | None = None


class _Builder:
    """Assembles parser events into located nodes with an explicit stack."""

    def __init__(self, file: str):
        self.file = file
        self.stack: list[_Open] = []
        self.anchors: dict[str, tuple[YNode, int, str | None]] = {}  # node, size, text
        self.open_anchors: set[str] = set()
        self.nodes = 0
        self.root: YNode | None = None
        self.documents = 0

    def feed(self, event: ev.Event) -> None:
        loc = _loc(self.file, event.start_mark)
        if isinstance(event, ev.DocumentStartEvent):
            self.documents += 1
            if self.documents > 1:
                raise fail("E000", "the YAML file holds more than one document",
                           loc, "remove the `---` line")
        elif isinstance(event, ev.ScalarEvent):
            self._scalar(event, loc)
        elif isinstance(event, ev.AliasEvent):
            self._alias(event, loc)
        elif isinstance(event, (ev.SequenceStartEvent, ev.MappingStartEvent)):
            self._open(event, loc)
        elif isinstance(event, (ev.SequenceEndEvent, ev.MappingEndEvent)):
            done = self.stack.pop()
            if done.anchor is not None:
                self.open_anchors.discard(done.anchor)
                self.anchors[done.anchor] = (done.node, done.size, None)
            self._add(done.node, done.size)

    def _count(self, size: int, loc: Location) -> None:
        self.nodes += size
        if self.nodes > MAX_NODES:
            raise fail("CS061", f"the YAML holds more than {MAX_NODES} nodes once its "
                       f"aliases are expanded (the limit is {MAX_NODES} nodes)", loc,
                       "an alias repeats the whole node it names: write the values out, "
                       "or split the pipeline")

    def _scalar(self, event: ev.ScalarEvent, loc: Location) -> None:
        value: Any = event.value
        bad = _SURROGATE.search(value)
        if bad is not None:
            raise fail("E000", f"the YAML value holds U+{ord(bad.group()):04X}, a lone "
                       "surrogate, which is not a character", loc,
                       "write the character itself, or its \\U escape")
        if event.tag is not None:
            value = _tagged(event.tag, value, loc)
        elif event.implicit[0]:  # plain: resolved by the core schema
            value = _plain(value)
        style = event.style if event.style in ("|", ">", '"', "'") else None
        node = YScalar(loc, value, style, event.start_mark.line)
        self._count(1, loc)
        if event.anchor is not None:
            self.anchors[event.anchor] = (node, 1, event.value)
        self._add(node, 1, event.value)

    def _alias(self, event: ev.AliasEvent, loc: Location) -> None:
        name = event.anchor
        if name in self.open_anchors:
            raise fail("E000", f"alias *{name} refers to a node that contains it", loc,
                       "an alias may only repeat a node that is complete before it")
        if name not in self.anchors:
            raise fail("E000", f"alias *{name} has no anchor &{name} before it", loc,
                       f"mark the node to repeat with &{name} before this alias")
        node, size, text = self.anchors[name]
        self._count(size, loc)
        self._add(node, size, text)

    def _open(self, event: ev.CollectionStartEvent, loc: Location) -> None:
        if event.tag is not None and event.tag not in (_TAG + "seq", _TAG + "map", "!"):
            raise fail("E000", f"unsupported YAML tag {event.tag!r}", loc,
                       "write the value without a tag")
        if len(self.stack) >= MAX_DEPTH:
            raise _too_deep(loc)
        self._count(1, loc)
        node: YSeq | YMap = (YSeq(loc) if isinstance(event, ev.SequenceStartEvent)
                             else YMap(loc))
        if event.anchor is not None:
            self.open_anchors.add(event.anchor)
        self.stack.append(_Open(node, event.anchor))

    def _add(self, node: YNode, size: int, text: str | None = None) -> None:
        """Attach a finished node to the collection being read (or make it the root);
        `text`: a scalar's text as written, its name when it is a mapping key."""
        if not self.stack:
            self.root = node
            return
        top = self.stack[-1]
        top.size += size
        if isinstance(top.node, YSeq):
            top.node.items.append(node)
            return
        if top.key is None:
            top.key = _key(node, text)
            return
        key, top.key = top.key, None
        name = key.value
        if name == "<<":
            raise fail("E000", "YAML merge keys (<<) are not supported", key.loc)
        if name in top.node.entries:
            raise fail("E000", f"duplicate key '{name}'", key.loc, length=len(name))
        top.node.entries[name] = (key, node)


def _key(node: YNode, text: str | None) -> YScalar:
    """A mapping key: a scalar other than null, named by its text as written (`on:` is
    the key 'on', `1:` the key '1')."""
    if not isinstance(node, YScalar) or node.value is None or text is None:
        raise fail("E000", "mapping keys must be plain scalars", node.loc)
    return YScalar(node.loc, text, node.style, node.raw_line)


def plain(node: YNode) -> Any:
    """The value a located node stands for: dicts, lists and scalars (for files read
    without positions, such as the run profiles)."""
    if isinstance(node, YMap):
        return {name: plain(value) for name, (_, value) in node.entries.items()}
    if isinstance(node, YSeq):
        return [plain(item) for item in node.items]
    return node.value if isinstance(node, YScalar) else None
