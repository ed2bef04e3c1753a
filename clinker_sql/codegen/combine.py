"""Combine node -> a join of the driver with one build input (spec §2.6).

A combine of 3 to 8 inputs is Clinker's chain of binary joins (codegen/combine_chain.py):
its last step is compiled here, with a driver Side whose `members` map each joined
input's fields onto the intermediate rows' columns.

Views, in order (`<n>` is the node name; the optional ones only when needed):

  <n>.build    the build input with its join-key values (`$k.<i>`) and its order
               (`$bkey`). `match: first` without range/residual conjuncts keeps the
               first row per key; `match: collect` without them aggregates per key.
               Materialized, so that the join is planned from its real size (a small
               build input is broadcast).
  <n>.driver   (optional) `$dup` numbers driver rows that share a row identity
  <n>.pairs    driver LEFT JOIN build on the equi keys and range conjuncts, with the
               residual evaluated per candidate pair
  <n>.ranked   (optional, residual conjuncts) per driver: first match, first failure
  <n>.cases    one row per outcome, `$kind`: match | miss | collect | key_err | res_err
  <n>.eval     the CXL body
  <n>.final    `$fault` (the row's DLQ error) and `$drop` (under `all`, one failing
               match drops every row of its driver)
  <n>          the good rows: the emits plus `$ck.*` per propagate_ck
  <n>.failing_* (optional) the pairs, cases, eval and final views again over only the
               driver rows that can fail, when every failure reads driver fields only
  <n>.faults   the failing rows with their match (materialized; both error views read it)
  <n>.errors   DLQ entries of the driver rows; <n>.build_errors of the matched build rows

Decisions where the spec is silent (documented in docs/status.md and docs/combines.md):
- Candidate order is Clinker's: with equality keys only (its hash build/probe
  kernel) a key's collision chain is walked newest-first, so "first match" is the
  *highest* build row and `all` / `collect` list matches from the last build row to
  the first; with a range conjunct (its IE-join kernels) the lowest build index wins
  and matches come in build order. `$bkey` encodes that order (smallest = first).
- `match: all` output rows carry `$fan` (the match's position), so that the rows
  of one driver reach the sink in Clinker's order.
- Output rows carry `$source.name` = `$source.file` = '<merged>' and the driver's
  `$source.row` / `$source.order` (Clinker keeps the driver's row id on the output).
  `$source.row` may hold a position until the DLQ (codegen/numbering.py): a build row's
  entry then carries the driver row its detail names (`$ref.*`), numbered there too.
- A build-side join key that can fail to evaluate is refused (CS001): Clinker
  aborts the whole combine on it, which a view cannot express.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass

from sqlglot import exp

from clinker_sql import sqlbuild as S
from clinker_sql.codegen.combine_cap import output_cap_check
from clinker_sql.codegen.context import Context
from clinker_sql.codegen.cxl_scope import compile_cxl, scope_for
from clinker_sql.codegen.dlq_shape import ORDER, dlq_select
from clinker_sql.codegen.materialize import checkpoint, counted_in
from clinker_sql.codegen.numbering import REF_ORDER, REF_ROW
from clinker_sql.codegen.plan import (
    CK_PREFIX,
    DOC,
    FAN,
    FAN_TYPE,
    NODE_LAYER,
    SOURCE_FILE,
    SOURCE_NAME,
    SOURCE_ORDER,
    SOURCE_ROW,
    WIDENED,
    ErrorView,
    Layer,
    Relation,
    Statement,
)
from clinker_sql.codegen.run_plan import CheckStep
from clinker_sql.codegen.templates import Sql, ident, render, select_list, sql
from clinker_sql.config import model as m
from clinker_sql.config.checks import upstream
from clinker_sql.cxl import ast as a
from clinker_sql.cxl import types as T
from clinker_sql.cxl.errors import CxlError
from clinker_sql.cxl.lower import Fault, Lowerer, Scope, Val, guard_all
from clinker_sql.cxl.parser import parse_expression, parse_program
from clinker_sql.cxl.program import FieldFault, LoweredProgram, lower_program
from clinker_sql.cxl.text import to_cell
from clinker_sql.diagnostics import Diagnostic, fail

MERGED = "<merged>"
CATEGORY = "combine_output_row"
COLLECT_CAP = 10_000
MAX_INPUTS = 8
HIDDEN = (SOURCE_NAME, SOURCE_FILE, SOURCE_ROW, SOURCE_ORDER)
FAULT_TYPE = "STRUCT<detail: STRING, field: STRING, value: STRING>"
KIND, PRESENT, BKEY, DUP, COLL = "$kind", "$present", "$bkey", "$dup", "$coll"
# view-name prefix of the second chain over only the driver rows that can fail
FAILING = "failing_"
DK_ERR, RES_OK, RES_ERR, ERR, KEEP, FAULT, DROP = (
    "$dk_err", "$res_ok", "$res_err", "$err", "$keep", "$fault", "$drop")
FIRST_MATCH, FIRST_FAIL, MATCH_RANK, FAIL_RANK = "$m1", "$e1", "$mrank", "$erank"



@dataclass(frozen=True)
class Side:
    qualifier: str
    relation: Relation
    prefix: str  # column prefix from <n>.pairs on: "$d." (driver) or "$b." (build)
    alias: str  # table alias inside <n>.pairs: drv | bld
    # an N-ary chain's intermediate rows (codegen/combine_chain.py): the inputs joined so
    # far, each as (qualifier, ((field, column, type), ...)); empty for a plain input
    members: tuple[tuple[str, tuple[tuple[str, str, T.CxlType], ...]], ...] = ()

    def col(self, name: str) -> str:
        return self.prefix + name

    def fields(self) -> dict[str, dict[str, tuple[str, T.CxlType]]]:
        """qualifier -> field -> (column of the relation, type)."""
        if self.members:
            return {q: {f: (c, t) for f, c, t in fs} for q, fs in self.members}
        return {self.qualifier: {c: (c, t) for c, t in self.relation.columns}}

    @property
    def payload(self) -> tuple[tuple[str, T.CxlType], ...]:
        return self.relation.columns + self.relation.ck


@dataclass
class Where:
    keys: list[tuple[Val, Val]]  # (driver side in <n>.pairs, build side over the build input)
    ranges: list[exp.Expression]  # join conditions over drv/bld
    residual: Val | None  # over drv/bld
    driver_faults: tuple[Fault, ...]  # driver-side key and range operands
    never: bool  # a cross-type equality: nothing ever matches


@dataclass(frozen=True)
class Plan:
    node: m.CombineNode
    driver: Side
    build: Side
    where: Where
    general: bool  # range/residual conjuncts: rank candidates per driver
    identity: tuple[str, ...]  # driver row identity in <n>.pairs (window partition)
    ck: tuple[tuple[str, T.CxlType], ...]  # output $ck.* columns
    build_ck: frozenset[str]  # the build $ck.* columns propagate_ck lets through
    correlated: bool  # some source declares a correlation key (errors are parked)
    tag: str = ""  # view-name prefix of a second chain over the failing driver rows only
    stage: str = ""  # the DLQ stage's node name when not the node's (an N-ary chain's step)

    def view(self, part: str) -> str:
        return f"{self.node.name}.{self.tag}{part}"

    @property
    def layer(self) -> Layer:
        """The layer of its match views: the second chain over the failing driver rows
        only finds their DLQ entries, which is machinery, not the node's logic."""
        return "engine" if self.tag == FAILING else NODE_LAYER


def compile_pair(ctx: Context, node: m.CombineNode,
                 inputs: list[tuple[str, Relation]], drive: str) -> Relation:
    """A combine of two inputs: one binary join (codegen/combine_chain.py decides)."""
    rel = dict(inputs)
    other = next(q for q, _ in inputs if q != drive)
    return compile_binary(ctx, node, Side(drive, rel[drive], "$d.", "drv"),
                          Side(other, rel[other], "$b.", "bld"))


def compile_binary(ctx: Context, node: m.CombineNode, driver: Side, build: Side,
                   only: list[a.Expr] | None = None, stage: str = "") -> Relation:
    """The join of `driver` with `build`; `only`: the where conjuncts of an N-ary chain's
    last step (already checked), instead of the node's whole where-clause."""
    quals = {q: set(f) for s in (driver, build) for q, f in s.fields().items()}
    where = compile_cxl(node.where, lambda: _decompose(ctx, node, driver, build, quals, only))
    if node.match == "collect" and node.cxl.text.strip():
        raise fail("E311", f"combine '{node.name}' uses match: collect, so its cxl must be "
                   "empty", node.cxl.location(1, 1),
                   "collect emits the driver fields plus an array named after the build input")
    general = bool(where.ranges) or where.residual is not None
    repeats = may_repeat(ctx, dict(node.combine_inputs)[driver.qualifier]) or \
        driver.relation.fan
    program = None
    if node.match != "collect":
        program = compile_cxl(node.cxl, lambda: _lower_body(ctx, node, driver, build, quals))
    windows = general or (node.match == "all" and bool(program and program.faults))
    driver = driver_view(ctx, node, driver, repeats and windows)
    ck, build_ck = _output_ck(node, driver, build)
    identity = tuple(driver.col(h) for h in HIDDEN) + ((driver.col(DUP),) if repeats and
                                                        windows else ())
    correlated = any(isinstance(n, m.SourceNode) and n.config.correlation_key
                     for n in ctx.pipeline.nodes)
    if driver.members and correlated and (where.driver_faults or program and program.faults) \
            and ctx.pipeline.error_handling.strategy == "continue":
        raise fail("CS001", f"combine '{node.name}': an N-ary combine whose join keys or cxl "
                   "can fail is not supported when sources declare a correlation_key (Clinker "
                   "parks the failing intermediate row, which carries no correlation key, "
                   "in a group of its own)", node.loc,
                   "make the keys and the cxl infallible, or chain two-input combines")
    plan = Plan(node, driver, build, where, general, identity, ck, build_ck, correlated,
                stage=stage)
    build_view = build_input_view(ctx, plan)
    # the copy gives the join planner the build input's real size where Spark's estimate
    # is too large to broadcast it (combine, 1M order lines x 125k customers, when the rows
    # were numbered through a join: the write 4.5 -> 2.3 s, the copy 0.8 s); a build input
    # Spark already estimates small is broadcast from its sources, with no copy (clean
    # combine benchmark, interleaved runs: 5.76 -> 5.23 s)
    ctx.add(checkpoint(build_view, node.name, "Spark plans the join from the copy's size: "
                       "a small build input is broadcast instead of shuffling the driver",
                       broadcast=True))
    _pairs_view(ctx, plan, build_view)
    last = plan.view("pairs")
    if general:
        last = _ranked_view(ctx, plan, last)
    cases = _cases_view(ctx, plan, last)
    final = _final_view(ctx, plan, _eval_view(ctx, plan, cases, program), program)
    relation = _ok_view(ctx, plan, final, program)
    output_cap_check(ctx, node, relation.view)
    errors = _error_views(ctx, plan, _failing_chain(ctx, plan, build_view, program) or final)
    if node.on_miss == "error" and node.match != "collect":
        _on_miss_check(ctx, plan, cases, errors)
    return relation


# ---- inputs and checks -------------------------------------------------------------------

def _check_inputs(node: m.CombineNode, inputs: list[tuple[str, Relation]]) -> str:
    """E300 / E301 / E306; the driver's qualifier."""
    if not 2 <= len(inputs) <= MAX_INPUTS:
        raise fail("E300", f"combine '{node.name}' declares {len(inputs)} input(s); a combine "
                   f"takes 2 to {MAX_INPUTS}", node.loc,
                   "list the inputs under `input:` as qualifier: node")
    for qualifier, _ in inputs:
        if qualifier.startswith("$") or "." in qualifier:
            raise fail("E301", f"combine '{node.name}': qualifier '{qualifier}' may not start "
                       "with '$' or contain '.'", node.loc)
    names = [q for q, _ in inputs]
    drive = node.drive if node.drive is not None else names[0]
    if drive not in names:
        raise fail("E306", f"combine '{node.name}': drive '{drive}' is not one of its inputs "
                   f"({', '.join(names)})", node.loc)
    return drive


def may_repeat(ctx: Context, ref: m.Ref) -> bool:
    """Whether two driver rows can share a row identity (fan-out or overlapping branches)."""
    merge = inclusive = False
    for n in upstream(ctx.pipeline.nodes, [ref.node]):
        if isinstance(n, (m.CombineNode, m.AggregateNode)):
            return True
        merge |= isinstance(n, m.MergeNode)
        inclusive |= isinstance(n, m.RouteNode) and n.mode != "exclusive"
    return merge and inclusive


def _check_refs(tree: object, quals: dict[str, set[str]], code: str, what: str,
                node: m.CombineNode) -> None:
    """Every `q.field` must name an input and one of its fields (E304 / E308)."""
    local = {n.name for n in a.walk(tree) if isinstance(n, a.Let)}
    local |= {n.param for n in a.walk(tree) if isinstance(n, a.Lambda)}
    local |= {n.binding for n in a.walk(tree) if isinstance(n, (a.Comprehension, a.EmitEach))}
    for e in a.walk(tree):
        if not isinstance(e, a.Qualified) or e.parts[0] in local:
            continue
        head, text = e.parts[0], ".".join(e.parts)
        if head in quals and len(e.parts) > 2:
            raise CxlError(code, f"combine '{node.name}' {what} references '{text}' "
                           f"({len(e.parts)} parts); use `qualifier.field`",
                           e.pos.line, e.pos.col, length=len(text))
        if head not in quals or e.parts[1] not in quals[head]:
            raise CxlError(code, f"combine '{node.name}' {what} references unknown field "
                           f"`{text}`", e.pos.line, e.pos.col,
                           f"inputs: {', '.join(quals)}; declare the field upstream or fix "
                           "the qualifier", len(text))


def _owner(quals: dict[str, set[str]]) -> dict[str, str]:
    """Bare field names that belong to exactly one input (Clinker resolves those)."""
    seen: dict[str, list[str]] = {}
    for q, fields in quals.items():
        for f in fields:
            seen.setdefault(f, []).append(q)
    return {f: qs[0] for f, qs in seen.items() if len(qs) == 1}


def _scope(ctx: Context, sides: tuple[Side, ...], ref: Callable[[Side, str], exp.Expression],
           driver: Side) -> Scope:
    base = scope_for(ctx, driver.relation, "combine")
    system = dict(base.system)
    for key, column in (("name", SOURCE_NAME), ("file", SOURCE_FILE), ("path", SOURCE_FILE),
                        ("row", SOURCE_ROW)):
        system[("source", key)] = (ref(driver, column), system[("source", key)][1])
    quals = {q: {f: (ref(s, c), t) for f, (c, t) in fs.items()}
             for s in sides for q, fs in s.fields().items()}
    owner = _owner({q: set(f) for q, f in quals.items()})
    columns = {f: quals[q][f] for f, q in owner.items()}
    return Scope(columns=columns, system=system, context="combine", qualifiers=quals)


# ---- where: keys, ranges, residual -------------------------------------------------------

def _conjuncts(e: a.Expr) -> list[a.Expr]:
    if isinstance(e, a.Binary) and e.op == "and":
        return _conjuncts(e.left) + _conjuncts(e.right)
    return [e]


def qualifiers_of(e: a.Expr, quals: dict[str, set[str]], owner: dict[str, str]) -> set[str]:
    """The inputs an expression reads (`q.field`, or a bare field only one input has)."""
    out = {n.parts[0] for n in a.walk(e) if isinstance(n, a.Qualified) and n.parts[0] in quals}
    return out | {owner[n.name] for n in a.walk(e) if isinstance(n, a.Name) and n.name in owner}


def is_false_guarded(expr: a.Expr) -> bool:
    return isinstance(expr, a.Binary) and expr.op == "??" and \
        isinstance(expr.right, a.Literal) and expr.right.value is False


def check_where(node: m.CombineNode, expr: a.Expr, quals: dict[str, set[str]],
                join: Lowerer) -> None:
    """E304 (a field no input has), E303 (not a bool); `join` reads every input."""
    _check_refs(expr, quals, "E304", "where-clause", node)
    whole = join.lower(expr)
    if whole.type.kind not in ("bool", "any", "null"):
        raise CxlError("E303", f"combine '{node.name}' where-clause must be bool, found "
                       f"{whole.type}", expr.pos.line, expr.pos.col)


def _decompose(ctx: Context, node: m.CombineNode, driver: Side, build: Side,
               quals: dict[str, set[str]], only: list[a.Expr] | None = None) -> Where:
    expr = parse_expression(node.where.text)
    owner = _owner(quals)
    join = Lowerer(_scope(ctx, (driver, build), lambda s, c: S.col(c, s.alias), driver))
    build_only = Lowerer(_scope(ctx, (build,), lambda s, c: S.col(c), driver))
    if only is None:
        check_where(node, expr, quals, join)

    def refs(e: a.Expr) -> set[str]:
        return qualifiers_of(e, quals, owner)

    w = Where([], [], None, (), False)
    residual: list[a.Expr] = []
    # `(...) ?? false` (nullable keys): the comparisons inside still choose the join, and
    # the whole expression stays the residual, so a null operand is a non-match (Clinker's
    # `false_coalesced_predicate`)
    guarded = only is None and is_false_guarded(expr)
    d, b = set(driver.fields()), {build.qualifier}
    for c in only if only is not None else _conjuncts(expr.left if guarded else expr):
        sides = None
        if isinstance(c, a.Binary) and c.op in ("==", "<", ">", "<=", ">="):
            lq, rq = refs(c.left), refs(c.right)
            if len(lq) == 1 and lq <= d and rq == b:
                sides = (c.left, c.right)
            elif len(rq) == 1 and rq <= d and lq == b:
                sides = (c.right, c.left)
        if sides is None:
            residual.append(c)
            continue
        dv, bv = join.lower(sides[0]), build_only.lower(sides[1])
        if c.op != "==":
            _check_range_axis(node, c, sides, (dv.type.kind, bv.type.kind), join)
        if bv.faults:
            raise CxlError("CS001", "a build-side join key that can fail to evaluate is not "
                           "supported", sides[1].pos.line, sides[1].pos.col,
                           "compute the key in a transform before the combine")
        w.driver_faults += dv.faults
        if c.op != "==":
            w.ranges.append(join.lower(c).sql)
        elif dv.type.kind == bv.type.kind or "any" in (dv.type.kind, bv.type.kind):
            w.keys.append((dv, bv))
        else:
            w.never = True  # cross-type values never equal (Int 1 != Float 1.0 != "1")
    if not w.keys and not w.ranges and not w.never and only is None:
        raise CxlError("E305", f"combine '{node.name}' where-clause has no cross-input "
                       f"comparison between '{driver.qualifier}' and '{build.qualifier}'",
                       expr.pos.line, expr.pos.col,
                       "add an equality such as `a.id == b.id`")
    if guarded:
        residual = [expr]
    if residual and 1 <= len(w.ranges) <= 2:
        # Clinker joins on ranges with its IEJoin kernel, which re-checks the leftover
        # condition only past two range conjuncts (iejoin.rs `n_ranges > 2`): with one or
        # two, the residual is never evaluated. Same rows as Clinker, and said so.
        ctx.compiled.warnings.append(Diagnostic(
            "CS050", f"combine '{node.name}': the where conditions that are neither a "
            "cross-input equality nor a range are not applied, as in Clinker (its range join "
            "checks them only past two range conjuncts)", node.where.location(1, 1),
            "filter the combine's output in a transform instead", severity="warning"))
        residual = []
    if residual:
        conj = residual[0]
        for r in residual[1:]:
            conj = a.Binary(r.pos, "and", conj, r)
        w.residual = join.lower(conj)
    return w


# `abs`, `min`, `max` and `clamp` may return an int or a float (Clinker types them
# `numeric`, `abs` of a decimal excepted): on a range axis the value's concrete type must
# be recoverable from their receiver and arguments
_NUMERIC_CALLS = ("abs", "min", "max", "clamp")
_RANGE_PAIRS = {("int", "int"), ("float", "float"), ("int", "float"), ("float", "int"),
                ("decimal", "decimal"), ("decimal", "int"), ("int", "decimal"),
                ("date", "date"), ("datetime", "datetime")}


def _check_range_axis(node: m.CombineNode, c: a.Binary, sides: tuple[a.Expr, a.Expr],
                      kinds: tuple[str, str], join: Lowerer) -> None:
    """E327: a range conjunct whose operands are not an orderable pair (Clinker's
    `range_key_type`): int, float, decimal (with an int), date or datetime, or an
    `abs`/`min`/`max`/`clamp` whose every possible result has the same concrete type as
    the other side's. Operands of a type known only at run time (`any`) pass."""
    def ambiguous(e: a.Expr) -> bool:
        return isinstance(e, a.MethodCall) and e.method in _NUMERIC_CALLS and not (
            e.method == "abs" and join.lower(e.receiver).type.kind == "decimal")

    def leaf(e: a.Expr) -> str | None:
        if ambiguous(e):
            kinds = {leaf(x) for x in (e.receiver, *e.args)}
            return kinds.pop() if len(kinds) == 1 else None
        kind = join.lower(e).type.kind
        return kind if kind in ("int", "float") else None

    if any(k in ("any", "null") for k in kinds):
        return
    if any(ambiguous(e) for e in sides):
        both = {leaf(e) for e in sides}
        ok, reason = len(both) == 1 and None not in both, (
            "an operand has the ambiguous `numeric` type (from abs/min/max/clamp): its value "
            "may be an int compared exactly or a float")
    else:
        ok, reason = kinds in _RANGE_PAIRS, (
            "the operands are not an orderable int, float, decimal, date, or datetime pair "
            "(a decimal and a float cannot be mixed on the range axis)")
    if not ok:
        raise CxlError("E327", f"combine '{node.name}' range conjunct cannot use the range "
                       f"axis: {reason}", c.pos.line, c.pos.col,
                       "compare matching int, float, or decimal operands on both sides, or "
                       "move this comparison out of the where-clause")


def _lower_body(ctx: Context, node: m.CombineNode, driver: Side, build: Side,
                quals: dict[str, set[str]]) -> LoweredProgram:
    _check_refs(parse_program(node.cxl.text), quals, "E308", "cxl", node)
    # build fields read the guarded `$u.` columns: null on the on_miss path
    scope = _scope(ctx, (driver, build), lambda s, c: S.col(
        s.col(c) if s is driver else "$u." + c), driver)
    program = lower_program(node.cxl.text, scope)
    if not program.emits:
        raise CxlError("E309", f"combine '{node.name}' emits nothing; its output row is "
                       "exactly its emits", 1, 1, "add `emit name = qualifier.field`")
    return program


# ---- correlation keys ------------------------------------------------------------------

def _output_ck(node: m.CombineNode, driver: Side, build: Side
               ) -> tuple[tuple[tuple[str, T.CxlType], ...], frozenset[str]]:
    """Driver's $ck.* always; build's per propagate_ck; the driver wins a name collision."""
    spec = node.propagate_ck
    allowed = set()
    for name, _ in build.relation.ck:
        field_name = name[len(CK_PREFIX):]
        if name.startswith(CK_PREFIX + "aggregate.") or spec == "all" or (
                isinstance(spec, tuple) and field_name in spec[1]):
            allowed.add(name)
    out = list(driver.relation.ck)
    out += [(n, t) for n, t in build.relation.ck if n in allowed and n not in dict(out)]
    return tuple(out), frozenset(allowed)


# ---- views -------------------------------------------------------------------------------

def driver_view(ctx: Context, node: m.CombineNode, driver: Side, dup: bool,
                tag: str = "") -> Side:
    if not dup:
        return driver
    view = ctx.view(node.name, tag + "driver")
    rel = driver.relation
    ctx.add(Statement("view", node.name, view, render(
        "combine_driver.sql.j2", view=ident(view), input=ident(rel.view),
        identity=Sql(", ".join(ident(h) for h in HIDDEN)),
        content=Sql(", ".join(sql(to_cell(S.col(c), t)) for c, t in rel.columns) or "1")),
        header=f"combine {node.name}: number driver rows that share a row identity"))
    return dataclasses.replace(driver, relation=dataclasses.replace(rel, view=view))


def _bkey(build: Relation, ref: Callable[[str], exp.Expression], repeats: bool,
          newest_first: bool) -> exp.Expression:
    """The build rows' candidate order: the smallest `$bkey` is met first."""
    def pos(e: exp.Expression) -> exp.Expression:
        return exp.Neg(this=e) if newest_first else e

    args: list[exp.Expression] = [S.string("o"), pos(ref(SOURCE_ORDER)), S.string("r"),
                                  pos(ref(SOURCE_ROW))]
    if build.fan:  # rows an emit each fanned out of one row: in their fan-out order
        fan = ref(FAN)
        if newest_first:
            fan = S.fn("transform", fan, exp.Lambda(this=exp.Neg(this=S.col("x")),
                                                    expressions=[S.ident("x")]))
        args += [S.string("f"), fan]
    if repeats:  # identical identities: order by content so "first" stays deterministic
        args += [S.string("t"), S.fn("concat_ws", S.string("\u0001"), *[
            S.fn("coalesce", to_cell(ref(c), t), S.string("")) for c, t in build.columns])]
    return S.fn("named_struct", *args)


def newest_first(p: Plan) -> bool:
    """Clinker's hash build/probe kernel (equality conjuncts only) walks a key's build rows
    newest-first; its IE-join kernels (any range conjunct) go in build order."""
    return not p.where.ranges


def _element(build: Side, ck: frozenset[str], ref: Callable[[str], exp.Expression],
             bkey: exp.Expression) -> exp.Expression:
    """One collected build record: its order, its user fields, its propagated $ck."""
    value = S.fn("named_struct", *[x for c, _ in build.relation.columns
                                   for x in (S.string(c), ref(c))])
    args = [S.string("o"), bkey, S.string("v"), value]
    cks = [n for n, _ in build.relation.ck if n in ck]
    if cks:
        args += [S.string("c"), S.fn("named_struct", *[x for i, n in enumerate(cks)
                                                       for x in (S.string(f"c{i}"), ref(n))])]
    return S.fn("named_struct", *args)


def build_input_view(ctx: Context, p: Plan) -> str:
    node, build = p.node, p.build
    rel = build.relation
    view = p.view("build")
    repeats = may_repeat(ctx, dict(node.combine_inputs)[build.qualifier])
    keys = [(bv.sql, f"$k.{i}") for i, (_, bv) in enumerate(p.where.keys)]
    items = [(S.col(c), c) for c, _ in rel.all_columns] + keys
    items += [(_bkey(rel, S.col, repeats, newest_first(p)), BKEY), (S.boolean(True), PRESENT)]
    key_list = Sql(", ".join(ident(k) for _, k in keys))
    if node.match == "collect" and not p.general and keys:
        element = _element(build, p.build_ck, S.col, S.col(BKEY))
        body = render("combine_build_collect.sql.j2", view=ident(view), input=ident(rel.view),
                      select_list=select_list(items), keys=key_list, element=sql(element))
        how = "one row per key with its records in build order"
    else:
        first = node.match == "first" and not p.general and bool(keys)
        body = render("combine_build.sql.j2", view=ident(view), input=ident(rel.view),
                      select_list=select_list(items), keys=key_list, first_per_key=first)
        how = ("the first row per key (" + ("highest" if newest_first(p) else "lowest") +
               " build row, as Clinker's kernel meets it)") if first else "every row"
    ctx.add(Statement("view", node.name, view, body,
                      header=f"combine {node.name}: build input '{build.qualifier}', {how}"))
    return view


def _failing_chain(ctx: Context, p: Plan, build_view: str,
                   program: LoweredProgram | None) -> str | None:
    """When every way a row can fail reads driver fields only (the driver's join keys and
    the body's operations; no residual), the rows that can fail are found on the driver
    side first and only they are joined again for the DLQ: `<n>.failing_final`, the same
    views over `<n>.failing_driver`. Spark keeps a filter on the body's errors above the
    join, so without this the DLQ computes the whole join once more (combine, 1M rows)."""
    if p.general or program is None:
        return None
    conds = [_over_driver(f.cond, lambda c: c.table == p.driver.alias and c.name)
             for f in p.where.driver_faults]
    conds += [_over_driver(ff.fault.cond, lambda c: not c.table and
                           c.name.startswith(p.driver.prefix) and c.name[len(p.driver.prefix):])
              for ff in program.faults]
    if any(c is None for c in conds):
        return None
    view = p.view("failing_driver")
    condition = S.or_(*[S.is_true(c) for c in conds]) if conds else S.boolean(False)
    ctx.add(Statement("view", p.node.name, view,
                      f"CREATE OR REPLACE TEMPORARY VIEW {ident(view)} AS SELECT * FROM "
                      f"{ident(p.driver.relation.view)} WHERE {sql(condition)}",
                      header=f"combine {p.node.name}: driver rows that can fail (their key or "
                             "a body operation reading driver fields fails); chosen for "
                             "speed: only these are joined again for the DLQ"))
    driver = dataclasses.replace(p.driver, relation=dataclasses.replace(
        p.driver.relation, view=view))
    q = dataclasses.replace(p, driver=driver, tag=FAILING)
    _pairs_view(ctx, q, build_view)
    return _final_view(ctx, q, _eval_view(ctx, q, _cases_view(ctx, q, q.view("pairs")),
                                          program), program)


def _over_driver(cond: exp.Expression, name: Callable[[exp.Column], str | bool]
                 ) -> exp.Expression | None:
    """`cond` over the driver relation's own columns, or None when it reads anything else."""
    out = cond.copy()
    for column in list(out.find_all(exp.Column)):
        own = name(column)
        if not own:
            return None
        column.replace(S.col(own))
    return out


def _fault_struct(faults: list[FieldFault], row: exp.Expression) -> exp.Expression:
    """The first failing operation, in evaluation order, as a struct (NULL when none)."""
    whens = []
    for ff in faults:
        f = ff.fault
        prefix = [S.string("row "), S.cast(row, "STRING"), S.string(": ")]
        if ff.field is not None:
            prefix.append(S.string(f"field '{ff.field}': "))
        whens.append((S.is_true(f.cond), S.fn(
            "named_struct", S.string("detail"), S.fn("concat", *prefix, f.message),
            S.string("field"), S.string(ff.field) if ff.field else S.cast(S.null(), "STRING"),
            S.string("value"), f.value if f.value is not None else S.cast(S.null(), "STRING"))))
    return S.case(whens) if whens else S.cast(S.null(), FAULT_TYPE)


def _pairs_view(ctx: Context, p: Plan, build_view: str) -> None:
    node, drv, bld, w = p.node, p.driver, p.build, p.where
    collect_fast = node.match == "collect" and not p.general and w.keys
    has_dup = p.identity[-1] == drv.col(DUP)
    d_cols = list(drv.relation.all_columns) + ([(DUP, T.INT)] if has_dup else [])
    items = [(S.col(c, drv.alias), drv.col(c)) for c, _ in d_cols]
    if collect_fast:
        items.append((S.col(COLL, bld.alias), COLL))
    else:
        items += [(S.col(c, bld.alias), bld.col(c)) for c, _ in bld.relation.all_columns]
        items.append((S.col(BKEY, bld.alias), BKEY))
    present = S.fn("coalesce", S.col(PRESENT, bld.alias), S.boolean(False))
    items.append((present, PRESENT))
    row = S.col(SOURCE_ROW, drv.alias)
    items.append((_fault_struct([FieldFault(f, None) for f in w.driver_faults], row), DK_ERR))
    if w.residual is not None:
        res_faults = [FieldFault(f, None) for f in guard_all(w.residual.faults, present)]
        res_err = _fault_struct(res_faults, row)
        items.append((res_err, RES_ERR))
        items.append((S.and_(present, S.is_null(res_err), S.is_true(w.residual.sql)), RES_OK))
    elif p.general:  # ranges only, all in the join condition: every candidate matches
        items.append((S.cast(S.null(), FAULT_TYPE), RES_ERR))
        items.append((present, RES_OK))
    conds = [S.eq(dv.sql, S.col(f"$k.{i}", bld.alias)) for i, (dv, _) in enumerate(w.keys)]
    condition = S.boolean(False) if w.never else S.and_(*conds, *w.ranges)
    inner = node.on_miss == "skip" and node.match != "collect" and not w.driver_faults
    view = p.view("pairs")
    ctx.add(Statement("view", node.name, view, render(
        "combine_pairs.sql.j2", view=ident(view), select_list=select_list(items),
        driver=ident(drv.relation.view), build=ident(build_view),
        join=Sql("INNER" if inner else "LEFT"), condition=sql(condition)),
        header=f"combine {node.name}: '{drv.qualifier}' (driver) joined with "
               f"'{bld.qualifier}' on {len(w.keys)} key(s), {len(w.ranges)} range(s); no join "
               "hint, Spark's adaptive execution picks the strategy at run time",
        layer=p.layer))


def _ranked_view(ctx: Context, p: Plan, pairs: str) -> str:
    """Per driver: the first matching and the first failing candidate in build order."""
    part = [S.col(c) for c in p.identity]
    res_ok, res_err, bkey = S.col(RES_OK), S.col(RES_ERR), S.col(BKEY)

    def over(e: exp.Expression, order: list[exp.Expression] | None = None) -> exp.Expression:
        spec = exp.Window(this=e, partition_by=part)
        if order:
            spec.set("order", exp.Order(expressions=[exp.Ordered(this=o) for o in order]))
        return spec

    items = [
        (over(exp.Min(this=S.case([(res_ok, bkey)]))), FIRST_MATCH),
        (over(exp.Min(this=S.case([(S.not_null(res_err), bkey)]))), FIRST_FAIL),
        (over(exp.RowNumber(), [S.not_(res_ok), bkey]), MATCH_RANK),
        (over(exp.RowNumber(), [S.is_null(res_err), bkey]), FAIL_RANK),  # failures first
    ]
    if p.node.match == "collect":
        element = _element(p.build, p.build_ck, lambda c: S.col(p.build.col(c)), bkey)
        items.append((over(exp.Anonymous(this="collect_list", expressions=[
            S.case([(res_ok, element)])])), COLL))
    view = ctx.view(p.node.name, "ranked")
    ctx.add(Statement("view", p.node.name, view, render(
        "combine_ranked.sql.j2", view=ident(view), input=ident(pairs),
        select_list=select_list(items)),
        header=f"combine {p.node.name}: rank each driver's candidates (residual conditions)",
        layer=p.layer))
    return view


def _kind(p: Plan) -> exp.Expression:
    lit = S.string
    whens: list[tuple[exp.Expression, exp.Expression]] = [
        (S.not_null(S.col(DK_ERR)), lit("key_err"))]
    match = p.node.match
    if not p.general:
        if match == "collect":
            return S.case(whens, lit("collect"))
        return S.case(whens + [(S.col(PRESENT), lit("match"))], lit("miss"))
    m1, e1, mrank = S.col(FIRST_MATCH), S.col(FIRST_FAIL), S.eq(S.col(MATCH_RANK), S.small_int(1))
    failed = S.not_null(e1)
    if match == "first":  # only candidates up to the first match were evaluated
        failed = S.and_(failed, S.or_(S.is_null(m1), exp.LTE(this=e1, expression=m1)))
    whens.append((S.and_(failed, S.eq(S.col(FAIL_RANK), S.small_int(1))), lit("res_err")))
    whens.append((failed, S.null()))
    if match == "collect":
        whens.append((mrank, lit("collect")))
        return S.case(whens)
    if match == "first":
        whens.append((S.not_null(m1), S.case([(mrank, lit("match"))])))
    else:
        whens.append((S.col(RES_OK), lit("match")))
        whens.append((S.not_null(m1), S.null()))
    whens.append((mrank, lit("miss")))
    return S.case(whens)


def _cases_view(ctx: Context, p: Plan, source: str) -> str:
    build = p.build
    is_match = S.eq(S.col(KIND), S.string("match"))
    guarded = [] if p.node.match == "collect" else [
        (S.case([(is_match, S.col(build.col(c)))]), "$u." + c)
        for c, _ in build.relation.columns + build.relation.ck]
    view = p.view("cases")
    ctx.add(Statement("view", p.node.name, view, render(
        "combine_cases.sql.j2", view=ident(view), input=ident(source), kind=sql(_kind(p)),
        guarded=select_list(guarded) if guarded else None),
        header=f"combine {p.node.name}: one row per outcome (match: {p.node.match}, "
               f"on_miss: {p.node.on_miss})", layer=p.layer))
    return view


def _body_kinds(p: Plan) -> list[str]:
    if p.node.match == "collect":
        return ["collect"]
    return ["match", "miss"] if p.node.on_miss == "null_fields" else ["match"]


def _eval_view(ctx: Context, p: Plan, cases: str, program: LoweredProgram | None) -> str:
    if program is None:
        return cases
    items = [(v.sql, "$out." + n) for n, v in program.emits.items()]
    items.append((program.keep if program.keep is not None else S.boolean(True), KEEP))
    items.append((_fault_struct(program.faults, S.col(p.driver.col(SOURCE_ROW))), ERR))
    view = p.view("eval")
    ctx.add(Statement("view", p.node.name, view, render(
        "combine_eval.sql.j2", view=ident(view), input=ident(cases),
        select_list=select_list(items)), header=f"combine {p.node.name}: evaluate the CXL",
        layer=p.layer))
    return view


def _in(e: exp.Expression, values: list[str]) -> exp.Expression:
    return exp.In(this=e, expressions=[S.string(v) for v in values])


def _final_view(ctx: Context, p: Plan, source: str, program: LoweredProgram | None) -> str:
    kind = S.col(KIND)
    body = S.col(ERR) if program is not None else S.cast(S.null(), FAULT_TYPE)
    whens = [(S.eq(kind, S.string("key_err")), S.col(DK_ERR))]
    if p.general:
        whens.append((S.eq(kind, S.string("res_err")), S.col(RES_ERR)))
    body_row = _in(kind, _body_kinds(p))
    drop: exp.Expression = S.boolean(False)
    if p.node.match == "all" and program is not None and program.faults:
        part = [S.col(c) for c in p.identity]
        failing = S.and_(body_row, S.not_null(S.col(ERR)))
        rank = exp.Window(this=exp.RowNumber(), partition_by=part, order=exp.Order(expressions=[
            exp.Ordered(this=S.not_(failing)), exp.Ordered(this=S.col(BKEY))]))
        whens.append((S.and_(failing, S.eq(rank, S.small_int(1))), body))
        drop = S.eq(exp.Window(this=exp.Max(this=S.case([(failing, S.small_int(1))],
                                                            S.small_int(0))),
                               partition_by=part), S.small_int(1))
    else:
        whens.append((body_row, body))
    items = [(S.case(whens), FAULT), (drop, DROP)]
    view = p.view("final")
    ctx.add(Statement("view", p.node.name, view, render(
        "combine_final.sql.j2", view=ident(view), input=ident(source),
        select_list=select_list(items)),
        header=f"combine {p.node.name}: each row's DLQ error; a failing match drops its driver"))
    return view


def _ck_items(p: Plan, program: LoweredProgram | None) -> list[tuple[exp.Expression, str]]:
    d_ck = dict(p.driver.relation.ck)
    b_ck = [n for n, _ in p.build.relation.ck if n in p.build_ck]
    items = []
    for name, t in p.ck:
        if program is None:  # collect: the first collected build record's value
            first = S.fn("try_element_at", S.col(COLL + ".sorted"), S.small_int(1))
            b = exp.Dot(this=exp.Dot(this=first, expression=S.ident("c")),
                        expression=S.ident(f"c{b_ck.index(name)}")) if name in b_ck else None
        else:
            b = S.col("$u." + name) if name in b_ck else None
        if b is not None and name in d_ck and dict(p.build.relation.ck)[name] != t:
            b = S.try_cast(b, T.spark_type_sql(t))
        d = S.col(p.driver.col(name)) if name in d_ck else None
        if d is not None and b is not None:
            items.append((S.fn("coalesce", d, b), name))
        else:
            items.append((d if d is not None else b, name))
    return items


def _ok_view(ctx: Context, p: Plan, final: str, program: LoweredProgram | None) -> Relation:
    drv = p.driver
    hidden = [(S.string(MERGED), SOURCE_NAME), (S.string(MERGED), SOURCE_FILE),
              (S.col(drv.col(SOURCE_ROW)), SOURCE_ROW),
              (S.col(drv.col(SOURCE_ORDER)), SOURCE_ORDER)]
    fan = drv.relation.fan or p.node.match == "all"
    if p.node.match == "all":  # one row per match: its position in Clinker's candidate order
        rank = exp.Window(this=exp.RowNumber(), partition_by=[S.col(c) for c in p.identity],
                          order=exp.Order(expressions=[exp.Ordered(this=S.col(BKEY))]))
        here = S.fn("array", S.cast(rank, "BIGINT"))
        hidden.append((S.fn("concat", S.fn("coalesce", S.col(drv.col(FAN)), S.cast(
            S.fn("array"), T.spark_type_sql(FAN_TYPE))), here) if drv.relation.fan else here,
            FAN))
    elif drv.relation.fan:
        hidden.append((S.col(drv.col(FAN)), FAN))
    if drv.relation.widened:  # the driver's undeclared columns ride along (unmapped.py)
        hidden.append((S.col(drv.col(WIDENED)), WIDENED))
    doc = p.node.name in ctx.documents  # the driver row's document (plan.DOC)
    if doc:
        hidden.append((drv.relation.document(lambda n: S.col(drv.col(n))), DOC))
    if program is not None:
        columns = tuple((n, v.type) for n, v in program.emits.items())
        items = [(S.col("$out." + n), n) for n, _ in columns]
        condition = S.and_(_in(S.col(KIND), _body_kinds(p)), S.is_null(S.col(ERR)),
                           S.col(KEEP), S.not_(S.col(DROP)))
        inner = Sql("")
    else:
        columns, items = _collect_columns(p)
        condition = S.and_(S.eq(S.col(KIND), S.string("collect")), S.is_null(S.col(FAULT)))
        inner = _sorted_collect(p)
    view = ctx.view(p.node.name)
    ctx.add(Statement("view", p.node.name, view, render(
        "combine_ok.sql.j2", view=ident(view), input=ident(final), sorted=inner or None,
        select_list=select_list(items + hidden + _ck_items(p, program)),
        condition=sql(condition)),
        header=f"combine {p.node.name}: output rows (emits only, $ck per propagate_ck)"))
    emitted = frozenset(n for n, _ in columns) if program is not None else None
    return Relation(view, columns, p.ck, emitted, fan=fan, widened=drv.relation.widened,
                    doc=doc)


def _sorted_collect(p: Plan) -> Sql:
    """`$coll.sorted`: the collected build records in build order."""
    l_, r_ = S.col("l"), S.col("r")
    lo = exp.Dot(this=l_, expression=S.ident("o"))
    ro = exp.Dot(this=r_, expression=S.ident("o"))
    cmp = S.case([(exp.LT(this=lo, expression=ro), S.small_int(-1)),
                  (exp.GT(this=lo, expression=ro), S.small_int(1))], S.small_int(0))
    sort = S.fn("array_sort", S.fn("coalesce", S.col(COLL), S.fn("array")),
                exp.Lambda(this=cmp, expressions=[S.ident("l"), S.ident("r")]))
    return Sql(f"{sql(sort)} AS {ident(COLL + '.sorted')}")


def _collect_columns(p: Plan) -> tuple[tuple[tuple[str, T.CxlType], ...],
                                       list[tuple[exp.Expression, str]]]:
    records = S.fn("slice", S.col(COLL + ".sorted"), S.small_int(1), S.small_int(COLLECT_CAP))
    values = S.fn("transform", records, exp.Lambda(
        this=exp.Dot(this=S.col("x"), expression=S.ident("v")), expressions=[S.ident("x")]))
    array_t = T.array_of(T.CxlType("map", T.ANY))
    cols: list[tuple[str, T.CxlType]] = []
    items: list[tuple[exp.Expression, str]] = []
    for c, t in p.driver.relation.columns:
        if c == p.build.qualifier:
            cols.append((c, array_t))
            items.append((values, c))
        else:
            cols.append((c, t))
            items.append((S.col(p.driver.col(c)), c))
    if p.build.qualifier not in dict(cols):
        cols.append((p.build.qualifier, array_t))
        items.append((values, p.build.qualifier))
    return tuple(cols), items


# ---- DLQ entries and the on_miss check ---------------------------------------------------

def _error_views(ctx: Context, p: Plan, final: str) -> str:
    node, drv, bld = p.node, p.driver, p.build
    fault = S.col(FAULT)

    def part(name: str) -> exp.Expression:
        return exp.Dot(this=fault, expression=S.ident(name))

    stage = S.string(f"combine:{p.stage or node.name}")
    # an N-ary chain's last step drives with intermediate rows, which carry no source name
    # or file of their own (Clinker's `source_name_arc_of` falls back to '<merged>')
    merged = bool(drv.members)
    both = ctx.pipeline.error_handling.strategy == "continue" and not (
        node.match == "collect" and not p.general)
    if both:
        # the driver's and the build rows' entries both come from the failing rows: the
        # join is computed once for them, and only those (few) rows are written
        faults = ctx.view(node.name, "faults")
        ctx.add(Statement("view", node.name, faults, render(
            "node_errors.sql.j2", view=ident(faults), input=ident(final), select_list=Sql("*"),
            condition=sql(S.not_null(fault))),
            header=f"combine {node.name}: the rows whose evaluation failed, with their match",
            step=counted_in(final, sql(S.not_null(fault)))))
        ctx.add(checkpoint(faults, node.name, "the join is computed once for the driver's "
                           "and the matched build rows' DLQ entries", failures=True))
        final = faults
    entry = dlq_select(
        source_name=S.string(MERGED) if merged else S.col(drv.col(SOURCE_NAME)),
        source_file=S.string(MERGED) if merged else S.col(drv.col(SOURCE_FILE)),
        source_row=S.col(drv.col(SOURCE_ROW)), order=S.col(drv.col(SOURCE_ORDER)),
        field=part("field"), value=part("value"), category=S.string(CATEGORY),
        detail=part("detail"), stage=stage, trigger=True,
        payload={c: to_cell(S.col(drv.col(c)), t) for c, t in drv.payload})
    view = ctx.view(node.name, "errors")
    ctx.add(Statement("view", node.name, view, render(
        "node_errors.sql.j2", view=ident(view), input=ident(final),
        select_list=select_list(entry), condition=sql(S.not_null(fault))),
        header=f"combine {node.name}: driver rows whose evaluation failed",
        step=counted_in(final, sql(S.not_null(fault)))))
    ctx.error_views.append(ErrorView(view, node.name, tuple(c for c, _ in drv.payload), 3,
                                     "CS002"))
    if not both:
        return view
    # The matched build row is dead-lettered too (Clinker's lineage entry): a collateral,
    # or a trigger of its own correlation group when errors are parked in groups.
    refers = bool(ctx.numbered or ctx.sorted_rows)
    entry = dlq_select(
        source_name=S.col(bld.col(SOURCE_NAME)), source_file=S.col(bld.col(SOURCE_FILE)),
        source_row=S.col(bld.col(SOURCE_ROW)), order=S.col(bld.col(SOURCE_ORDER)),
        field=S.cast(S.null(), "STRING"), value=S.cast(S.null(), "STRING"),
        category=S.string(CATEGORY), detail=part("detail"), stage=stage,
        trigger=p.correlated,
        payload={c: to_cell(S.col(bld.col(c)), t) for c, t in bld.payload},
        # its detail names the driver row: where that row is, when the DLQ numbers the
        # rows from their positions (codegen/numbering.py)
        extra={REF_ORDER: S.cast(S.col(drv.col(SOURCE_ORDER)), "BIGINT"),
               REF_ROW: S.cast(S.col(drv.col(SOURCE_ROW)), "BIGINT")} if refers else None)
    build_view = ctx.view(node.name, "build_errors")
    ctx.add(Statement("view", node.name, build_view, render(
        "combine_build_errors.sql.j2", view=ident(build_view), input=ident(final),
        select_list=select_list(entry), once=p.correlated,
        condition=sql(S.and_(S.not_null(fault), _in(S.col(KIND), ["match", "res_err"]))),
        order=Sql(", ".join(ident(drv.col(c)) for c in (SOURCE_ORDER, SOURCE_ROW)))),
        header=f"combine {node.name}: the matched build rows of failing driver rows"))
    ctx.error_views.append(ErrorView(build_view, node.name, tuple(c for c, _ in bld.payload),
                                     3, "CS002", refers=refers))
    return view


def _on_miss_check(ctx: Context, p: Plan, cases: str, errors: str) -> None:
    """E319: a driver row without a match aborts the run (exit 1)."""
    drv = p.driver
    order, row = S.col(drv.col(SOURCE_ORDER)), S.col(drv.col(SOURCE_ROW))
    detail = S.fn("concat", S.string(f"combine '{p.node.name}' (on_miss: error): driver row "),
                  S.cast(row, "STRING"), S.string(" of '"), S.col(drv.col(SOURCE_NAME)),
                  S.string("' has no match"))
    guard: list[exp.Expression] = [S.eq(S.col(KIND), S.string("miss"))]
    if ctx.pipeline.error_handling.strategy == "fail_fast":
        # A failure that Clinker meets first (an earlier node, an earlier driver row) wins.
        earlier = [ev.view for ev in ctx.error_views if ev.node != p.node.name]
        guard += [S.not_(exp.Exists(this=exp.select(S.small_int(1)).from_(
            exp.Table(this=S.ident(v))))) for v in earlier]
        pos = S.fn("named_struct", S.string("o"), order, S.string("r"), row)
        first = exp.Subquery(this=exp.select(exp.Min(this=S.fn(
            "named_struct", S.string("o"), S.col(ORDER), S.string("r"),
            S.col("_cxl_dlq_source_row")))).from_(exp.Table(this=S.ident(errors))))
        guard.append(S.or_(S.is_null(first), exp.LT(this=pos, expression=first)))
    ctx.add(Statement("check", p.node.name, ctx.view(p.node.name, "on_miss"), render(
        "combine_on_miss_check.sql.j2", cases=ident(cases), detail=sql(detail),
        condition=sql(S.and_(*guard)), order=Sql(f"{sql(order)}, {sql(row)}")),
        header=f"combine {p.node.name}: on_miss: error aborts on the first unmatched driver row",
        step=CheckStep(code="E319")))
