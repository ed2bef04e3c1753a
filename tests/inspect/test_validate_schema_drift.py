"""`validate` on files that hold more than their schema declares: a CSV column the schema
does not name (carried under `on_unmapped: auto_widen`, Clinker's default) and a JSON
source's dotted column (a field of a nested object). Both compile; the sqlglot check must
resolve their columns as the compiler read them, and a run gives the expected rows."""

from __future__ import annotations

import shutil
from pathlib import Path

from clinker_sql.inspect.sqlcheck import check_statements
from tests.e2e.pipelines import project, run, write_case

from .conftest import REPO

CSV_EXTRA = """
pipeline:
  name: csv_extra
error_handling:
  strategy: continue
  dlq:
    path: {dir}/out/dlq.csv
nodes:
  - type: source
    name: people
    config:
      name: people
      type: csv
      path: {dir}/people.csv
      schema:
        - { name: id, type: int }
        - { name: name, type: string }
  - type: transform
    name: shout
    input: people
    config:
      cxl: |
        emit name = name.upper()
  - type: sink
    name: out
    input: shout
    config:
      name: out
      type: csv
      path: {dir}/out/out.csv
"""
CSV_FILES = {"people.csv": "id,name,team\n1,ada,red\n2,bob,blue\n"}

JSON_DOTTED = """
pipeline:
  name: json_dotted
nodes:
  - type: source
    name: orders
    config:
      name: orders
      type: json
      path: {dir}/orders.json
      schema:
        - { name: order_id, type: string }
        - { name: customer.name, type: string }
        - { name: customer.address.city, type: string }
  - type: sink
    name: out
    input: orders
    config:
      name: out
      type: csv
      path: {dir}/out/out.csv
"""
JSON_FILES = {"orders.json": '[{"order_id": "1", "note": "x", "customer": {"name": "Ada", '
                             '"address": {"city": "Boston"}}},\n'
                             ' {"order_id": "2", "customer": {"name": "Bo", '
                             '"address": {"city": "Oslo"}}}]\n'}


def _validate(tmp_path: Path, text: str, files: dict[str, str]) -> None:
    pipeline = write_case(tmp_path, text, files)
    p = project(pipeline)
    model = p.load()
    compiled = p.compile(model, base=tmp_path)  # reads the files: the extra names found
    check_statements(model, compiled)  # raised CS041 on the undeclared or dotted columns


def test_csv_column_the_schema_does_not_declare_validates(tmp_path):
    _validate(tmp_path, CSV_EXTRA, CSV_FILES)


def test_json_dotted_columns_validate(tmp_path):
    _validate(tmp_path, JSON_DOTTED, JSON_FILES)


def test_view_named_like_a_cte_of_a_later_statement_validates(tmp_path):
    """A combine named `joined` (a CTE name of the correlation commit): the CTE, not the
    node's view, is what the commit statement reads under that name."""
    case = REPO / "tests/conformance/cases/combine/100_combine_propagate_ck_driver_one_ck_column"
    work = tmp_path / "case"
    shutil.copytree(case, work)
    p = project(work / "pipeline.yaml")
    model = p.load()
    assert any(n.name == "joined" for n in model.nodes)
    check_statements(model, p.compile(model, base=work))


def test_csv_extra_column_runs_as_expected(executor, tmp_path):
    r = run(executor, tmp_path, CSV_EXTRA, CSV_FILES)
    assert r.rows("out.csv") == [{"id": "1", "name": "ADA", "team": "red"},
                                 {"id": "2", "name": "BOB", "team": "blue"}]
    assert r.result.counts["dlq"] == 0


def test_json_dotted_columns_run_as_expected(executor, tmp_path):
    r = run(executor, tmp_path, JSON_DOTTED, JSON_FILES)
    rows = sorted(r.rows("out.csv"), key=lambda row: row["order_id"])
    assert [(row["order_id"], row["customer.name"], row["customer.address.city"], row["note"])
            for row in rows] == [("1", "Ada", "Boston", "x"), ("2", "Bo", "Oslo", "")]
