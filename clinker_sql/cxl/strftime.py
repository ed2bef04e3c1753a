"""chrono strftime patterns -> Spark datetime patterns (spec §6.4)."""

from __future__ import annotations

from sqlglot import exp

from clinker_sql.codegen import sql as S
from clinker_sql.cxl import ast as a
from clinker_sql.cxl.lower import error

_SIMPLE = {"Y": "yyyy", "y": "yy", "m": "MM", "d": "dd", "H": "HH", "I": "hh", "M": "mm",
           "S": "ss", "p": "a", "b": "MMM", "h": "MMM", "B": "MMMM", "a": "EEE", "A": "EEEE",
           "j": "DDD", "F": "yyyy-MM-dd", "T": "HH:mm:ss", "D": "MM/dd/yy", "R": "HH:mm"}
_PARSE = dict(_SIMPLE, m="M", d="d", H="H", M="m", S="s")


def _tokens(fmt: str, node: a.Expr) -> list[tuple[str, str]]:
    """Split into ('lit', text) and ('spec', letter) pieces."""
    out: list[tuple[str, str]] = []
    i = 0
    while i < len(fmt):
        ch = fmt[i]
        if ch != "%":
            out.append(("lit", ch))
            i += 1
            continue
        if fmt.startswith("%.3f", i) or fmt.startswith("%.6f", i):
            out.append(("spec", fmt[i + 1:i + 4]))
            i += 4
            continue
        if i + 1 >= len(fmt):
            raise error("E200", "format ends with a lone '%'", node)
        out.append(("spec", fmt[i + 1]))
        i += 2
    return out


def _quote(text: str) -> str:
    return "'" + text.replace("'", "''") + "'" if text else ""


def java_pattern(fmt: str, node: a.Expr, parsing: bool = False) -> str:
    table = _PARSE if parsing else _SIMPLE
    parts: list[str] = []
    lit = ""
    for kind, value in _tokens(fmt, node):
        if kind == "lit" or value == "%":
            lit += "%" if kind == "spec" else value
            continue
        if value in (".3f", ".6f"):
            parts.append(_quote(lit) + (".SSS" if value == ".3f" else ".SSSSSS"))
        elif value in table:
            parts.append(_quote(lit) + table[value])
        else:
            raise error("CS001", f"strftime specifier %{value} is not supported", node)
        lit = ""
    parts.append(_quote(lit))
    return "".join(parts)


def format_expression(x: exp.Expression, fmt: str, node: a.Expr) -> exp.Expression:
    """date_format with the week-based specifiers Spark rejects built by hand."""
    pieces: list[exp.Expression] = []
    simple: list[tuple[str, str]] = []

    def flush() -> None:
        if simple:
            text = "".join(v if k == "lit" else "%" + v for k, v in simple)
            pattern = java_pattern(text, node)
            if pattern:
                pieces.append(S.fn("date_format", x, S.string(pattern)))
            simple.clear()

    for kind, value in _tokens(fmt, node):
        if kind == "spec" and value in ("V", "G", "u", "w", "e"):
            flush()
            if value == "V":
                pieces.append(S.fn("lpad", S.cast(S.fn("weekofyear", x), "STRING"),
                                   S.small_int(2), S.string("0")))
            elif value == "G":
                pieces.append(S.cast(exp.Extract(this=exp.var("YEAROFWEEK"), expression=x),
                                     "STRING"))
            elif value == "u":
                pieces.append(S.cast(exp.Add(this=exp.Mod(
                    this=exp.Paren(this=exp.Add(this=S.fn("dayofweek", x),
                                                expression=S.small_int(5))),
                    expression=S.small_int(7)), expression=S.small_int(1)), "STRING"))
            elif value == "w":
                pieces.append(S.cast(exp.Sub(this=S.fn("dayofweek", x),
                                             expression=S.small_int(1)), "STRING"))
            else:
                pieces.append(S.fn("lpad", S.cast(S.fn("dayofmonth", x), "STRING"),
                                   S.small_int(2), S.string(" ")))
        else:
            simple.append((kind, value))
    flush()
    if not pieces:
        return S.string("")
    return pieces[0] if len(pieces) == 1 else S.fn("concat", *pieces)
