"""The builtin-method registry and the helpers every builtin family shares.

A `Builtin` mirrors Clinker's `BuiltinDef` (crates/cxl/src/builtins.rs): the
receiver it accepts, the type tag of each argument, the argument count and the
handler that lowers one call. `builtins.lower_method` checks a call against the
entry exactly as Clinker's typecheck does (`receiver_compatible`,
`arg_compatible`) and then runs the handler.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from sqlglot import exp

from clinker_sql import sqlbuild as S
from clinker_sql.cxl import ast as a
from clinker_sql.cxl import types as T
from clinker_sql.cxl.lower import Val, error

if TYPE_CHECKING:
    from clinker_sql.cxl.lower import Lowerer


@dataclass(frozen=True)
class Call:
    node: a.MethodCall
    recv: Val
    args: list[Val]
    lowerer: Lowerer

    def arg(self, i: int) -> exp.Expression:
        return self.args[i].sql

    def kind(self, i: int) -> str:
        return self.args[i].type.kind

    def literal(self, i: int) -> a.Literal | None:
        node = self.node.args[i]
        return node if isinstance(node, a.Literal) else None

    def literal_string(self, i: int, what: str) -> str:
        node = self.node.args[i]
        if not (isinstance(node, a.Literal) and node.kind == "string"):
            raise error("CS001", f"{self.node.method}() needs a string literal {what} to be "
                        "translated to Spark SQL", node)
        return node.value

    def when_recv(self, value: exp.Expression) -> exp.Expression:
        """`value` where the receiver is not null, else NULL (spec §5)."""
        if _never_null(self.recv.sql):
            return value
        return S.case([(S.not_null(self.recv.sql), value)])


Handler = Callable[[Call], Val]


@dataclass(frozen=True)
class Builtin:
    name: str
    receivers: tuple[str, ...]  # CXL type kinds; "*" accepts any receiver
    args: tuple[str, ...]  # type tag per argument; a variadic tail repeats the last one
    min_args: int
    max_args: int | None
    handler: Handler
    closure: bool = False  # the first argument is a closure `it => ...`


METHODS: dict[str, Builtin] = {}

STR, NUM, ANY = ("string",), ("int", "float", "decimal"), ("*",)
DATES = ("date", "datetime")


def method(name: str, receivers: tuple[str, ...], args: tuple[str, ...] = (),
           min_args: int | None = None, max_args: int | None | str = "same",
           closure: bool = False):
    """Register a handler. `min_args` defaults to all of `args`; `max_args=None`
    makes the last argument variadic."""
    lo = len(args) if min_args is None else min_args
    hi = len(args) if max_args == "same" else max_args

    def register(fn: Handler) -> Handler:
        METHODS[name] = Builtin(name, receivers, args, lo, hi,  # type: ignore[arg-type]
                                fn, closure)
        return fn
    return register


def simple(name: str, receivers: tuple[str, ...], spark: str, result: T.CxlType,
           args: tuple[str, ...] = ()) -> None:
    """A builtin that is one Spark function applied to the receiver and arguments."""
    def handler(c: Call) -> Val:
        return Val(S.fn(spark, c.recv.sql, *[v.sql for v in c.args]), result)
    METHODS[name] = Builtin(name, receivers, args, len(args), len(args), handler)


# ---- shared SQL helpers -----------------------------------------------------------------------
def typed_null(t: T.CxlType) -> exp.Expression:
    return S.cast(S.null(), T.spark_type_sql(t))


def lam(body: exp.Expression, *names: str) -> exp.Lambda:
    return exp.Lambda(this=body, expressions=[S.ident(n) for n in names])


def saturating_int(x: exp.Expression, spark: str | None = None) -> exp.Expression:
    """Rust `f64 as i64` of x (DOUBLE), or of spark(x) (ceil/floor): truncate
    toward zero, saturate, NaN -> 0."""
    from clinker_sql.cxl import functions

    return functions.call(f"float_{spark}" if spark else "float_to_int", x)


def int_arg(v: Val) -> exp.Expression:
    """Clinker's `as_i64` on an argument: Int as is, Float truncated, anything else NULL."""
    if v.type.kind == "int":
        return v.sql
    if v.type.kind == "float":
        return saturating_int(v.sql)
    return S.cast(S.null(), "BIGINT")


def to_int32(x: exp.Expression) -> exp.Expression:
    """A non-negative BIGINT clamped into INT range (positions and widths)."""
    return S.cast(S.fn("least", x, S.bigint(2**31 - 1)), "INT")


def lt(x: exp.Expression, y: exp.Expression) -> exp.Expression:
    return exp.LT(this=S.paren(x), expression=S.paren(y))


def gt(x: exp.Expression, y: exp.Expression) -> exp.Expression:
    return exp.GT(this=S.paren(x), expression=S.paren(y))


def _never_null(e: exp.Expression) -> bool:
    if isinstance(e, exp.Literal):
        return True
    if isinstance(e, exp.Cast) and isinstance(e.this, exp.Literal):
        return True
    return False


_AGGREGATE_NAMES = frozenset({"sum", "count", "avg", "min", "max", "collect_list", "count_if",
                              "first_value", "last_value", "any_value", "try_sum", "lag",
                              "lead", "row_number", "rank", "dense_rank", "bool_or"})


def _shareable(e: exp.Expression) -> bool:
    """Whether `e` may be moved inside a lambda (Spark forbids aggregates and
    window functions in higher-order function bodies)."""
    for node in e.walk():
        if isinstance(node, (exp.AggFunc, exp.Window)):
            return False
        if isinstance(node, exp.Anonymous) and str(node.this).lower() in _AGGREGATE_NAMES:
            return False
    return True


def share(lw: Lowerer, x: exp.Expression,
          build: Callable[[exp.Expression], exp.Expression]) -> exp.Expression:
    """build(x) where x may be used several times: a complex x is evaluated once
    through a one-element `transform` instead of being copied.

    The conversions, rounding, ceil and floor are calls of the function library
    (cxl/functions.py), whose arguments Spark evaluates once: they need none of this.
    It stays for what is no function: a negation, an Int's abs, min and max (of either
    type), format_date (a pattern per format literal); a library function would need
    one definition per type, and its DECIMAL parameter would cast the argument."""
    simple_ = isinstance(x, (exp.Column, exp.Literal, exp.Null, exp.Boolean)) or _never_null(x)
    if simple_ or not _shareable(x):
        return build(x)
    name = lw.fresh("s")
    body = build(S.col(name))
    if not _shareable(body):
        return build(x)
    return S.fn("get", S.fn("transform", S.fn("array", x), lam(body, name)), S.small_int(0))
