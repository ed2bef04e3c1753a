"""Build and run a pipeline inside the test's temporary folder on the shared session.

The shared JVM's working directory is the repository, so pipelines here use
absolute paths; `{dir}` in the YAML text is replaced by the temporary folder.
"""

from __future__ import annotations

import textwrap
from dataclasses import dataclass
from pathlib import Path

import pytest

from clinker_sql.diagnostics import DiagnosticError
from clinker_sql.project import Project
from clinker_sql.runtime.runner import RunResult

from .compare import read_csv


@dataclass
class Run:
    result: RunResult
    dir: Path

    def rows(self, name: str) -> list[dict[str, str]]:
        head, rows = read_csv(self.dir / "out" / name)
        return [dict(zip(head, r)) for r in rows]

    def column(self, name: str, column: str) -> list[str]:
        return [r[column] for r in self.rows(name)]


def write_case(tmp_path: Path, yaml_text: str, files: dict[str, str]) -> Path:
    (tmp_path / "out").mkdir(exist_ok=True)
    for name, content in files.items():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(content).lstrip("\n"), encoding="utf-8")
    pipeline = tmp_path / "pipeline.yaml"
    pipeline.write_text(textwrap.dedent(yaml_text).replace("{dir}", str(tmp_path)),
                        encoding="utf-8")
    return pipeline


def run(executor, tmp_path: Path, yaml_text: str, files: dict[str, str]) -> Run:
    pipeline = write_case(tmp_path, yaml_text, files)
    result = Project(pipeline, tmp_path / "target").run(executor=executor, base=tmp_path)
    return Run(result, tmp_path)


def run_fails(executor, tmp_path: Path, yaml_text: str, files: dict[str, str]):
    pipeline = write_case(tmp_path, yaml_text, files)
    with pytest.raises(DiagnosticError) as info:
        Project(pipeline, tmp_path / "target").run(executor=executor, base=tmp_path)
    return info.value
