"""`--var name=value`: a value for a var of `pipeline.vars` given on the command line,
which replaces the var's default for that command, as dbt's `--vars` replaces a project
var. The text is read as the var's declared type, so `--var limit=10` is the int 10 for
an int var and the string "10" for a string var; a name the pipeline does not declare is
refused, since a CXL program can only read declared vars."""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import replace
from datetime import datetime

from clinker_sql.config import model as m
from clinker_sql.diagnostics import fail

CODE = "CS134"
_ISO = {"date": re.compile(r"\d{4}-\d{2}-\d{2}"),
        "datetime": re.compile(r"\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}:\d{2}(\.\d{1,9})?")}


def apply_var_overrides(pipeline: m.Pipeline, items: Sequence[str]) -> m.Pipeline:
    """`pipeline` with the defaults of the vars named in `items` (each `name=value`, the
    last one winning) replaced."""
    if not items:
        return pipeline
    declared = {v.name: v for v in pipeline.vars}
    values: dict[str, object] = {}
    for item in items:
        name, sep, text = item.partition("=")
        name = name.strip()
        if not sep or not name:
            raise fail(CODE, f"--var {item!r}: write name=value")
        var = declared.get(name)
        if var is None:
            known = ", ".join(sorted(declared)) or "none"
            raise fail(CODE, f"--var {name}: pipeline.vars declares no var {name!r} "
                       f"(declared: {known})")
        values[name] = _typed(var, text)
    return replace(pipeline, vars=tuple(
        replace(v, default=values[v.name]) if v.name in values else v
        for v in pipeline.vars))


def _typed(var: m.VarDecl, text: str) -> object:
    """`text` as a value of the var's type (the shapes a YAML default of that type
    takes, config/parse.py::_var_default)."""
    bad = fail(CODE, f"--var {var.name}={text}: not a value of the declared type "
               f"{var.type}", var.loc,
               "write e.g. 2024-01-31 for a date, 2024-01-31T08:00:00 for a datetime"
               if var.type in _ISO else f"give a value of type {var.type}")
    if var.type == "string":
        return text
    if var.type == "int":
        try:
            value = int(text.strip())
        except ValueError:
            raise bad from None
        if not -2**63 <= value < 2**63:
            raise bad
        return value
    if var.type == "float":
        try:
            number = float(text.strip())
        except ValueError:
            raise bad from None
        if not math.isfinite(number):
            raise bad
        return number
    if var.type == "bool":
        if text.strip() not in ("true", "false"):
            raise bad
        return text.strip() == "true"
    text = text.strip()
    if not _ISO[var.type].fullmatch(text):
        raise bad
    try:
        datetime.fromisoformat(text)
    except ValueError:
        raise bad from None
    return text
