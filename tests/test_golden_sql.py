"""The compiled SQL of every example, committed under tests/golden/<pipeline>/ (as Ibis
commits its `out.sql` snapshots): a change to the compiler shows in review as a diff of
the SQL it writes, and this test fails until the snapshots are refreshed.

Refresh them all, from the repository's root, with:

    for p in examples/*/pipeline.yaml; do clinker-sql compile "$p" --out tests/golden; done

(a removed example's folder is deleted by hand; the last test names it)."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from clinker_sql.cli import cli

REPO = Path(__file__).resolve().parents[1]
GOLDEN = REPO / "tests" / "golden"
EXAMPLES = sorted((REPO / "examples").glob("*/pipeline.yaml"))


@pytest.mark.parametrize("pipeline", EXAMPLES, ids=lambda p: p.parent.name)
def test_golden_sql_is_what_the_example_compiles_to(pipeline, monkeypatch):
    # the command CI runs, from the root as the refresh command is (source paths resolve
    # against the working folder)
    monkeypatch.chdir(REPO)
    result = CliRunner().invoke(cli, ["compile", "--check", "--out", "tests/golden",
                                      str(pipeline.relative_to(REPO))])
    assert result.exit_code == 0, (
        f"{result.output}\nthe golden SQL is stale: refresh it with the command at the top "
        "of this file and review the diff")
    assert "up to date" in result.output


def test_every_golden_folder_belongs_to_an_example():
    import yaml

    names = {yaml.safe_load(p.read_text(encoding="utf-8"))["pipeline"]["name"]
             for p in EXAMPLES}
    folders = {p.name for p in GOLDEN.iterdir() if p.is_dir()}
    assert folders == names, "a golden folder without its example, or the reverse"
