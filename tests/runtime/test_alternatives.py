"""The statements a run picks at run time are compiled (codegen/alternatives.py), and the
runner runs them as compiled: a table sink's swap and discard, checked without Spark on
an executor that answers the table listing (the Thrift tests run them on a server)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from clinker_sql.codegen import alternatives as A
from clinker_sql.codegen.artifacts import files
from clinker_sql.project import Project
from clinker_sql.runtime import runner
from clinker_sql.runtime.executor import Executor

from .test_thrift import table_case


class Listing(Executor):
    """Records statements; its catalog holds `tables`."""

    def __init__(self, tables: list[str]):
        self.tables, self.ran = tables, []

    def execute(self, sql: str) -> None:
        self.ran.append(sql)

    def query(self, sql: str) -> Iterator[dict[str, Any]]:
        self.ran.append(sql)
        return iter([{"tableName": t, "isTemporary": False} for t in self.tables])


@pytest.fixture
def compiled(tmp_path):
    pipeline = table_case(tmp_path, "default.clinker_alt", [("a", "1")])
    return Project(pipeline, allow_absolute_paths=True).compile(base=tmp_path)


def _statements_of_files(compiled) -> str:
    return "".join(text for path, text in files(compiled).items() if path.endswith(".sql"))


@pytest.mark.parametrize("exists, swap", [(True, "swap"), (False, "swap_new")])
def test_the_swap_runs_the_compiled_statements_its_table_picks(compiled, exists, swap):
    tables = [s for s in compiled.statements if s.name == "totals" and s.kind == "write"]
    executor = Listing(["clinker_alt"] if exists else ["other"])
    runner._swap_tables(executor, compiled, tables)
    expected = compiled.alternative(A.table("totals", "tables")) + \
        compiled.alternative(A.table("totals", swap))
    assert executor.ran == expected
    # over an existing table, the old one is renamed away first; a new one is not
    assert any(s.startswith("ALTER TABLE `default`.`clinker_alt` RENAME") for s in expected) \
        == exists
    text = _statements_of_files(compiled)
    assert all(f"\n{s};\n" in text for s in expected)  # each one a statement of a file


def test_the_discard_and_the_prepare_are_compiled(compiled):
    tables = [s for s in compiled.statements if s.name == "totals" and s.kind == "write"]
    executor = Listing([])
    runner._discard_tables(executor, compiled, tables)
    assert executor.ran == compiled.alternative(A.table("totals", "discard"))
    assert executor.ran[0].startswith("DROP TABLE IF EXISTS ")
    assert compiled.alternative(A.table("totals", "prepare")) == executor.ran


def test_every_run_can_allow_the_adaptive_rule_by_a_compiled_statement(compiled):
    allow, = compiled.alternative(A.ADAPTIVE_ALLOW)
    assert allow == "RESET spark.sql.adaptive.optimizer.excludedRules"
    assert f"\n{allow};\n" in _statements_of_files(compiled)
    with pytest.raises(KeyError):
        compiled.alternative(A.RETRACTION_NEWS)  # no retraction in this pipeline


def test_the_alternatives_come_after_the_run_own_statements(compiled):
    """Placed last, they take the last engine numbers: the run's own files keep theirs."""
    kinds = [s.kind for s in compiled.statements]
    first = kinds.index("alternative")
    assert set(kinds[first:]) == {"alternative"}


EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


@pytest.mark.parametrize("example, kind", [("employee_tiers", "side"),
                                           ("retract_orders", "clean_groups")])
def test_the_other_forms_of_a_view_are_compiled(example, kind):
    """A split write's failing rows and an aggregate's clean groups: the runner defines
    the view by these compiled statements, not by the text its step carries."""
    folder = EXAMPLES / example
    compiled = Project(folder / "pipeline.yaml").compile(base=folder)
    if kind == "side":
        split = next(s.step.split for s in compiled.statements
                     if getattr(s.step, "split", None) is not None)
        name, text = A.side(split.failed), split.define
    else:
        view = next(s for s in compiled.statements
                    if getattr(s.step, "clean_groups", None) is not None)
        name, text = A.clean_groups(view.name), view.step.clean_groups.define
    assert compiled.alternative(name) == [text]
    assert f"\n{text};\n" in _statements_of_files(compiled)
