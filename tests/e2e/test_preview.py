"""`run --dry-run -n N` (Clinker's preview: crates/clinker/src/main.rs, PreviewPolicy::
RecordsPerSource and preview_writer_registry): every source reads its first N records,
the outputs are printed in their formats instead of written, no DLQ file is written, and
the exit code is a run's (2 with DLQ entries). One pipeline run on the shared session;
the command line's flag rules need no Spark."""

from __future__ import annotations

import io

from click.testing import CliRunner

from clinker_sql.cli import cli

from .pipelines import pipeline, project, sink, source, transform, write_case


def test_a_preview_reads_n_records_per_source_and_writes_nothing(executor, tmp_path):
    text = pipeline(source("a", "id, qty: int"), source("b", "id, qty: int"),
                    transform("t", "a", "emit id = id\nemit qty = qty * 10"),
                    sink("out", "t"), sink("out_b", "b"))
    path = write_case(tmp_path, text, {
        "a.csv": "id,qty\na1,1\na2,x\na3,3\n", "b.csv": "id,qty\nb1,5\nb2,6\nb3,7\n"})
    shown = io.StringIO()
    result = project(path, tmp_path / "target").preview(2, shown, executor=executor)
    lines = shown.getvalue().splitlines()
    assert lines == ["id,qty", "a1,10", "id,qty", "b1,5", "b2,6"]  # a2 is a type error
    assert result.exit_code == 2
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == []  # no output, no DLQ
    assert not (tmp_path / "target").exists()


def test_the_preview_flags_go_together(tmp_path):
    runner = CliRunner()
    for args, message in ((["-n", "2"], "requires --dry-run"),
                          (["--dry-run-output", "x.csv"], "requires -n"),
                          (["--dry-run", "--explain"], "cannot be used with --explain"),
                          (["--dry-run", "-n", "0"], "0")):
        out = runner.invoke(cli, ["run", str(tmp_path / "p.yaml"), *args])
        assert out.exit_code == 64 and message in out.output, (args, out.output)
