"""A sink's `sort_order` (spec §2.7; Clinker's pipeline/sort.rs): a stable sort of the
records it receives (ties keep their arrival order), each key asc or desc with its nulls
last unless `null_order: first`, whatever the direction; `null_order: drop` leaves out
the rows whose key is null (not DLQ entries)."""

from __future__ import annotations

from .pipelines import dlq, pipeline, run, run_fails, sink, source

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


# ---- a source's sort_order: the order of the records inside each file ---------------

def _sorted_source(policy: str = "") -> str:
    text = pipeline(source("s", "id, quantity: int"),
                    "\n  - type: aggregate\n    name: firsts\n    input: s\n    config:\n"
                    "      group_by: []\n      cxl: |\n        emit ids = collect(id)\n",
                    sink("out", "s"), sink("agg", "firsts"), name="sorted_source")
    return text.replace("      schema:", f"      sort_order: [id]\n{policy}      schema:", 1)


def test_a_sorted_source_arrives_in_key_order_and_keeps_its_row_numbers(executor, tmp_path):
    """Clinker's source_type_errors.rs ordered_attempt_staging_...: `b,2 / bad,x / a,1`
    with sort_order [id] writes a then b; the rejected row is DLQ row 2 (its line)."""
    r = run(executor, tmp_path, _sorted_source(),
            {"s.csv": "id,quantity\nb,2\nbad,not-an-int\na,1\n"})
    assert r.column("out.csv", "id") == ["a", "b"]
    assert r.column("agg.csv", "ids") == ["a;b"]  # collect(): arrival order
    assert [e[:3] for e in dlq(r)] == [("s", "2", "type_coercion_failure")]
    assert 'row=2 column=2' in r.rows("dlq.csv")[0]["_cxl_dlq_error_detail"]


def test_on_unsorted_error_refuses_an_unsorted_file(executor, tmp_path):
    policy = "      on_unsorted: error\n"
    ok = run(executor, tmp_path, _sorted_source(policy), {"s.csv": "id,quantity\na,1\nb,2\n"})
    assert ok.column("out.csv", "id") == ["a", "b"]
    err = run_fails(executor, tmp_path, _sorted_source(policy),
                    {"s.csv": "id,quantity\na,1\nc,3\nb,2\n"})
    assert err.diagnostics[0].code == "E366" and "rows 2 and 3" in err.diagnostics[0].message
