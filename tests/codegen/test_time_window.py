"""Time-windowed aggregates at compile time (codegen/time_window.py): the YAML read into
durations, and what is refused with CS001 (no Spark)."""

from __future__ import annotations

import pytest

from clinker_sql.diagnostics import DiagnosticError
from clinker_sql.project import Project

SOURCE = """
  - type: source
    name: {name}
    config:
      name: {name}
      type: csv
      path: ./{name}.csv
      watermark: {{ column: event_ts{delay} }}{ck}
      schema:
        - {{ name: user_id, type: string }}
        - {{ name: event_ts, type: date_time }}
"""


def _pipeline(tmp_path, *, window="tumbling: { size: 1h }", lateness="", between="",
              agg_input="clicks", sources=("clicks",), delay="", ck="",
              strategy="continue") -> Project:
    nodes = "".join(SOURCE.format(name=s, delay=delay, ck=ck) for s in sources)
    text = f"""
pipeline:
  name: tw
error_handling:
  strategy: {strategy}
  dlq:
    path: ./out/dlq.csv
nodes:
{nodes}{between}
  - type: aggregate
    name: hourly
    input: {agg_input}
    config:
      group_by: [user_id]
      time_window:
        {window}{lateness}
      cxl: |
        emit user_id = user_id
        emit n = count(*)
  - type: sink
    name: out
    input: hourly
    config:
      name: out
      type: csv
      path: ./out/out.csv
"""
    path = tmp_path / "pipeline.yaml"
    path.write_text(text, encoding="utf-8")
    return Project(path, tmp_path / "target")


def _code(project: Project) -> str:
    with pytest.raises(DiagnosticError) as info:
        project.compile()
    return info.value.diagnostics[0].code


def _node_sql(project: Project) -> str:
    compiled = project.compile()
    return "\n".join(s.sql for s in compiled.statements if s.node == "hourly")


@pytest.mark.parametrize("text,micros", [
    ("500ms", 500_000), ("30s", 30_000_000), ("5m", 300_000_000), ("2h", 7_200_000_000),
    ("3d", 259_200_000_000), (" 7 m ", 420_000_000)])
def test_durations_read_as_clinker_reads_them(tmp_path, text, micros):
    p = _pipeline(tmp_path, window=f'hopping: {{ size: "{text}", slide: "{text}" }}',
                  lateness=f'\n      allowed_lateness: "{text}"')
    window = next(n for n in p.load().nodes if n.name == "hourly").time_window
    assert (window.kind, window.size_us, window.slide_us, window.lateness_us) == \
        ("hopping", micros, micros, micros)


@pytest.mark.parametrize("window", [
    "tumbling: { size: 1w }", "tumbling: { size: 10 }", "tumbling: { size: -5m }",
    "tumbling: { size: 0s }", "hopping: { size: 1h, slide: 0ms }", "hopping: { size: 1h }",
    "session: { size: 5m }", "{ tumbling: { size: 1h }, session: { gap: 5m } }"])
def test_a_wrong_window_is_E000(tmp_path, window):
    assert _code(_pipeline(tmp_path, window=window)) == "E000"


def test_the_delay_shifts_the_event_time(tmp_path):
    p = _pipeline(tmp_path, delay=", delay: 10m")
    assert next(n for n in p.load().nodes if n.name == "clicks").config.watermark_delay_us \
        == 600_000_000
    assert "UNIX_MICROS(CAST(`event_ts` AS TIMESTAMP)) - CAST(600000000 AS BIGINT)" in \
        _node_sql(p)


def test_each_kind_groups_by_the_window_start(tmp_path):
    for window in ("tumbling: { size: 1h }", "hopping: { size: 1h, slide: 30m }",
                   "session: { gap: 5m }"):
        sql = _node_sql(_pipeline(tmp_path, window=window))
        assert "GROUP BY\n  `user_id`,\n  `$window.start`" in sql, window
        assert "ORDER BY `$window.start` NULLS LAST, `$first` NULLS LAST" in sql, window


def test_a_merge_of_sources_is_read_input_after_input(tmp_path):
    merge = "\n  - type: merge\n    name: all\n    inputs: [views, clicks]\n"
    sql = _node_sql(_pipeline(tmp_path, sources=("clicks", "views"), between=merge,
                              agg_input="all"))
    assert "WHEN `$source.name` = 'views' THEN 0 WHEN `$source.name` = 'clicks' THEN 1" in sql
    assert "`$merge.max.0`" in sql and "`$merge.max.1`" not in sql


def test_a_merge_reading_one_source_twice_is_refused(tmp_path):
    between = ("\n  - type: route\n    name: split\n    input: clicks\n    config:\n"
               "      conditions:\n        mine: 'user_id == \"u1\"'\n      default: others\n"
               "\n  - type: merge\n    name: all\n    inputs: [split.mine, split.others]\n")
    assert _code(_pipeline(tmp_path, between=between, agg_input="all")) == "CS001"


def test_a_window_after_another_aggregate_is_refused(tmp_path):
    between = ("\n  - type: aggregate\n    name: first\n    input: clicks\n    config:\n"
               "      group_by: [user_id, event_ts]\n      cxl: |\n"
               "        emit user_id = user_id\n        emit event_ts = event_ts\n")
    assert _code(_pipeline(tmp_path, between=between, agg_input="first")) == "CS001"


def test_a_transform_writing_the_watermark_column_is_refused(tmp_path):
    shift = ("\n  - type: transform\n    name: shift\n    input: clicks\n    config:\n"
             "      cxl: |\n        emit event_ts = event_ts.add_days(1)\n")
    assert _code(_pipeline(tmp_path, between=shift, agg_input="shift")) == "CS001"


def test_a_transform_and_a_route_before_the_window_are_read_through(tmp_path):
    between = ("\n  - type: transform\n    name: tag\n    input: clicks\n    config:\n"
               "      cxl: |\n        emit tag = user_id.upper()\n"
               "\n  - type: route\n    name: split\n    input: tag\n    config:\n"
               "      conditions:\n        mine: 'tag == \"U1\"'\n      default: others\n")
    assert "`$late`" in _node_sql(_pipeline(tmp_path, between=between, agg_input="split.mine"))


def test_correlation_keys_are_refused(tmp_path):
    assert _code(_pipeline(tmp_path, ck="\n      correlation_key: user_id")) == "CS001"


def test_under_fail_fast_a_late_record_is_a_coded_check(tmp_path):
    compiled = _pipeline(tmp_path, strategy="fail_fast").compile()
    check = next(s for s in compiled.statements if s.name == "hourly.late")
    assert check.kind == "check" and check.step.code == "CS001"
    assert "hourly.late" not in [e.view for e in compiled.error_views]
