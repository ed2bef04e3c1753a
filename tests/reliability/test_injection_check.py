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


def _target(tmp_path, files: dict[str, str], manifest: list[tuple[str, str]]):
    (tmp_path / "manifest.json").write_text(json.dumps({"statements": [
        {"file": name, "kind": kind} for name, kind in manifest]}))
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text, encoding="utf-8")
    return tmp_path


def test_target_statements_and_run_sql(tmp_path):
    session = "SET a=1;\nSET b=2;\n"
    one = "-- view a\nCREATE TEMPORARY VIEW `a` AS SELECT 1;\n"
    two = "-- view b\nCREATE TEMPORARY VIEW `b` AS SELECT 2;\n"
    copy = "-- the runner copies b\n"
    node = "-- node n\n" + one + two
    entries = [("session.sql", "setup"), ("session.sql", "setup"), ("nodes/n.sql", "view"),
               ("engine/02_b.sql", "checkpoint"), ("nodes/n.sql", "view")]
    good = _target(tmp_path, {"session.sql": session, "nodes/n.sql": node,
                              "engine/02_b.sql": copy, "README.md": "# Compiled pipeline `p`\n",
                              "run.sql": "-- pipeline p\n" + session + one + copy + two},
                   entries)
    assert check_target(good) == []
    (good / "run.sql").write_text("-- pipeline p\n" + session + two + one)
    assert any("not those of the compiled files" in p for p in check_target(good))
    (good / "run.sql").write_text("-- pipeline p\n" + session + one + two)
    (good / "engine/02_b.sql").write_text(copy + "SELECT 2;\n")
    assert any("1 statements more than the manifest lists" in p for p in check_target(good))
    (good / "engine/02_b.sql").write_text(copy)
    (good / "session.sql").write_text("SET a=1;\nSELECT 1;\n")
    assert any("not a SET" in p for p in check_target(good))
    (good / "session.sql").write_text(session)
    (good / "README.md").write_text("# Compiled pipeline `p`\n- `n` <b>important</b>\n")
    assert any("outside a code span" in p for p in check_target(good))


def test_cxl_string_escapes():
    assert cxl_string('a"b\\c\nd\re') == '"a\\"b\\\\c\\nd\\re"'
