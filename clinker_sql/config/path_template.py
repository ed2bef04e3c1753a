"""A sink's path template (Clinker's `config/path_template.rs`): `{token}` braces in a
sink's `path:`, `{{` and `}}` for literal braces.

A token is `{name}`, `{name:arg}`, `{name:prefix:suffix}` (the value between prefix and
suffix, or nothing when the value is empty) or `{name:arg:prefix:suffix}`. clinker-sql
renders:

* `source_file` and `source_path`, per record: the stem and the path of the source file a
  record was read from. When the sink's input still carries each record's file (a
  multi-file source, through row-wise nodes only) the sink writes one file per source file
  (config/sink_paths.py, codegen/sink.py, runtime/outputs.py); otherwise, as Clinker, both
  render `<merged>`. One file per source file named by `{source_path}` is refused: Spark
  names a file by its full path, Clinker by the path it discovered.
* `source_name` (`{source_name:NODE}` for one of several sources): the stem of the
  upstream source's `path:` (empty for a glob).
* `channel` (clinker-sql has no channels) and `n` (no `if_exists: unique_suffix`): empty.

`pipeline_hash`, `timestamp`, `execution_id` and `batch_id` name the run, which would
make the compiled SQL differ from run to run: they are refused (CS001).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from clinker_sql.diagnostics import Location, fail

KNOWN = ("source_name", "channel", "pipeline_hash", "timestamp", "execution_id", "batch_id",
         "n", "source_file", "source_path")
PER_RECORD = ("source_file", "source_path")
RUN_IDENTITY = ("pipeline_hash", "timestamp", "execution_id", "batch_id")
MERGED = "<merged>"  # a per-record token where the records no longer carry their file


@dataclass(frozen=True)
class Token:
    name: str
    arg: str | None = None
    conditional: tuple[str, str] | None = None  # (prefix, suffix)

    def render(self, value: str) -> str:
        if self.conditional is None:
            return value
        prefix, suffix = self.conditional
        return f"{prefix}{value}{suffix}" if value else ""


@dataclass(frozen=True)
class PathTemplate:
    text: str
    segments: tuple[str | Token, ...]  # a str is literal text, braces already unescaped

    @property
    def per_record(self) -> bool:
        return any(isinstance(s, Token) and s.name in PER_RECORD for s in self.segments)

    def tokens(self, name: str) -> list[Token]:
        return [s for s in self.segments if isinstance(s, Token) and s.name == name]

    def render(self, values: Mapping[str, str], by_node: Mapping[str, str] | None = None
               ) -> str:
        """The literal path: each token's value from `values` by name, and
        `{source_name:NODE}` from `by_node`."""
        return "".join(_rendered(seg, values, by_node) for seg in self.segments)

    def partial(self, values: Mapping[str, str], by_node: Mapping[str, str] | None = None
                ) -> str:
        """The template text with every token but the per-record ones rendered (literal
        braces escaped again): what the run renders once per source file."""
        return "".join(
            _text(seg) if isinstance(seg, Token) and seg.name in PER_RECORD else
            _rendered(seg, values, by_node).replace("{", "{{").replace("}", "}}")
            for seg in self.segments)


def _rendered(seg: str | Token, values: Mapping[str, str],
              by_node: Mapping[str, str] | None) -> str:
    if isinstance(seg, str):
        return seg
    if seg.name == "source_name" and seg.arg is not None:
        return seg.render((by_node or {})[seg.arg])
    return seg.render(values[seg.name])


def _text(token: Token) -> str:
    parts = [token.name] + ([token.arg] if token.arg is not None else []) + \
        (list(token.conditional) if token.conditional else [])
    return "{" + ":".join(parts) + "}"


def parse(text: str, loc: Location | None) -> PathTemplate:
    """The template of a sink path, with Clinker's checks of it (CS107); the run-identity
    tokens are refused (CS001)."""
    segments: list[str | Token] = []
    buf: list[str] = []
    i = 0
    while i < len(text):
        c = text[i]
        if c == "{" and text.startswith("{{", i):
            buf.append("{")
            i += 2
        elif c == "}" and text.startswith("}}", i):
            buf.append("}")
            i += 2
        elif c == "}":
            raise fail("CS107", f"unmatched `}}` in path template {text!r} (use `}}}}` for a "
                       "literal brace)", loc)
        elif c == "{":
            end = text.find("}", i + 1)
            if end < 0:
                raise fail("CS107", f"unterminated path template token in {text!r}", loc)
            if buf:
                segments.append("".join(buf))
                buf = []
            segments.append(_token(text[i + 1:end], text, loc))
            i = end + 1
        else:
            buf.append(c)
            i += 1
    if buf:
        segments.append("".join(buf))
    return PathTemplate(text, _joined(segments))


def _joined(segments: list[str | Token]) -> tuple[str | Token, ...]:
    out: list[str | Token] = []
    for seg in segments:
        if isinstance(seg, str) and out and isinstance(out[-1], str):
            out[-1] += seg
        else:
            out.append(seg)
    return tuple(out)


def _token(body: str, text: str, loc: Location | None) -> Token:
    parts = body.split(":")
    if len(parts) > 4:
        raise fail("CS107", f"path template token {{{body}}} in {text!r} has too many `:` "
                   "separators (max 3)", loc)
    name = parts[0]
    arg = parts[1] if len(parts) in (2, 4) else None
    conditional = (parts[-2], parts[-1]) if len(parts) >= 3 else None
    if not name:
        raise fail("CS107", f"empty token name in path template {text!r}", loc)
    if name not in KNOWN:
        raise fail("CS107", f"unknown path template token {{{name}}} in {text!r}", loc,
                   f"known: {', '.join(KNOWN)}")
    if arg is not None and name not in ("source_name", "pipeline_hash", "source_file",
                                        "source_path"):
        raise fail("CS107", f"token {{{name}}} does not accept an argument (got `:{arg}`) "
                   f"in {text!r}", loc)
    if name in RUN_IDENTITY:
        raise fail("CS001", f"the path template token {{{name}}} names the run, which "
                   "clinker-sql does not put in a compiled path", loc,
                   "use a fixed path, or {source_file} for one file per source file")
    return Token(name, arg, conditional)
