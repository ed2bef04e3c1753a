"""A sink path template is rendered over the node graph before the graph is checked: a
repeated name, a self-input or a cycle upstream of a templated sink must still end in the
graph's diagnostic (E001, E002, E003), not in a recursion error or a hang."""

from __future__ import annotations

import pytest

from clinker_sql.diagnostics import DiagnosticError
from clinker_sql.project import Project

_PIPELINE = """\
pipeline:
  name: templated
nodes:
  - type: source
    name: sales
    config:
      name: sales
      type: csv
      glob: ./data/store_*.csv
      schema:
        - {{ name: sku, type: string }}
  - type: transform
    name: {t_name}
    input: {t_input}
    config:
      cxl: |
        emit n = 1
  - type: transform
    name: second
    input: priced
    config:
      cxl: |
        emit m = 2
  - type: sink
    name: {s_name}
    input: {s_input}
    config:
      name: export
      type: csv
      path: ./out/{{source_file}}_export.csv
"""


@pytest.mark.parametrize("names, code", [
    ({"t_name": "priced", "t_input": "sales", "s_name": "priced", "s_input": "priced"},
     "E001"),  # the sink takes the transform's name and reads "itself"
    ({"t_name": "priced", "t_input": "priced", "s_name": "export", "s_input": "priced"},
     "E002"),  # a transform that reads itself, upstream of the templated sink
    ({"t_name": "priced", "t_input": "second", "s_name": "export", "s_input": "second"},
     "E003"),  # a cycle of two transforms upstream of it
])
def test_templated_sink_over_a_broken_graph(tmp_path, names, code):
    pipeline = tmp_path / "pipeline.yaml"
    pipeline.write_text(_PIPELINE.format(**names), encoding="utf-8")
    with pytest.raises(DiagnosticError) as info:
        Project(pipeline).compile(base=tmp_path)
    assert info.value.diagnostics[0].code == code, info.value.diagnostics[0].message
