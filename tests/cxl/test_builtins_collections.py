"""Arrays, maps, closures, comprehensions, indexing (cxl-spec §3.2, §6.7-§6.8)."""

from __future__ import annotations

import pytest

from .harness import Err, check

XS = {"xs": ("array<int>", [1, 2, None, 3])}
NULL_XS = {"xs": ("array<int>", None)}
WORDS = {"ws": ("array<string>", ["a", "b", "c"])}
M = {"m": ("map<string>", {"k": "v", "n": "w"})}
NULL_M = {"m": ("map<string>", None)}
DIV0 = Err("division by zero")

CASES = [
    # literals
    ("[1, 2, 3]", [1, 2, 3]),
    ("[]", []),
    ("[null, 1]", [None, 1]),
    ("['a', null]", ["a", None]),
    ("[[1], []]", [[1], []]),
    ("[1 + 1, 2 * 3]", [2, 6]),
    ("[1, 1 / 0]", DIV0),
    ("{a: 1, 'b c': 2}", {"a": 1, "b c": 2}),
    ("{}", {}),
    ("{[k]: 1}", {"x": 1}, {"k": ("string", "x")}),
    ("{[k]: 1}", Err("type mismatch: expected non-null String map key, got null"),
     {"k": ("string", None)}),
    ("{a: 1, a: 2}", Err('LOWER E202: duplicate map key "a"')),  # Clinker's parser
    (r"{'@a': 1, '\\@a': 2}", Err('LOWER E202: duplicate map key "@a"')),
    (r"{'\\a': 1}", Err("LOWER E202: non-canonical nested key escape in \"\\\\a\"; only "
                       "`\\@...`, `\\#text`, and `\\\\...` are valid escaped forms")),
    ("{[k]: 1, a: 2}", Err("duplicate map key 'a'"), {"k": ("string", "a")}),
    ("{a: 1, b: null}", {"a": 1, "b": None}),
    ("{a: [1, 2]}", {"a": [1, 2]}),
    # indexing never raises
    ("[10, 20, 30][0]", 10),
    ("[10, 20, 30][2]", 30),
    ("[10, 20][5]", None),
    ("[10, 20][-1]", None),
    ("[10, 20][i]", 20, {"i": ("int", 1)}),
    ("[10, 20][i]", None, {"i": ("int", None)}),
    ("[10, 20][9999999999]", None),
    ("ws[1]", "b", WORDS),
    ("xs[0]", None, NULL_XS),
    ("{a: 1}['a']", 1),
    ("{a: 1}['b']", None),
    ("m['k']", "v", M),
    ("m['k']", None, NULL_M),
    ("'abc'[0]", None),
    ("[10, 20][1.0]", None),
    ("{a: {b: 7}}['a']['b']", 7),
    ("[[1, 2], [3]][1][0]", 3),
    (r"[' a '][0].trim", "a"),
    ("[1, 2, 3].length()", 3),
    ("[].length()", 0),
    ("xs.length()", None, NULL_XS),
    # closures
    ("[1, 2, 3, 4].filter(it => it > 2)", [3, 4]),
    ("xs.filter(it => it > 1)", [2, 3], XS),
    ("xs.filter(it => it > 1)", None, NULL_XS),
    ("[1, 2].map(it => it * 2)", [2, 4]),
    ("ws.map(it => it.upper())", ["A", "B", "C"], WORDS),
    ("xs.map(it => it ?? 0)", [1, 2, 0, 3], XS),
    ("[1, 2].map(it => it + n)", [11, 12], {"n": ("int", 10)}),
    ("[5, 20, 30].find(it => it > 15)", 20),
    ("[1, 2].find(it => it > 5)", None),
    ("ws.find(it => it == 'b')", "b", WORDS),
    ("[1, 5].any(it => it > 1)", True),
    ("[1, 0].any(it => it > 1)", False),
    ("xs.any(it => it > 5)", False, XS),
    ("[].any(it => it > 1)", False),
    ("xs.any(it => it > 1)", None, NULL_XS),
    ("[[1], [2, 3]].flat_map(it => it)", [1, 2, 3]),
    ("[1, 2].flat_map(it => [it, it * 10])", [1, 10, 2, 20]),
    ("[1, 2, 3].flat_map(it => if it > 1 then it)", [2, 3]),
    ("[1, 2].flat_map(it => if it > 5 then [it])", []),
    ("[[1, 2], [3]].map(it => it.filter(it => it > 1))", [[2], [3]]),
    ("[[1, 2], [3]].map(it => it.length())", [2, 1]),
    ("[1, 2, 3].filter(it => it > 1).map(it => it * it)", [4, 9]),
    ("[1, 2].map(it => it.to_string()).join('+')", "1+2"),
    ("['a', 'b'].map(it => it.pad_left(3, '*')).join(',')", "**a,**b"),
    ("[' x ', 'y '].map(it => it.trim().upper())", ["X", "Y"]),
    ("{a: [1, 2]}['a'].map(it => it * 3)", [3, 6]),
    ("[{a: 1}, {a: 2}].map(it => it['a'])", [1, 2]),
    ("'a,b;c'.split(',').flat_map(it => it.split(';'))", ["a", "b", "c"]),
    ("[1, 2].any(it => it.to_string() == '2')", True),
    ("{a: 1}[null]", None),
    ("[1, 2][null]", None),
    # closure bodies fail only for the elements they run on
    ("[1, 0, 2].map(it => 10 / it)", DIV0),
    ("[3, 0, 2].find(it => 10 / it == 5)", DIV0),
    ("[2, 0, 1].find(it => 10 / it == 5)", 2),
    ("[1, 0].any(it => 10 / it > 0)", True),
    ("[0, 1].any(it => 10 / it > 0)", DIV0),
    ("['1', 'x'].map(it => it.to_int())", Err("conversion failed: cannot convert 'x' to Int")),
    ("xs.map(it => 1 / 0)", None, NULL_XS),
    ("[].map(it => 1 / 0)", []),
    # remove
    ("['a', 'b', 'c'].remove(1)", ["a", "c"]),
    ("['a', 'b', 'c'].remove(7)", ["a", "b", "c"]),
    ("['a', 'b', 'c'].remove(-1)", ["a", "b", "c"]),
    ("['a', 'b'].remove(null)", None),
    ("['a', 'b'].remove(1.0)", None),
    # comprehensions
    ("[x * 2 for x in [1, 2, 3]]", [2, 4, 6]),
    ("[x for x in [1, 2, 3] if x > 1]", [2, 3]),
    ("[w.upper() for w in ws if w != 'a']", ["B", "C"], WORDS),
    ("[x for x in xs]", Err("type mismatch: expected Array comprehension source, got null"),
     NULL_XS),
    ("[x for x in xs if x > 1]",
     Err("type mismatch: expected Bool comprehension predicate, got null"), XS),
    ("[x for x in [1, 2] if x > 5]", []),
    ("[10 / x for x in [1, 0, 2] if x != 0]", [10, 5]),
    ("[10 / x for x in [1, 0]]", DIV0),
    ("[[y, x] for y in [1, 2] if y > 1]", [[2, 5]], {"x": ("int", 5)}),
    # maps
    ("{a: 1, b: 2}.keys()", ["a", "b"]),
    ("{a: 1, b: 2}.values()", [1, 2]),
    ("m.keys()", ["k", "n"], M),
    ("m.values()", None, NULL_M),
    ("{a: 1, b: 2}.merge({b: 3, c: 4})", {"a": 1, "b": 3, "c": 4}),
    ("{a: 1, b: 2}.merge({b: 3, a: 5})", {"a": 5, "b": 3}),
    ("{a: 1}.merge({})", {"a": 1}),
    ("m.merge({k: 'x'})", {"k": "x", "n": "w"}, M),
    ("{a: 1}.merge(null)", None),
    ("{a: 1}.set('b', 2)", {"a": 1, "b": 2}),
    ("{a: 1, b: 2}.set('a', 9)", {"a": 9, "b": 2}),
    ("{a: 1}.set('b', null)", {"a": 1, "b": None}),
    ("{a: 1}.set(null, 2)", None),
    ("m.set('z', 'q')", None, NULL_M),
    ("{a: 1, b: 2}.remove_field('a')", {"b": 2}),
    ("{a: 1}.remove_field('z')", {"a": 1}),
    ("{a: 1}.remove_field(null)", None),
    ("{a: 1, b: 2}.unset('a')", {"b": 2}),
    ("{a: 1}.unset('z')", {"a": 1}),
    # equality: arrays and maps never equal anything (two nulls are equal)
    ("[1] == [1]", False),
    ("[1] != [1]", True),
    ("{a: 1} == {a: 1}", False),
    ("xs == null", True, NULL_XS),
    ("xs == null", False, XS),
]


@pytest.fixture(scope="module")
def outcomes(cxl_many):
    return cxl_many(CASES)


@pytest.mark.parametrize("i", range(len(CASES)), ids=[c[0] for c in CASES])
def test_collection_expression(outcomes, i):
    check(outcomes[i], CASES[i][1])


def test_program_lets_are_visible_in_closures(spark):
    from clinker_sql import sqlbuild as S
    from clinker_sql.cxl import types as T
    from clinker_sql.cxl.lower import Scope
    from clinker_sql.cxl.program import lower_program

    scope = Scope(columns={"xs": (S.col("xs"), T.array_of(T.INT))})
    program = lower_program("let k = 10\nemit ys = xs.map(it => it * k)\n"
                            "emit zs = [x + k for x in xs if x > 1]", scope)
    cols = ", ".join(f"{S.to_sql(v.sql)} AS {name}" for name, v in program.emits.items())
    row = spark.sql(f"SELECT {cols} FROM (SELECT array(1L, 2L) AS xs) AS t").collect()[0]
    assert row["ys"] == [10, 20] and row["zs"] == [12]


def test_untaken_branch_closure_cannot_fail(cxl):
    assert cxl("if false then [0].map(it => 1 / it) else []").error is None
