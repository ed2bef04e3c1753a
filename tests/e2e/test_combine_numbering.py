"""A combine over sources whose rows hold positions until the DLQ (codegen/numbering.py):
the build rows' entries name the driver row they matched in their detail, and the DLQ
turns that position into the driver's row number too (`$ref.order`, `$ref.row`)."""

from __future__ import annotations

from .pipelines import project
from .test_combine import combine, rows, sink, table

DRIVER = {"a.csv": "id,cust,amt\n1,c1,10\n2,c2,xx\n", "b.csv": "id,cust,amt\n3,c1,oops\n4,c3,7\n"}
BUILD = "cust,name\nc1,Ann\nc2,Bert\nc3,Cy\n"
BODY = "emit id = d.id\nemit name = b.name\nemit n = d.amt.to_int()"


def _pipeline(tmp, on_miss: str = "skip") -> str:
    (tmp / "drv").mkdir()
    for name, text in DRIVER.items():
        (tmp / "drv" / name).write_text(text, encoding="utf-8")
    (tmp / "bld.csv").write_text(BUILD, encoding="utf-8")
    (tmp / "out").mkdir()
    return f"""pipeline:
  name: numbered
error_handling:
  strategy: continue
  dlq:
    path: "{tmp / 'out' / 'dlq.csv'}"
nodes:
  - type: source
    name: drv
    config:
      name: drv
      type: csv
      glob: "{tmp / 'drv'}/*.csv"
      schema:
        - {{ name: id, type: string }}
        - {{ name: cust, type: string }}
        - {{ name: amt, type: string }}
  - type: source
    name: bld
    config:
      name: bld
      type: csv
      path: "{tmp / 'bld.csv'}"
      schema:
        - {{ name: cust, type: string }}
        - {{ name: name, type: string }}
""" + combine("enriched", "{ d: drv, b: bld }", "d.cust == b.cust", BODY, on_miss=on_miss,
              propagate_ck="driver") + sink(tmp, "out", "enriched")


def _run(tmp, executor, on_miss: str = "skip"):
    path = tmp / "pipeline.yaml"
    path.write_text(_pipeline(tmp, on_miss), encoding="utf-8")
    case = project(path, tmp / "target")
    return case.compile(), case.run(executor=executor, base=tmp)


def test_build_entries_name_the_driver_rows_number(tmp_path, executor):
    compiled, result = _run(tmp_path, executor)
    # both sources number their rows only for the DLQ: no pass over them up front
    assert not any(s.kind == "checkpoint" and s.name.endswith(".offsets")
                   for s in compiled.statements)
    assert table(tmp_path / "out" / "out.csv", "id", "name", "n") == [
        ("1", "Ann", "10"), ("4", "Cy", "7")]
    got = sorted((r["_cxl_dlq_source_name"], r["_cxl_dlq_source_row"],
                  r["_cxl_dlq_source_file"].rsplit("/", 1)[-1], r["_cxl_dlq_error_detail"])
                 for r in rows(tmp_path / "out" / "dlq.csv"))
    two = "row 2: field 'n': conversion failed: cannot convert 'xx' to Int"
    three = "row 3: field 'n': conversion failed: cannot convert 'oops' to Int"
    assert got == [("bld", "1", "bld.csv", three), ("bld", "2", "bld.csv", two),
                   ("drv", "2", "a.csv", two), ("drv", "3", "b.csv", three)]
    assert result.counts == {"total": 7, "ok": 2, "written": 2, "dlq": 4}


def test_on_miss_error_keeps_the_numbers_from_the_start(tmp_path):
    # its E319 message names the driver row before anything is written
    path = tmp_path / "pipeline.yaml"
    path.write_text(_pipeline(tmp_path, on_miss="error"), encoding="utf-8")
    compiled = project(path, tmp_path / "target").compile()
    assert any(s.kind == "checkpoint" and s.name == "drv.offsets" for s in compiled.statements)


def _build_step(result) -> dict:
    return next(t for t in result.timings
                if t["name"] == "enriched.build" and t["kind"] == "checkpoint")


def test_a_small_build_input_is_broadcast_from_its_source(tmp_path, executor):
    """A build input that Spark's optimizer estimates under its broadcast threshold gets
    no copy (materialize.BROADCAST); with broadcasts turned off, the copy is made. The
    outputs and the DLQ are the same either way."""
    got = {}
    conf = executor.spark.conf
    for limit in ("10485760", "-1"):
        case = tmp_path / f"limit{limit}"
        case.mkdir()
        conf.set("spark.sql.autoBroadcastJoinThreshold", limit)
        try:
            _, result = _run(case, executor)
        finally:
            conf.unset("spark.sql.autoBroadcastJoinThreshold")
        step = _build_step(result)
        assert step.get("broadcast") is (True if limit != "-1" else None)
        dlq = sorted((r["_cxl_dlq_source_name"], r["_cxl_dlq_source_row"],
                      r["_cxl_dlq_error_detail"]) for r in rows(case / "out" / "dlq.csv"))
        got[limit] = (table(case / "out" / "out.csv", "id", "name", "n"), dlq, result.counts)
    assert got["10485760"] == got["-1"]
    assert got["-1"][0] == [("1", "Ann", "10"), ("4", "Cy", "7")]
    assert got["-1"][2] == {"total": 7, "ok": 2, "written": 2, "dlq": 4}
