"""compile --check: committed compiled SQL must match what the pipeline compiles to."""

from __future__ import annotations

from .conftest import EXAMPLES


def test_up_to_date_then_stale_then_fixed(run_cli, tmp_path):
    pipeline = EXAMPLES[0]
    out = tmp_path / "target"
    r = run_cli("compile", pipeline, "--out", out, "--check")
    assert r.exit_code == 1 and "error[CS040]" in r.stderr
    assert "Only in compiled:" in r.stdout and "missing" in r.stderr
    assert not out.exists(), "--check writes nothing"

    assert run_cli("compile", pipeline, "--out", out).exit_code == 0
    r = run_cli("compile", pipeline, "--out", out, "--check")
    assert r.exit_code == 0, r.output
    assert "up to date" in r.stdout

    target = next(out.iterdir())
    victim = target / "nodes" / "enrich.sql"
    victim.write_text(victim.read_text().replace("'principal'", "'boss'"), encoding="utf-8")
    # an earlier layout's numbered file, and a file compile would not write in engine/
    (target / "99_leftover.sql").write_text("SELECT 1;\n", encoding="utf-8")
    (target / "engine" / "99_gone.sql").write_text("SELECT 1;\n", encoding="utf-8")
    (target / "notes.txt").write_text("mine\n", encoding="utf-8")  # not the compiler's
    r = run_cli("compile", pipeline, "--out", out, "--check")
    assert r.exit_code == 1
    assert "1 changed, 2 left over" in r.stderr
    assert f"--- committed/{victim}" in r.stdout and f"+++ compiled/{victim}" in r.stdout
    lines = r.stdout.splitlines()
    assert any(x.startswith("-") and x.strip("- ") == "THEN 'boss'" for x in lines)
    assert any(x.startswith("+") and x.strip("+ ") == "THEN 'principal'" for x in lines)
    assert "Only in committed:" in r.stdout and "99_leftover.sql" in r.stdout
    assert f"Only in committed: {target / 'engine' / '99_gone.sql'}" in r.stdout
    assert "notes.txt" not in r.stdout

    assert run_cli("compile", pipeline, "--out", out).exit_code == 0
    assert run_cli("compile", pipeline, "--out", out, "--check").exit_code == 0
    assert (target / "notes.txt").read_text() == "mine\n"
    assert not (target / "99_leftover.sql").exists()
    assert not (target / "engine" / "99_gone.sql").exists()
