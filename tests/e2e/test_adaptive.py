"""Spark's adaptive rule that drops a branch once it ran empty (AQEPropagateEmptyRelation)
is excluded for the session, so that observed counts below such a branch are not lost
(codegen/compiler.py); the runner allows it again while a statement that observes nothing
runs (runtime/runner.py, `_Views.adaptive`)."""

from __future__ import annotations

from clinker_sql.codegen.compiler import EMPTY_PROPAGATION_KEY, EMPTY_PROPAGATION_RULE
from clinker_sql.codegen.retraction import CANDIDATES

from .pipelines import dlq, pipeline, run, sink, source, step, transform


class _Recording:
    """The session's executor, noting for each statement whether the rule was allowed."""

    def __init__(self, inner):
        self.inner, self.seen = inner, []

    def __getattr__(self, name):
        return getattr(self.inner, name)

    def _allowed(self) -> bool:
        return self.inner.spark.conf.get(EMPTY_PROPAGATION_KEY, "") != EMPTY_PROPAGATION_RULE

    def execute(self, sql: str) -> None:
        self.seen.append((sql, self._allowed()))
        self.inner.execute(sql)

    def query(self, sql: str):
        self.seen.append((sql, self._allowed()))
        return self.inner.query(sql)

    def first(self, sql: str):
        self.seen.append((sql, self._allowed()))
        return self.inner.first(sql)


_HEAD = (
    source("o", "order_id, dept, amount", "order_id"),
    step("transform", "check", "o",
         "emit order_id = order_id\nemit dept = dept\nemit amt = amount.to_int()"),
    step("aggregate", "totals", "check", "emit dept = dept\nemit lo = min(amt)",
         "\n      group_by: [dept]"))
RETRACTING = pipeline(*_HEAD, sink("out", "totals"), name="retracting")
# a row after the aggregate fails in the first pass (ENG: 100 / 0), so the pass's
# triggers are not only those that seeded the retraction and the runner asks Spark
# whether the pass retracts anything new
LATE = pipeline(*_HEAD, transform("ratio", "totals", "emit dept = dept\nemit r = 100 / (lo - 7)"),
                sink("out", "ratio"), name="late")


def test_a_retraction_pass_runs_with_the_rule_and_the_session_gets_the_exclusion_back(
        executor, tmp_path):
    rec = _Recording(executor)
    files = {"o.csv": "order_id,dept,amount\nO1,HR,10\nO2,HR,4\nO2,ENG,bad\nO3,ENG,7\n"}
    r = run(rec, tmp_path, RETRACTING, files)
    assert sorted((x["dept"], x["lo"]) for x in r.rows("out.csv")) == [("ENG", "7"),
                                                                       ("HR", "10")]
    assert [e[1:] for e in dlq(r)] == [("3", "type_coercion_failure", "true",
                                        "transform:check")]
    assert not rec._allowed()  # back to the session's setting
    rec = _Recording(executor)
    (tmp_path / "late").mkdir()
    r = run(rec, tmp_path / "late", LATE, files)
    assert [x["dept"] for x in r.rows("out.csv")] == ["HR"]
    assert ("<merged>", "transform:ratio") in {(e[0], e[4]) for e in dlq(r)}
    passes = [allowed for sql, allowed in rec.seen if f"FROM `{CANDIDATES}`" in sql]
    assert passes and all(passes)
    assert not rec._allowed()


def test_a_write_that_reads_an_observed_view_runs_without_the_rule(executor, tmp_path):
    """The writes count the rows that would fail (codegen/empty_dlq.py): the first write
    reads observed views, and must keep the exclusion."""
    text = pipeline(source("src", "id, x"), transform("parse", "src", "emit n = x.to_int()"),
                    sink("out", "parse"), name="observed")
    rec = _Recording(executor)
    r = run(rec, tmp_path, text, {"src.csv": "id,x\na,5\nb,7\n"})
    assert r.column("out.csv", "id") == ["a", "b"]
    assert r.result.counts == {"total": 2, "ok": 2, "written": 2, "dlq": 0}
    writes = [allowed for sql, allowed in rec.seen if "INSERT OVERWRITE DIRECTORY" in sql
              and "out" in sql]
    assert writes and not any(writes)
