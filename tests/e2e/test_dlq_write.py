"""The DLQ file is written by one compiled statement, whatever entries it holds.

Clinker lays the DLQ file out from the entries it writes: a record layout's own columns in
schema order when every entry has that layout, else the sorted union of the record
columns. The write decides it over the entries (codegen/dlq.py::_dlq_write). These tests
compare the whole file, header included, byte for byte (each entry's id and timestamp, new
in every run, masked; the temporary folder shown as `{dir}`) with what the earlier
one-write-per-layout form wrote.
"""

from __future__ import annotations

import re
from pathlib import Path

from clinker_sql.project import Project

from .pipelines import pipeline, run, sink, source, transform

_ID_AND_TIME = re.compile(
    r"^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12},"
    r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ,", re.M)


def _dlq_bytes(r) -> str | None:
    path = r.dir / "out" / "dlq.csv"
    if not path.exists():
        return None
    text = path.read_bytes().decode("utf-8")
    return _ID_AND_TIME.sub("<id>,<time>,", text).replace(str(r.dir), "{dir}")


def _check(r, expected: str) -> None:
    assert _dlq_bytes(r) == expected


HEAD = ("_cxl_dlq_id,_cxl_dlq_timestamp,_cxl_dlq_source_file,_cxl_dlq_source_name,"
        "_cxl_dlq_source_row,_cxl_dlq_triggering_field,_cxl_dlq_triggering_value,")
REASON = "_cxl_dlq_error_category,_cxl_dlq_error_detail,"
TAIL = "_cxl_dlq_stage,_cxl_dlq_route,_cxl_dlq_trigger"


# one record layout: a source-type rejection and a transform failure, both of `orders`
ONE = pipeline(source("orders", "id, qty: int, note"),
               transform("calc", "orders", "emit id = id\nemit n = note.to_int()"),
               sink("out", "calc"))
ONE_FILES = {"orders.csv": 'id,qty,note\na,1,7\nb,x,8\nc,3,"he said ""hi"", ok"\nd,4,9\n'}

# two sources of different record columns; one column's name needs quoting in the header
TWO = pipeline(source("orders", "qty: int, id"), source("items", "sku, price: int, id"),
               sink("o", "orders"), sink("i", "items")).replace(
    "name: price", 'name: "pr,ice"')


def _items(bad: bool) -> dict[str, str]:
    return {"items.csv": 'sku,"pr,ice",id\ns1,10,a\ns2,' + ("zz" if bad else "20") + ",b\n"}


def test_one_layout(executor, tmp_path):
    r = run(executor, tmp_path, ONE, ONE_FILES)
    _check(r, (
        HEAD + REASON + TAIL + ',id,qty,note\n'
        '<id>,<time>,{dir}/orders.csv,orders,2,qty,x,type_coercion_failure,'
        '"[E126] source=""orders"" file=""{dir}/orders.csv"" row=2 column=2 field'
        '=""qty"" declared_type=Int: value ""x"" is not a valid Int",source,,'
        'true,b,x,8\n'
        '<id>,<time>,{dir}/orders.csv,orders,3,n,"he said ""hi"", ok",'
        'type_coercion_failure,'
        '"row 3: field \'n\': conversion failed: cannot convert \'he said ""hi"",'
        ' ok\' to Int",transform:calc,,true,c,3,"he said ""hi"", ok"\n'))


def test_two_layouts_present_write_the_sorted_union(executor, tmp_path):
    r = run(executor, tmp_path, TWO, {"orders.csv": "qty,id\n1,a\nx,b\n", **_items(True)})
    _check(r, (
        HEAD + REASON + TAIL + ',id,"pr,ice",qty,sku\n'
        '<id>,<time>,{dir}/orders.csv,orders,2,qty,x,type_coercion_failure,'
        '"[E126] source=""orders"" file=""{dir}/orders.csv"" row=2 column=1 field'
        '=""qty"" declared_type=Int: value ""x"" is not a valid Int",source,,'
        'true,b,,x,\n'
        '<id>,<time>,{dir}/items.csv,items,2,"pr,ice",zz,type_coercion_failure,'
        '"[E126] source=""items"" file=""{dir}/items.csv"" row=2 column=2 field="'
        '"pr,ice"" declared_type=Int: value ""zz"" is not a valid Int",source,,'
        'true,b,zz,,s2\n'))


def test_one_of_two_layouts_present_keeps_its_schema_order(executor, tmp_path):
    r = run(executor, tmp_path, TWO, {"orders.csv": "qty,id\n1,a\n2,b\n", **_items(True)})
    _check(r, (
        HEAD + REASON + TAIL + ',sku,"pr,ice",id\n'
        '<id>,<time>,{dir}/items.csv,items,2,"pr,ice",zz,type_coercion_failure,'
        '"[E126] source=""items"" file=""{dir}/items.csv"" row=2 column=2 field="'
        '"pr,ice"" declared_type=Int: value ""zz"" is not a valid Int",source,,'
        'true,s2,zz,b\n'))


def test_no_entry_writes_no_file(executor, tmp_path):
    r = run(executor, tmp_path, TWO, {"orders.csv": "qty,id\n1,a\n", **_items(False)})
    assert _dlq_bytes(r) is None


def test_without_reason_and_record(executor, tmp_path):
    text = TWO.replace("out/dlq.csv", "out/dlq.csv\n    include_reason: false\n"
                       "    include_source_row: false")
    r = run(executor, tmp_path, text, {"orders.csv": "qty,id\n1,a\nx,b\n", **_items(True)})
    _check(r, (
        HEAD + TAIL + '\n'
        '<id>,<time>,{dir}/orders.csv,orders,2,qty,x,source,,true\n'
        '<id>,<time>,{dir}/items.csv,items,2,"pr,ice",zz,source,,true\n'))


def test_without_reason_one_layout(executor, tmp_path):
    text = TWO.replace("out/dlq.csv", "out/dlq.csv\n    include_reason: false")
    r = run(executor, tmp_path, text, {"orders.csv": "qty,id\n1,a\nx,b\n", **_items(False)})
    _check(r, (
        HEAD + TAIL + ',qty,id\n'
        '<id>,<time>,{dir}/orders.csv,orders,2,qty,x,source,,true,x,b\n'))


DOCUMENTS = pipeline(
    source("orders", "id, qty"), source("other", "id, qty: int, extra"),
    transform("calc", "orders", "emit id = id\nemit n = qty.to_int()\nfilter id != \"e\""),
    sink("out", "calc"), sink("o2", "other")).replace(
    "path: {dir}/orders.csv", "glob: {dir}/orders_*.csv\n      dlq_granularity: document", 1)
DOCUMENT_FILES = {
    "orders_1.csv": "id,qty\na,1\nb,x\nc,3\nd,y\ne,5\n",  # two failures: rejected
    "orders_2.csv": "id,qty\nf,6\ng,7\n",  # clean: written
    "other.csv": "id,qty,extra\nh,z,p\ni,9,q\n",  # record granularity
}


def test_document_granularity(executor, tmp_path):
    r = run(executor, tmp_path, DOCUMENTS, DOCUMENT_FILES)
    _check(r, (
        HEAD + REASON + TAIL + ',extra,id,n,qty\n'
        '<id>,<time>,{dir}/orders_1.csv,orders,1,,,document_rejected,'
        '"document ""{dir}/orders_1.csv"" rejected: a sibling record failed",'
        'document_dlq,,false,,a,1,1\n'
        '<id>,<time>,{dir}/orders_1.csv,orders,2,n,x,type_coercion_failure,'
        "row 2: field 'n': conversion failed: cannot convert 'x' to Int,"
        'transform:calc,,true,,b,,x\n'
        '<id>,<time>,{dir}/orders_1.csv,orders,3,,,document_rejected,'
        '"document ""{dir}/orders_1.csv"" rejected: a sibling record failed",'
        'document_dlq,,false,,c,3,3\n'
        '<id>,<time>,{dir}/orders_1.csv,orders,4,,,document_rejected,'
        '"document ""{dir}/orders_1.csv"" rejected: a sibling record failed",'
        'document_dlq,,false,,d,,y\n'
        '<id>,<time>,{dir}/other.csv,other,1,qty,z,type_coercion_failure,'
        '"[E126] source=""other"" file=""{dir}/other.csv"" row=1 column=2 field="'
        '"qty"" declared_type=Int: value ""z"" is not a valid Int",source,,true,'
        'p,h,,z\n'))


def test_one_dlq_write_per_compiled_folder(tmp_path):
    """Each example compiles to a single DLQ write, whatever layouts its entries may
    have (order_routing: three)."""
    examples = Path(__file__).resolve().parents[2] / "examples"
    for name in ("order_routing", "retract_orders", "employee_tiers"):
        compiled = Project(examples / name / "pipeline.yaml", tmp_path / name).compile()
        writes = [s for s in compiled.statements if s.kind == "write" and s.step.dlq]
        assert len(writes) == 1, name
        folder = Project(examples / name / "pipeline.yaml", tmp_path / name).write(compiled)
        assert len([f for f in (folder / "engine").glob("*.sql")
                    if re.fullmatch(r"\d+_dlq(\..*)?\.sql", f.name)]) == 1, name
