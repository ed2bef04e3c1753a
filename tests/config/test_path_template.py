"""A sink path's template, parsed and rendered as Clinker's path_template.rs does."""

from __future__ import annotations

import pytest

from clinker_sql.config.path_template import parse
from clinker_sql.diagnostics import DiagnosticError


def test_tokens_escapes_and_conditional_emit():
    t = parse("out/{{x}}_{source_file}{channel:-:_}{source_name:orders:[:]}.csv", None)
    assert t.per_record
    values = {"source_file": "a", "channel": ""}
    assert t.render(values, {"orders": "o"}) == "out/{x}_a[o].csv"
    assert t.render({"source_file": "a", "channel": "eu"}, {"orders": ""}) == "out/{x}_a-eu_.csv"


def test_partial_keeps_the_per_record_tokens_and_escapes_the_rest():
    t = parse("{{{source_name}}}/{source_file:p_:}.csv", None)
    text = t.partial({"source_name": "in{1}"})
    assert text == "{{in{{1}}}}/{source_file:p_:}.csv"
    assert parse(text, None).render({"source_file": "f"}) == "{in{1}}/p_f.csv"


@pytest.mark.parametrize("path, code", [
    ("out/{nope}.csv", "CS107"),
    ("out/{source_file.csv", "CS107"),
    ("out/x}.csv", "CS107"),
    ("out/{}.csv", "CS107"),
    ("out/{a:b:c:d:e}.csv", "CS107"),
    ("out/{n:3}.csv", "CS107"),
    ("out/{timestamp}.csv", "CS001"),
    ("out/{pipeline_hash:8}.csv", "CS001"),
])
def test_invalid_or_refused(path, code):
    with pytest.raises(DiagnosticError) as info:
        parse(path, None)
    assert info.value.diagnostics[0].code == code
