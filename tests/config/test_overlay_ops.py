"""A group's `overrides:` ops (config/overlay_ops.py, Clinker's overlay_ops.rs) applied to
the pipeline's nodes before it is read; a bad op is E114 at the op."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from clinker_sql.config.load import load_project_pipeline
from clinker_sql.diagnostics import DiagnosticError

PIPELINE = """\
pipeline:
  name: p
nodes:
  - type: source
    name: src
    config:
      name: src
      type: csv
      path: ./in.csv
      schema:
        - { name: id, type: string }
        - { name: amount, type: float }
        - { name: note, type: string }
  - type: transform
    name: a
    input: src
    config:
      cxl: |
        emit id = id
        emit amount = amount
  - type: transform
    name: b
    input: a
    config:
      cxl: |
        emit amount = amount + 1.0
  - type: sink
    name: out
    input: b
    config: { name: out, type: csv, path: ./out.csv }
"""

GATE = """\
_compose:
  name: gate
  inputs:
    inp:
      schema:
        - { name: amount, type: float }
  outputs:
    out: kept
  config_schema:
    min: { type: float, default: 0.0 }
nodes:
  - type: transform
    name: kept
    input: inp
    config:
      cxl: |
        filter amount >= $config.min
"""


def _load(tmp_path: Path, ops: str):
    (tmp_path / "pipeline.yaml").write_text(PIPELINE, encoding="utf-8")
    (tmp_path / "gate.comp.yaml").write_text(GATE, encoding="utf-8")
    (tmp_path / "group").mkdir(exist_ok=True)
    (tmp_path / "group" / "g.group.yaml").write_text(
        "group: { name: g, targets: { pipelines: [pipeline] } }\noverrides:\n" +
        textwrap.indent(textwrap.dedent(ops), "  "), encoding="utf-8")
    return load_project_pipeline(tmp_path / "pipeline.yaml", groups=("g",))


def _edges(pipeline) -> list[tuple[str, str]]:
    return [(n.name, ",".join(str(r) for r in n.inputs)) for n in pipeline.nodes]


def _e114(tmp_path: Path, ops: str) -> str:
    with pytest.raises(DiagnosticError) as info:
        _load(tmp_path, ops)
    d = info.value.diagnostics[0]
    assert d.code == "E114", d.render()
    assert d.location.file.endswith("g.group.yaml")
    return d.message


def test_add_after_splices_between_the_anchor_and_its_consumers(tmp_path):
    p = _load(tmp_path, """
        - op: add
          after: a
          node:
            type: transform
            name: extra
            input: whatever
            config: { cxl: "emit amount = amount * 2.0" }
    """)
    assert _edges(p) == [("src", ""), ("a", "src"), ("extra", "a"), ("b", "extra"),
                         ("out", "b")]


def test_add_before_takes_over_the_anchors_input(tmp_path):
    p = _load(tmp_path, """
        - op: add
          before: b
          node: { type: transform, name: extra, input: x, config: { cxl: "emit z = 1" } }
    """)
    assert _edges(p)[1:4] == [("a", "src"), ("extra", "a"), ("b", "extra")]


def test_add_a_composition_binds_its_one_port_to_the_anchor(tmp_path):
    p = _load(tmp_path, """
        - op: add
          composition: ./gate.comp.yaml
          alias: gate
          after: a
          config: { min: 10.0 }
    """)
    assert _edges(p) == [("src", ""), ("a", "src"), ("kept", "a"), ("b", "kept"),
                         ("out", "b")]


def test_remove_with_rewire_and_bypass(tmp_path):
    p = _load(tmp_path, """
        - op: remove
          target: b
          rewire: { out.input: a }
    """)
    assert _edges(p) == [("src", ""), ("a", "src"), ("out", "a")]
    p = _load(tmp_path, """
        - op: bypass
          target: a
    """)
    assert _edges(p) == [("src", ""), ("b", "src"), ("out", "b")]


def test_set_cxl_and_replace(tmp_path):
    p = _load(tmp_path, """
        - op: set
          target: b
          field: config.cxl
          value: "emit amount = amount + 2.0"
        - op: replace
          target: a
          node: { type: transform, name: a, input: src, config: { cxl: "emit id = id" } }
    """)
    assert p.node("b").cxl.text.strip() == "emit amount = amount + 2.0"
    assert p.node("a").cxl.text.strip() == "emit id = id"


def test_patch_schema_renames_adds_modifies_and_removes_columns(tmp_path):
    p = _load(tmp_path, """
        - op: patch_schema
          target: src
          schema:
            note: remove
            id: { rename: order_id }
            amount: { type: string }
            region: { add: { type: string } }
    """)
    columns = [(c.name, c.type, c.source_name) for c in p.node("src").config.schema]
    assert columns == [("order_id", "string", "id"), ("amount", "string", None),
                       ("region", "string", None)]


@pytest.mark.parametrize("ops, message", [
    ("- { op: bypass, target: nope }", "targets node 'nope', which does not exist"),
    ("- { op: remove, target: a }", "leaves node 'b' referencing it"),
    ("- { op: bypass, target: src }", "has no single upstream input"),
    ("- { op: set, target: out, field: config.cxl, value: x }", "only `config.cxl`"),
    ("- { op: replace, target: a, node: { type: transform, name: z, input: src } }",
     "does not match the replacement node's own name 'z'"),
    ("- { op: add, after: a, node: { type: transform, name: b, input: a } }",
     "node 'b', which already exists"),
    ("- { op: add, after: a, before: b, node: { type: transform, name: c } }",
     "at most one of `after`, `before`, or `input`"),
    ("- { op: bypass, target: a, after: b }", "`after` is not a valid field on a `bypass`"),
    ("- { op: patch_schema, target: a, schema: { x: remove } }", "not a source"),
    ("- { op: patch_schema, target: src, schema: { id: { rename: amount } } }", "[E233]"),
    ("- { op: patch_schema, target: src, schema: { gone: remove } }", "[E231]"),
    ("- { op: frobnicate }", "unknown op 'frobnicate'"),
])
def test_a_bad_op_is_e114_at_the_op(tmp_path, ops, message):
    assert message in _e114(tmp_path, ops)
