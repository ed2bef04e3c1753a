"""Compiled files are a pure function of the pipeline: byte-identical twice, and a change
to one transform changes only that node's files (plus run.sql) and its manifest entries."""

from __future__ import annotations

import json
import re
import shutil

from clinker_sql.project import Project

from .conftest import EXAMPLES, REPO


def compile_to(pipeline, out):
    project = Project(pipeline, out)
    return project.write()


def read_all(folder):
    return {p.relative_to(folder).as_posix(): p.read_bytes()
            for p in sorted(folder.rglob("*")) if p.is_file()}


def test_compiling_twice_is_byte_identical(tmp_path):
    for pipeline in EXAMPLES:
        a = read_all(compile_to(pipeline, tmp_path / "a"))
        b = read_all(compile_to(pipeline, tmp_path / "b"))
        assert a == b, pipeline


def test_changing_one_transform_changes_only_its_files_and_manifest_entries(tmp_path):
    src = REPO / "examples" / "employee_tiers"
    work = tmp_path / "p"
    shutil.copytree(src, work, ignore=shutil.ignore_patterns("out", "target"))
    pipeline = work / "pipeline.yaml"
    before = read_all(compile_to(pipeline, tmp_path / "before"))
    text = pipeline.read_text(encoding="utf-8")
    changed = text.replace("emit hired_year = hired.year()", "emit hired_year = hired.year() + 1")
    assert changed != text
    pipeline.write_text(changed, encoding="utf-8")
    after = read_all(compile_to(pipeline, tmp_path / "after"))
    assert set(before) == set(after)
    differ = {name for name in before if before[name] != after[name]}
    # the node's fault view checks the changed emit (an overflow of `+ 1`): its engine file
    checked = {name for name in differ if re.fullmatch(r"engine/\d+_enrich\.checked\.sql", name)}
    assert differ - checked == {"nodes/enrich.sql", "run.sql", "manifest.json"}, differ
    manifest = json.loads(after["manifest.json"])
    sql = differ - {"run.sql", "manifest.json"}  # the node file and its fault view
    old = json.loads(before["manifest.json"])
    assert {k: v for k, v in old.items() if k != "statements"} == \
        {k: v for k, v in manifest.items() if k != "statements"}
    entries = [(o, n) for o, n in zip(old["statements"], manifest["statements"]) if o != n]
    assert entries and all(n["node"] == "enrich" and n["file"] in sql for _, n in entries)
    assert all(o["file"] == n["file"] and o["step"] == n["step"] for o, n in entries)
