"""A sink's `sort_order` (spec §2.7; Clinker's pipeline/sort.rs): a stable sort of the
records it receives (ties keep their arrival order), each key asc or desc with its nulls
last unless `null_order: first`, whatever the direction; `null_order: drop` leaves out
the rows whose key is null (not DLQ entries)."""

from __future__ import annotations

from .pipelines import dlq, pipeline, run, sink, source

ROWS = "id,region,amount\na,eu,5\nb,,7\nc,us,5\nd,eu,9\ne,us,\nf,eu,5\n"


def _run(executor, tmp_path, keys: str):
    text = pipeline(source("s", "id, region: string?, amount: int?"),
                    sink("out", "s", "\n      sort_order:\n" + keys), name="sorted")
    return run(executor, tmp_path, text, {"s.csv": ROWS})


def test_keys_in_turn_with_ties_in_arrival_order(executor, tmp_path):
    r = _run(executor, tmp_path, "        - region\n"
                                 "        - { field: amount, order: desc }\n")
    # region asc (an empty string cell is "", not null); amount desc, its null last
    # though the direction is desc; a and f tie: arrival order
    assert r.column("out.csv", "id") == ["b", "d", "a", "f", "c", "e"]
    assert dlq(r) == []


def test_nulls_first_and_drop(executor, tmp_path):
    r = _run(executor, tmp_path, "        - { field: amount, null_order: first }\n"
                                 "        - { field: region, order: desc }\n")
    assert r.column("out.csv", "id") == ["e", "c", "a", "f", "b", "d"]
    r = _run(executor, tmp_path, "        - { field: amount, order: desc, null_order: drop }\n")
    assert r.column("out.csv", "id") == ["d", "b", "a", "c", "f"]  # e: null amount
    assert r.result.exit_code == 0 and dlq(r) == []
