"""Lower a whole CXL program (a transform body) statement by statement.

Statements run top to bottom; a `filter` that drops the row stops evaluation,
so every fault of a later statement is guarded by the filters before it.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from sqlglot import exp

from clinker_sql.codegen import sql as S
from clinker_sql.cxl import ast as a
from clinker_sql.cxl.errors import CxlError
from clinker_sql.cxl.lower import Fault, Lowerer, Scope, Val, error, guard_all
from clinker_sql.cxl.parser import parse_expression, parse_program


@dataclass(frozen=True)
class FieldFault:
    fault: Fault
    field: str | None  # the emit being computed, if any


@dataclass
class LoweredProgram:
    emits: dict[str, Val] = field(default_factory=dict)  # insertion order = first emit order
    keep: exp.Expression | None = None  # the row survives every filter
    faults: list[FieldFault] = field(default_factory=list)


def lower_program(text: str, scope: Scope) -> LoweredProgram:
    program = parse_program(text)
    out = LoweredProgram()
    scope = scope.child()
    lw = Lowerer(scope)
    for stmt in program.statements:
        guard = out.keep

        def add(faults: tuple[Fault, ...], field_name: str | None = None) -> None:
            out.faults.extend(FieldFault(f, field_name) for f in guard_all(faults, guard))

        if isinstance(stmt, a.Let):
            v = lw.lower(stmt.value)
            add(v.faults)
            scope.lets[stmt.name] = Val(v.sql, v.type)
        elif isinstance(stmt, a.Emit):
            if stmt.scope is not None:
                raise error("CS001", f"emit ${stmt.scope}.{stmt.name} (scoped variables) is not "
                            "supported yet", stmt)
            v = lw.lower(stmt.value)
            add(v.faults, stmt.name)
            out.emits[stmt.name] = Val(v.sql, v.type)
        elif isinstance(stmt, a.Filter):
            v = lw.lower(stmt.cond)
            if v.type.kind not in ("bool", "any", "null"):
                raise error("E200", f"filter needs a bool condition, found {v.type}", stmt)
            add(v.faults)
            out.keep = S.and_(out.keep, S.is_true(v.sql))
        elif isinstance(stmt, a.ExprStmt):
            add(lw.lower(stmt.expr).faults)
        elif isinstance(stmt, a.Trace):
            continue  # logging only
        elif isinstance(stmt, a.Distinct):
            raise error("CS001", "distinct is not supported yet", stmt)
        elif isinstance(stmt, a.EmitEach):
            raise error("CS001", "emit each is not supported yet", stmt)
        elif isinstance(stmt, a.Use):
            raise error("CS001", "modules (use) are not supported yet", stmt)
        else:  # pragma: no cover - parser produces nothing else
            raise CxlError("E202", "unexpected statement", stmt.pos.line, stmt.pos.col)
    return out


def lower_condition(text: str, scope: Scope) -> Val:
    """A single boolean expression (route conditions)."""
    expr = parse_expression(text)
    v = Lowerer(scope).lower(expr)
    if v.type.kind not in ("bool", "any", "null"):
        raise error("E200", f"condition must be bool, found {v.type}", expr)
    return v
