"""Type-check CXL expressions and lower them to sqlglot trees (spec §4, §10).

Each expression lowers to a `Val`: the Spark value expression, its CXL type and
the ordered list of `Fault`s it can raise. A fault is a boolean expression that
is true exactly when that operation fails on the row; faults are listed in
evaluation order (operands before operators, left to right) and carry the guard
of the branch they sit in, so only a branch that is actually taken can fail.
Spark runs in ANSI mode, so every value expression here is non-throwing.
"""

from __future__ import annotations

import datetime as _dt
import difflib
from dataclasses import dataclass, field, replace
from typing import Any

from sqlglot import exp

from clinker_sql import sqlbuild as S
from clinker_sql.cxl import ast as a
from clinker_sql.cxl import size
from clinker_sql.cxl import types as T
from clinker_sql.cxl.errors import CxlError
from clinker_sql.cxl.types import CxlType


# Clinker's built-in members that clinker-sql does not translate, with the reason
# (cxl eval/context.rs resolve_pipeline_stable; docs pipelines/variables.md)
_COUNTER = ("a running count of the records the run has met so far, which a SQL "
            "statement over the whole input has no moment for")
_UNSUPPORTED_SYSTEM = {
    **{("pipeline", c): _COUNTER for c in ("total_count", "ok_count", "dlq_count",
                                            "filtered_count", "distinct_count")},
    ("source", "count"): "null on a record read mid-stream and the source's total after it "
                         "ends, a streaming moment a SQL statement does not have",
    ("source", "batch"): "the source's batch is not translated",
    ("source", "ingestion_timestamp"): "the time a record was read is not translated",
}


@dataclass(frozen=True)
class Fault:
    cond: exp.Expression
    message: exp.Expression
    value: exp.Expression | None = None
    category: str = "type_coercion_failure"

    def __post_init__(self) -> None:
        # Callers combine conditions with sqlbuild, which does not
        # parenthesize AND/OR operands: keep a top-level AND/OR grouped.
        if isinstance(self.cond, exp.Connector):
            object.__setattr__(self, "cond", exp.Paren(this=self.cond))

    def guarded(self, guard: exp.Expression | None) -> Fault:
        if guard is None:
            return self
        return replace(self, cond=S.and_(guard, self.cond))


@dataclass(frozen=True)
class Val:
    sql: exp.Expression
    type: CxlType
    faults: tuple[Fault, ...] = ()

    def __post_init__(self) -> None:
        if isinstance(self.sql, exp.Connector):
            object.__setattr__(self, "sql", exp.Paren(this=self.sql))


def guard_all(faults: tuple[Fault, ...], guard: exp.Expression | None) -> tuple[Fault, ...]:
    return tuple(f.guarded(guard) for f in faults)


@dataclass
class Scope:
    """What names mean at one point of a program."""

    columns: dict[str, tuple[exp.Expression, CxlType]]
    lets: dict[str, Val] = field(default_factory=dict)
    system: dict[tuple[str, ...], tuple[exp.Expression, CxlType]] = field(default_factory=dict)
    context: str = "transform"  # transform | route | aggregate | combine
    qualifiers: dict[str, dict[str, tuple[exp.Expression, CxlType]]] = field(default_factory=dict)
    aggregates: Any = None  # cxl.aggregates.AggregateCollector inside an aggregate node's emits
    window: Any = None  # cxl.windows.WindowContext on a transform with an analytic_window

    def child(self) -> Scope:
        return Scope(self.columns, dict(self.lets), self.system, self.context, self.qualifiers,
                     self.aggregates, self.window)


def check_size(sql: exp.Expression, node: a.Expr | a.Stmt, memo: size.Memo,
               what: str = "its SQL") -> None:
    """Refuse an expression whose SQL would print to more than MAX_SQL_NODES nodes."""
    if size.size(sql, memo) > size.MAX_SQL_NODES:
        raise error(size.SIZE_CODE, f"expression too large: {what} would hold more than "
                    f"{size.MAX_SQL_NODES} nodes (the limit); an operator that states its "
                    "operand twice doubles it at every level it is nested, and every `let` "
                    "is written out where it is read", node,
                    "compute part of it in an earlier transform, or nest it less deep")


def error(code: str, message: str, node: a.Expr | a.Stmt, hint: str = "") -> CxlError:
    return CxlError(code, message, node.pos.line, node.pos.col, hint)


class Lowerer:
    def __init__(self, scope: Scope, parent: Lowerer | None = None):
        self.scope = scope
        # Lambda variable names are unique across one lowering (closures nest).
        self._counter: list[int] = parent._counter if parent is not None else [0]
        # node sizes of the SQL built so far (cxl/size.py), shared with nested lowerers
        self.sizes: size.Memo = parent.sizes if parent is not None else {}

    def fresh(self, prefix: str) -> str:
        self._counter[0] += 1
        return f"_cxl_{prefix}{self._counter[0]}"

    def nested(self, bindings: dict[str, Val]) -> Lowerer:
        """A lowerer for a closure or comprehension body with extra names bound."""
        scope = self.scope.child()
        scope.lets.update(bindings)
        return Lowerer(scope, self)

    # ---- entry -----------------------------------------------------------------------------
    def lower(self, e: a.Expr) -> Val:
        method = getattr(self, f"visit_{type(e).__name__}", None)
        if method is None:
            raise error("CS001", f"{type(e).__name__.lower()} expressions are not supported "
                        "yet", e)
        v = method(e)
        check_size(v.sql, e, self.sizes)
        return v

    # ---- primaries -------------------------------------------------------------------------
    def visit_Literal(self, e: a.Literal) -> Val:
        if e.kind == "int":
            return Val(S.bigint(e.value), T.INT)
        if e.kind == "float":
            return Val(S.double(e.value), T.FLOAT)
        if e.kind == "string":
            return Val(S.string(e.value), T.STRING)
        if e.kind == "bool":
            return Val(S.boolean(e.value), T.BOOL)
        if e.kind == "date":
            assert isinstance(e.value, _dt.date)
            return Val(S.cast(S.string(e.value.isoformat()), "DATE"), T.DATE)
        return Val(S.null(), T.NULL)

    def visit_Now(self, e: a.Now) -> Val:
        # localtimestamp() (session tz UTC); sqlglot prints it without parentheses,
        # which Spark reads as a column, so spell it as a cast.
        return Val(S.cast(S.fn("current_timestamp"), "TIMESTAMP_NTZ"), T.DATETIME)

    def visit_Name(self, e: a.Name) -> Val:
        if e.name in self.scope.lets:
            let = self.scope.lets[e.name]
            return Val(let.sql, let.type)
        if e.name in self.scope.columns:
            sql, t = self.scope.columns[e.name]
            return Val(sql, t)
        if e.name == "it":
            raise CxlError("E203", "'it' is only valid inside a closure such as "
                           "`xs.filter(it => ...)`", e.pos.line, e.pos.col, length=2)
        known = list(self.scope.lets) + list(self.scope.columns)
        near = difflib.get_close_matches(e.name, known, n=1)
        raise CxlError("E203", f"unresolved name '{e.name}'", e.pos.line, e.pos.col,
                       f"did you mean '{near[0]}'?" if near else
                       "a name must be a `let` binding or an input field", len(e.name))

    def visit_Qualified(self, e: a.Qualified) -> Val:
        head = e.parts[0]
        if head in self.scope.qualifiers and len(e.parts) == 2:
            fields = self.scope.qualifiers[head]
            if e.parts[1] not in fields:
                raise CxlError("E203", f"input '{head}' has no field '{e.parts[1]}'",
                               e.pos.line, e.pos.col)
            sql, t = fields[e.parts[1]]
            return Val(sql, t)
        if len(e.parts) == 2 and e.parts[1] in self.scope.columns and \
                head not in self.scope.lets:
            # On a plain record Clinker ignores the qualifier and reads the field.
            sql, t = self.scope.columns[e.parts[1]]
            return Val(sql, t)
        raise CxlError("E203", f"unresolved name '{'.'.join(e.parts)}'", e.pos.line, e.pos.col)

    def visit_SysVar(self, e: a.SysVar) -> Val:
        key = (e.namespace,) + e.path
        if key in self.scope.system:
            sql, t = self.scope.system[key]
            return Val(sql, t)
        name = "$" + ".".join(key)
        why = _UNSUPPORTED_SYSTEM.get(key)
        if why is not None:
            raise error("CS001", f"{name} is not supported by clinker-sql: {why}", e)
        if e.namespace in ("vars", "pipeline", "source"):
            raise CxlError("E203", f"unknown system variable {name}", e.pos.line, e.pos.col)
        raise error("CS001", f"{name} is not supported yet", e)

    # ---- operators -------------------------------------------------------------------------
    def visit_Unary(self, e: a.Unary) -> Val:
        v = self.lower(e.operand)
        if e.op == "not":
            if v.type.kind not in ("bool", "any", "null"):
                # Clinker's typecheck accepts it; eval gives null for a non-bool operand
                return Val(S.cast(S.null(), "BOOLEAN"), T.BOOL, v.faults)
            return Val(S.not_(v.sql), T.BOOL, v.faults)
        if v.type.kind == "int":
            from clinker_sql.cxl.registry import share

            overflow = S.eq(v.sql, S.bigint(S.INT64_MIN))
            # the operand is stated twice: a complex one is evaluated once (share), so
            # nesting does not double the SQL at every level
            value = share(self, v.sql, lambda x: S.case(
                [(S.eq(x, S.bigint(S.INT64_MIN)), S.null())], exp.Neg(this=S.paren(x))))
            fault = Fault(S.is_true(overflow),
                          S.string("integer overflow in negation operation"))
            return Val(value, T.INT, v.faults + (fault,))
        if v.type.kind in ("float", "decimal"):
            return Val(exp.Neg(this=S.paren(v.sql)), v.type, v.faults)
        if v.type.kind in ("null", "any"):
            return Val(S.null(), v.type, v.faults)
        raise error("E200", f"unary `-` needs a number, found {v.type}", e)

    def visit_Binary(self, e: a.Binary) -> Val:
        from clinker_sql.cxl import operators

        if e.op in ("and", "or"):
            return operators.logical(self, e)
        if e.op == "??":
            left = self.lower(e.left)
            right = self.lower(e.right)
            t = T.unify(left.type, right.type)
            if t is None:
                # Clinker's typecheck accepts it (the value is either operand's, as is)
                raise error("CS001", f"`??` with operands of types {left.type} and "
                            f"{right.type} cannot be translated: its value would be of either "
                            "type, and a Spark column has one", e)
            faults = left.faults + guard_all(right.faults, S.is_null(left.sql))
            return Val(S.fn("coalesce", coerce(left, t).sql, coerce(right, t).sql), t, faults)
        left, right = self.lower(e.left), self.lower(e.right)
        if e.op in ("==", "!="):
            return operators.equality(e, left, right)
        if e.op in ("<", ">", "<=", ">="):
            return operators.ordering(e, left, right)
        return operators.arithmetic(e, left, right)

    # ---- conditionals ----------------------------------------------------------------------
    def visit_If(self, e: a.If) -> Val:
        cond = self.lower(e.cond)
        if cond.type.kind not in ("bool", "any", "null"):
            raise error("E200", f"`if` condition must be bool, found {cond.type}", e.cond)
        then = self.lower(e.then)
        other = self.lower(e.otherwise) if e.otherwise else Val(S.null(), T.NULL)
        t = T.unify(then.type, other.type)
        if t is None:
            raise error("E200", f"`if` branches have incompatible types {then.type} and "
                        f"{other.type}", e)
        taken = S.is_true(cond.sql)
        faults = (cond.faults + guard_all(then.faults, taken)
                  + guard_all(other.faults, S.not_(taken)))
        value = S.case([(taken, coerce(then, t).sql)], coerce(other, t).sql)
        return Val(value, t, faults)

    def visit_Match(self, e: a.Match) -> Val:
        subject = self.lower(e.subject) if e.subject is not None else None
        if not any(arm.pattern is None for arm in e.arms):
            raise error("E200", "a match needs a wildcard arm `_ => ...`", e)
        faults: list[Fault] = list(subject.faults) if subject else []
        whens: list[tuple[exp.Expression, Val]] = []
        default: Val | None = None
        no_earlier: exp.Expression | None = None
        for arm in e.arms:
            if arm.pattern is None:
                default = self.lower(arm.result)
                faults.extend(guard_all(default.faults, no_earlier))
                break
            pat = self.lower(arm.pattern)
            faults.extend(guard_all(pat.faults, no_earlier))
            if subject is not None:
                cond = S.null_safe_eq(subject.sql, pat.sql)
            else:
                if pat.type.kind not in ("bool", "any", "null"):
                    raise error("E200", f"a match condition must be bool, found {pat.type}",
                                arm.pattern)
                cond = S.is_true(pat.sql)
            result = self.lower(arm.result)
            faults.extend(guard_all(result.faults, S.and_(no_earlier, cond)))
            whens.append((cond, result))
            no_earlier = S.and_(no_earlier, S.not_(cond))
        assert default is not None
        t = default.type
        for _, r in whens:
            u = T.unify(t, r.type)
            if u is None:
                raise error("E200", f"match arms have incompatible types {t} and {r.type}", e)
            t = u
        value = S.case([(c, coerce(r, t).sql) for c, r in whens], coerce(default, t).sql)
        return Val(value, t, tuple(faults))

    # ---- calls -----------------------------------------------------------------------------
    def visit_MethodCall(self, e: a.MethodCall) -> Val:
        from clinker_sql.cxl import builtins

        if isinstance(e.receiver, a.SysVar) and e.receiver.namespace == "window":
            if self.scope.window is None:
                raise error("E200", f"$window.{e.method}() needs an analytic_window on the "
                            "transform", e)
            return self.scope.window.call(self, e, None)
        return builtins.lower_method(self, e)

    def visit_Field(self, e: a.Field) -> Val:
        from clinker_sql.cxl import containers

        target = e.target
        if isinstance(target, a.MethodCall) and isinstance(target.receiver, a.SysVar) and \
                target.receiver.namespace == "window":
            if self.scope.window is None:
                raise error("E200", f"$window.{target.method}() needs an analytic_window on "
                            "the transform", e)
            return self.scope.window.call(self, target, e.name)

        return containers.field(self, e)

    def visit_Index(self, e: a.Index) -> Val:
        from clinker_sql.cxl import containers

        return containers.index(self, e)

    def visit_ArrayLit(self, e: a.ArrayLit) -> Val:
        from clinker_sql.cxl import containers

        return containers.array_literal(self, e)

    def visit_MapLit(self, e: a.MapLit) -> Val:
        from clinker_sql.cxl import containers

        return containers.map_literal(self, e)

    def visit_Comprehension(self, e: a.Comprehension) -> Val:
        from clinker_sql.cxl import containers

        return containers.comprehension(self, e)

    def visit_Lambda(self, e: a.Lambda) -> Val:
        raise error("E200", "a closure `it => ...` is only allowed as the argument of filter, "
                    "map, find, any or flat_map", e)

    def visit_Call(self, e: a.Call) -> Val:
        if self.scope.aggregates is None:
            raise error("E200", f"aggregate function {e.name}() is only valid in an aggregate "
                        "node's emits", e)
        return self.scope.aggregates.call(e)


def coerce(v: Val, t: CxlType) -> Val:
    """Widen a value to a unified type (int -> float/decimal, null -> typed null)."""
    if v.type == t or t.kind in ("any",):
        return v
    if v.type.kind == "null":
        return Val(S.cast(S.null(), T.spark_type_sql(t)), t, v.faults)
    if v.type.kind == "int" and t.kind in ("float", "decimal"):
        return Val(S.cast(v.sql, T.spark_type_sql(t)), t, v.faults)
    if v.type.kind == t.kind and t.kind in ("array", "map"):
        return Val(S.cast(v.sql, T.spark_type_sql(t)), t, v.faults)
    if v.type.kind == t.kind:
        return Val(v.sql, t, v.faults)
    return v


def fault_value(v: exp.Expression) -> exp.Expression:
    """A value rendered as text for `_cxl_dlq_triggering_value`."""
    return S.cast(v, "STRING")
