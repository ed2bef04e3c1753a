"""Everything but `run` works without Java and never imports pyspark."""

from __future__ import annotations

import subprocess
import sys

from .conftest import EXAMPLES, REPO

SCRIPT = """
import sys
from clinker_sql.cli import cli
pipeline, out = sys.argv[1], sys.argv[2]
commands = [
    ["validate", pipeline],
    ["explain", pipeline], ["explain", pipeline, "--format", "json"],
    ["explain", pipeline, "--format", "dot"], ["explain", "--code", "E153"],
    ["run", pipeline, "--explain"],
    ["lineage", pipeline, "roster.bonus"],
    ["docs", pipeline, "--out", out],
    ["compile", pipeline, "--out", out], ["compile", pipeline, "--out", out, "--check"],
]
for args in commands:
    try:
        cli.main(args, prog_name="clinker-sql", standalone_mode=False)
    except SystemExit as exc:
        assert not exc.code, (args, exc.code)
assert "pyspark" not in sys.modules, "imported pyspark"
assert "py4j" not in sys.modules, "imported py4j"
print("OK")
"""


def test_no_pyspark_and_no_java(tmp_path):
    pipeline = next(p for p in EXAMPLES if p.parent.name == "employee_tiers")
    env = {"PATH": "/usr/bin:/bin", "JAVA_HOME": str(tmp_path / "no-java")}
    proc = subprocess.run([sys.executable, "-c", SCRIPT, str(pipeline), str(tmp_path / "t")],
                          cwd=REPO, capture_output=True, text=True, timeout=120, env=env)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert proc.stdout.rstrip().endswith("OK")


def test_every_command_and_option_has_help():
    import click

    from clinker_sql.cli import cli

    def walk(cmd, path):
        assert cmd.help, f"{path}: no help"
        for p in cmd.params:
            if isinstance(p, click.Option) and p.name != "help":
                assert p.help, f"{path} {p.opts}: no help"
        for name, sub in getattr(cmd, "commands", {}).items():
            walk(sub, f"{path} {name}")
    walk(cli, "clinker-sql")
    proc = subprocess.run([sys.executable, "-m", "clinker_sql", "lineage", "--help"],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0 and "NODE.COLUMN" in proc.stdout
