"""Combine nodes end to end (spec §2.6): match modes, on_miss, propagate_ck, DLQ.

Every pipeline lives in tmp_path with absolute paths: the shared JVM's working
directory is not the test's.
"""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest

from clinker_sql.diagnostics import DiagnosticError

from .pipelines import project

ORDERS = "order_id,product_id,quantity\nORD-1,PROD-A,5\nORD-2,PROD-B,3\nORD-3,PROD-X,7\n"
PRODUCTS = "product_id,product_name\nPROD-A,Widget\nPROD-B,Gadget\nPROD-A,WidgetV2\n"
ORDER_SCHEMA = ("order_id: string", "product_id: string", "quantity: int")
PRODUCT_SCHEMA = ("product_id: string", "product_name: string")


def source(tmp: Path, name: str, data: str, schema: tuple[str, ...], ck: str = "") -> str:
    path = tmp / "data" / f"{name}.csv"
    path.parent.mkdir(exist_ok=True)
    path.write_text(data, encoding="utf-8")
    cols = "\n".join(f"        - {{ name: {c.split(':')[0]}, type: {c.split(':')[1].strip()} }}"
                     for c in schema)
    key = f"\n      correlation_key: {ck}" if ck else ""
    return (f"  - type: source\n    name: {name}\n    config:\n      name: {name}\n"
            f"      type: csv\n      path: \"{path}\"{key}\n      schema:\n{cols}\n")


def combine(name: str, inputs: str, where: str, cxl: str, **config: str) -> str:
    extra = "".join(f"      {k}: {v}\n" for k, v in config.items())
    body = "".join(f"        {line}\n" for line in cxl.strip().splitlines()) if cxl else ""
    cxl_yaml = f"      cxl: |\n{body}" if cxl else "      cxl: \"\"\n"
    return (f"  - type: combine\n    name: {name}\n    input: {inputs}\n    config:\n"
            f"      where: \"{where}\"\n{extra}{cxl_yaml}")


def sink(tmp: Path, name: str, input_: str, fmt: str = "csv", **config: str) -> str:
    ext = "ndjson" if fmt == "json" else fmt
    extra = "".join(f"      {k}: {v}\n" for k, v in config.items())
    opts = "      options: { format: ndjson }\n" if fmt == "json" else ""
    return (f"  - type: sink\n    name: {name}\n    input: {input_}\n    config:\n"
            f"      name: {name}\n      type: {fmt}\n      path: \"{tmp / 'out' / name}.{ext}\"\n"
            f"{opts}{extra}")


def pipeline(tmp: Path, *nodes: str, strategy: str = "fail_fast") -> Path:
    (tmp / "out").mkdir(exist_ok=True)
    handling = ""
    if strategy == "continue":
        handling = (f"error_handling:\n  strategy: continue\n  dlq:\n"
                    f"    path: \"{tmp / 'out' / 'dlq.csv'}\"\n")
    text = f"pipeline:\n  name: combine_test\n{handling}nodes:\n" + "".join(nodes)
    path = tmp / "pipeline.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def run(tmp: Path, executor, *nodes: str, strategy: str = "fail_fast"):
    file = pipeline(tmp, *nodes, strategy=strategy)
    return project(file, tmp / "target").run(executor=executor, base=tmp)


def rows(path: Path) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(path.read_text(encoding="utf-8"))))


def table(path: Path, *columns: str) -> list[tuple[str, ...]]:
    return sorted(tuple(r[c] for c in columns) for r in rows(path))


ENRICH = """
emit order_id = orders.order_id
emit product_name = products.product_name
emit quantity = orders.quantity
"""


def _orders_products(tmp: Path, products: str = PRODUCTS) -> tuple[str, str]:
    return (source(tmp, "orders", ORDERS, ORDER_SCHEMA),
            source(tmp, "products", products, PRODUCT_SCHEMA))


# ---- match modes ---------------------------------------------------------------------------

def test_first_null_fields_picks_the_newest_build_row_as_clinkers_hash_kernel(tmp_path,
                                                                             executor):
    # equality keys only: Clinker's hash table walks a key's rows newest-first
    result = run(tmp_path, executor, *_orders_products(tmp_path),
                 combine("enrich", "{ orders: orders, products: products }",
                         "orders.product_id == products.product_id", ENRICH,
                         propagate_ck="driver"),
                 sink(tmp_path, "result", "enrich"))
    assert result.exit_code == 0
    out = tmp_path / "out" / "result.csv"
    assert out.read_text().splitlines()[0] == "order_id,product_name,quantity"
    assert table(out, "order_id", "product_name", "quantity") == [
        ("ORD-1", "WidgetV2", "5"), ("ORD-2", "Gadget", "3"), ("ORD-3", "", "7")]
    assert result.counts["written"] == 3


def test_all_fans_out_and_skip_drops_misses(tmp_path, executor):
    result = run(tmp_path, executor, *_orders_products(tmp_path),
                 combine("enrich", "{ orders: orders, products: products }",
                         "orders.product_id == products.product_id", ENRICH,
                         match="all", on_miss="skip", propagate_ck="driver"),
                 sink(tmp_path, "result", "enrich"))
    assert result.exit_code == 0
    # in Clinker's order: by driver row, then a driver's matches newest build row first
    assert [(r["order_id"], r["product_name"]) for r in rows(tmp_path / "out" / "result.csv")] \
        == [("ORD-1", "WidgetV2"), ("ORD-1", "Widget"), ("ORD-2", "Gadget")]


def test_all_null_fields_keeps_unmatched_driver(tmp_path, executor):
    run(tmp_path, executor, *_orders_products(tmp_path),
        combine("enrich", "{ orders: orders, products: products }",
                "orders.product_id == products.product_id", ENRICH,
                match="all", propagate_ck="driver"),
        sink(tmp_path, "result", "enrich"))
    assert table(tmp_path / "out" / "result.csv", "order_id", "product_name") == [
        ("ORD-1", "Widget"), ("ORD-1", "WidgetV2"), ("ORD-2", "Gadget"), ("ORD-3", "")]


def test_collect_builds_array_named_after_build_qualifier(tmp_path, executor):
    run(tmp_path, executor, *_orders_products(tmp_path),
        combine("collected", "{ orders: orders, products: products }",
                "orders.product_id == products.product_id", "",
                match="collect", propagate_ck="driver"),
        sink(tmp_path, "result", "collected", fmt="json"))
    lines = (tmp_path / "out" / "result.ndjson").read_text().splitlines()
    records = {r["order_id"]: r for r in map(json.loads, lines)}
    assert list(records["ORD-1"]) == ["order_id", "product_id", "quantity", "products"]
    # Clinker's hash kernel lists a key's build rows newest first
    assert records["ORD-1"]["products"] == [
        {"product_id": "PROD-A", "product_name": "WidgetV2"},
        {"product_id": "PROD-A", "product_name": "Widget"}]
    assert records["ORD-1"]["quantity"] == 5
    assert records["ORD-3"]["products"] == []  # a miss is an empty array, not null


@pytest.mark.parametrize("ranges,expected", [
    # one or two ranges: Clinker's range join never applies `b.label != 'any'`
    # (iejoin.rs: the leftover condition is re-checked only past two range conjuncts)
    ("o.quantity >= b.low and o.quantity < b.high",
     [("O1", "small"), ("O2", "large"), ("O3", "any"), ("O4", "")]),
    # three: the rest of the where-clause, the residual included, is checked
    ("o.quantity >= b.low and o.quantity < b.high and o.quantity <= b.high",
     [("O1", "small"), ("O2", "large"), ("O3", ""), ("O4", "")])])
def test_residual_and_range_conditions(tmp_path, executor, ranges, expected):
    brackets = "tier,low,high,label\nA,0,4,small\nA,4,100,large\nB,0,100,any\n"
    orders = "order_id,tier,quantity\nO1,A,3\nO2,A,7\nO3,B,5\nO4,A,200\n"
    run(tmp_path, executor,
        source(tmp_path, "orders", orders, ("order_id: string", "tier: string", "quantity: int")),
        source(tmp_path, "brackets", brackets,
               ("tier: string", "low: int", "high: int", "label: string")),
        combine("banded", "{ o: orders, b: brackets }",
                f"o.tier == b.tier and {ranges} and b.label != 'any'",
                "emit order_id = o.order_id\nemit label = b.label", propagate_ck="driver"),
        sink(tmp_path, "result", "banded"))
    assert table(tmp_path / "out" / "result.csv", "order_id", "label") == expected
    warned = [w.code for w in project(tmp_path / "pipeline.yaml", tmp_path / "t2").compile()
              .warnings]
    assert warned == (["CS050"] if ranges.count(" and ") == 1 else [])


@pytest.mark.parametrize("match,expected", [
    ("all", [("-10", "-4"), ("-10", "8"), ("-5", "-4")]),
    ("first", [("-10", "-4"), ("-5", "-4")])])
def test_a_range_without_equality_or_residual(tmp_path, executor, match, expected):
    """Clinker's combine_abs_int_pair_range_matches: |x| >= |y|, both int (the range is
    the whole join condition; abs of an int resolves to an int axis)."""
    run(tmp_path, executor,
        source(tmp_path, "a", "x\n-5\n3\n-10\n", ("x: int",)),
        source(tmp_path, "b", "y\n-4\n8\n", ("y: int",)),
        combine("banded", "{ a: a, b: b }", "a.x.abs() >= b.y.abs()",
                "emit ax = a.x\nemit bx = b.y", match=match, on_miss="skip",
                propagate_ck="driver"),
        sink(tmp_path, "result", "banded"))
    assert table(tmp_path / "out" / "result.csv", "ax", "bx") == expected


@pytest.mark.parametrize("where,types", [
    ("a.x < b.y", ("x: string", "y: string")),            # not orderable
    ("a.x.abs() >= b.y.abs()", ("x: int", "y: float")),   # abs(int) vs abs(float)
    ("a.x.min(a.f) >= b.y", ("x: int", "y: int")),        # min(int, float): either type
])
def test_a_range_that_cannot_be_ordered_is_e327(tmp_path, executor, where, types):
    with pytest.raises(DiagnosticError) as info:
        run(tmp_path, executor,
            source(tmp_path, "a", "x,f\n", (types[0], "f: float")),
            source(tmp_path, "b", "y\n", (types[1],)),
            combine("banded", "{ a: a, b: b }", where, "emit ax = a.x",
                    on_miss="skip", propagate_ck="driver"),
            sink(tmp_path, "result", "banded"))
    assert info.value.diagnostics[0].code == "E327"


def test_comparisons_guarded_by_coalesce_false_still_join(tmp_path, executor):
    """Clinker's iejoin_null_ranges fixture: `(...) ?? false` around the keys and ranges;
    a null income matches nothing and keeps the driver row with null build fields."""
    brackets = "tier,low,high,label\nA,0,4,small\nA,4,100,large\n"
    orders = "order_id,tier,quantity\nO1,A,3\nO2,A,n/a\nO3,A,7\n"
    run(tmp_path, executor,
        source(tmp_path, "orders", orders,
               ("order_id: string", "tier: string", "quantity: string")),
        source(tmp_path, "brackets", brackets,
               ("tier: string", "low: int", "high: int", "label: string")),
        combine("banded", "{ o: orders, b: brackets }",
                "(o.tier == b.tier and o.quantity.try_int() >= b.low "
                "and o.quantity.try_int() < b.high) ?? false",
                "emit order_id = o.order_id\nemit label = b.label", propagate_ck="driver"),
        sink(tmp_path, "result", "banded"))
    assert table(tmp_path / "out" / "result.csv", "order_id", "label") == [
        ("O1", "small"), ("O2", ""), ("O3", "large")]


def test_drive_selects_the_driver(tmp_path, executor):
    run(tmp_path, executor, *_orders_products(tmp_path),
        combine("enrich", "{ orders: orders, products: products }",
                "orders.product_id == products.product_id",
                "emit product_name = products.product_name\nemit order_id = orders.order_id",
                drive="products", on_miss="skip", propagate_ck="driver"),
        sink(tmp_path, "result", "enrich"))
    assert table(tmp_path / "out" / "result.csv", "product_name", "order_id") == [
        ("Gadget", "ORD-2"), ("Widget", "ORD-1"), ("WidgetV2", "ORD-1")]


def test_keys_of_disjoint_types_are_a_type_error(tmp_path, executor):
    """Clinker's typecheck refuses `int == string` (cxl typecheck/pass.rs: provably
    different types can never be equal), in a combine's where-clause as anywhere."""
    with pytest.raises(DiagnosticError) as info:
        run(tmp_path, executor,
            source(tmp_path, "a", "id,v\n1,x\n", ("id: int", "v: string")),
            source(tmp_path, "b", "id,label\n1,one\n", ("id: string", "label: string")),
            combine("j", "{ a: a, b: b }", "a.id == b.id",
                    "emit v = a.v\nemit label = b.label", propagate_ck="driver"),
            sink(tmp_path, "result", "j"))
    assert info.value.diagnostics[0].code == "E200"


# ---- on_miss: error ------------------------------------------------------------------------

def test_on_miss_error_aborts_with_e319(tmp_path, executor):
    with pytest.raises(DiagnosticError) as info:
        run(tmp_path, executor, *_orders_products(tmp_path),
            combine("enrich", "{ orders: orders, products: products }",
                    "orders.product_id == products.product_id", ENRICH,
                    on_miss="error", propagate_ck="driver"),
            sink(tmp_path, "result", "enrich"))
    diag = info.value.diagnostics[0]
    assert diag.code == "E319" and diag.exit_code == 1
    assert "driver row 3" in diag.message
    assert not (tmp_path / "out" / "result.csv").exists()


def test_on_miss_error_passes_when_every_driver_matches(tmp_path, executor):
    orders = "order_id,product_id,quantity\nORD-1,PROD-A,5\n"
    result = run(tmp_path, executor, source(tmp_path, "orders", orders, ORDER_SCHEMA),
                 source(tmp_path, "products", PRODUCTS, PRODUCT_SCHEMA),
                 combine("enrich", "{ orders: orders, products: products }",
                         "orders.product_id == products.product_id", ENRICH,
                         on_miss="error", propagate_ck="driver"),
                 sink(tmp_path, "result", "enrich"))
    assert result.exit_code == 0
    assert table(tmp_path / "out" / "result.csv", "order_id", "product_name") == [
        ("ORD-1", "WidgetV2")]


# ---- propagate_ck --------------------------------------------------------------------------

CK_ORDERS = "order_id,cust,amt\nO1,C1,10\nO2,C2,20\n"
CK_CUSTOMERS = "cust,region\nC1,west\nC2,east\n"


def _ck_run(tmp: Path, executor, propagate: str, cust_ck: str = "cust") -> list[str]:
    run(tmp, executor,
        source(tmp, "orders", CK_ORDERS, ("order_id: string", "cust: string", "amt: int"),
               ck="order_id"),
        source(tmp, "customers", CK_CUSTOMERS, ("cust: string", "region: string"), ck=cust_ck),
        combine("enriched", "{ o: orders, c: customers }", "o.cust == c.cust",
                "emit order_id = o.order_id\nemit region = c.region", propagate_ck=propagate),
        sink(tmp, "result", "enriched", include_correlation_keys="true"))
    return (tmp / "out" / "result.csv").read_text().splitlines()


def test_propagate_ck_driver(tmp_path, executor):
    lines = _ck_run(tmp_path, executor, "driver")
    assert lines[0] == "order_id,region,$ck.order_id"
    assert sorted(lines[1:]) == ["O1,west,O1", "O2,east,O2"]


def test_propagate_ck_all(tmp_path, executor):
    lines = _ck_run(tmp_path, executor, "all")
    assert lines[0] == "order_id,region,$ck.order_id,$ck.cust"
    assert sorted(lines[1:]) == ["O1,west,O1,C1", "O2,east,O2,C2"]


def test_propagate_ck_named(tmp_path, executor):
    assert _ck_run(tmp_path, executor, "{ named: [nope] }")[0] == \
        "order_id,region,$ck.order_id"
    lines = _ck_run(tmp_path, executor, "{ named: [cust] }")
    assert lines[0] == "order_id,region,$ck.order_id,$ck.cust"
    assert sorted(lines[1:]) == ["O1,west,O1,C1", "O2,east,O2,C2"]


def test_propagate_ck_driver_wins_a_name_collision(tmp_path, executor):
    # both sources key on a field named `cust`, with different values for the joined rows
    run(tmp_path, executor,
        source(tmp_path, "orders", "order_id,cust,cid\nO1,C1,X\n",
               ("order_id: string", "cust: string", "cid: string"), ck="cust"),
        source(tmp_path, "customers", "cust,region,cid\nK1,west,X\n",
               ("cust: string", "region: string", "cid: string"), ck="cust"),
        combine("enriched", "{ c: customers, o: orders }", "o.cid == c.cid",
                "emit order_id = o.order_id\nemit region = c.region",
                drive="o", propagate_ck="all"),
        sink(tmp_path, "result", "enriched", include_correlation_keys="true"))
    lines = (tmp_path / "out" / "result.csv").read_text().splitlines()
    assert lines == ["order_id,region,$ck.cust", "O1,west,C1"]


# ---- evaluation failures and the DLQ -------------------------------------------------------

DRV = "id,amt\n1,10\n2,20\n3,30\n"
BLD = "id,factor\n3,5\n1,2\n2,0\n2,4\n"
# the same rows, id=2's in the other order: Clinker's hash kernel meets the newest build
# row of a key first, so `first` picks factor 0 (row 4) here
BLD_NEWEST_FAILS = "id,factor\n3,5\n1,2\n2,4\n2,0\n"


def test_all_fanout_failure_dead_letters_the_driver_row(tmp_path, executor):
    result = run(tmp_path, executor,
                 source(tmp_path, "src_drv", DRV, ("id: int", "amt: int")),
                 source(tmp_path, "src_bld", BLD, ("id: int", "factor: int")),
                 combine("enriched", "{ d: src_drv, b: src_bld }", "d.id == b.id",
                         "emit id = d.id\nemit ratio = d.amt / b.factor",
                         match="all", on_miss="skip", propagate_ck="driver"),
                 sink(tmp_path, "out", "enriched"), strategy="continue")
    assert result.exit_code == 2
    # driver id=2 matches factor 0 (fails) and factor 4 (fine): no row survives for it
    assert table(tmp_path / "out" / "out.csv", "id", "ratio") == [("1", "5"), ("3", "6")]
    dlq = rows(tmp_path / "out" / "dlq.csv")
    got = sorted((r["_cxl_dlq_source_name"], r["_cxl_dlq_source_row"],
                  r["_cxl_dlq_error_category"], r["_cxl_dlq_stage"], r["_cxl_dlq_trigger"],
                  r["_cxl_dlq_triggering_field"]) for r in dlq)
    assert got == [
        ("src_bld", "3", "combine_output_row", "combine:enriched", "false", ""),
        ("src_drv", "2", "combine_output_row", "combine:enriched", "true", "ratio")]
    driver = next(r for r in dlq if r["_cxl_dlq_source_name"] == "src_drv")
    assert driver["amt"] == "20" and driver["_cxl_dlq_source_file"].endswith("src_drv.csv")
    assert "division by zero" in driver["_cxl_dlq_error_detail"]
    build = next(r for r in dlq if r["_cxl_dlq_source_name"] == "src_bld")
    assert build["factor"] == "0"
    assert result.counts == {"total": 7, "ok": 2, "written": 2, "dlq": 2}


def test_first_fails_only_on_the_chosen_match(tmp_path, executor):
    # under `first` id=2 uses its newest build row (factor 0) and fails; 1 and 3 pass
    run(tmp_path, executor,
        source(tmp_path, "src_drv", DRV, ("id: int", "amt: int")),
        source(tmp_path, "src_bld", BLD_NEWEST_FAILS, ("id: int", "factor: int")),
        combine("enriched", "{ d: src_drv, b: src_bld }", "d.id == b.id",
                "emit id = d.id\nemit ratio = d.amt / b.factor", propagate_ck="driver"),
        sink(tmp_path, "out", "enriched"), strategy="continue")
    assert table(tmp_path / "out" / "out.csv", "id", "ratio") == [("1", "5"), ("3", "6")]
    assert sorted((r["_cxl_dlq_source_name"], r["_cxl_dlq_source_row"])
                  for r in rows(tmp_path / "out" / "dlq.csv")) == [("src_bld", "4"),
                                                                   ("src_drv", "2")]


def test_first_takes_the_newest_build_row_and_passes(tmp_path, executor):
    # BLD: id=2's newest row is factor 4, so `first` never meets factor 0
    run(tmp_path, executor,
        source(tmp_path, "src_drv", DRV, ("id: int", "amt: int")),
        source(tmp_path, "src_bld", BLD, ("id: int", "factor: int")),
        combine("enriched", "{ d: src_drv, b: src_bld }", "d.id == b.id",
                "emit id = d.id\nemit ratio = d.amt / b.factor", propagate_ck="driver"),
        sink(tmp_path, "out", "enriched"), strategy="continue")
    assert table(tmp_path / "out" / "out.csv", "id", "ratio") == [("1", "5"), ("2", "5"),
                                                                  ("3", "6")]
    assert not (tmp_path / "out" / "dlq.csv").exists()


def test_failure_under_fail_fast_exits_3(tmp_path, executor):
    with pytest.raises(DiagnosticError) as info:
        run(tmp_path, executor,
            source(tmp_path, "src_drv", DRV, ("id: int", "amt: int")),
            source(tmp_path, "src_bld", BLD_NEWEST_FAILS, ("id: int", "factor: int")),
            combine("enriched", "{ d: src_drv, b: src_bld }", "d.id == b.id",
                    "emit id = d.id\nemit ratio = d.amt / b.factor", propagate_ck="driver"),
            sink(tmp_path, "out", "enriched"))
    assert info.value.diagnostics[0].exit_code == 3
    assert "combine:enriched" in info.value.diagnostics[0].message


def test_grouped_failure_parks_both_rows_in_their_groups(tmp_path, executor):
    """Clinker's combine_grouped_output_row_dlq: CK on both sources, id=2 fails."""
    result = run(tmp_path, executor,
                 source(tmp_path, "src_drv", DRV, ("id: int", "amt: int"), ck="id"),
                 source(tmp_path, "src_bld", "id,factor\n3,5\n1,2\n2,0\n",
                        ("id: int", "factor: int"), ck="id"),
                 combine("enriched", "{ d: src_drv, b: src_bld }", "d.id == b.id",
                         "emit id = d.id\nemit ratio = d.amt / b.factor",
                         on_miss="skip", propagate_ck="driver"),
                 sink(tmp_path, "out", "enriched"), strategy="continue")
    assert result.exit_code == 2
    assert table(tmp_path / "out" / "out.csv", "id") == [("1",), ("3",)]
    got = sorted((r["_cxl_dlq_source_name"], r["_cxl_dlq_source_row"],
                  r["_cxl_dlq_error_category"], r["_cxl_dlq_trigger"])
                 for r in rows(tmp_path / "out" / "dlq.csv"))
    assert got == [("src_bld", "3", "combine_output_row", "true"),
                   ("src_drv", "2", "combine_output_row", "true")]


def test_merged_rows_are_never_spared_by_source_narrowing(tmp_path, executor):
    """An upstream trigger dirties its group; the combine's '<merged>' rows of that
    group are collateral even though their source name differs."""
    orders = "order_id,grp,product_id\nO1,G1,PROD-A\nO2,G1,PROD-B\nO3,G2,PROD-A\n"
    check = "  - type: transform\n    name: validate\n    input: orders\n    config:\n" \
            "      cxl: |\n        emit n = if order_id == 'O2' then 'x'.to_int() else 1\n"
    run(tmp_path, executor,
        source(tmp_path, "orders", orders,
               ("order_id: string", "grp: string", "product_id: string"), ck="grp"),
        source(tmp_path, "products", PRODUCTS, PRODUCT_SCHEMA), check,
        combine("enrich", "{ o: validate, p: products }", "o.product_id == p.product_id",
                "emit order_id = o.order_id\nemit product_name = p.product_name",
                propagate_ck="driver"),
        sink(tmp_path, "result", "enrich"), strategy="continue")
    assert table(tmp_path / "out" / "result.csv", "order_id") == [("O3",)]
    # (the `<merged>` entry's _cxl_dlq_source_row is not pinned here: Clinker reports the
    # driver's row id for combine output rows, the DLQ writer currently writes 0 for
    # every '<merged>' entry; see the combine report)
    got = sorted((r["_cxl_dlq_source_name"], r["_cxl_dlq_error_category"],
                  r["_cxl_dlq_trigger"], r["order_id"])
                 for r in rows(tmp_path / "out" / "dlq.csv"))
    assert got == [("<merged>", "correlated", "false", "O1"),
                   ("orders", "type_coercion_failure", "true", "O2")]


# ---- compile-time diagnostics --------------------------------------------------------------

def _compile_error(tmp: Path, *nodes: str) -> str:
    with pytest.raises(DiagnosticError) as info:
        project(pipeline(tmp, *nodes), tmp / "target").compile()
    return info.value.diagnostics[0].code


@pytest.mark.parametrize("inputs, where, cxl, config, code", [
    ("{ orders: orders }", "orders.product_id == orders.product_id", ENRICH, {}, "E300"),
    ("{ orders: orders, products: products }", "orders.product_id == products.product_id",
     ENRICH, {"drive": "nope"}, "E306"),
    ("{ orders: orders, products: products }", "orders.product_id == products.nope",
     ENRICH, {}, "E304"),
    ("{ orders: orders, products: products }", "orders.product_id == products.product_id",
     "emit x = products.nope", {}, "E308"),
    ("{ orders: orders, products: products }", "orders.product_id == products.product_id",
     "let x = 1", {}, "E309"),
    ("{ orders: orders, products: products }", "orders.product_id == products.product_id",
     ENRICH, {"match": "collect"}, "E311"),
    ("{ orders: orders, products: products }", "orders.quantity > 1", ENRICH, {}, "E305"),
    ("{ orders: orders, products: products }", "orders.quantity", ENRICH, {}, "E303"),
    # a third input no conjunct reaches: Clinker's disconnected join graph
    ("{ orders: orders, products: products, p2: products }",
     "orders.product_id == products.product_id", ENRICH, {}, "E305"),
])
def test_compile_diagnostics(tmp_path, inputs, where, cxl, config, code):
    nodes = (*_orders_products(tmp_path),
             combine("enrich", inputs, where, cxl, propagate_ck="driver", **config),
             sink(tmp_path, "result", "enrich"))
    assert _compile_error(tmp_path, *nodes) == code


# ---- the general path: residual conditions, ranking, repeated driver identities ------------

def test_residual_failure_dead_letters_driver_and_candidate(tmp_path, executor):
    # residual `d.amt / b.factor > 1` fails on factor 0 (id=2's newest row, met first)
    # before any match is found
    run(tmp_path, executor,
        source(tmp_path, "src_drv", DRV, ("id: int", "amt: int")),
        source(tmp_path, "src_bld", "id,factor\n1,2\n2,4\n2,0\n3,100\n",
               ("id: int", "factor: int")),
        combine("enriched", "{ d: src_drv, b: src_bld }", "d.id == b.id and d.amt / b.factor > 1",
                "emit id = d.id\nemit factor = b.factor", propagate_ck="driver"),
        sink(tmp_path, "out", "enriched"), strategy="continue")
    # 1 matches factor 2; 2 fails on its first candidate; 3 has no passing candidate
    assert table(tmp_path / "out" / "out.csv", "id", "factor") == [("1", "2"), ("3", "")]
    got = sorted((r["_cxl_dlq_source_name"], r["_cxl_dlq_source_row"], r["_cxl_dlq_trigger"],
                  r["_cxl_dlq_triggering_field"]) for r in rows(tmp_path / "out" / "dlq.csv"))
    assert got == [("src_bld", "3", "false", ""), ("src_drv", "2", "true", "")]


def test_first_with_residual_stops_at_the_first_match(tmp_path, executor):
    # id=2: candidate factor 4 passes before factor 0 would fail (newest first: 4, then 0)
    run(tmp_path, executor,
        source(tmp_path, "src_drv", DRV, ("id: int", "amt: int")),
        source(tmp_path, "src_bld", "id,factor\n2,0\n2,4\n", ("id: int", "factor: int")),
        combine("enriched", "{ d: src_drv, b: src_bld }", "d.id == b.id and d.amt / b.factor > 1",
                "emit id = d.id\nemit factor = b.factor", on_miss="skip", propagate_ck="driver"),
        sink(tmp_path, "out", "enriched"), strategy="continue")
    assert table(tmp_path / "out" / "out.csv", "id", "factor") == [("2", "4")]
    assert not (tmp_path / "out" / "dlq.csv").exists()


def test_driver_key_failure_dead_letters_the_driver_only(tmp_path, executor):
    run(tmp_path, executor,
        source(tmp_path, "src_drv", "code,amt\n1,10\nabc,20\n", ("code: string", "amt: int")),
        source(tmp_path, "src_bld", "id,factor\n1,2\n", ("id: int", "factor: int")),
        combine("enriched", "{ d: src_drv, b: src_bld }", "d.code.to_int() == b.id",
                "emit code = d.code\nemit factor = b.factor", propagate_ck="driver"),
        sink(tmp_path, "out", "enriched"), strategy="continue")
    assert table(tmp_path / "out" / "out.csv", "code", "factor") == [("1", "2")]
    got = [(r["_cxl_dlq_source_name"], r["_cxl_dlq_source_row"], r["_cxl_dlq_error_category"])
           for r in rows(tmp_path / "out" / "dlq.csv")]
    assert got == [("src_drv", "2", "combine_output_row")]


def test_collect_with_residual_and_first_build_ck(tmp_path, executor):
    run(tmp_path, executor,
        source(tmp_path, "orders", ORDERS, ORDER_SCHEMA, ck="order_id"),
        source(tmp_path, "products", PRODUCTS, PRODUCT_SCHEMA, ck="product_name"),
        combine("collected", "{ orders: orders, products: products }",
                "orders.product_id == products.product_id and products.product_name != 'Widget'",
                "", match="collect", propagate_ck="all"),
        sink(tmp_path, "result", "collected", fmt="json", include_correlation_keys="true"))
    lines = (tmp_path / "out" / "result.ndjson").read_text().splitlines()
    records = {r["order_id"]: r for r in map(json.loads, lines)}
    assert records["ORD-1"]["products"] == [{"product_id": "PROD-A", "product_name": "WidgetV2"}]
    # the first collected build record's key (a JSON sink nests the $ck.* columns)
    assert records["ORD-1"]["$ck"] == {"order_id": "ORD-1", "product_name": "WidgetV2"}
    assert records["ORD-3"]["products"] == []


def test_chained_combine_keeps_fanned_out_drivers_apart(tmp_path, executor):
    # the first combine fans ORD-1 out to two rows that share one row identity; the second
    # (general path: a residual) must still give each of them its own first match
    colors = "product_name,color\nWidget,red\nWidget,blue\nWidgetV2,green\nGadget,grey\n"
    run(tmp_path, executor, *_orders_products(tmp_path),
        source(tmp_path, "colors", colors, ("product_name: string", "color: string")),
        combine("enrich", "{ orders: orders, products: products }",
                "orders.product_id == products.product_id", ENRICH,
                match="all", on_miss="skip", propagate_ck="driver"),
        combine("painted", "{ e: enrich, c: colors }",
                "e.product_name == c.product_name and c.color != 'red'",
                "emit order_id = e.order_id\nemit product_name = e.product_name\n"
                "emit color = c.color", propagate_ck="driver"),
        sink(tmp_path, "result", "painted"))
    assert table(tmp_path / "out" / "result.csv", "order_id", "product_name", "color") == [
        ("ORD-1", "Widget", "blue"), ("ORD-1", "WidgetV2", "green"), ("ORD-2", "Gadget", "grey")]


def test_on_miss_error_loses_to_an_earlier_failure_under_fail_fast(tmp_path, executor):
    check = "  - type: transform\n    name: validate\n    input: orders\n    config:\n" \
            "      cxl: |\n        emit n = if order_id == 'ORD-2' then 'x'.to_int() else 1\n"
    with pytest.raises(DiagnosticError) as info:
        run(tmp_path, executor, *_orders_products(tmp_path), check,
            combine("enrich", "{ orders: validate, products: products }",
                    "orders.product_id == products.product_id", ENRICH,
                    on_miss="error", propagate_ck="driver"),
            sink(tmp_path, "result", "enrich"))
    assert info.value.diagnostics[0].exit_code == 3  # Clinker stops at `validate` first


def test_every_candidate_failing_gives_one_entry_per_driver(tmp_path, executor):
    run(tmp_path, executor,
        source(tmp_path, "src_drv", DRV, ("id: int", "amt: int")),
        source(tmp_path, "src_bld", "id,factor\n2,0\n2,0\n", ("id: int", "factor: int")),
        combine("enriched", "{ d: src_drv, b: src_bld }", "d.id == b.id and d.amt / b.factor > 1",
                "emit id = d.id\nemit factor = b.factor", propagate_ck="driver"),
        sink(tmp_path, "out", "enriched"), strategy="continue")
    assert table(tmp_path / "out" / "out.csv", "id", "factor") == [("1", ""), ("3", "")]
    assert sorted((r["_cxl_dlq_source_name"], r["_cxl_dlq_source_row"])
                  for r in rows(tmp_path / "out" / "dlq.csv")) == [("src_bld", "2"),
                                                                   ("src_drv", "2")]


def test_clean_groups_of_a_plain_source_survive_next_to_a_combine(tmp_path, executor):
    orders = "order_id,grp,product_id\nO1,G1,PROD-A\nO2,G1,PROD-B\nO3,G2,PROD-A\n"
    check = "  - type: transform\n    name: validate\n    input: orders\n    config:\n" \
            "      cxl: |\n        emit n = if order_id == 'O2' then 'x'.to_int() else 1\n"
    run(tmp_path, executor,
        source(tmp_path, "orders", orders,
               ("order_id: string", "grp: string", "product_id: string"), ck="grp"),
        source(tmp_path, "products", PRODUCTS, PRODUCT_SCHEMA), check,
        combine("enrich", "{ o: validate, p: products }", "o.product_id == p.product_id",
                "emit order_id = o.order_id\nemit product_name = p.product_name",
                propagate_ck="driver"),
        sink(tmp_path, "raw", "validate"), sink(tmp_path, "joined", "enrich"),
        strategy="continue")
    assert table(tmp_path / "out" / "raw.csv", "order_id") == [("O3",)]
    assert table(tmp_path / "out" / "joined.csv", "order_id") == [("O3",)]
