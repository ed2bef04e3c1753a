"""A source's bytes as Clinker's readers take them: bytes that are not UTF-8 in a UTF-8
source fail the run (CS109, exit 4), a file with no record fails a CSV with a header
(CS110) and reads as no rows otherwise, an empty file among files with records is a schema
mismatch (E217)."""

from __future__ import annotations

import os
from pathlib import Path

from .pipelines import project, run, run_fails, write_case

CSV = """
pipeline:
  name: t
error_handling:
  strategy: continue
  dlq:
    path: {dir}/out/dlq.csv
nodes:
  - type: source
    name: src
    config:
      name: src
      type: csv
      FILES{options}
      schema:
        - { name: id, type: string }
        - { name: name, type: string }
  - type: sink
    name: out
    input: src
    config:
      name: out
      type: csv
      path: {dir}/out/out.csv
"""

NDJSON = CSV.replace("type: csv\n      FILES", "type: json\n      FILES").replace(
    "{options}", "\n      options: { format: ndjson }")

NOT_UTF8 = ("input is not valid UTF-8. Declare the source's character set (e.g. "
            "`encoding: iso-8859-1`) if the input uses a non-UTF-8 repertoire")

# clean rows past the compiler's read of a file's start (input_files.HEAD_MAX_BYTES):
# bytes after them are tested by the run's check (codegen/input_bytes.py)
FILLER = b"".join(b"%d,clean row number %d of the filler\n" % (i, i) for i in range(40_000))


def _pipeline(template: str, files: str, options: str = "") -> str:
    return template.replace("FILES", files).replace("{options}", options)


def _write(tmp_path: Path, text: str, files: dict[str, bytes]):
    pipeline = write_case(tmp_path, text, {})
    for name, data in files.items():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
    return pipeline


def _run(executor, tmp_path: Path, text: str, files: dict[str, bytes]):
    pipeline = _write(tmp_path, text, files)
    return project(pipeline, tmp_path / "target").run(executor=executor, base=tmp_path)


def _fails(executor, tmp_path: Path, text: str, files: dict[str, bytes]):
    _write(tmp_path, text, files)
    return run_fails(executor, tmp_path, text, {})


def _rows(tmp_path: Path) -> list[str]:
    return (tmp_path / "out" / "out.csv").read_text(encoding="utf-8").splitlines()


def test_latin1_bytes_under_the_default_encoding_fail_the_run(executor, tmp_path):
    """Clinker: "charset error: input is not valid UTF-8", a format error, exit 4; nothing
    written, no DLQ entry."""
    err = _fails(executor, tmp_path, _pipeline(CSV, "path: {dir}/in.csv"),
                 {"in.csv": b"id,name\n1,Caf\xe9\n2,ok\n"})
    d = err.diagnostics[0]
    assert (d.code, err.exit_code) == ("CS109", 4)
    assert d.message == f'source "src": file "{tmp_path}/in.csv": {NOT_UTF8}'
    assert os.listdir(tmp_path / "out") == []


def test_latin1_bytes_past_the_start_of_a_file_fail_the_run(executor, tmp_path):
    """The bad byte after the compiler's read: the run sees U+FFFD in a row and tests the
    files' bytes; the file named is the one that holds it, not its clean neighbour."""
    text = _pipeline(CSV, "glob: {dir}/data/*.csv")
    err = _fails(executor, tmp_path, text, {
        "data/a.csv": b"id,name\n" + FILLER,
        "data/b.csv": b"id,name\n" + FILLER + b"99,Caf\xe9\n"})
    d = err.diagnostics[0]
    assert (d.code, err.exit_code) == ("CS109", 4)
    assert d.message == f'source "src": file "{tmp_path}/data/b.csv": {NOT_UTF8}'
    assert os.listdir(tmp_path / "out") == []


def test_a_declared_latin1_encoding_reads_the_bytes(executor, tmp_path):
    result = _run(executor, tmp_path, _pipeline(
        CSV, "path: {dir}/in.csv", "\n      options: { encoding: iso-8859-1 }"),
        {"in.csv": b"id,name\n1,Caf\xe9\n"})
    assert result.exit_code == 0
    assert _rows(tmp_path) == ["id,name", "1,Café"]


def test_a_utf8_file_holding_u_fffd_is_read_unchanged(executor, tmp_path):
    """U+FFFD written in the file (valid UTF-8), at its start and past it: the run tests
    the bytes and passes."""
    fffd = "x\ufffdy".encode("utf-8")
    result = _run(executor, tmp_path, _pipeline(CSV, "path: {dir}/in.csv"),
                  {"in.csv": b"id,name\n1," + fffd + b"\n" + FILLER + b"2," + fffd + b"\n"})
    assert result.exit_code == 0
    rows = _rows(tmp_path)
    assert rows[1] == "1,x\ufffdy" and rows[-1] == "2,x\ufffdy"
    assert len(rows) == 1 + 2 + 40_000


def test_invalid_utf8_in_a_json_source_fails_the_run(executor, tmp_path):
    err = _fails(executor, tmp_path, _pipeline(NDJSON, "path: {dir}/in.json"),
                 {"in.json": b'{"id": "1", "name": "Caf\xe9"}\n'})
    assert (err.diagnostics[0].code, err.exit_code) == ("CS109", 4)


def test_a_zero_byte_csv_has_no_header_row(executor, tmp_path):
    """Clinker: "schema inference failed: header row is empty" (exit 4)."""
    err = _fails(executor, tmp_path, _pipeline(CSV, "path: {dir}/in.csv"), {"in.csv": b""})
    d = err.diagnostics[0]
    assert (d.code, err.exit_code) == ("CS110", 4)
    assert d.message == (f'source "src": file "{tmp_path}/in.csv": schema inference '
                         "failed: header row is empty")
    assert os.listdir(tmp_path / "out") == []


def test_a_zero_byte_csv_in_a_glob_fails_the_run(executor, tmp_path):
    err = _fails(executor, tmp_path, _pipeline(CSV, "glob: {dir}/data/*.csv"), {
        "data/a.csv": b"id,name\n1,a\n", "data/b.csv": b"", "data/c.csv": b"id,name\n3,c\n"})
    d = err.diagnostics[0]
    assert (d.code, err.exit_code) == ("CS110", 4)
    assert f'file "{tmp_path}/data/b.csv"' in d.message


def test_a_header_only_csv_and_a_zero_byte_headerless_csv_have_no_rows(executor, tmp_path):
    result = _run(executor, tmp_path, _pipeline(CSV, "path: {dir}/in.csv"),
                  {"in.csv": b"id,name\n"})
    assert result.exit_code == 0 and result.counts["total"] == 0
    assert _rows(tmp_path) == ["id,name"]
    other = tmp_path / "headerless"
    other.mkdir()
    result = _run(executor, other, _pipeline(
        CSV, "path: {dir}/in.csv", "\n      options: { has_header: false }"),
        {"in.csv": b""})
    assert result.exit_code == 0 and result.counts["total"] == 0
    assert _rows(other) == ["id,name"]


def test_an_empty_ndjson_file_has_no_rows(executor, tmp_path):
    result = run(executor, tmp_path, _pipeline(NDJSON, "path: {dir}/in.json"),
                 {"in.json": ""})
    assert result.result.exit_code == 0 and result.result.counts["total"] == 0
    assert _rows(tmp_path) == ["id,name"]


def test_an_empty_ndjson_file_among_others_is_a_schema_mismatch(executor, tmp_path):
    """Clinker takes the schema of each file from its first record: none in an empty file,
    which then differs from the first file's (E217, exit 4)."""
    err = run_fails(executor, tmp_path, _pipeline(NDJSON, "glob: {dir}/data/*.json"), {
        "data/a.json": '{"id": "1", "name": "a"}\n', "data/b.json": ""})
    d = err.diagnostics[0]
    assert (d.code, err.exit_code) == ("E217", 4)
    assert d.message == (f'source "src": multi-file source: schema mismatch at file '
                         f'"{tmp_path}/data/b.json": expected columns [\'id\', \'name\'], '
                         "got []")
