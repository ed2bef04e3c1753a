"""A sink's `split:`: its records, in the sink's order, are written once, each framed
with its group key (`<length>:<key><length>:<text>`, the framing of a fan-out write,
codegen/sink.py `fan_out_line`); the output is cut into its files as it is assembled
(runtime/outputs.py, `assemble_segments`), by Clinker's SplittingWriter rule: before a
record, a file already holding `max_records` records or `max_bytes` bytes is closed
and the next one opened, only where the group key changes when `group_key` is given
(a group larger than the limits stays whole: `oversize_group` warn or allow; error
stops the run, CS112). The rule is sequential (a file's bytes count its own header), so
it is applied where the files are written, not in SQL."""

from __future__ import annotations

from sqlglot import exp

from clinker_sql import sqlbuild as S
from clinker_sql.codegen.run_plan import Segments
from clinker_sql.config import model as m

OVERSIZE = "CS112"  # a key group exceeds the split limits under oversize_group: error


def group_key(cfg: m.SinkConfig, columns: list[str]) -> exp.Expression:
    """The text the files are cut on: the group key's value as JSON (`[null]` for a null,
    which is a group of its own); '' without a group key, or when the records have no
    such field (Clinker reads a missing field as null: one group)."""
    key = cfg.split.group_key
    if key is None or key not in columns:
        return S.string("")
    return S.fn("to_json", exp.Array(expressions=[S.col(key)]))


def framed_line(line: exp.Expression, key: exp.Expression) -> exp.Expression:
    """A record's output text framed with its group key."""
    framed = []
    for part in (key, line):
        framed += [exp.cast(S.fn("length", part.copy()), "STRING"), exp.Literal.string(":"),
                   part]
    return exp.Concat(expressions=framed, safe=False, coalesce=False)


def segments(cfg: m.SinkConfig) -> Segments | None:
    """The write step's `segments` of a split sink."""
    s = cfg.split
    if s is None:
        return None
    return Segments(s.naming, s.max_records, s.max_bytes, s.group_key is not None,
                    s.oversize_group)
