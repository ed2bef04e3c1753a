"""CXL parser: statements plus a precedence-climbing expression parser (spec §2-§3).

Precedence, loosest first: `??` (right), `or`, `and`, prefix `not` (looser than
comparison), comparison (non-associative), `+ -`, `* / %`, prefix `-`, postfix.
An expression ends at a newline except inside `[...]`/`{...}`, between match
arms and before `else`.
"""

from __future__ import annotations

from dataclasses import fields
from functools import lru_cache

from clinker_sql.cxl import ast as a
from clinker_sql.cxl import module_scope, nested_key
from clinker_sql.cxl.errors import CxlError
from clinker_sql.cxl.lexer import Token, tokenize

AGGREGATES = frozenset({"sum", "count", "avg", "min", "max", "collect", "weighted_avg"})
NAMESPACES = frozenset({"vars", "pipeline", "source", "record", "window", "config", "doc"})
COMPARISONS = ("==", "!=", "<", ">", "<=", ">=")
TRACE_LEVELS = ("info", "warn", "error", "debug")
MAX_EMIT_EACH_DEPTH = 32
# Expression nesting: sub-expressions inside one another (groups, operands, arguments) and
# the height of the tree an expression builds (a chain `a + b + c` nests to the left).
# Clinker allows 256; lowering, the SQL generator and the checks downstream recurse once
# or more per level, so clinker-sql stops well below where they would run out of stack.
MAX_NESTING = 128
NESTING_CODE = "CS062"

# infix operators by binding level, loosest first; `??` (right-associative) sits below
# `or` and is handled in `expr`, prefix `not` sits between `and` and the comparisons
_OR, _AND, _NOT, _CMP, _ADD, _MUL = 1, 2, 3, 4, 5, 6
_KW_LEVELS = {"or": _OR, "and": _AND}
_PUNCT_LEVELS = {**{op: _CMP for op in COMPARISONS}, "+": _ADD, "-": _ADD, "*": _MUL,
                 "/": _MUL, "%": _MUL}


def _level(tok: Token) -> int | None:
    if tok.kind == "KW":
        return _KW_LEVELS.get(tok.value)
    if tok.kind == "PUNCT":
        return _PUNCT_LEVELS.get(tok.value)
    return None


def parse_program(text: str) -> a.Program:
    """A whole CXL program, its module references (`use`) resolved by the modules the
    compile admitted (cxl/module_scope.py)."""
    return module_scope.resolve(_parse_program(text))


@lru_cache(maxsize=1024)
def _parse_program(text: str) -> a.Program:
    """Immutable, so one parse serves every pass that reads it."""
    program = _Parser(tokenize(text)).program()
    check_height(program)
    return program


def parse_module(text: str) -> a.ModuleFile:
    """A `.cxl` module file (cxl/modules.py)."""
    module = _Parser(tokenize(text)).module()
    for declaration in module.constants + module.functions:
        check_height(declaration)
    return module


def parse_expression(text: str) -> a.Expr:
    """A single expression (route conditions, combine `where`)."""
    p = _Parser(tokenize(text))
    p.skip_newlines()
    expr = p.expr()
    p.skip_newlines()
    p.expect_eof()
    check_height(expr)
    return expr


def check_height(root: object) -> None:
    """No expression tree higher than MAX_NESTING: a chain `a + b + c ...` parses in a
    loop but builds one level per operator, which every later pass recurses through.
    Measured bottom-up without recursion; the error points at the operator (or call)
    that goes one level past the limit."""
    heights: dict[int, int] = {}
    stack: list[tuple[object, bool]] = [(root, False)]
    while stack:
        node, ready = stack.pop()
        kids = _children(node)
        if not ready:
            stack.append((node, True))
            stack.extend((kid, False) for kid in kids)
            continue
        height = max((heights[id(kid)] for kid in kids), default=0)
        if isinstance(node, a.Expr):
            height += 1
            if height > MAX_NESTING:
                raise CxlError(NESTING_CODE, f"expression nesting too deep (the limit is "
                               f"{MAX_NESTING} levels; a chain of operators or method calls "
                               "nests one level per step)", node.pos.line, node.pos.col,
                               "compute part of it in an earlier transform")
        heights[id(node)] = height


_FIELDS: dict[type, tuple[str, ...]] = {}


def _children(node: object) -> list[object]:
    """The expressions, statements and match arms directly inside `node`."""
    if isinstance(node, a.Program):
        return list(node.statements)
    cls = type(node)
    names = _FIELDS.get(cls)
    if names is None:
        names = _FIELDS[cls] = tuple(f.name for f in fields(node))  # type: ignore[arg-type]
    out: list[object] = []
    for name in names:
        value = getattr(node, name)
        for item in value if isinstance(value, tuple) else (value,):
            for leaf in item if isinstance(item, tuple) else (item,):  # MapLit entries
                if isinstance(leaf, (a.Expr, a.Stmt, a.MatchArm)):
                    out.append(leaf)
    return out


class _Parser:
    def __init__(self, tokens: list[Token]):
        self.tokens = tokens
        self.i = 0
        self.nl_depth = 0
        self.depth = 0  # emit each nesting
        self.nesting = 0  # sub-expression nesting (MAX_NESTING)

    # ---- token helpers ---------------------------------------------------------------------
    def peek(self, offset: int = 0) -> Token:
        j = self.i
        seen = 0
        while True:
            tok = self.tokens[j]
            if tok.kind == "NL" and self.nl_depth > 0:
                j += 1
                continue
            if seen == offset:
                return tok
            seen += 1
            j += 1

    def next(self) -> Token:
        while self.nl_depth > 0 and self.tokens[self.i].kind == "NL":
            self.i += 1
        tok = self.tokens[self.i]
        if tok.kind != "EOF":
            self.i += 1
        return tok

    def at(self, kind: str, value: object = None) -> bool:
        return self.peek().is_(kind, value)

    def at_punct(self, value: str) -> bool:
        return self.at("PUNCT", value)

    def accept(self, kind: str, value: object = None) -> Token | None:
        if self.at(kind, value):
            return self.next()
        return None

    def expect(self, kind: str, value: object = None, what: str = "") -> Token:
        tok = self.peek()
        if not tok.is_(kind, value):
            want = what or (f"'{value}'" if value is not None else kind.lower())
            raise self.error(tok, f"expected {want}, found {self.describe(tok)}")
        return self.next()

    def expect_eof(self) -> None:
        tok = self.peek()
        if tok.kind != "EOF":
            raise self.error(tok, f"unexpected {self.describe(tok)} after the expression")

    def skip_newlines(self) -> None:
        while self.tokens[self.i].kind == "NL":
            self.i += 1

    @staticmethod
    def describe(tok: Token) -> str:
        if tok.kind == "EOF":
            return "end of input"
        if tok.kind == "NL":
            return "end of line"
        if tok.kind == "STRING":
            return f'string "{tok.value}"'
        return f"'{tok.value}'"

    @staticmethod
    def error(tok: Token, message: str, hint: str = "") -> CxlError:
        return CxlError("E202", message, tok.line, tok.col, hint, tok.length)

    @staticmethod
    def pos(tok: Token) -> a.Pos:
        return a.Pos(tok.line, tok.col)

    def name_token(self) -> Token:
        tok = self.peek()
        if tok.kind in ("IDENT", "KW"):
            return self.next()
        raise self.error(tok, f"expected a name, found {self.describe(tok)}")

    # ---- statements ------------------------------------------------------------------------
    def program(self) -> a.Program:
        stmts = self.statements(top=True)
        self.expect_eof()
        return a.Program(tuple(stmts))

    def statements(self, top: bool) -> list[a.Stmt]:
        out: list[a.Stmt] = []
        while True:
            self.skip_newlines()
            tok = self.peek()
            if tok.kind == "EOF" or (not top and tok.is_("PUNCT", "}")):
                return out
            stmt = self.statement()
            if stmt is not None:
                if isinstance(stmt, a.Use) and any(not isinstance(s, a.Use) for s in out):
                    raise CxlError("E202", "`use` must come before every other statement",
                                   stmt.pos.line, stmt.pos.col)
                out.append(stmt)

    def statement(self) -> a.Stmt | None:
        tok = self.peek()
        pos = self.pos(tok)
        if tok.is_("KW", "let"):
            self.next()
            name = self.expect("IDENT", what="a name after 'let'").value
            self.expect("PUNCT", "=")
            return a.Let(pos, name, self.expr())
        if tok.is_("KW", "emit"):
            self.next()
            if self.at("IDENT", "each"):
                return self.emit_each(pos)
            if self.at_punct("$"):
                self.next()
                scope = self.name_token().value
                if scope in ("vars", "ck"):
                    raise self.error(tok, f"${scope} is read-only")
                self.expect("PUNCT", ".")
                name = self.name_token().value
                self.expect("PUNCT", "=")
                return a.Emit(pos, name, self.expr(), scope=scope)
            name_tok = self.name_token()
            self.expect("PUNCT", "=")
            return a.Emit(pos, name_tok.value, self.expr())
        if tok.is_("KW", "filter"):
            self.next()
            return a.Filter(pos, self.expr())
        if tok.is_("KW", "distinct"):
            self.next()
            by = None
            if self.accept("KW", "by"):
                by = self.expect("IDENT", what="a field name after 'distinct by'").value
            elif self.at("IDENT"):
                raise self.error(self.peek(), "distinct requires 'by' before the field name",
                                 f"write `distinct by {self.peek().value}`")
            return a.Distinct(pos, by)
        if tok.is_("KW", "trace"):
            self.next()
            level = "info"
            if self.peek().kind == "IDENT" and self.peek().value in TRACE_LEVELS:
                level = self.next().value
            guard = None
            if self.accept("KW", "if"):
                guard = self.or_expr()
            return a.Trace(pos, level, guard, self.expr())
        if tok.is_("KW", "use"):
            return self.use_stmt()
        if tok.is_("KW", "fn"):
            self.fn_decl()
            return None  # functions in a program are parsed and discarded (spec §2)
        return a.ExprStmt(pos, self.expr())

    def use_stmt(self) -> a.Use:
        pos = self.pos(self.next())
        parts = [self.name_token().value]
        while self.accept("PUNCT", ".") or self.accept("PUNCT", "::"):
            parts.append(self.name_token().value)
        alias = None
        if self.accept("KW", "as"):
            alias = self.name_token().value
        return a.Use(pos, tuple(parts), alias)

    def fn_decl(self) -> a.FnDecl:
        pos = self.pos(self.next())
        name = self.name_token().value
        self.expect("PUNCT", "(")
        params: list[str] = []
        while not self.at_punct(")"):
            params.append(self.name_token().value)
            if not self.accept("PUNCT", ","):
                break
        self.expect("PUNCT", ")")
        self.expect("PUNCT", "=")
        self.skip_newlines()  # the body may start on the next line, as in Clinker's docs
        return a.FnDecl(pos, name, tuple(params), self.expr())

    def module(self) -> a.ModuleFile:
        """A module file holds `use` imports, then `let` constants and `fn` declarations
        (Clinker's Parser::parse_module): nothing that emits, filters or logs."""
        uses: list[a.Use] = []
        constants: list[a.Let] = []
        functions: list[a.FnDecl] = []
        while True:
            self.skip_newlines()
            tok = self.peek()
            if tok.kind == "EOF":
                return a.ModuleFile(tuple(uses), tuple(constants), tuple(functions))
            if tok.is_("KW", "use"):
                if constants or functions:
                    raise self.error(tok, "use must appear before module declarations",
                                     "move this use statement before every fn and let "
                                     "declaration")
                uses.append(self.use_stmt())
            elif tok.is_("KW", "let"):
                pos = self.pos(self.next())
                name = self.expect("IDENT", what="a name after 'let'").value
                self.expect("PUNCT", "=")
                constants.append(a.Let(pos, name, self.expr()))
            elif tok.is_("KW", "fn"):
                functions.append(self.fn_decl())
            elif tok.kind == "KW" and tok.value in ("emit", "trace", "filter", "distinct"):
                raise self.error(tok, f"{tok.value} is not allowed in module files",
                                 "module files hold only fn declarations and let constants: "
                                 "modules are pure")
            else:
                raise self.error(tok, f"unexpected {self.describe(tok)} in module file",
                                 "use 'fn name(params) = expr' or 'let NAME = value'")
            if self.peek().kind not in ("NL", "EOF"):
                raise self.error(self.peek(), f"unexpected {self.describe(self.peek())} "
                                 "after the declaration")

    def emit_each(self, pos: a.Pos) -> a.Stmt:
        each = self.next()
        if self.depth >= MAX_EMIT_EACH_DEPTH:
            raise self.error(each, f"emit each nesting too deep (max {MAX_EMIT_EACH_DEPTH} "
                             "levels)", "flatten part of the nesting, e.g. with .flat_map")
        if self.at("KW", "it"):
            binding = self.next().value
        else:
            binding = self.expect("IDENT", what="a binding name").value
        self.expect("KW", "in")
        source = self.expr()
        outer = bool(self.accept("IDENT", "outer"))
        self.expect("PUNCT", "{")
        self.depth += 1
        body = self.statements(top=False)
        self.depth -= 1
        self.expect("PUNCT", "}")
        return a.EmitEach(pos, binding, source, outer, tuple(body))

    # ---- expressions -----------------------------------------------------------------------
    def nested(self, tok: Token) -> None:
        """One more level of sub-expression (a group, an operand, an argument): past
        MAX_NESTING the program is refused before any recursion can run out of stack."""
        self.nesting += 1
        if self.nesting > MAX_NESTING:
            raise CxlError(NESTING_CODE, f"expression nesting too deep (the limit is "
                           f"{MAX_NESTING} levels)", tok.line, tok.col,
                           "compute part of it in an earlier transform")

    def expr(self) -> a.Expr:
        self.nested(self.peek())
        left = self.binary(_OR)
        if self.at_punct("??"):
            tok = self.next()
            left = a.Binary(self.pos(tok), "??", left, self.expr())
        self.nesting -= 1
        return left

    def or_expr(self) -> a.Expr:
        return self.binary(_OR)

    def binary(self, min_level: int) -> a.Expr:
        """Precedence climbing over the infix operators of `_LEVELS` (loosest first), with
        prefix `not` between `and` and the comparisons: one frame per operand level."""
        if min_level <= _NOT and self.at("KW", "not"):
            tok = self.next()
            self.nested(tok)
            left: a.Expr = a.Unary(self.pos(tok), "not", self.binary(_NOT))
            self.nesting -= 1
        else:
            left = self.unary()
        while True:
            tok = self.peek()
            level = _level(tok)
            if level is None or level < min_level:
                return left
            self.next()
            if level == _CMP:
                right = self.binary(_NOT) if self.at("KW", "not") else self.binary(_CMP + 1)
                left = a.Binary(self.pos(tok), tok.value, left, right)
                nxt = self.peek()
                if _level(nxt) == _CMP:
                    raise self.error(nxt, "comparisons do not chain",
                                     "write `a < b and b < c`")
            else:
                left = a.Binary(self.pos(tok), tok.value, left, self.binary(level + 1))

    def unary(self) -> a.Expr:
        if self.at_punct("-"):
            tok = self.next()
            self.nested(tok)
            operand = self.unary()
            self.nesting -= 1
            return a.Unary(self.pos(tok), "-", operand)
        return self.postfix(self.primary())

    def postfix(self, expr: a.Expr) -> a.Expr:
        while True:
            if self.at_punct("."):
                self.next()
                name_tok = self.name_token()
                if self.at_punct("("):
                    args = self.call_args()
                    expr = a.MethodCall(self.pos(name_tok), expr, name_tok.value, args)
                elif isinstance(expr, a.Name):
                    expr = a.Qualified(expr.pos, (expr.name, name_tok.value))
                elif isinstance(expr, a.Qualified):
                    expr = a.Qualified(expr.pos, expr.parts + (name_tok.value,))
                elif isinstance(expr, a.SysVar) and expr.namespace != "window":
                    expr = a.SysVar(expr.pos, expr.namespace, expr.path + (name_tok.value,))
                else:
                    expr = a.Field(self.pos(name_tok), expr, name_tok.value)
            elif self.at_punct("["):
                tok = self.next()
                self.nl_depth += 1
                index = self.expr()
                self.expect("PUNCT", "]")
                self.nl_depth -= 1
                expr = a.Index(self.pos(tok), expr, index)
            else:
                return expr

    def call_args(self) -> tuple[a.Expr, ...]:
        self.expect("PUNCT", "(")
        args: list[a.Expr] = []
        while not self.at_punct(")"):
            args.append(self.argument())
            if not self.accept("PUNCT", ","):
                break
        self.expect("PUNCT", ")")
        return tuple(args)

    def argument(self) -> a.Expr:
        tok = self.peek()
        if tok.kind in ("IDENT", "KW") and self.peek(1).is_("PUNCT", "=>"):
            self.next()
            self.next()
            if tok.value != "it":
                raise self.error(tok, "a closure parameter must be named `it`")
            return a.Lambda(self.pos(tok), "it", self.expr())
        return self.expr()

    def primary(self) -> a.Expr:
        tok = self.peek()
        pos = self.pos(tok)
        if tok.kind == "INT":
            self.next()
            return a.Literal(pos, tok.value, "int")
        if tok.kind == "FLOAT":
            self.next()
            return a.Literal(pos, tok.value, "float")
        if tok.kind == "STRING":
            self.next()
            return a.Literal(pos, tok.value, "string")
        if tok.kind == "DATE":
            self.next()
            return a.Literal(pos, tok.value, "date")
        if tok.kind == "KW":
            if tok.value in ("true", "false"):
                self.next()
                return a.Literal(pos, tok.value == "true", "bool")
            if tok.value == "null":
                self.next()
                return a.Literal(pos, None, "null")
            if tok.value == "now":
                self.next()
                return a.Now(pos)
            if tok.value == "it":
                self.next()
                return a.Name(pos, "it")
            if tok.value == "if":
                return self.if_expr()
            if tok.value == "match":
                return self.match_expr()
        if tok.kind == "IDENT":
            self.next()
            if tok.value in AGGREGATES and self.tokens[self.i].is_("PUNCT", "("):
                return self.aggregate_call(tok)
            return a.Name(pos, tok.value)
        if tok.is_("PUNCT", "$"):
            self.next()
            ns = self.name_token()
            if ns.value not in NAMESPACES:
                raise self.error(ns, f"unknown system namespace ${ns.value}",
                                 "expected one of: $" + ", $".join(sorted(NAMESPACES)))
            path: tuple[str, ...] = ()
            if ns.value != "window":
                self.expect("PUNCT", ".")
                path = (self.name_token().value,)
            return a.SysVar(pos, ns.value, path)
        if tok.is_("PUNCT", "("):
            self.next()
            inner = self.expr()
            self.expect("PUNCT", ")")
            return inner
        if tok.is_("PUNCT", "["):
            return self.array_expr()
        if tok.is_("PUNCT", "{"):
            return self.map_expr()
        raise self.error(tok, f"expected an expression, found {self.describe(tok)}")

    def aggregate_call(self, name_tok: Token) -> a.Expr:
        pos = self.pos(name_tok)
        self.expect("PUNCT", "(")
        if self.at_punct("*"):
            self.next()
            self.expect("PUNCT", ")")
            return a.Call(pos, name_tok.value, (), star=True)
        args: list[a.Expr] = []
        while not self.at_punct(")"):
            args.append(self.expr())
            if not self.accept("PUNCT", ","):
                break
        self.expect("PUNCT", ")")
        return a.Call(pos, name_tok.value, tuple(args))

    def if_expr(self) -> a.Expr:
        tok = self.next()
        cond = self.or_expr()
        self.expect("KW", "then")
        then = self.expr()
        otherwise = None
        j = self.i
        while self.tokens[j].kind == "NL":
            j += 1
        if self.tokens[j].is_("KW", "else"):
            self.i = j + 1
            otherwise = self.expr()
        return a.If(self.pos(tok), cond, then, otherwise)

    def match_expr(self) -> a.Expr:
        tok = self.next()
        subject = None
        if not self.at_punct("{"):
            subject = self.expr()
        self.expect("PUNCT", "{")
        self.nl_depth += 1
        arms: list[a.MatchArm] = []
        while not self.at_punct("}"):
            if self.at("IDENT", "_"):
                self.next()
                pattern = None
            else:
                pattern = self.expr()
            self.expect("PUNCT", "=>")
            result = self.expr()
            arms.append(a.MatchArm(pattern, result))
            self.accept("PUNCT", ",")  # arms are separated by ',' or a new line
        self.expect("PUNCT", "}")
        self.nl_depth -= 1
        return a.Match(self.pos(tok), subject, tuple(arms))

    def array_expr(self) -> a.Expr:
        tok = self.next()
        self.nl_depth += 1
        items: list[a.Expr] = []
        if self.at_punct("]"):
            self.next()
            self.nl_depth -= 1
            return a.ArrayLit(self.pos(tok), ())
        first = self.expr()
        if self.accept("KW", "for"):
            binding = self.expect("IDENT", what="a binding name").value
            self.expect("KW", "in")
            source = self.expr()
            pred = self.expr() if self.accept("KW", "if") else None
            self.expect("PUNCT", "]")
            self.nl_depth -= 1
            return a.Comprehension(self.pos(tok), first, binding, source, pred)
        items.append(first)
        while self.accept("PUNCT", ","):
            if self.at_punct("]"):
                break
            items.append(self.expr())
        self.expect("PUNCT", "]")
        self.nl_depth -= 1
        return a.ArrayLit(self.pos(tok), tuple(items))

    def map_expr(self) -> a.Expr:
        tok = self.next()
        self.nl_depth += 1
        entries: list[tuple[a.Expr, a.Expr]] = []
        static: list[str] = []  # the logical keys of the static keys so far
        while not self.at_punct("}"):
            key_tok = self.peek()
            if key_tok.kind in ("IDENT", "KW", "STRING"):
                self.next()
                self._static_key(key_tok, static)
                key: a.Expr = a.Literal(self.pos(key_tok), key_tok.value, "string")
            elif key_tok.is_("PUNCT", "["):
                self.next()
                key = self.expr()
                self.expect("PUNCT", "]")
            else:
                raise self.error(key_tok, f"expected a map key, found {self.describe(key_tok)}")
            self.expect("PUNCT", ":")
            entries.append((key, self.expr()))
            if not self.accept("PUNCT", ","):
                break
        self.expect("PUNCT", "}")
        self.nl_depth -= 1
        return a.MapLit(self.pos(tok), tuple(entries))

    def _static_key(self, tok: Token, static: list[str]) -> None:
        """A static map key must be canonically escaped and unique once decoded (Clinker's
        parser: both are parse errors)."""
        decoded = nested_key.decode(tok.value)
        if decoded is None:
            raise self.error(tok, nested_key.non_canonical(tok.value),
                             "use `\\@name`, `\\#text`, or `\\\\name` only when escaping a "
                             "reserved-looking literal key")
        if decoded in static:
            raise self.error(tok, f"duplicate map key {nested_key.debug_str(decoded)}",
                             "remove or rename the duplicate key")
        static.append(decoded)
