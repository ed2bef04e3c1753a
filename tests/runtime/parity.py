"""Parity with a local run: a case (an example, an acceptance case) run through a remote
target gives the same exit code, summary, error codes and output files as a local run.
Shared by the Thrift and the Spark Connect tests; a local run's result is kept for the
test process, so a case compared through both targets runs locally once."""

from __future__ import annotations

import csv
import io
import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"
CASES = ROOT.parent / "shared" / "acceptance" / "cases"
CLI = [sys.executable, "-m", "clinker_sql"]

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


_LOCAL: dict[str, tuple[subprocess.CompletedProcess, dict[str, object]]] = {}


def _codes(stderr: str) -> list[str]:
    return [ln.split("]")[0] for ln in stderr.splitlines() if ln.startswith("error[")]


def assert_same_outputs(name: str, folder: Path, target_args: list[str], tmp_path: Path,
                        spark) -> None:
    """Run the case with `target_args` and locally (both at once: the local run spends
    most of its time starting its JVM; the local run only once per test process), and
    compare exit codes, standard output, error codes and every output file."""
    remote = copy_case(folder, tmp_path / "remote")
    runs = [(remote, list(target_args))]
    if name not in _LOCAL:
        runs.append((copy_case(folder, tmp_path / "local"), []))
    env = dict(os.environ, CLINKER_SQL_MASTER="local[1]")
    procs = [subprocess.Popen(CLI + ["run", "pipeline.yaml", "--quiet", *extra], cwd=cwd,
                              env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              text=True)
             for cwd, extra in runs]
    try:
        done = []
        for proc in procs:
            out, err = proc.communicate(timeout=900)
            done.append(subprocess.CompletedProcess(proc.args, proc.returncode, out, err))
    finally:
        for proc in procs:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
    if len(done) == 2:
        _LOCAL[name] = (done[1], _snapshot(tmp_path / "local" / "out", spark))
    p_remote = done[0]
    p_local, local_files = _LOCAL[name]
    assert p_remote.returncode == p_local.returncode, (p_local.stderr, p_remote.stderr)
    assert p_remote.stdout == p_local.stdout
    assert _codes(p_remote.stderr) == _codes(p_local.stderr), (p_local.stderr,
                                                                p_remote.stderr)
    assert _snapshot(remote / "out", spark) == local_files
