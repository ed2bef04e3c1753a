"""`compile` replaces OUT/<pipeline>/ at once: a failure half-way leaves the previous
files byte for byte, a success leaves no stale .sql file, and the files compile does not
write (run_results.json, docs.html, a user's own) are kept either way."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from clinker_sql.cli import cli
from clinker_sql.codegen import atomic_folder
from clinker_sql.diagnostics import DiagnosticError
from clinker_sql.project import Project

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "employee_tiers"
KEPT = {"run_results.json": b'{"exit_code": 0}\n', "docs.html": b"<html></html>\n",
        "notes.txt": b"mine\n", "extra/deep.txt": b"deep\n"}


def _snapshot(folder: Path) -> dict[str, bytes | None]:
    """Every file (its bytes) and folder (None) under `folder`, hidden ones included."""
    return {str(p.relative_to(folder)): None if p.is_dir() else p.read_bytes()
            for p in sorted(folder.rglob("*"))}


@pytest.fixture
def compiled_once(tmp_path):
    """employee_tiers compiled into tmp/target, plus files compile does not write."""
    pipeline = tmp_path / "pipeline.yaml"
    shutil.copytree(EXAMPLE, tmp_path, dirs_exist_ok=True)
    project = Project(pipeline, tmp_path / "target")
    target = project.write(project.compile(base=tmp_path))
    for name, data in KEPT.items():
        (target / name).parent.mkdir(exist_ok=True)
        (target / name).write_bytes(data)
    return project, target


def _changed(project: Project) -> None:
    """The pipeline, edited so that it compiles to other files."""
    f = project.pipeline_file
    f.write_text(f.read_text(encoding="utf-8").replace('"principal"', '"lead"'),
                 encoding="utf-8")


def _fail_after(monkeypatch, n: int, exc: BaseException) -> None:
    real = atomic_folder.write_file
    calls = []

    def write_file(path, text):
        if len(calls) == n:
            raise exc
        calls.append(path)
        real(path, text)
    monkeypatch.setattr(atomic_folder, "write_file", write_file)


@pytest.mark.parametrize("exc", [OSError(28, "No space left on device"),
                                 RuntimeError("boom"), KeyboardInterrupt()],
                         ids=["oserror", "bug", "interrupt"])
def test_failure_half_way_leaves_the_old_folder(compiled_once, monkeypatch, exc):
    project, target = compiled_once
    before = _snapshot(target.parent)
    _changed(project)
    _fail_after(monkeypatch, 5, exc)
    with pytest.raises((DiagnosticError, type(exc))) as info:
        project.write(project.compile(base=project.pipeline_file.parent))
    if isinstance(exc, OSError):  # an I/O failure is a coded diagnostic, not CS999
        assert info.value.diagnostics[0].code == "CS103"
        assert "No space left on device" in info.value.diagnostics[0].message
    assert _snapshot(target.parent) == before  # no partial file, no hidden sibling left


def test_failure_of_the_swap_puts_the_old_folder_back(compiled_once, monkeypatch):
    project, target = compiled_once
    before = _snapshot(target.parent)
    _changed(project)
    real = os.rename

    def rename(src, dst):
        if Path(src).name.startswith(f".{target.name}.new-"):
            raise OSError(5, "Input/output error")
        real(src, dst)
    monkeypatch.setattr(atomic_folder.os, "rename", rename)
    with pytest.raises(DiagnosticError):
        project.write(project.compile(base=project.pipeline_file.parent))
    assert _snapshot(target.parent) == before


def test_recompile_drops_stale_sql_and_keeps_other_files(compiled_once):
    project, target = compiled_once
    (target / "99_leftover.sql").write_text("SELECT 1;\n", encoding="utf-8")  # old layout
    (target / "engine" / "99_leftover.sql").write_text("SELECT 1;\n", encoding="utf-8")
    old_manifest = (target / "manifest.json").read_bytes()
    _changed(project)
    assert project.write(project.compile(base=project.pipeline_file.parent)) == target
    assert not (target / "99_leftover.sql").exists()
    assert not (target / "engine" / "99_leftover.sql").exists()
    assert (target / "manifest.json").read_bytes() != old_manifest
    for name, data in KEPT.items():
        assert (target / name).read_bytes() == data
    assert sorted(p.name for p in target.parent.iterdir()) == [target.name]
    r = CliRunner().invoke(cli, ["compile", str(project.pipeline_file), "--out",
                                 str(target.parent), "--check"])
    assert r.exit_code == 0, r.output


def test_a_killed_compile_is_cleaned_up_or_put_back(compiled_once):
    """A compile killed between its two renames left the folder aside; the next one puts
    it back (with its run_results.json) and removes a half-written new folder."""
    project, target = compiled_once
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"],
                          capture_output=True, text=True, check=True).stdout.strip()
    aside = target.parent / f".{target.name}.old-{dead}-0123abcd"
    half = target.parent / f".{target.name}.new-{dead}-4567abcd"
    os.rename(target, aside)
    half.mkdir()
    (half / "01_x.sql").write_text("SELECT", encoding="utf-8")
    project.write(project.compile(base=project.pipeline_file.parent))
    assert sorted(p.name for p in target.parent.iterdir()) == [target.name]
    assert (target / "run_results.json").read_bytes() == KEPT["run_results.json"]


def test_a_file_where_the_folder_goes_is_a_coded_error(tmp_path):
    shutil.copytree(EXAMPLE, tmp_path, dirs_exist_ok=True)
    out = tmp_path / "target"
    out.mkdir()
    (out / "employee_tiers").write_text("not a folder", encoding="utf-8")
    r = CliRunner().invoke(cli, ["compile", str(tmp_path / "pipeline.yaml"), "--out", str(out)])
    assert r.exit_code == 4 and "error[CS103]" in r.output, r.output
    assert (out / "employee_tiers").read_text(encoding="utf-8") == "not a folder"


def test_a_linked_folder_is_written_through_its_link(tmp_path):
    shutil.copytree(EXAMPLE, tmp_path, dirs_exist_ok=True)
    real = tmp_path / "elsewhere"
    real.mkdir()
    (real / "run_results.json").write_text("{}\n", encoding="utf-8")
    out = tmp_path / "target"
    out.mkdir()
    (out / "employee_tiers").symlink_to(real)
    project = Project(tmp_path / "pipeline.yaml", out)
    project.write(project.compile(base=tmp_path))
    assert (out / "employee_tiers").is_symlink()
    assert (real / "run.sql").is_file() and (real / "run_results.json").read_text() == "{}\n"
