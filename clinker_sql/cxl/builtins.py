"""CXL builtin methods -> Spark SQL (spec §5-§6).

The registry lives in `registry.py`; the families register themselves from
`builtins_strings`, `builtins_numbers`, `builtins_conv` and
`builtins_collections`. `lower_method` type-checks a call the way Clinker's
typecheck does (`check_method_signature` in typecheck/pass.rs) and lowers it.
Anything that cannot be expressed in Spark is refused with a CS001 diagnostic
that names it; it is never silently mistranslated.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from clinker_sql import sqlbuild as S
from clinker_sql.cxl import ast as a
from clinker_sql.cxl import builtins_collections  # noqa: F401 - registers methods
from clinker_sql.cxl import builtins_conv  # noqa: F401
from clinker_sql.cxl import builtins_numbers  # noqa: F401
from clinker_sql.cxl import builtins_strings  # noqa: F401
from clinker_sql.cxl import json_values
from clinker_sql.cxl import types as T
from clinker_sql.cxl.lower import Val, error, guard_all
from clinker_sql.cxl.registry import METHODS, Builtin, Call

if TYPE_CHECKING:
    from clinker_sql.cxl.lower import Lowerer

# Every builtin of Clinker's registry is translated; these translate only in
# some forms and refuse the rest with a CS001 diagnostic (docs/cxl-coverage.md).
KNOWN_UNSUPPORTED: dict[str, str] = {
    "set": "a literal path with `.` or `[n]`, or a non-literal key",
    "unset": "a literal path with `.` or `[n]`, or a non-literal key",
    "to_decimal": "a Float or non-literal String receiver (the scale varies per value)",
    "try_decimal": "a Float or non-literal String receiver (the scale varies per value)",
    "format_date": "a non-literal format",
    "capture": "a group that can match the empty string and may also not take part",
    "round": "a Decimal receiver with a non-literal number of places",
    "round_to": "a Decimal receiver with a non-literal number of places",
}

CLOSURE_METHODS = ("filter", "map", "find", "any", "flat_map")

_TAG_NAMES = {"string": "String", "int": "Int", "float": "Float", "numeric": "Numeric",
              "date": "Date", "map": "Map", "array": "Array", "any": "Any", "bool": "Bool"}


def _receiver_ok(b: Builtin, kind: str) -> bool:
    return "*" in b.receivers or kind in ("null", "any") or kind in b.receivers


def _arg_ok(tag: str, kind: str) -> bool:
    """Clinker's `arg_compatible`: unification, plus Decimal for Numeric."""
    if tag == "any" or kind in ("any", "null"):
        return True
    if tag == "int":
        return kind in ("int", "float", "decimal")
    if tag == "float":
        return kind in ("int", "float", "decimal")
    if tag == "numeric":
        return kind in ("int", "float", "decimal")
    return tag == kind


def lower_method(lw: Lowerer, e: a.MethodCall) -> Val:
    b = METHODS.get(e.method)
    if b is None:
        raise error("E203", f"unknown method {e.method}()", e,
                    "see docs/cxl-coverage.md for the builtin methods")
    recv = lw.lower(e.receiver)
    if recv.type.kind == "json":  # a JSON value: as the array or object it holds
        from clinker_sql.cxl.containers import as_array, as_map

        if e.method in CLOSURE_METHODS or ("array" in b.receivers and "map" not in b.receivers):
            recv = as_array(recv)
        elif "map" in b.receivers and "array" not in b.receivers:
            recv = as_map(recv)
        elif set(b.receivers) <= {"string", "int", "float", "decimal"}:  # a scalar's method
            t = T.STRING if "string" in b.receivers else T.FLOAT
            recv = Val(json_values.as_scalar(recv.sql, t), t, recv.faults)
        elif "*" not in b.receivers:
            raise error("CS001", f"method '{e.method}' on a JSON value of dynamic shape (an "
                        "`any` field of a JSON source) is not supported: it applies to both "
                        "arrays and maps, and the value's shape is known only at run time",
                        e)
    if not _receiver_ok(b, recv.type.kind):
        raise error("E200", f"method '{e.method}' is not defined for {recv.type} values", e,
                    f"it applies to: {', '.join(b.receivers)}")
    n = len(e.args)
    if n < b.min_args or (b.max_args is not None and n > b.max_args):
        if b.max_args == b.min_args:
            want = str(b.min_args)
        elif b.max_args is None:
            want = f"at least {b.min_args}"
        else:
            want = f"between {b.min_args} and {b.max_args}"
        raise error("E200", f"method '{e.method}' takes {want} argument(s), but got {n}", e)
    if e.method in CLOSURE_METHODS and e.args and isinstance(e.args[0], a.Lambda):
        from clinker_sql.cxl.builtins_collections import lower_closure

        if recv.type.kind not in ("array", "null", "any"):
            raise error("E200", f"method '{e.method}' with a closure needs an Array receiver, "
                        f"got {recv.type}", e)
        return lower_closure(lw, e, recv, e.args[0])
    if b.closure:
        raise error("E200", f"{e.method}() needs a closure argument `it => ...`", e)
    args: list[Val] = []
    for i, node in enumerate(e.args):
        v = lw.lower(node)  # a stray closure raises E200 here
        tag = b.args[min(i, len(b.args) - 1)] if b.args else "any"
        if not _arg_ok(tag, v.type.kind):
            raise error("E200", f"argument {i + 1} of '{e.method}' expects "
                        f"{_TAG_NAMES.get(tag, tag)}, but got {v.type}", node)
        args.append(v)
    out = b.handler(Call(e, recv, args, lw))
    # Arguments are evaluated eagerly, even for a null receiver (spec §3.2); the
    # method's own checks only run on a non-null receiver.
    faults = recv.faults + tuple(f for v in args for f in v.faults) + \
        guard_all(out.faults, S.not_null(recv.sql))
    return Val(out.sql, out.type, faults)
