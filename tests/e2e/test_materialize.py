"""Where the runner materializes views (codegen/materialize.py): the plan choice and the
rows it gives. A route that reads a transform's good rows materializes the transform's
evaluation (here the carry of the fused chain source -> transform), so the transform runs
once for its errors and for every branch. A source's files are copied only when many scans
would parse them, and its rows keep their numbers either way."""

from __future__ import annotations

from clinker_sql.codegen.materialize import MAX_PARSES

from .pipelines import dlq, pipeline, project, route, run, sink, source, transform, write_case

ROUTE = route("by_region", "validate", "abroad", 'region == "intl"', "home")

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
    compiled = project(write_case(tmp_path, ROUTED, ROWS), tmp_path / "target").compile()
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


# A source's files are copied once only when many scans would parse them again
# (materialize.MAX_PARSES); either way a row keeps its number across the files.
def _globbed(*nodes: str) -> str:
    head = source("src", "id, amount: int").replace("path: {dir}/src.csv",
                                                    'glob: "{dir}/src/*.csv"')
    return pipeline(head, *nodes, name="globbed")


FEW = _globbed(transform("double", "src", "emit twice = amount * 2"), sink("out", "double"))
MANY = _globbed(*(sink(f"out{i}", "src") for i in range(MAX_PARSES + 1)))
FILES = {  # b.csv is the larger file: Spark reads it first, the numbering still starts at a
    "src/a.csv": "id,amount\n1,10\n2,x\n",
    "src/b.csv": "id,amount\n" + "".join(f"{i},{'y' if i == 5 else i}\n" for i in range(3, 40)),
}


def test_source_copy_only_when_many_scans_read_it(tmp_path):
    def copies(text: str, case: str) -> dict[str, str]:
        (tmp_path / case).mkdir()
        compiled = project(write_case(tmp_path / case, text, FILES),
                           tmp_path / case / "target").compile()
        return {s.name: s.header for s in compiled.statements if s.kind == "checkpoint"}

    assert "src.split" not in copies(FEW, "few")
    many = copies(MANY, "many")
    assert "src.split" in many and "scans read it" in many["src.split"]
    # NDJSON is cut into splits by a size that depends on the cores at scan time: copied
    ndjson = FEW.replace("type: csv", "type: json\n      options: { format: ndjson }", 1)
    assert "src.split" in copies(ndjson, "ndjson")


def test_rows_are_numbered_across_files_with_or_without_the_copy(executor, tmp_path):
    expected = [("src", "2", "type_coercion_failure", "true", "source"),
                ("src", "5", "type_coercion_failure", "true", "source")]
    for case in ("few", "many"):
        (tmp_path / case).mkdir()
    few = run(executor, tmp_path / "few", FEW, FILES)
    assert dlq(few) == expected
    assert few.column("out.csv", "twice")[:2] == ["20", "6"]
    many = run(executor, tmp_path / "many", MANY, FILES)
    assert dlq(many) == expected
    assert many.column(f"out{MAX_PARSES}.csv", "id")[:3] == ["1", "3", "4"]
