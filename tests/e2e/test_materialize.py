"""Where the runner materializes views (codegen/materialize.py): the plan choice and the
rows it gives. A route that reads a transform's good rows materializes the transform's
evaluation (here the carry of the fused chain source -> transform), so the transform runs
once for its errors and for every branch."""

from __future__ import annotations

from clinker_sql.project import Project

from .pipelines import dlq, pipeline, run, sink, source, transform, write_case

ROUTE = """
  - type: route
    name: by_region
    input: validate
    config:
      mode: exclusive
      conditions:
        abroad: 'region == "intl"'
      default: home
"""

ROUTED = pipeline(source("src", "id, cust, region, amount", key="cust"),
                  transform("validate", "src", "emit amount_int = amount.to_int()"),
                  ROUTE, sink("abroad", "by_region.abroad"), sink("home", "by_region.home"),
                  name="routed")

ROWS = {"src.csv": """
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
    assert dlq(r) == [("src", "1", "correlated", "false", "correlation_commit"),
                      ("src", "3", "type_coercion_failure", "true", "transform:validate")]
