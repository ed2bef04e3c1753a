"""The session keeps the code Spark compiles for a pipeline's statements
(`runtime/local.py::CODEGEN_CACHE_ENTRIES`): a second run of the same pipeline in the
session compiles next to nothing. With Spark's default of 100 classes, a run of a
retraction pipeline (more than 100 classes) evicted its own first classes and compiled
every one again the next time."""

from __future__ import annotations

from .pipelines import dlq, pipeline, run, sink, source, step

RETRACTING = pipeline(
    source("o", "order_id, customer, dept, day, amount", "customer"),
    step("transform", "check", "o", "emit amt = amount.to_int()"),
    step("aggregate", "daily", "check",
         "emit dept = dept\nemit day = day\nemit total = sum(amt)\nemit lines = count(*)"
         "\nemit lo = min(amt)\nemit mean = avg(amt)",
         "\n      group_by: [dept, day]"),
    step("transform", "running", "daily",
         "emit running_total = $window.cumulative_sum(total)"
         "\nemit dept_total = $window.sum(total)",
         "\n      analytic_window:\n        group_by: [dept]\n        sort_by:"
         "\n          - { field: day, order: asc }"),
    sink("out", "running"), name="cached")

FILES = {"o.csv": "order_id,customer,dept,day,amount\n"
                  "O1,C1,HR,d1,10\nO2,C1,HR,d2,4\nO3,C2,ENG,d1,bad\nO4,C2,ENG,d2,7\n"
                  "O5,C3,ENG,d1,5\n"}


def _compiles(spark) -> int:
    metrics = spark.sparkContext._jvm.org.apache.spark.metrics.source.CodegenMetrics
    return metrics.METRIC_COMPILATION_TIME().getCount()


def test_a_second_run_of_a_pipeline_compiles_next_to_nothing(spark, executor, tmp_path):
    assert int(spark.conf.get("spark.sql.codegen.cache.maxEntries")) >= 1000
    for d in ("a", "b"):
        (tmp_path / d).mkdir()
    before = _compiles(spark)
    first = run(executor, tmp_path / "a", RETRACTING, FILES)
    between = _compiles(spark)
    second = run(executor, tmp_path / "b", RETRACTING, FILES)
    after = _compiles(spark)
    for r in (first, second):
        assert sorted((x["dept"], x["day"], x["total"]) for x in r.rows("out.csv")) == [
            ("ENG", "d1", "5"), ("HR", "d1", "10"), ("HR", "d2", "4")]
        assert [e[2] for e in dlq(r)] == ["type_coercion_failure"]
    # the first run compiles what earlier tests of the session have not: with Spark's
    # 100 classes, its ~190 evicted one another and the second compiled ~190 again
    assert between - before >= after - between
    assert after - between <= 20
