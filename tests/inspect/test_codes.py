"""explain --code / --list: every code the product emits has a meaning, a wrong
example and a fix."""

from __future__ import annotations

import re

import pytest

from clinker_sql.diagnostics import CODES
from clinker_sql.inspect.codes import _long_forms, explanation

from .conftest import REPO

CODE = re.compile(r"""["']((?:E|W|CS)[0-9]{3}[a-zA-Z]?|E15Y)["']""")


def emitted_codes() -> set[str]:
    """Every code literal in the product's source (raised, warned or attached to a check)."""
    found: set[str] = set()
    for path in (REPO / "clinker_sql").rglob("*.py"):
        found |= set(CODE.findall(path.read_text(encoding="utf-8")))
    return found


def test_every_emitted_code_is_registered():
    missing = sorted(emitted_codes() - set(CODES))
    assert not missing, f"codes used in clinker_sql/ but not in diagnostics.CODES: {missing}"


@pytest.mark.parametrize("code", sorted(CODES))
def test_every_code_has_meaning_wrong_example_and_fix(code):
    e = explanation(code)
    assert len(e.meaning) > 40, f"{code}: meaning too short"
    assert e.wrong.strip() and e.fix.strip(), f"{code}: needs a wrong example and a fix"
    assert e.wrong.strip() != e.fix.strip()


def test_explanations_are_only_for_known_codes():
    assert set(_long_forms()) <= set(CODES)


def test_explain_code_prints_all_three(run_cli):
    r = run_cli("explain", "--code", "E153")
    assert r.exit_code == 0
    out = r.stdout
    assert out.startswith("error[E153]: correlation_key names a field")
    assert "Wrong:" in out and "Fix:" in out and "correlation_key: order_id" in out
    assert "exit code: 1" in out


def test_explain_code_is_case_insensitive_and_warnings_say_so(run_cli):
    assert run_cli("explain", "--code", "e15y").stdout.startswith("error[E15Y]")
    assert run_cli("explain", "--code", "W002").stdout.startswith("warning[W002]")


def test_unknown_code_is_a_coded_diagnostic(run_cli):
    r = run_cli("explain", "--code", "E999")
    assert r.exit_code == 1
    assert "error[CS043]" in r.stderr and "Traceback" not in r.output


def test_list_lists_every_code(run_cli):
    for args in (("explain", "--list"), ("explain",)):
        r = run_cli(*args)
        assert r.exit_code == 0
        listed = [line.split()[0] for line in r.stdout.splitlines()]
        assert listed == list(CODES)
