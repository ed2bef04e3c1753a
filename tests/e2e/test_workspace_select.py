"""A workspace folder given to compile, validate and run: every pipeline in it, or those
--select picks, in dependency order (a pipeline after those whose outputs it reads); a
failed pipeline skips its readers, not the others."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from clinker_sql.cli import cli

FIRST = """\
pipeline:
  name: first
error_handling:
  strategy: continue
  dlq: { path: ./out/first_dlq.csv }
nodes:
  - type: source
    name: src
    config:
      name: src
      type: csv
      path: ./data/in.csv
      schema:
        - { name: id, type: int }
        - { name: amount, type: int }
  - type: transform
    name: t
    input: src
    config:
      cxl: |
        emit id = id
        emit doubled = amount * 2
  - type: sink
    name: out
    input: t
    config: { name: out, type: csv, path: ./out/first.csv, include_unmapped: false }
"""

SECOND = """\
pipeline:
  name: second
nodes:
  - type: source
    name: src
    config:
      name: src
      type: csv
      path: ./out/first.csv
      schema:
        - { name: id, type: int }
        - { name: doubled, type: int }
  - type: transform
    name: t
    input: src
    config:
      cxl: |
        emit id = id
        emit quad = doubled * 2
  - type: sink
    name: out
    input: t
    config: { name: out, type: csv, path: ./out/second.csv, include_unmapped: false }
"""

THIRD = """\
pipeline:
  name: third
nodes:
  - type: source
    name: src
    config:
      name: src
      type: csv
      path: ./data/in.csv
      schema:
        - { name: id, type: int }
        - { name: amount, type: string }
  - type: sink
    name: out
    input: src
    config: { name: out, type: csv, path: ./out/third.csv }
"""


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    ws = tmp_path / "ws"
    (ws / "data").mkdir(parents=True)
    (ws / "out").mkdir()
    (ws / "data" / "in.csv").write_text("id,amount\n1,10\n2,x\n3,30\n", encoding="utf-8")
    # second.yaml sorts before first.yaml's reader order would put it: the order is the
    # dependency order, not the file order
    (ws / "a_second.yaml").write_text(SECOND, encoding="utf-8")
    (ws / "first.yaml").write_text(FIRST, encoding="utf-8")
    (ws / "third.yaml").write_text(THIRD, encoding="utf-8")
    return ws


def _rows(path: Path) -> list[dict]:
    with path.open(newline="", encoding="utf-8") as f:
        return list(csv.DictReader(f))


def _invoke(*args: str):
    return CliRunner().invoke(cli, list(args), catch_exceptions=False)


def test_run_with_select_runs_only_the_selected_pipeline(spark, workspace, tmp_path):
    result = _invoke("run", str(workspace), "--select", "third", "-q",
                     "--out", str(tmp_path / "target"))
    assert result.exit_code == 0, result.output
    assert _rows(workspace / "out" / "third.csv") == [
        {"id": "1", "amount": "10"}, {"id": "2", "amount": "x"}, {"id": "3", "amount": "30"}]
    assert not (workspace / "out" / "first.csv").exists()
    assert not (workspace / "out" / "second.csv").exists()
    manifest = json.loads((tmp_path / "target" / "manifest.json").read_text())
    assert [p["name"] for p in manifest["pipelines"]] == ["third"]
    assert "Ran 1 pipeline(s): 1 ok, 0 failed, 0 skipped" in result.output


def test_selected_pipelines_run_in_dependency_order(spark, workspace, tmp_path):
    result = _invoke("run", str(workspace), "-s", "second", "-s", "fir*", "-q",
                     "--out", str(tmp_path / "target"))
    assert result.exit_code == 2, result.output  # first's DLQ holds row 2
    lines = [line.split(":")[0] for line in result.output.splitlines() if ": Pipeline" in line]
    assert lines == ["first", "second"]
    assert _rows(workspace / "out" / "second.csv") == [
        {"id": "1", "quad": "40"}, {"id": "3", "quad": "120"}]
    assert not (workspace / "out" / "third.csv").exists()
    manifest = json.loads((tmp_path / "target" / "manifest.json").read_text())
    assert {p["name"]: p["depends_on"] for p in manifest["pipelines"]} == {
        "first": [], "second": ["first"]}
    assert (tmp_path / "target" / "first" / "run.sql").is_file()
    assert (tmp_path / "target" / "second" / "run.sql").is_file()


def test_a_failed_pipeline_skips_its_readers_only(spark, workspace, tmp_path):
    (workspace / "first.yaml").write_text(FIRST.replace("amount * 2", "amount * "),
                                          encoding="utf-8")
    result = _invoke("run", str(workspace), "-q", "--out", str(tmp_path / "target"))
    assert result.exit_code == 1, result.output
    assert "first: failed" in result.output
    assert "second: skipped (it reads the outputs of first)" in result.output
    assert "third: Pipeline complete: 3 total, 3 ok, 3 written, 0 dlq" in result.output
    assert not (workspace / "out" / "second.csv").exists()
    assert (workspace / "out" / "third.csv").is_file()


def test_compile_a_workspace_writes_each_pipeline_and_its_manifest(workspace, tmp_path):
    result = _invoke("compile", str(workspace), "--out", str(tmp_path / "target"))
    assert result.exit_code == 0, result.output
    for name in ("first", "second", "third"):
        assert (tmp_path / "target" / name / "run.sql").is_file()
    manifest = json.loads((tmp_path / "target" / "manifest.json").read_text())
    assert [p["name"] for p in manifest["pipelines"]] == ["first", "second", "third"]
    assert manifest["pipelines"][1]["file"] == "a_second.yaml"


def test_validate_a_workspace_writes_nothing(workspace, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = _invoke("validate", str(workspace), "-s", "third")
    assert result.exit_code == 0, result.output
    assert "third: ok" in result.output
    assert not (tmp_path / "target").exists()


def test_select_matching_nothing_is_cs081(workspace):
    result = _invoke("validate", str(workspace), "--select", "nope")
    assert result.exit_code == 1
    assert "CS081" in result.output and "first, second, third" in result.output


def test_select_with_a_pipeline_file_is_cs081(workspace):
    result = _invoke("validate", str(workspace / "third.yaml"), "--select", "third")
    assert result.exit_code == 1 and "CS081" in result.output


def test_pipelines_reading_each_other_are_cs082(workspace):
    (workspace / "first.yaml").write_text(
        FIRST.replace("./data/in.csv", "./out/second.csv"), encoding="utf-8")
    result = _invoke("validate", str(workspace))
    assert result.exit_code == 1 and "CS082" in result.output


def test_two_pipelines_of_one_name_are_cs080(workspace):
    (workspace / "again.yaml").write_text(THIRD, encoding="utf-8")
    result = _invoke("validate", str(workspace))
    assert result.exit_code == 1 and "CS080" in result.output


def test_overlays_and_compositions_are_not_taken_for_pipelines(workspace):
    (workspace / "channel" / "acme").mkdir(parents=True)
    (workspace / "channel" / "acme" / "channel.cfg.yaml").write_text(
        "channel: {id: acme}\n", encoding="utf-8")
    (workspace / "x.comp.yaml").write_text("_compose: {}\nnodes: []\npipeline: {}\n",
                                           encoding="utf-8")
    result = _invoke("validate", str(workspace))
    assert result.exit_code == 0, result.output
    assert "Validated 3 pipeline(s)" in result.output
