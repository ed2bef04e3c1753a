"""Bridge between a node's input relation and the CXL lowerer: which names and
system variables a program can read, and CXL errors mapped into the YAML file."""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from clinker_sql import sqlbuild as S
from clinker_sql.codegen import run_identity
from clinker_sql.codegen.context import Context
from clinker_sql.codegen.plan import SOURCE_FILE, SOURCE_NAME, SOURCE_ROW, Relation
from clinker_sql.config import model as m
from clinker_sql.cxl import types as T
from clinker_sql.cxl.errors import CxlError
from clinker_sql.cxl.lower import Scope
from clinker_sql.diagnostics import Diagnostic, DiagnosticError

R = TypeVar("R")

_VAR_TYPES = {"string": T.STRING, "int": T.INT, "float": T.FLOAT, "bool": T.BOOL,
              "date": T.DATE, "datetime": T.DATETIME}


def scope_for(ctx: Context, relation: Relation, context: str = "transform") -> Scope:
    columns = {name: (S.col(name), t) for name, t in relation.columns}
    system = {
        ("pipeline", "name"): (S.string(ctx.pipeline.name), T.STRING),
        ("source", "name"): (S.col(SOURCE_NAME), T.STRING),
        ("source", "file"): (S.col(SOURCE_FILE), T.STRING),
        ("source", "path"): (S.col(SOURCE_FILE), T.STRING),
        ("source", "row"): (S.col(SOURCE_ROW), T.INT),
    }
    system.update(run_identity.system_scope())  # bound at run start: run_identity.py
    for var in ctx.pipeline.vars:
        system[("vars", var.name)] = (_var_literal(var), _VAR_TYPES[var.type])
    return Scope(columns=columns, system=system, context=context)


def _var_literal(var: m.VarDecl):
    v = var.default
    if v is None:
        return S.cast(S.null(), T.spark_type_sql(_VAR_TYPES[var.type]))
    if var.type == "int":
        return S.bigint(int(v))
    if var.type == "float":
        return S.double(float(v))
    if var.type == "bool":
        return S.boolean(bool(v))
    if var.type == "date":
        return S.cast(S.string(str(v)), "DATE")
    if var.type == "datetime":
        return S.cast(S.string(str(v)), "TIMESTAMP_NTZ")
    return S.string(str(v))


def compile_cxl(source: m.CxlSource, compile_fn: Callable[[], R]) -> R:
    """Run a CXL compile step; a CxlError becomes a diagnostic located in the YAML."""
    try:
        return compile_fn()
    except CxlError as exc:
        loc = source.location(exc.line, exc.col)
        raise DiagnosticError([Diagnostic(exc.code, exc.message, loc, exc.hint,
                                          length=exc.length)]) from None
