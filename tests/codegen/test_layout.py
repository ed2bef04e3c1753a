"""The compiled folder's layout: each node's own logic in nodes/<node>.sql, every other
statement in engine/ numbered by its step in the run, and run.sql holding them all in
that order; the node files of two names that make the same file name stay apart."""

from __future__ import annotations

import re
from pathlib import Path

from clinker_sql.codegen.artifacts import files, placed
from clinker_sql.codegen.layout import node_files
from clinker_sql.codegen.plan import Compiled, Statement
from clinker_sql.project import Project

REPO = Path(__file__).resolve().parents[2]
EXAMPLES = sorted((REPO / "examples").glob("*/pipeline.yaml"))


def test_every_example_node_has_its_file_and_steps_number_the_engine_files():
    for pipeline in EXAMPLES:
        compiled = Project(pipeline).compile(base=pipeline.parent)
        contents = files(compiled)
        stmts = placed(compiled)
        assert set(node_files(compiled)) == {n["name"] for n in compiled.nodes}, pipeline
        steps = [at.step for at in stmts if at.step is not None]
        assert steps == list(range(1, len(steps) + 1))
        for at in stmts:
            if at.statement.layer == "engine":
                assert re.fullmatch(rf"engine/0*{at.step}_[A-Za-z0-9_.-]+\.sql", at.file)
                assert contents[at.file] == at.text
            elif at.statement.layer == "node":
                assert at.file == node_files(compiled)[at.statement.node]
                assert f"\n-- step {at.step}\n{at.text}" in contents[at.file]
            else:  # the session's settings, then the SQL functions the pipeline calls
                shared = {"session": "session.sql", "function": "functions.sql"}
                assert at.file == shared[at.statement.layer]
                assert at.text in contents[at.file]
        # run.sql: every statement once, in run order
        run = contents["run.sql"]
        positions = [run.index(at.text) for at in stmts  # alternatives: engine/ only
                     if at.statement.layer not in ("session", "function")
                     and at.statement.kind != "alternative"]
        assert positions == sorted(positions)
        assert not any(name.startswith(("0", "1", "2")) for name in contents), pipeline


def test_order_routing_logic_is_in_its_node_files():
    pipeline = REPO / "examples" / "order_routing" / "pipeline.yaml"
    compiled = Project(pipeline).compile(base=pipeline.parent)
    by_file: dict[str, list[str]] = {}
    for at in placed(compiled):
        by_file.setdefault(at.file, []).append(at.statement.name)
    assert by_file["nodes/price.sql"] == ["price.eval"]
    # a route's node file holds its conditions; its branches are engine views
    assert by_file["nodes/by_size.sql"] == ["by_size.eval"]
    assert by_file["nodes/big.sql"] == ["big.rows"]
    # the machinery is not in the node files
    assert all(not f.startswith("nodes/") for f, names in by_file.items()
               for n in names if n.endswith((".errors", ".carry", ".failed", ".commit"))
               and n != "orders.carry")  # the source's typed rows head its fused chain


def _compiled(names: list[str]) -> Compiled:
    c = Compiled(pipeline="p", file="p.yaml")
    for n in names:
        c.nodes.append({"name": n, "kind": "transform", "inputs": []})
        c.add(Statement("view", n, f"{n}.eval", "SELECT 1", layer="node"))
        c.add(Statement("view", n, n, "SELECT 1"))
    return c


def test_node_names_that_make_the_same_file_name_get_distinct_files():
    compiled = _compiled(["a b", "a_b", "Orders", "orders", "solo"])
    got = node_files(compiled)
    assert got["solo"] == "nodes/solo.sql"
    paths = [got[n] for n in ("a b", "a_b", "Orders", "orders")]
    assert len({p.casefold() for p in paths}) == 4  # apart on a case-blind file system too
    assert all(re.fullmatch(r"nodes/[A-Za-z0-9_.-]+_[0-9a-f]{16}\.sql", p) for p in paths)
    contents = files(compiled)
    assert all(p in contents for p in got.values())
    assert [f for f in contents if f.startswith("engine/")] == [
        "engine/02_a_b.sql", "engine/04_a_b.sql", "engine/06_Orders.sql",
        "engine/08_orders.sql", "engine/10_solo.sql"]


def test_a_statement_of_a_node_layer_names_its_node():
    import pytest

    with pytest.raises(ValueError):
        Statement("view", None, "x", "SELECT 1", layer="node")
    assert Statement("setup", None, "k", "SET k=v").layer == "session"
    assert Statement("view", "n", "n", "SELECT 1").layer == "engine"
