"""A sink's `schema:` (spec §2.7): for a CSV or JSON file it changes only a decimal column
whose `scale` is smaller than its values', rounding half to even on write; it never pads,
and leaves every other column as it is (Clinker's projection.rs
`round_declared_output_decimals`)."""

from __future__ import annotations

from .pipelines import pipeline, run, sink, source, transform

SCHEMA = """
      mapping:
        - id
        - third: share
        - price
        - n
      schema:
        - { name: third, type: decimal, scale: 2 }
        - { name: price, type: decimal, scale: 3 }
        - { name: n, type: decimal, scale: 0 }
        - { name: id, type: int }"""


def _scaled(text: str) -> str:
    """The source's price as a decimal of scale 3."""
    return text.replace("name: price, type: decimal }", "name: price, type: decimal, scale: 3 }")


def test_a_declared_scale_rounds_half_to_even_and_never_pads(executor, tmp_path):
    r = run(executor, tmp_path, _scaled(pipeline(
        source("orders", "id, price: decimal"),
        transform("calc", "orders", "emit share = price / 3\nemit n = 7"),
        sink("out", "calc", SCHEMA))), {"orders.csv": """
            id,price
            a,2.125
            b,0.375
        """})
    # share = price / 3 at full precision, rounded to the mapped name's scale 2; price
    # (scale 3 declared below) keeps its 3; n is an int and is left alone
    assert r.rows("out.csv") == [
        {"id": "a", "third": "0.71", "price": "2.125", "n": "7"},
        {"id": "b", "third": "0.12", "price": "0.375", "n": "7"}]


def test_half_to_even_at_the_midpoint(executor, tmp_path):
    r = run(executor, tmp_path, _scaled(pipeline(
        source("orders", "id, price: decimal"),
        sink("out", "orders", "\n      schema:\n        - { name: price, type: decimal, "
                              "scale: 2 }"))), {"orders.csv": """
            id,price
            a,2.125
            b,2.135
            c,-2.125
        """})
    assert [row["price"] for row in r.rows("out.csv")] == ["2.12", "2.14", "-2.12"]
