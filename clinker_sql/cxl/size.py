"""How big the SQL of a lowered expression is, counted in sqlglot nodes as it will be
printed: a subtree shared by several parents (a `let` read twice, an operand an operator
states twice) is printed once per parent, so it counts once per parent. The count keeps
each node's size in a memo (keyed by id, holding the node so the id stays its own), so
a shared subtree is walked once and the count costs no more than building the tree did,
however large the printed SQL would be."""

from __future__ import annotations

from sqlglot import exp

# The most nodes the SQL of one CXL statement may print to (its value and its fault
# conditions). An ordinary statement stays below a few thousand; an operator that states
# its operand twice (an overflow guard, a null guard) doubles it with every level it is
# nested, so a few dozen levels would print gigabytes: refused here instead.
MAX_SQL_NODES = 20_000
SIZE_CODE = "CS065"

Memo = dict[int, tuple[exp.Expression, int]]


def size(e: exp.Expression, memo: Memo) -> int:
    """The number of nodes `e` prints as, without recursion."""
    if id(e) in memo:
        return memo[id(e)][1]
    stack: list[tuple[exp.Expression, bool]] = [(e, False)]
    while stack:
        node, ready = stack.pop()
        if ready:
            total = 1
            for v in node.args.values():
                for k in (v if isinstance(v, list) else (v,)):
                    if isinstance(k, exp.Expression):
                        total += memo[id(k)][1]
            memo[id(node)] = (node, total)
            continue
        if id(node) in memo:
            continue
        stack.append((node, True))
        for v in node.args.values():
            for k in (v if isinstance(v, list) else (v,)):
                if isinstance(k, exp.Expression) and id(k) not in memo:
                    stack.append((k, False))
    return memo[id(e)][1]
