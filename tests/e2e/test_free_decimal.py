"""A `decimal` column declared without a `scale` (spec §2.1, §4.3): Clinker keeps each
value's own scale. Here the values are held at `FREE_SCALE` (18) places and written
without the zeros that adds, so they read back as the same numbers; `round_to(n)` and a
sink `schema:` scale give a fixed scale as in Clinker."""

from __future__ import annotations

from .pipelines import dlq, pipeline, run, sink, source, step, transform

ORDERS = {"orders.csv": """
    id,price,qty
    a,24.50,2
    b,3,10
    c,0.125,3
    d,-1.10,1
    e,1234567890.123456789,1
"""}


def test_values_keep_their_digits_and_lose_the_held_zeros(executor, tmp_path):
    r = run(executor, tmp_path, pipeline(
        source("orders", "id, price: decimal, qty: int"),
        transform("calc", "orders", """
            let gross = price * qty.to_decimal()
            emit id = id
            emit price = price
            emit gross = gross
            emit rounded = gross.round_to(2)
            emit label = price.to_string()
        """),
        sink("out", "calc", "\n      include_unmapped: false")), ORDERS)
    assert r.rows("out.csv") == [
        {"id": "a", "price": "24.5", "gross": "49", "rounded": "49.00", "label": "24.5"},
        {"id": "b", "price": "3", "gross": "30", "rounded": "30.00", "label": "3"},
        {"id": "c", "price": "0.125", "gross": "0.375", "rounded": "0.38", "label": "0.125"},
        {"id": "d", "price": "-1.1", "gross": "-1.1", "rounded": "-1.10", "label": "-1.1"},
        {"id": "e", "price": "1234567890.123456789", "gross": "1234567890.123457",
         "rounded": "1234567890.12", "label": "1234567890.123456789"}]


def test_text_that_is_not_a_decimal_is_a_type_error(executor, tmp_path):
    r = run(executor, tmp_path, pipeline(
        source("orders", "id, price: decimal"),
        sink("out", "orders")), {"orders.csv": """
            id,price
            a,1.5
            b,abc
        """})
    assert [row["price"] for row in r.rows("out.csv")] == ["1.5"]
    assert dlq(r, ("_cxl_dlq_error_category", "_cxl_dlq_triggering_value")) == [
        ("type_coercion_failure", "abc")]


def test_sums_and_a_sink_scale(executor, tmp_path):
    r = run(executor, tmp_path, pipeline(
        source("orders", "id, price: decimal, qty: int"),
        transform("total", "orders", """
            emit all = "all"
            emit price = price
        """),
        step("aggregate", "sums", "total", """
            emit all = all
            emit total = sum(price)
            emit top = max(price)
        """, "\n      group_by: [all]"),
        sink("out", "sums", "\n      schema:\n        - { name: total, type: decimal, "
                            "scale: 1 }")), ORDERS)
    # 24.5 + 3 + 0.125 - 1.1 + 1234567890.123456789 = 1234567916.648456789
    assert r.rows("out.csv") == [{"all": "all", "total": "1234567916.6",
                                  "top": "1234567890.123456789"}]
