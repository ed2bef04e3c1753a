"""Mutations of one CXL program: each takes the program and a seeded `random.Random` and
returns a new program (a string). Cheap ones are applied to many programs; the deep and
long ones (`HEAVY`) to a few, as they cost the most to compile."""

from __future__ import annotations

import random
import re

_OPERATORS = ["+", "-", "*", "/", "%", "==", "!=", ">=", "<=", ">", "<", "??", " and ",
              " or "]
_BAD_OPERATORS = ["===", "<>", "&&", "||", "!", "**", "=>", "=", "?", "::", "|", "^", "->"]
_WORDS = re.compile(r"\b[a-z_][a-z0-9_]*\b")
_METHOD = re.compile(r"\.([a-z_]+)\(")


def _emit(expr: str) -> str:
    return f"emit zz_mut = {expr}"


def _append(cxl: str, line: str) -> str:
    return cxl.rstrip("\n") + "\n" + line + "\n"


def _names(cxl: str) -> list[str]:
    """Identifiers of the program (fields, lets, methods): operands for new expressions."""
    skip = {"emit", "let", "if", "then", "else", "and", "or", "not", "match", "null", "true",
            "false", "filter", "distinct", "by", "each", "in", "outer", "it", "now"}
    found = [w for w in _WORDS.findall(re.sub(r'"[^"]*"|\'[^\']*\'', "", cxl))
             if w not in skip]
    return found or ["x"]


def truncate(cxl: str, rng: random.Random) -> str:
    return cxl[:rng.randrange(1, max(2, len(cxl.rstrip())))]


def drop_line(cxl: str, rng: random.Random) -> str:
    lines = cxl.splitlines()
    del lines[rng.randrange(len(lines))]
    return "\n".join(lines) + "\n"


def swap_operator(cxl: str, rng: random.Random) -> str:
    spots = [(m.start(), m.group()) for op in _OPERATORS
             for m in re.finditer(re.escape(op), cxl)]
    if not spots:
        return _append(cxl, _emit("1 " + rng.choice(_BAD_OPERATORS) + " 2"))
    at, op = rng.choice(spots)
    new = rng.choice(_OPERATORS + _BAD_OPERATORS)
    return cxl[:at] + new + cxl[at + len(op):]


def unknown_function(cxl: str, rng: random.Random) -> str:
    name = rng.choice(_names(cxl))
    return _append(cxl, _emit(rng.choice([f"frobnicate({name})", "nope()",
                                          f"{name}.frobnicate()", f"{name}.upper.lower",
                                          f"nope.thing({name})", "$window.nope()",
                                          "$pipeline.nope", "$source.nope", "$nope.x",
                                          "$vars.undeclared", "$ck.x", "$meta.x"])))


def unknown_method(cxl: str, rng: random.Random) -> str:
    spots = list(_METHOD.finditer(cxl))
    if not spots:
        return unknown_function(cxl, rng)
    m = rng.choice(spots)
    return cxl[:m.start(1)] + rng.choice(["frobnicate", "Upper", "to_int2", "len"]) + \
        cxl[m.end(1):]


def wrong_arity(cxl: str, rng: random.Random) -> str:
    spots = list(_METHOD.finditer(cxl))
    if spots and rng.random() < 0.5:
        m = rng.choice(spots)
        return cxl[:m.end()] + rng.choice(["1, 2, 3, ", "'a', ", "it => it, "]) + \
            cxl[m.end():]
    return _append(cxl, _emit(rng.choice([
        '"abc".substring()', "1.5.round(1, 2, 3)", '"a".replace("a")', '"a".upper(1)',
        '"a".pad_left()', '"a".split()', "#2024-01-01#.add_days()", '"a".matches()',
        '"a".capture("(a)", 1, 2)', "[1, 2].map()", "[1, 2].filter(it => it > 1, 2)",
        '"a".concat()', "sum()", "count(1, 2)", "weighted_avg(1)", "$window.lag()",
        '"a".to_int(1)', '"a".to_date("%Y", "%m")', "1.clamp(1)"])))


def wrong_types(cxl: str, rng: random.Random) -> str:
    name = rng.choice(_names(cxl))
    return _append(cxl, rng.choice([
        _emit('"a" + 1'), _emit("true * 2"), _emit("#2024-01-01# + 1"), "filter 42",
        _emit('if 1 then 2 else "x"'), _emit('[1, "a"]'), _emit("{a: 1, a: 2}"),
        _emit("1.upper()"), _emit('"x".abs()'), _emit(f"{name} + true"),
        _emit(f"{name}.year()"), _emit(f"-{name}"), _emit(f"not {name}"),
        _emit("1.5 + 1.5.to_decimal()"), _emit(f'match {name} {{ 1 => "a", "b" => 2 }}'),
        _emit("[1, 2][\"a\"]"), _emit('{"a": 1}[0]'), _emit("null.upper()"),
        _emit(f"{name} < #2024-01-01# < 3"), _emit(f'{name}.split(",").sum()'),
        f"distinct by {name}.upper()", _emit("[x for x in 5]"),
        _emit('"a".matches(' + name + ")"), _emit('#2024-01-01#.format_date(' + name + ")")]))


def unbalance(cxl: str, rng: random.Random) -> str:
    at = rng.randrange(len(cxl))
    return cxl[:at] + rng.choice("()[]{}\"'") + cxl[at:]


def odd_literal(cxl: str, rng: random.Random) -> str:
    return _append(cxl, _emit(rng.choice([
        "99999999999999999999", "9223372036854775807 + 1", "-9223372036854775808",
        "9223372036854775807 * 2", "1e3", "1.", ".5", "0x1F", "1_000", "#2024-02-30#",
        "#9999-12-31#.add_days(1)", "#0000-01-01#", "#2024-1-1#", "#2024-01-01", '"\\u{1F600}"',
        "'\\x00'", '"unterminated', '"é"', '"\\q"', '""""', "''", "3.2.ceil()",
        "1" * 400 + ".0", "0." + "0" * 400 + "1", "00012", "-0", "-0.0", "1.0.0", "#",
        '"a\u2028b"', '"\u0000"', "\u00e9", "emit", "null.null", "now.year()",
        '"\\"', "'''", '"' + "x" * 70000 + '"'])))


def bad_regex(cxl: str, rng: random.Random) -> str:
    name = rng.choice(_names(cxl))
    recv = f"{name}.to_string()"
    pattern = rng.choice(['(', '[', '(?P<n>a)(?P<n>b)', 'a{99999}', '(?<=a)b', '\\\\1', '(?i',
                          '\\\\p{Foo}', '(a*)*b', '', '*', '\\\\', "'", '`', '\\\\Q', '(?x) #',
                          '[z-a]', 'a{2,1}', '\\\\k<n>', '(?P<1>a)'])
    method = rng.choice(["matches", "find", "capture"])
    extra = rng.choice(["", ", 0", ", 5", ", -1"]) if method == "capture" else ""
    return _append(cxl, _emit(f'{recv}.{method}("{pattern}"{extra})'))


def bad_date_format(cxl: str, rng: random.Random) -> str:
    fmt = rng.choice(["%", "%Q", "%Y-%m-%", "%.9f", "%U", "%z", "%:z", "%-d", "", "'",
                      "%Y'%m", "yyyy", "%d/%m", "%H", "%Y%m%d%", "%%%", "%E", "%Oy", "%#",
                      "%Y-%m-%d %H:%M:%S %Z", "%s", "''%Y''", "%C%y%G%V%u"])
    return _append(cxl, _emit(rng.choice([
        f'#2024-01-01#.format_date("{fmt}")', f'"2024-01-01".to_date("{fmt}")',
        f'"2024-01-01".try_date("{fmt}")', f'"2024-01-01 10:00:00".to_datetime("{fmt}")',
        f'"2024".try_datetime("{fmt}")', f'now.format_date("{fmt}")'])))


def odd_statement(cxl: str, rng: random.Random) -> str:
    name = rng.choice(_names(cxl))
    return _append(cxl, rng.choice([
        "emit each x in 1 { emit y = x }", f"distinct by {name}_nope", "use foo.bar",
        "fn f(x) = x", 'trace "x"', "emit $vars.x = 1", "emit $ck.x = 1", "emit = 1",
        "let = 2", "emit a =", "emit a b = 1", "emit if = 1", "emit _ = 1", "let it = 1",
        _emit("it => 1"), _emit("[1, 2].map(x => x)"), f"emit zz = $window.sum({name})",
        "emit é = 1", "emit a = 1\u00a0", "emit\u2028a = 1", "\u0000", "\t\temit t = 1",
        "emit a = 1 emit a = 2", "filter", "distinct by", "emit zz = {}", "emit zz = []",
        f"emit {name} = {name}", "emit zz = match { _ => 1, _ => 2 }",
        "emit zz = match 1 { }", "emit zz = if true then 1", "emit zz = (1, 2)",
        "emit zz = [x for x in [1] if x for y in [2]]", "emit each x in [1] { filter true }",
        "emit each x in [1] { distinct }", "emit zz = 1\r\nemit yy = 2\r", "# only a comment",
        "emit " + "a" * 300 + " = 1", "emit zz = " + "\\"]))


def replace_program(cxl: str, rng: random.Random) -> str:
    return rng.choice(["", "\n", "   \n\t\n", "# nothing at all\n", "\ufeffemit a = 1\n",
                       "emit a = 1\n" * 2000, "let a = 1\n" + "emit b = a\n" * 600,
                       "x" * 70000, "emit a = 1;\n", "emit a = 1 --comment\n", "/* c */\n",
                       "emit a = `b`\n", "SELECT 1\n", "emit a = 1\n\x00\n"])


def nested_parens(depth: int):
    def op(cxl: str, rng: random.Random) -> str:
        return _append(cxl, _emit("(" * depth + "1" + ")" * depth))
    op.__name__ = f"parens_{depth}"
    return op


def nested_if(depth: int):
    def op(cxl: str, rng: random.Random) -> str:
        expr = "0"
        for i in range(depth):
            expr = f"if {rng.choice(['true', 'false', 'null'])} then {i} else {expr}"
        return _append(cxl, _emit(expr))
    op.__name__ = f"if_{depth}"
    return op


def nested_arrays(depth: int):
    def op(cxl: str, rng: random.Random) -> str:
        return _append(cxl, _emit("[" * depth + "1" + "]" * depth))
    op.__name__ = f"arrays_{depth}"
    return op


def nested_maps(depth: int):
    def op(cxl: str, rng: random.Random) -> str:
        return _append(cxl, _emit("{a: " * depth + "1" + "}" * depth))
    op.__name__ = f"maps_{depth}"
    return op


def nested_each(depth: int):
    def op(cxl: str, rng: random.Random) -> str:
        body = "emit leaf = 1"
        for i in range(depth):
            body = f"emit each e{i} in [1, 2] {{\n{body}\n}}"
        return _append(cxl, body)
    op.__name__ = f"each_{depth}"
    return op


def prefix_chain(word: str, depth: int):
    def op(cxl: str, rng: random.Random) -> str:
        return _append(cxl, _emit((word + " ") * depth + ("true" if word == "not" else "1")))
    op.__name__ = f"prefix_{word}_{depth}"
    return op


def infix_chain(operator: str, operand: str, terms: int):
    def op(cxl: str, rng: random.Random) -> str:
        return _append(cxl, _emit(f" {operator} ".join([operand] * terms)))
    op.__name__ = f"chain_{operator.strip()}_{terms}"
    return op


def method_chain(terms: int):
    def op(cxl: str, rng: random.Random) -> str:
        return _append(cxl, _emit('"a"' + ".upper().lower()" * (terms // 2)))
    op.__name__ = f"methods_{terms}"
    return op


def let_chain(terms: int):
    def op(cxl: str, rng: random.Random) -> str:
        lines = ["let v0 = 1"] + [f"let v{i} = v{i - 1} + {i}" for i in range(1, terms)]
        return _append(cxl, "\n".join(lines) + "\n" + _emit(f"v{terms - 1}"))
    op.__name__ = f"lets_{terms}"
    return op


CHEAP = [truncate, drop_line, swap_operator, unknown_function, unknown_method, wrong_arity,
         wrong_types, unbalance, odd_literal, bad_regex, bad_date_format, odd_statement,
         replace_program]

# deep nesting up to some hundreds and long chains: each is applied once
HEAVY = [nested_parens(50), nested_parens(120), nested_parens(250), nested_parens(500),
         nested_if(60), nested_if(300), nested_arrays(100), nested_arrays(400),
         nested_maps(63), nested_maps(70), nested_maps(300), nested_each(33),
         prefix_chain("not", 500), prefix_chain("-", 500),
         infix_chain("+", "1", 150), infix_chain("+", "1", 3000),
         infix_chain("+", '"s"', 1000), infix_chain("and", "true", 1000),
         infix_chain("??", "null", 500), infix_chain("*", "2", 200),
         method_chain(400), let_chain(300)]
