"""Sort keys carried through a select list (codegen/sort_key.py `carried`) and qualified by
the relation they read (`qualified`), evaluated by Spark: the carried keys sort as the keys
themselves do, and a qualified key reads the field, not a select item of its name."""

from __future__ import annotations

import itertools

from sqlglot import exp

from clinker_sql.codegen import sort_key
from clinker_sql import sqlbuild as S
from clinker_sql.codegen.templates import sql

ROWS = "VALUES (1, 'b', 3), (2, NULL, 1), (3, 'a', NULL), (4, 'b', 1), (5, 'a', 3), " \
    "(6, NULL, NULL) AS t(id, s, n)"


def _keys(desc_s: bool, first_s: bool, desc_n: bool, first_n: bool) -> list[exp.Expression]:
    return [exp.Ordered(this=S.col("s"), desc=desc_s, nulls_first=first_s),
            exp.Ordered(this=S.fn("coalesce", S.col("n"), S.small_int(2)), desc=desc_n,
                        nulls_first=first_n),
            S.col("id")]


def test_carried_keys_sort_as_the_keys_do(spark):
    for flags in itertools.product([False, True], repeat=4):
        keys = _keys(*flags)
        direct = spark.sql(f"SELECT id FROM {ROWS} ORDER BY "
                           f"{', '.join(sql(k) for k in keys)}").collect()
        values, order = sort_key.carried(keys)
        assert [n for _, n in values] == ["$k0", "$k1", "$k2"]
        assert not any(isinstance(v, exp.Ordered) for v, _ in values)
        items = ", ".join(sql(v.as_(S.ident(n))) for v, n in values)
        carried = spark.sql(f"SELECT id FROM (SELECT id, {items} FROM {ROWS}) AS w "
                            f"ORDER BY {', '.join(sql(k) for k in order)}").collect()
        assert [r.id for r in carried] == [r.id for r in direct], flags
        assert len({r.id for r in direct}) == 6


def test_a_qualified_key_reads_the_field_not_the_written_column(spark):
    keys = sort_key.qualified([exp.Ordered(this=S.col("s"), desc=True, nulls_first=False),
                               exp.Ordered(this=S.col("id"))], "r")
    assert sql(keys[0]).startswith("`r`.`s`")
    rows = spark.sql(f"SELECT CAST(-id AS STRING) AS s FROM {ROWS.replace(' AS t(', ' AS r(')} "
                     f"ORDER BY {', '.join(sql(k) for k in keys)}").collect()
    # s desc, its nulls last, then id: b (1, 4), a (3, 5), null (2, 6)
    assert [r.s for r in rows] == ["-1", "-4", "-3", "-5", "-2", "-6"]
