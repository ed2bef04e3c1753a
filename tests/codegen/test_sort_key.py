"""The packed first sort key of an output (codegen/sort_key.py), evaluated by Spark: it
never orders two rows against their arrival order (it is non-decreasing in it), so the
exact keys after it keep the order; and it tells apart the rows a real output holds."""

from __future__ import annotations

import itertools

from sqlglot import exp

from clinker_sql.codegen import sort_key
from clinker_sql import sqlbuild as S
from clinker_sql.codegen.templates import sql

ROWS = [None, -5, 0, 1, 2**33 - 1, 2**33, 7 * 2**33 + 12, 2**55 - 3, 2**55 - 2, 2**57 - 3,
        2**57 - 2, 2**62, 2**63 - 1]
ORDERS = [None, -2, -1, 0, 28, 29, 60, 61, 2**40]
PARTS = [None, 0, 1, 2, 3, 9]


def _values(rows: list[tuple]) -> str:
    def lit(v):
        return "CAST(NULL AS BIGINT)" if v is None else f"CAST({v} AS BIGINT)"

    return ", ".join("(" + ", ".join(lit(v) for v in r) + ")" for r in rows)


def _ordered_keys(spark, rows: list[tuple], names: list[str], key: exp.Expression):
    """The rows sorted by their exact keys (ASC, NULL first), each with its packed key."""
    query = (f"SELECT {', '.join(names)}, {sql(key)} AS packed "
             f"FROM VALUES {_values(rows)} AS t({', '.join(names)}) "
             f"ORDER BY {', '.join(names)}")
    return [(tuple(r[n] for n in names), r["packed"]) for r in spark.sql(query).collect()]


def test_the_packed_arrival_order_never_decreases_along_the_arrival_order(spark):
    key = sort_key.arrival(S.col("o"), S.col("r"))
    got = _ordered_keys(spark, list(itertools.product(ORDERS, ROWS)), ["o", "r"], key)
    packed = [p for _, p in got]
    assert all(p >= 0 for p in packed)
    assert packed == sorted(packed)
    # inside the ranges every row has its own key: comparing longs decides
    inside = [(k, p) for k, p in got
              if k[0] is not None and -1 <= k[0] <= 60 and k[1] is not None
              and 0 <= k[1] <= 2**57 - 3]
    assert len(inside) > 20
    assert len({p for _, p in inside}) == len(inside)


def test_a_split_write_packs_its_part_first(spark):
    key = sort_key.arrival(S.col("o"), S.col("r"), S.col("p"))
    got = _ordered_keys(spark, list(itertools.product(PARTS, ORDERS[:7], ROWS[:10])),
                        ["p", "o", "r"], key)
    packed = [p for _, p in got]
    assert all(p >= 0 for p in packed)
    assert packed == sorted(packed)
    inside = [(k, p) for k, p in got
              if None not in k and 0 <= k[0] <= 5 and -1 <= k[1] <= 28 and 0 <= k[2] <= 2**55 - 3]
    assert len({p for _, p in inside}) == len(inside) > 50
