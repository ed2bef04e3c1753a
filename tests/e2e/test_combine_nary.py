"""Combines of 3 to 8 inputs: Clinker's chain of binary joins (codegen/combine_chain.py).

Expected rows follow Clinker's decomposition (clinker-plan `plan/combine.rs::
decompose_nary_combines`): steps before the last are `match: all` + `on_miss: skip`
without a body; the last step has the node's match, on_miss and cxl. An equality-only
step walks a key's build rows newest first (its hash kernel), a step with a range goes
in build order.
"""

from __future__ import annotations

import pytest

from clinker_sql.diagnostics import DiagnosticError

from tests.e2e.test_combine import _compile_error, combine, rows, run, sink, source, table

ORDERS = "order_id,product_id,qty\nO1,P1,5\nO2,P2,3\nO3,PX,7\n"
PRODUCTS = "product_id,name,cat\nP1,Widget,C1\nP1,WidgetV2,C2\nP2,Gadget,C9\n"
CATEGORIES = "cat,cname,min_qty\nC1,Hardware,1\nC2,Software,1\nC2,SoftwareV2,6\n"
INPUTS = "{ o: orders, p: products, c: categories }"
WHERE = "o.product_id == p.product_id and p.cat == c.cat"
BODY = "emit order_id = o.order_id\nemit name = p.name\nemit cname = c.cname"


def _sources(tmp, categories: str = CATEGORIES) -> tuple[str, ...]:
    return (source(tmp, "orders", ORDERS, ("order_id: string", "product_id: string",
                                           "qty: int")),
            source(tmp, "products", PRODUCTS, ("product_id: string", "name: string",
                                               "cat: string")),
            source(tmp, "categories", categories, ("cat: string", "cname: string",
                                                   "min_qty: int")))


def _out(tmp) -> list[tuple[str, ...]]:
    return [(r["order_id"], r["name"], r["cname"]) for r in rows(tmp / "out" / "result.csv")]


def test_all_fans_out_at_every_step_in_clinkers_order(tmp_path, executor):
    # O1 matches two products (newest first), WidgetV2's category C2 two categories
    # (newest first); O2's category C9 and O3's product are missing: skipped
    result = run(tmp_path, executor, *_sources(tmp_path),
                 combine("enriched", INPUTS, WHERE, BODY, match="all", on_miss="skip",
                         propagate_ck="driver"),
                 sink(tmp_path, "result", "enriched"))
    assert result.exit_code == 0
    assert _out(tmp_path) == [("O1", "WidgetV2", "SoftwareV2"), ("O1", "WidgetV2", "Software"),
                              ("O1", "Widget", "Hardware")]


def test_first_and_null_fields_apply_at_the_last_step_only(tmp_path, executor):
    # step 0 keeps both of O1's products, so `first` gives O1 one row per product; O2
    # misses at the last step (null fields), O3 already at step 0 (dropped, as `skip`)
    result = run(tmp_path, executor, *_sources(tmp_path),
                 combine("enriched", INPUTS, WHERE, BODY, match="first",
                         on_miss="null_fields", propagate_ck="driver"),
                 sink(tmp_path, "result", "enriched"))
    assert result.exit_code == 0
    assert sorted(_out(tmp_path)) == [("O1", "Widget", "Hardware"),
                                      ("O1", "WidgetV2", "SoftwareV2"), ("O2", "Gadget", "")]


def test_on_miss_error_ignores_a_miss_before_the_last_step(tmp_path, executor):
    categories = CATEGORIES + "C9,Toys,1\n"  # every row that reaches the last step matches
    result = run(tmp_path, executor, *_sources(tmp_path, categories),
                 combine("enriched", INPUTS, WHERE, BODY, match="first", on_miss="error",
                         propagate_ck="driver"),
                 sink(tmp_path, "result", "enriched"))
    assert result.exit_code == 0  # O3 has no product: dropped at step 0, no E319
    assert sorted(_out(tmp_path)) == [("O1", "Widget", "Hardware"),
                                      ("O1", "WidgetV2", "SoftwareV2"), ("O2", "Gadget", "Toys")]


def test_on_miss_error_aborts_on_a_miss_at_the_last_step(tmp_path, executor):
    with pytest.raises(DiagnosticError) as info:
        run(tmp_path, executor, *_sources(tmp_path),
            combine("enriched", INPUTS, WHERE, BODY, match="first", on_miss="error",
                    propagate_ck="driver"),
            sink(tmp_path, "result", "enriched"))
    diag = info.value.diagnostics[0]  # O2's category C9 is missing
    assert diag.code == "E319" and diag.exit_code == 1
    assert "driver row 2" in diag.message


def test_a_range_between_the_driver_and_the_last_input(tmp_path, executor):
    # `o.qty >= c.min_qty` spans the driver and the input joined last: the last step
    # has an equality and a range (build order: the lowest matching category first)
    result = run(tmp_path, executor, *_sources(tmp_path),
                 combine("enriched", INPUTS, WHERE + " and o.qty >= c.min_qty", BODY,
                         match="all", on_miss="null_fields", propagate_ck="driver"),
                 sink(tmp_path, "result", "enriched"))
    assert result.exit_code == 0
    # O1 (qty 5) under C2: Software (min 1) matches, SoftwareV2 (min 6) does not
    assert _out(tmp_path) == [("O1", "WidgetV2", "Software"), ("O1", "Widget", "Hardware"),
                              ("O2", "Gadget", "")]


def test_a_later_input_can_join_before_an_earlier_one(tmp_path, executor):
    # declared o, p, c, but only c compares with the driver: the chain is o, c, p (the
    # intermediate rows keep declaration order), p's key reads the intermediate c
    cats = "cat,cname,pid\nC1,Hardware,P1\nC2,Software,P2\n"
    nodes = (source(tmp_path, "orders", ORDERS, ("order_id: string", "product_id: string",
                                                 "qty: int")),
             source(tmp_path, "products", PRODUCTS, ("product_id: string", "name: string",
                                                     "cat: string")),
             source(tmp_path, "categories", cats, ("cat: string", "cname: string",
                                                   "pid: string")))
    result = run(tmp_path, executor, *nodes,
                 combine("enriched", INPUTS, "o.product_id == c.pid and c.cat == p.cat", BODY,
                         match="first", on_miss="skip", propagate_ck="driver"),
                 sink(tmp_path, "result", "enriched"))
    assert result.exit_code == 0
    assert sorted(_out(tmp_path)) == [("O1", "Widget", "Hardware"),
                                      ("O2", "WidgetV2", "Software")]


def test_four_inputs_equalities_then_a_pure_range_step(tmp_path, executor):
    nodes = (source(tmp_path, "a_src", "id,x\n1,5\n2,50\n3,7\n", ("id: string", "x: int")),
             source(tmp_path, "b_src", "id,bv\n1,b1\n2,b2\n3,b3\n", ("id: string",
                                                                     "bv: string")),
             source(tmp_path, "c_src", "id,cv\n1,c1\n2,c2\n", ("id: string", "cv: string")),
             source(tmp_path, "d_src", "lo,hi,dv\n0,10,low\n0,100,wide\n40,60,mid\n",
                    ("lo: int", "hi: int", "dv: string")))
    body = "emit id = a.id\nemit bv = b.bv\nemit cv = c.cv\nemit dv = d.dv"
    result = run(tmp_path, executor, *nodes,
                 combine("joined", "{ a: a_src, b: b_src, c: c_src, d: d_src }",
                         "a.id == b.id and b.id == c.id and a.x >= d.lo and a.x < d.hi", body,
                         match="first", on_miss="skip", propagate_ck="driver"),
                 sink(tmp_path, "result", "joined"))
    assert result.exit_code == 0
    # a3 has no c row (dropped); the range step takes the lowest matching d row
    assert table(tmp_path / "out" / "result.csv", "id", "bv", "cv", "dv") == [
        ("1", "b1", "c1", "low"), ("2", "b2", "c2", "wide")]


def test_a_body_failure_is_dead_lettered_at_the_last_step(tmp_path, executor):
    body = "emit order_id = o.order_id\nemit per = o.qty / c.min_qty"
    categories = "cat,cname,min_qty\nC1,Hardware,0\nC2,Software,1\nC9,Toys,1\n"
    result = run(tmp_path, executor, *_sources(tmp_path, categories),
                 combine("enriched", INPUTS, WHERE, body, match="first", on_miss="skip",
                         propagate_ck="driver"),
                 sink(tmp_path, "result", "enriched"), strategy="continue")
    assert result.exit_code == 2
    # O1 through Widget (C1) divides by zero; O1 through WidgetV2 and O2 pass
    assert table(tmp_path / "out" / "result.csv", "order_id", "per") == [
        ("O1", "5"), ("O2", "3")]
    dlq = sorted((r["_cxl_dlq_source_name"], r["_cxl_dlq_source_row"],
                  r["_cxl_dlq_error_category"], r["_cxl_dlq_stage"], r["_cxl_dlq_trigger"])
                 for r in rows(tmp_path / "out" / "dlq.csv"))
    # the driver entry is the intermediate row (no source of its own, the driver's row);
    # the matched category row is dead-lettered too; the last step's stage is renamed
    stage = "combine:__combine_enriched_step_1"
    assert dlq == [("<merged>", "1", "combine_output_row", stage, "true"),
                   ("categories", "1", "combine_output_row", stage, "false")]


@pytest.mark.parametrize("inputs, where, config, code", [
    # two components: {o, p} and {c, d}
    ("{ o: orders, p: products, c: categories, d: categories }",
     "o.product_id == p.product_id and c.cat == d.cat", {}, "E305"),
    # chain o, p, c, d: the step joining c has no conjunct of its own
    ("{ o: orders, p: products, c: categories, d: categories }",
     "o.product_id == p.product_id and o.order_id == d.cat and d.cname == c.cname", {},
     "E313"),
    # a residual conjunct: Clinker's chain does not evaluate it
    (INPUTS, WHERE + " and o.qty + c.min_qty > 3", {}, "CS001"),
    (INPUTS, WHERE + " and c.cname != 'x'", {}, "CS001"),
    # driving with p joins o before... the intermediate rows would be misread
    (INPUTS, WHERE, {"drive": "p"}, "CS001"),
    (INPUTS, WHERE, {"match": "collect"}, "CS001"),
    (INPUTS, "o.product_id == p.product_id and p.cat == c.nope", {}, "E304"),
])
def test_compile_diagnostics(tmp_path, inputs, where, config, code):
    body = "" if config.get("match") == "collect" else BODY
    nodes = (*_sources(tmp_path),
             combine("enriched", inputs, where, body, propagate_ck="driver", **config),
             sink(tmp_path, "result", "enriched"))
    assert _compile_error(tmp_path, *nodes) == code
