"""A JSON source's `options.record_path` (issue 43): the records are the elements of the
array found at that dot path in each file's document.

Clinker's reader (clinker-format json/reader.rs `init`, json/body_stream.rs `at_path`)
descends the top-level object key by key and streams the array at the end of the path;
`record_path` wins over `format:`. A file where that fails stops the run as the reader is
built for it (a format error, exit 4; CS115 here), with one of its messages:
- the document (or a value on the way) is not an object: "record_path: expected an object
  at segment 'rows' (depth 1), found '[' (0x5b)";
- a key is absent: "record_path: key 'rows' not found in object";
- the file is empty: "record_path: unexpected end of input seeking segment 'data'";
- the value at the path is not an array (an object, a null, a scalar): "expected '[' to
  start JSON array body, found '{' (0x7b)".
`format: object` without `record_path` fails the same way for any file: "format: object
requires record_path" (reader.rs `init`).

Here each file is read whole as one document (Spark's `multiLine`), and the array at the
path is turned into its rows with INLINE: one row per element, in the file's order, so
`$source.row` counts them as Clinker does (codegen/numbering.py). The compiler reads the
files it can (the keys of their records, codegen/unmapped.py) and finds the first that
fails, in Clinker's reading order (input_files.files_check); a file it does not read
(a cluster's, or over 16 MiB) and whose path holds no array gives no row.
"""

from __future__ import annotations

import json
from pathlib import Path

from sqlglot import exp

from clinker_sql import sqlbuild as S
from clinker_sql.codegen.plan import Statement
from clinker_sql.codegen.run_plan import CheckStep
from clinker_sql.config import model as m
from clinker_sql.config.discovery import NotDecodable, read_head

FAULT = "CS115"  # a file without an array at record_path, or `format: object` alone
READ_MAX_BYTES = 16 * 1024 * 1024


def steps(cfg: m.SourceConfig) -> list[str] | None:
    """The keys of a JSON source's record_path, None without one."""
    if cfg.format != "json" or not cfg.json.record_path:
        return None
    return cfg.json.record_path.split(".")


def object_alone(cfg: m.SourceConfig) -> bool:
    """`format: object` without record_path: Clinker's reader refuses every file."""
    return cfg.format == "json" and cfg.json.format == "object" and not cfg.json.record_path


OBJECT_ALONE = "JSON error: format: object requires record_path"


def records_expr(path: list[str]) -> exp.Expression:
    """The array at the path, a (nested) field of the document: `data`.`rows`."""
    return exp.Dot.build([S.col(path[0])] + [S.ident(p) for p in path[1:]]) \
        if len(path) > 1 else S.col(path[0])


def scan(document: str, path: list[str]) -> exp.Expression:
    """The records: one row per element of the array at `path` of each document."""
    return exp.select(S.fn("inline", records_expr(path))).from_(S.table(document))


class NotRead(Exception):
    """The file is not read here (too big, not a regular file, not UTF-8, not JSON)."""


def _document(path: Path) -> tuple[bool, object]:
    """(whether the file has any JSON text, its value)."""
    data = read_head(path, READ_MAX_BYTES + 1)
    if data is None or len(data) > READ_MAX_BYTES:
        raise NotRead(str(path))
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise NotDecodable(str(path)) from None
    if not text.strip(" \t\r\n"):
        return False, None
    try:
        # the first of a repeated key, as Clinker's reader finds it
        return True, json.loads(text, object_pairs_hook=_first_wins)
    except ValueError:
        raise NotRead(str(path)) from None


def _first_wins(pairs: list[tuple[str, object]]) -> dict:
    out: dict = {}
    for k, v in pairs:
        out.setdefault(k, v)
    return out


def _first_byte(value: object) -> str:
    """The character a value's JSON text starts with, and its code, as Clinker says it."""
    c = "{" if isinstance(value, dict) else "[" if isinstance(value, list) else \
        json.dumps(value)[0]
    return f"'{c}' (0x{ord(c):02x})"


def navigate(path: Path, keys: list[str]) -> list:
    """The records of the file (the array at `keys`). Raises Fault with Clinker's message
    when the file has none there, NotRead when the compiler does not read it,
    NotDecodable when its bytes are not UTF-8."""
    present, value = _document(path)
    for depth, key in enumerate(keys):
        if not present:
            raise Fault(f"record_path: unexpected end of input seeking segment '{key}'")
        if not isinstance(value, dict):
            raise Fault(f"record_path: expected an object at segment '{key}' (depth "
                        f"{depth}), found {_first_byte(value)}")
        if key not in value:
            raise Fault(f"record_path: key '{key}' not found in object")
        value = value[key]
    if not isinstance(value, list):
        raise Fault(f"expected '[' to start JSON array body, found {_first_byte(value)}")
    return value


class Fault(Exception):
    """A file Clinker's reader refuses at its record_path (the message is Clinker's)."""


def message(source: str, file: str, fault: str) -> str:
    """The run's error for a file its reader refuses as it is opened."""
    if not fault.startswith("JSON error: "):
        fault = f"JSON error: {fault}"
    return f'source "{source}": file "{file}": {fault}'


def document_schema(path: list[str], record: exp.DataType) -> str:
    """The declared schema of the documents when the records' is declared
    (codegen/json_nested.py): the records' STRUCT as the array at the path."""
    kind: exp.DataType = exp.DataType(this=exp.DataType.Type.ARRAY, nested=True,
                                      expressions=[record])
    for key in reversed(path[1:]):
        kind = exp.DataType(this=exp.DataType.Type.STRUCT, nested=True,
                            expressions=[exp.ColumnDef(this=S.ident(key), kind=kind)])
    return S.to_sql(exp.ColumnDef(this=S.ident(path[0]), kind=kind))


def object_alone_check(ctx, node: m.SourceNode) -> None:
    """`format: object` without record_path, when the compiler lists no file (its
    files are a cluster's): the run stops as the first is opened (input_files.files_check
    names it when they are listed)."""
    detail = f'source "{node.name}": {OBJECT_ALONE}'
    check = exp.select(exp.alias_(S.string(detail), "detail"))
    ctx.add(Statement("check", node.name, f"{node.name}.record_path", S.to_sql(check),
                      header=f"source {node.name}: format: object without record_path, "
                             "which Clinker's reader refuses",
                      step=CheckStep(code=FAULT)))


def compile_null_check(ctx, node: m.SourceNode, document: str, path: list[str]) -> None:
    """CS115 for the files the compiler did not read (a cluster's, or over 16 MiB): a
    document whose value at the path is null or absent (Spark reads both as null) stops
    the run, as Clinker's reader refuses it, instead of giving no row. A document that is
    not an object, or a path no file has, fails the scan itself."""
    file = S.fn("regexp_replace", S.fn("input_file_name"), S.string("^file:(//)?"),
                S.string(""))
    detail = S.fn("concat", S.string(f'source "{node.name}": file "'), file, S.string(
        f'": JSON error: record_path {".".join(path)}: no array there (a key is missing, '
        "or the value is null)"))
    check = exp.select(exp.alias_(detail, "detail")).from_(S.table(document)).where(
        S.is_null(records_expr(path))).limit(1)
    ctx.add(Statement("check", node.name, f"{node.name}.no_array", S.to_sql(check),
                      header=f"source {node.name}: a file with no array at record_path "
                             f"{'.'.join(path)} refuses the run",
                      step=CheckStep(code=FAULT)))
