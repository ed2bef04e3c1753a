"""CXL syntax tree. Every node records its position in the CXL text."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field, fields
from typing import Any


@dataclass(frozen=True)
class Pos:
    line: int
    col: int


@dataclass(frozen=True)
class Expr:
    pos: Pos


@dataclass(frozen=True)
class Literal(Expr):
    value: Any
    kind: str  # int float string bool null date


@dataclass(frozen=True)
class Now(Expr):
    pass


@dataclass(frozen=True)
class Name(Expr):
    name: str


@dataclass(frozen=True)
class Qualified(Expr):
    parts: tuple[str, ...]


@dataclass(frozen=True)
class SysVar(Expr):
    namespace: str  # vars pipeline source record window config doc
    path: tuple[str, ...]


@dataclass(frozen=True)
class Unary(Expr):
    op: str  # '-' | 'not'
    operand: Expr


@dataclass(frozen=True)
class Binary(Expr):
    op: str  # + - * / % == != < > <= >= and or ??
    left: Expr
    right: Expr


@dataclass(frozen=True)
class If(Expr):
    cond: Expr
    then: Expr
    otherwise: Expr | None


@dataclass(frozen=True)
class MatchArm:
    pattern: Expr | None  # None = wildcard `_`
    result: Expr


@dataclass(frozen=True)
class Match(Expr):
    subject: Expr | None  # None = condition match
    arms: tuple[MatchArm, ...]


@dataclass(frozen=True)
class MethodCall(Expr):
    receiver: Expr
    method: str
    args: tuple[Expr, ...]


@dataclass(frozen=True)
class Call(Expr):
    """A bare function call: aggregate functions (sum, count, ...)."""

    name: str
    args: tuple[Expr, ...]
    star: bool = False


@dataclass(frozen=True)
class Field(Expr):
    """`expr.field` on a non-name receiver, e.g. `$window.lag(1).amount`."""

    target: Expr
    name: str


@dataclass(frozen=True)
class Index(Expr):
    target: Expr
    index: Expr


@dataclass(frozen=True)
class Lambda(Expr):
    param: str
    body: Expr


@dataclass(frozen=True)
class ArrayLit(Expr):
    items: tuple[Expr, ...]


@dataclass(frozen=True)
class MapLit(Expr):
    entries: tuple[tuple[Expr, Expr], ...]


@dataclass(frozen=True)
class Comprehension(Expr):
    item: Expr
    binding: str
    source: Expr
    predicate: Expr | None


# ---- statements -------------------------------------------------------------


@dataclass(frozen=True)
class Stmt:
    pos: Pos


@dataclass(frozen=True)
class Let(Stmt):
    name: str
    value: Expr


@dataclass(frozen=True)
class Emit(Stmt):
    name: str
    value: Expr
    scope: str | None = None  # None for a column; 'record'/'pipeline'/'source' for scoped vars


@dataclass(frozen=True)
class Filter(Stmt):
    cond: Expr


@dataclass(frozen=True)
class Distinct(Stmt):
    by: str | None


@dataclass(frozen=True)
class EmitEach(Stmt):
    binding: str
    source: Expr
    outer: bool
    body: tuple[Stmt, ...]


@dataclass(frozen=True)
class Trace(Stmt):
    level: str
    guard: Expr | None
    message: Expr


@dataclass(frozen=True)
class Use(Stmt):
    path: tuple[str, ...]
    alias: str | None


@dataclass(frozen=True)
class FnDecl(Stmt):
    """A module's `fn name(params) = body`: one pure expression."""

    name: str
    params: tuple[str, ...]
    body: Expr


@dataclass(frozen=True)
class ExprStmt(Stmt):
    expr: Expr


@dataclass(frozen=True)
class Program:
    statements: tuple[Stmt, ...] = field(default_factory=tuple)


@dataclass(frozen=True)
class ModuleFile:
    """A `.cxl` module file: its imports first, then constants and functions."""

    uses: tuple[Use, ...]
    constants: tuple[Let, ...]
    functions: tuple[FnDecl, ...]


def walk(node: object) -> Iterator[object]:
    """Every expression, statement, match arm and program in `node`, itself first."""
    if isinstance(node, (Expr, Stmt, MatchArm, Program)):
        yield node
        for f in fields(node):
            yield from walk(getattr(node, f.name))
    elif isinstance(node, tuple):
        for item in node:
            yield from walk(item)
