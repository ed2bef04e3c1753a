"""Repeated costly values computed once (codegen/shared_values.py): the rewrite keeps
the rows Spark returns, Spark's plan then matches the regular expression once a row, and
values that could fail, or SELECTs it cannot rewrite safely, are left alone."""

from __future__ import annotations

import sqlglot

from clinker_sql.codegen import shared_values
from clinker_sql import sqlbuild as S

GUARDED = "CASE WHEN COALESCE(s RLIKE '^[+-]?[0-9]+\\\\z', FALSE) THEN TRY_CAST(s AS BIGINT) END"
# a range, not a VALUES list: Spark would fold the query over a local relation
ROWS = ("(SELECT ELEMENT_AT(ARRAY('1', ' 2', 'x', NULL, '-40'), CAST(id AS INT) + 1) AS s "
        "FROM RANGE(5))")


def shared(sql: str) -> str:
    return S.to_sql(shared_values.share(sqlglot.parse_one(sql, read=S.DIALECT)))


def test_a_repeated_guarded_cast_moves_below_and_the_rows_stay_the_same(spark):
    spark.sql(f"CREATE OR REPLACE TEMPORARY VIEW shared_input AS SELECT * FROM {ROWS}")
    query = (f"SELECT s, CASE WHEN s IS NULL THEN -1 ELSE {GUARDED} END AS v, "
             f"CASE WHEN {GUARDED} IS NULL THEN 'bad' END AS why FROM shared_input "
             f"WHERE COALESCE({GUARDED} > 0, TRUE)")
    rewritten = shared(query)
    assert rewritten.count("RLIKE") == 1 and "`$shared.0`" in rewritten
    assert sorted(map(repr, spark.sql(rewritten).collect())) == \
        sorted(map(repr, spark.sql(query).collect()))
    # Spark keeps the projection below (a costly value read twice is not inlined)
    plan = spark.sql(rewritten)._jdf.queryExecution().executedPlan().toString()
    assert plan.count("RLIKE") == 1, plan


def test_an_occurrence_once_is_left_in_place():
    query = f"SELECT {GUARDED} AS v, s FROM shared_input"
    assert shared(query) == S.to_sql(sqlglot.parse_one(query, read=S.DIALECT))


def test_values_that_could_fail_or_selects_it_cannot_rewrite_are_left_alone():
    failing = "CASE WHEN s RLIKE '^[0-9]+$' THEN 10 / TRY_CAST(s AS INT) END"
    for query in (
        f"SELECT {failing} AS a, {failing} AS b FROM t",  # a division may fail
        f"SELECT {GUARDED} AS a, {GUARDED} AS b FROM t JOIN u ON t.s = u.s",
        f"SELECT {GUARDED} AS a, MAX({GUARDED}) AS b FROM t GROUP BY s",
        f"SELECT *, {GUARDED} AS a, {GUARDED} AS b FROM t",
        f"SELECT x.s, {GUARDED} AS a, {GUARDED} AS b FROM t AS y",  # another relation
        "SELECT CASE WHEN s RLIKE p THEN 1 END AS a, CASE WHEN s RLIKE p THEN 1 END AS b "
        "FROM t",  # a pattern read from a column
    ):
        assert "$shared" not in shared(query), query


def test_unshared_gives_back_the_select_before_the_pass():
    """What codegen/empty_dlq.py reads a view's shape from: the relation under the moved
    values, and its WHERE over that relation's columns."""
    for query in (f"SELECT {GUARDED} AS a, {GUARDED} + 1 AS b FROM t WHERE {GUARDED} > 0",
                  f"SELECT r.s, {GUARDED} AS a, {GUARDED} AS b FROM t AS r"):
        tree = sqlglot.parse_one(query, read=S.DIALECT)
        moved = shared_values.share(tree.copy())
        assert "$shared" in S.to_sql(moved)
        assert S.to_sql(shared_values.unshared(moved)) == S.to_sql(tree)
    assert shared_values.unshared(sqlglot.parse_one("SELECT a FROM (SELECT * FROM t) AS x",
                                                    read=S.DIALECT)) is None


def test_a_view_with_values_moved_below_still_counts_as_row_wise():
    """codegen/records_copy.py drops a sink's records copy computed row by row from
    copies: a projection the pass added is no subquery to it."""
    from clinker_sql.codegen.records_copy import _selects_row_wise

    text = shared(f"CREATE TEMPORARY VIEW v AS SELECT {GUARDED} AS a, {GUARDED} AS b FROM t")
    assert "$shared" in text and _selects_row_wise(text)
    assert not _selects_row_wise("CREATE TEMPORARY VIEW v AS SELECT a FROM (SELECT * FROM t) AS x")


def test_a_repeated_library_call_that_matches_moves_below_and_spark_matches_once(spark):
    """A conversion is a call of the function library (cxl/functions.py). Spark projects a
    call's argument once, but inlines the body wherever the call is read: a call read in
    several places still moves below, so its match runs once a row."""
    from clinker_sql.cxl import functions

    for _, create in functions.definitions(["cxl_string_to_int", "cxl_float_round"]):
        spark.sql(create)
    spark.sql(f"CREATE OR REPLACE TEMPORARY VIEW shared_input AS SELECT * FROM {ROWS}")
    call = "cxl_string_to_int(s)"
    query = (f"SELECT s, CASE WHEN s IS NULL THEN -1 ELSE {call} END AS v, "
             f"CASE WHEN NOT s IS NULL AND {call} IS NULL THEN 'bad' END AS why "
             "FROM shared_input")
    plain = spark.sql(query)._jdf.queryExecution().executedPlan().toString()
    assert plain.count("RLIKE") == 2, plain  # inlined in each place it is read
    rewritten = shared(query)
    assert "`$shared.0`" in rewritten and rewritten.upper().count("CXL_STRING_TO_INT") == 1
    assert sorted(map(repr, spark.sql(rewritten).collect())) == \
        sorted(map(repr, spark.sql(query).collect()))
    plan = spark.sql(rewritten)._jdf.queryExecution().executedPlan().toString()
    assert plan.count("RLIKE") == 1, plan
    # a call that matches nothing is left where it is read: its body is as cheap as a read
    cheap = "cxl_float_round(CAST(s AS DOUBLE), 0)"
    assert "$shared" not in shared(f"SELECT {cheap} AS a, {cheap} AS b FROM t")
