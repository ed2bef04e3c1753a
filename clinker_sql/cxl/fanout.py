"""`emit each` / `emit each ... outer` (spec §2.1), as Clinker's `run_fan_out` runs it
(crates/cxl/src/eval/compiled.rs).

A block is lowered, per input row, to two arrays:

* its **records** (`leaves`): one struct per record it produces, in production order,
  with a field for every column the program emits. A record is the fields emitted before
  the block overlaid by the body's emits; columns not emitted on its path keep the input
  value (or null for a new column).
* its **events**, in evaluation order: a `start` marker before each element of a body that
  produces one record (Clinker checks `max_expansion` there, before running the body), and
  the first failing check of every statement (null when it does not fail). Folding the
  events of a row with a record counter gives its first failure, interleaving body faults
  and the `expansion_limit_exceeded` check exactly as Clinker evaluates them
  (`codegen/steps.py`).

Clinker details kept here:

* A plain block over null or `[]` produces nothing; `outer` runs the body once with the
  binding null. A nested block that produces nothing contributes nothing.
* `filter` / `distinct` in a body fail at run time with a type mismatch (when reached).
* `trace` and `use` in a body are no-ops.
* Body emits do not leak out of the block; the binding is restored after it. A body
  `let` stays in Clinker's environment after the block and across elements, which only
  matters when it rebinds a name that is visible at the block; that is refused (CS001).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from sqlglot import exp

from clinker_sql import sqlbuild as S
from clinker_sql.cxl import ast as a
from clinker_sql.cxl import types as T
from clinker_sql.cxl.containers import as_array
from clinker_sql.cxl.lower import Fault, Lowerer, Val, error, fault_value
from clinker_sql.cxl.registry import lam, typed_null

EVENT_TYPE = "STRUCT<s: BOOLEAN, c: STRING, m: STRING, f: STRING, v: STRING>"
BODY_FILTER = ("type mismatch: expected let / emit / trace / nested emit each inside emit each "
               "body, got filter / distinct")
EXPANSION = "expansion_limit_exceeded"

# A function from the program's output columns (name -> unified type) to an array of
# record structs.
Leaves = Callable[[dict[str, T.CxlType]], exp.Expression]


def event(start: bool, category: exp.Expression | None = None,
          message: exp.Expression | None = None, field_name: str | None = None,
          value: exp.Expression | None = None) -> exp.Expression:
    def text(e: exp.Expression | None) -> exp.Expression:
        return e if e is not None else S.cast(S.null(), "STRING")
    return S.fn("named_struct", S.string("s"), S.boolean(start), S.string("c"), text(category),
                S.string("m"), text(message), S.string("f"),
                text(S.string(field_name) if field_name is not None else None),
                S.string("v"), text(value))


def fault_events(faults: tuple[Fault, ...], field_name: str | None) -> exp.Expression | None:
    """One event: the first of `faults` that fails, or null."""
    if not faults:
        return None
    return S.case([(S.is_true(f.cond), event(False, S.string(f.category), f.message, field_name,
                                             fault_value(f.value) if f.value is not None
                                             else None))
                   for f in faults])


def events_array(parts: list[exp.Expression]) -> exp.Expression:
    """Concatenate arrays of events (never null)."""
    if not parts:
        return S.cast(S.fn("array"), f"ARRAY<{EVENT_TYPE}>")
    return parts[0] if len(parts) == 1 else S.fn("concat", *parts)


@dataclass
class Lowered:
    events: exp.Expression  # ARRAY<EVENT>
    leaves: Leaves
    always: bool  # produces at least one record for every row that reaches it


@dataclass
class FanOut:
    """The emit each blocks of one program."""

    columns: dict[str, tuple[exp.Expression, T.CxlType]]  # the input record's fields
    sites: list[dict[str, Val]] = field(default_factory=list)  # emits of each record site
    body_lets: set[str] = field(default_factory=set)  # names bound by a let in some body

    def block(self, lw: Lowerer, stmt: a.EmitEach, emits: dict[str, Val],
              visible: set[str]) -> Lowered:
        src = as_array(lw.lower(stmt.source))
        kinds = ("array", "any", "null") if stmt.outer else ("array", "any")
        if src.type.kind not in kinds:
            what = "an Array, Null, or Any source" if stmt.outer else "an Array source"
            raise error("E200", f"emit each{' ... outer' if stmt.outer else ''} requires "
                        f"{what}, got {src.type}", stmt.source)
        elem = src.type.elem if src.type.kind == "array" and src.type.elem else T.NULL
        arr_type = f"ARRAY<{T.spark_type_sql(elem)}>"
        source = S.cast(src.sql, arr_type) if src.type.kind != "array" else src.sql
        if stmt.outer:
            empty = S.or_(S.is_null(source), S.eq(S.fn("size", source), S.small_int(0)))
            elements = S.case([(empty, S.fn("array", typed_null(elem)))], source)
        else:
            elements = S.fn("coalesce", source, S.cast(S.fn("array"), arr_type))
        var = lw.fresh("e")
        inner = lw.nested({stmt.binding: Val(S.col(var), elem)})
        body_emits = dict(emits)
        fans = any(isinstance(s, a.EmitEach) for s in stmt.body)
        parts: list[exp.Expression] = [] if fans else [S.fn("array", event(True))]
        nested: list[Lowered] = []
        seen = visible | {stmt.binding}

        def add(faults: tuple[Fault, ...], field_name: str | None = None) -> None:
            e = fault_events(faults, field_name)
            if e is not None:
                parts.append(S.fn("array", e))

        for s in stmt.body:
            if isinstance(s, a.Let):
                if s.name in visible and s.name != stmt.binding:
                    raise error("CS001", f"a `let {s.name}` inside `emit each` rebinds a name "
                                "visible outside the block; Clinker keeps that binding after "
                                "the block and across elements, which is not supported",
                                s, "use a new name for the let")
                v = inner.lower(s.value)
                add(v.faults)
                inner.scope.lets[s.name] = Val(v.sql, v.type)
                self.body_lets.add(s.name)
                seen.add(s.name)
            elif isinstance(s, a.Emit):
                if s.scope is not None:
                    raise error("CS001", f"emit ${s.scope}.{s.name} (scoped variables) is not "
                                "supported yet", s)
                v = inner.lower(s.value)
                add(v.faults, s.name)
                body_emits[s.name] = Val(v.sql, v.type)
            elif isinstance(s, a.ExprStmt):
                add(inner.lower(s.expr).faults)
            elif isinstance(s, (a.Filter, a.Distinct)):
                if isinstance(s, a.Filter):
                    cond = inner.lower(s.cond)  # type-checked as in Clinker, never evaluated
                    if cond.type.kind not in ("bool", "any", "null"):
                        raise error("E200", f"filter needs a bool condition, found "
                                    f"{cond.type}", s)
                parts.append(S.fn("array", event(False, S.string("type_coercion_failure"),
                                                 S.string(BODY_FILTER))))
            elif isinstance(s, a.EmitEach):
                r = self.block(inner, s, body_emits, seen)
                parts.append(r.events)
                nested.append(r)
            elif isinstance(s, a.Use):
                raise error("CS001", "modules (`use`) are not supported", s)
            # trace: a no-op inside emit each (its guard and message are not evaluated)
        events = S.fn("flatten", S.fn("transform", elements, lam(events_array(parts), var)))
        if fans:
            def leaves(cols: dict[str, T.CxlType]) -> exp.Expression:
                per = [n.leaves(cols) for n in nested]
                body = per[0] if len(per) == 1 else S.fn("concat", *per)
                return S.fn("flatten", S.fn("transform", elements, lam(body, var)))
            always = stmt.outer and any(n.always for n in nested)
        else:
            self.sites.append(body_emits)

            def leaves(cols: dict[str, T.CxlType]) -> exp.Expression:
                return S.fn("transform", elements, lam(self.record(cols, body_emits), var))
            always = stmt.outer
        return Lowered(events, leaves, always)

    def record(self, cols: dict[str, T.CxlType], emits: dict[str, Val]) -> exp.Expression:
        """One produced record: a struct with a field per output column."""
        args: list[exp.Expression] = []
        for i, (name, t) in enumerate(cols.items()):
            args += [S.string(f"f{i}"), S.cast(self.value(name, emits), T.spark_type_sql(t))]
        return S.fn("named_struct", *args)

    def value(self, name: str, emits: dict[str, Val]) -> exp.Expression:
        if name in emits:
            return emits[name].sql
        if name in self.columns:
            return self.columns[name][0]
        return S.null()

    def site_type(self, name: str, emits: dict[str, Val]) -> T.CxlType:
        if name in emits:
            return emits[name].type
        return self.columns[name][1] if name in self.columns else T.NULL
