"""Small builders over sqlglot expressions. Every identifier and literal that
comes from user text goes through here, so it is always quoted by sqlglot."""

from __future__ import annotations

from functools import lru_cache

import sqlglot
from sqlglot import exp
from sqlglot.dialects.dialect import Dialect

from clinker_sql import type_names

type_names.install()

# The dialect as an instance: sqlglot looks a dialect name up on every call otherwise,
# which was a tenth of the compile time of a long pipeline.
DIALECT = Dialect.get_or_raise("spark")
INT64_MIN = -(2**63)
INT64_MAX = 2**63 - 1


def ident(name: str) -> exp.Identifier:
    return exp.Identifier(this=name, quoted=True)


def col(name: str, table: str | None = None) -> exp.Column:
    return exp.Column(this=ident(name), table=ident(table) if table else None)


def table(name: str) -> exp.Table:
    return exp.Table(this=ident(name))


def string(value: str) -> exp.Literal:
    return exp.Literal.string(value)


def bigint(value: int) -> exp.Expression:
    if value < 0:
        # i64::MIN has no positive counterpart: write it as a cast string
        return exp.Cast(this=string(str(value)), to=exp.DataType.build("BIGINT"))
    return exp.Cast(this=exp.Literal.number(value), to=exp.DataType.build("BIGINT"))


def small_int(value: int) -> exp.Literal:
    """A plain INT literal, for positions, widths and other function arguments."""
    return exp.Literal.number(value)


def double(value: float) -> exp.Expression:
    return exp.Cast(this=string(repr(float(value))), to=exp.DataType.build("DOUBLE"))


def boolean(value: bool) -> exp.Boolean:
    return exp.Boolean(this=value)


def null() -> exp.Null:
    return exp.Null()


@lru_cache(maxsize=512)
def _data_type(type_sql: str) -> exp.DataType:
    """A type parsed once (building a DataType parses its text); callers get copies."""
    return exp.DataType.build(type_sql, dialect=DIALECT)


def data_type(type_sql: str) -> exp.DataType:
    return _data_type(type_sql).copy()


def cast(e: exp.Expression, type_sql: str) -> exp.Cast:
    return exp.Cast(this=e, to=data_type(type_sql))


def try_cast(e: exp.Expression, type_sql: str) -> exp.TryCast:
    return exp.TryCast(this=e, to=data_type(type_sql), safe=True)


def fn(name: str, *args: exp.Expression) -> exp.Expression:
    """A Spark function call by its Spark name."""
    return exp.Anonymous(this=name, expressions=list(args))


def case(whens: list[tuple[exp.Expression, exp.Expression]],
         default: exp.Expression | None = None) -> exp.Expression:
    if not whens:
        return default if default is not None else null()
    # a branch that is never taken (a FALSE condition, or one an earlier branch already
    # tests: conditions are deterministic) is left out; one is kept: it gives the CASE
    # its type
    seen: set[exp.Expression] = set()
    kept = []
    for cond, value in whens:
        if _is_false(cond) or cond in seen:
            continue
        seen.add(cond)
        kept.append((cond, value))
    whens = kept or whens[:1]
    if all(is_null_literal(v) for _, v in whens) and (default is None
                                                      or is_null_literal(default)):
        return whens[0][1]  # NULL whichever branch is taken (the first gives the type)
    # built in one go: `Case.when` copies the whole CASE for every branch it adds, which
    # made a CASE of n faults cost n times its size (the `$err` struct of a long program)
    return exp.Case(ifs=[exp.If(this=cond.copy(), true=value.copy()) for cond, value in whens],
                    default=default.copy() if default is not None else None)


def and_(*conds: exp.Expression | None) -> exp.Expression:
    parts = [c for c in conds if c is not None and not _is_true(c)]
    if not parts:
        return boolean(True)
    return _chain(exp.And, parts)


def or_(*conds: exp.Expression) -> exp.Expression:
    if any(_is_true(c) for c in conds):
        return boolean(True)
    parts = [c for c in conds if not _is_false(c)]
    if not parts:
        return boolean(False)
    return _chain(exp.Or, parts)


def _chain(kind: type[exp.Connector], parts: list[exp.Expression]) -> exp.Expression:
    """`a AND b AND c` as one flat chain: only an operand of another kind is parenthesized
    (nesting each step doubled the statement's indentation with every operand)."""
    if len(parts) == 1:
        return parts[0]
    out = _operand(kind, parts[0])
    for p in parts[1:]:
        out = kind(this=out, expression=_operand(kind, p))
    return out


def _operand(kind: type[exp.Connector], e: exp.Expression) -> exp.Expression:
    """An operand of an AND/OR chain, parenthesized only where it does not bind tighter
    than the chain: a chain of the other kind, a BETWEEN (its own AND), anything unknown."""
    if isinstance(e, kind):
        return e
    if isinstance(e, exp.Predicate) and not isinstance(e, exp.Between):
        return e
    if isinstance(e, exp.Not) and not isinstance(e.this, (exp.Connector, exp.Between)):
        return e
    return _paren(e)


def not_(e: exp.Expression) -> exp.Expression:
    if isinstance(e, exp.Boolean):
        return boolean(not e.this)
    return exp.Not(this=_paren(e))


def is_null(e: exp.Expression) -> exp.Expression:
    return exp.Is(this=_paren(e), expression=exp.Null())


def not_null(e: exp.Expression) -> exp.Expression:
    return exp.Not(this=exp.Is(this=_paren(e), expression=exp.Null()))


def is_true(e: exp.Expression) -> exp.Expression:
    """`e` is exactly true (null and false are not): CXL's truthiness."""
    if isinstance(e, exp.Boolean) or _is_true_test(e):
        return e
    return fn("coalesce", _paren(e), boolean(False))


def null_safe_eq(a: exp.Expression, b: exp.Expression) -> exp.Expression:
    return exp.NullSafeEQ(this=_paren(a), expression=_paren(b))


def eq(a: exp.Expression, b: exp.Expression) -> exp.Expression:
    return exp.EQ(this=_paren(a), expression=_paren(b))


def is_null_literal(e: exp.Expression) -> bool:
    """`NULL` or `CAST(NULL AS t)`: a value known at compile time to be null."""
    return isinstance(e, exp.Null) or (isinstance(e, exp.Cast) and isinstance(e.this, exp.Null))


def _is_true(e: exp.Expression) -> bool:
    return isinstance(e, exp.Boolean) and e.this is True


def _is_false(e: exp.Expression) -> bool:
    return isinstance(e, exp.Boolean) and e.this is False


def _is_true_test(e: exp.Expression) -> bool:
    """`e` is already `coalesce(x, FALSE)` (is_true's shape): never null."""
    return (isinstance(e, exp.Anonymous) and str(e.this).lower() == "coalesce"
            and len(e.expressions) == 2 and _is_false(e.expressions[1]))


def _paren(e: exp.Expression) -> exp.Expression:
    if isinstance(e, exp.Connector):  # AND/OR subclass exp.Func in sqlglot: always wrap
        return exp.Paren(this=e)
    if isinstance(e, (exp.Column, exp.Literal, exp.Boolean, exp.Null, exp.Anonymous, exp.Func,
                      exp.Paren, exp.Cast, exp.TryCast, exp.Identifier, exp.Case, exp.Dot,
                      exp.Bracket)):
        return e
    return exp.Paren(this=e)


paren = _paren


def depth(e: exp.Expression, memo: dict[int, tuple[exp.Expression, int]]) -> int:
    """How deep `e` nests (one level per node), without recursion. `memo` (keyed by node
    id, holding the node so the id stays its own) is shared by the expressions of one
    program: a subtree they share (a `let` read again) is measured once."""
    stack: list[tuple[exp.Expression, bool]] = [(e, False)]
    while stack:
        node, ready = stack.pop()
        if id(node) in memo:
            continue
        kids = [k for v in node.args.values() for k in (v if isinstance(v, list) else (v,))
                if isinstance(k, exp.Expression)]
        if ready:
            memo[id(node)] = (node, 1 + max((memo[id(k)][1] for k in kids), default=0))
        else:
            stack.append((node, True))
            stack.extend((k, False) for k in kids if id(k) not in memo)
    return memo[id(e)][1]


def to_sql(e: exp.Expression) -> str:
    # no defensive copy: a fragment is printed as it is (sqlglot's Spark rewrites are
    # idempotent), and copying every fragment was a fifth of a long pipeline's compile
    return DIALECT.generate(e, copy=False)


def pretty(sql: str) -> str:
    """Parse one Spark statement and print it back formatted (the check and the format)."""
    return sqlglot.transpile(sql, read=DIALECT, write=DIALECT, pretty=True)[0]


def pretty_with_reads(sql: str, rewrite=None, width: int = 80
                      ) -> tuple[str, tuple[str, ...]]:
    """`pretty(sql)`, and the names of the tables and views the statement reads (from the
    same parse): the plan of checkpoints (codegen/materialize.py) works on this graph.
    `rewrite`, when given, takes the parsed statement and returns the one to print; a call
    whose arguments are wider than `width` puts each on a line of its own."""
    tree = sqlglot.parse_one(sql, read=DIALECT)
    if rewrite is not None:
        tree = rewrite(tree)
    target = tree.find(exp.Table) if isinstance(tree, exp.Create) else None
    ctes = {c.alias for c in tree.find_all(exp.CTE)}
    reads = tuple(dict.fromkeys(t.name for t in tree.find_all(exp.Table)
                                if t is not target and t.name and t.name not in ctes))
    return DIALECT.generate(tree, copy=False, pretty=True, max_text_width=width), reads


def values_view(view: str, columns: list[tuple[str, str]], rows: list[tuple]) -> str:
    """`view` defined over `rows` written out as an inline table, which Spark keeps as a
    local relation: read without a job, and its size known to the planner (string and
    integer columns)."""

    def cell(value: object, type_name: str) -> exp.Expression:
        if value is None:
            return cast(null(), type_name.upper())
        if type_name == "string":
            return string(str(value))
        if type_name in ("bigint", "int"):
            return cast(exp.Literal.number(int(value)), type_name.upper())
        raise ValueError(f"no inline value of type {type_name}")

    names = [ident(n) for n, _ in columns]
    if rows:
        source: exp.Expression = exp.Values(
            expressions=[exp.Tuple(expressions=[cell(v, t) for v, (_, t) in zip(r, columns)])
                         for r in rows],
            alias=exp.TableAlias(this=ident("t"), columns=names))
        body = exp.select(*[col(n) for n, _ in columns]).from_(source)
    else:
        body = exp.select(*[cast(null(), t.upper()).as_(ident(n))
                            for n, t in columns]).where(boolean(False))
    return f"CREATE OR REPLACE TEMPORARY VIEW {to_sql(table(view))} AS {to_sql(body)}"
