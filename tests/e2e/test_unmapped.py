"""Undeclared CSV columns (Clinker's `on_unmapped: auto_widen`, the default): carried in
`$widened` past CXL and written by a sink with `include_unmapped` (the default) after the
record's own columns; never in the DLQ, never through an aggregate."""

from __future__ import annotations

from .pipelines import (
    dlq,
    pipeline,
    project,
    route,
    run,
    run_fails,
    sink,
    source,
    step,
    transform,
    write_case,
)

ORDERS = """
    id,qty,region,note
    a,1,EU,first
    b,x,US,
    c,3,US,third
"""


def test_a_transform_and_a_route_carry_them_to_the_sinks(executor, tmp_path):
    r = run(executor, tmp_path, pipeline(
        source("orders", "id, qty: int"),
        transform("calc", "orders", "emit double = qty * 2"),
        route("split", "calc", "big", "qty > 2", "other"),
        sink("big", "split.big"), sink("other", "split.other")), {"orders.csv": ORDERS})
    assert r.rows("other.csv") == [{"id": "a", "qty": "1", "double": "2", "region": "EU",
                                    "note": "first"}]
    assert r.rows("big.csv") == [{"id": "c", "qty": "3", "double": "6", "region": "US",
                                  "note": "third"}]
    # the source type error's entry holds the declared columns only
    assert dlq(r, ("id", "_cxl_dlq_stage")) == [("b", "source")]
    assert "region" not in r.rows("dlq.csv")[0]


def test_region_is_read_by_cxl_only_when_declared(executor, tmp_path):
    """`$widened` is invisible to CXL: an undeclared name is an unknown field."""
    err = None
    try:
        run(executor, tmp_path, pipeline(
            source("orders", "id, qty: int"),
            transform("calc", "orders", "emit r = region"),
            sink("out", "calc")), {"orders.csv": ORDERS})
    except Exception as exc:  # noqa: BLE001
        err = exc
    assert err is not None and getattr(err, "diagnostics", None)


def test_include_unmapped_false_exclude_and_mapping(executor, tmp_path):
    r = run(executor, tmp_path, pipeline(
        source("orders", "id, qty: int"),
        sink("none", "orders", "\n      include_unmapped: false"),
        sink("some", "orders", "\n      exclude: [note]"),
        sink("mapped", "orders", "\n      mapping:\n        - id\n        - where: region")),
        {"orders.csv": ORDERS})
    assert r.rows("none.csv")[0] == {"id": "a", "qty": "1"}
    assert r.rows("some.csv")[0] == {"id": "a", "qty": "1", "region": "EU"}
    # mapped columns first, then (include_unmapped) the rest, undeclared ones included
    assert r.rows("mapped.csv")[0] == {"id": "a", "where": "EU", "qty": "1", "note": "first"}


def test_an_aggregate_drops_them(executor, tmp_path):
    r = run(executor, tmp_path, pipeline(
        source("orders", "id, qty: int"),
        step("aggregate", "totals", "orders", "emit n = count(*)",
             "\n      group_by: [id]"),
        sink("out", "totals")), {"orders.csv": ORDERS})
    assert r.rows("out.csv") == [{"id": "a", "n": "1"}, {"id": "c", "n": "1"}]


def test_the_compiled_source_names_them(tmp_path):
    text = pipeline(source("orders", "id, qty: int"), sink("out", "orders"))
    compiled = project(write_case(tmp_path, text, {"orders.csv": ORDERS})).compile(
        base=tmp_path)
    split = next(s for s in compiled.statements if s.name == "orders.split")
    assert "$widened (on_unmapped: auto_widen): `region`, `note`" in split.header
    assert "`$unmapped.0`" in split.sql


def test_a_declared_column_the_header_lacks_is_null_or_a_type_error(executor, tmp_path):
    """Clinker projects each record onto the schema: a declared column its file does not
    have is null, which a nullable (or `any`) column admits and any other column rejects
    ("null is not a valid Int", schema_coerce.rs); Spark would not resolve the column."""
    r = run(executor, tmp_path, pipeline(
        source("orders", "id, qty: int, missing: int?, label: string?"),
        transform("calc", "orders", 'emit none = missing == null and label == null'),
        sink("out", "calc")), {"orders.csv": ORDERS})
    assert r.rows("out.csv") == [
        {"id": "a", "qty": "1", "missing": "", "label": "", "none": "true", "region": "EU",
         "note": "first"},
        {"id": "c", "qty": "3", "missing": "", "label": "", "none": "true", "region": "US",
         "note": "third"}]
    assert dlq(r, ("id", "_cxl_dlq_stage")) == [("b", "source")]
    r = run(executor, tmp_path, pipeline(
        source("orders", "id, qty: int?, label"), sink("out", "orders")), {"orders.csv": ORDERS})
    assert not r.rows("out.csv")
    assert dlq(r, ("id", "_cxl_dlq_triggering_field", "_cxl_dlq_stage")) == [
        ("a", "label", "source"), ("b", "qty", "source"), ("c", "label", "source")]


def test_a_byte_order_mark_is_not_part_of_the_first_name(executor, tmp_path):
    (tmp_path / "orders.csv").write_bytes(b"\xef\xbb\xbfid,qty,region\na,1,EU\n")
    r = run(executor, tmp_path, pipeline(source("orders", "id, qty: int"), sink("out", "orders")),
            {})
    assert r.rows("out.csv") == [{"id": "a", "qty": "1", "region": "EU"}]


def test_on_unmapped_reject_fails_the_run_and_drop_strips(executor, tmp_path):
    text = pipeline(source("orders", "id, qty: int"), sink("out", "orders")).replace(
        "      schema:", "      on_unmapped: { mode: MODE }\n      schema:")
    err = run_fails(executor, tmp_path, text.replace("MODE", "reject"), {"orders.csv": ORDERS})
    assert err.diagnostics[0].code == "CS105" and err.exit_code == 4
    assert 'undeclared field "region"' in err.diagnostics[0].message
    assert not (tmp_path / "out" / "out.csv").exists()
    r = run(executor, tmp_path, text.replace("MODE", "drop"), {"orders.csv": ORDERS})
    assert r.rows("out.csv")[0] == {"id": "a", "qty": "1"}


def test_a_correlated_source_commits_them_and_keeps_them_out_of_collaterals(executor, tmp_path):
    r = run(executor, tmp_path, pipeline(
        source("orders", "id, cust, amount", key="cust"),
        transform("calc", "orders", "emit n = amount.to_int() + 1"), sink("out", "calc")),
        {"orders.csv": """
            id,cust,amount,region
            a,c1,1,EU
            b,c1,x,US
            c,c2,3,US
        """})
    assert r.rows("out.csv") == [{"id": "c", "cust": "c2", "amount": "3", "n": "4",
                                  "region": "US"}]
    entries = r.rows("dlq.csv")
    assert sorted((e["id"], e["_cxl_dlq_trigger"]) for e in entries) == [
        ("a", "false"), ("b", "true")]
    assert all("region" not in e for e in entries)


def test_a_json_key_no_record_has_is_null(executor, tmp_path):
    """Spark's JSON reader has a column only for keys some record has; Clinker reads a
    declared key that no record has as null."""
    # (a JSON null in a non-nullable string column is a type error: tests/e2e/test_json_paths.py)
    text = pipeline(source("orders", "id, qty: int, note: string?"), sink("out", "orders"))
    text = text.replace("type: csv\n      path: {dir}/orders.csv",
                        "type: json\n      path: {dir}/orders.json", 1)
    r = run(executor, tmp_path, text,
            {"orders.json": '[{"id": "a", "qty": 1}, {"id": "b", "qty": 2}]'})
    assert r.rows("out.csv") == [{"id": "a", "qty": "1", "note": ""},
                                 {"id": "b", "qty": "2", "note": ""}]


def _glob(text: str) -> str:
    return text.replace("path: {dir}/orders.csv", "glob: {dir}/orders_*.csv", 1)


def test_files_with_different_headers_fail_the_run_with_E217(executor, tmp_path):
    """Clinker takes a source's columns from its first file and stops at the first file
    whose header differs (a format error, exit 4); Spark would read that file's cells by
    position under the first header."""
    files = {"orders_1.csv": "id,qty\na,1\n", "orders_2.csv": "qty,id\n2,b\n"}
    err = run_fails(executor, tmp_path, _glob(pipeline(source("orders", "id, qty: int"),
                                                        sink("out", "orders"))), files)
    assert err.diagnostics[0].code == "E217" and err.exit_code == 4
    assert 'orders_2.csv": expected columns' in err.diagnostics[0].message
    assert not (tmp_path / "out" / "out.csv").exists()


def test_files_with_one_header_and_a_take_that_skips_the_odd_one_run(executor, tmp_path):
    files = {"orders_1.csv": "id,qty,note\na,1,x\n", "orders_2.csv": "id,qty,note\nb,2,y\n",
             "orders_3.csv": "id,tags\nc,t\n"}
    text = _glob(pipeline(source("orders", "id, qty: int"), sink("out", "orders")))
    r = run(executor, tmp_path, text.replace(
        "      schema:", "      files: { take_first: 2 }\n      schema:"), files)
    assert r.rows("out.csv") == [{"id": "a", "qty": "1", "note": "x"},
                                 {"id": "b", "qty": "2", "note": "y"}]
    # in descending order the odd file is the first: its header is the source's, and the
    # next file's differs
    err = run_fails(executor, tmp_path, text.replace(
        "      schema:", "      files: { sort_order: desc }\n      schema:"), files)
    assert err.diagnostics[0].code == "E217"
    assert "expected columns ['id', 'tags']" in err.diagnostics[0].message
