"""Conditions as a reader writes them (a compiler pass).

CXL's truthiness is "exactly true": a lowered test is `COALESCE(c, FALSE)`
(`sqlbuild.is_true`), so that it can be negated or combined as a value. Where the test
only decides (a CASE branch, an IF, a WHERE), NULL already counts as false, and the
COALESCE is noise: `CASE WHEN COALESCE(a, FALSE) AND COALESCE(b, FALSE)` decides as
`CASE WHEN a AND b`. This pass drops it there, through AND and OR (three-valued logic:
`a AND b` is true exactly when both are, `a OR b` when either is), never through NOT.
A CASE that compares one column with a literal in every branch (a CXL `match` on a value)
is written as `CASE x WHEN 'a' THEN ...`: `x <=> 'a'` and `x = 'a'` are true for the same
rows when 'a' is not NULL. It also reads `COALESCE(<literal>, default)`, a default for an argument given as a literal,
as the literal.
"""

from __future__ import annotations

from sqlglot import exp



def plain_conditions(tree: exp.Expression) -> exp.Expression:
    """`tree` with every deciding condition's `COALESCE(c, FALSE)` read as `c`."""
    for node in list(tree.walk()):
        if isinstance(node, exp.Coalesce) and _literal(node.this) and \
                node.find_ancestor(exp.Hint) is None:  # `/*+ COALESCE(1) */` is a hint
            # `COALESCE(2, 0)` (a default for an argument given as a literal) is the literal
            node.replace(node.this)
        elif isinstance(node, exp.Case) and _simple(node) is not None:
            subject = _simple(node)
            for branch in node.args["ifs"]:
                branch.set("this", branch.this.expression)
            node.set("this", subject.copy())
        elif isinstance(node, (exp.If, exp.Where)) and node.this is not None:
            node.set("this", _bare(_decided(node.this)))
    return tree


def decided(cond: exp.Expression) -> exp.Expression:
    """`cond` as the condition it is where only its truth is read (a column that a WHERE
    tests): its `COALESCE(c, FALSE)` dropped, as the pass drops it."""
    return _bare(_decided(cond.copy()))


def _bare(cond: exp.Expression) -> exp.Expression:
    """A whole condition needs no parentheses."""
    while isinstance(cond, exp.Paren):
        cond = cond.this
    return cond


def _decided(cond: exp.Expression) -> exp.Expression:
    inner = cond
    while isinstance(inner, exp.Paren):
        inner = inner.this
    if _truth_test(inner):
        return _decided(inner.this if isinstance(inner, exp.Coalesce) else inner.expressions[0])
    if isinstance(inner, (exp.And, exp.Or)):
        inner.set("this", _decided(inner.this))
        inner.set("expression", _decided(inner.expression))
        return cond
    return cond


def _truth_test(e: exp.Expression) -> bool:
    """`COALESCE(c, FALSE)`, built or parsed."""
    if isinstance(e, exp.Coalesce):
        rest = e.expressions
    elif isinstance(e, exp.Anonymous) and str(e.this).lower() == "coalesce":
        rest = e.expressions[1:]  # as sqlbuild.is_true builds it
    else:
        return False
    return len(rest) == 1 and isinstance(rest[0], exp.Boolean) and rest[0].this is False


def _literal(e: exp.Expression) -> bool:
    """A literal that is not NULL, maybe cast."""
    while isinstance(e, exp.Cast):
        e = e.this
    return isinstance(e, (exp.Literal, exp.Boolean))


def _simple(case: exp.Case) -> exp.Expression | None:
    """The column every branch of a searched CASE compares with a literal that is not NULL
    (`x <=> 'a'`), or None."""
    if case.this is not None or not case.args.get("ifs"):
        return None
    subject = None
    for branch in case.args["ifs"]:
        test = branch.this
        if not isinstance(test, exp.NullSafeEQ) or not isinstance(test.this, exp.Column) \
                or not _literal(test.expression):
            return None
        if subject is not None and test.this != subject:
            return None
        subject = test.this
    return subject
