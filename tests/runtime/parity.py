"""Parity with a local run: a case (an example, an acceptance case) run through a remote
target gives the same exit code, summary, error codes and output files as a local run.
Shared by the Thrift and the Spark Connect tests; a local run's result is kept for the
test process, so a case compared through both targets runs locally once."""

from __future__ import annotations

import csv
import io
import shutil
from pathlib import Path

from clinker_sql.diagnostics import DiagnosticError
from clinker_sql.project import Project
from clinker_sql.runtime.runner import failure_exit_code

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"
CASES = ROOT.parent / "shared" / "acceptance" / "cases"

_VOLATILE = ("_cxl_dlq_id", "_cxl_dlq_timestamp")


def _snapshot(out: Path, spark) -> dict[str, object]:
    """Every file of out/: bytes, with the run's folder masked in any path and except the
    DLQ's per-run id and timestamp columns, and Parquet files as schema + rows (parquet-mr
    lists a column's encodings in hash-set order, which differs between two JVMs even for
    the same data)."""
    files: dict[str, object] = {}
    for p in sorted(out.rglob("*")):
        if p.is_dir():
            files[p.relative_to(out).as_posix() + "/"] = None
            continue
        # a glob source's DLQ names its files by their full paths, in each run's folder
        data = p.read_bytes().replace(str(out.parent).encode(), b"<case>")
        if p.suffix == ".parquet":
            frame = spark.read.parquet(str(p))
            files[p.relative_to(out).as_posix()] = (frame.schema.json(),
                                                    [r.asDict() for r in frame.collect()])
            continue
        head = data.split(b"\n", 1)[0]
        if any(v.encode() in head for v in _VOLATILE):
            rows = list(csv.reader(io.StringIO(data.decode("utf-8"), newline="")))
            masked = [i for i, h in enumerate(rows[0]) if h in _VOLATILE]
            for row in rows[1:]:
                for i in masked:
                    row[i] = "<volatile>"
            data = rows
        files[p.relative_to(out).as_posix()] = data
    return files


def parity_cases(acceptance: bool = True) -> list[tuple[str, Path]]:
    """Every example, and with `acceptance` every acceptance case that passes locally."""
    cases = [("examples/" + p.name, p) for p in sorted(EXAMPLES.iterdir())
             if (p / "pipeline.yaml").is_file()]
    # the acceptance cases clinker-sql implements (tests/e2e/test_acceptance.py)
    if acceptance and CASES.is_dir():
        from tests.e2e.test_acceptance import PASSING

        cases += [("acceptance/" + p.name, p) for p in sorted(CASES.iterdir())
                  if (p / "pipeline.yaml").is_file() and p.name[:3] in PASSING]
    return cases


def copy_case(src: Path, dst: Path) -> Path:
    shutil.copytree(src, dst, ignore=shutil.ignore_patterns("expected", "out", "target",
                                                            "case.yaml"))
    (dst / "out").mkdir()
    return dst


_LOCAL: dict[str, tuple[tuple, dict[str, object]]] = {}


def _outcome(folder: Path, **how) -> tuple:
    """Run the case's pipeline in this process (`how`: the session's local executor, or a
    remote target), as `clinker-sql run -q` does: its exit code and summary line, or the
    codes of the diagnostics that stopped it."""
    project = Project(folder / "pipeline.yaml", folder / "target")
    try:
        result = project.run(base=folder, **how)
    except DiagnosticError as exc:
        return ("failed", failure_exit_code(exc), [d.code for d in exc.diagnostics])
    return ("ran", result.exit_code, result.summary)


def assert_same_outputs(name: str, folder: Path, target, tmp_path: Path, executor,
                        spark) -> None:
    """Run the case on `target` (a Thrift or Connect target) and locally, both in this
    process (the local run on the test session's Spark, once per test process for a case
    compared through both targets: no JVM starts for either), and compare the outcome
    (exit code and summary, or the diagnostic codes) and every output file."""
    if name not in _LOCAL:
        local = copy_case(folder, tmp_path / "local")
        _LOCAL[name] = (_outcome(local, executor=executor), _snapshot(local / "out", spark))
    remote = copy_case(folder, tmp_path / "remote")
    got = _outcome(remote, remote=target)
    want, local_files = _LOCAL[name]
    assert got == want
    assert _snapshot(remote / "out", spark) == local_files
