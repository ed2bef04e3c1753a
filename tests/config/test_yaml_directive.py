"""A `%YAML` directive naming a version the reader does not know is a coded E000 at the
top of the file, not an internal error."""

from __future__ import annotations

import pytest

from clinker_sql.config.parse import parse_pipeline
from clinker_sql.diagnostics import DiagnosticError


@pytest.mark.parametrize("version", ["1.3", "2.0", "1.0"])
def test_unknown_yaml_version_is_refused(version):
    text = f"%YAML {version}\n---\npipeline:\n  name: p\nnodes: []\n"
    with pytest.raises(DiagnosticError) as info:
        parse_pipeline(text, "pipeline.yaml")
    d = info.value.diagnostics[0]
    assert d.code == "E000" and d.location is not None and d.location.line == 1, d
