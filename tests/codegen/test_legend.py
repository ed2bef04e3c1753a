"""Every hidden name the compiler writes has a line in the legend of the generated README
(codegen/legend.py), over the compiled files of every example and conformance case: a new
`$` column, view or statement name fails here until it is explained."""

from __future__ import annotations

from pathlib import Path

from clinker_sql.codegen import legend
from clinker_sql.codegen.artifacts import files, placed
from clinker_sql.codegen.target_readme import used
from clinker_sql.diagnostics import DiagnosticError
from clinker_sql.project import Project

REPO = Path(__file__).resolve().parents[2]
PIPELINES = sorted((REPO / "examples").glob("*/pipeline.yaml")) + sorted(
    (REPO / "tests" / "conformance" / "cases").glob("*/*/pipeline.yaml"))


def _unexplained(compiled) -> set[str]:
    contents = files(compiled)
    return used(compiled, placed(compiled), contents)[1]


def test_every_hidden_name_of_the_examples_and_conformance_cases_is_explained():
    compiled_count = 0
    missing: dict[str, set[str]] = {}
    for pipeline in PIPELINES:
        try:
            compiled = Project(pipeline, allow_absolute_paths=True).compile(
                base=pipeline.parent)
        except DiagnosticError:
            continue  # a case of a refused pipeline compiles to nothing
        compiled_count += 1
        for name in _unexplained(compiled):
            missing.setdefault(name, set()).add(pipeline.parent.name)
    assert compiled_count > 250  # the corpus is there: not a test that cannot fail
    assert not missing, {k: sorted(v)[:3] for k, v in missing.items()}


def test_an_unknown_name_is_found_unexplained():
    assert legend.lookup(legend.COLUMNS, "$no_such_column") is None
    assert legend.suffix_entry("node.no_such_view") is None
    assert legend.lookup(legend.COLUMNS, "$agg.3").shown == "$agg.<n>"
    assert legend.suffix_entry("n.step2.build").shown == "<node>.step<n>.build"
    assert legend.suffix_entry("r.big", frozenset({"big"})).shown == "<node>.<port>"
    assert legend.hidden_names("SELECT `$a``b`, `x`, `$live` FROM t") == {"$a``b", "$live"}
