"""Declared column types at ingest: text -> typed value, NULL when it does not convert.

Clinker's rules (spec §2.1): no trimming; int is an exact i64; float must be
finite; bool accepts true/yes/1/on and false/no/0/off in any case; decimal must
fit without rounding; dates follow the column `format:` or the default chain.
"""

from __future__ import annotations

from sqlglot import exp

from clinker_sql import sqlbuild as S
from clinker_sql.config import model as m
from clinker_sql.cxl import types as T
from clinker_sql.cxl.ast import Literal, Pos
from clinker_sql.cxl.errors import CxlError
from clinker_sql.cxl.strftime import java_pattern
from clinker_sql.diagnostics import fail

_INT_RE = r"^[+-]?[0-9]+\z"
_FLOAT_RE = r"^[+-]?([0-9]+[.]?[0-9]*|[.][0-9]+)([eE][+-]?[0-9]+)?\z"
_DEC_RE = r"^[+-]?([0-9]+[.]?[0-9]*|[.][0-9]+)\z"
_DATE_CHAIN = ((r"^[0-9]{4}-[0-9]{1,2}-[0-9]{1,2}\z", "y-M-d"),
               (r"^[0-9]{1,2}/[0-9]{1,2}/[0-9]{4}\z", "M/d/y"),
               (r"^[0-9]{4}/[0-9]{1,2}/[0-9]{1,2}\z", "y/M/d"),
               (r"^[0-9]{1,2}-[0-9]{1,2}-[0-9]{4}\z", "M-d-y"))
_TS = r"[0-9]{1,2}:[0-9]{1,2}:[0-9]{1,2}"
_DATETIME_CHAIN = ((rf"^[0-9]{{4}}-[0-9]{{1,2}}-[0-9]{{1,2}}T{_TS}\z", "y-M-d'T'H:m:s"),
                   (rf"^[0-9]{{4}}-[0-9]{{1,2}}-[0-9]{{1,2}} {_TS}\z", "y-M-d H:m:s"),
                   (rf"^[0-9]{{1,2}}/[0-9]{{1,2}}/[0-9]{{4}} {_TS}\z", "M/d/y H:m:s"),
                   (r"^[0-9]{1,2}/[0-9]{1,2}/[0-9]{4} [0-9]{1,2}:[0-9]{1,2}\z", "M/d/y H:m"))


# RFC 3339 with an offset, tried first on the default chain and normalized to UTC (Clinker's
# coerce_to_datetime: chrono's parse_from_rfc3339, then naive_utc)
_RFC3339 = (r"^([0-9]{4}-[0-9]{2}-[0-9]{2})[Tt ]([0-9]{2}:[0-9]{2}:[0-9]{2}([.][0-9]+)?)"
            r"([Zz]|[+-][0-9]{2}:[0-9]{2})\z")


def _rfc3339(raw: exp.Expression) -> tuple[exp.Expression, exp.Expression]:
    """(raw is RFC 3339 with an offset, its UTC TIMESTAMP_NTZ)."""
    def part(i: int) -> exp.Expression:
        return S.fn("regexp_extract", raw, S.string(_RFC3339), S.bigint(i))

    local = S.try_cast(S.fn("concat", part(1), S.string("T"), part(2)), "TIMESTAMP_NTZ")
    tz = part(4)
    hours = S.try_cast(S.fn("substr", tz, S.bigint(2), S.bigint(2)), "INT")
    minutes = S.try_cast(S.fn("substr", tz, S.bigint(5), S.bigint(2)), "INT")
    east = exp.Add(this=exp.Mul(this=hours, expression=S.bigint(3600)),
                   expression=exp.Mul(this=minutes, expression=S.bigint(60)))
    utc = exp.EQ(this=S.fn("upper", tz), expression=S.string("Z"))
    offset = S.case([(utc, S.bigint(0)),
                     (exp.EQ(this=S.fn("substr", tz, S.bigint(1), S.bigint(1)),
                             expression=S.string("-")), exp.Neg(this=exp.Paren(this=east)))],
                    east)
    valid = S.and_(_matches(raw, _RFC3339), S.or_(utc, S.and_(
        exp.LT(this=hours, expression=S.bigint(24)),
        exp.LT(this=minutes, expression=S.bigint(60)))))
    return valid, S.fn("timestampadd", exp.var("SECOND"), exp.Neg(this=exp.Paren(
        this=offset)), local)


def _matches(raw: exp.Expression, regex: str) -> exp.Expression:
    return S.is_true(exp.RegexpLike(this=raw, expression=S.string(regex)))


def _parse_chain(raw: exp.Expression, chain, target: str) -> exp.Expression:
    whens = [(_matches(raw, regex), S.try_cast(S.fn("try_to_timestamp", raw, S.string(pattern)),
                                               target))
             for regex, pattern in chain]
    return S.case(whens)


def typed_value(raw: exp.Expression, column: m.Column, nulls: bool = False) -> exp.Expression:
    """A column's typed value from its raw text. `nulls`: a null raw value is a real null
    (a JSON or Parquet source), kept by a string column that admits one (nullable, or
    `any`); otherwise a null string cell is a CSV's empty cell, ''."""
    t = column.type
    if t in ("string", "any"):
        if nulls and (column.nullable or t == "any"):
            return raw
        return S.fn("coalesce", raw, S.string(""))
    if t == "null":
        return S.cast(S.null(), "STRING")
    if t == "int":
        return S.case([(_matches(raw, _INT_RE), S.try_cast(raw, "BIGINT"))])
    if t == "float":
        value = S.try_cast(raw, "DOUBLE")
        finite = S.not_(S.or_(S.fn("isnan", value),
                              exp.EQ(this=S.fn("abs", value),
                                     expression=S.cast(S.string("Infinity"), "DOUBLE"))))
        return S.case([(S.is_true(S.and_(_matches(raw, _FLOAT_RE), finite)), value)])
    if t == "bool":
        low = S.fn("lower", raw)
        return S.case([(exp.In(this=low, expressions=[S.string(v) for v in
                                                      ("true", "yes", "1", "on")]),
                        S.boolean(True)),
                       (exp.In(this=low, expressions=[S.string(v) for v in
                                                      ("false", "no", "0", "off")]),
                        S.boolean(False))])
    if t == "decimal":
        # no scale: each value keeps its own in Clinker; held here at T.FREE_SCALE
        target = T.spark_type_sql(T.from_column("decimal", column.precision, column.scale))
        value = S.try_cast(raw, target)
        exact = exp.EQ(this=S.try_cast(raw, "DECIMAL(38, 18)"), expression=value)
        return S.case([(S.is_true(S.and_(_matches(raw, _DEC_RE), exact)), value)])
    if t in ("date", "date_time"):
        target = "DATE" if t == "date" else "TIMESTAMP_NTZ"
        if column.format:
            try:
                pattern = java_pattern(column.format, Literal(Pos(1, 1), column.format,
                                                              "string"), parsing=True)
            except CxlError as exc:  # a malformed format is the column's, not a CXL error
                raise fail("CS001" if exc.code == "CS001" else "E000", f"column "
                           f"'{column.name}': format {column.format!r}: {exc.message}",
                           column.loc) from None
            return S.try_cast(S.fn("try_to_timestamp", raw, S.string(pattern)), target)
        if t == "date":
            return _parse_chain(raw, _DATE_CHAIN, target)
        valid, utc = _rfc3339(raw)
        chain = _parse_chain(raw, _DATETIME_CHAIN, target)
        return S.case([(S.is_true(valid), utc)], chain)
    raise fail("CS001", f"column type '{t}' is not supported for this source format",
               column.loc)
