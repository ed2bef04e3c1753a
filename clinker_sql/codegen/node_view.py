"""A node's view and the machinery's view over it, from one SELECT.

A node file's SELECT reads like the node's CXL: `*` (the input row) and one column per
emit. The values the machinery adds over it (a transform's `$err`) sit in a view of their
own that reads it. Both are cut from one SELECT, so that the values they both read (a
conversion a `let` holds and its fault tests) are computed once, in a projection under the
node's view (codegen/shared_values.py): the machinery's view reads them as columns.
"""

from __future__ import annotations

import sqlglot
from sqlglot import exp

from clinker_sql import sqlbuild as S
from clinker_sql.codegen import shared_values
from clinker_sql.codegen.conditions import plain_conditions
from clinker_sql.codegen.templates import Sql, ident, select_list

Items = list[tuple[exp.Expression, str]]


def split_select(inputs: list[str], node_items: Items, machinery: Items, input_view: str,
                 where: exp.Expression | None) -> tuple[Sql, Sql, Sql]:
    """The select lists of the node's view and of the machinery's view (each after `*`),
    and what the node's view reads (`input_view`, or a projection of shared values over
    it)."""
    own, rest, source = split(inputs, node_items, machinery, input_view, where)
    return _list(own), _list(rest), Sql(S.to_sql(source))


def split(inputs: list[str], node_items: Items, machinery: Items, input_view: str,
          where: exp.Expression | None
          ) -> tuple[list[exp.Expression], list[exp.Expression], exp.Expression]:
    """`split_select`'s items as expressions (aliased), and the relation read."""
    every = [(S.col(n), n) for n in inputs] + list(node_items) + list(machinery)
    text = f"SELECT {select_list(every)} FROM {ident(input_view)}"
    if where is not None:
        text += f" WHERE {S.to_sql(where)}"
    tree = sqlglot.parse_one(text, read=S.DIALECT)
    tree = shared_values.share(plain_conditions(tree))
    assert isinstance(tree, exp.Select)
    exprs = tree.expressions[len(inputs):]
    return exprs[:len(node_items)], exprs[len(node_items):], tree.args["from_"].this


def read_from(exprs: list[exp.Expression], struct: str) -> Sql:
    """Items that read the columns of a row packed in the struct column `struct`."""
    out = []
    for e in exprs:
        e = e.copy()
        for col in list(e.find_all(exp.Column)):
            if not col.table:
                col.replace(exp.column(col.this.copy(), table=exp.to_identifier(struct,
                                                                                 quoted=True)))
        out.append(e)
    return _list(out)


def _list(exprs: list[exp.Expression]) -> Sql:
    return Sql(",\n  ".join(S.to_sql(e) for e in exprs))
