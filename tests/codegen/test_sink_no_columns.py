"""A Parquet file or a table cannot hold zero columns: a sink of either kind whose
`exclude:` leaves nothing to write is refused when compiling (it was a Spark error,
`SELECT FROM`, at run time). CSV and JSON sinks write their empty records, as Clinker
does."""

from __future__ import annotations

import pytest

from clinker_sql.diagnostics import DiagnosticError
from clinker_sql.project import Project
from tests.e2e.pipelines import pipeline, sink, source, write_case


def _compile(tmp_path, kind: str):
    out = sink("out", "s", "\n      exclude: [id, n]")
    if kind == "table":
        out = out.replace("type: csv", "type: table").replace(
            "path: {dir}/out/out.csv", "table: out_table")
    else:
        out = out.replace("type: csv", f"type: {kind}").replace("out.csv", f"out.{kind}")
    path = write_case(tmp_path, pipeline(source("s", "id, n: int"), out), {"s.csv": "id,n\n"})
    return Project(path, tmp_path / "target", allow_absolute_paths=True).compile(base=tmp_path)


@pytest.mark.parametrize("kind", ["parquet", "table"])
def test_a_parquet_or_table_sink_with_no_column_is_refused(tmp_path, kind):
    with pytest.raises(DiagnosticError) as info:
        _compile(tmp_path, kind)
    d = info.value.diagnostics[0]
    assert d.code == "CS001" and "writes no column" in d.message
    assert d.location is not None and d.location.line > 0


@pytest.mark.parametrize("kind", ["csv", "json"])
def test_text_sinks_with_no_column_compile(tmp_path, kind):
    assert any(s.kind == "write" and s.name == "out" for s in _compile(tmp_path, kind).statements)
