"""Compile-time rejections and their codes: E200 wrong receiver, argument count
or type (Clinker's check_method_signature); E203 unknown method, field or name;
CS001 forms Spark SQL cannot express. No Spark needed."""

from __future__ import annotations

from decimal import Decimal

import pytest

from clinker_sql.cxl.builtins import KNOWN_UNSUPPORTED, METHODS
from clinker_sql.cxl.errors import CxlError

from .harness import lower

COLS = {"s": ("string", "x"), "n": ("int", 1), "f": ("float", 1.5), "b": ("bool", True),
        "d": ("date", "2024-01-01"), "t": ("datetime", "2024-01-01 00:00:00"),
        "dec": ("decimal(10,2)", Decimal("1.50")), "xs": ("array<int>", [1]),
        "m": ("map<int>", {"a": 1})}

REJECTED = [
    # unknown methods, fields and names
    ("'abc'.nope()", "E203"),
    ("s.uppercase()", "E203"),
    ("m['a'].nope", "E203"),
    ("[1][0].city", "E203"),
    ("nope + 1", "E203"),
    ("it > 1", "E203"),
    ("xs.map(it => nope)", "E203"),
    ("[s for s in xs]", "E203"),  # a comprehension binding may not shadow a name
    # argument count
    ("'abc'.upper(1)", "E200"),
    # provably different types can never be equal (pass.rs: `5 == "5"` is an error)
    ("n == '5'", "E200"),
    ("s != b", "E200"),
    ("d == t", "E200"),
    ("'abc'.substring()", "E200"),
    ("'abc'.substring(1, 2, 3)", "E200"),
    ("'a'.concat()", "E200"),
    ("'a'.replace('a')", "E200"),
    ("n.clamp(1)", "E200"),
    ("n.round_to()", "E200"),
    ("d.add_days()", "E200"),
    ("m.set('a')", "E200"),
    ("xs.filter()", "E200"),
    ("s.to_date('%Y', '%m')", "E200"),
    ("s.catch()", "E200"),
    # receiver type
    ("5.upper()", "E200"),
    ("'abc'.abs()", "E200"),
    ("b.round()", "E200"),
    ("n.year()", "E200"),
    ("s.add_days(1)", "E200"),
    ("xs.keys()", "E200"),
    ("m.remove(0)", "E200"),
    ("m.length()", "E200"),
    ("s.min('b')", "E200"),
    ("d.min(d)", "E200"),
    ("n.file_name()", "E200"),
    ("m.filter(it => true)", "E200"),
    ("s.filter(it => true)", "E200"),
    ("s.find(it => true)", "E200"),
    ("n.join(',')", "E200"),
    # argument type
    ("'abc'.substring('1')", "E200"),
    ("s.contains(1)", "E200"),
    ("s.pad_left(5, 1)", "E200"),
    ("s.pad_left('5')", "E200"),
    ("s.split(1)", "E200"),
    ("'a'.concat(1)", "E200"),
    ("d.diff_days(t)", "E200"),
    ("d.diff_days('2024-01-01')", "E200"),
    ("f.round('x')", "E200"),
    ("n.clamp('a', 2)", "E200"),
    ("m.merge(xs)", "E200"),
    ("m.set(1, 2)", "E200"),
    ("s.to_date(1)", "E200"),
    ("n.debug(1)", "E200"),
    ("d.format_date(1)", "E200"),
    ("xs.remove('a')", "E200"),
    # closures only where Clinker accepts them
    ("xs.filter(1)", "E200"),
    ("s.contains(it => true)", "E200"),
    ("s.concat(it => 1)", "E200"),
    # regex must compile like Rust's regex crate
    ("s.matches('(')", "E200"),
    ("s.matches('(?=a)')", "E200"),
    ("s.matches('(a)\\\\1')", "E200"),
    ("s.capture('[', 1)", "E200"),
    # formats chrono cannot print
    ("d.format_date('%H')", "E200"),
    ("d.format_date('%.3f')", "E200"),
    ("t.format_date('%Q')", "E200"),
    ("t.format_date('%z')", "E200"),
    ("t.format_date('%')", "E200"),
    # literals and comprehensions
    ("{[1]: 2}", "E200"),
    ("{[null]: 2}", "E200"),
    ("[x for x in 5]", "E200"),
    ("[x for x in null]", "E200"),
    ("[x for x in xs if 1]", "E200"),
    # forms Spark SQL cannot express
    ("m.set('b', 'x')", "CS001"),
    ("m.merge({a: 'x'})", "CS001"),
    ("m.set('a.b', 2)", "CS001"),
    ("m.set('a[0]', 2)", "CS001"),
    ("m.set(s, 2)", "CS001"),
    ("m.unset('a.b')", "CS001"),
    ("m.unset(s)", "CS001"),
    ("dec.round(n)", "CS001"),
    ("t.format_date(s)", "CS001"),
    ("s.to_date(s)", "CS001"),
    ("s.capture('(a*)?', 1)", "CS001"),
    ("s.matches('(?U)a+')", "CS001"),
    ("s.matches('[[:^alpha:]]')", "CS001"),
]


@pytest.mark.parametrize("expr,code", REJECTED, ids=[r[0] for r in REJECTED])
def test_rejected(expr, code):
    with pytest.raises(CxlError) as info:
        lower(expr, COLS)
    assert info.value.code == code, info.value.message


ACCEPTED = [
    "s.starts_with(null)",  # null unifies with every parameter type
    "null.upper()",
    "s.substring(1.5)",  # Float unifies with Int
    "s.substring(dec)",  # Decimal unifies with Int
    "dec.abs()",  # numeric methods accept Decimal
    "t.year()",  # date methods accept DateTime
    "xs.length()",
    "xs.join(',')",
    "s.join(',')",
    "xs.find(it => it > 0)",
    "s.find('a')",
    "xs.find('a')",
    "n.to_string()",
    "m.type_of()",
    "s.matches(s)",  # a non-literal pattern is null at run time
    "'abc'.length",
    "m.unset('a')",
    # mixed literals hold their values as JSON texts (cxl/json_values.py)
    "[1, 'a']",
    "[1, 2.5]",
    "[[1], ['a']]",
    "{a: 1, b: 'x'}",
]


@pytest.mark.parametrize("expr", ACCEPTED)
def test_accepted(expr):
    lower(expr, COLS)


def test_error_names_the_method():
    with pytest.raises(CxlError) as info:
        lower("s.frobnicate()", COLS)
    assert "frobnicate" in info.value.message
    with pytest.raises(CxlError) as info:
        lower("dec.round(n)", COLS)
    assert "round" in info.value.message


def test_registry_matches_clinker():
    clinker = {
        "upper", "lower", "trim", "trim_start", "trim_end", "starts_with", "ends_with",
        "contains", "replace", "substring", "left", "right", "pad_left", "pad_right",
        "repeat", "reverse", "length", "split", "join", "matches", "concat", "find",
        "capture", "format", "file_name", "file_stem", "extension", "parent", "parent_name",
        "abs", "ceil", "floor", "round", "round_to", "clamp", "min", "max", "year", "month",
        "day", "hour", "minute", "second", "add_days", "add_months", "add_years", "diff_days",
        "diff_months", "diff_years", "format_date", "filter", "map", "any", "flat_map",
        "remove", "keys", "values", "merge", "set", "remove_field", "unset", "to_int",
        "to_float", "to_decimal", "to_string", "to_bool", "to_date", "to_datetime", "try_int",
        "try_float", "try_decimal", "try_bool", "try_date", "try_datetime", "type_of",
        "is_null", "is_empty", "catch", "debug"}
    assert set(METHODS) == clinker
    assert set(KNOWN_UNSUPPORTED) <= clinker
