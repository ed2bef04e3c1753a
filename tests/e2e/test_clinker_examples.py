"""Clinker's own example pipelines (tests/clinker_examples: rustpunk/clinker's
examples/pipelines at fc09739d), issue 43: each one validates and runs once on Spark.
Where Clinker documents outputs (retract-demo's README), the rows match; elsewhere the run
succeeds and each output holds the columns the pipeline writes (pinned below). Clinker's
scenarios, with their committed outputs, are conformance cases scenario/001-004."""

from __future__ import annotations

import json
import shutil
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from click.testing import CliRunner

from clinker_sql.cli import cli
from clinker_sql.diagnostics import DiagnosticError
from clinker_sql.project import Project

from .compare import assert_csv_equal, read_csv

EXAMPLES = Path(__file__).resolve().parents[1] / "clinker_examples"


@dataclass(frozen=True)
class Example:
    path: str  # the pipeline file, under tests/clinker_examples
    exit_code: int = 0
    # output file (relative to the pipeline's folder) -> Clinker's expected file, rows in order
    expected: dict[str, str] = field(default_factory=dict)
    # the DLQ file -> Clinker's expected file, compared on the columns that do not vary and
    # these payload columns (as conformance scenario/001 compares them)
    dlq: dict[str, str] = field(default_factory=dict)
    dlq_payload: tuple[str, ...] = ()
    # output file -> (columns, rows): the rows Clinker documents, compared on those columns
    rows: dict[str, tuple[tuple[str, ...], list[tuple[str, ...]]]] = field(
        default_factory=dict)
    summary: str | None = None  # the run summary Clinker documents
    # output file -> its columns (a CSV header, the keys of a JSON output's first record)
    columns: dict[str, tuple[str, ...]] = field(default_factory=dict)
    fails: str | None = None  # the code of the diagnostic the run stops with, as Clinker's
    fails_at: str = ""  # ... and what its message names
    xfail: str | None = None  # why clinker-sql does not run it yet (a strict xfail)
    skip: str | None = None


P = "pipelines/"
EXAMPLES_RUN = [
    Example(P + "audit_join.yaml", columns={"output/audit_report.csv": (
        "order_id", "customer_id", "amount", "status", "event_id", "actor", "event_type",
        "$ck.order_id")}),
    Example(P + "customer_etl.yaml", columns={"output/customers.csv": (
        "customer_id", "first_name", "last_name", "email", "status", "lifetime_value",
        "zip_code", "is_active", "tier")}),
    Example(P + "employee_plan_backfill.yaml", columns={
        "output/employee_plans_clean.csv": ("employee_id", "plan_start", "plan_end", "status"),
        "output/employee_plans_review.csv": ("employee_id", "plan_start", "plan_end",
                                             "status")}),
    Example(P + "hopping_sliding_5m_1h.yaml",
            columns={"output/hopping_sliding_5m_1h.csv": ("user_id", "total", "n")}),
    Example(P + "invoices.yaml", columns={"output/invoice_rollup.csv": (
        "customer_id", "total_amount", "invoice_count")}),
    Example(P + "long_field_support.yaml", columns={"output/long_field_report.csv": (
        "ticket_uuid", "uuid_prefix", "agent_name", "region", "address_upper",
        "tagged_comment", "comment_length")}),
    # its glob ./data/orders_*.csv also matches orders_tags.csv (another example's input),
    # whose header differs: Clinker's multi-file reader stops the run the same way
    Example(P + "multi_file_orders.yaml", fails="E217", fails_at='"data/orders_tags.csv"'),
    Example(P + "multi_source_session.yaml", xfail=(
        "a record of src_mobile arrives after every session window it falls in closed; a late "
        "record under strategy: fail_fast is refused at run time (CS001), where Clinker writes "
        "it to the DLQ and goes on")),
    Example(P + "multi_value_join_values_csv.yaml",
            columns={"output/tagged_orders.csv": ("order_id", "tags")}),
    # PO-1003 has no <Tag> (nor <LineItem>): its `tags` (and `sku`, `qty`, ...) are null,
    # which a `type: string` column refuses ("null is not a valid String",
    # schema_coerce.rs validate_declared_value), so under fail_fast Clinker's run stops at
    # that record (row 4, after the three fanned-out lines of PO-1001 and PO-1002) as
    # this one does; the fan-out itself is io/440-441's
    Example(P + "multi_value_purchase_orders.yaml", fails="E126",
            fails_at='row=4 column=3 field="tags"'),
    Example(P + "multi_value_split_values_csv.yaml",
            columns={"output/tagged_orders.json": ("order_id", "tags")}),
    Example(P + "nested_values.yaml", xfail=(
        "its XML sink writes a map value (`payload`), refused with CS001; its JSON sink's "
        "records are Clinker's (the nested values themselves: conformance io/460-461)")),
    Example(P + "order_fulfillment.yaml", columns={
        "output/fulfilled_orders.csv": ("_route", "handling_fee", "region"),
        "output/priority_report.json": (
            "order_id", "order_date", "quantity", "unit_price", "product_code",
            "priority_level", "order_ref", "order_date_parsed", "line_total", "product_name",
            "category", "weight_kg", "_route", "handling_fee", "region")}),
    Example(P + "scd_type2.yaml", columns={"output/scd_type2.csv": (
        "employee_id", "plan_start", "plan_end", "status")}),
    Example(P + "tumbling_clicks.yaml",
            columns={"output/tumbling_clicks.csv": ("user_id", "n")}),
    Example(P + "tests/baseline/aggregate_windowed.yaml",
            columns={"output/dept_totals.csv": ("total", "n")}),
    Example(P + "tests/baseline/csv_transform_sink.yaml", columns={
        "output/csv_transform_sink.csv": ("id", "name", "salary", "tier")}),
    Example(P + "tests/baseline/merge_filter_distinct.yaml", skip=(
        "not valid YAML (line 51: a `-` where a block ends); Clinker never loads it either")),
    Example(P + "tests/baseline/route_fanout.yaml", columns={
        "output/high.csv": ("id", "amount"), "output/low.csv": ("id", "amount")}),
    Example(P + "per-source-ck/pipeline.yaml", columns={"output/regional_totals.csv": (
        "region", "total", "n", "$ck.aggregate.regional_totals")}),
    # its README (lines 47-64) prints the run summary and report.csv: only the ENG rows, every
    # HR group retracted; $ck.aggregate.dept_totals is an engine-internal group index
    Example(P + "retract-demo/pipeline.yaml", exit_code=2, rows={"output/report.csv": (
        ("department", "day", "total", "min_amount", "n", "order_ids", "anomaly_check"), [
            ("ENG", "2024-01-01", "500", "500", "1", "O05", "0"),
            ("ENG", "2024-01-02", "1190", "440", "2", "O06;O07", "0"),
            ("ENG", "2024-01-03", "940", "330", "2", "O10;O11", "0")])},
        summary="Pipeline complete: 24 total, 3 ok, 3 written, 4 dlq"),
    # Clinker's four scenarios (tests/clinker_examples/scenarios) are conformance cases
    # scenario/001-004, which run them against their committed outputs: not run twice
]


def _param(e: Example):
    marks = []
    if e.skip:
        marks.append(pytest.mark.skip(reason=e.skip))
    if e.xfail:
        marks.append(pytest.mark.xfail(strict=True, reason=e.xfail))
    return pytest.param(e, id=e.path.removesuffix(".yaml").removesuffix("/pipeline"),
                        marks=marks)


@pytest.fixture(scope="module")
def examples(tmp_path_factory) -> Path:
    """A copy of the examples, each pipeline's output/ folder made (Clinker makes it)."""
    root = tmp_path_factory.mktemp("clinker_examples") / "examples"
    shutil.copytree(EXAMPLES, root, ignore=shutil.ignore_patterns("output"))
    for pipeline in root.rglob("*.yaml"):
        (pipeline.parent / "output").mkdir(exist_ok=True)
    return root


DLQ_COLUMNS = ("_cxl_dlq_source_name", "_cxl_dlq_source_row", "_cxl_dlq_triggering_field",
               "_cxl_dlq_triggering_value", "_cxl_dlq_error_category", "_cxl_dlq_error_detail",
               "_cxl_dlq_stage", "_cxl_dlq_route", "_cxl_dlq_trigger")


def _records(path: Path) -> list[dict]:
    """A JSON output's records (an array, or one object a line)."""
    text = path.read_text(encoding="utf-8").strip()
    if text.startswith("["):
        return json.loads(text)
    return [json.loads(line) for line in text.splitlines() if line]


def _dlq_rows(path: Path, payload: tuple[str, ...]) -> list[list[str]]:
    head, rows = read_csv(path)
    index = [head.index(c) for c in DLQ_COLUMNS + payload]
    return [[r[i] for i in index] for r in rows]


def _columns(path: Path) -> tuple[str, ...]:
    if path.suffix == ".csv":
        return tuple(read_csv(path)[0])
    return tuple(_records(path)[0])


@pytest.mark.parametrize("example", [_param(e) for e in EXAMPLES_RUN])
def test_clinker_example_validates_and_runs(examples, executor, tmp_path, example):
    pipeline = examples / example.path
    checked = CliRunner().invoke(cli, ["validate", str(pipeline)])
    assert checked.exit_code == 0, checked.output
    project = Project(pipeline, tmp_path / "target")
    if example.fails:
        with pytest.raises(DiagnosticError) as info:
            project.run(executor=executor)
        assert info.value.diagnostics[0].code == example.fails
        assert example.fails_at in str(info.value)
        return
    result = project.run(executor=executor)
    assert result.exit_code == example.exit_code, result.summary
    if example.summary:
        assert result.summary == example.summary
    folder = pipeline.parent
    for out, expected in example.expected.items():
        if out.endswith(".json"):
            assert _records(folder / out) == _records(folder / expected), out
        else:
            assert_csv_equal(folder / out, folder / expected)
    for out, expected in example.dlq.items():
        assert _dlq_rows(folder / out, example.dlq_payload) == _dlq_rows(
            folder / expected, example.dlq_payload), out
    for out, (columns, rows) in example.rows.items():
        head, found = read_csv(folder / out)
        index = [head.index(c) for c in columns]
        assert sorted(tuple(r[i] for i in index) for r in found) == sorted(rows), out
    for out, columns in example.columns.items():
        assert _columns(folder / out) == columns, out
