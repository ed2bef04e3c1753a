"""Where the injection family puts its payloads (injection.py) in a pipeline: every name,
column, path, string literal and var, one function per position."""

from __future__ import annotations

from collections.abc import Callable, Mapping

from tests.reliability.docwalk import append_cxl, columns_of, config_of, nodes_of, of_kind, \
    rename_node
from tests.reliability.injection import cxl_string

def injection_positions(doc, payload: str) -> dict[str, Callable[[], None]]:
    """Where a payload can go in a pipeline: each function puts it there in `doc`."""
    sources, transforms = of_kind(doc, "source"), of_kind(doc, "transform")
    sinks, routes = of_kind(doc, "sink"), of_kind(doc, "route")

    def put_var():
        doc["pipeline"]["vars"] = {"v": {"type": "string", "default": "v" + payload}}
        append_cxl(doc, "emit zz_var = $vars.v")

    def mapping():
        first = next((c["name"] for c in columns_of(doc) if isinstance(c.get("name"), str)), "x")
        config_of(sinks[0])["mapping"] = [{"o" + payload: first}]
        config_of(sinks[0])["include_unmapped"] = False

    def route_branch():
        cfg = config_of(routes[0])
        old = next(iter(cfg["conditions"]))
        cfg["conditions"] = {(old + payload if k == old else k): v
                             for k, v in cfg["conditions"].items()}
        for node in nodes_of(doc):
            if node.get("input") == f"{routes[0]['name']}.{old}":
                node["input"] = f"{routes[0]['name']}.{old}{payload}"

    def ck_column():
        cfg = config_of(sources[0])
        cfg["schema"].append({"name": "k" + payload, "type": "string"})
        cfg["correlation_key"] = "k" + payload

    positions = {
        "pipeline_name": lambda: doc["pipeline"].__setitem__("name", "p" + payload),
        "source_name": lambda: rename_node(doc, sources[0]["name"], "s" + payload),
        "transform_name": lambda: rename_node(doc, transforms[0]["name"], "t" + payload),
        "sink_name": lambda: rename_node(doc, sinks[0]["name"], "o" + payload),
        "description": lambda: transforms[0].__setitem__("description", "d" + payload),
        "schema_column": lambda: config_of(sources[0])["schema"].append(
            {"name": "c" + payload, "type": "string"}),
        "mapping_name": mapping,
        "source_path": lambda: config_of(sources[0]).__setitem__(
            "path", "./data/in" + payload + ".csv"),
        "sink_path": lambda: config_of(sinks[0]).__setitem__(
            "path", "./out/o" + payload + ".csv"),
        "dlq_path": lambda: doc["error_handling"]["dlq"].__setitem__(
            "path", "./out/dlq" + payload + ".csv"),
        "cxl_string": lambda: append_cxl(doc, "emit zz_s = " + cxl_string("s" + payload)),
        "regex": lambda: append_cxl(doc, "emit zz_r = \"a\".matches(" + cxl_string(
            "".join("\\" + ch if ch in _REGEX_META else ch for ch in payload)) + ")"),
        "date_format": lambda: append_cxl(doc, "emit zz_d = #2024-01-02#.format_date(" +
                                           cxl_string("%Y" + payload) + ")"),
        "var": put_var,
    }
    if routes:
        positions["route_branch"] = route_branch
        positions["ck_column"] = ck_column
    return positions


def with_header_column(data: Mapping[str, bytes], payload: str) -> dict[str, bytes]:
    """The first CSV file with an extra column named `payload` (auto_widen carries it)."""
    out = dict(data)
    rel = next(k for k in sorted(out) if k.endswith(".csv"))
    lines = out[rel].decode("utf-8").split("\n")
    name = '"h' + payload.replace('"', '""') + '"'
    lines = [(line + "," + (name if i == 0 else "v")) if line else line
             for i, line in enumerate(lines)]
    out[rel] = "\n".join(lines).encode("utf-8")
    return out


# positions put together in one case (a refusal of one hides only its group's others);
# the payloads in `singles` also go into each position alone
GROUPS = {"names": ("pipeline_name", "source_name", "transform_name", "sink_name",
                    "description", "mapping_name", "route_branch"),
          "columns": ("schema_column", "csv_header", "ck_column"),
          "paths": ("source_path", "sink_path", "dlq_path"),
          "literals": ("cxl_string", "var"),
          "patterns": ("regex", "date_format")}
_REGEX_META = set(".^$*+?()[]{}|\\")
