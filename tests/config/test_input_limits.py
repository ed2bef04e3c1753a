"""Ordinary mistakes and oversized input are coded diagnostics with a location, never an
internal error (CS999): each case runs `validate` and `compile` as the command line does
and checks the code, the place and that nothing crashed. Every depth and size limit is a
code of its own that names the limit (CS060-CS064); input just under a limit compiles."""

from __future__ import annotations

import re
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from clinker_sql.cli import cli
from clinker_sql.config.limits import MAX_NAME_BYTES
from clinker_sql.config.yamlnodes import MAX_DEPTH, MAX_NODES
from clinker_sql.cxl.parser import MAX_NESTING

PIPELINE = """\
pipeline:
  name: limits
error_handling:
  strategy: continue
  dlq:
    path: ./out/dlq.csv
nodes:
  - type: source
    name: people
    config:
      name: people
      type: csv
      path: ./data/people.csv
      schema:
        - { name: id, type: int }
        - { name: name, type: string }
        - { name: hired, type: date }
        - { name: pay, type: int }
        - { name: rate, type: { nullable: decimal }, precision: 10, scale: 2 }
  - type: transform
    name: enrich
    input: people
    config:
      cxl: |
        emit id = id
        emit name = name.trim()
        emit total = pay
  - type: sink
    name: roster
    input: enrich
    config:
      name: roster
      type: csv
      path: ./out/roster.csv
"""

DATA = "id,name,hired,pay,rate\n1,Ann,2020-01-02,10,1.50\n2,Bob,2021-03-04,20,\n"


def edit(old: str, new: str, text: str = PIPELINE) -> str:
    assert text.count(old) == 1, old
    return text.replace(old, new)


def where(text: str, needle: str, after: str = "") -> tuple[int, int]:
    """The 1-based line and column of `needle` in `text` (the first after `after`)."""
    start = text.index(after) if after else 0
    offset = text.index(needle, start)
    return text.count("\n", 0, offset) + 1, offset - (text.rfind("\n", 0, offset) + 1) + 1


def commands(folder: Path, text: str, monkeypatch) -> list[tuple[int, str, float]]:
    """`validate` then `compile` on `text`: (exit code, output, seconds) of each."""
    (folder / "data").mkdir(exist_ok=True)
    (folder / "out").mkdir(exist_ok=True)
    (folder / "data" / "people.csv").write_text(DATA, encoding="utf-8")
    (folder / "pipeline.yaml").write_text(text, encoding="utf-8")
    monkeypatch.chdir(folder)
    out = []
    for args in (["validate", "pipeline.yaml"], ["compile", "pipeline.yaml", "--out", "t"]):
        started = time.perf_counter()
        result = CliRunner().invoke(cli, args)
        out.append((result.exit_code, result.output, time.perf_counter() - started))
    return out


def refused(folder: Path, text: str, monkeypatch, code: str,
            at: tuple[int, int] | None) -> str:
    """Both commands refuse `text` with `code` at line:column `at` (exit 1, no CS999)."""
    outputs = commands(folder, text, monkeypatch)
    for exit_code, output, _ in outputs:
        assert "CS999" not in output and "Traceback" not in output, output
        assert re.findall(r"error\[([\w-]+)\]", output) == [code], output
        assert exit_code == 1, output
        if at is not None:
            assert f"pipeline.yaml:{at[0]}:{at[1]}" in output, output
    return outputs[0][1]


def passes(folder: Path, text: str, monkeypatch) -> None:
    for exit_code, output, _ in commands(folder, text, monkeypatch):
        assert exit_code == 0, output


# ---- ordinary mistakes -----------------------------------------------------------------


@pytest.mark.parametrize("decl", [
    '{ type: int, default: "abc" }',
    "{ type: int, default: 1.5 }",
    "{ type: int, default: true }",
    "{ type: int, default: 9223372036854775808 }",
    "{ type: bool, default: yes }",
    "{ type: string, default: 5 }",
    "{ type: date, default: 31/01/2024 }",
    "{ type: datetime, default: 2024-01-31 }",
    "{ type: float, default: [1] }",
])
def test_a_var_default_of_another_type_is_e000(tmp_path, monkeypatch, decl):
    text = edit("  name: limits\n", f"  name: limits\n  vars:\n    limit: {decl}\n")
    at = where(text, decl.split("default: ")[1].rstrip(" }"), "limit:")
    message = refused(tmp_path, text, monkeypatch, "E000", at)
    assert "vars.limit: default value does not match declared type" in message


def test_var_defaults_of_their_type_compile(tmp_path, monkeypatch):
    text = edit("  name: limits\n", "  name: limits\n  vars:\n"
                "    a: { type: int, default: 5 }\n    b: { type: float, default: 5 }\n"
                "    c: { type: date, default: 2024-01-31 }\n    d: { type: bool }\n"
                "    e: { type: datetime, default: '2024-01-31 08:00:00' }\n")
    passes(tmp_path, edit("emit total = pay", "emit total = pay + $vars.a", text), monkeypatch)


@pytest.mark.parametrize("column, code, words, key", [
    ("precision: 10, scale: -3", "E000", "'scale' of column 'rate' must be a whole number "
     "from 0 to 255, found -3", "scale"),
    ("precision: -1, scale: 2", "E000", "'precision' of column 'rate' must be", "precision"),
    ("precision: 50, scale: 2", "CS001", "Spark's DECIMAL holds at most 38 digits", "scale"),
    ("precision: 5, scale: 6", "CS001", "the scale no larger than the precision", "scale"),
])
def test_decimal_digits_out_of_range(tmp_path, monkeypatch, column, code, words, key):
    text = edit("precision: 10, scale: 2", column)
    at = where(text, key + ":", "name: rate")
    assert words in refused(tmp_path, text, monkeypatch, code, at)


@pytest.mark.parametrize("fmt, code, words", [
    ("%Y-%m-%", "E000", "the format ends with a lone '%'"),
    ("%Y-%m-%d %Z", "CS001", "cannot be translated"),
])
def test_a_bad_column_format_is_refused_at_its_column(tmp_path, monkeypatch, fmt, code,
                                                       words):
    text = edit("{ name: hired, type: date }", f'{{ name: hired, type: date, format: "{fmt}" }}')
    at = where(text, "{ name: hired")
    assert words in refused(tmp_path, text, monkeypatch, code, at)


@pytest.mark.parametrize("granularity", ["correlation_key: id", "dlq_granularity: document"])
def test_a_grouped_source_with_no_sink_compiles(tmp_path, monkeypatch, granularity):
    text = edit("      path: ./data/people.csv\n",
                f"      path: ./data/people.csv\n      {granularity}\n")
    passes(tmp_path, text[:text.index("  - type: sink")], monkeypatch)


@pytest.mark.parametrize("place", ["node", "column", "branch"])
def test_a_lone_surrogate_escape_is_refused_where_it_is(tmp_path, monkeypatch, place):
    if place == "node":
        text = edit("sink\n    name: roster\n", 'sink\n    name: "ros\\udc80ter"\n')
    elif place == "column":
        text = edit("{ name: name, type: string }", '{ name: "na\\udc80me", type: string }')
    else:
        text = edit("  - type: sink", "  - type: route\n    name: r\n    input: enrich\n"
                    "    config:\n      conditions:\n        \"b\\udc80\": 'id > 1'\n"
                    "      default: rest\n  - type: sink")
        text = edit("input: enrich\n    config:\n      name: roster", "input: r.rest\n"
                    "    config:\n      name: roster", text)
    at = where(text, '"' + {"node": "ros", "column": "na", "branch": "b"}[place] + "\\udc80")
    assert "lone surrogate" in refused(tmp_path, text, monkeypatch, "E000", at)


# ---- name and path length -------------------------------------------------------------


@pytest.mark.parametrize("kind", ["node", "column", "pipeline"])
def test_a_name_over_255_bytes_is_cs063(tmp_path, monkeypatch, kind):
    long = "é" * 128  # 256 bytes, 128 characters
    text = {"node": edit("sink\n    name: roster\n", f"sink\n    name: {long}\n"),
            "column": edit("{ name: name, type: string }", f"{{ name: {long}, type: string }}"),
            "pipeline": edit("  name: limits\n", f"  name: {long}\n")}[kind]
    if kind == "column":
        text = edit("name.trim()", f"{long}.trim()", text)
    message = refused(tmp_path, text, monkeypatch, "CS063", where(text, long))
    assert "256 bytes long; the limit is 255 bytes" in message


def test_names_of_255_bytes_compile_and_write_their_files(tmp_path, monkeypatch):
    long = "n" * MAX_NAME_BYTES
    text = edit("sink\n    name: roster\n", f"sink\n    name: {long}\n")
    text = edit("  name: limits\n", f"  name: {long}\n", text)
    passes(tmp_path, text, monkeypatch)
    written = [p for p in (tmp_path / "t").rglob("*") if p.is_file()]
    assert written and all(len(p.name.encode()) <= 255 for p in written)
    assert any(long[:100] in p.name for p in written)


@pytest.mark.parametrize("path, words", [
    ("./out/" + "d" * 256 + "/r.csv", "a folder or file name of 256 bytes; the limit is 255"),
    ("./out/" + ("d" * 200 + "/") * 21 + "r.csv", "bytes long; the limit is 4096 bytes"),
])
@pytest.mark.parametrize("which", ["sink", "source", "dlq"])
def test_a_path_too_long_for_a_file_system_is_cs064(tmp_path, monkeypatch, path, words,
                                                    which):
    old = {"sink": "./out/roster.csv", "source": "./data/people.csv",
           "dlq": "./out/dlq.csv"}[which]
    new = path.replace("./out/", "./data/") if which == "source" else path
    text = edit(old, new)
    # a sink names its path's place; a source, its node; the DLQ, its block
    at = {"sink": where(text, new), "source": where(text, "type: source"),
          "dlq": where(text, "path: " + new)}[which]
    assert words in refused(tmp_path, text, monkeypatch, "CS064", at[:2])


# ---- CXL nesting -----------------------------------------------------------------------


def _cxl(expr: str) -> str:
    return edit("emit total = pay", f"emit total = {expr}")


N = MAX_NESTING


@pytest.mark.parametrize("expr, index", [  # index: where in `expr` the error points
    ("(" * N + "pay" + ")" * N, N),  # the operand one group too deep
    ("pay + (" * N + "pay" + ")" * N, 7 * N),
    ("-" * N + "pay", N - 1),  # the prefix operator one too deep
    (" + ".join(["pay"] * 3000), 4 + 6 * (N - 1)),  # the operator one level too high
    ("name" + ".trim()" * N + ".length()", 4 + 7 * (N - 1) + 1),  # the method too high
    ("[" * N + "pay" + "]" * N, N),
])
def test_expression_nesting_past_the_limit_is_cs062(tmp_path, monkeypatch, expr, index):
    text = _cxl(expr)
    line, col = where(text, expr)
    message = refused(tmp_path, text, monkeypatch, "CS062", (line, col + index))
    assert f"the limit is {MAX_NESTING} levels" in message


def test_a_3000_term_chain_is_refused_within_5_seconds(tmp_path, monkeypatch):
    text = _cxl(" + ".join(["pay"] * 3000))
    for exit_code, output, seconds in commands(tmp_path, text, monkeypatch):
        assert "error[CS062]" in output and seconds < 5, (seconds, output)


@pytest.mark.parametrize("expr", [
    "(" * (MAX_NESTING - 1) + "pay" + ")" * (MAX_NESTING - 1),  # as deep as allowed
    "[" * (MAX_NESTING - 2) + "pay" + "]" * (MAX_NESTING - 2),
    "name" + ".trim()" * (MAX_NESTING - 2) + ".length()",  # a tree MAX_NESTING high
])
def test_an_expression_just_under_the_limit_compiles(tmp_path, monkeypatch, expr):
    """Down the whole path: lowering, SQL generation, sqlglot's checks, the files."""
    text = _cxl(expr)
    if expr.startswith("["):
        text = edit("emit total = pay", f"emit total = pay\n        emit deep = {expr}",
                    PIPELINE)
    passes(tmp_path, text, monkeypatch)


# ---- YAML size -------------------------------------------------------------------------


def test_yaml_nested_past_256_levels_is_cs060(tmp_path, monkeypatch):
    flow = edit("  name: limits\n", "  name: limits\n  _notes: " + "[" * 3000 + "]" * 3000
                + "\n")
    # at the first bracket past 256: the scanner stops there, before the parser reads on
    message = refused(tmp_path, flow, monkeypatch, "CS060", (3, 11 + MAX_DEPTH))
    assert f"deeper than {MAX_DEPTH} levels" in message
    block = "".join(" " * (2 * i + 4) + "k:\n" for i in range(MAX_DEPTH + 5))
    text = edit("  name: limits\n", "  name: limits\n  _notes:\n" + block)
    # the root, `pipeline:` and `_notes:` hold levels 1-3: the mapping of line 258 is 257
    refused(tmp_path, text, monkeypatch, "CS060", (MAX_DEPTH + 2, 2 * (MAX_DEPTH - 2) + 5))


def test_yaml_nested_just_under_the_limit_loads(tmp_path, monkeypatch):
    depth = MAX_DEPTH - 3  # the root and `pipeline:` are two levels, _notes' value one
    passes(tmp_path, edit("  name: limits\n", "  name: limits\n  _notes: " + "[" * depth
                          + "]" * depth + "\n"), monkeypatch)


def test_an_alias_bomb_is_refused_at_once(tmp_path, monkeypatch):
    bomb = '  _notes:\n    a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]\n'
    previous = "a"
    for name in "bcdefghi":
        bomb += f"    {name}: &{name} [" + ",".join([f"*{previous}"] * 9) + "]\n"
        previous = name
    assert len(bomb) < 2000
    text = edit("  name: limits\n", "  name: limits\n" + bomb)
    for exit_code, output, seconds in commands(tmp_path, text, monkeypatch):
        assert re.findall(r"error\[([\w-]+)\]", output) == ["CS061"], output
        assert f"more than {MAX_NODES} nodes" in output and seconds < 2, (seconds, output)


def test_aliases_a_real_pipeline_uses_are_fine(tmp_path, monkeypatch):
    text = edit("        - { name: id, type: int }\n", "        - &id { name: id, type: int }\n")
    text = edit("  - type: transform\n", "  - type: transform\n    description: &d step\n", text)
    text = edit("sink\n    name: roster\n", "sink\n    name: roster\n    description: *d\n",
                text)
    passes(tmp_path, text, monkeypatch)


def test_deep_yaml_under_a_program_is_still_located(tmp_path, monkeypatch):
    """Limits leave ordinary diagnostics as they were: an unknown key after the nesting."""
    text = edit("  name: limits\n", "  name: limits\n  _notes: " + "[" * 50 + "]" * 50
                + "\n  colour: red\n")
    refused(tmp_path, text, monkeypatch, "E000", (4, 3))

