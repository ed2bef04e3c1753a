"""Conversion and introspection builtins (cxl-spec §6.5-§6.6, §12)."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest

from .harness import NAN, Err, check

I64_MAX = 9223372036854775807


def conv(value, target):
    return Err(f"conversion failed: cannot convert '{value}' to {target}")


def col(kind, value):
    return {"v": (kind, value)}


DEC = {"d": ("decimal(10,2)", Decimal("2.99"))}
NEG_DEC = {"d": ("decimal(10,2)", Decimal("-2.99"))}

CASES = [
    # to_int: strict i64 parse; Float truncates and saturates; Bool is 1/0
    ("'42'.to_int()", 42),
    ("'+42'.to_int()", 42),
    ("'-7'.to_int()", -7),
    ("' 42'.to_int()", conv(" 42", "Int")),
    ("'42 '.to_int()", conv("42 ", "Int")),
    ("'42.0'.to_int()", conv("42.0", "Int")),
    ("'1e3'.to_int()", conv("1e3", "Int")),
    # a final newline is not the end of the text (Java's `$` would match before it)
    ("v.to_int()", conv("42\n", "Int"), col("string", "42\n")),
    ("v.try_int()", None, col("string", "7\n")),
    ("v.to_float()", conv("1.5\n", "Float"), col("string", "1.5\n")),
    ("v.to_date()", conv("2024-01-02\n", "Date"), col("string", "2024-01-02\n")),
    ("''.to_int()", conv("", "Int")),
    ("'9223372036854775808'.to_int()", conv("9223372036854775808", "Int")),
    ("'9223372036854775807'.to_int()", I64_MAX),
    ("3.9.to_int()", 3),
    ("(-3.9).to_int()", -3),
    ("v.to_int()", I64_MAX, col("float", 1e30)),
    ("v.to_int()", 0, col("float", NAN)),
    ("true.to_int()", 1),
    ("false.to_int()", 0),
    ("d.to_int()", 2, DEC),
    ("d.to_int()", -2, NEG_DEC),
    ("#2024-01-01#.to_int()", conv("2024-01-01", "Int")),
    ("v.to_int()", None, col("string", None)),
    ("'abc'.try_int()", None),
    ("' 1'.try_int()", None),
    ("'12'.try_int()", 12),
    ("3.7.try_int()", 3),
    ("d.try_int()", None, DEC),
    ("true.try_int()", 1),
    # to_float: Rust f64 syntax, no whitespace; a Bool fails
    ("'1e3'.to_float()", 1000.0),
    ("'.5'.to_float()", 0.5),
    ("'1.'.to_float()", 1.0),
    ("'-2.5E-1'.to_float()", -0.25),
    ("'inf'.to_float()", float("inf")),
    ("'-Infinity'.to_float()", float("-inf")),
    ("'NaN'.to_float()", NAN),
    ("' 2.5'.to_float()", conv(" 2.5", "Float")),
    ("'1,5'.to_float()", conv("1,5", "Float")),
    ("'0x10'.to_float()", conv("0x10", "Float")),
    ("true.to_float()", conv("true", "Float")),
    ("5.to_float()", 5.0),
    ("d.to_float()", 2.99, DEC),
    ("'x'.try_float()", None),
    ("'2'.try_float()", 2.0),
    ("d.try_float()", None, DEC),
    # to_bool: exactly true/1/yes, false/0/no (any case); Int is != 0; Float fails
    ("'yes'.to_bool()", True),
    ("'NO'.to_bool()", False),
    ("'1'.to_bool()", True),
    ("'0'.to_bool()", False),
    ("'True'.to_bool()", True),
    ("'Y'.to_bool()", conv("Y", "Bool")),
    ("'t'.to_bool()", conv("t", "Bool")),
    ("' true'.to_bool()", conv(" true", "Bool")),
    ("5.to_bool()", True),
    ("0.to_bool()", False),
    ("1.5.to_bool()", conv("1.5", "Bool")),
    ("'maybe'.try_bool()", None),
    ("'no'.try_bool()", False),
    # to_date: String only (a Date receiver fails), Y-M-D without trailing text
    ("'2024-03-15'.to_date()", dt.date(2024, 3, 15)),
    ("'2024-3-5'.to_date()", dt.date(2024, 3, 5)),
    ("'2024-02-30'.to_date()", conv("2024-02-30", "Date")),
    ("'2024-03'.to_date()", conv("2024-03", "Date")),
    ("'2024'.try_date()", None),
    ("'2024-03-15 junk'.try_date()", None),
    ("'2024-03-15T10:00'.try_date()", None),
    ("' 2024-03-15'.try_date()", None),
    ("#2024-03-15#.to_date()", conv("2024-03-15", "Date")),
    ("#2024-03-15#.try_date()", None),
    ("'15/03/2024'.to_date('%d/%m/%Y')", dt.date(2024, 3, 15)),
    ("'5/3/2024'.to_date('%d/%m/%Y')", dt.date(2024, 3, 5)),
    ("'March 5, 2024'.to_date('%B %d, %Y')", dt.date(2024, 3, 5)),
    ("'2024-03'.try_date('%Y-%m')", None),
    ("'2024-03'.to_date('%Y-%m')", conv("2024-03", "Date")),
    ("'x'.try_date('%Y-%m-%d')", None),
    # to_datetime: seconds required, `T`, `t` or a space
    ("'2024-03-15T14:30:00'.to_datetime()", dt.datetime(2024, 3, 15, 14, 30)),
    ("'2024-03-15 14:30:00'.to_datetime()", dt.datetime(2024, 3, 15, 14, 30)),
    ("'2024-03-15t14:30:00'.to_datetime()", dt.datetime(2024, 3, 15, 14, 30)),
    ("'2024-03-15T14:30:00.5'.to_datetime()", dt.datetime(2024, 3, 15, 14, 30, 0, 500000)),
    ("'2024-03-15T14:30'.try_datetime()", None),
    ("'2024-03-15'.try_datetime()", None),
    ("'2024-03-15T14:30:00Z'.try_datetime()", None),
    ("'2024-03-15T14:30'.to_datetime()", conv("2024-03-15T14:30", "DateTime")),
    ("'15/03/2024 14:30'.to_datetime('%d/%m/%Y %H:%M')", dt.datetime(2024, 3, 15, 14, 30)),
    ("'15/03/2024'.try_datetime('%d/%m/%Y')", None),
    # to_decimal / try_decimal
    ("5.to_decimal()", Decimal("5")),
    ("'19.99'.to_decimal()", Decimal("19.99")),
    ("'1e3'.to_decimal()", Decimal("1000")),
    ("'-0.050'.to_decimal()", Decimal("-0.050")),
    ("'abc'.try_decimal()", None),
    ("'abc'.to_decimal()", conv("abc", "Decimal")),
    ("true.to_decimal()", conv("true", "Decimal")),
    ("true.try_decimal()", None),
    ("d.to_decimal()", Decimal("2.99"), DEC),
    # a string or float column: a decimal of no declared scale, held at 18 places
    ("s.to_decimal()", Decimal("12.500000000000000000"), {"s": ("string", "12.50")}),
    ("s.to_decimal()", Decimal("-1000.000000000000000000"), {"s": ("string", "-1e3")}),
    ("s.to_decimal()", conv(" 1", "Decimal"), {"s": ("string", " 1")}),
    ("s.try_decimal()", None, {"s": ("string", "1.2.3")}),
    ("s.to_decimal().to_string()", "12.5", {"s": ("string", "12.50")}),
    ("f.to_decimal()", Decimal("0.250000000000000000"), {"f": ("float", 0.25)}),
    # to_string (§6.5.1)
    ("42.to_string()", "42"),
    ("(-5).to_string()", "-5"),
    ("42.0.to_string()", "42"),
    ("0.1.to_string()", "0.1"),
    ("v.to_string()", "100000000000000000000", col("float", 1e20)),
    ("v.to_string()", "0.0000001", col("float", 1e-7)),
    ("v.to_string()", "0.30000000000000004", col("float", 0.1 + 0.2)),
    ("(-0.0).to_string()", "-0"),
    ("0.0.to_string()", "0"),
    # where Spark's own text switches to an exponent (1e-3 and 1e7)
    ("v.to_string()", "0.001", col("float", 1e-3)),
    ("v.to_string()", "0.00099", col("float", 0.00099)),
    ("v.to_string()", "9999999.5", col("float", 9999999.5)),
    ("v.to_string()", "10000000", col("float", 1e7)),
    ("v.to_string()", "-1234.5", col("float", -1234.5)),
    ("v.to_string()", "NaN", col("float", NAN)),
    ("v.to_string()", "inf", col("float", float("inf"))),
    ("true.to_string()", "true"),
    ("#2024-03-15#.to_string()", "2024-03-15"),
    ("v.to_string()", "2024-03-15 14:30:00", col("datetime", "2024-03-15 14:30:00")),
    ("v.to_string()", "2024-03-15 14:30:00.100", col("datetime", "2024-03-15 14:30:00.1")),
    ("v.to_string()", "2024-03-15 14:30:00.123456",
     col("datetime", "2024-03-15 14:30:00.123456")),
    ("d.to_string()", "2.99", DEC),
    ("v.to_string()", "2.50", col("decimal(10,2)", Decimal("2.5"))),
    ("[1, 2].to_string()", "[1, 2]"),
    ("v.to_string()", "[a, , b]", col("array<string>", ["a", None, "b"])),
    ("{k: 'v'}.to_string()", "{k: v}"),
    ("{a: 1.5, b: null}.to_string()", "{a: 1.5, b: }"),
    ("v.to_string()", None, col("string", None)),
    ("'x'.to_string()", "x"),
    # type_of: lower-case names from the static type
    ("1.type_of()", "int"),
    ("1.5.type_of()", "float"),
    ("'a'.type_of()", "string"),
    ("true.type_of()", "bool"),
    ("#2024-01-01#.type_of()", "date"),
    ("now.type_of()", "datetime"),
    ("d.type_of()", "decimal", DEC),
    ("[1].type_of()", "array"),
    ("{a: 1}.type_of()", "map"),
    ("null.type_of()", "null"),
    ("v.type_of()", "null", col("string", None)),
    ("v.type_of()", "string", col("string", "x")),
    # is_null / is_empty / catch / debug
    ("null.is_null()", True),
    ("v.is_null()", True, col("int", None)),
    ("0.is_null()", False),
    ("''.is_empty()", True),
    ("' '.is_empty()", False),
    ("[].is_empty()", True),
    ("[1].is_empty()", False),
    ("{}.is_empty()", False),
    ("null.is_empty()", True),
    ("v.is_empty()", True, col("string", None)),
    ("0.is_empty()", False),
    ("v.catch('x')", "x", col("string", None)),
    ("'a'.catch('x')", "a"),
    ("v.catch(0)", 0, col("int", None)),
    ("5.debug('label')", 5),
    ("v.debug()", None, col("int", None)),
]


@pytest.fixture(scope="module")
def outcomes(cxl_many):
    return cxl_many(CASES)


@pytest.mark.parametrize("i", range(len(CASES)), ids=[c[0] for c in CASES])
def test_conversion_builtin(outcomes, i):
    check(outcomes[i], CASES[i][1])


def test_conversion_fault_carries_the_value(cxl):
    out = cxl("v.to_int()", v=("string", "12x"))
    assert out.error == "conversion failed: cannot convert '12x' to Int"


def test_now_to_datetime_fails(cxl):
    # to_datetime() only accepts a String receiver (spec §6.5)
    out = cxl("now.to_datetime()")
    assert out.error is not None and out.error.endswith("' to DateTime")
