"""`dlq_granularity: document`: a failure rejects its whole file (clinker-exec
document_dlq.rs). The file's first failure is the trigger, a later one a collateral, and
each record of the file a sink received a `document_rejected` collateral (stage
`document_dlq`), once per source row; other files, other sources and `<merged>` rows
(an aggregate's) are written as they are."""

from __future__ import annotations

from .pipelines import dlq, pipeline, run, sink, source, step, transform

ENTRY = ("_cxl_dlq_source_name", "_cxl_dlq_source_row", "_cxl_dlq_error_category",
         "_cxl_dlq_stage", "_cxl_dlq_trigger")


def _documents(text: str, name: str = "orders") -> str:
    return text.replace(f"path: {{dir}}/{name}.csv",
                        f"glob: {{dir}}/{name}_*.csv\n      dlq_granularity: document", 1)


FILES = {
    "orders_1.csv": "id,qty\na,1\nb,x\nc,3\nd,y\ne,5\n",  # two failures: rejected
    "orders_2.csv": "id,qty\nf,6\ng,7\n",  # clean: written
    "other.csv": "id,qty\nh,z\ni,9\n",  # record granularity: only h is in the DLQ
}


MERGE_AND_ROUTE = """
  - type: merge
    name: both
    inputs: [orders, other]
  - type: route
    name: split
    input: calc
    config:
      mode: inclusive
      conditions:
        big: "n > 0"
        small: "n < 100"
      default: none
"""


def test_a_failing_record_rejects_its_file_once_across_sinks(executor, tmp_path):
    text = _documents(pipeline(
        source("orders", "id, qty"), source("other", "id, qty"), MERGE_AND_ROUTE,
        transform("calc", "both", "emit n = qty.to_int()\nfilter id != \"e\""),
        sink("big", "split.big"), sink("small", "split.small")))
    r = run(executor, tmp_path, text, FILES)
    assert sorted(row["id"] for row in r.rows("big.csv")) == ["f", "g", "i"]
    assert sorted(row["id"] for row in r.rows("small.csv")) == ["f", "g", "i"]
    assert sorted(dlq(r, ENTRY)) == [
        # b is the file's trigger; d failed later; a and c reached both sinks, once each;
        # e was filtered out and has no entry
        ("orders", "1", "document_rejected", "document_dlq", "false"),
        ("orders", "2", "type_coercion_failure", "transform:calc", "true"),
        ("orders", "3", "document_rejected", "document_dlq", "false"),
        ("orders", "4", "document_rejected", "document_dlq", "false"),
        ("other", "1", "type_coercion_failure", "transform:calc", "true")]


def test_a_source_type_error_comes_first_and_aggregates_are_not_governed(executor, tmp_path):
    text = _documents(pipeline(
        source("orders", "id, qty: int"),
        transform("calc", "orders", "emit n = 10 / (qty - 1)"),
        step("aggregate", "total", "calc", "emit rows = count(*)", "\n      group_by: []"),
        sink("out", "calc"), sink("sums", "total")))
    r = run(executor, tmp_path, text, {"orders_1.csv": "id,qty\na,1\nb,x\nc,3\n",
                                       "orders_2.csv": "id,qty\nd,2\n"})
    assert [row["id"] for row in r.rows("out.csv")] == ["d"]
    # a's division by zero comes after b's type error (the source ran first): b is the
    # trigger. The aggregate's rows (one per file) are <merged>: written, the rejected
    # file's with c in it
    assert r.rows("sums.csv") == [{"rows": "1"}, {"rows": "1"}]
    assert sorted(dlq(r, ENTRY)) == [
        ("orders", "1", "document_rejected", "document_dlq", "false"),
        ("orders", "2", "type_coercion_failure", "source", "true"),
        ("orders", "3", "document_rejected", "document_dlq", "false")]
