"""Read a pipeline YAML into plain Python values and write values back as block YAML.

The writer is deliberately our own: it must be able to write what a YAML library would
refuse to (a mapping with a duplicate key, a lone-surrogate escape, a raw piece of YAML
such as a deep flow list or an alias), so that the corpus can feed those to the loader.
"""

from __future__ import annotations

import datetime
import json
import re
from dataclasses import dataclass

import yaml


@dataclass(frozen=True)
class Raw:
    """A piece of YAML written as is, in place of a value."""

    text: str


@dataclass(frozen=True)
class Dup:
    """A mapping written from (key, value) pairs, so a key may repeat."""

    pairs: tuple


class _Loader(yaml.SafeLoader):
    """YAML with the core schema's scalars: no timestamps, only true/false as booleans
    (what a YAML 1.2 reader sees), so that a round trip keeps every string a string."""


_Loader.yaml_implicit_resolvers = {
    first: [(tag, rx) for tag, rx in resolvers
            if tag not in ("tag:yaml.org,2002:timestamp", "tag:yaml.org,2002:bool")]
    for first, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
}
_Loader.add_implicit_resolver("tag:yaml.org,2002:bool",
                              re.compile(r"^(?:true|True|TRUE|false|False|FALSE)$"),
                              list("tTfF"))


def load(text: str):
    """Plain dicts, lists and scalars; aliases become independent copies."""
    return json.loads(json.dumps(yaml.load(text, Loader=_Loader), default=_plain))


def _plain(value):
    if isinstance(value, (datetime.date, datetime.datetime)):
        return value.isoformat()
    raise TypeError(type(value).__name__)


_PLAIN = re.compile(r"[A-Za-z_./$][A-Za-z0-9_./$ ()-]*")
_SPECIAL = re.compile(
    r"(?i:y|n|yes|no|on|off|true|false|null|~|\.nan|[-+]?\.inf|"
    r"[-+]?[0-9][0-9_]*(\.[0-9_]*)?([eE][-+]?[0-9]+)?|0x[0-9a-f_]+|0o?[0-7_]+|"
    r"[0-9]{4}-[0-9]{1,2}-[0-9]{1,2}.*)")
_ESCAPES = {"\\": "\\\\", '"': '\\"', "\n": "\\n", "\r": "\\r", "\t": "\\t", "\0": "\\0"}


def quoted(text: str) -> str:
    """A double-quoted YAML scalar: control characters, line and paragraph separators,
    the byte-order mark and surrogates escaped, every other character as itself."""
    out = []
    for ch in text:
        code = ord(ch)
        if ch in _ESCAPES:
            out.append(_ESCAPES[ch])
        elif (code < 0x20 or 0x7F <= code <= 0x9F or code in (0x2028, 0x2029, 0xFEFF)
              or 0xD800 <= code <= 0xDFFF):
            out.append(f"\\u{code:04x}" if code <= 0xFFFF else f"\\U{code:08x}")
        else:
            out.append(ch)
    return '"' + "".join(out) + '"'


def scalar(value) -> str:
    if isinstance(value, Raw):
        return value.text
    if value is None:
        return "null"
    if value is True or value is False:
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if value != value:
            return ".nan"
        if value in (float("inf"), float("-inf")):
            return ".inf" if value > 0 else "-.inf"
        return repr(value)
    text = str(value)
    if _PLAIN.fullmatch(text) and not _SPECIAL.fullmatch(text) and not text.endswith(" ") \
            and ": " not in text and " #" not in text:
        return text
    return quoted(text)


def _literal_ok(text: str) -> bool:
    """A multi-line string that reads back the same from a `|` block."""
    if "\n" not in text or text[:1] in (" ", "\n", "\t") or text.endswith("\n\n"):
        return False
    return all(ch == "\n" or ch == "\t" or (ch.isprintable() and ch != "\ufeff")
               for ch in text) and not any(line.endswith((" ", "\t"))
                                           for line in text.split("\n"))


def _pairs(value):
    return list(value.pairs) if isinstance(value, Dup) else list(value.items())


def _is_map(value) -> bool:
    return isinstance(value, (dict, Dup))


def _lines(value, indent: int) -> list[str]:
    pad = " " * indent
    out: list[str] = []
    if _is_map(value):
        pairs = _pairs(value)
        if not pairs:
            return [pad + "{}"]
        for key, item in pairs:
            out += _entry(pad + scalar(key) + ":", item, indent)
        return out
    if isinstance(value, list):
        if not value:
            return [pad + "[]"]
        for item in value:
            out += _entry(pad + "-", item, indent, in_list=True)
        return out
    return [pad + scalar(value)]


def _entry(head: str, item, indent: int, in_list: bool = False) -> list[str]:
    if _is_map(item) and _pairs(item) or isinstance(item, list) and item:
        if in_list and _is_map(item):  # "- key: value" with the rest below it
            inner = _lines(item, indent + 2)
            return [head + " " + inner[0].lstrip()] + inner[1:]
        return [head] + _lines(item, indent + 2)
    if isinstance(item, str) and _literal_ok(item):
        chomp = "" if item.endswith("\n") else "-"
        body = item[:-1] if item.endswith("\n") else item
        return [f"{head} |{chomp}"] + [(" " * (indent + 2) + line) if line else ""
                                        for line in body.split("\n")]
    return [head + " " + _lines(item, 0)[0]]


def dump(value) -> str:
    return "\n".join(_lines(value, 0)) + "\n"
