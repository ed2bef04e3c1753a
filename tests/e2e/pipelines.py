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


def project(pipeline: Path, out_dir: Path = Path("target")) -> Project:
    """The Project of a test pipeline. Its files are named by absolute paths (see above),
    which a pipeline may hold only when allowed explicitly (else E-SEC-001)."""
    return Project(pipeline, out_dir, allow_absolute_paths=True)


def run(executor, tmp_path: Path, yaml_text: str, files: dict[str, str]) -> Run:
    pipeline = write_case(tmp_path, yaml_text, files)
    result = project(pipeline, tmp_path / "target").run(executor=executor, base=tmp_path)
    return Run(result, tmp_path)


def run_fails(executor, tmp_path: Path, yaml_text: str, files: dict[str, str]):
    pipeline = write_case(tmp_path, yaml_text, files)
    with pytest.raises(DiagnosticError) as info:
        project(pipeline, tmp_path / "target").run(executor=executor, base=tmp_path)
    return info.value


# ---- pipeline text builders shared by the e2e tests -------------------------------------

DLQ_FIELDS = ("_cxl_dlq_source_name", "_cxl_dlq_source_row", "_cxl_dlq_error_category",
              "_cxl_dlq_trigger", "_cxl_dlq_stage")


def pipeline(*nodes: str, name: str = "t", extra: str = "") -> str:
    """A `continue` pipeline writing its DLQ to {dir}/out/dlq.csv; `extra`: more
    error_handling settings (one line)."""
    return f"""
pipeline:
  name: {name}
error_handling:
  strategy: continue
  {extra}
  dlq:
    path: {{dir}}/out/dlq.csv
nodes:
""" + "".join(nodes)


def source(name: str, columns: str, key: str | None = None) -> str:
    """A CSV source at {dir}/<name>.csv. `columns`: `a, b: int, c: int?` (string when no
    type is given; `?` = nullable: an empty cell is null); `key`: its correlation key."""
    def typ(c: str) -> str:
        t = c.split(":")[1].strip() if ":" in c else "string"
        return f"{{ nullable: {t[:-1]} }}" if t.endswith("?") else t

    schema = "\n".join(f"        - {{ name: {c.split(':')[0].strip()}, type: {typ(c)} }}"
                       for c in columns.split(","))
    ck = f"\n      correlation_key: {key}" if key else ""
    return f"""
  - type: source
    name: {name}
    config:
      name: {name}
      type: csv
      path: {{dir}}/{name}.csv{ck}
      schema:
{schema}
"""


def step(kind: str, name: str, input_: str, cxl: str, extra: str = "") -> str:
    """A transform or aggregate node; `extra`: more config lines (each starting with a
    newline and six spaces)."""
    body = "".join(f"        {line}\n"
                   for line in textwrap.dedent(cxl).strip("\n").splitlines())
    return f"""
  - type: {kind}
    name: {name}
    input: {input_}
    config:{extra}
      cxl: |
{body}"""


def transform(name: str, input_: str, cxl: str, extra: str = "") -> str:
    return step("transform", name, input_, cxl, extra)


def route(name: str, input_: str, branch: str, condition: str, default: str) -> str:
    """An exclusive route with one condition (`branch`) and a default branch."""
    return f"""
  - type: route
    name: {name}
    input: {input_}
    config:
      mode: exclusive
      conditions:
        {branch}: '{condition}'
      default: {default}
"""


def sink(name: str, input_: str, extra: str = "") -> str:
    """A CSV sink writing {dir}/out/<name>.csv."""
    return f"""
  - type: sink
    name: {name}
    input: {input_}
    config:
      name: {name}
      type: csv
      path: {{dir}}/out/{name}.csv{extra}
"""


def dlq(r: Run, fields: tuple[str, ...] = DLQ_FIELDS) -> list[tuple[str, ...]]:
    """The chosen fields of each DLQ entry, in file order (none when nothing was written);
    by default (source, row, category, trigger, stage)."""
    if not (r.dir / "out" / "dlq.csv").exists():
        return []
    return [tuple(e[f] for f in fields) for e in r.rows("dlq.csv")]
