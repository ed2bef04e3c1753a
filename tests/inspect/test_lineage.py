"""Column lineage: the file headers, and `clinker-sql lineage` walking back to sources."""

from __future__ import annotations

import json

from clinker_sql.codegen.artifacts import files
from clinker_sql.project import Project

from .conftest import EXAMPLES, REPO, write_pipeline

EMPLOYEES = REPO / "examples" / "employee_tiers" / "pipeline.yaml"


def example(name: str):
    return next(p for p in EXAMPLES if p.parent.name == name)


def test_headers_list_each_column_with_its_cxl_and_reads():
    out = files(Project(EMPLOYEES).compile())
    ok = out["nodes/enrich.sql"]  # the node's own file heads with its lineage
    header = ok.split("CREATE OR REPLACE", 1)[0]
    assert "--   bonus <- (pay * (bonus_pct ?? 0.0)).round(2) (let pay = salary.to_int()) " \
           "[reads employees.salary, employees.bonus_pct]" in header
    assert "--   team <- match dept { \"eng\" => \"Engineering\", \"ops\" => \"Operations\", " \
           "_ => \"Other\" } [reads employees.dept]" in header
    assert "--   unchanged from employees: id, dept, hired, bonus_pct, active" in header
    assert "--   rows: active" in header
    # the source heads the fused chain: its output is the carry of typed rows
    typed = out["nodes/employees.sql"]
    assert "--   salary <- csv column 'salary' of ./data/employees.csv, as string" in typed
    write = out["nodes/roster.sql"]
    assert "--   unchanged from enrich: id, name, dept," in write
    # only the node files carry it: the machinery computes no column of the user's
    assert not [n for n, t in out.items() if "column lineage" in t and n.startswith("engine/")]
    assert out["run.sql"].count("column lineage") == 0


def test_header_comments_cannot_be_broken_by_cxl_text(tmp_path):
    pipeline = write_pipeline(tmp_path, """
        pipeline: {name: tricky}
        nodes:
          - type: source
            name: s
            config:
              name: s
              type: csv
              path: in.csv
              schema: [{name: a, type: string}]
          - type: transform
            name: t
            input: s
            config:
              cxl: |
                # a comment; DROP TABLE x
                emit b = a.concat("*/ \\u2028 --")   # trailing comment
                emit c = match {   # first
                  a == "x" => "y",
                  _ => "z"
                }
          - type: sink
            name: o
            input: t
            config: {name: o, type: csv, path: out.csv}
        """)
    out = files(Project(pipeline).compile())
    ok = out["nodes/t.sql"]
    header = ok.split("CREATE OR REPLACE", 1)[0]
    assert header.splitlines()[2:4] == [
        '--   b <- a.concat("*\\/ \\u2028 --") [reads s.a]',  # no block comment marker
        '--   c <- match { a == "x" => "y", _ => "z" } [reads s.a]']
    assert "comment" not in header
    assert all(line.startswith("--") for line in header.splitlines() if line)


def test_trace_to_source_columns(run_cli):
    r = run_cli("lineage", EMPLOYEES, "roster.bonus")
    assert r.exit_code == 0, r.output
    assert r.stdout.splitlines()[:5] == [
        "roster.bonus : float  [sink]  (unchanged)",
        "└── enrich.bonus : float  [transform]  = (pay * (bonus_pct ?? 0.0)).round(2)",
        "    │   let pay = salary.to_int()",
        "    ├── employees.salary : string  [source]  <- csv column 'salary' of "
        "./data/employees.csv, as string",
        "    └── employees.bonus_pct : float  [source]  <- csv column 'bonus_pct' of "
        "./data/employees.csv, as float"]
    assert r.stdout.rstrip().endswith("source columns: employees.salary, employees.bonus_pct")


def test_trace_through_route_branch_and_merge(run_cli):
    r = run_cli("lineage", example("order_routing"), "small.cents", "--format", "json")
    t = json.loads(r.stdout)
    assert (t["node"], t["reads"]) == ("small", ["by_size.small.cents"])
    price = t["inputs"][0]["inputs"][0]
    assert price["node"] == "price" and price["lets"] == [
        "let cents = (amount.to_float() * 100.0).round().to_int()"]
    assert price["inputs"][0]["node"] == "orders" and price["inputs"][0]["column"] == "amount"
    r = run_cli("lineage", example("merged_feeds"), "margins_csv.store")
    assert "reads $source.name" in r.stdout
    r = run_cli("lineage", example("merged_feeds"), "margins_parquet.margin_pct")
    assert r.stdout.rstrip().endswith(
        "source columns: store_a.price, store_b.price, store_a.cost, store_b.cost")


def test_every_sink_column_of_every_example_reaches_a_source():
    from clinker_sql.codegen.lineage import trace

    for pipeline in EXAMPLES:
        compiled = Project(pipeline).compile()
        for name, nl in compiled.lineage.items():
            if nl.kind != "sink":
                continue
            for c in nl.columns:
                t = trace(compiled.lineage, f"{name}.{c.column}")
                leaves = t.sources()
                tree = t.to_json()
                uses_system = "$source" in json.dumps(tree)
                assert leaves or uses_system or _reads_nothing(tree), \
                    f"{pipeline.parent.name}: {name}.{c.column}"
                assert all(s.split(".")[0] in compiled.sources for s in leaves)


def _reads_nothing(tree: dict) -> bool:
    """A column computed from no input column at all (a literal, `count(*)`)."""
    if not tree["inputs"]:
        return tree["kind"] != "source" and not tree["reads"]
    return all(_reads_nothing(t) for t in tree["inputs"])


def test_unknown_column_or_node_is_a_coded_diagnostic(run_cli):
    r = run_cli("lineage", EMPLOYEES, "roster.bonsu")
    assert r.exit_code == 1 and "error[CS042]" in r.stderr and "roster.bonus" in r.stderr
    r = run_cli("lineage", EMPLOYEES, "rooster.bonus")
    assert r.exit_code == 1 and "did you mean 'roster'" in r.stderr
    r = run_cli("lineage", EMPLOYEES, "roster")
    assert r.exit_code == 1 and "error[CS042]" in r.stderr


def test_aggregate_and_window_lineage(tmp_path):
    from .conftest import RETRACTING

    compiled = Project(write_pipeline(tmp_path, RETRACTING)).compile()
    agg = compiled.lineage["dept_totals"]
    assert agg.column("total").cxl == "sum(amount)"
    assert agg.column("total").reads == (("windowed", "amount"),)
    assert agg.column("n").reads == ()
    window = compiled.lineage["windowed"].column("running_total")
    assert window.reads == (("orders", "amount"), ("orders", "department"))


def test_combine_lineage_follows_qualifiers(tmp_path):
    pipeline = write_pipeline(tmp_path, """
        pipeline: {name: combine_lineage}
        nodes:
          - type: source
            name: orders
            config:
              name: orders
              type: csv
              path: orders.csv
              schema: [{name: order_id, type: string}, {name: product_id, type: string},
                       {name: quantity, type: int}]
          - type: source
            name: products
            config:
              name: products
              type: csv
              path: products.csv
              schema: [{name: product_id, type: string}, {name: product_name, type: string}]
          - type: combine
            name: enrich
            input: {o: orders, p: products}
            config:
              where: "o.product_id == p.product_id"
              propagate_ck: driver
              cxl: |
                emit order_id = o.order_id
                emit label = p.product_name.concat(" x", o.quantity.to_string())
          - type: sink
            name: result
            input: enrich
            config: {name: result, type: csv, path: out.csv}
        """)
    compiled = Project(pipeline).compile()
    label = compiled.lineage["enrich"].column("label")
    assert label.reads == (("products", "product_name"), ("orders", "quantity"))
    assert compiled.lineage["enrich"].filters == ("where o.product_id == p.product_id",)
