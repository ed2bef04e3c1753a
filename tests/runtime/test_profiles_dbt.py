"""profiles.yml in dbt's shape: profile -> target -> outputs (no server needed)."""

from __future__ import annotations

import textwrap

import pytest

from clinker_sql.diagnostics import DiagnosticError
from clinker_sql.runtime.profiles import load_target

DBT_SHAPED = """
    clinker:
      target: dev
      outputs:
        dev: { type: thrift, host: 127.0.0.1, port: 10001 }
        prod: { type: thrift, host: spark.internal, port: 10000, database: etl }
    other:
      target: qa
      outputs:
        qa: { type: thrift, host: qa.internal }
"""


def _write(tmp_path, text: str) -> None:
    (tmp_path / "profiles.yml").write_text(textwrap.dedent(text), encoding="utf-8")


def test_a_named_output_of_the_named_profile(tmp_path):
    _write(tmp_path, DBT_SHAPED)
    prod = load_target("prod", tmp_path, "clinker")
    assert (prod.host, prod.port, prod.database) == ("spark.internal", 10000, "etl")
    assert load_target("qa", tmp_path, "other").host == "qa.internal"


def test_default_is_the_profiles_own_target(tmp_path):
    _write(tmp_path, DBT_SHAPED)
    dev = load_target("default", tmp_path, "clinker")
    assert (dev.host, dev.port) == ("127.0.0.1", 10001)


def test_the_only_profile_needs_no_name(tmp_path):
    _write(tmp_path, DBT_SHAPED.split("    other:")[0])
    assert load_target("prod", tmp_path).host == "spark.internal"


def test_several_profiles_need_a_name_and_unknown_ones_are_cs035(tmp_path):
    _write(tmp_path, DBT_SHAPED)
    for target, profile, message in (("prod", None, "name one with --profile"),
                                     ("prod", "nope", "unknown profile 'nope'"),
                                     ("qa", "clinker", "known: dev, prod")):
        with pytest.raises(DiagnosticError) as info:
            load_target(target, tmp_path, profile)
        d = info.value.diagnostics[0]
        assert d.code == "CS035" and message in d.message, d.message
