"""Aggregate functions in an aggregate node's emits (spec §7).

An emit such as `(sum(a) - sum(b)) / count(*)` is split in two levels: each
aggregate call becomes a *binding* whose argument is evaluated per input row
(in the row scope: input fields and lets) and whose result is a column of the
grouped view; the residual expression around the calls is evaluated per group.
Identical calls are computed once.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from sqlglot import exp

from clinker_sql import sqlbuild as S
from clinker_sql.cxl import ast as a
from clinker_sql.cxl import types as T
from clinker_sql.cxl.lower import Fault, Lowerer, Scope, Val, error
from clinker_sql.cxl.types import CxlType

REVERSIBLE = frozenset({"sum", "count", "collect", "any"})
BUFFER_REQUIRED = frozenset({"min", "max", "avg", "weighted_avg"})
ORDER = "$source.order"
ROW = "$source.row"


@dataclass
class Binding:
    function: str
    args: list[Val]  # per-row argument values (input scope)
    arg_columns: list[str]  # names of the argument columns in the pre-aggregation view
    column: str  # name of the aggregated column in the grouped view
    type: CxlType
    star: bool = False

    @property
    def klass(self) -> str:
        return "Reversible" if self.function in REVERSIBLE else "BufferRequired"


@dataclass
class AggregateCollector:
    row_scope: Scope
    bindings: list[Binding] = field(default_factory=list)
    row_faults: list[Fault] = field(default_factory=list)
    _keys: dict[str, Binding] = field(default_factory=dict)

    def call(self, e: a.Call) -> Val:
        key = f"{e.name}({'*' if e.star else ','.join(repr(x) for x in e.args)})"
        if key in self._keys:
            b = self._keys[key]
            return Val(S.col(b.column), b.type)
        row = Lowerer(self.row_scope)
        for arg in e.args:
            _no_nested(arg)
        args = [row.lower(x) for x in e.args]
        for v in args:
            self.row_faults.extend(v.faults)
        result = _result_type(e, args)
        i = len(self.bindings)
        b = Binding(e.name, [Val(v.sql, v.type) for v in args],
                    [f"$arg.{i}.{j}" for j in range(len(args))], f"$agg.{i}", result, e.star)
        self.bindings.append(b)
        self._keys[key] = b
        return Val(S.col(b.column), b.type)


def _no_nested(node: a.Expr) -> None:
    if isinstance(node, a.Call):
        raise error("E200", "aggregate functions cannot be nested", node)
    for value in vars(node).values():
        children = value if isinstance(value, tuple) else (value,)
        for child in children:
            if isinstance(child, a.Expr):
                _no_nested(child)


def _result_type(e: a.Call, args: list[Val]) -> CxlType:
    name = e.name
    want = {"count": (0, 1), "weighted_avg": (2, 2)}.get(name, (1, 1))
    n = 0 if e.star else len(args)
    if not want[0] <= n <= want[1] or (e.star and name != "count"):
        raise error("E200", f"{name}() takes {want[0] if want[0] == want[1] else '0 or 1'} "
                    f"argument(s)", e)
    if name == "count":
        return T.INT
    kinds = [v.type.kind for v in args]
    if name in ("sum", "avg", "weighted_avg"):
        for k in kinds:
            if k not in ("int", "float", "decimal", "null", "any"):
                raise error("E200", f"{name}() needs numeric values, found {k}", e)
        if name == "weighted_avg" and {"float", "decimal"} <= set(kinds):
            raise error("E200", "weighted_avg() mixes decimal and float", e)
        if "decimal" in kinds:
            return args[kinds.index("decimal")].type if name == "sum" else T.decimal(38, 18)
        if name == "sum":
            return T.FLOAT if "float" in kinds else T.INT
        return T.FLOAT
    if name in ("min", "max"):
        return args[0].type
    if name == "collect":
        return T.array_of(args[0].type)
    raise error("E203", f"unknown aggregate function {name}()", e)


def aggregate_expression(b: Binding, fan: bool = False) -> exp.Expression:
    """The Spark aggregate over the pre-aggregation view's argument columns. `fan`: the
    input rows carry `$fan` (an emit each upstream), part of their arrival order."""
    cols = [S.col(c) for c in b.arg_columns]
    if b.function == "count":
        return exp.Count(this=exp.Star() if b.star or not cols else cols[0])
    if b.function == "sum":
        x, kind = cols[0], b.args[0].type.kind
        if kind == "int":  # i128 accumulation like Clinker; overflow is checked at finalize
            return exp.Sum(this=S.cast(x, "DECIMAL(38, 0)"))
        if kind == "float":
            return exp.Sum(this=S.cast(x, "DOUBLE"))
        return exp.Sum(this=x)
    if b.function == "avg":
        x = cols[0]
        if b.args[0].type.kind == "decimal":
            # Clinker divides the decimal sum by the count at full precision; Spark's AVG
            # keeps only 4 more places than the input (1.333333 for 4.00 / 3), short of the
            # DECIMAL(38, 18) this binding is typed as
            return S.fn("try_divide", S.cast(exp.Sum(this=x), "DECIMAL(38, 18)"),
                        exp.Count(this=x))
        return exp.Avg(this=S.cast(x, "DOUBLE"))
    if b.function in ("min", "max"):
        node = exp.Min if b.function == "min" else exp.Max
        return node(this=cols[0])
    if b.function == "collect":
        entry = S.fn("named_struct", S.string("o"), S.col(ORDER), S.string("r"), S.col(ROW),
                     *([S.string("f"), S.col("$fan")] if fan else []), S.string("v"), cols[0])
        ordered = S.fn("array_sort", S.fn("collect_list", entry))
        lam = exp.Lambda(this=exp.Dot(this=S.col("e"), expression=S.ident("v")),
                         expressions=[S.ident("e")])
        return S.fn("transform", ordered, lam)
    if b.function == "weighted_avg":
        v, w = cols
        both = S.and_(S.not_null(v), S.not_null(w))
        vt = "DOUBLE" if b.type.kind == "float" else "DECIMAL(38, 18)"
        num = exp.Sum(this=S.case([(both, exp.Mul(this=S.cast(v, vt), expression=S.cast(w, vt)))]))
        den = exp.Sum(this=S.case([(both, S.cast(w, vt))]))
        return S.case([(S.eq(den, S.small_int(0)), S.null())], S.fn("try_divide", num, den))
    raise AssertionError(b.function)


def finalize(b: Binding, aggregated: exp.Expression) -> tuple[exp.Expression, Fault | None]:
    """Value of a binding in the grouped view, and its finalize fault (sum overflow)."""
    if b.function == "sum" and b.args[0].type.kind == "int":
        value = S.try_cast(aggregated, "BIGINT")
        overflow = Fault(S.and_(S.not_null(aggregated), S.is_null(value)),
                         S.string("integer overflow in sum"), category="aggregate_finalize")
        return value, overflow
    return aggregated, None
