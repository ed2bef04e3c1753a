"""Row positions in place of row numbers until the DLQ (codegen/numbering.py): a clean run
never counts each file's rows, and a failing one prints the same row numbers as ever,
however Spark packs the files into its partitions."""

from __future__ import annotations

import pytest

from clinker_sql.codegen import numbering

from .pipelines import dlq, pipeline, project, run, sink, transform, write_case


def _glob_source(columns: str) -> str:
    schema = "\n".join(f"        - {{ name: {c.split(':')[0].strip()}, type: "
                       f"{c.split(':')[1].strip() if ':' in c else 'string'} }}"
                       for c in columns.split(","))
    return f"""
  - type: source
    name: src
    config:
      name: src
      type: csv
      glob: "{{dir}}/parts/*.csv"
      schema:
{schema}
"""


CHAIN = pipeline(
    _glob_source("id, q: int, x"),
    transform("parse", "src", "emit n = x.to_int()"),
    sink("out", "parse"), name="numbered")


def _files(bad: bool) -> dict[str, str]:
    """Three files; the middle one (by name) is the largest, so Spark reads it first."""
    def rows(prefix: str, n: int, bad_at: dict[int, str]) -> str:
        out = "id,q,x\n"
        for i in range(1, n + 1):
            q = "zz" if bad_at.get(i) == "q" else "1"
            x = "oops" if bad_at.get(i) == "x" else str(i)
            out += f"{prefix}{i},{q},{x}\n"
        return out
    a = rows("a", 3, {2: "x"} if bad else {})
    b = rows("b", 400, {150: "x", 151: "q"} if bad else {})
    c = rows("c", 2, {2: "x"} if bad else {})
    return {"parts/a.csv": a, "parts/b.csv": b, "parts/c.csv": c}


def _kinds(r) -> dict[str, dict]:
    return {t["name"]: t for t in r.result.timings if t["kind"] in ("checkpoint", "report")}


def test_a_clean_run_lists_the_files_and_counts_no_offsets(executor, tmp_path):
    r = run(executor, tmp_path, CHAIN, _files(bad=False))
    assert r.result.counts == {"total": 405, "ok": 405, "written": 405, "dlq": 0}
    ids = r.column("out.csv", "id")
    assert ids == [f"a{i}" for i in range(1, 4)] + [f"b{i}" for i in range(1, 401)] + \
        ["c1", "c2"]
    steps = _kinds(r)
    assert steps["src.files"].get("listed") is True
    assert "$pipeline.numbering" not in steps  # no pass over the files to number the rows


@pytest.mark.parametrize("mapped", [True, False], ids=["map_lookup", "join"])
def test_a_failing_run_prints_row_numbers_across_files(executor, tmp_path, monkeypatch,
                                                       mapped):
    """The rows find their file's rank in a literal map of the listed files (a few
    files), or by a join (more than numbering.MAPPED_FILES_MAX): the same positions
    either way."""
    if not mapped:
        monkeypatch.setattr(numbering, "MAPPED_FILES_MAX", 0)
    sent: list[str] = []
    execute = executor.execute
    monkeypatch.setattr(executor, "execute", lambda sql: (sent.append(sql), execute(sql))[1])
    r = run(executor, tmp_path, CHAIN, _files(bad=True))
    rows_view = [s for s in sent if s.startswith("CREATE OR REPLACE TEMPORARY VIEW `src.rows`")]
    assert rows_view and all(("ELEMENT_AT(MAP('file:" in s) is mapped for s in rows_view)
    assert not any("MAP_FROM_ENTRIES" in s for s in rows_view)  # no job builds the map
    assert r.result.counts["total"] == 405 and r.result.counts["dlq"] == 4
    assert dlq(r) == [
        ("src", "2", "type_coercion_failure", "true", "transform:parse"),
        ("src", "153", "type_coercion_failure", "true", "transform:parse"),
        ("src", "154", "type_coercion_failure", "true", "source"),
        ("src", "405", "type_coercion_failure", "true", "transform:parse")]
    details = [e["_cxl_dlq_error_detail"] for e in r.rows("dlq.csv")]
    assert details[0].startswith("row 2: ") and details[1].startswith("row 153: ")
    assert 'b.csv" row=154 column=2 field="q"' in details[2]
    assert details[3].startswith("row 405: ")
    files = [e["_cxl_dlq_source_file"].rsplit("/", 1)[-1] for e in r.rows("dlq.csv")]
    assert files == ["a.csv", "b.csv", "b.csv", "c.csv"]
    assert r.result.per_source["src"]["written"] == 401
    # each file's rows were counted while the output was written: no pass to number them
    assert _kinds(r)["$pipeline.numbering"].get("counted") is True


def test_a_source_of_many_files_gets_its_offsets_from_a_pass(executor, tmp_path,
                                                             monkeypatch):
    monkeypatch.setattr(numbering, "COUNTED_FILES_MAX", 2)  # three files are too many
    r = run(executor, tmp_path, CHAIN, _files(bad=True))
    assert [e[1] for e in dlq(r)] == ["2", "153", "154", "405"]
    assert _kinds(r)["$pipeline.numbering"].get("local") is True


def test_cxl_reading_source_row_keeps_the_numbers(executor, tmp_path):
    text = pipeline(_glob_source("id, q: int, x"),
                    transform("at", "src", "emit r = $source.row"),
                    sink("out", "at"), name="reads_row")
    compiled = project(write_case(tmp_path, text, _files(bad=False)),
                       tmp_path / "target").compile()
    assert "src.files" not in [s.name for s in compiled.statements]
    r = run(executor, tmp_path, text, _files(bad=False))
    assert r.column("out.csv", "r") == [str(i) for i in range(1, 406)]


def test_a_correlated_run_numbers_the_rows_only_when_a_group_fails(executor, tmp_path):
    source = _glob_source("id, q: int, x").replace(
        "      schema:", "      correlation_key: q\n      schema:")
    text = pipeline(source, transform("parse", "src", "emit n = x.to_int()"),
                    sink("out", "parse"), name="correlated")
    (tmp_path / "clean").mkdir()
    (tmp_path / "failing").mkdir()
    clean = run(executor, tmp_path / "clean", text, _files(bad=False))
    assert clean.result.counts == {"total": 405, "ok": 405, "written": 405, "dlq": 0}
    assert "$pipeline.numbering" not in _kinds(clean)
    failing = run(executor, tmp_path / "failing", text, {
        "parts/a.csv": "id,q,x\na1,1,5\na2,2,oops\n",
        "parts/b.csv": "id,q,x\n" + "".join(f"b{i},3,{i}\n" for i in range(1, 301)),
        "parts/c.csv": "id,q,x\nc1,2,7\nc2,4,8\n"})
    assert failing.column("out.csv", "id") == ["a1"] + [f"b{i}" for i in range(1, 301)] + \
        ["c2"]
    assert dlq(failing) == [("src", "2", "type_coercion_failure", "true", "transform:parse"),
                            ("src", "303", "correlated", "false", "correlation_commit")]
    # the first statement that read the rows counted them for the run summary; the
    # statements after it read them without the counts (runtime/runner.py::settle)
    assert failing.result.counts["total"] == 304
    plan = executor.spark.table("`src.rows`")._jdf.queryExecution().analyzed().toString()
    assert "CollectMetrics" not in plan


def test_files_with_spaces_quotes_and_accents_in_their_names(executor, tmp_path):
    # the listing names each file as Spark's scan does (URI-encoded alike): no row is lost
    r = run(executor, tmp_path, CHAIN, {
        "parts/it's a file.csv": "id,q,x\na1,1,5\na2,1,oops\n",
        "parts/zé 100%.csv": "id,q,x\nz1,1,7\n"})
    assert r.column("out.csv", "id") == ["a1", "z1"]
    assert r.result.counts["total"] == 3
    entry = r.rows("dlq.csv")[0]
    assert entry["_cxl_dlq_source_row"] == "2"
    assert entry["_cxl_dlq_source_file"].endswith("file.csv")  # (glob: URI-encoded, a gap)
