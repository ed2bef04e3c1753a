"""Dotted column names as JSON paths: a JSON source reads `customer.name` from the nested
object (a path no record has reads as null), and a JSON sink nests a dotted output
column under its prefix (`$ck.x` under `"$ck"`, `a\\.b` a literal dot), leaving out an
object whose every value is null (spec §2.7)."""

from __future__ import annotations

import json

from .pipelines import dlq, pipeline, run, sink, source, transform


def _json(text: str, source_name: str) -> str:
    return text.replace(f"type: csv\n      path: {{dir}}/{source_name}.csv",
                        f"type: json\n      path: {{dir}}/{source_name}.json", 1)


def _json_sink(text: str, sink_name: str) -> str:
    return text.replace(f"type: csv\n      path: {{dir}}/out/{sink_name}.csv",
                        f"type: json\n      path: {{dir}}/out/{sink_name}.json\n"
                        "      options: { format: ndjson }", 1)


def _lines(r, name: str) -> list[str]:
    return (r.dir / "out" / name).read_text(encoding="utf-8").splitlines()


def test_nested_fields_are_read_and_written_back_nested(executor, tmp_path):
    text = pipeline(
        source("orders", "id, customer.name: string?, customer.address.city: string?, "
               "customer.phone: string?"),
        transform("calc", "orders", "emit n = id.length()"),
        sink("out", "calc"))
    text = _json_sink(_json(text, "orders"), "out")
    r = run(executor, tmp_path, text, {"orders.json": json.dumps([
        {"id": "1", "customer": {"name": "Ada", "address": {"city": "Boston"}}},
        {"id": "22", "customer": {"name": "Bo"}},
        {"id": "333"}])})
    assert _lines(r, "out.json") == [
        '{"id":"1","customer":{"name":"Ada","address":{"city":"Boston"}},"n":1}',
        '{"id":"22","customer":{"name":"Bo"},"n":2}',
        '{"id":"333","n":3}']


def test_correlation_keys_nest_under_ck_and_an_escaped_dot_stays(executor, tmp_path):
    text = pipeline(
        source("orders", "id, cust", key="cust"),
        transform("calc", "orders", "emit n = 1"),
        sink("out", "calc", "\n      include_correlation_keys: true\n"
                            "      mapping:\n        - id\n        - 'a\\.b': n"))
    r = run(executor, tmp_path, _json_sink(text, "out"), {"orders.csv": """
        id,cust
        x,c1
    """})
    assert _lines(r, "out.json") == ['{"id":"x","a.b":1,"cust":"c1","$ck":{"cust":"c1"}}']


def test_a_json_null_is_kept_by_a_nullable_column_and_rejected_by_another(executor, tmp_path):
    """Clinker admits a null (a JSON null or an absent key) only in a nullable column or
    one of type any; a CSV's empty cell is the empty string instead."""
    text = _json(pipeline(source("orders", "id, note: string?, tag: any, label"),
                          sink("out", "orders")), "orders")
    r = run(executor, tmp_path, _json_sink(text, "out"), {"orders.json": json.dumps([
        {"id": "1", "note": None, "tag": None, "label": "x"},
        {"id": "2", "note": "", "label": ""},
        {"id": "3", "note": "n", "tag": "t", "label": None},
        {"id": "4", "note": "n", "tag": "t"}])})
    assert _lines(r, "out.json") == ['{"id":"1","label":"x"}',
                                     '{"id":"2","note":"","label":""}']
    assert dlq(r, ("id", "_cxl_dlq_triggering_field", "_cxl_dlq_stage")) == [
        ("3", "label", "source"), ("4", "label", "source")]


def test_undeclared_json_keys_are_carried_to_the_sinks(executor, tmp_path):
    """A JSON record's undeclared fields go to `$widened` (on_unmapped: auto_widen) and
    out through a sink with include_unmapped: an object flattened into dotted fields (as
    Clinker's reader does), a CSV cell holds a value's text, a JSON sink nests the dotted
    fields again and leaves out a field the record lacks."""
    text = _json(pipeline(source("orders", "id, qty: int"), sink("out", "orders"),
                          sink("copy", "orders")), "orders")
    r = run(executor, tmp_path, _json_sink(text, "copy"), {"orders.json": json.dumps([
        {"id": "a", "qty": 1, "tag": "x", "meta": {"k": 1}},
        {"id": "b", "qty": 2, "flag": True}])})
    assert r.rows("out.csv") == [
        {"id": "a", "qty": "1", "tag": "x", "meta.k": "1", "flag": ""},
        {"id": "b", "qty": "2", "tag": "", "meta.k": "", "flag": "true"}]
    assert _lines(r, "copy.json") == [
        '{"id":"a","qty":1,"tag":"x","meta":{"k":"1"}}',
        '{"id":"b","qty":2,"flag":"true"}']
