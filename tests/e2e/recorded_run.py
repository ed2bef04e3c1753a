"""Run `pipeline.yaml` of the current folder (as `clinker-sql run` does: relative paths
resolve against this folder, where Spark starts) on the embedded Spark, or on a Thrift
server (argv[1]: its URL), through a recording executor (runtime/recording.py); print
what it recorded and what of it is not a statement of the compiled folder, as JSON."""

from __future__ import annotations

import json
import sys
from dataclasses import asdict
from pathlib import Path

from clinker_sql.codegen.artifacts import safe_name
from clinker_sql.diagnostics import DiagnosticError
from clinker_sql.project import Project
from clinker_sql.runtime.recording import RecordingExecutor, uncompiled


def main() -> None:
    url = sys.argv[1] if len(sys.argv) > 1 else None
    if url:
        from clinker_sql.runtime.thrift import ThriftExecutor, parse_target_url

        inner = ThriftExecutor(parse_target_url(url))
    else:
        from clinker_sql.runtime.local import LocalSparkExecutor

        inner = LocalSparkExecutor()
    rec = RecordingExecutor(inner)
    try:
        exit_code = Project(Path("pipeline.yaml")).run(executor=rec).exit_code
    except DiagnosticError as exc:
        exit_code = exc.exit_code
    finally:
        rec.close()
    compiled = rec.compiled
    folder = Path("target") / safe_name(compiled.pipeline) if compiled else None
    node_sql = [s.sql for s in compiled.statements if s.layer == "node"] if compiled else []
    ran = {r.text for r in rec.recorded if r.statement}
    print(json.dumps({
        "exit_code": exit_code,
        "recorded": len(rec.recorded),
        "uncompiled": [asdict(r) for r in uncompiled(rec.recorded, folder)] if folder else [],
        "nodes_not_run": [s for s in node_sql if s not in ran],
    }))


if __name__ == "__main__":
    main()
