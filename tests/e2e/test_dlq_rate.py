"""DLQ rate ceilings (spec §3.2; Clinker's dlq_rate_threshold.rs): a source's DLQ entries
over its rows (E316) or all entries over all rows (E315), once min_records rows were
read; `>=` trips; exit 3 and nothing committed. clinker-sql checks the run's totals
(runtime/dlq_rate.py)."""

from __future__ import annotations

import pytest

from clinker_sql.diagnostics import EXIT_EVAL

from .pipelines import dlq, pipeline, run, run_fails, sink, source, transform

# a, b: four rows each; every row of b fails (1 / 0), as in Clinker's fail_src_b_yaml
FILES = {"a.csv": "id,amt\n1,10\n2,20\n3,30\n4,40\n",
         "b.csv": "id,amt\n10,10\n11,11\n12,12\n13,13\n"}


def _text(limits: str) -> str:
    text = pipeline(source("a", "id: int, amt: int"), source("b", "id: int, amt: int"),
                    "\n  - type: merge\n    name: m\n    inputs: [a, b]\n",
                    transform("t", "m", 'emit id = id\nemit ratio = if($source.name == "b") '
                              "then (1 / 0) else amt"),
                    sink("out", "t"), name="dlq_rate")
    return text.replace("    path: {dir}/out/dlq.csv\n",
                        "    path: {dir}/out/dlq.csv\n" + limits)


@pytest.mark.parametrize("limits,code,who", [
    ("    min_records: 2\n    per_source:\n      b:\n        max_rate: 0.1\n", "E316", "'b'"),
    ("    min_records: 4\n    max_rate: 0.4\n", "E315", "pipeline"),
    # 4 of 8 rows is exactly 0.5: a tie trips
    ("    min_records: 8\n    max_rate: 0.5\n", "E315", "pipeline")])
def test_a_rate_at_or_over_the_ceiling_halts_with_nothing_written(executor, tmp_path, limits,
                                                                  code, who):
    err = run_fails(executor, tmp_path, _text(limits), FILES)
    d = err.diagnostics[0]
    assert d.code == code and who in d.message and "4 of" in d.message
    assert err.exit_code == EXIT_EVAL
    assert not (tmp_path / "out" / "out.csv").exists()
    assert not (tmp_path / "out" / "dlq.csv").exists()


@pytest.mark.parametrize("limits", [
    "    max_rate: 0.4\n",  # min_records defaults to 100: the floor is never reached
    "    min_records: 8\n    max_rate: 0.6\n",  # 0.5 is under the ceiling
    "    per_source:\n      a:\n        max_rate: 0.1\n        min_records: 1\n"])
def test_under_the_ceiling_or_the_floor_the_run_completes(executor, tmp_path, limits):
    r = run(executor, tmp_path, _text(limits), FILES)
    assert r.result.exit_code == 2
    assert sorted(r.column("out.csv", "id")) == ["1", "2", "3", "4"]
    assert sorted(e[:2] for e in dlq(r)) == [("b", "1"), ("b", "2"), ("b", "3"), ("b", "4")]
