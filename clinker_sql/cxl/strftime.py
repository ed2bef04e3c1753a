"""chrono strftime formats -> Spark (spec §6.4).

Formatting (`format_date`) builds the text piece by piece: numbers from
`year()`, `hour()`, ... padded the way chrono pads them, names through
`date_format`, literal text as string literals. Parsing (`to_date(f)`,
`to_datetime(f)`) translates to a Spark datetime pattern.
"""

from __future__ import annotations

from collections.abc import Callable

from sqlglot import exp

from clinker_sql import sqlbuild as S
from clinker_sql.cxl import ast as a
from clinker_sql.cxl.lower import error

# ---- parsing ----------------------------------------------------------------------------------
_PARSE = {"Y": "yyyy", "y": "yy", "m": "M", "d": "d", "H": "H", "I": "h", "M": "m", "S": "s",
          "p": "a", "b": "MMM", "h": "MMM", "B": "MMMM", "a": "EEE", "A": "EEEE", "j": "DDD",
          "F": "yyyy-M-d", "T": "H:m:s", "D": "M/d/yy", "R": "H:m"}

_DAY_SPECS = set("dejFDxvc")
_HOUR_SPECS = set("HIklTRXrc")
_MINUTE_SPECS = set("MTRXrc")


def _tokens(fmt: str, node: a.Expr) -> list[tuple[str, str, str]]:
    """Split into ('lit', text, '') and ('spec', name, padding-modifier) pieces."""
    out: list[tuple[str, str, str]] = []
    i = 0
    while i < len(fmt):
        ch = fmt[i]
        if ch != "%":
            out.append(("lit", ch, ""))
            i += 1
            continue
        j = i + 1
        pad = ""
        if j < len(fmt) and fmt[j] in "-_0":
            pad = fmt[j]
            j += 1
        for long in (".3f", ".6f", ".9f", ".f", "3f", "6f", "9f", ":::z", "::z", ":z", "#z"):
            if fmt.startswith(long, j):
                out.append(("spec", long, pad))
                i = j + len(long)
                break
        else:
            if j >= len(fmt):
                raise error("E200", "the format ends with a lone '%'", node)
            out.append(("spec", fmt[j], pad))
            i = j + 1
    return out


def _quote(text: str) -> str:
    return "'" + text.replace("'", "''") + "'" if text else ""


def java_pattern(fmt: str, node: a.Expr, parsing: bool = True) -> str:
    """A Spark parse pattern for a chrono format (literal text quoted)."""
    parts: list[str] = []
    lit = ""
    for kind, value, _pad in _tokens(fmt, node):
        if kind == "lit" or value in ("%", "n", "t"):
            lit += {"%": "%", "n": "\n", "t": "\t"}.get(value, value) if kind == "spec" \
                else value
            continue
        if value in (".3f", ".6f", ".9f"):
            parts.append(_quote(lit) + "." + "S" * min(int(value[1]), 6))
        elif value in _PARSE:
            parts.append(_quote(lit) + _PARSE[value])
        else:
            raise error("CS001", f"parsing with the strftime specifier %{value} cannot be "
                        "translated to Spark SQL", node)
        lit = ""
    parts.append(_quote(lit))
    return "".join(parts)


def parse_complete(fmt: str, node: a.Expr, kind: str) -> bool:
    """Whether chrono can build a full date (and time) from this format; if not,
    every parse fails (Spark would default the missing fields instead)."""
    specs = {v for k, v, _ in _tokens(fmt, node) if k == "spec"}
    has_day = bool(specs & _DAY_SPECS) or ("Y" in specs and "j" in specs)
    if kind == "date":
        return has_day
    return has_day and bool(specs & _HOUR_SPECS) and bool(specs & _MINUTE_SPECS)


# ---- formatting -------------------------------------------------------------------------------
def _num(spark: str) -> Callable[[exp.Expression], exp.Expression]:
    return lambda x: S.fn(spark, x)


def _hour12(x: exp.Expression) -> exp.Expression:
    return exp.Add(this=exp.Mod(this=exp.Paren(this=exp.Add(this=S.fn("hour", x),
                                                             expression=S.small_int(11))),
                                expression=S.small_int(12)), expression=S.small_int(1))


def _iso_weekday(x: exp.Expression) -> exp.Expression:  # Monday = 1 .. Sunday = 7
    return exp.Add(this=exp.Mod(this=exp.Paren(this=exp.Add(this=S.fn("dayofweek", x),
                                                             expression=S.small_int(5))),
                                expression=S.small_int(7)), expression=S.small_int(1))


def _week(x: exp.Expression, days_from_start: exp.Expression) -> exp.Expression:
    """chrono %U/%W: (ordinal - days since the week's first day + 6) / 7."""
    return exp.IntDiv(this=exp.Paren(this=exp.Add(this=exp.Sub(
        this=S.fn("dayofyear", x), expression=days_from_start), expression=S.small_int(6))),
        expression=S.small_int(7))


def _epoch_seconds(x: exp.Expression) -> exp.Expression:
    days = S.fn("datediff", S.cast(x, "DATE"), S.cast(S.string("1970-01-01"), "DATE"))
    secs = exp.Add(this=exp.Add(this=exp.Mul(this=S.fn("hour", x), expression=S.small_int(3600)),
                                expression=exp.Mul(this=S.fn("minute", x),
                                                   expression=S.small_int(60))),
                   expression=S.fn("second", x))
    return exp.Add(this=exp.Mul(this=S.cast(days, "BIGINT"), expression=S.small_int(86400)),
                   expression=secs)


# spec -> (value, width, default padding, needs a time of day)
_NUMERIC: dict[str, tuple[Callable[[exp.Expression], exp.Expression], int, str, bool]] = {
    "Y": (_num("year"), 4, "0", False),
    "C": (lambda x: exp.IntDiv(this=S.fn("year", x), expression=S.small_int(100)), 2, "0",
          False),
    "y": (lambda x: S.fn("pmod", S.fn("year", x), S.small_int(100)), 2, "0", False),
    "m": (_num("month"), 2, "0", False),
    "d": (_num("dayofmonth"), 2, "0", False),
    "e": (_num("dayofmonth"), 2, " ", False),
    "H": (_num("hour"), 2, "0", True),
    "k": (_num("hour"), 2, " ", True),
    "I": (_hour12, 2, "0", True),
    "l": (_hour12, 2, " ", True),
    "M": (_num("minute"), 2, "0", True),
    "S": (_num("second"), 2, "0", True),
    "j": (_num("dayofyear"), 3, "0", False),
    "G": (lambda x: exp.Extract(this=exp.var("YEAROFWEEK"), expression=x), 4, "0", False),
    "g": (lambda x: S.fn("pmod", exp.Extract(this=exp.var("YEAROFWEEK"), expression=x),
                         S.small_int(100)), 2, "0", False),
    "V": (_num("weekofyear"), 2, "0", False),
    "u": (_iso_weekday, 1, "0", False),
    "w": (lambda x: exp.Sub(this=S.fn("dayofweek", x), expression=S.small_int(1)), 1, "0",
          False),
    "U": (lambda x: _week(x, exp.Sub(this=S.fn("dayofweek", x), expression=S.small_int(1))),
          2, "0", False),
    "W": (lambda x: _week(x, exp.Sub(this=_iso_weekday(x), expression=S.small_int(1))), 2, "0",
          False),
    "q": (_num("quarter"), 1, "0", False),
    "s": (_epoch_seconds, 1, "0", True),
}
_NAMES = {"a": ("EEE", False), "A": ("EEEE", False), "b": ("MMM", False), "h": ("MMM", False),
          "B": ("MMMM", False), "p": ("a", True), "P": ("a", True)}
_COMPOSITE = {"D": "%m/%d/%y", "x": "%m/%d/%y", "F": "%Y-%m-%d", "v": "%e-%b-%Y",
              "R": "%H:%M", "T": "%H:%M:%S", "X": "%H:%M:%S", "r": "%I:%M:%S %p",
              "c": "%a %b %e %H:%M:%S %Y"}
_FRACTIONS = {".3f", ".6f", ".9f", ".f", "3f", "6f", "9f", "f"}
_LITERALS = {"%": "%", "n": "\n", "t": "\t"}
_OFFSETS = {"z", "Z", ":z", "::z", ":::z", "#z", "+"}


def _padded(v: exp.Expression, width: int, pad: str) -> exp.Expression:
    text = S.cast(v, "STRING")
    if pad == "" or width <= 1:
        return text
    return S.case([(exp.GTE(this=S.fn("char_length", text), expression=S.small_int(width)),
                    text)], S.fn("lpad", text, S.small_int(width), S.string(pad)))


def _fraction(x: exp.Expression, spec: str) -> exp.Expression:
    micros = S.fn("date_format", x, S.string("SSSSSS"))  # Spark keeps microseconds
    digits = {"3": S.fn("substring", micros, S.small_int(1), S.small_int(3)), "6": micros,
              "9": S.fn("concat", micros, S.string("000"))}
    if spec == "f":
        return digits["9"]
    if spec == ".f":
        return S.case([(S.eq(micros, S.string("000000")), S.string("")),
                       (S.eq(S.fn("substring", micros, S.small_int(4), S.small_int(3)),
                             S.string("000")), S.fn("concat", S.string("."), digits["3"]))],
                      S.fn("concat", S.string("."), micros))
    body = digits[spec[-2]]
    return S.fn("concat", S.string("."), body) if spec.startswith(".") else body


def format_expression(x: exp.Expression, fmt: str, node: a.Expr,
                      has_time: bool = True) -> exp.Expression:
    pieces: list[exp.Expression] = []
    text = ""

    def emit(piece: exp.Expression) -> None:
        nonlocal text
        if text:
            pieces.append(S.string(text))
            text = ""
        pieces.append(piece)

    def no_time(spec: str) -> None:
        raise error("E200", f"format_date: %{spec} needs a time of day, but the value is a "
                    "date", node, "convert with .to_datetime() or drop the time fields")

    def walk(f: str) -> None:
        nonlocal text
        for kind, spec, pad in _tokens(f, node):
            if kind == "lit":
                text += spec
            elif spec in _LITERALS:
                text += _LITERALS[spec]
            elif spec in _COMPOSITE:
                walk(_COMPOSITE[spec])
            elif spec in _NUMERIC:
                value, width, default, needs_time = _NUMERIC[spec]
                if needs_time and not has_time:
                    no_time(spec)
                padding = {"-": "", "_": " ", "0": "0"}.get(pad, default)
                emit(_padded(value(x), width, padding))
            elif spec in _NAMES:
                pattern, needs_time = _NAMES[spec]
                if needs_time and not has_time:
                    no_time(spec)
                name = S.fn("date_format", x, S.string(pattern))
                emit(S.fn("lower", name) if spec == "P" else name)
            elif spec in _FRACTIONS:
                if not has_time:
                    no_time(spec)
                emit(_fraction(x, spec))
            elif spec in _OFFSETS:
                raise error("E200", f"format_date: %{spec} needs a time zone, but CXL dates "
                            "and datetimes have none", node)
            else:
                raise error("E200", f"format_date: %{spec} is not a valid chrono format "
                            "specifier", node)

    walk(fmt)
    if text or not pieces:
        pieces.append(S.string(text))
    return pieces[0] if len(pieces) == 1 else S.fn("concat", *pieces)
