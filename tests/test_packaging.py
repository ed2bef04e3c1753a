"""The installed package finds its templates and macros (non-editable installs too)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def test_templates_found_from_the_imported_package(tmp_path):
    code = ("import clinker_sql, clinker_sql.codegen.templates as t; "
            "print(clinker_sql.__file__); print('\\n'.join(t._search_paths())); "
            "t.environment().get_template('source_scan.sql.j2')")
    proc = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True,
                          text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    package_file, *paths = proc.stdout.split()
    package = Path(package_file).parent
    assert len(paths) == 2
    if package.parent != REPO:  # an installed wheel: templates ship inside the package
        assert all(Path(p).parent == package for p in paths)


def test_compile_does_not_import_pyspark(tmp_path):
    pipeline = REPO / "examples" / "employee_tiers" / "pipeline.yaml"
    code = ("import sys; from clinker_sql.project import Project; "
            f"Project({str(pipeline)!r}, {str(tmp_path)!r}).write(); "
            "assert 'pyspark' not in sys.modules, 'compile imported pyspark'")
    proc = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True,
                          text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr


def test_cli_help_on_every_command():
    for command in ([], ["compile"], ["run"], ["validate"], ["explain"]):
        proc = subprocess.run([sys.executable, "-m", "clinker_sql", *command, "--help"],
                              capture_output=True, text=True, timeout=60)
        assert proc.returncode == 0 and "Usage:" in proc.stdout
