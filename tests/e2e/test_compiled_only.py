"""What runs is exactly what is compiled (issue 39): every example and every acceptance
case runs through a recording executor (runtime/recording.py), and every statement the
run executes must be a statement of a compiled file, byte for byte; every node file's
statement must be among those executed.

Not everything is compiled yet. `NOT_YET_COMPILED` names, by category, what a run still
does outside the compiled files; a case whose run meets only those categories is an
expected failure (strict: a case that meets none must leave the list). Each category
leaves the list when the runner picks a compiled alternative for it instead."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"
CASES = ROOT.parent / "shared" / "acceptance" / "cases"
DRIVER = Path(__file__).with_name("recorded_run.py")

# category -> what a run still does outside the compiled files
NOT_YET_COMPILED = {
    "listing": "a source's files listed by the executor and its files view defined over "
               "the literal list (runtime/local.py `list_files`, CheckpointStep.listing)",
    "few_files": "a source's rows view over a literal map of its listed files "
                 "(codegen/source.py `listed_rows`)",
    "counted_values": "views over literal rows counted at run time: a source's total, "
                      "the numbering (codegen/numbering.py, sqlbuild.values_view)",
    "observe": "counts taken while a statement runs (DataFrame observe, _Views._observe)",
    "checkpoint": "copies to the scratch folder and the views redefined over them, their "
                  "probes and empty definitions (codegen/retraction.py, executor copy / "
                  "copy_counting / keep_in_driver / empty)",
    "retraction_pass": "a retraction pass's snapshots (codegen/retraction.py "
                       "`iteration_statements`)",
    "node_not_run": "a node file's statement the run never executes: a view kept for "
                    "review that nothing reads (codegen/prune.py, `unread`), or one the "
                    "runner defines in another form",
}

_VIEW = r"CREATE OR REPLACE TEMPORARY VIEW `(?P<view>(?:[^`]|``)*)`"
_OPS = {"list_files": "listing", "observe": "observe", "copy": "checkpoint",
        "copy_counting": "checkpoint", "keep_in_driver": "checkpoint", "empty": "checkpoint"}


def category(how: str, text: str) -> str:
    """What a recorded item that is not compiled is, by the runner code that made it."""
    if how in _OPS:
        return _OPS[how]
    if re.match(r"INSERT OVERWRITE DIRECTORY '[^']*/(triggers_seen|retracted)_\d+'", text):
        return "retraction_pass"
    if re.match(rf"{_VIEW} USING parquet OPTIONS \(path '[^']*/(triggers_seen|retracted)_",
                text):
        return "retraction_pass"
    if re.match(r"INSERT OVERWRITE DIRECTORY '[^']*/checkpoint_", text) or \
            re.match(rf"{_VIEW} USING parquet OPTIONS \(path '[^']*/checkpoint_", text) or \
            re.match(r"SELECT 1 AS hit FROM ", text) or \
            re.match(rf"{_VIEW} AS SELECT \* FROM `(?:[^`]|``)*` LIMIT 0$", text):
        return "checkpoint"
    view = re.match(_VIEW, text)
    name = view["view"] if view else ""
    if name.endswith(".files"):
        return "listing"
    if name.endswith(".rows"):
        return "few_files"
    if name.endswith(".total") or name == "$pipeline.numbering":
        return "counted_values"
    if "FROM_JSON(`value`" in text:
        return "side"
    return "unknown"


RECORDED_CASES = {"018", "030", "035"}


def _cases() -> list:
    out = [pytest.param(p, id=f"example-{p.name}") for p in sorted(EXAMPLES.iterdir())
           if (p / "pipeline.yaml").exists()]
    if CASES.exists():  # while every case is an expected failure, a sample of the shapes
        # (correlation, retraction, a window after an aggregate) stands for them: each
        # recorded run is a JVM of its own
        out += [pytest.param(p, id=p.name[:3]) for p in sorted(CASES.iterdir())
                if (p / "pipeline.yaml").exists() and p.name[:3] in RECORDED_CASES]
    return out


def recorded_run(case: Path, tmp_path: Path, url: str | None = None) -> dict:
    """Run the case's pipeline in a copy of its folder, in a fresh process (Spark resolves
    the relative paths against the folder it starts in), through the recording executor."""
    work = tmp_path / case.name
    shutil.copytree(case, work, ignore=shutil.ignore_patterns("expected", "out", "target"))
    (work / "out").mkdir(exist_ok=True)
    env = dict(os.environ, CLINKER_SQL_MASTER="local[1]",
               PYTHONPATH=os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]))
    proc = subprocess.run([sys.executable, str(DRIVER), *([url] if url else [])], cwd=work,
                          env=env, capture_output=True, text=True, timeout=900)
    assert proc.returncode == 0, proc.stderr[-3000:]
    return json.loads(proc.stdout.strip().splitlines()[-1])


def categories(found: dict) -> dict[str, list[str]]:
    """What a recorded run did outside the compiled files, by category."""
    cats: dict[str, list[str]] = {}
    for item in found["uncompiled"]:
        cats.setdefault(category(item["how"], item["text"]), []).append(
            f"{item['how']}: {item['text'][:160]}")
    for sql in found["nodes_not_run"]:
        cats.setdefault("node_not_run", []).append(sql[:160])
    return cats


def check(found: dict) -> None:
    cats = categories(found)
    unknown = cats.pop("unknown", [])
    assert not unknown, "executed outside the compiled files:\n" + "\n".join(unknown)
    assert not cats, f"not compiled yet: {sorted(cats)}"


@pytest.mark.parametrize("case", _cases())
def test_runs_only_compiled_statements(case, tmp_path, request):
    found = recorded_run(case, tmp_path)
    met = set(categories(found))
    if met and met <= NOT_YET_COMPILED.keys():
        request.applymarker(pytest.mark.xfail(
            strict=True, reason=f"not compiled yet: {', '.join(sorted(met))}"))
    check(found)


def test_category_of_each_runner_text():
    """The categories above name what the runner builds today, by its shape."""
    assert category("execute", "RESET spark.sql.adaptive.optimizer.excludedRules") == \
        "unknown"  # compiled: engine/NN_adaptive.allow.sql
    assert category("execute", "INSERT OVERWRITE DIRECTORY '/tmp/r/checkpoint_ab' USING "
                    "parquet OPTIONS ('compression'='lz4') SELECT * FROM `a`") == "checkpoint"
    assert category("execute", "CREATE OR REPLACE TEMPORARY VIEW `a` AS SELECT * FROM `a` "
                    "LIMIT 0") == "checkpoint"
    assert category("execute", "INSERT OVERWRITE DIRECTORY '/tmp/r/retracted_1' USING "
                    "parquet SELECT DISTINCT * FROM `c`") == "retraction_pass"
    assert category("execute", "CREATE OR REPLACE TEMPORARY VIEW `s.total` AS SELECT "
                    "CAST(6 AS BIGINT) AS `n`") == "counted_values"
    assert category("observe", "s.rows") == "observe"
