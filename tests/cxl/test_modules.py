"""CXL modules at compile time, translated from Clinker's
crates/clinker/tests/cxl_module_resolution.rs and cxl/src/module_eval.rs tests: where a
module is found (the rules root's precedence, catalog entries, the workspace boundary),
what a module may hold, and the diagnostics of the pipeline's calls. Runs on Spark are in
tests/e2e/test_modules.py."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from clinker_sql.diagnostics import DiagnosticError
from clinker_sql.project import Project

PIPELINE = """
pipeline:
  name: retained_modules
{extra}nodes:
  - type: source
    name: input
    config:
      name: input
      type: csv
      path: input.csv
      schema:
        - {{ name: value, type: int }}
  - type: transform
    name: transform
    input: input
    config:
      cxl: |
{cxl}
  - type: sink
    name: output
    input: transform
    config:
      name: output
      type: csv
      path: output.csv
"""


def workspace(tmp_path: Path, cxl: str, modules: dict[str, str], extra: str = "",
              toml: str | None = None) -> Path:
    """A workspace: the pipeline (its transform running `cxl`), module files by path
    relative to the workspace, and clinker.toml when given."""
    body = "".join(f"        {line}\n" for line in textwrap.dedent(cxl).strip().splitlines())
    (tmp_path / "pipeline.yaml").write_text(PIPELINE.format(extra=extra, cxl=body.rstrip()),
                                            encoding="utf-8")
    (tmp_path / "input.csv").write_text("value\n42\n", encoding="utf-8")
    for path, text in modules.items():
        (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / path).write_text(textwrap.dedent(text).lstrip(), encoding="utf-8")
    if toml is not None:
        (tmp_path / "clinker.toml").write_text(toml, encoding="utf-8")
    return tmp_path / "pipeline.yaml"


def compiled_sql(pipeline: Path, **options) -> str:
    compiled = Project(pipeline, pipeline.parent / "target", **options).compile()
    return "\n".join(s.sql for s in compiled.statements)


def fails(pipeline: Path, **options) -> DiagnosticError:
    with pytest.raises(DiagnosticError) as info:
        Project(pipeline, pipeline.parent / "target", **options).compile()
    return info.value


# ---- the pipeline's calls (Clinker's resolver: E203, type checker: E200) --------------------

@pytest.mark.parametrize("arguments, actual", [("value", 1), ("value, value, value", 3)])
def test_imported_function_wrong_arity_fails_compile(tmp_path, arguments, actual):
    p = workspace(tmp_path, f"use app.main as admitted\nemit value = admitted.combine({arguments})",
                  {"rules/app/main.cxl": "fn combine(left, right) = left + right\n"})
    d = fails(p).diagnostics[0]
    assert d.code == "E200"
    for text in ("app.main.combine", "expects 2 arguments", f"got {actual}", "admitted.combine"):
        assert text in d.message, d.message
    assert (d.location.line, d.location.column) == (19, 22)  # the call, in the YAML


def test_imported_function_body_type_mismatch_fails_compile(tmp_path):
    p = workspace(tmp_path,
                  'use app.main as admitted\nemit value = admitted.add_one("not a number")',
                  {"rules/app/main.cxl": "fn add_one(value) = value + 1\n"})
    d = fails(p).diagnostics[0]
    assert d.code == "E200"
    assert "string" in d.message and "int" in d.message
    assert d.location.line == 19  # the body is checked at the call site


@pytest.mark.parametrize("cxl, message, hint", [
    ("emit v = m.add_on(value)", "module 'm' has no function 'add_on'", "did you mean 'add_one'?"),
    ("emit v = m.add_onee", "module 'm' has no member 'add_onee'", "did you mean 'add_one'?"),
    ("emit v = m.LIMIT(value)", "'LIMIT' is a constant in module 'm', not a function",
     "use 'm.LIMIT' without parentheses"),
    ("emit v = m.add_one", "'add_one' is a function in module 'm', not a constant",
     "use 'm.add_one()' with parentheses to call it"),
])
def test_member_mistakes_are_E203(tmp_path, cxl, message, hint):
    p = workspace(tmp_path, f"use app.main as m\n{cxl}",
                  {"rules/app/main.cxl": "let LIMIT = 10\nfn add_one(value) = value + 1\n"})
    d = fails(p).diagnostics[0]
    assert (d.code, d.message, d.hint) == ("E203", message, hint)


def test_dependencies_are_not_reexported(tmp_path):
    """The pipeline can address only the modules it imports itself: `dates` is private to
    app.main, so `dates.EPOCH` is no module reference (it reads a field `dates`)."""
    p = workspace(tmp_path, "use app.main\nemit v = dates.EPOCH", {
        "rules/app/main.cxl": "use shared.dates as dates\nfn year(value) = value + dates.EPOCH\n",
        "rules/shared/dates.cxl": "let EPOCH = 1970\n"})
    assert fails(p).diagnostics[0].code == "E203"


# ---- finding modules --------------------------------------------------------------------------

def _roots(tmp_path: Path) -> None:
    for name in ("catalog-rules", "pipeline-rules", "cli-rules", "rules"):
        (tmp_path / name / "app").mkdir(parents=True)
        (tmp_path / name / "app" / "main.cxl").write_text(f'let WHICH = "{name}"\n')


def test_rules_root_precedence_is_explicit(tmp_path):
    """--rules-path, then pipeline.rules_path, then clinker.toml, then rules/."""
    _roots(tmp_path)
    cxl = "use app.main as admitted\nemit which = admitted.WHICH"
    toml = '[catalog]\nrules_root = "catalog-rules"\n'
    p = workspace(tmp_path, cxl, {}, extra="  rules_path: pipeline-rules\n", toml=toml)
    assert "'cli-rules'" in compiled_sql(p, rules_path="cli-rules")
    assert "'pipeline-rules'" in compiled_sql(p)
    p = workspace(tmp_path, cxl, {}, toml=toml)
    assert "'catalog-rules'" in compiled_sql(p)
    (tmp_path / "clinker.toml").unlink()
    assert "'rules'" in compiled_sql(p)


def test_catalog_rule_entry_maps_an_identity_to_its_file(tmp_path):
    p = workspace(tmp_path, "use shared.dates as dates\nemit epoch = dates.EPOCH", {
        "lib/dates_v2.cxl": "let EPOCH = 1971\n",
        "rules/shared/dates.cxl": "let EPOCH = 1970\n",
        # never imported: not read, so its mistakes do not matter
        "rules/private/unused.cxl": "emit nothing = 1\n"},
        toml='[catalog]\nrules_root = "rules"\n\n[catalog.rules]\n'
             '"shared.dates" = "lib/dates_v2.cxl"\n')
    sql = compiled_sql(p)
    assert "1971" in sql and "1970" not in sql


@pytest.mark.parametrize("toml, message", [
    ('[catalog]\nrules_root = "../outside"\n', "rules root escapes the workspace"),
    ('[catalog]\nrules_root = "nowhere"\n', "rules root cannot be opened"),
    ('[catalog.rules]\n"app.main" = "../outside.cxl"\n', "rule resource `app.main` escapes"),
])
def test_modules_stay_inside_the_workspace(tmp_path, toml, message):
    (tmp_path / "ws").mkdir()
    (tmp_path / "outside").mkdir()
    (tmp_path / "outside" / "app").mkdir()
    (tmp_path / "outside" / "app" / "main.cxl").write_text("let A = 1\n")
    (tmp_path / "outside.cxl").write_text("let A = 1\n")
    p = workspace(tmp_path / "ws", "use app.main\nemit a = main.A", {}, toml=toml)
    d = fails(p).diagnostics[0]
    assert d.code == "CS130" and message in d.message, d.message
    assert str(tmp_path) not in d.message  # no physical path in the message


def test_missing_module_is_reported_at_the_use(tmp_path):
    (tmp_path / "rules").mkdir()
    p = workspace(tmp_path, "use app.main as admitted\nemit value = admitted.answer(value)", {})
    d = fails(p).diagnostics[0]
    assert d.code == "CS130" and "app.main" in d.message and "cannot be read" in d.message
    assert (Path(d.location.file).name, d.location.line) == ("pipeline.yaml", 18)


def test_missing_dependency_is_reported_at_the_importing_module(tmp_path):
    p = workspace(tmp_path, "use app.main\nemit v = main.A",
                  {"rules/app/main.cxl": "use shared.gone as gone\nlet A = 1\n"})
    d = fails(p).diagnostics[0]
    assert d.code == "CS130" and "module `shared.gone` cannot be read" in d.message
    assert (Path(d.location.file).name, d.location.line) == ("main.cxl", 1)


def test_transitive_closure_is_admitted_and_evaluated(tmp_path):
    p = workspace(tmp_path,
                  "use app.main as admitted\nemit value = admitted.answer(admitted.ANSWER)",
                  {"rules/app/main.cxl": """
                      use shared.base as base
                      let ANSWER = base.BASE
                      fn add_one(value) = value + 1
                      fn answer(value) = add_one.call(value) + 1
                      """,
                   "rules/shared/base.cxl": "let BASE = 40\nfn add_two(value) = value + 2\n"})
    assert "40" in compiled_sql(p)


# ---- what a module may hold (CS131), cycles (CS132), bounds (CS133) ---------------------------

@pytest.mark.parametrize("module, code, message, line", [
    ("let A = 1\nemit x = 1\n", "CS131", "emit is not allowed in module files", 2),
    ("let A = 1\nfilter A > 0\n", "CS131", "filter is not allowed in module files", 2),
    ("let A = 1\nuse other\n", "CS131", "use must appear before module declarations", 2),
    ("let A = 1\nlet A = 2\n", "CS131", "defines constant `A` more than once", 2),
    ("let A = 1\nfn g() = raw_customer.trim()\n", "CS131", "unresolved receiver `raw_customer`", 2),
    ("let A = amount * 2\n", "CS131", "references unresolved name `amount`", 1),
    ("let A = 1\nfn f(x) = g(x)\n", "CS131", "", 2),
    ("let A = 1\nfn f(x) = x\nfn g(x) = f.apply(x)\n", "CS131", "use `f.call(...)`", 3),
    ("fn first(x) = second.call(x)\nfn second(x) = first.call(x)\nlet A = 1\n", "CS132",
     "a.first (function) -> a.second (function) -> a.first (function)", 1),
    ("let A = f.call(1)\nfn f(x) = A\n", "CS132", "a.A (constant) -> a.f (function)", 1),
    ("let A = B\nlet B = A\n", "CS132", "cyclic module declaration dependency", 1),
])
def test_invalid_modules_are_reported_in_the_module_file(tmp_path, module, code, message,
                                                          line):
    p = workspace(tmp_path, "use a\nemit v = a.A", {"rules/a.cxl": module})
    d = fails(p).diagnostics[0]
    assert d.code == code and message in d.message, d.message
    assert (Path(d.location.file).name, d.location.line) == ("a.cxl", line)


def test_import_cycle_shows_the_whole_chain(tmp_path):
    p = workspace(tmp_path, "use a\nemit v = a.A", {
        "rules/a.cxl": "use b\nlet A = 1\n", "rules/b.cxl": "use c\nlet B = 2\n",
        "rules/c.cxl": "use a\nlet C = 3\n"})
    d = fails(p).diagnostics[0]
    assert d.code == "CS132" and "a -> b -> c -> a" in d.message


def test_duplicate_import_alias(tmp_path):
    p = workspace(tmp_path, "use root\nemit v = root.ROOT", {
        "rules/root.cxl": "use first as common\nuse second as common\nlet ROOT = 1\n",
        "rules/first.cxl": "let FIRST = 1\n", "rules/second.cxl": "let SECOND = 2\n"})
    d = fails(p).diagnostics[0]
    assert d.code == "CS131" and "duplicate import alias `common`" in d.message


def test_private_transitive_alias_access_is_refused(tmp_path):
    p = workspace(tmp_path, "use app.main\nemit v = main.BAD", {
        "rules/app/main.cxl": "use shared.middle as middle\nlet BAD = hidden.SECRET\n",
        "rules/shared/middle.cxl": "use private.hidden as hidden\nlet PUBLIC = hidden.SECRET\n",
        "rules/private/hidden.cxl": "let SECRET = 7\n"})
    d = fails(p).diagnostics[0]
    assert d.code == "CS131"
    for text in ("app.main", "hidden", "direct import"):
        assert text in d.message


def test_closure_over_64_modules_is_refused(tmp_path):
    uses = "".join(f"use m{i}\n" for i in range(1, 65))
    modules = {f"rules/m{i}.cxl": "let V = 1\n" for i in range(1, 65)}
    modules["rules/m0.cxl"] = uses + "let V = 1\n"
    p = workspace(tmp_path, "use m0\nemit v = m0.V", modules)
    d = fails(p).diagnostics[0]
    assert d.code == "CS133" and "64 unique modules" in d.message
    del modules["rules/m64.cxl"]  # 64 in all: admitted
    modules["rules/m0.cxl"] = uses.replace("use m64\n", "") + "let V = m63.V\n"
    p = workspace(tmp_path, "use m0\nemit v = m0.V", modules)
    assert compiled_sql(p)


def test_import_chain_deeper_than_32_is_refused(tmp_path):
    modules = {f"rules/m{i}.cxl": f"use m{i + 1}\nlet V = m{i + 1}.V\n" for i in range(33)}
    modules["rules/m33.cxl"] = "let V = 5\n"
    p = workspace(tmp_path, "use m0\nemit v = m0.V", modules)
    d = fails(p).diagnostics[0]
    assert d.code == "CS133" and "import depth exceeds 32 at `m33`" in d.message
    modules["rules/m32.cxl"] = "let V = 5\n"  # 32 imports deep: admitted, V read through all
    p = workspace(tmp_path, "use m0\nemit v = m0.V", modules)
    assert "5" in compiled_sql(p)


# ---- --var ------------------------------------------------------------------------------------

VARS = "  vars:\n    bump: { type: int, default: 1 }\n    label: { type: string }\n"


def test_var_override_replaces_the_default(tmp_path):
    p = workspace(tmp_path, "emit v = value + $vars.bump\nemit l = $vars.label", {},
                  extra=VARS)
    assert "CAST(1 AS BIGINT)" in compiled_sql(p)
    sql = compiled_sql(p, vars=("bump=7", "label=10", "bump=9"))
    assert "CAST(9 AS BIGINT)" in sql and "'10'" in sql and "CAST(7 AS" not in sql


@pytest.mark.parametrize("item, message", [
    ("nope=1", "declares no var 'nope'"),
    ("bump=high", "not a value of the declared type int"),
    ("bump", "write name=value"),
])
def test_bad_var_override_is_CS134(tmp_path, item, message):
    p = workspace(tmp_path, "emit v = value + $vars.bump", {}, extra=VARS)
    d = fails(p, vars=(item,)).diagnostics[0]
    assert d.code == "CS134" and message in d.message, d.message
