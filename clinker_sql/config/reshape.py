"""A reshape node's configuration (Clinker's ReshapeBody) and its checks.

`parse_reshape` reads the YAML shape; `check_reshape` is Clinker's bind-time validation
(bind_schema.rs, all E200), which needs the upstream columns and so runs when the node is
compiled (codegen/reshape.py).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from clinker_sql.config import model as m
from clinker_sql.config.fields import Fields
from clinker_sql.config.limits import check_name
from clinker_sql.config.yamlnodes import YMap, YNode, YSeq
from clinker_sql.diagnostics import Location, fail

COPY_FROM = ("trigger", "none")


@dataclass(frozen=True)
class ReshapeRule:
    """One rule: a row trigger (`when`), the fields it rewrites on a trigger row (`set`)
    and, when it synthesizes, the row derived from each trigger row."""
    name: str
    when: m.CxlSource
    set: tuple[tuple[str, m.CxlSource], ...] = ()
    copy_from: str | None = None  # None: the rule synthesizes nothing
    overrides: tuple[tuple[str, m.CxlSource], ...] = ()
    loc: Location | None = None


def parse_reshape(f: Fields, what: str, common: dict, ref: m.Ref,
                  cxl_source: Callable, sort_keys: Callable) -> m.ReshapeNode:
    """`cxl_source` and `sort_keys` are the loader's readers (config/parse.py)."""
    c = Fields(f.raw("config", required=True), f"config of {what}")
    partition_by, node = c.str_list("partition_by")
    if node is None:
        raise fail("E000", f"{what}: missing field `partition_by`", c.loc,
                   "list the fields that form a group (`[]`: the whole input)")
    order_node = c.raw("order_by")
    order_by = sort_keys(order_node, f"order_by of {what}") if isinstance(
        order_node, YSeq) and order_node.items else ()
    for key in order_by:
        if key.null_order != "last":
            raise fail("CS001", f"{what}: order_by null_order {key.null_order!r}: a reshape "
                       "sorts nulls last", key.loc)
    rules_node = c.raw("rules", required=True)
    if not isinstance(rules_node, YSeq):
        raise fail("E000", f"'rules' of {what} must be a list", rules_node.loc)
    rules = tuple(_rule(item, what, cxl_source) for item in rules_node.items)
    c.done()
    names = [r.name for r in rules]
    for i, r in enumerate(rules):
        if r.name in names[:i]:
            raise fail("CS001", f"{what}: two rules named {r.name!r}: their audit labels and "
                       "conflict stages would not tell them apart", r.loc)
    return m.ReshapeNode(**common, input=ref, partition_by=tuple(partition_by),
                         order_by=order_by, rules=rules)


def _rule(item: YNode, what: str, cxl_source: Callable) -> ReshapeRule:
    r = Fields(item, f"a rule of {what}")
    name = r.str("name", required=True)
    check_name(name, f"a rule name of {what}", r.key_loc("name"))
    when = cxl_source(r.raw("when", required=True), f"when of rule '{name}'")
    assigned: tuple[tuple[str, m.CxlSource], ...] = ()
    mutate = r.raw("mutate")
    if mutate is not None:
        mf = Fields(mutate, f"mutate of rule '{name}'")
        assigned = _assignments(mf.raw("set", required=True), f"mutate.set of rule '{name}'",
                                cxl_source)
        mf.done()
    copy_from, overrides = None, ()
    synth = r.raw("synthesize")
    if synth is not None:
        sf = Fields(synth, f"synthesize of rule '{name}'")
        copy_from = sf.choice("copy_from", COPY_FROM, required=True)
        node = sf.raw("overrides")
        if node is not None:
            overrides = _assignments(node, f"overrides of rule '{name}'", cxl_source)
        sf.done()
    r.done()
    return ReshapeRule(name, when, assigned, copy_from, overrides, r.loc)


def _assignments(node: YNode, what: str, cxl_source: Callable
                 ) -> tuple[tuple[str, m.CxlSource], ...]:
    if not isinstance(node, YMap):
        raise fail("E000", f"{what} must be a mapping field: CXL", node.loc)
    return tuple((field, cxl_source(value, f"{what} '{field}'"))
                 for field, (_, value) in node.entries.items())


def check_reshape(node: m.ReshapeNode, columns: list[str]) -> None:
    """Clinker's bind-time checks, in its order (E200)."""
    name = node.name
    for f in node.partition_by:
        if f not in columns:
            raise fail("E200", f"reshape {name!r}: partition_by field {f!r} is not present in "
                       "the upstream schema", node.loc, "declare the column in the source's "
                       "`schema:` block or emit it from an upstream transform")
    for k in node.order_by:
        if k.field not in columns:
            raise fail("E200", f"reshape {name!r}: order_by field {k.field!r} is not present "
                       "in the upstream schema", k.loc or node.loc)
    for rule in node.rules:
        for field, _ in rule.set:
            if field in node.partition_by:
                raise fail("E200", f"reshape {name!r} rule {rule.name!r}: mutate.set may not "
                           f"write partition_by field {field!r} — group identity must survive "
                           "Reshape", rule.loc,
                           "drop this assignment, or partition on a different field")
            if field.startswith("$"):
                raise fail("E200", f"reshape {name!r} rule {rule.name!r}: mutate.set may not "
                           f"write the engine-stamped column {field!r}", rule.loc)
            if field not in columns:
                raise fail("E200", f"reshape {name!r} rule {rule.name!r}: mutate.set target "
                           f"{field!r} is not present in the upstream schema — Reshape mutates "
                           "existing columns, it does not add new ones", rule.loc,
                           "emit the column from an upstream transform first")
        if rule.copy_from == "none":
            given = {f for f, _ in rule.overrides}
            for col in columns:
                if col not in given:
                    raise fail("E200", f"reshape {name!r} rule {rule.name!r}: synthesize with "
                               f"`copy_from: none` must override every column, but {col!r} "
                               "is missing from `overrides`", rule.loc,
                               "add the column to `overrides`, or use `copy_from: trigger` "
                               "to inherit the trigger row's values")
