"""Walking and editing a pipeline document (plain dicts and lists from yamltext.load):
nodes by kind, renaming a node with every reference to it, the CXL texts it holds."""

from __future__ import annotations

from collections.abc import Iterator

def doc_paths(value, prefix=()) -> Iterator[tuple]:
    """The path (keys and indexes) of every value below the root."""
    items = value.items() if isinstance(value, dict) else \
        enumerate(value) if isinstance(value, list) else ()
    for key, item in items:
        yield prefix + (key,)
        yield from doc_paths(item, prefix + (key,))


def get_at(doc, path):
    for key in path:
        doc = doc[key]
    return doc


def set_at(holder: list, path, value) -> None:
    """Set the value at `path`; `holder` is [doc], so the root can be replaced too."""
    parent = get_at(holder[0], path[:-1]) if path else holder
    parent[path[-1] if path else 0] = value


def nodes_of(doc) -> list[dict]:
    nodes = doc.get("nodes") if isinstance(doc, dict) else None
    return [n for n in nodes if isinstance(n, dict)] if isinstance(nodes, list) else []


def of_kind(doc, *kinds: str) -> list[dict]:
    return [n for n in nodes_of(doc) if n.get("type") in kinds]


def config_of(node: dict) -> dict:
    cfg = node.get("config")
    return cfg if isinstance(cfg, dict) else {}


def _rename_ref(ref, old: str, new: str):
    if isinstance(ref, str) and (ref == old or ref.startswith(old + ".")):
        return new + ref[len(old):]
    return ref


def rename_node(doc, old: str, new: str) -> None:
    """Rename a node and every reference to it (inputs, ports, per-source DLQ entries)."""
    for node in nodes_of(doc):
        if node.get("name") == old:
            node["name"] = new
            if config_of(node).get("name") == old:
                node["config"]["name"] = new
        if isinstance(node.get("input"), str):
            node["input"] = _rename_ref(node["input"], old, new)
        elif isinstance(node.get("input"), dict):
            node["input"] = {k: _rename_ref(v, old, new) for k, v in node["input"].items()}
        if isinstance(node.get("inputs"), list):
            node["inputs"] = [_rename_ref(v, old, new) for v in node["inputs"]]
    dlq = (doc.get("error_handling") or {}).get("dlq") if isinstance(doc, dict) else None
    if isinstance(dlq, dict) and isinstance(dlq.get("per_source"), dict):
        dlq["per_source"] = {(new if k == old else k): v for k, v in dlq["per_source"].items()}


def cxl_sites(doc) -> list[tuple[dict, str, bool]]:
    """(container, key, is_program) of every CXL text: programs (transform, aggregate and
    combine bodies) and single expressions (route conditions, combine where, cull rules)."""
    sites = []
    for node in nodes_of(doc):
        cfg = config_of(node)
        if isinstance(cfg.get("cxl"), str) and cfg["cxl"].strip():
            sites.append((cfg, "cxl", True))
        if isinstance(cfg.get("where"), str):
            sites.append((cfg, "where", False))
        if isinstance(cfg.get("conditions"), dict):
            sites += [(cfg["conditions"], k, False) for k in cfg["conditions"]]
        for rule in cfg.get("rules") or []:
            if isinstance(rule, dict) and isinstance(rule.get("drop_group_when"), str):
                sites.append((rule, "drop_group_when", False))
    return sites


def columns_of(doc) -> list[dict]:
    return [c for n in of_kind(doc, "source") for c in (config_of(n).get("schema") or [])
            if isinstance(c, dict)]


def append_cxl(doc, line: str) -> bool:
    """Add a statement to the first transform; False when there is none."""
    for node in of_kind(doc, "transform"):
        cfg = config_of(node)
        if isinstance(cfg.get("cxl"), str):
            cfg["cxl"] = cfg["cxl"].rstrip("\n") + "\n" + line + "\n"
            return True
    return False
