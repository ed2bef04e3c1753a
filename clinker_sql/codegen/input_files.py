"""What the compiler finds in a source's files before any scan: files with no record,
bytes that do not decode, files whose schema differs from the first file's.

Clinker's reader takes each file's schema as it opens it (clinker-format csv/reader.rs,
json/reader.rs; clinker-exec source/multi_file.rs):
- a CSV with a header: the header's names; a file with no record at all (0 bytes, or
  blank lines only) fails the run: "schema inference failed: header row is empty" (a
  format error, exit 4) - CS110 here;
- a CSV without a header: `col_0`, `col_1`, ... as many as its first record has fields,
  none when it has no record;
- a JSON file: the fields of its first record, none when it has no record (an empty file
  reads as no records, whatever its `format`).
Every file after the first must have the first's schema, or the run fails at it (E217,
exit 4): so an empty file among files with records fails the run too (for JSON only that
case is checked here: the order Clinker keeps a record's fields in is its JSON library's).
A source whose files all have no record reads as no rows, without error.

Its readers decode strictly: in a UTF-8 source, bytes that are not UTF-8 fail the run (a
format error, exit 4, "input is not valid UTF-8": CS109 here). The compiler tests the
start of each file it reads here; the run tests the rest (codegen/input_bytes.py).

Each finding becomes a check that selects its message: the runner runs it before any
scan, as Clinker fails when it opens the file. The first file in Clinker's reading order
that fails decides.
"""

from __future__ import annotations

import csv
import io
import json
from dataclasses import replace
from pathlib import Path

from sqlglot import exp

from clinker_sql import sqlbuild as S
from clinker_sql.codegen import json_record_path as rp
from clinker_sql.codegen.plan import Statement
from clinker_sql.codegen.run_plan import CheckStep
from clinker_sql.config import model as m
from clinker_sql.config.discovery import NotDecodable, read_head, relative
from clinker_sql.diagnostics import fail

NOT_UTF8 = "CS109"  # bytes that do not decode as UTF-8 in a UTF-8 source
NO_HEADER = "CS110"  # a CSV file with a header has no record at all
MISMATCH = "E217"  # a file's schema differs from the first file's

HEAD_MAX_BYTES = 1 << 20  # the compiler reads a CSV file's first record from this much
JSON_MAX_BYTES = 16 * 1024 * 1024  # and tests a JSON file's bytes up to this size


def utf8(cfg: m.SourceConfig) -> bool:
    """Whether the source's bytes are read as UTF-8: JSON always, a CSV unless it
    declares `encoding: iso-8859-1` (Parquet holds no text of its own)."""
    if cfg.format == "json":
        return True
    return cfg.format == "csv" and cfg.csv.encoding in ("utf-8", "utf8")


def not_utf8_message(source: str) -> tuple[str, str]:
    """Clinker's message for undecodable bytes, split around the file's name."""
    return (f'source "{source}": file "',
            '": input is not valid UTF-8. Declare the source\'s character set (e.g. '
            '`encoding: iso-8859-1`) if the input uses a non-UTF-8 repertoire')


def first_row(path: Path, o: m.CsvOptions) -> list[str] | None:
    """The first record of a CSV file (blank lines skipped, as Clinker's and Spark's
    readers skip them; a leading byte-order mark dropped); [] when it has none; None when
    it cannot be read here (not a regular file, or no line ends within HEAD_MAX_BYTES).
    Raises NotDecodable when the bytes read are not in the source's encoding."""
    data = read_head(path, HEAD_MAX_BYTES + 1)  # a regular file's start, or None
    if data is not None and len(data) > HEAD_MAX_BYTES:
        data = data[:data.rfind(b"\n") + 1] or None  # whole lines; none: not a header
    if data is None:
        return None
    encoding = "utf-8-sig" if o.encoding in ("utf-8", "utf8") else "latin-1"
    try:
        text = data.decode(encoding)
    except UnicodeDecodeError:
        raise NotDecodable(str(path)) from None
    try:
        reader = csv.reader(io.StringIO(text, newline=""), delimiter=o.delimiter,
                            quotechar=o.quote_char)
        return next((row for row in reader if row), [])
    except csv.Error:
        return None


def _json_schema(path: Path) -> list[str] | None:
    """The fields of a JSON file's first record (dotted for nested objects), [] when it
    has none; None when it is not read here (over JSON_MAX_BYTES, or not records of
    objects). Raises NotDecodable when its bytes are not UTF-8."""
    data = read_head(path, JSON_MAX_BYTES + 1)
    if data is None or len(data) > JSON_MAX_BYTES:
        return None
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise NotDecodable(str(path)) from None
    if not text.strip(" \t\r\n"):
        return []
    try:
        if text.lstrip(" \t\r\n").startswith("["):
            records = json.loads(text)
            first = records[0] if isinstance(records, list) and records else None
        else:
            line = next(ln for ln in text.splitlines() if ln.strip())
            first = json.loads(line)
    except (ValueError, StopIteration):
        return None
    if first is None:
        return []
    return _leaves(first, "") if isinstance(first, dict) else None


def _leaves(record: dict, prefix: str) -> list[str]:
    out: list[str] = []
    for key, value in record.items():
        if isinstance(value, dict) and value:
            out += _leaves(value, f"{prefix}{key}.")
        else:
            out.append(prefix + key)
    return out


def schema_of(path: Path, cfg: m.SourceConfig) -> list[str] | None:
    """The schema Clinker's reader gives the file (see the module's text); None when the
    compiler cannot tell. Raises NotDecodable, and json_record_path.Fault when a JSON
    file has no array at its record_path."""
    if cfg.format == "json":
        keys = rp.steps(cfg)
        if keys is None:
            return _json_schema(path)
        try:  # the first element of the array at record_path (rp.Fault: none there)
            records = rp.navigate(path, keys)
        except rp.NotRead:
            return None
        if not records:
            return []
        return _leaves(records[0], "") if isinstance(records[0], dict) else None
    if cfg.format != "csv":
        return None
    row = first_row(path, cfg.csv)
    if row is None or cfg.csv.has_header:
        return row
    return [f"col_{i}" for i in range(len(row))]


def all_empty(cfg: m.SourceConfig, files: list[Path] | None) -> bool:
    """Whether every file of the source has no record (and there is one): it reads as no
    rows (a CSV with a header fails instead: `files_check`)."""
    if not files or cfg.format not in ("csv", "json"):
        return False
    for path in files:
        try:
            if schema_of(path, cfg) != []:
                return False
        except (NotDecodable, rp.Fault):
            return False
    return True


def files_check(ctx, node: m.SourceNode, files: list[Path] | None, base: Path) -> None:
    """The check for the first of the source's `files` (in Clinker's reading order) that
    fails as Clinker opens it: bytes that do not decode (CS109), a CSV with a header and
    no record (CS110), a schema other than the first file's (E217), a JSON file with no
    array at its record_path or `format: object` without one (CS115)."""
    cfg = node.config
    if not files or cfg.format not in ("csv", "json"):
        return
    first: list[str] | None = None
    absolute = any(Path(p).is_absolute() for p in cfg.paths)  # named as the matcher is
    for i, path in enumerate(files):
        name = str(path) if absolute else relative(path, base)
        if rp.object_alone(cfg):  # every file: `format: object` without record_path
            _check(ctx, node, "record_path", rp.FAULT, rp.message(
                node.name, name, rp.OBJECT_ALONE), f"source {node.name}: format: object "
                "without record_path, which Clinker's reader refuses")
            return
        try:
            schema = schema_of(path, cfg)
        except rp.Fault as fault:
            _check(ctx, node, "record_path", rp.FAULT, rp.message(node.name, name, str(fault)),
                   f"source {node.name}: {path.name} has no array at record_path "
                   f"{cfg.json.record_path}")
            return
        except NotDecodable:
            if not utf8(cfg):
                return
            before, after = not_utf8_message(node.name)
            _check(ctx, node, "not_utf8", NOT_UTF8, before + name + after,
                   f"source {node.name}: {path.name} holds bytes that are not UTF-8")
            return
        if schema is None:  # not read here: the scan tells
            return
        if schema == [] and cfg.format == "csv" and cfg.csv.has_header:
            _check(ctx, node, "empty", NO_HEADER,
                   f'source "{node.name}": file "{name}": schema inference failed: header '
                   "row is empty", f"source {node.name}: {path.name} has no header row")
            return
        if i == 0:
            first = schema
        elif schema != first and (cfg.format == "csv" or [] in (schema, first)):
            _check(ctx, node, "headers", MISMATCH,
                   f'source "{node.name}": multi-file source: schema mismatch at file '
                   f'"{name}": expected columns {first}, got {schema}',
                   f"source {node.name}: the schema of {path.name} differs from that of "
                   f"{files[0].name}, its first file")
            return


def _check(ctx, node: m.SourceNode, suffix: str, code: str, detail: str,
           header: str) -> None:
    check = exp.select(exp.alias_(S.string(detail), "detail"))
    ctx.add(Statement("check", node.name, f"{node.name}.{suffix}", S.to_sql(check),
                      header=header, step=CheckStep(code=code)))


def json_layout(node: m.SourceNode, files: list[Path] | None) -> m.SourceConfig:
    """A JSON source without `format:` read as its files are laid out: Clinker's reader
    looks at each file's first byte that is not whitespace (after a BOM), `[` an array of
    records and `{` one record per line (NDJSON; json/reader.rs `init`). Spark reads one or
    the other for a whole scan (multiLine reads an NDJSON file's first record only), so the
    compiler decides from the files it reads; files of both layouts are refused. Unchanged
    when it reads none."""
    cfg = node.config
    if cfg.format != "json" or cfg.json.format is not None or cfg.json.record_path or not files:
        return cfg
    firsts = {}
    for path in files:
        head = read_head(path, 1 << 16) or b""
        text = head.removeprefix(b"\xef\xbb\xbf").lstrip(b" \t\r\n")
        if text[:1] in (b"[", b"{"):
            firsts.setdefault(text[:1], path)
    if len(firsts) > 1:
        raise fail("CS001", f"source '{node.name}': its files are JSON of both layouts "
                   f"({firsts[b'['].name} an array, {firsts[b'{'].name} one record per line), "
                   "which one Spark scan cannot read", node.loc,
                   "split them into two sources joined by a merge")
    if not firsts:
        return cfg
    layout = "array" if b"[" in firsts else "ndjson"
    return replace(cfg, json=replace(cfg.json, format=layout))
