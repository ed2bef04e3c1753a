"""Lower a whole CXL program (a transform body) statement by statement.

Statements run top to bottom; a `filter` that drops the row stops evaluation,
so every fault of a later statement is guarded by the filters before it.

Besides the flat list of faults (enough for a program of lets, emits and filters), the
program is kept as an ordered list of steps, which `codegen/steps.py` turns into views
when it holds a `distinct` (a decision across rows) or an `emit each` (a fan-out).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from sqlglot import exp

from clinker_sql import sqlbuild as S
from clinker_sql.cxl import ast as a
from clinker_sql.cxl import size
from clinker_sql.cxl import types as T
from clinker_sql.cxl.errors import CxlError
from clinker_sql.cxl.fanout import EVENT_TYPE, FanOut, Leaves, events_array
from clinker_sql.cxl.lower import Fault, Lowerer, Scope, Val, error, guard_all
from clinker_sql.cxl.parser import NESTING_CODE, parse_expression, parse_program

DEFAULT_MAX_EXPANSION = 10_000
# How deep the SQL of one statement may nest. A `let` is inlined where it is read, so a
# chain of lets nests its SQL one level per step though each CXL expression is shallow
# (the parser's limit does not see it). Spark's parser refuses an expression nested some
# 250 levels deep (FAILED_TO_PARSE_TOO_COMPLEX), and every fault re-states its operands,
# so the SQL grows with the square of the depth: refused here, with the limit named. The
# limit leaves room for an expression at the parser's MAX_NESTING (128 operators: SQL 133
# levels deep with its faults).
MAX_SQL_DEPTH = 160
# a pipeline's compile resolves every `use` where the program is parsed
# (cxl/module_scope.py); a program lowered on its own has no workspace to find modules in
MODULES = "modules (`use {path}`) are resolved only when a pipeline file is compiled"


@dataclass(frozen=True)
class FieldFault:
    fault: Fault
    field: str | None  # the emit being computed, if any


@dataclass(frozen=True)
class Gate:
    """A top-level `filter`: the row continues only when `cond` holds."""

    cond: exp.Expression


@dataclass(frozen=True)
class Dedup:
    """A top-level `distinct`: the first row (in arrival order) with each key continues."""

    key: exp.Expression  # normalized as Clinker's value_to_group_key (a struct)
    fault: Fault | None  # the key is not hashable (NaN, array, map)
    pos: a.Pos


@dataclass
class Block:
    """A top-level `emit each`."""

    events: exp.Expression  # ARRAY<EVENT> (cxl/fanout.py), empty when filtered before
    leaves_of: Leaves
    always: bool  # produces at least one record for every row
    leaves: exp.Expression | None = None  # set once the output columns are known


Step = FieldFault | Gate | Dedup | Block


@dataclass
class LoweredProgram:
    emits: dict[str, Val] = field(default_factory=dict)  # top level, in first emit order
    keep: exp.Expression | None = None  # the row survives every filter
    faults: list[FieldFault] = field(default_factory=list)
    steps: list[Step] = field(default_factory=list)
    # every emitted column (top level and emit each bodies) in first-emit order; their
    # types unify over every record the program can produce
    columns: dict[str, T.CxlType] = field(default_factory=dict)
    max_expansion: int = DEFAULT_MAX_EXPANSION

    @property
    def blocks(self) -> list[Block]:
        return [s for s in self.steps if isinstance(s, Block)]

    @property
    def dedups(self) -> list[Dedup]:
        return [s for s in self.steps if isinstance(s, Dedup)]

    @property
    def falls_back(self) -> bool:
        """Whether a row can produce no fan-out record (then it is written as itself)."""
        return not any(b.always for b in self.blocks)


def lower_program(text: str, scope: Scope, *, fanout: bool = False,
                  record: list[tuple[exp.Expression, T.CxlType]] | None = None,
                  max_expansion: int = DEFAULT_MAX_EXPANSION) -> LoweredProgram:
    """`fanout` enables `distinct` and `emit each` (transforms only); `record` lists the
    input record's fields a bare `distinct` keys on (default: the scope's columns)."""
    program = parse_program(text)
    out = LoweredProgram(max_expansion=max_expansion)
    scope = scope.child()
    lw = Lowerer(scope)
    fan = FanOut(scope.columns)
    order: dict[str, a.Stmt] = {}  # every emitted name (bodies included): its first emit
    depths: dict[int, tuple[exp.Expression, int]] = {}  # S.depth's memo, for the program
    for stmt in program.statements:
        guard = out.keep

        def add(faults: tuple[Fault, ...], field_name: str | None = None) -> None:
            for f in faults:
                _check_depth(f.cond, stmt, depths)
            _check_fault_size(faults, stmt, lw.sizes)
            for f in guard_all(faults, guard):
                ff = FieldFault(f, field_name)
                out.faults.append(ff)
                out.steps.append(ff)

        if isinstance(stmt, a.Let):
            v = lw.lower(stmt.value)
            _check_depth(v.sql, stmt, depths)
            add(v.faults)
            scope.lets[stmt.name] = Val(v.sql, v.type)
        elif isinstance(stmt, a.Emit):
            if stmt.scope is not None:
                raise error("CS001", f"emit ${stmt.scope}.{stmt.name} (scoped variables) is not "
                            "supported yet", stmt)
            v = lw.lower(stmt.value)
            _check_depth(v.sql, stmt, depths)
            add(v.faults, stmt.name)
            out.emits[stmt.name] = Val(v.sql, v.type)
            order.setdefault(stmt.name, stmt)
        elif isinstance(stmt, a.Filter):
            v = lw.lower(stmt.cond)
            if v.type.kind not in ("bool", "any", "null"):
                raise error("E200", f"filter needs a bool condition, found {v.type}", stmt)
            _check_depth(v.sql, stmt, depths)
            add(v.faults)
            out.keep = S.and_(out.keep, S.is_true(v.sql))
            out.steps.append(Gate(S.is_true(v.sql)))
        elif isinstance(stmt, a.ExprStmt):
            add(lw.lower(stmt.expr).faults)
        elif isinstance(stmt, a.Trace):
            continue  # logging only
        elif isinstance(stmt, a.Distinct):
            if not fanout:
                raise error("CS001", "distinct is only supported in a transform (Clinker "
                            "fails at run time on it here)", stmt)
            out.steps.append(_dedup(stmt, scope, fan, record))
        elif isinstance(stmt, a.EmitEach):
            if not fanout:
                raise error("CS001", "emit each is only supported in a transform (Clinker "
                            "fails at run time on it here)", stmt)
            r = fan.block(lw, stmt, dict(out.emits), set(scope.lets) | set(scope.columns))
            events = r.events if guard is None else S.case(
                [(guard, r.events)], events_array([]))
            out.steps.append(Block(events, r.leaves, r.always))
            for e in _emits(stmt.body):
                order.setdefault(e.name, e)
        elif isinstance(stmt, a.Use):
            raise error("CS001", MODULES.format(path=".".join(stmt.path)), stmt,
                        "compile the pipeline file that holds this program")
        else:  # pragma: no cover - parser produces nothing else
            raise CxlError("E202", "unexpected statement", stmt.pos.line, stmt.pos.col)
    out.columns = _columns(out, fan, order)
    for b in out.blocks:
        b.leaves = b.leaves_of(out.columns)
    return out


def _check_depth(sql: exp.Expression, stmt: a.Stmt,
                 memo: dict[int, tuple[exp.Expression, int]]) -> None:
    """A statement's SQL (its value, or a fault's condition) nests at most MAX_SQL_DEPTH
    levels."""
    if S.depth(sql, memo) > MAX_SQL_DEPTH:
        raise error(NESTING_CODE, f"expression nesting too deep: its SQL, with the `let`s it "
                    f"reads written out, nests more than {MAX_SQL_DEPTH} levels (the limit; "
                    "each operation adds a level, and so does each `let` it reads through)",
                    stmt, "compute part of the chain in an earlier transform")


def _check_fault_size(faults: tuple[Fault, ...], stmt: a.Stmt | a.Expr, memo: size.Memo) -> None:
    """The checks of a statement (the conditions under which it fails, with their
    messages) print to at most MAX_SQL_NODES nodes, as its value does (Lowerer.lower)."""
    total = 0
    for f in faults:
        for part in (f.cond, f.message, f.value):
            total += size.size(part, memo) if part is not None else 0
    if total > size.MAX_SQL_NODES:
        raise error(size.SIZE_CODE, f"expression too large: the checks of its operations "
                    f"(overflow, conversion) would hold more than {size.MAX_SQL_NODES} SQL "
                    "nodes (the limit); an operator that states its operand twice doubles "
                    "them at every level it is nested", stmt,
                    "compute part of it in an earlier transform, or nest it less deep")


def _emits(body: tuple[a.Stmt, ...]) -> list[a.Emit]:
    found: list[a.Emit] = []
    for s in body:
        if isinstance(s, a.Emit) and s.scope is None:
            found.append(s)
        elif isinstance(s, a.EmitEach):
            found += _emits(s.body)
    return found


def _columns(out: LoweredProgram, fan: FanOut,
             order: dict[str, a.Stmt]) -> dict[str, T.CxlType]:
    """Output columns in first-emit order, each with the one type its values share over
    every record the program can produce (Spark columns hold one type)."""
    if not out.blocks:
        return {n: v.type for n, v in out.emits.items()}
    sites = list(fan.sites) + ([out.emits] if out.falls_back else [])
    cols: dict[str, T.CxlType] = {}
    for name, first in order.items():
        t: T.CxlType | None = T.NULL
        for site in sites:
            st = fan.site_type(name, site)
            u = T.unify(t, st) if t is not None else None
            if u is None:
                raise error("CS001", f"column '{name}' would hold {t} in some records and "
                            f"{st} in others (emit each records, or rows that fan out to "
                            "nothing); a Spark column holds one type", first,
                            "emit a new column inside the block, or use `outer`")
            t = u
        cols[name] = t if t is not None else T.NULL
    return cols


def _dedup(stmt: a.Distinct, scope: Scope, fan: FanOut,
           record: list[tuple[exp.Expression, T.CxlType]] | None) -> Dedup:
    """Clinker's build_distinct_key: `distinct by n` reads the let `n`, else the input
    field `n`, else null; a bare `distinct` keys on every field of the input record."""
    if stmt.by is None:
        fields = record if record is not None else list(scope.columns.values())
    elif stmt.by in scope.lets:
        v = scope.lets[stmt.by]
        fields = [(v.sql, v.type)]
    elif stmt.by in fan.body_lets:
        raise error("CS001", f"distinct by '{stmt.by}' reads a let bound inside emit each, "
                    "whose value after the block is the last element's; not supported", stmt)
    elif stmt.by in scope.columns:
        fields = [scope.columns[stmt.by]]
    else:
        fields = [(S.null(), T.NULL)]  # Clinker reads a missing field as null
    parts: list[exp.Expression] = []
    bad: list[tuple[exp.Expression, str]] = []
    for sql, t in fields:
        if t.kind == "int":  # value_to_group_key widens Int to f64 (1 and 1.0 are one key)
            parts.append(S.cast(sql, "DOUBLE"))
        elif t.kind == "float":
            parts.append(S.case([(S.eq(sql, S.double(0.0)), S.double(0.0))], sql))  # -0.0
            bad.append((S.is_true(S.fn("isnan", sql)), "NaN"))
        elif t.kind in ("array", "map"):
            parts.append(S.null())
            bad.append((S.not_null(sql), t.kind))
        else:
            parts.append(sql)
    args: list[exp.Expression] = []
    for i, p in enumerate(parts):
        args += [S.string(f"k{i}"), p]
    key = S.fn("named_struct", *args) if args else S.boolean(True)
    fault = None
    if bad:
        cond = S.or_(*[c for c, _ in bad])
        message = S.case([(c, S.string(f"type mismatch: expected hashable value, got {k}"))
                          for c, k in bad])
        fault = Fault(cond, message)
    return Dedup(key, fault, stmt.pos)


def lower_condition(text: str, scope: Scope) -> Val:
    """A single boolean expression (route conditions)."""
    expr = parse_expression(text)
    lw = Lowerer(scope)
    v = lw.lower(expr)
    if v.type.kind not in ("bool", "any", "null"):
        raise error("E200", f"condition must be bool, found {v.type}", expr)
    _check_fault_size(v.faults, expr, lw.sizes)
    return v


__all__ = ["EVENT_TYPE", "Block", "Dedup", "FieldFault", "Gate", "LoweredProgram",
           "lower_condition", "lower_program"]
