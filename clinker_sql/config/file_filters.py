"""A source's file filters, read as Clinker's config types read them (clinker-plan's
config/source.rs and config/utils.rs): `regex` (E213 when it does not compile),
`exclude` (globs, E212), `min_size` / `max_size` (ByteSize: bytes, or "10KB", "5MB",
"1GB" in powers of 1000; E215), `modified_after` / `modified_before` (TimeBound: "30s",
"5m", "2h", "3d" before now, or an RFC 3339 timestamp; E214) and `files.recursive`.
The files they keep are listed by config/discovery.py."""

from __future__ import annotations

import re
import time
from datetime import datetime

from clinker_sql.config import model as m
from clinker_sql.config.fields import Fields
from clinker_sql.config.yamlnodes import YScalar
from clinker_sql.diagnostics import fail

_UNITS = {"s": 1, "m": 60, "h": 3600, "d": 86400}
_BYTES = (("GB", 1_000_000_000), ("MB", 1_000_000), ("KB", 1_000), ("B", 1))
_U64 = 2 ** 64 - 1


def parse(c: Fields, regex: str | None, recursive: bool | None, what: str) -> m.FileFilters:
    """The filters of a source's config `c` (its keys consumed); `regex` is its matcher
    when it has one, `recursive` its `files.recursive`."""
    if regex is not None:
        try:
            re.compile(regex)
        except re.error as e:
            raise fail("E213", f"{what}: invalid regex {regex!r}: {e}", c.key_loc("regex"))
    exclude, _ = c.str_list("exclude")
    for pattern in exclude:
        if not _glob_ok(pattern):
            raise fail("E212", f"{what}: invalid exclude glob {pattern!r} (a `[` without "
                       "its `]`)", c.key_loc("exclude"))
    now = time.time()
    return m.FileFilters(
        regex=regex, recursive=recursive, exclude=tuple(exclude),
        min_size=_size(c, "min_size", what), max_size=_size(c, "max_size", what),
        modified_after=_time(c, "modified_after", what, now),
        modified_before=_time(c, "modified_before", what, now))


def _glob_ok(pattern: str) -> bool:
    """Whether every `[` opens a class that a `]` closes, as the glob crate requires (a
    `]` right after `[` or `[!` is a member)."""
    i = 0
    while i < len(pattern):
        if pattern[i] == "[":
            j = i + 1
            if j < len(pattern) and pattern[j] == "!":
                j += 1
            if j < len(pattern) and pattern[j] == "]":
                j += 1
            end = pattern.find("]", j)
            if end < 0:
                return False
            i = end
        i += 1
    return True


def _size(c: Fields, key: str, what: str) -> int | None:
    """A ByteSize: a non-negative integer, or a string of digits with a unit suffix."""
    node = c.raw(key)
    if node is None:
        return None
    value = node.value if isinstance(node, YScalar) else None
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= _U64:
        return value
    if isinstance(value, str):
        text = value.strip()
        mult = 1
        for suffix, unit in _BYTES:
            if text.endswith(suffix):
                text, mult = text[:-len(suffix)], unit
                break
        text = text.strip()
        if re.fullmatch(r"\+?[0-9]+", text) and int(text) <= _U64 and \
                int(text) * mult <= _U64:
            return int(text) * mult
    raise fail("E215", f"{what}: {key} must be a byte size as an integer or a string like "
               f"\"1KB\" / \"100MB\", found {value!r}", c.key_loc(key))


def _time(c: Fields, key: str, what: str, now: float) -> float | None:
    """A TimeBound: `<n><s|m|h|d>` before `now`, or an RFC 3339 timestamp."""
    node = c.raw(key)
    if node is None:
        return None
    value = node.value if isinstance(node, YScalar) else None
    if isinstance(value, str):
        found = re.fullmatch(r"\+?([0-9]+)([smhd])", value)
        if found and int(found[1]) * _UNITS[found[2]] <= _U64:
            return max(now - int(found[1]) * _UNITS[found[2]], 0.0)
        if re.fullmatch(r"\d{4}-\d\d-\d\d[Tt ]\d\d:\d\d:\d\d(\.\d+)?([Zz]|[+-]\d\d:\d\d)",
                        value):
            try:
                return datetime.fromisoformat(value.replace("z", "Z").replace("t", "T")
                                              ).timestamp()
            except ValueError:
                pass
    raise fail("E214", f"{what}: {key} must be a duration like \"5m\" / \"2h\" / \"3d\" or "
               f"an RFC 3339 timestamp, found {value!r}", c.key_loc(key))
