"""Helpers for the inspect tests: compile only, never start Spark."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest
from click.testing import CliRunner

from clinker_sql.cli import cli

REPO = Path(__file__).resolve().parents[2]
EXAMPLES = sorted(p for p in (REPO / "examples").glob("*/pipeline.yaml"))

# A pipeline that exercises every retraction surface: a buffer-mode window, a
# retraction-mode aggregate with Reversible and BufferRequired bindings (after
# Clinker's retraction_explain_snapshot test), and a strict aggregate.
RETRACTING = """
pipeline:
  name: retract_explain_demo
error_handling:
  strategy: continue
  correlation_fanout_policy: any
  dlq: {path: ./out/dlq.csv}
nodes:
- type: source
  name: orders
  config:
    name: orders
    path: orders.csv
    type: csv
    correlation_key: order_id
    schema:
      - { name: order_id, type: string }
      - { name: department, type: string }
      - { name: amount, type: int }
- type: transform
  name: windowed
  input: orders
  config:
    cxl: |
      emit running_total = $window.sum(amount)
    analytic_window:
      group_by: [department]
- type: aggregate
  name: dept_totals
  input: windowed
  config:
    group_by: [department]
    cxl: |
      emit department = department
      emit total = sum(amount)
      emit lo = min(amount)
      emit n = count(*)
- type: aggregate
  name: per_order
  input: orders
  config:
    group_by: [order_id]
    cxl: |
      emit order_id = order_id
      emit total = sum(amount)
- type: sink
  name: out
  input: dept_totals
  config: {name: out, path: ./out/output.csv, type: csv}
- type: sink
  name: orders_out
  input: per_order
  config: {name: orders_out, path: ./out/orders.csv, type: csv}
"""

STRICT = """
pipeline:
  name: strict_explain
error_handling:
  strategy: continue
  dlq: {path: ./out/dlq.csv}
nodes:
- type: source
  name: orders
  config:
    name: orders
    path: orders.csv
    type: csv
    correlation_key: order_id
    schema:
      - { name: order_id, type: string }
      - { name: department, type: string }
      - { name: amount, type: int }
- type: aggregate
  name: dept_totals
  input: orders
  config:
    group_by: [order_id, department]
    cxl: |
      emit department = department
      emit total = sum(amount)
- type: sink
  name: out
  input: dept_totals
  config: {name: out, path: ./out/output.csv, type: csv}
"""


def write_pipeline(folder: Path, text: str, name: str = "pipeline.yaml") -> Path:
    path = folder / name
    path.write_text(textwrap.dedent(text).lstrip("\n"), encoding="utf-8")
    return path


@pytest.fixture
def run_cli():
    """Invoke the CLI in-process; returns click's Result (output, exit_code)."""
    runner = CliRunner()

    def invoke(*args: str):
        return runner.invoke(cli, [str(a) for a in args], catch_exceptions=False)
    return invoke
