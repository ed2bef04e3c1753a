"""type_names.py: sqlglot parses a type name once; what it builds and prints is
what it would build and print without the cache."""

from __future__ import annotations

import sqlglot
from sqlglot import exp

from clinker_sql import sqlbuild as S  # installs the cache
from clinker_sql import type_names


def test_the_cache_is_installed_by_the_code_generator():
    assert sqlglot.parse_one is type_names._parse_one_cached


def test_each_caller_gets_its_own_equal_tree():
    first = exp.DataType.build("json")
    second = exp.DataType.build("json")
    assert first == second and first is not second
    first.set("this", exp.DType.TEXT)  # a caller may change its tree
    assert exp.DataType.build("json").this == exp.DType.JSON


def test_parameterized_types_are_copied_whole():
    built = exp.DataType.build("decimal(38, 0)")
    again = exp.DataType.build("decimal(38, 0)")
    assert built == again and built.expressions[0] is not again.expressions[0]
    assert S.to_sql(again) == "DECIMAL(38, 0)"


def test_other_parses_are_not_cached():
    a = sqlglot.parse_one("SELECT CAST(x AS FLOAT), CAST(y AS JSON) FROM t", read=S.DIALECT)
    b = sqlglot.parse_one("SELECT CAST(x AS FLOAT), CAST(y AS JSON) FROM t", read=S.DIALECT)
    assert a is not b
    assert S.DIALECT.generate(a) == "SELECT CAST(x AS FLOAT), TO_JSON(y) FROM t"


def test_unknown_type_names_still_fall_back_to_user_defined():
    assert exp.DataType.build("my_type", udt=True).this == exp.DType.USERDEFINED
