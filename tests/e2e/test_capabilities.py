"""Executor capabilities (runtime/executor.py `Capabilities`): the runner calls an
optional operation only when the executor declares it, and an executor declaring none of
them (a Thrift server's form) runs the same pipelines to the same rows and DLQ entries as
the local session, which declares them all."""

from __future__ import annotations

from dataclasses import fields, replace

import pytest

from clinker_sql.runtime.executor import Capabilities, Executor

from .pipelines import dlq, pipeline, run, sink, source, step, transform

_OPTIONAL = [f.name for f in fields(Capabilities) if f.name not in ("local_files",
                                                                     "keeps_tables")]


class _Declared(Executor):
    """The session's executor with only the capabilities `on` declared; an undeclared
    operation fails the test if the runner calls it."""

    def __init__(self, inner: Executor, on: frozenset[str]):
        self.inner, self.called = inner, []
        self.capabilities = replace(inner.capabilities,
                                    **{name: name in on for name in _OPTIONAL})
        for name in _OPTIONAL:
            setattr(self, name, self._guard(name))

    def _guard(self, name: str):
        def call(*args, **kwargs):
            assert getattr(self.capabilities, name), f"{name} called but not declared"
            self.called.append(name)
            return getattr(self.inner, name)(*args, **kwargs)
        return call

    def execute(self, sql: str) -> None:
        self.inner.execute(sql)

    def query(self, sql: str):
        return self.inner.query(sql)

    def first(self, sql: str):
        return self.inner.first(sql)


ROWS = ("order_id,cust,dept,day,amount\nO1,C1,1,d1,10\nO2,C2,1,d2,5\nO3,C1,2,d1,7\n"
        "O4,C3,2,d1,x\nO5,C4,X,d1,3\n")
PIPELINE = pipeline(
    source("o", "order_id, cust, dept, day, amount", "cust"),
    transform("check", "o", "emit amt = amount.to_int()\nemit code = dept.to_int()"),
    step("aggregate", "daily", "check",
         "emit dept = dept\nemit total = sum(amt)\nemit n = count(*)",
         "\n      group_by: [dept]"),
    sink("out", "daily"), name="caps")


def _rows(r) -> list[tuple]:
    return sorted(tuple(x.values()) for x in r.rows("out.csv"))


@pytest.mark.parametrize("declared", ["none", "all"])
def test_the_runner_uses_only_what_the_executor_declares(executor, tmp_path, declared):
    on = frozenset(_OPTIONAL) if declared == "all" else frozenset()
    (tmp_path / "base").mkdir()
    (tmp_path / declared).mkdir()
    base = run(executor, tmp_path / "base", PIPELINE, {"o.csv": ROWS})
    fake = _Declared(executor, on)
    got = run(fake, tmp_path / declared, PIPELINE, {"o.csv": ROWS})
    assert _rows(got) == _rows(base) and _rows(base)
    assert sorted(dlq(got)) == sorted(dlq(base)) and dlq(base)
    if declared == "none":
        assert fake.called == []
    else:  # the declared operations are the ones the local session's run uses
        assert "observe" in fake.called


def test_a_minimal_executor_declares_nothing_optional():
    assert Executor.capabilities == Capabilities()
    assert not any(getattr(Capabilities(), name) for name in _OPTIONAL)
