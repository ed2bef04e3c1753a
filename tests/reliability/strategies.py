"""A hypothesis strategy of whole pipelines: one or two CSV sources (with data files),
an optional merge or combine, a few transforms, aggregates or analytic windows, an
optional route, and a sink on every open end, with random but plausible, mostly
well-typed CXL."""

from __future__ import annotations

from hypothesis import strategies as st

from tests.reliability.yamltext import dump

TYPES = ("string", "int", "float", "bool", "date")
COLUMN_NAMES = ("name", "qty", "price", "day", "flag", "region", "note", "score")
_VALUES = {"string": ["alpha", "Beta", "", "a b"], "int": ["1", "-7", "42", "0"],
           "float": ["1.5", "-0.25", "3.0", "100.125"], "bool": ["true", "false", "yes"],
           "date": ["2024-01-31", "2023-12-01", "2024-02-29"]}


def _of(cols: dict[str, str], kind: str) -> list[str]:
    return [c for c, t in cols.items() if t == kind]


def expr(draw, cols: dict[str, str], kind: str, depth: int = 0) -> str:
    """A CXL expression of type `kind` over the columns `cols` (name -> type)."""
    names = _of(cols, kind)
    leaf = depth >= 2 or draw(st.integers(0, 3)) == 0
    if leaf:
        if names and draw(st.booleans()):
            return draw(st.sampled_from(names))
        return {"string": lambda: '"' + draw(st.sampled_from(["x", "ab", "", "Z z"])) + '"',
                "int": lambda: str(draw(st.integers(0, 1000))),
                "float": lambda: draw(st.sampled_from(["0.5", "2.25", "10.0"])),
                "bool": lambda: draw(st.sampled_from(["true", "false"])),
                "date": lambda: "#2024-03-0" + str(draw(st.integers(1, 9))) + "#"}[kind]()

    def sub(k: str) -> str:
        return expr(draw, cols, k, depth + 1)

    forms = {
        "string": [lambda: f"{sub('string')}.upper()", lambda: f"{sub('string')}.trim()",
                   lambda: f"{sub('string')} + {sub('string')}",
                   lambda: f"{sub('string')}.substring(0, 2)",
                   lambda: f"{sub('int')}.to_string()",
                   lambda: f"if {sub('bool')} then {sub('string')} else {sub('string')}",
                   lambda: f'match {sub("string")} {{ "x" => "X", _ => {sub("string")} }}',
                   lambda: f'{sub("date")}.format_date("%Y-%m")',
                   lambda: f"({sub('string')} ?? \"none\")"],
        "int": [lambda: f"{sub('int')} + {sub('int')}", lambda: f"{sub('int')} * 2",
                lambda: f"{sub('int')}.abs()", lambda: f"{sub('string')}.length()",
                lambda: f"{sub('float')}.floor()", lambda: f"({sub('int')} - 1)",
                lambda: f"if {sub('bool')} then {sub('int')} else 0",
                lambda: f"{sub('date')}.year()"],
        "float": [lambda: f"{sub('float')} * 1.5", lambda: f"{sub('float')}.round(2)",
                  lambda: f"{sub('int')}.to_float()", lambda: f"{sub('float')} / 4.0",
                  lambda: f"({sub('float')} + {sub('float')})"],
        "bool": [lambda: f"{sub('int')} > {sub('int')}", lambda: f"{sub('string')} == \"x\"",
                 lambda: f"{sub('bool')} and {sub('bool')}", lambda: f"not {sub('bool')}",
                 lambda: f'{sub("string")}.starts_with("a")',
                 lambda: f'{sub("string")}.matches("^[a-z]+$")',
                 lambda: f"{sub('string')}.is_empty()",
                 lambda: f"{sub('date')} < #2024-01-15#"],
        "date": [lambda: f"{sub('date')}.add_days({draw(st.integers(-3, 3))})",
                 lambda: '"2024-01-02".to_date()'],
    }[kind]
    return draw(st.sampled_from(forms))()


def _transform(draw, name: str, ref: str, cols: dict[str, str]):
    lines, out = [], dict(cols)
    if draw(st.booleans()):
        lines.append("let t0 = " + expr(draw, cols, "int"))
    if draw(st.integers(0, 3)) == 0:
        lines.append("filter " + expr(draw, cols, "bool"))
    for i in range(draw(st.integers(1, 3))):
        kind = draw(st.sampled_from(TYPES))
        lines.append(f"emit {name}_{i} = " + expr(draw, cols, kind))
        out[f"{name}_{i}"] = kind
    node = {"type": "transform", "name": name, "input": ref, "config": {"cxl": "\n".join(lines)
                                                                        + "\n"}}
    keys = [c for c in cols if cols[c] in ("string", "int")]
    if keys and draw(st.integers(0, 3)) == 0:  # an analytic window
        node["config"]["analytic_window"] = {
            "group_by": [draw(st.sampled_from(keys))],
            "sort_by": [{"field": draw(st.sampled_from(list(cols))),
                         "order": draw(st.sampled_from(["asc", "desc"]))}]}
        num = _of(cols, "int") or ["1"]
        node["config"]["cxl"] += (f"emit {name}_rn = $window.row_number()\n"
                                  f"emit {name}_sum = $window.sum({num[0]})\n")
        out[f"{name}_rn"], out[f"{name}_sum"] = "int", "int"
    return node, out


def _aggregate(draw, name: str, ref: str, cols: dict[str, str]):
    keys = [c for c in cols if cols[c] in ("string", "int", "bool", "date")]
    group = draw(st.lists(st.sampled_from(keys), unique=True, max_size=2)) if keys else []
    lines, out = [f"emit {name}_n = count(*)"], {g: cols[g] for g in group}
    out[f"{name}_n"] = "int"
    for c in (_of(cols, "int") + _of(cols, "float"))[:2]:
        fn = draw(st.sampled_from(["sum", "min", "max", "avg"]))
        lines.append(f"emit {name}_{c} = {fn}({c})")
        out[f"{name}_{c}"] = "float" if fn == "avg" else cols[c]
    return {"type": "aggregate", "name": name, "input": ref,
            "config": {"group_by": group, "cxl": "\n".join(lines) + "\n"}}, out


def _sink(draw, name: str, ref: str, cols: dict[str, str]) -> dict:
    kind = draw(st.sampled_from(["csv", "json"]))
    cfg = {"name": name, "type": kind,
           "path": f"./out/{name}." + ("csv" if kind == "csv" else "json")}
    if draw(st.booleans()):
        cfg["include_unmapped"] = False
    if draw(st.integers(0, 4)) == 0:
        cfg["sort_order"] = [draw(st.sampled_from(list(cols)))]
    return {"type": "sink", "name": name, "input": ref, "config": cfg}


@st.composite
def pipelines(draw) -> tuple[str, dict[str, bytes]]:
    """(pipeline.yaml text, data files by relative path)."""
    n_sources = draw(st.integers(1, 2))
    joined = draw(st.sampled_from(["separate", "merge", "combine"])) if n_sources == 2 \
        else "separate"
    nodes, data, streams = [], {}, []
    first_cols = None
    for i in range(n_sources):
        names = draw(st.lists(st.sampled_from(COLUMN_NAMES), min_size=1, max_size=3,
                              unique=True))
        cols = {"id": "string", **{c: draw(st.sampled_from(TYPES)) for c in names}}
        if joined == "merge" and first_cols is not None:
            cols = first_cols
        first_cols = first_cols or cols
        rows = [",".join(cols)] + [",".join(draw(st.sampled_from(_VALUES[t])) if c != "id"
                                            else f"k{r}" for c, t in cols.items())
                                   for r in range(3)]
        data[f"data/s{i}.csv"] = ("\n".join(rows) + "\n").encode()
        cfg = {"name": f"s{i}", "type": "csv", "path": f"./data/s{i}.csv",
               "schema": [{"name": c, "type": t} for c, t in cols.items()]}
        if draw(st.integers(0, 3)) == 0:
            cfg["correlation_key"] = "id"
        nodes.append({"type": "source", "name": f"s{i}", "config": cfg})
        streams.append((f"s{i}", cols))
    if joined == "merge":
        nodes.append({"type": "merge", "name": "m", "inputs": ["s0", "s1"]})
        streams = [("m", streams[0][1])]
    elif joined == "combine":
        (_, a), (_, b) = streams
        emits = {f"a_{c}": ("a", c, t) for c, t in a.items()}
        emits.update({f"b_{c}": ("b", c, t) for c, t in b.items() if c != "id"})
        nodes.append({"type": "combine", "name": "j", "input": {"a": "s0", "b": "s1"},
                      "config": {"where": "a.id == b.id",
                                 "match": draw(st.sampled_from(["first", "all"])),
                                 "propagate_ck": "driver",
                                 "cxl": "".join(f"emit {k} = {q}.{c}\n"
                                                for k, (q, c, _) in emits.items())}})
        streams = [("j", {k: t for k, (_, _, t) in emits.items()})]
    ends = []
    for ref, cols in streams:
        for step in range(draw(st.integers(0, 2))):
            name = f"{ref}_n{step}"
            kind = draw(st.sampled_from(["transform", "transform", "aggregate"]))
            node, cols = (_transform if kind == "transform" else _aggregate)(draw, name, ref,
                                                                             cols)
            nodes.append(node)
            ref = name
        if draw(st.integers(0, 2)) == 0:
            route = f"{ref}_r"
            nodes.append({"type": "route", "name": route, "input": ref, "config": {
                "mode": draw(st.sampled_from(["exclusive", "inclusive"])),
                "conditions": {"hit": expr(draw, cols, "bool")}, "default": "miss"}})
            ends += [(f"{route}.hit", cols), (f"{route}.miss", cols)]
        else:
            ends.append((ref, cols))
    for i, (ref, cols) in enumerate(ends):
        nodes.append(_sink(draw, f"out{i}", ref, cols))
    strategy = draw(st.sampled_from(["continue", "fail_fast"]))
    doc = {"pipeline": {"name": "generated"},
           "error_handling": {"strategy": strategy, **({"dlq": {"path": "./out/dlq.csv"}}
                                                       if strategy == "continue" else {})},
           "nodes": nodes}
    return dump(doc), data
