"""Where the runner materializes views (codegen/materialize.py): the plan choice and the
rows it gives. A route that reads a transform's good rows materializes the transform's
evaluation (here the carry of the fused chain source -> transform), so the transform runs
once for its errors and for every branch."""

from __future__ import annotations

from clinker_sql.project import Project

from .pipelines import run, write_case

ROUTED = """
pipeline:
  name: routed
error_handling:
  strategy: continue
  dlq:
    path: {dir}/out/dlq.csv
nodes:
  - type: source
    name: src
    config:
      name: src
      type: csv
      path: {dir}/in.csv
      correlation_key: cust
      schema:
        - { name: id, type: string }
        - { name: cust, type: string }
        - { name: region, type: string }
        - { name: amount, type: string }
  - type: transform
    name: validate
    input: src
    config:
      cxl: |
        emit amount_int = amount.to_int()
  - type: route
    name: by_region
    input: validate
    config:
      mode: exclusive
      conditions:
        abroad: 'region == "intl"'
      default: home
  - type: sink
    name: abroad
    input: by_region.abroad
    config: { name: abroad, type: csv, path: "{dir}/out/abroad.csv" }
  - type: sink
    name: home
    input: by_region.home
    config: { name: home, type: csv, path: "{dir}/out/home.csv" }
"""

ROWS = {"in.csv": """
    id,cust,region,amount
    1,a,intl,10
    2,b,eu,20
    3,a,eu,x
    4,c,intl,5
    5,b,intl,7
"""}


def test_route_over_a_transform_materializes_the_transform(tmp_path):
    compiled = Project(write_case(tmp_path, ROUTED, ROWS), tmp_path / "target").compile()
    checkpoints = {s.name: s.header for s in compiled.statements if s.kind == "checkpoint"}
    assert "validate.carry" in checkpoints and "by_region.eval" not in checkpoints
    assert "by_region" in checkpoints["validate.carry"]  # the header says why
    views = {s.name: s for s in compiled.statements if s.kind == "view"}
    # a route condition that cannot fail: its errors view is empty by construction
    assert views["by_region.errors"].sql.rstrip().rstrip(";").endswith("FALSE")
    assert not views["validate.errors"].sql.rstrip().rstrip(";").endswith("FALSE")
    # the source's type errors come from the chain's failing rows, not a pass of their own
    assert views["src.errors"].reads == ("validate.failed",)


def test_route_over_a_transform_gives_clinkers_rows_and_dlq(executor, tmp_path):
    r = run(executor, tmp_path, ROUTED, ROWS)
    # row 3 fails; customer a is dirty, so row 1 (abroad) is a collateral
    assert r.column("abroad.csv", "id") == ["4", "5"]
    assert r.column("home.csv", "id") == ["2"]
    dlq = sorted((row["_cxl_dlq_source_row"], row["_cxl_dlq_error_category"],
                  row["_cxl_dlq_stage"]) for row in r.rows("dlq.csv"))
    assert dlq == [("1", "correlated", "correlation_commit"),
                   ("3", "type_coercion_failure", "transform:validate")]
