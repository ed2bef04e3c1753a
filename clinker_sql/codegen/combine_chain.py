"""A combine of 3 to 8 inputs -> a chain of binary joins, as Clinker decomposes it.

Clinker (clinker-plan `plan/combine.rs::decompose_nary_combine(s)`) rewrites an N-ary
combine into a left-deep chain of N-1 binary combines before choosing strategies:

- the where-clause is split into cross-input equality and range conjuncts; their
  qualifier pairs must connect every input (E305, `validate_join_graph_connectivity`);
- the chain starts at the driver (`drive`, else the first input: no row counts are
  known when it decomposes); step 0 joins the first declared input that shares a
  conjunct with the driver; each later step joins the next declared input not yet
  joined (Clinker counts the conjuncts already inside the joined set as connecting
  every candidate, so after step 0 declaration order decides);
- each step gets the conjuncts not yet assigned whose two inputs are both joined; a
  step left with none has no strategy (E313, `select_combine_strategies_in_graph`);
- every step but the last is a body-less `match: all` + `on_miss: skip` join: a driver
  row that misses at any earlier step is dropped whatever `on_miss` says, and `first`
  picks one match per intermediate row at the last step only;
- the last step keeps the node's `match`, `on_miss`, cxl and `propagate_ck`, and its
  DLQ stage is `combine:__combine_<name>_step_<N-2>` (the final step is renamed);
- an intermediate row is the joined rows' columns as `__<qualifier>__<field>`, with the
  driver's row identity; the output's `$ck.<f>` is the first joined input's column of
  that name in declaration order (`recover_engine_stamped_value`), else the last build
  row's per propagate_ck.

Views: `<n>.step<i>.build`, (`<n>.step<i>.driver`,) `<n>.step<i>.pairs` and the
intermediate rows `<n>.step<i>` for each step but the last; the last step is the
binary combine (codegen/combine.py) over `<n>.step<N-3>`, whose qualifiers map onto
the encoded columns.

Refused with CS001 where Clinker's chain would not evaluate what the pipeline says:
residual conjuncts (Clinker drops them from every step that has an equality, and
re-checks the whole where-clause on a pure-range step), more than two ranges in a
step, `match: collect` (the last step widens an intermediate row whose driver fields
it cannot find), a join order other than declaration order (Clinker's intermediate
columns are then read at the wrong positions), and join keys of an earlier step that
can fail to evaluate.
"""

from __future__ import annotations

import dataclasses

from sqlglot import exp

from clinker_sql import sqlbuild as S
from clinker_sql.codegen.combine import (
    BKEY,
    DUP,
    HIDDEN,
    Plan,
    Side,
    _check_inputs,
    _conjuncts,
    _decompose,
    _output_ck,
    _owner,
    _pairs_view,
    _scope,
    build_input_view,
    check_where,
    compile_binary,
    compile_pair,
    driver_view,
    is_false_guarded,
    may_repeat,
    qualifiers_of,
)
from clinker_sql.codegen.context import Context
from clinker_sql.codegen.cxl_scope import compile_cxl
from clinker_sql.codegen.materialize import checkpoint
from clinker_sql.codegen.plan import FAN, FAN_TYPE, NODE_LAYER, WIDENED, Relation, Statement
from clinker_sql.codegen.templates import ident, select_list
from clinker_sql.config import model as m
from clinker_sql.cxl import ast as a
from clinker_sql.cxl import types as T
from clinker_sql.cxl.errors import CxlError
from clinker_sql.cxl.lower import Lowerer
from clinker_sql.cxl.parser import parse_expression
from clinker_sql.diagnostics import fail

COMPARISONS = ("==", "<", ">", "<=", ">=")


def step_name(node: m.CombineNode, i: int) -> str:
    """Clinker's name for step `i` of the chain (the last step too: it is renamed)."""
    return f"__combine_{node.name}_step_{i}"


def encoded(qualifier: str, field: str) -> str:
    """Clinker's `encode_chain_column`."""
    return f"__{qualifier}__{field}"


def compile_combine(ctx: Context, node: m.CombineNode,
                    inputs: list[tuple[str, Relation]]) -> Relation:
    """A combine node: one binary join for two inputs, else a chain of them."""
    drive = _check_inputs(node, inputs)
    if len(inputs) > 2:  # a chain of binary joins, as Clinker decomposes it
        return compile_chain(ctx, node, inputs, drive)
    return compile_pair(ctx, node, inputs, drive)


def compile_chain(ctx: Context, node: m.CombineNode, inputs: list[tuple[str, Relation]],
                  drive: str) -> Relation:
    if node.match == "collect":
        raise fail("CS001", f"combine '{node.name}' has {len(inputs)} inputs and match: "
                   "collect, which is not supported: Clinker's last chained step collects "
                   "onto an intermediate row and loses the driver's fields", node.loc,
                   "collect in a two-input combine after joining the other inputs")
    rel = dict(inputs)
    quals = {q: {c for c, _ in r.columns} for q, r in inputs}
    order, slices = compile_cxl(node.where, lambda: _plan(ctx, node, inputs, drive, quals))
    probe = Side(drive, rel[drive], "$d.", "drv")
    for i, (qualifier, conjuncts) in enumerate(zip(order[1:-1], slices[:-1])):
        probe = _step(ctx, node, i, probe, Side(qualifier, rel[qualifier], "$b.", "bld"),
                      conjuncts, quals)
    last = order[-1]
    return compile_binary(ctx, node, probe, Side(last, rel[last], "$b.", "bld"),
                          only=slices[-1], stage=step_name(node, len(inputs) - 2))


# ---- the join order and each step's conjuncts --------------------------------------------

def _plan(ctx: Context, node: m.CombineNode, inputs: list[tuple[str, Relation]], drive: str,
          quals: dict[str, set[str]]) -> tuple[list[str], list[list[a.Expr]]]:
    names = [q for q, _ in inputs]
    expr = parse_expression(node.where.text)
    sides = tuple(Side(q, r, "", f"i{k}") for k, (q, r) in enumerate(inputs))
    check_where(node, expr, quals, Lowerer(_scope(
        ctx, sides, lambda s, c: S.col(c, s.alias), sides[names.index(drive)])))
    owner = _owner(quals)
    edges: list[tuple[a.Expr, str, str]] = []
    # `(...) ?? false` only makes a null comparison a non-match, which an equality or a
    # range already is (null never matches): with no residual inside, the same chain
    for c in _conjuncts(expr.left if is_false_guarded(expr) else expr):
        lq = rq = set()
        if isinstance(c, a.Binary) and c.op in COMPARISONS:
            lq, rq = qualifiers_of(c.left, quals, owner), qualifiers_of(c.right, quals, owner)
        if len(lq) != 1 or len(rq) != 1 or lq == rq:
            raise CxlError("CS001", f"combine '{node.name}' has {len(names)} inputs and a "
                           "where conjunct that is neither a cross-input equality nor a range "
                           "comparison; not supported: Clinker's chained binary joins do not "
                           "evaluate such a residual condition", c.pos.line, c.pos.col,
                           "filter on it in a transform after the combine, or chain "
                           "two-input combines")
        edges.append((c, lq.pop(), rq.pop()))
    _check_connected(node, names, edges, expr)
    joined, slices, assigned = [drive], [], set()
    for i in range(len(names) - 1):
        # Clinker's greedy pick: a candidate is "connected" when some conjunct lies within
        # the joined inputs plus it (those already inside count for every candidate)
        picked = next(q for q in names if q not in joined and any(
            left in joined + [q] and right in joined + [q] for _, left, right in edges))
        joined.append(picked)
        part = [k for k, (_, left, right) in enumerate(edges)
                if k not in assigned and left in joined and right in joined]
        assigned.update(part)
        if not part:
            raise CxlError("E313", f"combine '{node.name}': step {i} of its chain "
                           f"('{step_name(node, i)}', joining '{picked}') has no decomposable "
                           "cross-input comparisons; needs at least one equality or range "
                           "conjunct", expr.pos.line, expr.pos.col,
                           f"Clinker joins the inputs in the order {', '.join(joined)}...; "
                           "order the inputs so that each one compares with an earlier one")
        ranges = [k for k in part if edges[k][0].op != "=="]  # type: ignore[attr-defined]
        if len(ranges) > 2:
            raise CxlError("CS001", f"combine '{node.name}': step {i} of its chain has "
                           f"{len(ranges)} range conjuncts; more than 2 in one step of a "
                           "combine of more than 2 inputs are not supported (Clinker checks "
                           "the third against the whole where-clause, or not at all)",
                           expr.pos.line, expr.pos.col)
        slices.append([edges[k][0] for k in part])
    positions = [names.index(q) for q in joined[:-1]]
    if positions != sorted(positions):
        raise CxlError("CS001", f"combine '{node.name}' joins its inputs in the order "
                       f"{', '.join(joined)}, not their declaration order; not supported: "
                       "Clinker's intermediate rows then read fields at the wrong positions",
                       expr.pos.line, expr.pos.col,
                       "declare the inputs in that order, the driver first")
    return joined, slices


def _check_connected(node: m.CombineNode, names: list[str],
                     edges: list[tuple[a.Expr, str, str]], expr: a.Expr) -> None:
    parent = {q: q for q in names}

    def find(q: str) -> str:
        while parent[q] != q:
            q = parent[q]
        return q

    for _, left, right in edges:
        parent[find(left)] = find(right)
    if len({find(q) for q in names}) > 1:
        raise CxlError("E305", f"combine '{node.name}' where-clause forms a disconnected join "
                       "graph; inputs in different components would produce a Cartesian "
                       "product", expr.pos.line, expr.pos.col,
                       "add a cross-input comparison that links all inputs (e.g. via a "
                       "transitive equality chain)")


# ---- one body-less step: match all, misses dropped ---------------------------------------

def _step(ctx: Context, node: m.CombineNode, i: int, probe: Side, build: Side,
          conjuncts: list[a.Expr], quals: dict[str, set[str]]) -> Side:
    step = dataclasses.replace(node, match="all", on_miss="skip")
    where = compile_cxl(node.where, lambda: _decompose(ctx, step, probe, build, quals,
                                                       conjuncts))
    if where.driver_faults:
        raise fail("CS001", f"combine '{node.name}': a join key of step {i} of its chain "
                   f"(joining '{build.qualifier}') can fail to evaluate; not supported",
                   node.loc, "compute the key in a transform before the combine")
    tag = f"step{i}."
    repeats = may_repeat(ctx, dict(node.combine_inputs)[probe.qualifier]) or \
        probe.relation.fan
    probe = driver_view(ctx, node, probe, repeats, tag)
    identity = tuple(probe.col(h) for h in HIDDEN) + ((probe.col(DUP),) if repeats else ())
    plan = Plan(step, probe, build, where, bool(where.ranges), identity, (), frozenset(),
                False, tag=tag)
    build_view = build_input_view(ctx, plan)
    ctx.add(checkpoint(build_view, node.name, "Spark plans the join from the copy's size: "
                       "a small build input is broadcast instead of shuffling the driver",
                       broadcast=True))
    _pairs_view(ctx, plan, build_view)
    return _intermediate(ctx, node, plan, i)


def _intermediate(ctx: Context, node: m.CombineNode, p: Plan, i: int) -> Side:
    """Each match as one row: the joined inputs' columns encoded, the driver's identity,
    `$fan` = the match's position at each step (Clinker's order: by driver row, then each
    step's candidate order), the `$ck.*` the output can take from these inputs."""
    probe, build = p.driver, p.build
    members = list(probe.members) or [(probe.qualifier, tuple(
        (c, c, t) for c, t in probe.relation.columns))]
    members = [(q, tuple((f, encoded(q, f), t) for f, _, t in fs)) for q, fs in members]
    items: list[tuple[exp.Expression, str]] = [
        (S.col(probe.col(c)), encoded(q, f))
        for q, fs in probe.fields().items() for f, (c, _) in fs.items()]
    items += [(S.col(build.col(c)), encoded(build.qualifier, c))
              for c, _ in build.relation.columns]
    members.append((build.qualifier, tuple(
        (c, encoded(build.qualifier, c), t) for c, t in build.relation.columns)))
    items += [(S.col(probe.col(h)), h) for h in HIDDEN]
    rank = exp.Window(this=exp.RowNumber(), partition_by=[S.col(c) for c in p.identity],
                      order=exp.Order(expressions=[exp.Ordered(this=S.col(BKEY))]))
    here = S.fn("array", S.cast(rank, "BIGINT"))
    fan = S.fn("concat", S.fn("coalesce", S.col(probe.col(FAN)), S.cast(
        S.fn("array"), T.spark_type_sql(FAN_TYPE))), here) if probe.relation.fan else here
    items.append((fan, FAN))
    # the first joined input's column wins even when null (Clinker recovers the output's
    # `$ck.<f>` from the first encoded column of that name); later inputs' per propagate_ck
    ck, _ = _output_ck(node, probe, build)
    own = dict(probe.relation.ck)
    items += [(S.col((probe if n in own else build).col(n)), n) for n, _ in ck]
    if probe.relation.widened:  # the driver's undeclared columns ride along (unmapped.py)
        items.append((S.col(probe.col(WIDENED)), WIDENED))
    view = ctx.view(node.name, f"step{i}")
    ctx.add(Statement("view", node.name, view,
                      f"CREATE OR REPLACE TEMPORARY VIEW {ident(view)} AS SELECT "
                      f"{select_list(items)} FROM {ident(p.view('pairs'))}",
                      header=f"combine {node.name}: step {i} of its chain "
                             f"({step_name(node, i)}), every match of '{build.qualifier}' "
                             "(match: all; a row without one is dropped)",
                      layer=NODE_LAYER))
    columns = tuple((c, t) for _, fs in members for _, c, t in fs)
    relation = Relation(view, columns, ck, fan=True, widened=probe.relation.widened)
    return Side(p.driver.qualifier, relation, "$d.", "drv", tuple(members))
