"""`$window.*` builtins on a transform with an `analytic_window` (spec §8).

Aggregates cover the whole partition (only `cumulative_sum` is running);
`first/last/lag/lead` return a record whose field is read with `.field`. The
partition is the rows with equal `group_by` values in arrival order, stably
sorted by `sort_by` (nulls last in both directions). A row whose partition key
is null belongs to no partition: any `$window` call on it is a type mismatch.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from sqlglot import exp

from clinker_sql import sqlbuild as S
from clinker_sql.cxl import ast as a
from clinker_sql.cxl import types as T
from clinker_sql.cxl.lower import Fault, Lowerer, Val, error

AGGREGATES = ("sum", "avg", "min", "max", "first_value", "last_value", "collect", "distinct",
              "cumulative_sum")
POSITIONAL = ("lag", "lead", "first", "last")
RANKS = ("row_number", "rank", "dense_rank")
PREDICATES = ("any", "exists", "every", "not_exists")


@dataclass
class WindowContext:
    partition: list[str]
    sort: list[tuple[str, str]]  # (field, asc|desc)
    arrival: list[str]  # hidden columns giving arrival order
    used: bool = False
    _faults: list[Fault] = field(default_factory=list)

    def _spec(self, ordered: bool, frame: str | None, arrival: bool = True) -> dict:
        spec: dict = {"partition_by": [S.col(c) for c in self.partition]}
        if ordered:
            order = [exp.Ordered(this=S.col(f), desc=(o == "desc"), nulls_first=False)
                     for f, o in self.sort]
            if arrival:
                order += [exp.Ordered(this=S.col(c), nulls_first=False) for c in self.arrival]
            spec["order"] = exp.Order(expressions=order)
        if frame == "all":
            spec["spec"] = exp.WindowSpec(kind="ROWS", start="UNBOUNDED", start_side="PRECEDING",
                                          end="UNBOUNDED", end_side="FOLLOWING")
        elif frame == "running":
            spec["spec"] = exp.WindowSpec(kind="ROWS", start="UNBOUNDED", start_side="PRECEDING",
                                          end="CURRENT ROW")
        return spec

    def over(self, fn: exp.Expression, ordered: bool = False, frame: str | None = None,
             arrival: bool = True) -> exp.Expression:
        return exp.Window(this=fn, **self._spec(ordered, frame, arrival))

    def no_partition(self) -> exp.Expression:
        return S.or_(*[S.is_null(S.col(c)) for c in self.partition]) if self.partition \
            else S.boolean(False)

    def call(self, lw: Lowerer, e: a.MethodCall, field_name: str | None) -> Val:
        self.used = True
        v = self._value(lw, e, field_name)
        orphan = self.no_partition()
        fault = Fault(S.is_true(orphan), S.string(
            "type mismatch: expected a window partition, got a null partition key"))
        value = S.case([(S.is_true(orphan), S.cast(S.null(), T.spark_type_sql(v.type)))], v.sql)
        return Val(value, v.type, v.faults + (fault,))

    def _field(self, lw: Lowerer, node: a.Expr, fn: str) -> Val | None:
        """Aggregate-style arguments must be a bare field; anything else gives null."""
        if isinstance(node, a.Name) and node.name in lw.scope.columns:
            sql, t = lw.scope.columns[node.name]
            return Val(sql, t)
        return None

    def _value(self, lw: Lowerer, e: a.MethodCall, field_name: str | None) -> Val:
        name = e.method
        if name in POSITIONAL:
            return self._positional(lw, e, field_name)
        if field_name is not None:
            raise error("E200", f"$window.{name}() does not return a record", e)
        if name == "count":
            return Val(S.cast(self.over(exp.Count(this=exp.Star())), "BIGINT"), T.INT)
        if name in RANKS:
            fn = {"row_number": exp.RowNumber(), "rank": exp.Anonymous(this="rank"),
                  "dense_rank": exp.Anonymous(this="dense_rank")}[name]
            if name != "row_number" and not self.sort:
                return Val(S.bigint(1), T.INT)
            # rank / dense_rank: rows with equal sort keys are peers (window_context.rs
            # sort_keys_equal), so arrival order must not break their ties
            return Val(S.cast(self.over(fn, ordered=True, arrival=name == "row_number"),
                              "BIGINT"), T.INT)
        if name in AGGREGATES:
            if len(e.args) != 1:
                raise error("E200", f"$window.{name}() takes one field", e)
            arg = self._field(lw, e.args[0], name)
            if arg is None:
                return Val(S.cast(S.null(), "DOUBLE"), T.FLOAT)
            return self._aggregate(name, arg)
        if name in PREDICATES:
            if len(e.args) != 1:
                raise error("E200", f"$window.{name}() takes one predicate", e)
            return self._predicate(name, lw.lower(e.args[0]))
        raise error("E203", f"unknown window function $window.{name}()", e)

    def _aggregate(self, name: str, arg: Val) -> Val:
        x, t = arg.sql, arg.type
        if name in ("sum", "cumulative_sum"):
            if not t.numeric:
                return Val(S.cast(S.null(), "DOUBLE"), T.FLOAT)
            result = t if t.kind == "decimal" else T.FLOAT
            target = T.spark_type_sql(result)
            frame = "running" if name == "cumulative_sum" else None
            return Val(S.cast(self.over(exp.Sum(this=S.cast(x, target)),
                                        ordered=frame is not None, frame=frame), target), result)
        if name == "avg":
            return Val(self.over(exp.Avg(this=S.cast(x, "DOUBLE"))), T.FLOAT)
        if name in ("min", "max"):
            node = exp.Min if name == "min" else exp.Max
            return Val(self.over(node(this=x)), t)
        if name in ("first_value", "last_value"):
            fn = exp.FirstValue(this=x) if name == "first_value" else exp.LastValue(this=x)
            return Val(self.over(fn, ordered=True, frame="all"), t)
        collected = self.over(S.fn("collect_list", x), ordered=True, frame="all")
        if name == "distinct":
            collected = S.fn("array_distinct", collected)
        return Val(collected, T.array_of(t))

    def _positional(self, lw: Lowerer, e: a.MethodCall, field_name: str | None) -> Val:
        if field_name is None:
            return Val(S.cast(S.null(), "STRING"), T.NULL)  # a bare record gives null
        if field_name not in lw.scope.columns:
            raise error("E203", f"window record has no field '{field_name}'", e)
        x, t = lw.scope.columns[field_name]
        if e.method in ("first", "last"):
            fn = exp.FirstValue(this=x) if e.method == "first" else exp.LastValue(this=x)
            return Val(self.over(fn, ordered=True, frame="all"), t)
        n = 1
        if e.args:
            arg = e.args[0]
            if isinstance(arg, a.Literal) and arg.kind == "int":
                n = max(arg.value, 0)
            elif isinstance(arg, a.Unary) and arg.op == "-" and isinstance(arg.operand, a.Literal):
                n = 0
            elif not (isinstance(arg, a.Literal)):
                raise error("CS001", f"$window.{e.method}() needs a literal offset", e)
        node = S.fn("lag" if e.method == "lag" else "lead", x, S.small_int(n))
        return Val(self.over(node, ordered=True), t)

    def _predicate(self, name: str, p: Val) -> Val:
        hit = exp.Max(this=S.case([(S.is_true(p.sql), S.small_int(1))]))
        miss = exp.Max(this=S.case([(S.is_true(S.not_(p.sql)), S.small_int(1))]))
        unknown = exp.Max(this=S.case([(S.is_null(p.sql), S.small_int(1))]))
        any_true = S.eq(self.over(hit), S.small_int(1))
        any_false = S.eq(self.over(miss), S.small_int(1))
        any_null = S.eq(self.over(unknown), S.small_int(1))
        if name in ("any", "exists"):
            value = S.case([(S.is_true(any_true), S.boolean(True)),
                            (S.is_true(any_null), S.cast(S.null(), "BOOLEAN"))], S.boolean(False))
        else:
            value = S.case([(S.is_true(any_false), S.boolean(False)),
                            (S.is_true(any_null), S.cast(S.null(), "BOOLEAN"))], S.boolean(True))
        if name == "not_exists":
            value = S.not_(S.case([(S.is_true(any_true), S.boolean(True)),
                                   (S.is_true(any_null), S.cast(S.null(), "BOOLEAN"))],
                                  S.boolean(False)))
        return Val(value, T.BOOL, p.faults)
