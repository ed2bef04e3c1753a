"""Boolean and comparison builders that parenthesize AND/OR operands.

`codegen.sql._paren` treats `exp.And`/`exp.Or` as atoms (sqlglot makes them
`Func` subclasses), so `S.not_(S.or_(a, b))` prints `NOT a OR b`. The CXL
lowering builds its conditions with these versions instead.
"""

from __future__ import annotations

from sqlglot import exp

from clinker_sql.codegen import sql as S


def paren(e: exp.Expression) -> exp.Expression:
    if isinstance(e, exp.Connector):
        return exp.Paren(this=e)
    return S.paren(e)


def and_(*conds: exp.Expression | None) -> exp.Expression:
    parts = [c for c in conds if c is not None and not
             (isinstance(c, exp.Boolean) and c.this is True)]
    if not parts:
        return S.boolean(True)
    out = parts[0]
    for p in parts[1:]:
        out = exp.And(this=paren(out), expression=paren(p))
    return out


def or_(*conds: exp.Expression) -> exp.Expression:
    if not conds:
        return S.boolean(False)
    out = conds[0]
    for p in conds[1:]:
        out = exp.Or(this=paren(out), expression=paren(p))
    return out


def not_(e: exp.Expression) -> exp.Expression:
    return exp.Not(this=paren(e))


def is_null(e: exp.Expression) -> exp.Expression:
    return exp.Is(this=paren(e), expression=exp.Null())


def not_null(e: exp.Expression) -> exp.Expression:
    return exp.Not(this=exp.Is(this=paren(e), expression=exp.Null()))


def eq(a: exp.Expression, b: exp.Expression) -> exp.Expression:
    return exp.EQ(this=paren(a), expression=paren(b))


def null_safe_eq(a: exp.Expression, b: exp.Expression) -> exp.Expression:
    return exp.NullSafeEQ(this=paren(a), expression=paren(b))
