"""Mutations of a pipeline document at every level of its YAML tree (`tree_ops`) and of
its node graph and settings (`graph_ops`). Each op edits the document in place."""

from __future__ import annotations

import copy
import random
from collections.abc import Callable

from tests.reliability.docwalk import (append_cxl, columns_of, config_of, get_at, nodes_of,
                                       of_kind, rename_node, set_at)
from tests.reliability.yamltext import Dup, Raw

_HUGE = [10 ** 30, 2 ** 63, -(2 ** 63) - 1, 1e308, float("inf"), float("-inf"),
         float("nan"), 0, -1, -3, 2 ** 31, Raw("1_000_000"), Raw("0x7fffffffffffffff"),
         Raw("1e400"), Raw("-0"), Raw("0o17")]


def tree_ops(rng: random.Random) -> dict[str, Callable]:
    def drop(doc, holder, path):
        parent = get_at(doc, path[:-1])
        del parent[path[-1]]

    def duplicate(doc, holder, path):
        parent = get_at(doc, path[:-1])
        if isinstance(parent, list):
            parent.insert(path[-1], copy.deepcopy(parent[path[-1]]))
            return
        other = rng.choice([parent[path[-1]], "other", 1, None])
        pairs = list(parent.items())
        at = [k for k, _ in pairs].index(path[-1])
        set_at(holder, path[:-1], Dup(tuple(pairs[:at + 1] + [(path[-1], other)] +
                                          pairs[at + 1:])))

    def retype(doc, holder, path):
        value = get_at(doc, path)
        set_at(holder, path, rng.choice([[value], {"k": value}, None, "", True, "yes", 1.5,
                                       str(value), Raw("~"), Raw("!!binary aGVsbG8=")]))

    def wrong_scalar(doc, holder, path):
        value = get_at(doc, path)
        if isinstance(value, str):
            new = rng.choice([42, -7, 3.25, True, False, None, "", " ", value.upper(),
                              value + "x", "ON", "no", "\t"])
        elif isinstance(value, bool):
            new = rng.choice(["maybe", 2, "True ", 0])
        elif isinstance(value, (int, float)):
            new = rng.choice(["forty-two", str(value), True, [value]])
        else:
            new = rng.choice(["scalar", 0, True])
        set_at(holder, path, new)

    def empty(doc, holder, path):
        set_at(holder, path, rng.choice([[], {}, "", None, Raw("[[]]"), Raw("{{}: {}}")]))

    def huge(doc, holder, path):
        set_at(holder, path, rng.choice(_HUGE))

    def unknown_field(doc, holder, path):
        target = get_at(doc, path)
        if not isinstance(target, dict):
            target = get_at(doc, path[:-1])
        if isinstance(target, dict):
            target[rng.choice(["bogus", "Type", "config ", "_notes", "nodes", "input",
                               "$x", "name.", "é"])] = rng.choice([1, "x", None, [1]])
        else:
            target.append(rng.choice([{"bogus": 1}, "x", None, [], 7]))

    def rename_key(doc, holder, path):
        parent = get_at(doc, path[:-1])
        if isinstance(parent, list):
            parent.reverse()
            return
        key = path[-1]
        new = rng.choice([str(key).upper(), str(key) + "s", " " + str(key), str(key)[:-1],
                          str(key).replace("_", "-"), str(key) + "\u200b"])
        pairs = [(new if k == key else k, v) for k, v in parent.items()]
        set_at(holder, path[:-1], Dup(tuple(pairs)))

    return {f.__name__: f for f in (drop, duplicate, retype, wrong_scalar, empty, huge,
                                     unknown_field, rename_key)}


# ---- family: the node graph and the pipeline's own settings ------------------------

_ODD_NAMES = ["ordérs", "\u202eevil", "zero\u200bwidth", "e\u0301", "😀", "nul\u0000",
              "tab\there", "sp ace", "", " ", "-dash", "1digit", "\ufeffbom", "ǅ",
              "ｏｒｄｅｒｓ", "\ud800", "a\udfff", "\U0010ffff", "\ufffe", "a.b", "a..b", ".",
              "$source", "_", "n" * 256, "é" * 200, "n" * 5000, "CON", "..", "a/b",
              "a\\b", "*", "NULL", "true"]


def graph_ops(rng: random.Random) -> dict[str, Callable]:
    def unknown_type(doc):
        node = rng.choice(nodes_of(doc))
        node["type"] = rng.choice(["transmogrify", "output", "reshape", "envelope",
                                   "composition", "Source", "", None, 3, ["sink"]])

    def cycle(doc):
        wired = [n for n in nodes_of(doc) if isinstance(n.get("input"), str)]
        if len(wired) >= 2:
            wired[0]["input"] = wired[-1]["name"]
        elif wired:
            wired[0]["input"] = wired[0]["name"]

    def self_input(doc):
        node = rng.choice([n for n in nodes_of(doc) if n.get("type") != "source"])
        key = "inputs" if node.get("type") == "merge" else "input"
        node[key] = [node["name"]] if key == "inputs" else node["name"]

    def missing_input(doc):
        node = rng.choice([n for n in nodes_of(doc) if n.get("type") != "source"])
        here = node.get("input") if isinstance(node.get("input"), str) else "x"
        value = rng.choice(["ghost", "ghost.port", here + ".nope", "a.b.c", "", ".", "x.",
                            ".x", None, [], {}])
        if node.get("type") == "merge":
            node["inputs"] = [value]
        else:
            node["input"] = value

    def input_on_source(doc):
        src = of_kind(doc, "source")[0]
        src[rng.choice(["input", "inputs"])] = nodes_of(doc)[-1]["name"]

    def duplicate_name(doc):
        nodes = nodes_of(doc)
        a, b = rng.sample(range(len(nodes)), 2)
        nodes[a]["name"] = nodes[b]["name"] if rng.random() < 0.7 else \
            nodes[b]["name"].upper()

    def odd_name(doc):
        node = rng.choice(nodes_of(doc))
        rename_node(doc, node["name"], rng.choice(_ODD_NAMES))

    def odd_pipeline_name(doc):
        doc.setdefault("pipeline", {})["name"] = rng.choice(_ODD_NAMES + [None, 5, []])

    def drop_config(doc):
        node = rng.choice(nodes_of(doc))
        node["config"] = rng.choice([None, [], "x", {}])

    def no_sinks(doc):
        doc["nodes"] = [n for n in doc["nodes"] if not (isinstance(n, dict) and
                                                        n.get("type") == "sink")]

    def no_sources(doc):
        doc["nodes"] = [n for n in doc["nodes"] if not (isinstance(n, dict) and
                                                        n.get("type") == "source")]

    def vars_block(doc):
        kind, default = rng.choice([("int", "abc"), ("int", 10 ** 30), ("string", 5),
                                    ("date", "2024-13-45"), ("datetime", "yesterday"),
                                    ("bool", "yes"), ("float", "NaN"), ("decimal", 1),
                                    ("uuid", "x"), ("int", [1]), ("string", None),
                                    ("int", 7), ("string", "ok")])
        doc.setdefault("pipeline", {})["vars"] = {
            rng.choice(["v", "v.w", "", "1v", "é"]): {"type": kind, "default": default}}
        append_cxl(doc, rng.choice(["emit zz_v = $vars.v", "emit zz_v = $vars.nope",
                                     "emit zz_v = $vars.v + 1", "emit zz_v = $vars"]))

    def decimal_scale(doc):
        cols = columns_of(doc)
        col = rng.choice(cols)
        col["type"] = "decimal"
        col.update(rng.choice([{"scale": -3}, {"precision": 0}, {"precision": 100},
                               {"precision": 5, "scale": 9}, {"scale": 2 ** 40},
                               {"precision": -1, "scale": 2}, {"scale": "two"}]))

    def column_format(doc):
        col = rng.choice(columns_of(doc))
        col["type"] = rng.choice(["date", "date_time"])
        col["format"] = rng.choice(["%", "%Q", "%Y-%m-%", "", "%s", "'", "%d/%m",
                                    "%Y-%m-%dT%H:%M:%S%.f%z", 7])

    def column_type(doc):
        col = rng.choice(columns_of(doc))
        col["type"] = rng.choice(["numeric", "integer", "any", "map", "array", "null",
                                  {"nullable": "int"}, {"nullable": {"nullable": "int"}},
                                  {"nullable": None}, {"list": "int"}, "", None, "String"])

    def correlation_key(doc):
        src = rng.choice(of_kind(doc, "source"))
        names = [c.get("name") for c in config_of(src).get("schema") or [] if isinstance(c, dict)]
        config_of(src)["correlation_key"] = rng.choice(
            ["nope", [], [names[0], names[0]], names * 20, {"a": 1}, 3, names[:1]])
        if rng.random() < 0.4:
            no_sinks(doc)

    def sink_sort_order(doc):
        sink = rng.choice(of_kind(doc, "sink"))
        col = rng.choice(columns_of(doc)).get("name", "x")
        config_of(sink)["sort_order"] = rng.choice(
            [[col], [{"field": col, "order": "desc", "null_order": "drop"}], ["nope"], col,
             [{"field": col, "order": "sideways"}], [], [col, col],
             [{"field": col, "null_order": "first"}, {"field": "nope"}]])

    def error_handling(doc):
        doc["error_handling"] = rng.choice([
            {"strategy": "explode"}, {"strategy": "continue"}, {"strategy": None},
            {"strategy": "continue", "dlq": {"path": ""}},
            {"strategy": "continue", "dlq": {"path": "./out/dlq.csv", "max_rate": 2}},
            {"strategy": "continue", "dlq": {"path": "./out/dlq.csv", "max_rate": -0.5}},
            {"strategy": "continue", "dlq": {"path": "./data"}},
            {"strategy": "continue", "dlq": {"path": "./out/d.csv", "per_source": {
                "ghost": {"max_rate": 0.5}}}},
            {"strategy": "continue", "type_error_threshold": -1,
             "dlq": {"path": "./out/dlq.csv"}},
            {"strategy": "fail_fast", "dlq": {"path": "../../../../tmp/escape.csv"}},
            {"strategy": "continue", "dlq": {"path": "./out/nul\u0000.csv"}},
            {"strategy": "continue", "dlq": {"path": "/nonexistent/abs/dlq.csv"}},
            [], "continue"])

    def source_path(doc):
        src = rng.choice(of_kind(doc, "source"))
        cfg = config_of(src)
        for key in ("path", "glob", "regex", "paths"):
            cfg.pop(key, None)
        key, value = rng.choice([
            ("path", "./data/" + "p" * 5000 + ".csv"), ("path", "./data/nul\u0000.csv"),
            ("path", "../../../etc/hostname"), ("path", "/etc/os-release"),
            ("path", "/nonexistent/abs/data.csv"), ("path", ""), ("path", "./data"),
            ("path", "./data/%2e%2e/x.csv"), ("glob", "./data/["), ("glob", "/etc/*"),
            ("regex", "("), ("paths", []), ("paths", ["./data/a.csv", "./data/a.csv"]),
            ("path", ["./data/a.csv"]), ("path", "./" + "d/" * 2000 + "x.csv"),
            ("path", "./data/" + "é" * 200 + ".csv")])
        cfg[key] = value
        if rng.random() < 0.3:
            cfg["path"] = "./data/second.csv"  # two of path/glob/regex/paths

    def sink_path(doc):
        sink = rng.choice(of_kind(doc, "sink"))
        others = [config_of(n).get("path") for n in of_kind(doc, "sink", "source")
                  if n is not sink and config_of(n).get("path")]
        config_of(sink)["path"] = rng.choice(
            others + ["./out/{nope}.csv", "./out/{", "./out/}", "./out/{source_file",
                      "./out/{{}}.csv", "", "./data", "./out/", "/nonexistent/abs/o.csv",
                      "../../escape.csv", "./out/" + "o" * 5000 + ".csv",
                      "./out/nul\u0000.csv", "./out/{source_name:ghost}.csv"])

    def route_shape(doc):
        routes = of_kind(doc, "route")
        if not routes:
            return unknown_type(doc)
        cfg = config_of(routes[0])
        change = rng.choice(["none", "default_is_condition", "no_default", "mode", "many"])
        conds = cfg.get("conditions") or {}
        if change == "none":
            cfg["conditions"] = {}
        elif change == "default_is_condition" and conds:
            cfg["default"] = next(iter(conds))
        elif change == "no_default":
            cfg.pop("default", None)
        elif change == "mode":
            cfg["mode"] = rng.choice(["both", None, 1])
        else:
            cfg["conditions"] = {f"b{i}": "true" for i in range(300)}

    def merge_combine_shape(doc):
        node = rng.choice(of_kind(doc, "merge", "combine") or nodes_of(doc))
        if node.get("type") == "merge":
            node["inputs"] = rng.choice([[], [node["inputs"][0]], node["inputs"] * 2, "x"])
        elif node.get("type") == "combine":
            first = next(iter(node["input"].values()))
            node["input"] = rng.choice([{"only": first}, {f"q{i}": first for i in range(9)},
                                        {"$x": first, "a.b": first}, [first]])
        else:
            node["inputs"] = [node.get("name")]

    def many_nodes(doc):
        """A long chain of transforms after the first one (validate's cost). Each one
        sets the same column, so the chain's width stays that of its input: a chain in
        which every node adds a column has SQL quadratic in its length, which is the
        size of what it computes, not a cost of the compiler."""
        first = of_kind(doc, "transform")
        if not first:
            return unknown_type(doc)
        name = first[0]["name"]
        chain = [{"type": "transform", "name": f"{name}_c{i}",
                  "input": name if i == 0 else f"{name}_c{i - 1}",
                  "config": {"cxl": f"emit chained = {i}\n"}} for i in range(rng.choice([50, 300]))]
        for node in nodes_of(doc):
            if node.get("input") == name:
                node["input"] = chain[-1]["name"]
        at = doc["nodes"].index(first[0]) + 1
        doc["nodes"][at:at] = chain

    return {f.__name__: f for f in (
        unknown_type, cycle, self_input, missing_input, input_on_source, duplicate_name,
        odd_name, odd_pipeline_name, drop_config, no_sinks, no_sources, vars_block,
        decimal_scale, column_format, column_type, correlation_key, sink_sort_order,
        error_handling, source_path, sink_path, route_shape, merge_combine_shape)}, many_nodes
