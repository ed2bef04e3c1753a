"""A source's undeclared columns: Clinker's `on_unmapped: auto_widen` (the default).

Clinker keeps a record's fields that its schema does not declare in `$widened`, a map that
CXL and the DLQ do not see, and a sink with `include_unmapped` (the default) writes its
keys after the record's own columns (spec §2.1, §2.7). Here `$widened` is a
MAP<STRING, STRING> column of the rows, built at the source from the undeclared names: a
CSV source's from the header of its first file (the compiler reads it when it can), a JSON
source's from the fields of its records (read up to JSON_READ_MAX_BYTES; objects flattened
into dotted fields as Clinker's reader does, an array as its JSON text). A source without undeclared columns, or whose files it
cannot read (a cluster path), has no such column. What it found is written in the
compiled source's header.
"""

from __future__ import annotations

import json
from pathlib import Path

from sqlglot import exp

from clinker_sql import sqlbuild as S
from clinker_sql.codegen import input_files, json_record_path
from clinker_sql.codegen.plan import WIDENED, Statement
from clinker_sql.codegen.run_plan import CheckStep
from clinker_sql.config import model as m
from clinker_sql.config.discovery import read_head

RAW = "$unmapped."  # the split view's raw text of an undeclared column, by its index


def declared(cfg: m.SourceConfig) -> set[str]:
    """The names the schema reads from the files."""
    return {c.source_name or c.name for c in cfg.schema}


def header(cfg: m.SourceConfig, files: list[Path] | None) -> list[str] | None:
    """The header of the first of the source's `files` (in Clinker's reading order,
    source.py `_read_order`); None when the source is not a CSV with a header or
    when no file was listed or can be read."""
    if not files or cfg.format != "csv" or not cfg.csv.has_header:
        return None
    return _header(files[0], cfg.csv)


JSON_READ_MAX_BYTES = 16 * 1024 * 1024  # the compiler reads a JSON source's keys up to this


def json_keys(cfg: m.SourceConfig, files: list[Path] | None) -> dict[str, str] | None:
    """The keys of every record of a JSON source's `files` (Spark's reader gives a column
    for each key some record has), a nested object's as dotted paths (`customer.name`),
    each with what its values are: "object" when every value that is not null is one
    (Clinker's reader flattens it into its dotted keys), "array" when every one is an
    array, else "value" (a null-only key too). None when they are not read (no file, more
    than JSON_READ_MAX_BYTES, or not records of objects)."""
    if not files or cfg.format != "json":
        return None
    if sum(p.stat().st_size for p in files) > JSON_READ_MAX_BYTES:
        return None
    kinds: dict[str, set[str]] = {}
    for path in files:
        records = _json_records(path, cfg)
        if records is None:
            return None
        for record in records:
            _walk(record, "", kinds)
    return {k: next(iter(v)) if len(v) == 1 else "value" for k, v in kinds.items()}


def _walk(record: dict, prefix: str, kinds: dict[str, set[str]]) -> None:
    for key, value in record.items():
        seen = kinds.setdefault(prefix + key, set())
        if value is not None:
            seen.add("object" if isinstance(value, dict) else
                     "array" if isinstance(value, list) else "value")
        if isinstance(value, dict):
            _walk(value, f"{prefix}{key}.", kinds)


def leaves(keys: dict[str, str] | None) -> list[str] | None:
    """A JSON source's fields as Clinker's reader flattens its records: every path whose
    value is not an object, in the order the records show them."""
    return None if keys is None else [k for k, kind in keys.items() if kind != "object"]


def _json_records(path: Path, cfg: m.SourceConfig) -> list[dict] | None:
    keys = json_record_path.steps(cfg)
    if keys is not None:  # the elements of the array at the path (json_record_path.py)
        try:
            data = json_record_path.navigate(path, keys)
        except (json_record_path.Fault, json_record_path.NotRead, input_files.NotDecodable):
            return None
        return data if all(isinstance(r, dict) for r in data) else None
    ndjson = cfg.json.format == "ndjson"
    raw = read_head(path, JSON_READ_MAX_BYTES + 1)  # a regular file's start, or None
    if raw is None or len(raw) > JSON_READ_MAX_BYTES:
        return None
    try:
        text = raw.decode("utf-8")
        if ndjson:
            data = [json.loads(line) for line in text.splitlines() if line.strip()]
        else:
            data = json.loads(text)
    except (OSError, UnicodeDecodeError, ValueError):
        return None
    data = [data] if isinstance(data, dict) else data
    if not isinstance(data, list) or not all(isinstance(r, dict) for r in data):
        return None
    return data


def absent(cfg: m.SourceConfig, names: list[str] | None) -> set[str]:
    """The declared columns the file's names lack (a CSV header, or no record of a JSON
    source has the key, a dotted name a nested one): Clinker reads them as null (its
    reprojection onto the schema, schema_coerce.rs); Spark would not resolve them."""
    if not names:
        return set()
    return {c.name for c in cfg.schema if (c.source_name or c.name) not in names}


def reject_check(ctx, node: m.SourceNode, header: list[str] | None) -> None:
    """`on_unmapped: reject`: a record carrying an undeclared field fails the source, as
    Clinker's reader does on the first one (a format error: exit 4, nothing written). The
    header says so for every record: a check that fails the run before anything runs."""
    cfg = node.config
    if cfg.on_unmapped != "reject" or not header:
        return
    names = declared(cfg)
    extra = [h for h in header if h not in names]
    if not extra:
        return
    detail = (f'source "{node.name}": input record carries undeclared field "{extra[0]}" '
              "(set `on_unmapped: drop` to silently strip, or declare the field)")
    check = exp.select(exp.alias_(S.string(detail), "detail"))
    ctx.add(Statement("check", node.name, f"{node.name}.undeclared", S.to_sql(check),
                      header=f"source {node.name}: on_unmapped: reject, and its header has "
                             f"undeclared columns ({_quoted(extra)})",
                      step=CheckStep(code="CS105")))


def _quoted(names: list[str]) -> str:
    """Names read from a file, for a comment: each as a quoted identifier."""
    return ", ".join(S.to_sql(S.ident(n)) for n in names)


def undeclared(cfg: m.SourceConfig, header: list[str] | None) -> tuple[str, ...]:
    """The header names (or a JSON source's flattened fields) that the schema does not
    declare, in their order, under `on_unmapped: auto_widen`."""
    if not header or cfg.on_unmapped != "auto_widen":
        return ()
    names = declared(cfg)
    # an empty or repeated name is renamed by Spark's reader: not carried
    return tuple(h for h in header if h and h not in names and header.count(h) == 1)


def raw_value(cfg: m.SourceConfig, name: str, keys: dict[str, str] | None) -> exp.Expression:
    """An undeclared column's text: a CSV cell, or a JSON field (a dotted path read from
    its nested object; an array as its JSON text)."""
    if cfg.format != "json":
        return S.col(name)
    value = path(name)
    if (keys or {}).get(name) == "array":
        return S.fn("to_json", value)
    return S.cast(value, "STRING")


def path(name: str) -> exp.Expression:
    """A JSON column by its dotted path: `customer`.`name` reads the nested field."""
    parts = name.split(".")
    return exp.Dot.build([S.col(parts[0])] + [S.ident(p) for p in parts[1:]]) \
        if len(parts) > 1 else S.col(name)


def _header(path: Path, o: m.CsvOptions) -> list[str] | None:
    """The first record of a CSV file (input_files.py, `first_row`): its header; [] when
    it has none (an empty file); None when it is not read here or does not decode (the
    file checks say so, input_files.py)."""
    try:
        return input_files.first_row(path, o)
    except input_files.NotDecodable:
        return None


def raw_name(i: int) -> str:
    return f"{RAW}{i}"


def widened_map(keys: tuple[str, ...], cells: bool = True) -> exp.Expression:
    """The row's `$widened` from the split view's raw values: with `cells` (a CSV), an
    empty cell is '', as a declared string column reads it; a JSON null or absent key
    stays null (a JSON sink leaves it out)."""
    pairs: list[exp.Expression] = []
    for i, key in enumerate(keys):
        raw = S.col(raw_name(i))
        pairs += [S.string(key), S.fn("coalesce", raw, S.string("")) if cells else raw]
    return S.cast(S.fn("map", *pairs), "MAP<STRING, STRING>")


def expanded(key: str) -> exp.Expression:
    """A sink's column for the undeclared column `key`: null on rows that lack it (a
    merge of sources with other undeclared columns)."""
    return S.fn("try_element_at", S.col(WIDENED), S.string(key))


def union(keys: list[tuple[str, ...]]) -> tuple[str, ...]:
    """The keys of several relations' `$widened`, in first-seen order."""
    out: list[str] = []
    for ks in keys:
        out += [k for k in ks if k not in out]
    return tuple(out)
