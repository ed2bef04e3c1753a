"""String, regex and path builtins (cxl-spec §6.1-§6.2). Expected values come
from the spec's semantics column and Clinker's builtins_impl.rs."""

from __future__ import annotations

import pytest

from .harness import Err, check

NULL_S = {"s": ("string", None)}


def s(value):
    return {"s": ("string", value)}


CASES = [
    # case mapping, length, reverse
    ("'hello'.upper()", "HELLO"),
    ("'straße'.upper()", "STRASSE"),
    ("'HeLLo'.lower()", "hello"),
    ("s.upper()", None, NULL_S),
    ("'héllo'.length()", 5),
    ("'😀'.length()", 1),
    ("''.length()", 0),
    ("s.length()", None, NULL_S),
    ("'abc'.length", 3),  # `.name` on a non-name receiver is a zero-argument call
    ("'ab😀'.reverse()", "😀ba"),
    # trim strips Unicode White_Space (tab, LF, NBSP, em space), not only spaces
    ("s.trim()", "hi", s("\t hi \n")),
    ("s.trim()", "hi", s("\u00a0hi\u2003")),
    ("s.trim()", "a b", s("  a b  ")),
    ("s.trim_start()", "hi  ", s("  hi  ")),
    ("s.trim_end()", "  hi", s("  hi  ")),
    ("s.trim_start()", "hi\t", s("\u00a0\thi\t")),
    ("'   '.trim()", ""),
    # literal matching
    ("'hello'.starts_with('he')", True),
    ("'hello'.starts_with('lo')", False),
    ("'x'.starts_with('')", True),
    ("'report.csv'.ends_with('.csv')", True),
    ("'hello world'.contains('lo wo')", True),
    ("'hello'.contains('z')", False),
    ("'a.c'.contains('.')", True),
    ("'x'.starts_with(null)", None),
    ("s.contains('a')", None, NULL_S),
    # replace: every literal occurrence; an empty pattern inserts around each character
    ("'a.b.c'.replace('.', '_')", "a_b_c"),
    ("'abc'.replace('', '-')", "-a-b-c-"),
    ("''.replace('', '-')", "-"),
    ("'aaa'.replace('a', '$1')", "$1$1$1"),
    ("s.replace('\\\\', '/')", "a/b", s("a\\b")),
    ("'abc'.replace('x', 'y')", "abc"),
    ("'abc'.replace(null, 'y')", None),
    ("s.replace('', '-')", None, NULL_S),
    # substring: 0-based, in characters
    ("'hello world'.substring(6)", "world"),
    ("'hello world'.substring(0, 5)", "hello"),
    ("'hello'.substring(-3)", "hello"),
    ("'hello'.substring(1, -1)", "ello"),
    ("'abc'.substring(10)", ""),
    ("'abc'.substring(1, 0)", ""),
    ("'héllo'.substring(1, 3)", "éll"),
    ("'hello'.substring(1, 100)", "ello"),
    ("'hello'.substring(null)", "hello"),
    ("'hello'.substring(1.9, 2)", "el"),
    # left / right: n < 0 is null
    ("'hello'.left(3)", "hel"),
    ("'hello'.right(3)", "llo"),
    ("'hello'.left(-1)", None),
    ("'hello'.right(-2)", None),
    ("'hello'.right(10)", "hello"),
    ("'hello'.left(0)", ""),
    ("'héllo'.left(2)", "hé"),
    # padding: first character of the fill, never truncates
    ("'42'.pad_left(5, '0')", "00042"),
    ("'hello'.pad_left(3, '0')", "hello"),
    ("'hi'.pad_left(6, 'ab')", "aaaahi"),
    ("'hi'.pad_left(5, '')", "   hi"),
    ("'hi'.pad_left(5)", "   hi"),
    ("'hi'.pad_left(4, null)", "  hi"),
    ("'hi'.pad_right(6, '.')", "hi...."),
    ("'hello'.pad_right(2, '.')", "hello"),
    ("'hi'.pad_left(-1)", None),
    ("'é'.pad_left(3, 'ü')", "üüé"),
    ("s.pad_left(3)", None, NULL_S),
    ("'x'.pad_left(20000000)",
     Err("string output exceeds maximum size (20000000 bytes, limit 10485760)")),
    ("s.pad_left(20000000)", None, NULL_S),
    # repeat
    ("'ab'.repeat(3)", "ababab"),
    ("'ab'.repeat(0)", ""),
    ("'ab'.repeat(-1)", None),
    ("''.repeat(100)", ""),
    ("'ab'.repeat(6000000)",
     Err("string output exceeds maximum size (12000000 bytes, limit 10485760)")),
    # split: literal delimiter, trailing empty parts kept
    ("'a.b.c'.split('.')", ["a", "b", "c"]),
    ("'a,b,'.split(',')", ["a", "b", ""]),
    ("'abc'.split('')", ["", "a", "b", "c", ""]),
    ("''.split(',')", [""]),
    ("'a||b'.split('||')", ["a", "b"]),
    ("s.split('\\\\E')", ["a", "b"], s("a\\Eb")),
    ("'a*b'.split('*')", ["a", "b"]),
    ("s.split(',')", None, NULL_S),
    ("'a,b'.split(null)", None),
    # join: Array receiver; nulls print as ""; a String receiver gives null
    ("xs.join(',')", "a,,b", {"xs": ("array<string>", ["a", None, "b"])}),
    ("[1, 2, 3].join('-')", "1-2-3"),
    ("[1.5, 2.0].join(';')", "1.5;2"),
    ("[true, false].join('')", "truefalse"),
    ("'abc'.join(',')", None),
    ("[].join(',')", ""),
    # concat: null arguments are ""
    ("'a'.concat('b', 'c')", "abc"),
    ("'a'.concat(null, 'b')", "ab"),
    ("s.concat('x')", None, NULL_S),
    ("'a'.concat(s)", "a", NULL_S),
    # regex: unanchored search; Unicode classes like Rust
    ("'abc123'.matches('[0-9]+')", True),
    ("'abc123'.matches('^[0-9]+$')", False),
    ("'abc123'.matches('^abc')", True),
    ("'abc'.find('b')", True),
    ("'abc'.find('z')", False),
    ("'٣'.matches('^\\\\d$')", True),
    ("s.matches('c$')", False, s("abc\n")),
    ("'ABC'.matches('(?i)abc')", True),
    ("s.matches('a.c')", False, s("a\nc")),
    ("s.matches('[[:digit:]]')", True, s("x7")),
    ("s.matches(p)", None, {"s": ("string", "abc"), "p": ("string", "b")}),
    ("s.matches('a')", None, NULL_S),
    # capture: group g (default 0) of the first match
    ("'order-12345'.capture('order-([0-9]+)', 1)", "12345"),
    ("'nothing'.capture('order-([0-9]+)', 1)", None),
    ("'order-1'.capture('order-[0-9]+')", "order-1"),
    ("'ab'.capture('(a)', 2)", None),
    ("'a'.capture('(a)|(b)', 2)", None),
    ("'a'.capture('(a)|(b)', 1)", "a"),
    ("'abc'.capture('x*')", ""),
    ("'a'.capture('a(b*)', 1)", ""),
    ("'key=val'.capture('(?P<k>\\\\w+)=(\\\\w+)', 2)", "val"),
    ("'key=val'.capture('(\\\\w+)=', g)", "key", {"g": ("int", 1)}),
    ("'key=val'.capture('(\\\\w+)=', g)", "key=", {"g": ("int", -4)}),
    ("'x1y2'.capture('[0-9]')", "1"),
    # format ignores its argument: to_string of any receiver
    ("42.format('%d')", "42"),
    ("'x'.format('')", "x"),
    ("1.5.format('')", "1.5"),
    # paths (Rust std::path, Unix)
    ("'/data/reports/sales.csv'.file_name()", "sales.csv"),
    ("'/data/reports/'.file_name()", "reports"),
    ("'/'.file_name()", None),
    ("'a/..'.file_name()", None),
    ("'file.csv'.file_name()", "file.csv"),
    ("'a/b/.'.file_name()", "b"),
    ("''.file_name()", None),
    ("'/data/reports/sales.tar.gz'.file_stem()", "sales.tar"),
    ("'.bashrc'.file_stem()", ".bashrc"),
    ("'x.'.file_stem()", "x"),
    ("'/a/README'.file_stem()", "README"),
    ("'..a'.file_stem()", "."),
    ("'/data/reports/sales.tar.gz'.extension()", "gz"),
    ("'/data/README'.extension()", None),
    ("'.bashrc'.extension()", None),
    ("'x.'.extension()", ""),
    ("'/'.extension()", None),
    ("'/data/reports/sales.csv'.parent()", "/data/reports"),
    ("'file.csv'.parent()", ""),
    ("'/'.parent()", None),
    ("''.parent()", None),
    ("'/a'.parent()", "/"),
    ("'a//b/'.parent()", "a"),
    ("'./b'.parent()", "."),
    ("'.'.parent()", ""),
    ("'a/b/../c'.parent()", "a/b/.."),
    ("'/data/reports/sales.csv'.parent_name()", "reports"),
    ("'file.csv'.parent_name()", None),
    ("'/a'.parent_name()", None),
    ("'a/../b'.parent_name()", None),
    ("s.file_name()", None, NULL_S),
    ("s.parent()", None, NULL_S),
]


@pytest.fixture(scope="module")
def outcomes(cxl_many):
    return cxl_many(CASES)


@pytest.mark.parametrize("i", range(len(CASES)), ids=[c[0] for c in CASES])
def test_string_builtin(outcomes, i):
    check(outcomes[i], CASES[i][1])


def test_arguments_are_evaluated_for_a_null_receiver(cxl):
    # the receiver is null, but the argument still runs (and fails)
    assert cxl("s.left(1 / 0)", s=("string", None)).error == "division by zero"
