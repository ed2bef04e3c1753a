"""`run --log-format json`: progress, diagnostics and the summary as JSON lines; every run
writes its events to OUT/<pipeline>/run.log."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from click.testing import CliRunner

from clinker_sql.cli import cli

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "employee_tiers"


def test_a_json_run_prints_json_lines_and_writes_run_log(spark, tmp_path):
    shutil.copytree(EXAMPLE, tmp_path / "ex", ignore=shutil.ignore_patterns("out", "target"))
    (tmp_path / "ex" / "out").mkdir()
    result = CliRunner().invoke(cli, ["run", str(tmp_path / "ex" / "pipeline.yaml"),
                                      "--log-format", "json", "--out", str(tmp_path / "t")],
                                catch_exceptions=False)
    assert result.exit_code == 2, result.output
    events = [json.loads(line) for line in result.output.splitlines()
              if line.startswith("{")]
    assert events[-1] == {"event": "run_finished", "exit_code": 2,
                          "summary": "Pipeline complete: 6 total, 3 ok, 3 written, 1 dlq",
                          "counts": {"total": 6, "ok": 3, "written": 3, "dlq": 1}}
    assert {"step_finished", "write_started"} <= {e["event"] for e in events}
    logged = [json.loads(line) for line in
              (tmp_path / "t" / "employee_tiers" / "run.log").read_text().splitlines()]
    assert [e["step"] for e in logged if e["event"] == "step_finished"] == \
        [e["step"] for e in events if e["event"] == "step_finished"]


def test_a_json_run_reports_a_diagnostic_as_json(tmp_path):
    (tmp_path / "p.yaml").write_text("pipeline: { name: p }\nnodes: 3\n", encoding="utf-8")
    result = CliRunner().invoke(cli, ["run", str(tmp_path / "p.yaml"), "--log-format", "json"])
    assert result.exit_code == 1
    line = json.loads(result.output.strip().splitlines()[-1])
    assert line["event"] == "diagnostic" and line["code"] == "E000"
    assert line["file"].endswith("p.yaml") and line["line"] == 2
