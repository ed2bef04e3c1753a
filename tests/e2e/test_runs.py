"""End-to-end runs on Spark: sources, transforms, sinks, error handling, atomic writes."""

from __future__ import annotations

import os

from .pipelines import run, run_fails

ONE_TRANSFORM = """
pipeline:
  name: t
error_handling:
  strategy: {strategy}
  dlq:
    path: {dir}/out/dlq.csv
nodes:
  - type: source
    name: src
    config:
      name: src
      type: csv
      path: {dir}/in.csv
      schema:
        - {{ name: id, type: string }}
        - {{ name: qty, type: int }}
        - {{ name: price, type: string }}
  - type: transform
    name: calc
    input: src
    config:
      cxl: |
        emit total = qty * price.to_int()
  - type: sink
    name: out
    input: calc
    config:
      name: out
      type: csv
      path: {dir}/out/out.csv
"""


def pipeline(strategy: str = "continue") -> str:
    return ONE_TRANSFORM.replace("{strategy}", strategy).replace("{{", "{").replace("}}", "}")


def test_pass_through_and_source_order(executor, tmp_path):
    r = run(executor, tmp_path, pipeline(), {"in.csv": """
        id,qty,price
        c,3,10
        a,1,5
        b,2,7
    """})
    assert r.result.exit_code == 0
    assert r.rows("out.csv") == [
        {"id": "c", "qty": "3", "price": "10", "total": "30"},
        {"id": "a", "qty": "1", "price": "5", "total": "5"},
        {"id": "b", "qty": "2", "price": "7", "total": "14"}]
    assert not (tmp_path / "out" / "dlq.csv").exists()


def test_type_error_and_eval_error_under_continue(executor, tmp_path):
    r = run(executor, tmp_path, pipeline(), {"in.csv": """
        id,qty,price
        a,x,5
        b,2,seven
        c,4,1
    """})
    assert r.result.exit_code == 2
    assert r.result.counts == {"total": 3, "ok": 1, "written": 1, "dlq": 2}
    assert r.column("out.csv", "id") == ["c"]
    dlq = {row["_cxl_dlq_source_row"]: row for row in r.rows("dlq.csv")}
    assert dlq["1"]["_cxl_dlq_stage"] == "source"
    assert dlq["1"]["_cxl_dlq_triggering_field"] == "qty"
    assert dlq["1"]["_cxl_dlq_triggering_value"] == "x"
    assert dlq["1"]["qty"] == "x"  # the original text, never a silent null
    assert dlq["2"]["_cxl_dlq_stage"] == "transform:calc"
    assert dlq["2"]["_cxl_dlq_triggering_field"] == "total"
    assert dlq["2"]["_cxl_dlq_triggering_value"] == "seven"
    assert {d["_cxl_dlq_error_category"] for d in dlq.values()} == {"type_coercion_failure"}


def test_a_final_newline_is_not_an_int(executor, tmp_path):
    """Ingest and to_int() parse strictly: a quoted cell "3<LF>" is a type error (Java's
    `$` would match before the newline, and Spark's cast would trim it)."""
    r = run(executor, tmp_path, pipeline(), {"in.csv": 'id,qty,price\na,"3\n",10\n'
                                             'b,2,"7\n"\nc,4,1\n'})
    assert r.column("out.csv", "id") == ["c"]
    dlq = {row["id"]: row for row in r.rows("dlq.csv")}
    assert dlq["a"]["_cxl_dlq_stage"] == "source"
    assert dlq["a"]["_cxl_dlq_triggering_value"] == "3\n"
    assert dlq["b"]["_cxl_dlq_stage"] == "transform:calc"
    assert dlq["b"]["_cxl_dlq_triggering_value"] == "7\n"


def test_fail_fast_writes_nothing(executor, tmp_path):
    (tmp_path / "out").mkdir()
    (tmp_path / "out" / "out.csv").write_text("previous\n")
    err = run_fails(executor, tmp_path, pipeline("fail_fast"), {"in.csv": """
        id,qty,price
        a,1,5
        b,2,seven
    """})
    assert err.diagnostics[0].code == "CS002" and err.exit_code == 3
    assert (tmp_path / "out" / "out.csv").read_text() == "previous\n"
    assert not (tmp_path / "out" / "dlq.csv").exists()
    assert [p.name for p in (tmp_path / "out").iterdir()] == ["out.csv"]


def test_fail_fast_source_type_error_is_e126_exit_4(executor, tmp_path):
    err = run_fails(executor, tmp_path, pipeline("fail_fast"), {"in.csv": """
        id,qty,price
        a,1,5
        b,many,7
    """})
    assert err.diagnostics[0].code == "E126" and err.exit_code == 4
    assert "row=2" in err.diagnostics[0].message and "qty" in err.diagnostics[0].message


def test_continue_with_a_dlq_block_without_path_counts_a_type_error(executor, tmp_path):
    """Clinker's E126 under `continue` asks for a `dlq:` block (`dlq.is_none()`), not for
    its path: with the block and no path the entry is counted and the run goes on."""
    text = pipeline().replace("path: {dir}/out/dlq.csv", "include_reason: true")
    r = run(executor, tmp_path, text, {"in.csv": """
        id,qty,price
        a,1,5
        b,many,7
        c,3,2
    """})
    assert r.result.exit_code == 2
    assert r.result.counts == {"total": 3, "ok": 2, "written": 2, "dlq": 1}
    assert r.column("out.csv", "id") == ["a", "c"]
    assert not (tmp_path / "out" / "dlq.csv").exists()


def test_csv_row_with_too_many_fields(executor, tmp_path):
    err = run_fails(executor, tmp_path, pipeline(), {"in.csv": """
        id,qty,price
        a,1,5
        b,2,7,extra
    """})
    assert err.diagnostics[0].code == "CS101" and err.exit_code == 4
    assert os.listdir(tmp_path / "out") == []


def test_unwritable_output_path(executor, tmp_path):
    text = pipeline().replace("{dir}/out/out.csv", "{dir}/missing/out.csv")
    err = run_fails(executor, tmp_path, text, {"in.csv": "id,qty,price\na,1,5\n"})
    assert err.diagnostics[0].code == "CS103" and err.exit_code == 4
    assert os.listdir(tmp_path / "out") == []


def test_missing_source_file(executor, tmp_path):
    """Clinker's discovery finds no file: E216 (exit 1), before the outputs are checked."""
    text = pipeline().replace("{dir}/in.csv", "{dir}/nope.csv")
    err = run_fails(executor, tmp_path, text, {})
    assert err.diagnostics[0].code == "E216" and err.exit_code == 1
    assert "nope.csv" in err.diagnostics[0].message
    glob = pipeline().replace("path: {dir}/in.csv", "glob: {dir}/data/*.csv").replace(
        "{dir}/out/out.csv", "{dir}/missing_folder/out.csv")
    err = run_fails(executor, tmp_path, glob, {})
    assert err.diagnostics[0].code == "E216" and "source 'src'" in err.diagnostics[0].message


def test_quoting_and_unicode_round_trip(executor, tmp_path):
    r = run(executor, tmp_path, pipeline(), {"in.csv": '''
        id,qty,price
        "a, ""quoted"" id",1,2
        "multi
        line",2,3
        héllo ✓,3,4
    '''})
    assert r.column("out.csv", "id") == ['a, "quoted" id', "multi\nline", "héllo ✓"]
    assert r.column("out.csv", "total") == ["2", "6", "12"]


def test_empty_cells(executor, tmp_path):
    text = pipeline().replace("{ name: qty, type: int }", "{ name: qty, type: { nullable: int } }")
    r = run(executor, tmp_path, text, {"in.csv": "id,qty,price\n,,5\n"})
    assert r.rows("out.csv") == [{"id": "", "qty": "", "price": "5", "total": ""}]


def test_csv_header_name_with_carriage_return_is_refused(executor, tmp_path):
    # Spark's CSV reader would take the lone CR for the file's line separator
    text = pipeline().replace("{ name: price, type: string }",
                              '{ name: "pr\\rice", type: string }')
    err = run_fails(executor, tmp_path, text, {"in.csv": 'id,qty,"pr\rice"\na,1,5\n'})
    assert err.diagnostics[0].code == "CS001" and "carriage return" in err.diagnostics[0].message
    assert os.listdir(tmp_path / "out") == []


def test_typed_cells_are_quoted_only_when_they_hold_the_delimiter(executor, tmp_path):
    """A number, date or bool cell skips the quoting test only when its type cannot print
    the delimiter: with `-` as delimiter a negative number and a date are still quoted."""
    text = pipeline().replace("emit total = qty * price.to_int()", """
        emit total = qty * price.to_int()
        emit half = price.to_int() / 2.0
        let text = "2024-01-0" + price
        emit day = text.to_date()
        emit big = qty > 0
""")
    for delimiter, expected in (
            ("-", 'id-qty-price-total-half-day-big\na-"-3"-5-"-15"-2.5-"2024-01-05"-false\n'),
            (".", 'id.qty.price.total.half.day.big\na.-3.5.-15."2.5".2024-01-05.false\n')):
        sunk = text.replace("path: {dir}/out/out.csv", "path: {dir}/out/out.csv\n"
                            f"      options: {{ delimiter: '{delimiter}' }}")
        r = run(executor, tmp_path, sunk, {"in.csv": "id,qty,price\na,-3,5\n"})
        assert (tmp_path / "out" / "out.csv").read_text() == expected


def test_rfc3339_datetimes_are_read_as_utc(executor, tmp_path):
    """Clinker's coerce_to_datetime: on the default chain an RFC 3339 value with an offset
    is accepted first and normalized to UTC (its DateTime has no zone); without an offset
    the chain's formats apply; surrounding blanks are refused."""
    from .pipelines import pipeline as build, sink, source, transform
    text = build(source("s", "id, at: date_time"),
                 transform("t", "s", 'emit id = id\nemit at = at\n'
                                     'emit shown = at.format_date("%Y-%m-%d %H:%M:%S")'),
                 sink("out", "t"), name="rfc3339")
    r = run(executor, tmp_path, text, {"s.csv": """\
        id,at
        z,2026-01-31T08:27:00Z
        plus,2026-01-31T08:27:00+02:30
        minus,2026-01-31T23:27:00.250-01:00
        lower,2026-01-31t08:27:00z
        naive,2026-01-31T08:27:00
        space,2026-01-31 08:27:00+00:00
        blank," 2026-01-31T08:27:00Z"
        badhour,2026-01-31T08:27:00+24:00
    """})
    shown = dict(zip(r.column("out.csv", "id"), r.column("out.csv", "shown")))
    assert shown == {"z": "2026-01-31 08:27:00", "plus": "2026-01-31 05:57:00",
                     "minus": "2026-02-01 00:27:00", "lower": "2026-01-31 08:27:00",
                     "naive": "2026-01-31 08:27:00", "space": "2026-01-31 08:27:00"}
    assert sorted(row["id"] for row in r.rows("dlq.csv")) == ["badhour", "blank"]


def test_several_paths_are_read_in_name_order(executor, tmp_path):
    """Clinker's discovery sorts a `paths:` list by name (discovery.rs sort_files), as a
    glob's files: b.csv is listed first but its rows come after a.csv's."""
    from .pipelines import pipeline as build, sink, source
    text = build(source("s", "id, n: int"), sink("out", "s"), name="paths").replace(
        "      path: {dir}/s.csv", "      paths:\n        - {dir}/in/b.csv\n"
        "        - {dir}/in/a.csv")
    r = run(executor, tmp_path, text, {"in/a.csv": "id,n\na1,1\na2,x\n",
                                        "in/b.csv": "id,n\nb1,3\n"})
    assert r.column("out.csv", "id") == ["a1", "b1"]
    assert [(e["id"], e["_cxl_dlq_source_row"]) for e in r.rows("dlq.csv")] == [("a2", "2")]


def test_an_analysis_error_prints_no_pyspark_log_line(executor, capsys):
    """PySpark 4 logs each analysis error as a JSON line on stderr; clinker-sql reports
    errors itself (a code, a location), so that line is switched off."""
    from clinker_sql.runtime.executor import StatementFailed

    try:
        executor.execute("SELECT no_such_column")
    except StatementFailed:
        pass
    assert "SQLQueryContextLogger" not in capsys.readouterr().err


def test_an_unclassified_jvm_failure_names_the_exception_not_the_py4j_call():
    """Py4J's first line only names the call ("...calling o48.sql."); a JVM exception with
    no Spark error class is reported by its own line, so the user sees what failed."""
    from clinker_sql.runtime.local import _translate

    class Py4JLike(Exception):
        def __str__(self):
            return ("An error occurred while calling o48.sql.\n"
                    ": java.lang.IllegalStateException: block rdd_12_0 was not found\n"
                    "\tat org.apache.spark.storage.BlockManager.get(BlockManager.scala:1)\n")

    failed = _translate(Py4JLike())
    assert failed.error_class is None
    assert failed.message == "java.lang.IllegalStateException: block rdd_12_0 was not found"


def test_a_run_leaves_no_job_registered_in_the_session(executor, tmp_path):
    """Every job of a run ends inside its SQL execution: Spark 4.3 keeps a job started
    after its execution ended (a `toLocalIterator` read) in `activeQueryToJobs` for the
    session's life, with the broadcast relations its plan holds (~32 MB each), and a
    session running many pipelines (the tests, a notebook) ran out of driver memory."""
    jobs = executor.spark._jsc.sc().dagScheduler().activeQueryToJobs()
    before = jobs.size()
    r = run(executor, tmp_path, pipeline(), {"in.csv": "id,qty,price\na,1,5\nb,x,5\n"})
    assert r.result.counts["dlq"] == 1  # a check, a probe and the report were queried
    run_fails(executor, tmp_path, pipeline("fail_fast"), {"in.csv": "id,qty,price\nb,x,5\n"})
    assert jobs.size() == before


_SCHEMA_INLINE = """      schema:
        - { name: id, type: string }
        - { name: qty, type: int }
        - { name: price, type: string }
"""


def test_an_external_schema_file_types_the_source(executor, tmp_path):
    """`schema: <path>` reads the same column list from a file (relative to the working
    directory, as Clinker reads it): here its int column still sends `x` to the DLQ."""
    text = pipeline().replace(_SCHEMA_INLINE, "      schema: {dir}/in.schema.yaml\n")
    r = run(executor, tmp_path, text, {"in.csv": "id,qty,price\na,x,5\nb,2,7\n",
                                       "in.schema.yaml": """
        - { name: id, type: string }
        - { name: qty, type: int }
        - { name: price, type: string }
    """})
    assert r.rows("out.csv") == [{"id": "b", "qty": "2", "price": "7", "total": "14"}]
    assert [row["_cxl_dlq_error_category"] for row in r.rows("dlq.csv")] == \
        ["type_coercion_failure"]


def test_a_missing_or_nested_external_schema_file_is_an_e000(executor, tmp_path):
    text = pipeline().replace(_SCHEMA_INLINE, "      schema: {dir}/in.schema.yaml\n")
    err = run_fails(executor, tmp_path, text, {"in.csv": "id,qty,price\n"})
    assert err.diagnostics[0].code == "E000" and "in.schema.yaml" in err.diagnostics[0].message
    err = run_fails(executor, tmp_path, text, {"in.csv": "id,qty,price\n",
                                               "in.schema.yaml": "./other.schema.yaml\n"})
    assert err.diagnostics[0].code == "E000" and "nested" in err.diagnostics[0].message
