"""The corpus's injection check (injection.py) itself: it passes compiled files that keep
user text inside comments, quoted identifiers and literals, and catches each way out."""

from __future__ import annotations

import json

import pytest

from tests.reliability.injection import check_sql, check_target, cxl_string

_CLEAN = ("-- source `x`: read csv\n-- column a <- 'x--y' /* kept in a comment */\n"
          "CREATE OR REPLACE TEMPORARY VIEW `a;``b--` AS\n"
          "SELECT 'x\\nDROP TABLE important;\\n--' AS `c`;  -- trailing comment\n")


def test_clean_file_passes():
    problems, tokens = check_sql(_CLEAN, "f.sql")
    assert problems == []
    assert sum(t.text == ";" for t in tokens) == 1


@pytest.mark.parametrize("text, expected", [
    ("-- name x\nDROP TABLE important;\n--\nSELECT 1;\n", "DROP keyword"),
    ("-- a name ending in \\\nSELECT 1;\n", "ends in a backslash"),
    ("-- header\n/* opened by a name */ SELECT 1;\n", "does not start with '--'"),
    ("-- header \u2028important stuff\nSELECT 1;\n", "does not start with '--'"),
    ("SELECT 'a';DROP TABLE important;--';\n", "DROP keyword"),
    ("SELECT 'unterminated\n", "does not tokenize"),
])
def test_escapes_are_caught(text, expected):
    problems, _ = check_sql(text, "f.sql")
    assert any(expected in p for p in problems), problems


def _target(tmp_path, files: dict[str, str]):
    (tmp_path / "manifest.json").write_text(json.dumps({"statements": [
        {"file": name} for name in files if name not in ("00_session.sql", "run.sql")]}))
    for name, text in files.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    return tmp_path


def test_target_statements_and_run_sql(tmp_path):
    session = "SET a=1;\nSET b=2;\n"
    one = "-- view a\nCREATE TEMPORARY VIEW `a` AS SELECT 1;\n"
    good = _target(tmp_path, {"00_session.sql": session, "01_a.sql": one,
                              "run.sql": "-- pipeline p\n" + session + "\n" + one})
    assert check_target(good) == []
    (good / "run.sql").write_text("-- pipeline p\n" + session + one + "SELECT 2;\n")
    assert any("not those of the numbered files" in p for p in check_target(good))
    (good / "01_a.sql").write_text(one + "SELECT 2;\n")
    assert any("2 statements in one file" in p for p in check_target(good))


def test_cxl_string_escapes():
    assert cxl_string('a"b\\c\nd\re') == '"a\\"b\\\\c\\nd\\re"'
