"""Operators: precedence, null semantics, integer arithmetic and its faults."""

from __future__ import annotations

import pytest

CASES = [
    ("1 + 2 * 3", 7),
    ("(1 + 2) * 3", 9),
    ("-2 * 3", -6),
    ("7 / 2", 3),
    ("-7 / 2", -3),
    ("-7 % 2", -1),
    ("7 % -2", 1),
    ("7.0 / 2", 3.5),
    ("1 == 1", True),
    ("null == null", True),
    ("null != 1", True),
    ("1 == 1.0", True),
    ("not 1 == 2", True),
    ("not true and false", False),
    ("true or null", True),
    ("false and null", False),
    ("null ?? 5", 5),
    ("3 ?? 5", 3),
    ("'a' + 'b'", "ab"),
    ("if 1 > 2 then 'x' else 'y'", "y"),
    ("if null then 'x' else 'y'", "y"),
    ("if false then 1", None),
    ("match 2 { 1 => 'one', 2 => 'two', _ => 'many' }", "two"),
    ("match null { null => 'none', _ => 'some' }", "none"),
    ("match { 1 > 2 => 'a', 2 > 1 => 'b', _ => 'c' }", "b"),
    ("1 + if true then 2 else 3 * 4", 3),
    ("9223372036854775807 - 1", 9223372036854775806),
    ("-9223372036854775807 - 1", -9223372036854775808),
]


@pytest.mark.parametrize("expr,expected", CASES)
def test_value(cxl, expr, expected):
    out = cxl(expr)
    assert out.error is None, out.sql
    assert out.value == expected, out.sql


FAULTS = [
    ("1 / 0", "division by zero"),
    ("1 % 0", "division by zero"),
    ("1.5 / 0.0", "division by zero"),
    ("9223372036854775807 + 1", "integer overflow in addition operation"),
    ("9223372036854775807 * 2", "integer overflow in multiplication operation"),
    ("-(-9223372036854775807 - 1)", "integer overflow in negation operation"),
    ("'abc'.to_int()", "conversion failed: cannot convert 'abc' to Int"),
]


@pytest.mark.parametrize("expr,message", FAULTS)
def test_fault(cxl, expr, message):
    out = cxl(expr)
    assert out.error == message, out.sql
    assert out.value is None


def test_untaken_branch_cannot_fail(cxl):
    assert cxl("if true then 1 else 1 / 0").error is None
    assert cxl("false and (1 / 0 == 1)").error is None
    assert cxl("5 ?? (1 / 0)").error is None
    assert cxl("if false then 1 else 1 / 0").error == "division by zero"


def test_float_modulo_by_zero_is_nan(cxl):
    import math

    out = cxl("5.5 % 0.0")
    assert out.error is None and math.isnan(out.value)


def test_columns_and_nulls(cxl):
    assert cxl("a + 1", a=("int", 41)).value == 42
    assert cxl("a + 1", a=("int", None)).value is None
    assert cxl("a.to_int()", a=("string", None)).error is None
