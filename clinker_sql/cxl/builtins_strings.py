"""String, regex and path builtins (spec §6.1-§6.2, builtins_impl.rs)."""

from __future__ import annotations

from sqlglot import exp

from clinker_sql import sqlbuild as S
from clinker_sql.cxl import types as T
from clinker_sql.cxl.lower import Fault, Val
from clinker_sql.cxl.registry import (ANY, STR, Call, gt, int_arg, lam, method, share, simple,
                                      to_int32, typed_null)
from clinker_sql.cxl.text import to_text

simple("upper", STR, "upper", T.STRING)
simple("lower", STR, "lower", T.STRING)
simple("reverse", STR, "reverse", T.STRING)
simple("starts_with", STR, "startswith", T.BOOL, ("string",))
simple("ends_with", STR, "endswith", T.BOOL, ("string",))
simple("contains", STR, "contains", T.BOOL, ("string",))

_MAX_STRING = 10 * 1024 * 1024


def _regexp_replace(x: exp.Expression, pattern: str) -> exp.Expression:
    return S.fn("regexp_replace", x, S.string(pattern), S.string(""))


# Rust trims Unicode White_Space; Spark's trim only strips ASCII spaces.
@method("trim", STR)
def _trim(c: Call) -> Val:
    return Val(_regexp_replace(c.recv.sql, r"(?U)^\s+|\s+$"), T.STRING)


@method("trim_start", STR)
def _trim_start(c: Call) -> Val:
    return Val(_regexp_replace(c.recv.sql, r"(?U)^\s+"), T.STRING)


@method("trim_end", STR)
def _trim_end(c: Call) -> Val:
    return Val(_regexp_replace(c.recv.sql, r"(?U)\s+$"), T.STRING)


@method("length", ("string", "array"))
def _length(c: Call) -> Val:
    if c.recv.type.kind == "array":
        return Val(S.cast(S.fn("size", c.recv.sql), "BIGINT"), T.INT)
    if c.recv.type.kind == "string":
        return Val(S.cast(S.fn("char_length", c.recv.sql), "BIGINT"), T.INT)
    return Val(typed_null(T.INT), T.INT)


@method("replace", STR, ("string", "string"))
def _replace(c: Call) -> Val:
    f, to = c.arg(0), c.arg(1)

    def build(r: exp.Expression) -> exp.Expression:
        # Rust: an empty pattern inserts the replacement around every character.
        around = S.case([(S.eq(r, S.string("")), to)],
                        S.fn("concat", to, S.fn("array_join", S.fn("split", r, S.string("")),
                                                to), to))
        return S.case([(S.eq(f, S.string("")), around)], S.fn("replace", r, f, to))
    return Val(share(c.lowerer, c.recv.sql, build), T.STRING)


@method("substring", STR, ("int", "int"), min_args=1)
def _substring(c: Call) -> Val:
    # 0-based; a negative or missing start is 0; a negative or missing length
    # means "to the end".
    start = S.fn("coalesce", S.fn("greatest", int_arg(c.args[0]), S.bigint(0)), S.bigint(0))
    pos = S.cast(exp.Add(this=S.fn("least", start, S.bigint(2**31 - 2)),
                         expression=S.small_int(1)), "INT")
    to_end = S.fn("substring", c.recv.sql, pos)
    if len(c.args) == 1:
        return Val(to_end, T.STRING)
    n = int_arg(c.args[1])
    return Val(S.case([(S.is_true(exp.GTE(this=n, expression=S.bigint(0))),
                        S.fn("substring", c.recv.sql, pos, to_int32(n)))], to_end), T.STRING)


def _left_right(c: Call, spark: str) -> Val:
    n = int_arg(c.args[0])
    value = S.case([(S.is_true(exp.GTE(this=n, expression=S.bigint(0))),
                     S.fn(spark, c.recv.sql, to_int32(n)))])
    return Val(value, T.STRING)


method("left", STR, ("int",))(lambda c: _left_right(c, "left"))
method("right", STR, ("int",))(lambda c: _left_right(c, "right"))


def _too_large(total: exp.Expression) -> Fault:
    return Fault(S.is_true(gt(total, S.bigint(_MAX_STRING))),
                 S.fn("concat", S.string("string output exceeds maximum size ("),
                      S.cast(total, "STRING"), S.string(f" bytes, limit {_MAX_STRING})")))


def _pad(c: Call, spark: str) -> Val:
    w = int_arg(c.args[0])
    fill: exp.Expression = S.string(" ")
    if len(c.args) == 2 and c.kind(1) == "string":
        # The first character of the fill; an empty or null fill is a space.
        fill = S.fn("coalesce", S.fn("nullif", S.fn("substring", c.arg(1), S.small_int(1),
                                                     S.small_int(1)), S.string("")),
                    S.string(" "))

    def parts(s: exp.Expression) -> tuple[exp.Expression, exp.Expression]:
        chars = S.cast(S.fn("char_length", s), "BIGINT")
        # Clinker's size check: pad count + the receiver's UTF-8 bytes.
        total = exp.Add(this=exp.Sub(this=w, expression=chars),
                        expression=S.cast(S.fn("octet_length", s), "BIGINT"))
        return chars, total

    def build(s: exp.Expression) -> exp.Expression:
        chars, total = parts(s)
        return S.case([(S.not_(S.is_true(exp.GTE(this=w, expression=S.bigint(0)))), S.null()),
                       (exp.LTE(this=w, expression=chars), s),
                       (gt(total, S.bigint(_MAX_STRING)), S.null())],
                      S.fn(spark, s, S.cast(w, "INT"), fill))
    chars, total = parts(c.recv.sql)
    fault = _too_large(S.case([(S.is_true(gt(w, chars)), total)]))
    return Val(share(c.lowerer, c.recv.sql, build), T.STRING, (fault,))


method("pad_left", STR, ("int", "string"), min_args=1)(lambda c: _pad(c, "lpad"))
method("pad_right", STR, ("int", "string"), min_args=1)(lambda c: _pad(c, "rpad"))


@method("repeat", STR, ("int",))
def _repeat(c: Call) -> Val:
    n = int_arg(c.args[0])
    total = S.fn("coalesce", S.fn("try_multiply", S.cast(S.fn("octet_length", c.recv.sql),
                                                          "BIGINT"), n),
                 S.bigint(S.INT64_MAX))
    value = S.case([(S.not_(S.is_true(exp.GTE(this=n, expression=S.bigint(0)))), S.null()),
                    (gt(total, S.bigint(_MAX_STRING)), S.null())],
                   S.fn("repeat", c.recv.sql, to_int32(n)))
    fault = _too_large(S.case([(S.is_true(exp.GTE(this=n, expression=S.bigint(0))), total)]))
    return Val(value, T.STRING, (fault,))


def _quote_regex(d: exp.Expression) -> exp.Expression:
    """A Java regex matching `d` literally."""
    if isinstance(d, exp.Literal) and d.is_string:
        text = d.this
        return S.string("\\Q" + text.replace("\\E", "\\E\\\\E\\Q") + "\\E")
    return S.fn("concat", S.string("\\Q"), S.fn("replace", d, S.string("\\E"),
                                                   S.string("\\E\\\\E\\Q")), S.string("\\E"))


@method("split", STR, ("string",))
def _split(c: Call) -> Val:
    d = c.arg(0)

    def build(s: exp.Expression) -> exp.Expression:
        # Rust: splitting on "" yields ["", each character..., ""].
        chars = S.case([(S.eq(s, S.string("")), S.fn("array", S.string(""), S.string("")))],
                       S.fn("concat", S.fn("array", S.string("")), S.fn("split", s, S.string("")),
                            S.fn("array", S.string(""))))
        return S.case([(S.eq(d, S.string("")), chars)],
                      S.fn("split", s, _quote_regex(d), S.small_int(-1)))
    return Val(share(c.lowerer, c.recv.sql, build), T.array_of(T.STRING))


@method("join", ("string", "array"), ("string",))
def _join(c: Call) -> Val:
    if c.recv.type.kind != "array":
        return Val(typed_null(T.STRING), T.STRING)  # a String receiver gives null
    elem = c.recv.type.elem or T.NULL
    x = c.lowerer.fresh("x")
    strings = S.fn("transform", c.recv.sql, lam(to_text(S.col(x), elem), x))
    return Val(S.fn("array_join", strings, c.arg(0), S.string("")), T.STRING)


@method("concat", STR, ("string",), max_args=None)
def _concat(c: Call) -> Val:
    parts = [c.recv.sql] + [to_text(v.sql, v.type) for v in c.args]
    return Val(c.when_recv(S.fn("concat_ws", S.string(""), *parts)), T.STRING)


@method("format", ANY, ("string",))
def _format(c: Call) -> Val:
    return Val(to_text(c.recv.sql, c.recv.type), T.STRING)


# ---- regex ----------------------------------------------------------------------------------
def _pattern(c: Call) -> str | None:
    """The translated pattern, or None when it is not a literal (the method then
    returns null at run time, as in Clinker)."""
    from clinker_sql.cxl.regex import java_regex

    lit = c.literal(0)
    if lit is None or lit.kind != "string":
        return None
    return java_regex(lit.value, c.node.args[0])


@method("matches", STR, ("string",))
def _matches(c: Call) -> Val:
    pattern = _pattern(c)
    if pattern is None or c.recv.type.kind != "string":
        return Val(typed_null(T.BOOL), T.BOOL)
    return Val(exp.RegexpLike(this=c.recv.sql, expression=S.string(pattern)), T.BOOL)


@method("find", ("string", "array"), ("string",))
def _find(c: Call) -> Val:
    return _matches(c)  # `xs.find(it => ...)` is lowered as a closure


@method("capture", STR, ("string", "int"), min_args=1)
def _capture(c: Call) -> Val:
    from clinker_sql.cxl.regex import group_info

    pattern = _pattern(c)
    if pattern is None:
        return Val(typed_null(T.STRING), T.STRING)
    source = c.literal(0).value  # type: ignore[union-attr]
    groups = group_info(source)
    lit = c.literal(1) if len(c.args) == 2 else None
    if len(c.args) == 1:
        candidates: list[int] = [0]
        group_sql = None
    elif lit is not None and lit.kind in ("int", "float"):
        candidates = [max(int(lit.value), 0)]
        group_sql = None
    else:
        candidates = list(range(len(groups)))
        # as_usize: a negative or non-number group is 0
        g = int_arg(c.args[1])
        group_sql = S.case([(S.is_true(exp.GTE(this=g, expression=S.bigint(0))), g)],
                           S.bigint(0))

    def extract(s: exp.Expression, g: int) -> exp.Expression:
        if g >= len(groups):
            return typed_null(T.STRING)
        can_be_empty, optional = groups[g]
        hit = S.is_true(exp.RegexpLike(this=s, expression=S.string(pattern)))
        got = S.fn("regexp_extract", s, S.string(pattern), S.small_int(g))
        if can_be_empty and optional:
            from clinker_sql.cxl.lower import error

            raise error("CS001", f"capture group {g} of this pattern can match an empty string "
                        "and can also not take part in the match; Spark cannot tell the two "
                        "apart", c.node.args[0])
        return S.case([(hit, got if not optional else S.fn("nullif", got, S.string("")))])

    def build(s: exp.Expression) -> exp.Expression:
        if group_sql is None:
            return extract(s, candidates[0])
        return S.case([(S.eq(group_sql, S.bigint(g)), extract(s, g)) for g in candidates],
                      typed_null(T.STRING))
    return Val(share(c.lowerer, c.recv.sql, build), T.STRING)


# ---- paths (Rust std::path on Unix) ----------------------------------------------------------
def _components(c: Call, build) -> Val:
    """build(segs, body_idx) over split(p, '/') and the indexes of its body
    components (everything but '' and '.')."""
    def outer(p: exp.Expression) -> exp.Expression:
        segs = S.fn("split", p, S.string("/"), S.small_int(-1))

        def inner(sv: exp.Expression) -> exp.Expression:
            i = c.lowerer.fresh("p")
            idx = S.fn("filter", S.fn("sequence", S.small_int(0),
                                      exp.Sub(this=S.fn("size", sv), expression=S.small_int(1))),
                       lam(S.not_(exp.In(this=S.fn("get", sv, S.col(i)),
                                         expressions=[S.string(""), S.string(".")])), i))
            return share(c.lowerer, idx, lambda iv: build(p, sv, iv))
        return share(c.lowerer, segs, inner)
    return Val(share(c.lowerer, c.recv.sql, outer), T.STRING)


def _nth_from_end(arr: exp.Expression, k: int) -> exp.Expression:
    return S.fn("get", arr, exp.Sub(this=S.fn("size", arr), expression=S.small_int(k)))


def _file_name(p, segs, idx) -> exp.Expression:
    last = S.fn("get", segs, _nth_from_end(idx, 1))
    return S.case([(S.eq(last, S.string("..")), S.null())], last)


@method("file_name", STR)
def _file_name_m(c: Call) -> Val:
    return _components(c, _file_name)


_STEM = r"(?s)^(.+)\.([^.]*)$"  # the last dot, not at position 0


@method("file_stem", STR)
def _file_stem(c: Call) -> Val:
    def build(p, segs, idx):
        name = _file_name(p, segs, idx)
        dotted = exp.RegexpLike(this=name, expression=S.string(_STEM))
        return S.case([(dotted, S.fn("regexp_extract", name, S.string(_STEM), S.small_int(1)))],
                      name)
    return _components(c, build)


@method("extension", STR)
def _extension(c: Call) -> Val:
    def build(p, segs, idx):
        name = _file_name(p, segs, idx)
        dotted = exp.RegexpLike(this=name, expression=S.string(_STEM))
        return S.case([(dotted, S.fn("regexp_extract", name, S.string(_STEM), S.small_int(2)))])
    return _components(c, build)


def _parent(p, segs, idx) -> exp.Expression:
    n = S.fn("size", idx)
    prev = _nth_from_end(idx, 2)
    rooted = S.fn("startswith", p, S.string("/"))
    cur_dir = S.or_(S.eq(p, S.string(".")), S.fn("startswith", p, S.string("./")))
    one = S.case([(rooted, S.string("/")), (cur_dir, S.string("."))], S.string(""))
    return S.case([(gt(n, S.small_int(1)),
                    S.fn("array_join", S.fn("slice", segs, S.small_int(1),
                                            exp.Add(this=prev, expression=S.small_int(1))),
                         S.string("/"))),
                   (S.eq(n, S.small_int(1)), one),
                   # no body component: `.` has the parent "", `/` and "" have none
                   (S.and_(S.not_(rooted), cur_dir), S.string(""))])


@method("parent", STR)
def _parent_m(c: Call) -> Val:
    return _components(c, _parent)


@method("parent_name", STR)
def _parent_name(c: Call) -> Val:
    def build(p, segs, idx):
        name = S.fn("get", segs, _nth_from_end(idx, 2))
        return S.case([(S.and_(gt(S.fn("size", idx), S.small_int(1)),
                               S.not_(S.eq(name, S.string("..")))), name)])
    return _components(c, build)

