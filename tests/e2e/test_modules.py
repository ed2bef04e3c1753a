"""CXL modules and --var on Spark: module calls and constants give the rows Clinker gives
(crates/clinker/tests/cxl_module_resolution.rs: nested imported calls, a module function
named like a builtin, a plan that runs after its module files are gone), and a --var
override changes which rows pass."""

from __future__ import annotations

import shutil
import textwrap
from pathlib import Path

from clinker_sql.project import Project

from .compare import read_csv
from .pipelines import source, step, write_case

ONE = "value\n42\n"


def _pipeline(cxl: str, extra: str = "") -> str:
    return f"""
pipeline:
  name: modules
{extra}error_handling:
  strategy: continue
  dlq:
    path: {{dir}}/out/dlq.csv
nodes:
""" + source("input", "value: int") + step("transform", "transform", "input", cxl) + """
  - type: sink
    name: output
    input: transform
    config:
      name: output
      type: csv
      path: {dir}/out/output.csv
      include_unmapped: false
"""


def _run(executor, tmp_path: Path, cxl: str, modules: dict[str, str], data: str = ONE,
         extra: str = "", **options) -> list[dict[str, str]]:
    tmp_path.mkdir(exist_ok=True)
    files = {"input.csv": data, **{p: textwrap.dedent(t).lstrip() for p, t in modules.items()}}
    pipeline = write_case(tmp_path, _pipeline(cxl, extra), files)
    result = Project(pipeline, tmp_path / "target", allow_absolute_paths=True,
                     **options).run(executor=executor, base=tmp_path)
    assert result.exit_code == 0
    head, rows = read_csv(tmp_path / "out" / "output.csv")
    return [dict(zip(head, r)) for r in rows]


def test_nested_imported_function_evaluates(executor, tmp_path):
    rows = _run(executor, tmp_path,
                "use app.main as admitted\nemit value = admitted.normalize(value)",
                {"rules/app/main.cxl": "use shared.numbers as numbers\n"
                                       "fn normalize(value) = numbers.add_one(value)\n",
                 "rules/shared/numbers.cxl": "fn add_one(value) = value + 1\n"})
    assert rows == [{"value": "43"}]


def test_module_function_shadows_builtin(executor, tmp_path):
    rows = _run(executor, tmp_path, "use app.main as admitted\nemit value = admitted.length(value)",
                {"rules/app/main.cxl": "fn length(value) = value + 1\n"})
    assert rows == [{"value": "43"}]


def test_compiled_plan_runs_after_module_files_are_removed(executor, tmp_path):
    """The compiled SQL holds the modules' declarations: removing the files after compiling
    changes nothing (Clinker's module_execution_uses_retained_registry_after_source_removal),
    for each way of choosing the rules root."""
    cxl = "use app.main as admitted\nemit value = admitted.answer(admitted.ANSWER)"
    main = ("use shared.base as base\nlet ANSWER = base.BASE\nfn add_one(value) = value + 1\n"
            "fn answer(value) = add_one.call(value) + 1\n")
    base = "let BASE = 40\nfn add_two(value) = value + 2\n"
    for case, (root, extra, cli) in enumerate([
            ("catalog-rules", "", None),
            ("pipeline-rules", "  rules_path: pipeline-rules\n", None),
            ("cli-rules", "  rules_path: pipeline-rules\n", "cli-rules")]):
        work = tmp_path / str(case)
        work.mkdir()
        files = {"input.csv": ONE, f"{root}/app/main.cxl": main,
                 f"{root}/shared/base.cxl": base,
                 "clinker.toml": '[catalog]\nrules_root = "catalog-rules"\n'}
        pipeline = write_case(work, _pipeline(cxl, extra), files)
        project = Project(pipeline, work / "target", allow_absolute_paths=True,
                          rules_path=cli)
        compiled = project.compile(base=work)
        shutil.rmtree(work / root)
        for _ in range(2):
            result = Project._execute(compiled, executor, None, work, None, {})
            assert result.exit_code == 0
            head, rows = read_csv(work / "out" / "output.csv")
            assert (head, rows) == (["value"], [["42"]]), case


def test_modules_in_filter_let_and_emit_with_lambdas(executor, tmp_path):
    data = "value\n1\n5\n12\n30\n"
    rows = _run(executor, tmp_path, """
use etl.rules as r
let doubled = r.twice(value)
filter doubled <= r.CAP
emit value = value
emit doubled = doubled
emit bucket = r.bucket(doubled, r.CAP / 2)
emit spread = r.spread(value).join("|")
""", {"rules/etl/rules.cxl": """
        use etl.base as b
        let CAP = b.LIMIT * 2
        fn twice(x) = x * 2
        fn bucket(v, mid) =
          if v > mid then "high" else "low"
        fn spread(x) = [1, 2].map(it => (it * x).to_string())
        """,
         "rules/etl/base.cxl": "let LIMIT = 15\n"}, data)
    assert rows == [
        {"value": "1", "doubled": "2", "bucket": "low", "spread": "1|2"},
        {"value": "5", "doubled": "10", "bucket": "low", "spread": "5|10"},
        {"value": "12", "doubled": "24", "bucket": "high", "spread": "12|24"}]


def test_var_override_changes_the_rows(executor, tmp_path):
    data = "value\n1\n5\n12\n"
    extra = "  vars:\n    floor: { type: int, default: 3 }\n"
    cxl = "filter value >= $vars.floor\nemit value = value"
    assert [r["value"] for r in _run(executor, tmp_path / "a", cxl, {}, data, extra)] == \
        ["5", "12"]
    assert [r["value"] for r in _run(executor, tmp_path / "b", cxl, {}, data, extra,
                                     vars=("floor=10",))] == ["12"]
