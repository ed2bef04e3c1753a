"""Numeric builtins (cxl-spec §6.3)."""

from __future__ import annotations

from decimal import Decimal

import pytest

from .harness import NAN, check

I64_MIN = -9223372036854775808
I64_MAX = 9223372036854775807


def f(value):
    return {"f": ("float", value)}


def d(value, scale=2):
    return {"d": (f"decimal(10,{scale})", Decimal(value))}


CASES = [
    # abs keeps the type; i64::MIN wraps
    ("(-5).abs()", 5),
    ("-5.abs()", -5),  # `-x.abs()` is `-(x.abs())`
    ("(-2.5).abs()", 2.5),
    ("a.abs()", I64_MIN, {"a": ("int", I64_MIN)}),
    ("d.abs()", Decimal("2.50"), d("-2.50")),
    ("a.abs()", None, {"a": ("int", None)}),
    # ceil / floor: Float -> Int (saturating, NaN -> 0), Int unchanged, Decimal stays
    ("3.2.ceil()", 4),
    ("3.2.floor()", 3),
    ("(-3.2).floor()", -4),
    ("(-3.2).ceil()", -3),
    ("42.ceil()", 42),
    ("42.floor()", 42),
    ("f.ceil()", 0, f(NAN)),
    ("f.floor()", I64_MAX, f(1e30)),
    ("f.ceil()", I64_MIN, f(-1e30)),
    ("f.floor()", I64_MAX, f(float("inf"))),
    ("d.ceil()", Decimal("3"), d("2.10")),
    ("d.floor()", Decimal("-3"), d("-2.10")),
    ("f.ceil()", None, f(None)),
    # round: Float rounds the binary product half away from zero
    ("2.5.round()", 3.0),
    ("(-2.5).round()", -3.0),
    ("0.5.round()", 1.0),
    ("19.995.round(2)", 20.0),
    ("1.005.round(2)", 1.0),
    ("0.285.round(2)", 0.28),
    ("1234.5.round(-2)", 1200.0),
    ("2.567.round(null)", 3.0),
    ("2.567.round(1.9)", 2.6),
    ("f.round(2)", NAN, f(NAN)),
    ("f.round(2)", None, f(None)),
    ("42.round()", 42),
    ("42.round(2)", 42),
    # Decimal: half-even to max(n, 0) places
    ("d.round(2)", Decimal("2.12"), d("2.125", 3)),
    ("d.round(2)", Decimal("2.14"), d("2.135", 3)),
    ("d.round(-1)", Decimal("123"), d("123.45")),
    ("d.round(5)", Decimal("1.25"), d("1.25")),
    ("d.round()", Decimal("2"), d("2.50")),
    # round_to: like round, but an Int receiver gives null
    ("2.5.round_to(0)", 3.0),
    ("3.14159.round_to(2)", 3.14),
    ("42.round_to(1)", None),
    ("d.round_to(1)", Decimal("1.2"), d("1.25")),
    # clamp
    ("5.clamp(1, 10)", 5),
    ("(-5).clamp(1, 10)", 1),
    ("50.clamp(1, 10)", 10),
    ("5.clamp(null, 3)", 3),
    ("5.clamp(null, null)", 5),
    ("2.5.clamp(1.0, 2.0)", 2.0),
    ("0.5.clamp(1.0, 2.0)", 1.0),
    ("f.clamp(0.0, 1.0)", NAN, f(NAN)),
    ("1.5.clamp(f, 2.0)", 1.5, f(NAN)),
    ("d.clamp(0, 1)", Decimal("1.00"), d("2.50")),
    ("a.clamp(1, 10)", None, {"a": ("int", None)}),
    # min / max: the receiver when strictly smaller (larger), else the argument
    ("3.min(5)", 3),
    ("7.min(5)", 5),
    ("3.max(5)", 5),
    ("7.max(5)", 7),
    ("3.min(null)", None),
    ("a.min(5)", None, {"a": ("int", None)}),
    ("1.5.max(2.5)", 2.5),
    ("f.min(1.0)", 1.0, f(NAN)),
    ("f.max(1.0)", 1.0, f(NAN)),
    ("d.max(0)", Decimal("2.50"), d("2.50")),
    ("d.min(d)", Decimal("2.50"), d("2.50")),
]


@pytest.fixture(scope="module")
def outcomes(cxl_many):
    return cxl_many(CASES)


@pytest.mark.parametrize("i", range(len(CASES)), ids=[c[0] for c in CASES])
def test_numeric_builtin(outcomes, i):
    check(outcomes[i], CASES[i][1])
