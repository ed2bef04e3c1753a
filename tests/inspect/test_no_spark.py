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


def test_every_command_has_help():
    for command in ("validate", "explain", "lineage", "docs", "compile", "run"):
        proc = subprocess.run([sys.executable, "-m", "clinker_sql", command, "--help"],
                              capture_output=True, text=True, timeout=60)
        assert proc.returncode == 0 and "Usage:" in proc.stdout
        for line in proc.stdout.split("Options:", 1)[1].splitlines():
            if line.strip().startswith("-"):
                assert len(line.split("  ")) > 1 or line.rstrip().endswith("]"), line
