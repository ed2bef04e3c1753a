"""examples/multitenant (Clinker's own example, in its current overlay grammar): one
pipeline, run as-is, per channel and with a group. Each variant's rows are derived by
hand in examples/multitenant/README.md and kept in examples/multitenant/expected/."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from clinker_sql.diagnostics import DiagnosticError
from clinker_sql.project import Project

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "multitenant"
VARIANTS = {
    "base": {},
    "globex": {"channel": "globex"},  # derives the enterprise group from its labels
    "initech": {"channel": "initech"},
    "enterprise": {"groups": ("enterprise",)},
}


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    ws = tmp_path / "multitenant"
    shutil.copytree(EXAMPLE, ws, ignore=shutil.ignore_patterns("expected", "*.csv.*"))
    for stale in (ws / "pipeline" / "output").glob("*.csv"):
        stale.unlink()
    return ws


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_each_variant_writes_its_own_rows(executor, workspace, tmp_path, variant):
    project = Project(workspace / "pipeline" / "order_fulfillment.yaml", tmp_path / "target",
                      base_dir=workspace, **VARIANTS[variant])
    result = project.run(executor=executor)
    assert result.exit_code == 0
    written = (workspace / "pipeline" / "output" / "fulfilled.csv").read_text(encoding="utf-8")
    assert written == (EXAMPLE / "expected" / f"{variant}.csv").read_text(encoding="utf-8")


def test_overriding_the_fixed_threshold_is_e103(workspace, tmp_path):
    overlay = workspace / "channel" / "globex" / "order_fulfillment.channel.yaml"
    overlay.write_text(overlay.read_text(encoding="utf-8") +
                       "\nconfig:\n  risk.threshold: { value: 0.95 }\n", encoding="utf-8")
    project = Project(workspace / "pipeline" / "order_fulfillment.yaml", tmp_path / "target",
                      base_dir=workspace, channel="globex")
    with pytest.raises(DiagnosticError) as info:
        project.compile()
    assert info.value.diagnostics[0].code == "E103"


def test_each_tenant_compiles_into_a_folder_of_its_own(workspace, tmp_path):
    from click.testing import CliRunner

    from clinker_sql.cli import cli

    pipeline = str(workspace / "pipeline" / "order_fulfillment.yaml")
    out = tmp_path / "target"
    for extra in ([], ["--channel", "globex"], ["--channel", "initech"],
                  ["--group", "enterprise"]):
        result = CliRunner().invoke(cli, ["compile", pipeline, "--base-dir", str(workspace),
                                          "--out", str(out), *extra])
        assert result.exit_code == 0, result.output
    folders = sorted(p.name for p in out.iterdir())
    assert folders == ["order_fulfillment", "order_fulfillment+enterprise",
                       "order_fulfillment@globex", "order_fulfillment@initech"]
    # initech bypasses normalize: its compiled folder has no node file for it
    assert (out / "order_fulfillment" / "nodes" / "normalize.sql").is_file()
    assert not (out / "order_fulfillment@initech" / "nodes" / "normalize.sql").exists()
    result = CliRunner().invoke(cli, ["compile", pipeline, "--base-dir", str(workspace),
                                      "--out", str(out), "--channel", "globex", "--check"])
    assert result.exit_code == 0 and "up to date" in result.output, result.output
