"""Compositions, groups, channels and `${VAR}` run on Spark, translated from Clinker's
composition_executor_test.rs, config_fold.rs, config_namespace.rs and
channels_overlay.rs: the rows each writes are compared, not the SQL."""

from __future__ import annotations

import textwrap
from pathlib import Path

from clinker_sql.project import Project

from .compare import read_csv

SRC = """
  - type: source
    name: src
    config:
      name: src
      type: csv
      path: {dir}/in.csv
      schema:
COLUMNS
"""

SINK = """
  - type: sink
    name: NAME
    input: INPUT
    config:
      name: NAME
      type: csv
      path: {dir}/out/NAME.csv
      include_unmapped: true
"""

TRANSFORM_CHECK = """
_compose:
  name: exec_transform_check
  inputs:
    inp:
      schema:
        - { name: a, type: int }
  outputs:
    out: doubler
  config_schema: {}
nodes:
  - type: transform
    name: doubler
    input: inp
    config:
      cxl: |
        emit a = a
        emit computed = a.to_int() * 2
"""


def _pipeline(name: str, *nodes: str, columns: str = "        - { name: a, type: int }",
              strategy: str = "continue") -> str:
    return (f"pipeline:\n  name: {name}\nerror_handling:\n  strategy: {strategy}\n"
            "  dlq:\n    path: {dir}/out/dlq.csv\nnodes:\n"
            + SRC.replace("COLUMNS", columns) + "".join(nodes))


def _sink(name: str, input_: str) -> str:
    return SINK.replace("NAME", name).replace("INPUT", input_)


def _call(name: str, use: str, input_: str = "src", config: str = "") -> str:
    return (f"  - type: composition\n    name: {name}\n    input: {input_}\n    use: {use}\n"
            f"    inputs:\n      inp: {input_}\n" + (f"    config: {config}\n" if config else ""))


def _run(executor, tmp_path: Path, pipeline: str, files: dict[str, str], **layer):
    (tmp_path / "out").mkdir(exist_ok=True)
    for name, text in files.items():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text).lstrip("\n"), encoding="utf-8")
    file = tmp_path / "pipeline.yaml"
    file.write_text(pipeline.replace("{dir}", str(tmp_path)), encoding="utf-8")
    project = Project(file, tmp_path / "target", allow_absolute_paths=True, **layer)
    return project.run(executor=executor, base=tmp_path)


def _rows(tmp_path: Path, name: str) -> tuple[list[str], list[list[str]]]:
    return read_csv(tmp_path / "out" / name)


def test_a_composition_body_executes_its_transform(executor, tmp_path):
    text = _pipeline("composition_executor_transform",
                     _call("doubler_call", "./compositions/exec_transform_check.comp.yaml"),
                     _sink("out", "doubler_call"))
    _run(executor, tmp_path, text, {"in.csv": "a\n5\n7\n",
                                    "compositions/exec_transform_check.comp.yaml":
                                    TRANSFORM_CHECK})
    head, rows = _rows(tmp_path, "out.csv")
    assert head == ["a", "computed"] and sorted(rows) == [["5", "10"], ["7", "14"]]


def test_a_nested_composition_executes_both_bodies(executor, tmp_path):
    nested = """
    _compose:
      name: exec_nested_check
      inputs:
        inp:
          schema:
            - { name: a, type: int }
      outputs:
        out: stamp
      config_schema: {}
    nodes:
      - type: composition
        name: inner
        input: inp
        use: ./exec_transform_check.comp.yaml
        inputs:
          inp: inp
      - type: transform
        name: stamp
        input: inner
        config:
          cxl: |
            emit a = a
            emit computed = computed
            emit marker = "nested"
    """
    text = _pipeline("composition_executor_nested",
                     _call("nested_call", "./compositions/exec_nested_check.comp.yaml"),
                     _sink("out", "nested_call"))
    _run(executor, tmp_path, text, {"in.csv": "a\n3\n",
                                    "compositions/exec_transform_check.comp.yaml":
                                    TRANSFORM_CHECK,
                                    "compositions/exec_nested_check.comp.yaml": nested})
    assert _rows(tmp_path, "out.csv") == (["a", "computed", "marker"], [["3", "6", "nested"]])


ROUTE_BODY = """
_compose:
  name: route_scope_body
  inputs:
    inp:
      schema:
        - { name: id, type: string }
        - { name: tier, type: int }
  outputs:
    out: merged
  config_schema: {}
nodes:
  - type: route
    name: gate
    input: inp
    config:
      conditions:
        hot: "tier > 10"
      default: cold
  - type: transform
    name: body_hot
    input: gate.hot
    config:
      cxl: |
        emit id = id
        emit tier = tier
        emit via = "body_hot"
  - type: transform
    name: body_cold
    input: gate.cold
    config:
      cxl: |
        emit id = id
        emit tier = tier
        emit via = "body_cold"
  - type: merge
    name: merged
    inputs: [body_hot, body_cold]
"""


def test_a_body_route_and_merge_keep_every_row_once(executor, tmp_path):
    text = _pipeline("composition_executor_route_merge",
                     _call("split_call", "./compositions/route_scope_body.comp.yaml"),
                     _sink("out", "split_call"),
                     columns="        - { name: id, type: string }\n"
                             "        - { name: tier, type: int }")
    _run(executor, tmp_path, text, {"in.csv": "id,tier\na,3\nb,5\nc,12\nd,42\n",
                                    "compositions/route_scope_body.comp.yaml": ROUTE_BODY})
    head, rows = _rows(tmp_path, "out.csv")
    assert sorted(r[0] + ":" + r[2] for r in rows) == [
        "a:body_cold", "b:body_cold", "c:body_hot", "d:body_hot"]


def test_a_top_level_route_and_a_body_route_of_one_name_stay_apart(executor, tmp_path):
    top = """
  - type: route
    name: gate
    input: src
    config:
      conditions:
        hot: "tier > 100"
      default: cold
  - type: transform
    name: top_hot
    input: gate.hot
    config:
      cxl: |
        emit id = id
        emit via = "top_hot"
  - type: transform
    name: top_cold
    input: gate.cold
    config:
      cxl: |
        emit id = id
        emit via = "top_cold"
  - type: merge
    name: top_merged
    inputs: [top_hot, top_cold]
"""
    text = _pipeline("route_scope_collision", top, _sink("top_out", "top_merged"),
                     _call("comp", "./compositions/route_scope_body.comp.yaml"),
                     _sink("comp_out", "comp"),
                     columns="        - { name: id, type: string }\n"
                             "        - { name: tier, type: int }")
    _run(executor, tmp_path, text, {"in.csv": "id,tier\nr1,50\n",
                                    "compositions/route_scope_body.comp.yaml": ROUTE_BODY})
    assert _rows(tmp_path, "top_out.csv")[1] == [["r1", "50", "top_cold"]]
    assert _rows(tmp_path, "comp_out.csv")[1] == [["r1", "50", "body_hot"]]


GATE = """
_compose:
  name: gate
  inputs:
    inp:
      schema:
        - { name: id, type: string }
        - { name: val, type: float }
  outputs:
    out: gated
  config_schema:
    min_amount:
      type: float
      default: 0.0
nodes:
  - type: transform
    name: gated
    input: inp
    config:
      cxl: |
        filter val >= $config.min_amount
        emit id = id
"""

GATE_COLUMNS = "        - { name: id, type: string }\n        - { name: val, type: float }"
GATE_ROWS = "id,val\na,5.0\nb,50.0\nc,500.0\n"


def test_two_calls_of_one_composition_fold_their_own_config(executor, tmp_path):
    text = _pipeline("config_fold",
                     _call("gate_low", "./compositions/gate.comp.yaml",
                           config="{ min_amount: 10.0 }"),
                     _call("gate_high", "./compositions/gate.comp.yaml",
                           config="{ min_amount: 100.0 }"),
                     _sink("low", "gate_low"), _sink("high", "gate_high"),
                     columns=GATE_COLUMNS)
    _run(executor, tmp_path, text, {"in.csv": GATE_ROWS, "compositions/gate.comp.yaml": GATE})
    assert sorted(r[0] for r in _rows(tmp_path, "low.csv")[1]) == ["b", "c"]
    assert [r[0] for r in _rows(tmp_path, "high.csv")[1]] == ["c"]


def _gate_workspace(tmp_path: Path) -> dict[str, str]:
    return {"in.csv": GATE_ROWS, "compositions/gate.comp.yaml": GATE,
            "clinker.toml": '[catalog.pipelines]\norders = "pipeline.yaml"\n',
            "group/big.group.yaml": """
            group: { name: big, targets: { pipelines: [orders] }, priority: 20 }
            config:
              gate.min_amount: { value: 100.0 }
            """,
            "channel/acme/channel.cfg.yaml": """
            channel: { name: acme }
            config:
              gate.min_amount: { value: 10.0 }
            """,
            "channel/beta/channel.cfg.yaml": """
            channel: { name: beta }
            config:
              gate.min_amount: { value: 10.0 }
            """,
            "channel/beta/pipeline.channel.yaml": """
            channel: { target: orders }
            config:
              gate.min_amount: { value: 1000.0 }
            """}


def _gated(executor, tmp_path: Path, **layer) -> list[str]:
    text = _pipeline("order_fulfillment",
                     _call("gate", "./compositions/gate.comp.yaml", config="{ min_amount: 0.0 }"),
                     _sink("out", "gate"), columns=GATE_COLUMNS)
    _run(executor, tmp_path, text, _gate_workspace(tmp_path), **layer)
    return sorted(r[0] for r in _rows(tmp_path, "out.csv")[1])


def test_without_an_overlay_the_call_site_keeps_every_row(executor, tmp_path):
    assert _gated(executor, tmp_path) == ["a", "b", "c"]


def test_a_group_config_override_changes_the_executed_rows(executor, tmp_path):
    assert _gated(executor, tmp_path, groups=("big",)) == ["c"]


def test_a_channel_overrides_the_group_and_its_target_overlay_the_channel(executor, tmp_path):
    assert _gated(executor, tmp_path, groups=("big",), channel="acme") == ["b", "c"]
    assert _gated(executor, tmp_path, groups=("big",), channel="beta") == []


def test_a_body_failure_reaches_the_dlq_under_the_body_node_name(executor, tmp_path):
    body = TRANSFORM_CHECK.replace("{ name: a, type: int }", "{ name: a, type: string }")
    text = _pipeline("composition_executor_error",
                     _call("doubler_call", "./compositions/exec_transform_check.comp.yaml"),
                     _sink("out", "doubler_call"), columns="        - { name: a, type: string }")
    result = _run(executor, tmp_path, text, {"in.csv": "a\n4\nnot-an-integer\n",
                                             "compositions/exec_transform_check.comp.yaml":
                                             body})
    assert result.exit_code == 2
    assert _rows(tmp_path, "out.csv")[1] == [["4", "8"]]
    head, rows = _rows(tmp_path, "dlq.csv")
    assert [dict(zip(head, r))["_cxl_dlq_stage"] for r in rows] == ["transform:doubler"]


def test_env_references_are_substituted_before_the_file_is_read(executor, tmp_path,
                                                                 monkeypatch):
    monkeypatch.setenv("CLINKER_SQL_TEST_FACTOR", "3")
    text = _pipeline("env", """
  - type: transform
    name: t
    input: src
    config:
      cxl: |
        emit a = a * ${CLINKER_SQL_TEST_FACTOR}
        emit tag = "${CLINKER_SQL_TEST_UNSET:-none}-$${KEPT}"
""", _sink("out", "t"))
    _run(executor, tmp_path, text, {"in.csv": "a\n2\n"})
    assert _rows(tmp_path, "out.csv") == (["a", "tag"], [["6", "none-${KEPT}"]])


def test_a_channel_static_var_changes_what_a_filter_keeps(executor, tmp_path):
    text = _pipeline("vars", """
  - type: transform
    name: t
    input: src
    config:
      cxl: |
        filter a >= $vars.limit
        emit a = a
""", _sink("out", "t")).replace("pipeline:\n  name: vars\n",
                                "pipeline:\n  name: vars\n  vars:\n"
                                "    limit: { type: int, default: 0 }\n")
    files = {"in.csv": "a\n1\n5\n9\n",
             "channel/acme/channel.cfg.yaml": """
             channel: { name: acme }
             vars:
               static:
                 limit: { type: int, default: 5 }
             """}
    _run(executor, tmp_path, text, files)
    assert [r[0] for r in _rows(tmp_path, "out.csv")[1]] == ["1", "5", "9"]
    _run(executor, tmp_path, text, files, channel="acme")
    assert [r[0] for r in _rows(tmp_path, "out.csv")[1]] == ["5", "9"]


COMBINE_ENRICH = """
_compose:
  name: combine_enrich
  inputs:
    orders:
      schema:
        - { name: order_id, type: string }
        - { name: product_id, type: string }
        - { name: quantity, type: int }
    products:
      schema:
        - { name: product_id, type: string }
        - { name: name, type: string }
        - { name: price, type: float }
  outputs:
    enriched: enrich_combine
  config_schema: {}
nodes:
  - type: combine
    name: enrich_combine
    input:
      orders: orders
      products: products
    config:
      where: "orders.product_id == products.product_id"
      match: first
      on_miss: null_fields
      cxl: |
        emit order_id = orders.order_id
        emit product_name = products.name
        emit total = products.price * orders.quantity
      propagate_ck: driver
"""


def test_a_body_combine_joins_the_rows_of_two_ports(executor, tmp_path):
    """composition_combine_test.rs::test_combine_in_composition_executes: the combine's
    qualifiers name the body's input ports, bound to two sources."""
    text = _pipeline("combine_in_composition_execute", """
  - type: source
    name: products_src
    config:
      name: products_src
      type: csv
      path: {dir}/products.csv
      schema:
        - { name: product_id, type: string }
        - { name: name, type: string }
        - { name: price, type: float }
  - type: composition
    name: enrich_call
    input: src
    use: ./compositions/combine_enrich.comp.yaml
    inputs:
      orders: src
      products: products_src
""", _sink("out", "enrich_call.enriched"),
        columns="        - { name: order_id, type: string }\n"
                "        - { name: product_id, type: string }\n"
                "        - { name: quantity, type: int }")
    _run(executor, tmp_path, text, {"in.csv": "order_id,product_id,quantity\n1,A,2\n",
                                    "products.csv": "product_id,name,price\nA,Widget,10.0\n",
                                    "compositions/combine_enrich.comp.yaml": COMBINE_ENRICH})
    head, rows = _rows(tmp_path, "out.csv")
    assert head[:3] == ["order_id", "product_name", "total"]
    assert [r[:2] for r in rows] == [["1", "Widget"]] and float(rows[0][2]) == 20.0
