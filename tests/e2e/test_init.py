"""`clinker-sql init` writes a workspace that runs at once, with its channel."""

from __future__ import annotations

import csv
from pathlib import Path

from click.testing import CliRunner

from clinker_sql.cli import cli


def _rows(path: Path) -> list[dict]:
    with path.open(newline="", encoding="utf-8") as f:
        return list(csv.DictReader(f))


def test_init_writes_a_workspace_that_runs(spark, tmp_path):
    ws = tmp_path / "ws"
    runner = CliRunner()
    result = runner.invoke(cli, ["init", str(ws)], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    assert (ws / "clinker.toml").is_file() and (ws / ".gitignore").is_file()

    result = runner.invoke(cli, ["run", str(ws), "-q", "--out", str(tmp_path / "target")],
                           catch_exceptions=False)
    assert result.exit_code == 2, result.output  # A-4's amount is not a number
    assert "orders: Pipeline complete: 5 total, 3 ok, 3 written, 1 dlq" in result.output
    assert [(r["order_id"], r["customer"], r["amount"])
            for r in _rows(ws / "out" / "large_orders.csv")] == [
        ("A-1", "ADA", "12.5"), ("A-2", "unknown", "250"), ("A-5", "BARBARA", "120")]
    dlq = _rows(ws / "out" / "dlq.csv")
    assert [(r["order_id"], r["_cxl_dlq_error_category"]) for r in dlq] == [
        ("A-4", "type_coercion_failure")]

    result = runner.invoke(cli, ["run", str(ws / "orders.yaml"), "--channel", "acme", "-q",
                                 "--out", str(tmp_path / "target")], catch_exceptions=False)
    assert result.exit_code == 2, result.output
    assert [r["order_id"] for r in _rows(ws / "out" / "large_orders.csv")] == ["A-2", "A-5"]


def test_init_never_overwrites(tmp_path):
    (tmp_path / "clinker.toml").write_text("# mine\n", encoding="utf-8")
    result = CliRunner().invoke(cli, ["init", str(tmp_path)])
    assert result.exit_code == 1 and "CS083" in result.output
    assert (tmp_path / "clinker.toml").read_text(encoding="utf-8") == "# mine\n"
    assert not (tmp_path / "orders.yaml").exists()
