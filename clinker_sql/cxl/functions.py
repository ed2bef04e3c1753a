"""CXL's builtins as Spark SQL functions: the library in macros/functions/, loaded once.

Each file there holds one `CREATE TEMPORARY FUNCTION cxl_<name>(<typed params>) RETURNS
<type> RETURN <body>;` under a `--` comment saying which builtin or rule it implements.
The lowering emits calls to them (`call`), so node SQL reads `CXL_STRING_TO_INT(salary)`
instead of the guarded cast written out wherever it is read; the compiler defines the
functions a pipeline calls (`used`, `definitions`) before its views.

Spark inlines a SQL function's body into the plan (the optimized and physical plans hold
the body, inside whole-stage code generation) and projects each argument once below it,
so a call costs what its body costs. Two limits shape what is a function:
- Spark refuses a SQL function inside the lambda of a higher-order function: there the
  call is replaced by its body with the arguments substituted (`inline_in_lambdas`), so
  the library stays the one source of every body;
- a parameter declared DECIMAL(p,s) casts its argument to that scale, which would change
  a decimal value: decimal operations stay inline, and the loader refuses such a parameter.

Every function is total: its body never raises an error on any argument (Spark runs in
ANSI mode; the bodies use TRY_CAST and guard every cast), so a call may be evaluated where
a CASE around it would not have been (codegen/shared_values.py moves repeated calls).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import sqlglot
from sqlglot import exp

DIALECT = "spark"
PREFIX = "cxl_"
_NAME = re.compile(r"cxl_[a-z0-9_]+\Z")


@dataclass(frozen=True)
class Function:
    name: str  # cxl_<file stem>
    params: tuple[str, ...]
    param_types: tuple[str, ...]  # Spark type names, as declared
    returns: str
    body: exp.Expression  # reads its parameters as unqualified columns
    comment: str  # the file's `--` lines, joined
    calls: tuple[str, ...]  # the library functions its body calls
    costly: bool  # its body (or one it calls) matches a regular expression


class LibraryError(RuntimeError):
    """A file of the function library is malformed: a defect of the package, never a
    user's mistake."""


def folder() -> Path:
    pkg = Path(__file__).resolve().parent.parent
    for base in (pkg, pkg.parent):  # installed wheel first, then a source checkout
        candidate = base / "macros" / "functions"
        if candidate.is_dir():
            return candidate
    raise LibraryError("the clinker-sql function library (macros/functions/) was not found; "
                       "reinstall the package")


@lru_cache(maxsize=1)
def library() -> dict[str, Function]:
    """Every function of the library by name, each file parsed and checked once."""
    parsed = {}
    for path in sorted(folder().glob("*.sql")):
        fn = _load(path)
        parsed[fn.name] = fn
    for fn in parsed.values():
        unknown = [c for c in fn.calls if c not in parsed]
        if unknown:
            raise LibraryError(f"{fn.name} calls {', '.join(unknown)}, which the library "
                               "does not define")
    out: dict[str, Function] = {}
    for name in _ordered(parsed, parsed):  # also refuses a cycle
        fn = parsed[name]
        costly = fn.costly or any(out[c].costly for c in fn.calls)
        out[name] = Function(fn.name, fn.params, fn.param_types, fn.returns, fn.body,
                             fn.comment, fn.calls, costly)
    return out


def _load(path: Path) -> Function:
    text = path.read_text(encoding="utf-8")
    comment = " ".join(line[2:].strip() for line in text.splitlines()
                       if line.startswith("--"))
    code = "\n".join(line for line in text.splitlines() if not line.startswith("--"))
    where = path.name
    try:
        statements = [s for s in sqlglot.parse(code, read=DIALECT) if s is not None]
    except sqlglot.errors.ParseError as exc:
        raise LibraryError(f"{where} does not parse: {exc}") from exc
    if not comment:
        raise LibraryError(f"{where} needs a `--` comment saying what it implements")
    if len(statements) != 1 or not isinstance(statements[0], exp.Create) or \
            statements[0].args.get("kind") != "FUNCTION":
        raise LibraryError(f"{where} must hold one CREATE TEMPORARY FUNCTION statement")
    tree = statements[0]
    udf = tree.this
    props = tree.args.get("properties")
    kinds = [type(p) for p in props.expressions] if props else []
    returns = next((p.this for p in props.expressions if isinstance(p, exp.ReturnsProperty)),
                   None) if props else None
    if exp.TemporaryProperty not in kinds or returns is None or \
            not isinstance(tree.expression, exp.Return):
        raise LibraryError(f"{where} must be CREATE TEMPORARY FUNCTION ... RETURNS <type> "
                           "RETURN <expression>")
    name = udf.this.name
    if name != PREFIX + path.stem or not _NAME.match(name):
        raise LibraryError(f"{where} must define {PREFIX}{path.stem}, not {name}")
    params, types = [], []
    for p in udf.expressions:
        if not isinstance(p, exp.ColumnDef) or not isinstance(p.args.get("kind"), exp.DataType):
            raise LibraryError(f"{where}: every parameter of {name} needs a type")
        if p.args["kind"].this == exp.DataType.Type.DECIMAL:
            # a DECIMAL(p,s) parameter casts its argument to that scale
            raise LibraryError(f"{where}: {name} may not take a DECIMAL parameter")
        params.append(p.name)
        types.append(p.args["kind"].sql(DIALECT))
    body = tree.expression.this
    # a lambda's own variables (TRANSFORM(a, (x) -> ...)) are read like columns too
    bound = {i.name for lam in body.find_all(exp.Lambda) for i in lam.expressions}
    for col in body.find_all(exp.Column):
        if col.table or col.name not in params and col.name not in bound:
            raise LibraryError(f"{where}: {name} reads {col.sql(DIALECT)}, which is none of "
                               "its parameters")
    calls = tuple(dict.fromkeys(n for n in (_called(e) for e in body.find_all(exp.Anonymous))
                                if n))
    return Function(name, tuple(params), tuple(types), returns.sql(DIALECT), body, comment,
                    calls, body.find(exp.RegexpLike) is not None)


def _called(node: exp.Expression) -> str | None:
    """The library function an anonymous call names, or None for any other function."""
    if not isinstance(node, exp.Anonymous):
        return None
    name = str(node.name).lower()
    return name if name.startswith(PREFIX) else None


def _ordered(names, by_name: dict[str, Function]) -> list[str]:
    """`names` with the functions they call, each after those it calls."""
    out: list[str] = []
    visiting: set[str] = set()

    def visit(name: str) -> None:
        if name in out:
            return
        if name in visiting:
            raise LibraryError(f"the library's functions call each other in a cycle ({name})")
        visiting.add(name)
        for c in by_name[name].calls:
            visit(c)
        visiting.discard(name)
        out.append(name)
    for n in sorted(names):
        visit(n)
    return out


# ---- the lowering's side ---------------------------------------------------------------------
def call(name: str, *args: exp.Expression) -> exp.Expression:
    """A call of library function `cxl_<name>`."""
    fn = library().get(PREFIX + name)
    if fn is None:
        raise LibraryError(f"the function library has no {PREFIX}{name}")
    if len(args) != len(fn.params):
        raise LibraryError(f"{fn.name} takes {len(fn.params)} argument(s), given {len(args)}")
    return exp.Anonymous(this=fn.name, expressions=list(args))


def called(node: exp.Expression) -> Function | None:
    """The library function `node` calls, or None when it is no such call."""
    name = _called(node)
    return library().get(name) if name else None


# ---- the compiler's side ---------------------------------------------------------------------
def used(tree: exp.Expression) -> set[str]:
    """The library functions a statement calls (not those they call in turn)."""
    lib = library()
    return {n for n in (_called(e) for e in tree.find_all(exp.Anonymous)) if n in lib}


def used_in_text(sql: str) -> set[str]:
    """The library functions a statement's text calls: from its tokens, so that a string
    literal or a comment holding a name does not count, and any statement Spark reads
    (an INSERT OVERWRITE DIRECTORY too) can be read."""
    if PREFIX not in sql.lower():
        return set()
    lib = library()
    tokens = sqlglot.Dialect.get_or_raise(DIALECT).tokenize(sql)
    return {t.text.lower() for t, after in zip(tokens, tokens[1:])
            if after.token_type == sqlglot.TokenType.L_PAREN and t.text.lower() in lib}


def definitions(names) -> list[tuple[Function, str]]:
    """The functions `names` with those they call, each after those it calls, and the
    CREATE TEMPORARY FUNCTION text of each (pretty-printed)."""
    lib = library()
    return [(lib[n], create_sql(lib[n])) for n in _ordered(set(names), lib)]


def create_sql(fn: Function) -> str:
    params = ", ".join(f"{p} {t}" for p, t in zip(fn.params, fn.param_types))
    # OR REPLACE: a session runs several pipelines, or one again, as it redefines views
    text = f"CREATE OR REPLACE TEMPORARY FUNCTION {fn.name}({params}) RETURNS {fn.returns} " \
           f"RETURN {fn.body.sql(DIALECT)}"
    return sqlglot.transpile(text, read=DIALECT, write=DIALECT, pretty=True)[0]


def inline_in_lambdas(tree: exp.Expression) -> exp.Expression:
    """`tree` with every library call inside a lambda replaced by the function's body
    (Spark cannot call a SQL function there)."""
    counter = [0]
    while True:  # a body or an argument put in place may hold calls in turn
        node = next((n for n in tree.find_all(exp.Anonymous) if called(n) is not None
                     and (_in_higher_order(n) or _takes_lambda(n))), None)
        if node is None:
            return tree
        node.replace(inline(node, counter))


def _in_higher_order(node: exp.Expression) -> bool:
    """Whether `node` is inside a higher-order function call (one with a lambda argument):
    in its lambda, or in another argument (`TRANSFORM(ARRAY(f(x)), (s) -> ...)`), which
    Spark refuses too (UNSUPPORTED_FEATURE.LAMBDA_FUNCTION_WITH_SQL_UDF); or in the
    argument of a library function whose body holds a lambda (`cxl_json_entries`), where
    Spark puts it once it inlines that body."""
    parent = node.parent
    while parent is not None:
        if isinstance(parent, exp.Lambda) or any(
                isinstance(a, exp.Lambda) for a in parent.iter_expressions()):
            return True
        fn = called(parent) if isinstance(parent, exp.Anonymous) else None
        if fn is not None and fn.body.find(exp.Lambda) is not None:
            return True
        parent = parent.parent
    return False


def _takes_lambda(call: exp.Anonymous) -> bool:
    """Whether an argument of the library call holds a lambda, which Spark refuses as
    well (LAMBDA_FUNCTION_WITH_SQL_UDF): the call is then its body."""
    return any(a.find(exp.Lambda) is not None for a in call.expressions)


def without_calls(sql: str) -> str:
    """An expression's SQL text with every library call written as the function's body:
    Spark accepts no SQL function in an observation (`Dataset.observe`, CollectMetrics:
    UNSUPPORTED_SQL_UDF_USAGE), where a run counts rows meeting a compiled condition."""
    if not used_in_text(sql):
        return sql
    tree = sqlglot.parse_one(sql, dialect=DIALECT)
    counter = [0]
    while True:  # a body or an argument put in place may hold calls in turn
        node = next((n for n in tree.find_all(exp.Anonymous) if called(n) is not None), None)
        if node is None:
            return tree.sql(dialect=DIALECT)
        body = inline(node, counter)
        if node is tree:
            tree = body
        else:
            node.replace(body)


def inline(node: exp.Anonymous, counter: list[int] | None = None) -> exp.Expression:
    """The body of the function `node` calls, its arguments in place of its parameters
    (the calls the body or the arguments hold are left as they are).
    An argument read more than once that is not a plain column or literal is bound once
    through a one-element TRANSFORM, as a call would project it once."""
    counter = counter if counter is not None else [0]
    fn = called(node)
    assert fn is not None
    body = fn.body.copy()
    bindings: list[tuple[str, exp.Expression]] = []
    for param, spark_type, arg in zip(fn.params, fn.param_types, node.expressions):
        # a call casts its argument to the parameter's type; so does its inline form
        if not (isinstance(arg, exp.Cast) and not isinstance(arg, exp.TryCast) and
                arg.to.sql(DIALECT) == spark_type):
            arg = exp.Cast(this=arg.copy(), to=exp.DataType.build(spark_type, dialect=DIALECT))
        reads = [c for c in body.find_all(exp.Column) if c.name == param]
        if len(reads) > 1 and not _plain(arg):
            counter[0] += 1
            var = f"_cxl_{param}{counter[0]}"
            bindings.append((var, arg))
            arg = exp.column(exp.to_identifier(var, quoted=True))
        for c in reads:
            c.replace(arg.copy())
    for var, arg in reversed(bindings):
        lam = exp.Lambda(this=body, expressions=[exp.to_identifier(var, quoted=True)])
        body = exp.Anonymous(this="GET", expressions=[
            exp.Anonymous(this="TRANSFORM", expressions=[
                exp.Anonymous(this="ARRAY", expressions=[arg]), lam]),
            exp.Literal.number(0)])
    return exp.Paren(this=body) if isinstance(body, exp.Connector) else body


def _plain(e: exp.Expression) -> bool:
    if isinstance(e, exp.Paren):
        return _plain(e.this)
    if isinstance(e, (exp.Column, exp.Literal, exp.Null, exp.Boolean)):
        return True
    return isinstance(e, exp.Cast) and isinstance(e.this, (exp.Literal, exp.Null))
