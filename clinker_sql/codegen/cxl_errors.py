"""`$err`: a row's first CXL failure as the struct the DLQ views read
(category, detail `row N: [field 'F': ]message`, field, value)."""

from __future__ import annotations

from sqlglot import exp

from clinker_sql import sqlbuild as S
from clinker_sql.codegen.names import ERR, KEEP  # noqa: F401 - KEEP: re-exported
from clinker_sql.codegen.plan import SOURCE_ROW

ERR_TYPE = "STRUCT<category: STRING, detail: STRING, field: STRING, value: STRING>"


def no_error() -> exp.Expression:
    return S.cast(S.null(), ERR_TYPE)


def raised(err: exp.Expression | None) -> str:
    """The condition of a node's errors view: FALSE when no expression of the node can
    fail (`$err` is a null literal), which Spark prunes without reading its input (read
    from a checkpoint, a null column would otherwise be scanned)."""
    if err is not None and S.is_null_literal(err):
        return "FALSE"
    return f"{S.to_sql(S.col(ERR))} IS NOT NULL"


def fault_struct(category: exp.Expression, message: exp.Expression,
                 field: exp.Expression | None, value: exp.Expression | None,
                 field_prefix: exp.Expression | None = None) -> exp.Expression:
    """`field_prefix` is the `field 'F': ` part of the detail ('' or null-free text)."""
    prefix = [S.string("row "), S.cast(S.col(SOURCE_ROW), "STRING"), S.string(": ")]
    if field_prefix is not None:
        prefix.append(field_prefix)
    return S.fn("named_struct", S.string("category"), category,
                S.string("detail"), S.fn("concat", *prefix, message),
                S.string("field"), field if field is not None else S.cast(S.null(), "STRING"),
                S.string("value"), value if value is not None else S.cast(S.null(), "STRING"))


def error_struct(program, node: str) -> exp.Expression:
    """`$err`: the first failing operation, in statement order, as a struct."""
    whens = []
    for ff in program.faults:
        f = ff.fault
        whens.append((S.is_true(f.cond), fault_struct(
            S.string(f.category), f.message,
            S.string(ff.field) if ff.field else None, f.value,
            S.string(f"field '{ff.field}': ") if ff.field is not None else None)))
    if not whens:
        return no_error()
    return S.case(whens)


def event_struct(ev: exp.Expression) -> exp.Expression:
    """`$err` of a failure event (cxl/fanout.py: fields c, m, f, v)."""
    def part(name: str) -> exp.Expression:
        return exp.Dot(this=ev.copy(), expression=S.ident(name))
    prefix = S.case([(S.is_null(part("f")), S.string(""))],
                    S.fn("concat", S.string("field '"), part("f"), S.string("': ")))
    return fault_struct(part("c"), part("m"), part("f"), part("v"), prefix)
