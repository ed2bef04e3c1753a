"""The project layer before compile: `${VAR}` substitution (Clinker's
interpolate_env_vars tests), clinker.toml, composition expansion and its codes
(bind_schema.rs's E102-E111, config_fold.rs), and channel and group overlays
(clinker-channel's resolve and overlay tests). Running the results on Spark is
tests/e2e/test_project_layer.py."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from clinker_sql.codegen.compiler import compile_pipeline
from clinker_sql.config import model as m
from clinker_sql.config.env_vars import substitute
from clinker_sql.config.load import load_project_pipeline
from clinker_sql.config.selector import select
from clinker_sql.config.workspace import load_workspace
from clinker_sql.diagnostics import DiagnosticError, Location


def _write(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text).lstrip("\n"), encoding="utf-8")


def _code(fn) -> str:
    with pytest.raises(DiagnosticError) as info:
        fn()
    return info.value.diagnostics[0].code


# ---- ${VAR} -----------------------------------------------------------------------------

def test_env_reference_default_and_escape():
    env = {"DATA": "/d", "EMPTY": ""}
    assert substitute("p: ${DATA}/x.csv", "f", env) == "p: /d/x.csv"
    assert substitute("p: ${NOPE:-./data}/x", "f", env) == "p: ./data/x"
    assert substitute("p: ${EMPTY:-dflt}", "f", env) == "p: "  # set, if empty, wins
    assert substitute("p: $${DATA}", "f", env) == "p: ${DATA}"
    assert substitute("a $$ b", "f", env) == "a $ b"  # every $$ is one $
    assert substitute("x: 1", "f", env) == "x: 1"


def test_env_unset_and_lower_case_names_are_errors_with_a_line():
    with pytest.raises(DiagnosticError) as info:
        substitute("a: 1\nb: ${MISSING}\n", "p.yaml", {})
    d = info.value.diagnostics[0]
    assert (d.code, d.location.line, d.location.column) == ("CS070", 2, 4)
    assert _code(lambda: substitute("b: ${lower}", "p.yaml", {})) == "CS071"


def test_extra_values_shadow_the_environment():
    assert substitute("${A}", "f", {"A": "env"}, {"A": "extra"}) == "extra"


# ---- clinker.toml ------------------------------------------------------------------------

def test_workspace_defaults_without_a_manifest(tmp_path):
    ws = load_workspace(tmp_path / "pipeline.yaml")
    assert ws.root == tmp_path and ws.channel_root == "channel" and ws.group_root == "group"


def test_workspace_reads_catalog_and_roots(tmp_path):
    _write(tmp_path, {"clinker.toml": """
        [catalog.pipelines]
        "daily.orders" = "pipeline/orders.yaml"
        [catalog.resources.lookup]
        kind = "file"
        path = "data/lookup.csv"
        [channel]
        root = "tenants"
        [group]
        root = "groups"
        """})
    ws = load_workspace(tmp_path / "x.yaml", tmp_path)
    assert ws.pipelines == {"daily.orders": "pipeline/orders.yaml"}
    assert ws.resources["lookup"].path == "data/lookup.csv"
    assert (ws.channel_root, ws.group_root) == ("tenants", "groups")
    assert ws.pipeline_id(tmp_path / "pipeline" / "orders.yaml") == "daily.orders"


@pytest.mark.parametrize("text,code,line", [
    ("[chanel]\nroot = 'c'\n", "CS073", 1),
    ("[channel]\nroot = \n", "CS073", 2),
    ("[channel]\nrooot = 'c'\n", "CS073", 1),
])
def test_bad_manifests_are_coded_with_a_line(tmp_path, text, code, line):
    (tmp_path / "clinker.toml").write_text(text)
    with pytest.raises(DiagnosticError) as info:
        load_workspace(tmp_path / "p.yaml")
    d = info.value.diagnostics[0]
    assert d.code == code and d.location.file.endswith("clinker.toml") and d.location.line == line


# ---- compositions ------------------------------------------------------------------------

PIPE = """
pipeline:
  name: p
nodes:
  - type: source
    name: src
    config:
      name: src
      type: csv
      path: in.csv
      schema:
        - { name: a, type: int }
CALLS
  - type: sink
    name: out
    input: SINK_INPUT
    config:
      name: out
      type: csv
      path: out/out.csv
"""

DOUBLER = """
_compose:
  name: doubler
  inputs:
    inp:
      schema:
        - { name: a, type: int }
  outputs:
    out: doubler
  config_schema:
    factor: { type: int, default: 2 }
nodes:
  - type: transform
    name: doubler
    input: inp
    config:
      cxl: |
        emit a = a
        emit computed = a * $config.factor
"""


def _call(name: str, input_: str = "src", use: str = "./compositions/doubler.comp.yaml",
          extra: str = "") -> str:
    return (f"  - type: composition\n    name: {name}\n    input: {input_}\n"
            f"    use: {use}\n    inputs:\n      inp: {input_}\n{extra}")


def _load(tmp_path: Path, calls: str, sink_input: str, comps: dict[str, str] | None = None,
          **kw) -> m.Pipeline:
    files = {"pipeline.yaml": PIPE.replace("CALLS\n", calls).replace("SINK_INPUT", sink_input),
             "compositions/doubler.comp.yaml": DOUBLER, "in.csv": "a\n1\n"}
    files.update(comps or {})
    _write(tmp_path, files)
    return load_project_pipeline(tmp_path / "pipeline.yaml", **kw)


def test_a_call_becomes_its_body_named_as_its_own_name(tmp_path):
    p = _load(tmp_path, _call("d"), "d")
    assert [n.name for n in p.nodes] == ["src", "doubler", "out"]
    body = p.node("doubler")
    assert str(body.input) == "src" and str(p.node("out").input) == "doubler"
    assert "a * 2" in body.cxl.text  # $config.factor folded to its default
    assert body.cxl.file.endswith("doubler.comp.yaml")  # diagnostics point into the body
    compile_pipeline(p, tmp_path)


def test_two_calls_fold_their_own_config_and_are_named_by_call_path(tmp_path):
    calls = _call("d1") + _call("d2", "d1", extra="    config:\n      factor: 3\n")
    p = _load(tmp_path, calls, "d2")
    assert [n.name for n in p.nodes] == ["src", "d1/doubler", "d2/doubler", "out"]
    assert "a * 2" in p.node("d1/doubler").cxl.text
    assert "a * 3" in p.node("d2/doubler").cxl.text
    assert str(p.node("d2/doubler").input) == "d1/doubler"
    assert str(p.node("out").input) == "d2/doubler"


def test_config_folds_to_cxl_literals_outside_strings_and_comments(tmp_path):
    comp = DOUBLER.replace("factor: { type: int, default: 2 }",
                           "factor: { type: int, default: 2 }\n"
                           "    label: { type: string, default: 'it''s \"x\"' }\n"
                           "    cut: { type: float, default: -1.5 }")
    comp = comp.replace("emit computed = a * $config.factor",
                        "emit computed = a * $config.factor # $config.nope\n"
                        "        emit l = $config.label + \"$config.factor\"\n"
                        "        emit c = $config.cut")
    p = _load(tmp_path, _call("d"), "d", {"compositions/doubler.comp.yaml": comp})
    text = p.node("doubler").cxl.text
    assert "a * 2 # $config.nope" in text
    assert 'emit l = "it\'s \\"x\\"" + "$config.factor"' in text
    assert "emit c = (-1.5)" in text


def test_nested_calls_and_output_ports(tmp_path):
    outer = """
    _compose:
      name: outer
      inputs: { inp: { schema: [{ name: a, type: int }] } }
      outputs: { main: stamp }
    nodes:
      - type: composition
        name: inner
        input: inp
        use: ./doubler.comp.yaml
        inputs: { inp: inp }
        config: { factor: 5 }
      - type: transform
        name: stamp
        input: inner
        config:
          cxl: |
            emit a = a
            emit computed = computed
    """
    p = _load(tmp_path, _call("o", use="./compositions/outer.comp.yaml"), "o.main",
              {"compositions/outer.comp.yaml": outer})
    assert [n.name for n in p.nodes] == ["src", "doubler", "stamp", "out"]
    assert "a * 5" in p.node("doubler").cxl.text
    assert str(p.node("out").input) == "stamp"


def test_use_resolves_from_the_workspace_and_by_file_name(tmp_path):
    p = _load(tmp_path, _call("d", use="lib/doubler.comp.yaml"), "d")
    assert p.node("doubler")  # found by its file name among the workspace's files


@pytest.mark.parametrize("calls,sink,comps,code", [
    (_call("d", use="./compositions/nope.comp.yaml"), "d", {}, "E103"),
    (_call("d", extra="    config:\n      factr: 3\n"), "d", {}, "E103"),
    (_call("d").replace("      inp: src\n", "      inp: src\n      other: src\n"), "d", {},
     "E103"),
    (_call("d", extra="    outputs: { out: doubler }\n"), "d", {}, "E377"),
    (_call("d"), "d.nope", {}, "E102"),
    (_call("d"), "d", {"compositions/doubler.comp.yaml":
                      DOUBLER.replace("input: inp", "input: src")}, "E108"),
    (_call("d"), "d", {"compositions/doubler.comp.yaml":
                      DOUBLER.replace("input: inp", "input: elsewhere")}, "E102"),
    (_call("d"), "d", {"compositions/doubler.comp.yaml":
                      DOUBLER.replace("$config.factor", "$config.cutoff")}, "E203"),
    (_call("d"), "d", {"compositions/doubler.comp.yaml":
                      DOUBLER.replace("_compose:", "_compse:")}, "E101"),
    (_call("d"), "d", {"compositions/doubler.comp.yaml":
                      DOUBLER.split("nodes:")[0] + "nodes: []\n"}, "E111"),
    (_call("d").replace("      inp: src\n", "      {}\n").replace("    inputs:\n      {}",
                                                                     "    inputs: {}"),
     "d", {"compositions/doubler.comp.yaml":
           DOUBLER.replace("    inp:\n      schema:", "    inp:\n      required: true\n"
                           "      schema:")}, "E104"),
    (_call("d"), "d", {"compositions/doubler.comp.yaml":
                      DOUBLER.replace("factor: { type: int, default: 2 }",
                                      "factor: { type: int, required: true }")}, "E104"),
])
def test_binding_errors_are_coded(tmp_path, calls, sink, comps, code):
    assert _code(lambda: _load(tmp_path, calls, sink, comps)) == code


def test_a_use_cycle_is_e107(tmp_path):
    loop = """
    _compose:
      name: loop
      inputs: { inp: {} }
      outputs: { out: again }
    nodes:
      - { type: composition, name: again, input: inp, use: ./loop.comp.yaml,
          inputs: { inp: inp } }
    """
    assert _code(lambda: _load(tmp_path, _call("l", use="./compositions/loop.comp.yaml"), "l",
                               {"compositions/loop.comp.yaml": loop})) == "E107"


def test_a_body_node_named_like_a_top_level_node_is_renamed(tmp_path):
    calls = _call("d") + ("  - type: transform\n    name: doubler\n    input: d\n"
                          "    config:\n      cxl: 'emit a = a'\n")
    p = _load(tmp_path, calls, "doubler")
    assert [n.name for n in p.nodes] == ["src", "d/doubler", "doubler", "out"]
    assert str(p.node("doubler").input) == "d/doubler"


def test_resource_bound_body_source_reads_the_catalog_file(tmp_path):
    lookup = """
    _compose:
      name: lookup
      inputs: {}
      outputs: { out: ref }
      resources_schema:
        table: { kind: file, required: true }
    nodes:
      - type: source
        name: ref
        config:
          name: ref
          type: csv
          resource: table
          schema: [{ name: a, type: int }]
    """
    _write(tmp_path, {"clinker.toml": "[catalog.resources.shared]\nkind = \"file\"\n"
                                      "path = \"data/ref.csv\"\n"})
    call = ("  - type: composition\n    name: lk\n    input: src\n"
            "    use: ./compositions/lookup.comp.yaml\n    resources: { table: shared }\n")
    p = _load(tmp_path, call, "lk", {"compositions/lookup.comp.yaml": lookup},
              allow_absolute_paths=True)
    assert p.node("ref").config.paths[0].endswith("data/ref.csv")
    _write(tmp_path, {"clinker.toml": "[catalog.resources.shared]\nkind = \"file\"\n"
                                      "path = \"data/ref.csv\"\n[catalog.resources.other]\n"
                                      "kind = \"file\"\npath = \"data/other.csv\"\n",
                      "group/g.group.yaml": "group: { name: g }\nresources:\n"
                                            "  lk.table: { value: other }\n"})
    p = load_project_pipeline(tmp_path / "pipeline.yaml", True, groups=("g",))
    assert p.node("ref").config.paths[0].endswith("data/other.csv")  # the overlay's binding
    missing = call.replace("    resources: { table: shared }\n", "")
    assert _code(lambda: _load(tmp_path, missing, "lk",
                               {"compositions/lookup.comp.yaml": lookup})) == "E103"


# ---- groups and channels -----------------------------------------------------------------

GATE = """
_compose:
  name: gate
  inputs: { inp: { schema: [{ name: a, type: int }] } }
  outputs: { out: gated }
  config_schema:
    min: { type: int, default: 0 }
nodes:
  - type: transform
    name: gated
    input: inp
    config:
      cxl: |
        filter a >= $config.min
        emit a = a
"""


def _gate(tmp_path: Path, files: dict[str, str], **kw) -> str:
    call = _call("gate", use="./compositions/gate.comp.yaml", extra="    config: { min: 1 }\n")
    p = _load(tmp_path, call, "gate", {"compositions/gate.comp.yaml": GATE, **files}, **kw)
    return p.node("gated").cxl.text.splitlines()[0]


def _group(name: str, priority: int, value: int, extra: str = "", fixed: str = "") -> dict:
    return {f"group/{name}.group.yaml":
            f"group:\n  name: {name}\n  priority: {priority}\n{extra}"
            f"config:\n  gate.min: {{ value: {value}{fixed} }}\n"}


def test_without_overlays_the_call_site_value_folds(tmp_path):
    assert _gate(tmp_path, _group("g", 1, 50)) == "filter a >= 1"


def test_groups_apply_by_priority_whatever_the_order_named(tmp_path):
    files = {**_group("low", 1, 10), **_group("high", 9, 90)}
    assert _gate(tmp_path, files, groups=("high", "low")) == "filter a >= 90"
    assert _gate(tmp_path, files, groups=("low",)) == "filter a >= 10"


def test_channel_wide_beats_groups_and_per_target_beats_channel_wide(tmp_path):
    files = {**_group("g", 99, 10),
             "channel/acme/channel.cfg.yaml": "channel: { name: acme }\n"
                                              "config:\n  gate.min: { value: 20 }\n"}
    assert _gate(tmp_path, files, groups=("g",), channel="acme") == "filter a >= 20"
    files["channel/acme/pipeline.channel.yaml"] = ("channel: { target: pipeline }\n"
                                                   "config:\n  gate.min: { value: 30 }\n")
    assert _gate(tmp_path, files, groups=("g",), channel="acme") == "filter a >= 30"


def test_a_fixed_lower_value_cannot_be_overridden(tmp_path):
    files = {**_group("g", 1, 10, fixed=", fixed: true"),
             "channel/acme/channel.cfg.yaml": "channel: { name: acme }\n"
                                              "config:\n  gate.min: { value: 20 }\n"}
    assert _code(lambda: _gate(tmp_path, files, groups=("g",), channel="acme")) == "E103"


def test_group_selector_derives_groups_from_channel_labels(tmp_path):
    files = {**_group("ent", 5, 70, extra="  match: 'tier == \"enterprise\"'\n"),
             "channel/big/channel.cfg.yaml": "channel: { name: big }\n"
                                             "labels: { tier: enterprise }\n",
             "channel/small/channel.cfg.yaml": "channel: { name: small }\n"
                                               "labels: { tier: basic }\n"}
    assert _gate(tmp_path, files, channel="big") == "filter a >= 70"
    assert _gate(tmp_path, files, channel="small") == "filter a >= 1"


@pytest.mark.parametrize("files,kw,code", [
    (_group("g", 1, 5), {"groups": ("nope",)}, "CS074"),
    (_group("g", 1, 5, extra="  targets: { pipelines: [other] }\n"), {"groups": ("g",)},
     "CS074"),
    ({}, {"channel": "nope"}, "CS075"),
    ({"group/g.group.yaml": "group: { name: g }\nconfig:\n  gate.mn: { value: 5 }\n"},
     {"groups": ("g",)}, "E113"),
    ({"group/g.group.yaml": "group: { name: g }\nconfig:\n  gate.min: { value: 'x' }\n"},
     {"groups": ("g",)}, "E103"),
    ({"group/g.group.yaml": "group: { name: g }\noverrides:\n  - { op: bypass, target: x }\n"},
     {"groups": ("g",)}, "E114"),  # a bypass of a node the pipeline does not have
    ({"group/g.group.yaml": "group: { name: g }\nconfig:\n  gate.min: 5\n"},
     {"groups": ("g",)}, "E000"),
])
def test_overlay_errors_are_coded(tmp_path, files, kw, code):
    assert _code(lambda: _gate(tmp_path, files, **kw)) == code


def test_an_unapplied_group_with_unsupported_parts_is_not_refused(tmp_path):
    files = {**_group("g", 1, 5),
             "group/other.group.yaml": "group: { name: other }\n"
                                       "overrides:\n  - { op: bypass, target: x }\n"}
    assert _gate(tmp_path, files, groups=("g",)) == "filter a >= 5"


VARS_PIPE = """
pipeline:
  name: p
  vars:
    limit: { type: int, default: 1 }
nodes:
  - type: source
    name: src
    config: { name: src, type: csv, path: in.csv, schema: [{ name: a, type: int }] }
  - type: sink
    name: out
    input: src
    config: { name: out, type: csv, path: out.csv }
"""


def _static(name: str, entry: str, priority: int = 0) -> dict[str, str]:
    return {f"group/{name}.group.yaml":
            f"group: {{ name: {name}, priority: {priority} }}\n"
            f"vars:\n  static:\n    {entry}\n"}


def _vars(tmp_path: Path, files: dict[str, str], groups: tuple[str, ...]) -> dict:
    _write(tmp_path, {"pipeline.yaml": VARS_PIPE, **files})
    p = load_project_pipeline(tmp_path / "pipeline.yaml", groups=groups)
    return {v.name: (v.type, v.default) for v in p.vars}


def test_overlay_static_vars_give_pipeline_vars_their_values(tmp_path):
    files = {**_static("a", "limit: { type: int, default: 7 }", 1),
             **_static("b", "limit: { type: int, default: 9 }", 2),
             **_static("new", "region: { type: string, default: west }")}
    assert _vars(tmp_path, files, ("b", "a"))["limit"] == ("int", 9)
    assert _vars(tmp_path, files, ("new",)) == {"limit": ("int", 1),
                                                 "region": ("string", "west")}


@pytest.mark.parametrize("files,groups,code", [
    (_static("g", "limit: { type: string, default: x }"), ("g",), "E116"),
    (_static("g", "limit: { type: int, default: seven }"), ("g",), "E116"),
    ({**_static("a", "limit: { type: int, default: 7, fixed: true }", 1),
      **_static("b", "limit: { type: int, default: 9 }", 2)}, ("a", "b"), "E103"),
    ({"group/g.group.yaml": "group: { name: g }\nvars:\n  pipeline:\n"
                            "    x: { type: int, default: 1 }\n"}, ("g",), "CS001"),
])
def test_overlay_var_errors_are_coded(tmp_path, files, groups, code):
    assert _code(lambda: _vars(tmp_path, files, groups)) == code


@pytest.mark.parametrize("text,labels,expected", [
    ('tier == "enterprise"', {"tier": "enterprise"}, True),
    ('tier == "enterprise" and region != "east"', {"tier": "enterprise", "region": "east"},
     False),
    ("not (seats > 10) or vip", {"seats": 50, "vip": True}, True),
    ("seats >= 10.5", {"seats": 11}, True),
])
def test_selectors(text, labels, expected):
    assert select(text, labels, Location("g", 1, 1), "g") is expected


@pytest.mark.parametrize("text", ['teir == "x"', "tier == 3", "tier", "(tier == 'a'"])
def test_bad_selectors_are_cs076(text):
    assert _code(lambda: select(text, {"tier": "a"}, Location("g", 1, 1), "g")) == "CS076"


# ---- E102: a port's minimum schema -------------------------------------------------------

def _project(tmp_path: Path, comp: str):
    from clinker_sql.project import Project

    _load(tmp_path, _call("d"), "d", {"compositions/doubler.comp.yaml": comp})
    return Project(tmp_path / "pipeline.yaml")


def test_a_port_column_the_upstream_lacks_is_e102(tmp_path):
    comp = DOUBLER.replace("- { name: a, type: int }",
                           "- { name: a, type: int }\n        - { name: b, type: string }")
    project = _project(tmp_path, comp)
    with pytest.raises(DiagnosticError) as info:
        project.compile(base=tmp_path)
    d = info.value.diagnostics[0]
    assert d.code == "E102" and "requires column 'b'" in d.message
    assert d.location.file.endswith("pipeline.yaml")


def test_a_port_column_of_another_type_is_e102(tmp_path):
    project = _project(tmp_path, DOUBLER.replace("{ name: a, type: int }",
                                                 "{ name: a, type: string }", 1))
    assert _code(lambda: project.compile(base=tmp_path)) == "E102"


def test_a_port_column_of_any_type_matches(tmp_path):
    project = _project(tmp_path, DOUBLER.replace("{ name: a, type: int }",
                                                 "{ name: a, type: any }", 1))
    assert "computed" in dict(project.compile(base=tmp_path).relations["doubler"].columns)
