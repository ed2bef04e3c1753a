"""Every pipeline in examples/ runs through the real CLI and matches its expected rows."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from .compare import assert_csv_columns, assert_csv_equal, read_ndjson

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
CLI = [sys.executable, "-m", "clinker_sql"]


def run_example(name: str, tmp_path: Path) -> tuple[subprocess.CompletedProcess, Path]:
    work = tmp_path / name
    shutil.copytree(EXAMPLES / name, work, ignore=shutil.ignore_patterns("expected", "out",
                                                                          "target"))
    (work / "out").mkdir()
    env = dict(os.environ, CLINKER_SQL_MASTER="local[1]")
    proc = subprocess.run(CLI + ["run", "pipeline.yaml", "--quiet"], cwd=work, env=env,
                          capture_output=True, text=True, timeout=300)
    return proc, work


def test_employee_tiers(tmp_path):
    proc, work = run_example("employee_tiers", tmp_path)
    assert proc.returncode == 2, proc.stderr
    assert "Pipeline complete: 6 total, 3 ok, 3 written, 1 dlq" in proc.stdout
    expected = EXAMPLES / "employee_tiers" / "expected"
    assert_csv_equal(work / "out" / "roster.csv", expected / "roster.csv")
    assert_csv_columns(work / "out" / "dlq.csv", expected / "dlq.csv")


def test_order_routing(tmp_path):
    proc, work = run_example("order_routing", tmp_path)
    assert proc.returncode == 2, proc.stderr
    expected = EXAMPLES / "order_routing" / "expected"
    assert_csv_equal(work / "out" / "big.csv", expected / "big.csv")
    assert read_ndjson(work / "out" / "small.ndjson") == read_ndjson(expected / "small.ndjson")
    assert_csv_columns(work / "out" / "dlq.csv", expected / "dlq.csv")


def test_merged_feeds(tmp_path, spark):
    proc, work = run_example("merged_feeds", tmp_path)
    assert proc.returncode == 2, proc.stderr
    expected = EXAMPLES / "merged_feeds" / "expected"
    assert_csv_equal(work / "out" / "margins.csv", expected / "margins.csv")
    assert_csv_columns(work / "out" / "dlq.csv", expected / "dlq.csv")
    parquet = spark.read.parquet(str(work / "out" / "margins.parquet"))
    assert parquet.columns == ["sku", "price", "cost", "updated", "store", "margin_pct",
                               "updated_day", "flag"]
    assert sorted((r.sku, r.store, r.margin_pct) for r in parquet.collect()) == sorted([
        ("P-1", "store_a", 66.7), ("P-2", "store_a", 25.0), ("P-3", "store_a", 0.0),
        ("P-2", "store_b", 33.3), ("P-2", "store_b", 35.3), ("P-4", "store_b", 400.0)])


def test_order_lines(tmp_path):
    proc, work = run_example("order_lines", tmp_path)
    assert proc.returncode == 2, proc.stderr
    assert "Pipeline complete: 6 total, 4 ok, 6 written, 2 dlq" in proc.stdout
    expected = EXAMPLES / "order_lines" / "expected"
    assert_csv_equal(work / "out" / "order_lines.csv", expected / "order_lines.csv")
    assert_csv_columns(work / "out" / "dlq.csv", expected / "dlq.csv")


def test_retract_orders(tmp_path):
    proc, work = run_example("retract_orders", tmp_path)
    assert proc.returncode == 2, proc.stderr
    assert "Pipeline complete: 9 total, 5 ok, 5 written, 1 dlq" in proc.stdout
    expected = EXAMPLES / "retract_orders" / "expected"
    assert_csv_equal(work / "out" / "report.csv", expected / "report.csv")
    assert_csv_columns(work / "out" / "dlq.csv", expected / "dlq.csv")


def test_store_exports(tmp_path):
    proc, work = run_example("store_exports", tmp_path)
    assert proc.returncode == 2, proc.stderr
    assert "Pipeline complete: 7 total, 5 ok, 5 written, 2 dlq" in proc.stdout
    expected = EXAMPLES / "store_exports" / "expected"
    for name in ("store_north_export.csv", "store_south_export.csv"):  # one per source file
        assert (work / "out" / name).read_bytes() == (expected / name).read_bytes()
    assert sorted(p.name for p in (work / "out").iterdir()) == [
        "dlq.csv", "store_north_export.csv", "store_south_export.csv"]
    assert_csv_columns(work / "out" / "dlq.csv", expected / "dlq.csv")


@pytest.mark.parametrize("name", sorted(p.name for p in EXAMPLES.iterdir()  # one pipeline
                                        if (p / "README.md").is_file()
                                        and (p / "pipeline.yaml").is_file()))
def test_sql_shown_in_an_example_readme_is_what_compile_writes(name, tmp_path):
    """An example's README quotes compiled views: each ```sql block must appear verbatim
    in a file `clinker-sql compile` writes (recompile and paste when the SQL changes)."""
    text = (EXAMPLES / name / "README.md").read_text(encoding="utf-8")
    blocks = [b.split("\n", 1)[1].rsplit("```", 1)[0].strip("\n")
              for b in text.split("```sql")[1:]]
    assert blocks, "the README shows no compiled SQL"
    proc = subprocess.run(CLI + ["compile", str(EXAMPLES / name / "pipeline.yaml"),
                                 "--out", str(tmp_path)], capture_output=True, text=True,
                          timeout=60)
    assert proc.returncode == 0, proc.stderr
    compiled = [p.read_text(encoding="utf-8") for p in tmp_path.rglob("*.sql")]
    for block in blocks:
        assert any(block in c for c in compiled), block.splitlines()[0]


@pytest.mark.parametrize("name", sorted(p.name for p in EXAMPLES.iterdir()
                                        if (p / "pipeline.yaml").is_file()))
def test_compile_is_deterministic_and_needs_no_java(name, tmp_path):
    env = {k: v for k, v in os.environ.items() if k != "JAVA_HOME"}
    env["PATH"] = os.path.dirname(sys.executable)  # no `java` on PATH
    outs = []
    for i in range(2):
        out = tmp_path / f"t{i}"
        proc = subprocess.run(CLI + ["compile", str(EXAMPLES / name / "pipeline.yaml"),
                                     "--out", str(out)], env=env, capture_output=True,
                              text=True, timeout=60)
        assert proc.returncode == 0, proc.stderr
        outs.append({p.relative_to(out): p.read_bytes() for p in out.rglob("*") if p.is_file()})
    assert outs[0] == outs[1]
    assert any(str(p).endswith("run.sql") for p in outs[0])
