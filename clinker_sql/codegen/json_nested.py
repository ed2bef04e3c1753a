"""A JSON source's `any` columns that hold arrays (issue 43): read as their JSON text,
exactly as the file spells it, and typed as an array of `json` values
(cxl/json_values.py) that CXL's array builtins, closures and `emit each` work on.

Spark's JSON reader, left to infer the schema, turns an array of objects into an array
of structs: the keys sorted, every scalar a string (`primitivesAsString`), so the text
cannot be rebuilt. A source with such a column is read with its schema declared instead
(the fields the compiler saw in its files, unmapped.json_keys): a field read as STRING
keeps an array or object as its text, in document order with its types; an object the
reader flattens into dotted keys is a STRUCT of them, as the inferred schema gives.
"""

from __future__ import annotations

from sqlglot import exp

from clinker_sql import sqlbuild as S
from clinker_sql.config import model as m
from clinker_sql.cxl import json_values
from clinker_sql.cxl import types as T

JSON_ARRAY = T.array_of(T.JSON)


def dynamic_columns(cfg: m.SourceConfig, keys: dict[str, str] | None) -> frozenset[str]:
    """The declared `any` columns whose every value in the files is an array (or null)."""
    if cfg.format != "json" or keys is None:
        return frozenset()
    return frozenset(c.name for c in cfg.schema if c.type == "any" and not c.multiple
                     and c.layout is None and keys.get(c.source_name or c.name) == "array")


def scan_schema(keys: dict[str, str]) -> str:
    """The scan's declared schema: each top-level field of the records, an object as a
    STRUCT of its fields, everything else STRING (its text)."""
    return ", ".join(S.to_sql(exp.ColumnDef(this=S.ident(name), kind=_type(node)))
                     for name, node in _tree(keys).items())


def record_type(keys: dict[str, str]) -> exp.DataType:
    """A record's STRUCT, as scan_schema declares its fields (the element type of the
    array a record_path names, codegen/json_record_path.py)."""
    return _type(_tree(keys)) if keys else exp.DataType.build("STRING")


def _tree(keys: dict[str, str]) -> dict:
    tree: dict = {}
    for path, kind in keys.items():
        *branches, leaf = path.split(".")
        body = tree
        for b in branches:
            body = body.setdefault(b, {})
        if kind == "object":
            body.setdefault(leaf, {})
        else:
            body[leaf] = None
    return tree


def _type(node: dict | None) -> exp.DataType:
    if not node:  # a leaf, or an object that was always empty: its text
        return exp.DataType.build("STRING")
    return exp.DataType(this=exp.DataType.Type.STRUCT, nested=True, expressions=[
        exp.ColumnDef(this=S.ident(k), kind=_type(v)) for k, v in node.items()])


def raw_text(physical_path: exp.Expression) -> exp.Expression:
    """A field's text in the split view of a source read with its declared schema."""
    return S.cast(physical_path, "STRING")


def typed(text: exp.Expression) -> exp.Expression:
    """A dynamic column's value: its array's elements as JSON texts."""
    return json_values.elements(text)
