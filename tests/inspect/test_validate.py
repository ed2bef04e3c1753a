"""validate: load, type-check, compile and check every statement with sqlglot."""

from __future__ import annotations

import dataclasses

import pytest

from clinker_sql.diagnostics import DiagnosticError
from clinker_sql.inspect.sqlcheck import check_statements
from clinker_sql.project import Project

from .conftest import EXAMPLES, REPO, RETRACTING, write_pipeline

ACCEPTANCE = sorted((REPO.parent / "shared" / "acceptance" / "cases").glob("*/pipeline.yaml"))


@pytest.mark.parametrize("pipeline", EXAMPLES, ids=lambda p: p.parent.name)
def test_examples_validate(run_cli, pipeline):
    r = run_cli("validate", pipeline)
    assert r.exit_code == 0, r.output
    assert "every column resolves" in r.stdout


def test_retraction_pipeline_validates(run_cli, tmp_path):
    r = run_cli("validate", write_pipeline(tmp_path, RETRACTING))
    assert r.exit_code == 0, r.output


@pytest.mark.skipif(not ACCEPTANCE, reason="../shared/acceptance is not beside the repo")
def test_acceptance_pipelines_check_explain_and_document():
    """Every shared acceptance pipeline that compiles passes the sqlglot check, and its
    plan and docs page render (aggregates, windows, combine and retraction included)."""
    from clinker_sql.inspect.docs import render_page
    from clinker_sql.inspect.plan import build_plan, render_text

    checked = 0
    for pipeline in ACCEPTANCE:
        project = Project(pipeline)
        try:
            model = project.load()
            compiled = project.compile(model)
        except DiagnosticError:
            continue  # the cases about a diagnostic
        check_statements(model, compiled)
        assert "=== DAG Topology ===" in render_text(build_plan(model, compiled))
        assert "<svg" in render_page(model, compiled)
        checked += 1
    assert checked >= 8


def _broken(pipeline, view: str, old: str, new: str):
    project = Project(pipeline)
    model = project.load()
    compiled = project.compile(model)
    for i, stmt in enumerate(compiled.statements):
        if stmt.name == view:
            assert old in stmt.sql
            compiled.statements[i] = dataclasses.replace(stmt, sql=stmt.sql.replace(old, new, 1))
    return model, compiled


def test_a_column_that_does_not_resolve_is_caught():
    model, compiled = _broken(EXAMPLES[0], "enrich.carry", "`$out.tier`", "`$out.teir`")
    with pytest.raises(DiagnosticError) as info:
        check_statements(model, compiled)
    d = info.value.diagnostics[0]
    assert d.code == "CS041" and "enrich" in d.message and "$out.teir" in d.message


def test_a_statement_that_does_not_parse_is_caught():
    model, compiled = _broken(EXAMPLES[0], "enrich.eval", "SELECT", "SELEC")
    with pytest.raises(DiagnosticError) as info:
        check_statements(model, compiled)
    assert info.value.diagnostics[0].code == "CS041"
    assert "does not parse" in info.value.diagnostics[0].message


def test_a_type_error_is_a_coded_diagnostic(run_cli, tmp_path):
    pipeline = write_pipeline(tmp_path, RETRACTING.replace("sum(amount)", "sum(department)"))
    r = run_cli("validate", pipeline)
    assert r.exit_code == 1
    assert "error[E200]" in r.stderr and "Traceback" not in r.output


def test_a_missing_pipeline_file(run_cli, tmp_path):
    r = run_cli("validate", tmp_path / "nope.yaml")
    assert r.exit_code == 1 and "error[CS104]" in r.stderr
