"""Values a view's SELECT computes several times a row, computed once (a compiler pass).

CXL's conversions and a source's typed columns lower to a guarded cast,

    CASE WHEN COALESCE(x RLIKE '^[+-]?[0-9]+\\z', FALSE) THEN TRY_CAST(x AS BIGINT) END

and a view repeats it wherever the value is read: in the emits that read a `let`, in the
fault tests of its DLQ entry, in `$live`. Spark evaluates an expression again in each
place it sits inside a CASE branch (its subexpression elimination only shares what every
branch evaluates), and a regular-expression match is the costliest step of such a view:
ck_dlq's two chain views matched 11 times a row, ~0.5 s of a 2.9 s copy at 1M rows.

This pass moves each such value that a SELECT holds more than once into a projection
under it, as a column `$shared.<n>`, and reads that column in its place. Spark keeps the
two projections apart (CollapseProject does not inline a costly expression read twice),
so the match runs once a row.

CXL's conversions are now calls of the function library (cxl/functions.py), and Spark
projects a call's arguments once below it; but a call read in several places of a SELECT
is still inlined in each, and its match runs in each. So a repeated call of a function
that matches a regular expression is moved the same way, as is a source's guarded cast,
which is not a call.

The projection below evaluates the value for every row, also where a CASE around it would
not have; so only values that cannot fail are moved: built of columns, literals, CASE,
COALESCE, NOT/AND/OR, IS NULL, TRY_CAST, RLIKE against a literal pattern and calls of the
library's functions (which never fail). And only from a SELECT over one table or view (no
join, no GROUP BY, no DISTINCT, no `*`), whose columns name no other relation.
"""

from __future__ import annotations

from sqlglot import exp

from clinker_sql.codegen.names import SHARED_PREFIX as PREFIX
from clinker_sql.cxl import functions
# what a moved value may be built of: nothing here raises an error on any row
_SAFE = (exp.Column, exp.Identifier, exp.Literal, exp.Boolean, exp.Null, exp.Paren, exp.Not,
         exp.And, exp.Or, exp.Is, exp.Coalesce, exp.Case, exp.If, exp.RegexpLike, exp.TryCast,
         exp.DataType)


def share(tree: exp.Expression) -> exp.Expression:
    """`tree` (a statement) with its top SELECT's repeated costly values computed once,
    or `tree` unchanged when there are none or the SELECT does not qualify."""
    select = tree.expression if isinstance(tree, exp.Create) else tree
    if not isinstance(select, exp.Select) or not _plain(select) or not _costly(select):
        return tree
    table = select.args["from_"].this
    qualifier = table.alias_or_name if table.alias else None
    if any(c.table and c.table != qualifier for c in select.find_all(exp.Column)):
        return tree
    shared: list[exp.Expression] = []
    while True:
        counts: dict[str, list[exp.Expression]] = {}
        for part in _parts(select):
            for node in part.walk():
                # not inside a lambda: the value may read its variable (codegen/multi_value.py)
                if (isinstance(node, exp.Case) or functions.called(node) is not None) and \
                        _costly(node) and _safe(node) and \
                        node.find_ancestor(exp.Lambda) is None:
                    counts.setdefault(node.sql(), []).append(node)
        repeated = [(text, nodes) for text, nodes in counts.items() if len(nodes) > 1]
        if not repeated:
            break
        _, nodes = max(repeated, key=lambda r: len(r[0]))  # the largest first
        name = f"{PREFIX}{len(shared)}"
        shared.append(nodes[0].copy().as_(exp.to_identifier(name, quoted=True)))
        for node in nodes:
            node.replace(exp.column(exp.to_identifier(name, quoted=True)))
    if not shared:
        return tree
    inner = exp.select(exp.Star(), *shared).from_(table.copy())
    subquery = inner.subquery(table.args["alias"].this if table.alias else
                              exp.to_identifier("input", quoted=True), copy=False)
    select.set("from_", exp.From(this=subquery))
    return tree


def unshared(select: exp.Select) -> exp.Select | None:
    """The SELECT as it was before `share`: its FROM the relation under the projection
    the pass added, each `$shared.<n>` read replaced by its value; None when its FROM is
    not such a projection. For passes that read a view's shape (codegen/empty_dlq.py)."""
    source = select.args.get("from_")
    inner = source.this.this if source is not None and isinstance(source.this, exp.Subquery) \
        else None
    if not isinstance(inner, exp.Select) or not isinstance(inner.expressions[0], exp.Star) \
            or not _plain_over_table(inner) or inner.args.get("where"):
        return None
    values = {}
    for e in inner.expressions[1:]:
        if not isinstance(e, exp.Alias) or not e.alias.startswith(PREFIX):
            return None
        values[e.alias] = e.this
    if not values:
        return None
    out = select.copy()
    table = inner.args["from_"].this.copy()
    out.set("from_", exp.From(this=table))
    for col in list(out.find_all(exp.Column)):
        if col.name in values and not col.table:
            col.replace(values[col.name].copy())
    return out


def _plain_over_table(select: exp.Select) -> bool:
    source = select.args.get("from_")
    return source is not None and isinstance(source.this, exp.Table) and not any(
        select.args.get(k) for k in ("joins", "group", "having", "distinct", "qualify",
                                     "with", "laterals", "limit"))


def _plain(select: exp.Select) -> bool:
    """A SELECT over one table or view, with nothing that reads its rows as a whole."""
    if not _plain_over_table(select):
        return False
    if any(isinstance(e, exp.Star) or isinstance(e, exp.Column) and
           isinstance(e.this, exp.Star) for e in select.expressions):
        return False
    return all(q is select for q in select.find_all(exp.Query))  # no subquery


def _parts(select: exp.Select) -> list[exp.Expression]:
    return [*select.expressions, *([select.args["where"]] if select.args.get("where") else [])]


def _costly(node: exp.Expression) -> bool:
    for n in node.walk():
        fn = functions.called(n)
        if isinstance(n, exp.RegexpLike) or fn is not None and fn.costly:
            return True
    return False


def _safe(node: exp.Expression) -> bool:
    for n in node.walk():
        if not isinstance(n, _SAFE) and functions.called(n) is None:
            return False
        if isinstance(n, exp.RegexpLike) and not isinstance(n.expression, exp.Literal):
            return False
        if isinstance(n, exp.Column) and n.find(exp.Star) is not None:
            return False
    return True
