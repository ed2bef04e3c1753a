"""A sink's `split:` block and its file names, as Clinker's SplitConfig and SplitNaming
read and render them (crates/clinker-plan/src/config/sink.rs): `naming` holds `{stem}`,
`{ext}` and exactly one `{seq:NN}` (a width from 1 to 20); a file is named next to the
sink's path, its stem and extension taken from that path ("output" and "dat" when it
has none)."""

from __future__ import annotations

from pathlib import PurePosixPath

from clinker_sql.config import model as m
from clinker_sql.config.fields import Fields
from clinker_sql.config.yamlnodes import YNode
from clinker_sql.diagnostics import Location, fail

# the parsed naming: ("lit", text) | ("stem",) | ("ext",) | ("seq", width)
Segment = tuple


def parse_naming(text: str, loc: Location | None = None) -> list[Segment]:
    """Clinker's SplitNaming::parse; a mistake is E000 with its message."""
    def bad(msg: str):
        return fail("E000", f"split naming {text!r}: {msg}", loc,
                    "write it as `{stem}_{seq:04}.{ext}`")

    segments: list[Segment] = []
    rest, sequences = text, 0
    while True:
        at = [i for i in (rest.find("{"), rest.find("}")) if i >= 0]
        if not at:
            break
        open_ = min(at)
        if rest[:open_]:
            segments.append(("lit", rest[:open_]))
        if rest[open_] == "}":
            raise bad("split naming contains an unmatched `}`")
        after = rest[open_ + 1:]
        close = after.find("}")
        if close < 0:
            raise bad("split naming contains an unclosed `{`")
        token = after[:close]
        if "{" in token:
            raise bad("split naming contains nested braces")
        if token == "stem":
            segments.append(("stem",))
        elif token == "ext":
            segments.append(("ext",))
        else:
            if not token.startswith("seq:"):
                raise bad(f"split naming contains unknown token `{{{token}}}`")
            width = token[len("seq:"):]
            if not width or not all("0" <= ch <= "9" for ch in width):
                raise bad("split sequence token must use `{seq:NN}` with a numeric width")
            if not 1 <= int(width) <= 20:
                raise bad("split sequence width must be between 1 and 20")
            sequences += 1
            segments.append(("seq", int(width)))
        rest = after[close + 1:]
    if rest:
        segments.append(("lit", rest))
    if sequences != 1:
        raise bad("split naming must contain exactly one `{seq:NN}` token")
    return segments


def render(naming: str, base_path: str, seq: int) -> str:
    """The path of split file `seq` (from 1) of a sink writing `base_path`."""
    parent, _, name = base_path.rpartition("/")
    dot = name.rfind(".")
    stem = (name[:dot] if dot > 0 else name) or "output"  # Rust's file_stem / extension
    ext = name[dot + 1:] if dot > 0 else "dat"
    out = []
    for seg in parse_naming(naming):
        if seg[0] == "lit":
            out.append(seg[1])
        elif seg[0] == "stem":
            out.append(stem)
        elif seg[0] == "ext":
            out.append(ext)
        else:
            out.append(str(seq).rjust(seg[1], "0"))
    filename = "".join(out)
    return f"{parent}/{filename}" if parent else filename


def parse_split(node: YNode, what: str) -> m.SinkSplit:
    """The `split:` block of a sink."""
    f = Fields(node, f"split of {what}")
    counts = {}
    for key in ("max_records", "max_bytes"):
        n = f.int(key)
        if n is not None and n < 0:
            raise fail("E000", f"split.{key} must be a count (0 or more)", f.key_loc(key))
        counts[key] = n
    naming = f.str("naming", default="{stem}_{seq:04}.{ext}")
    parse_naming(naming, f.key_loc("naming"))
    split = m.SinkSplit(max_records=counts["max_records"], max_bytes=counts["max_bytes"],
                        group_key=f.str("group_key"), naming=naming,
                        repeat_header=f.bool("repeat_header", True),
                        oversize_group=f.choice("oversize_group", ("warn", "error", "allow"),
                                                "warn"))
    f.done()
    return split


def unique_suffixed(path: str, n: int, width: int) -> str:
    """Clinker's append_suffix_before_ext: `-N` (zero-padded to `width`) before the
    extension."""
    p = PurePosixPath(path)
    name = p.name
    dot = name.rfind(".")
    suffix = f"-{str(n).rjust(width, '0')}"
    new = f"{name[:dot]}{suffix}{name[dot:]}" if dot > 0 else f"{name}{suffix}"
    return str(p.with_name(new))
