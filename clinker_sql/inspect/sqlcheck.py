"""`validate`: check every compiled statement with sqlglot, without Spark.

Statements are parsed (Spark dialect) in run order, and every column they read is
resolved against the views defined before them: the source scans' columns come from
the declared schemas, every later view's columns from its own (qualified) SELECT list.
A failure here is a compiler bug (CS041), never a mistake in the pipeline."""

from __future__ import annotations

from dataclasses import dataclass

import sqlglot
from sqlglot import exp
from sqlglot.errors import OptimizeError, ParseError
from sqlglot.optimizer.qualify import qualify
from sqlglot.schema import MappingSchema, normalize_name

from clinker_sql.codegen.plan import Compiled
from clinker_sql.codegen.run_plan import ViewStep
from clinker_sql.config import model as m
from clinker_sql.config.checks import shown  # names read from files: quoted, escaped, cut
from clinker_sql.cxl import functions
from clinker_sql.diagnostics import Diagnostic, DiagnosticError

DIALECT = "spark"
# an alternative (codegen/alternatives.py) is a setting, a listing, or another form of a
# statement checked here, some reading a write's side file whose columns are not known
_SKIP = ("setup", "fixpoint", "checkpoint", "alternative")


@dataclass(frozen=True)
class CheckReport:
    checked: int  # statements parsed and resolved
    views: int  # views whose columns are known


def _quoted(name: str) -> str:
    # MappingSchema parses its keys: quote them so that `$err` stays one identifier
    return "`" + name.replace("`", "``") + "`"


def _normalizer():
    """A column name as sqlglot's schema keeps it (Spark: case-folded), computed once per
    name: a schema that normalises its own keys parses each of them again, for every
    statement that reads the view (a long chain's views share most of their columns)."""
    memo: dict[str, str] = {}

    def normal(name: str) -> str:
        found = memo.get(name)
        if found is None:
            found = memo[name] = normalize_name(_quoted(name), dialect=DIALECT).name
        return found

    return normal


def _scan_columns(p: m.Pipeline, compiled: Compiled, node_name: str | None) -> list[str]:
    """The columns of a source's `USING <format>` scan view: the file's own names, as the
    compiler found them: the declared ones and the undeclared ones it carries in
    `$widened` (on_unmapped: auto_widen, read from the file's header or records). A JSON
    source's dotted name reads a field of a nested object: the scan has its top-level
    key, and the field resolves as a struct field of it."""
    node = p.node(node_name) if node_name else None
    if not isinstance(node, m.SourceNode):
        return []
    cfg = node.config
    if cfg.format == "csv" and not cfg.csv.has_header:
        return [f"_c{i}" for i in range(len(cfg.schema))]
    relation = compiled.relations.get(node.name)
    names = [c.source_name or c.name for c in cfg.schema]
    names += list(relation.widened) if relation is not None else []
    if cfg.format == "json":
        names = [n.split(".")[0] for n in names]
    return list(dict.fromkeys(names))


def _parse_one(text: str) -> exp.Expression:
    tree = sqlglot.parse_one(text, read=DIALECT)
    if isinstance(tree, exp.Command):  # sqlglot's fallback for what it cannot parse
        raise ParseError(f"unsupported syntax: {text.splitlines()[0][:80]}")
    return tree


def _parse(stmt_sql: str) -> exp.Expression:
    head, _, body = stmt_sql.partition("\n")
    if head.startswith("INSERT OVERWRITE DIRECTORY"):
        # `INSERT OVERWRITE DIRECTORY ... USING text` is Spark-only: check its query
        return _parse_one(body)
    return _parse_one(stmt_sql)


def check_statements(p: m.Pipeline, compiled: Compiled) -> CheckReport:
    aliases: dict[str, str] = {}  # view name -> a plain table name for sqlglot's schema
    tables: dict[str, dict[str, str]] = {}
    problems: list[Diagnostic] = []
    checked = 0
    normal = _normalizer()

    def define(name: str, columns: list[str]) -> None:
        aliases[name] = f"v{len(aliases)}"  # already normal: lower case, no quotes needed
        tables[aliases[name]] = {normal(c): "STRING" for c in columns}

    defined: set[str] = set()  # the library functions defined so far
    for stmt in compiled.statements:
        if stmt.kind in _SKIP:
            continue
        try:
            tree = _parse(stmt.sql)
        except ParseError as exc:
            problems.append(Diagnostic("CS041", f"{stmt.name}: does not parse: "
                                       f"{shown(str(exc).splitlines()[0])}"))
            continue
        # a library function is called only after its definition (cxl/functions.py)
        missing = sorted(functions.used(tree) - defined)
        if missing:
            problems.append(Diagnostic("CS041", f"{stmt.name}: calls {', '.join(missing)} "
                                       "before any statement defines it"))
        if stmt.kind == "function":
            udf = tree.this if isinstance(tree, exp.Create) else None
            if not isinstance(udf, exp.UserDefinedFunction) or \
                    udf.this.name not in functions.library():
                problems.append(Diagnostic("CS041", f"{stmt.name}: not a function of the "
                                           "library"))
            else:
                defined.add(udf.this.name)
            checked += 1
            continue
        name = None
        body: exp.Expression | None = tree
        if isinstance(tree, exp.Create):
            name = tree.this.name if isinstance(tree.this, exp.Table) else None
            body = tree.expression if isinstance(tree.expression, exp.Query) else None
            if body is None:  # CREATE VIEW ... USING csv OPTIONS (...): a source scan
                scan = stmt.step.scan_columns if isinstance(stmt.step, ViewStep) else None
                define(stmt.name, list(scan) if scan else _scan_columns(p, compiled, stmt.node))
                checked += 1
                continue
        elif isinstance(tree, exp.Insert):
            body = tree.expression
        # `body` was parsed here and nothing else holds it: qualified in place, not copied
        # (a copy of every statement was a third of the check)
        read: dict[str, dict[str, str]] = {}  # only the views this statement reads
        # a name the statement's WITH defines is that CTE, even where a view (a node's
        # output) has the same name
        ctes = {cte.alias for cte in body.find_all(exp.CTE)}
        for table in body.find_all(exp.Table):
            if table.name in aliases and table.name not in ctes and not table.args.get("db"):
                alias = aliases[table.name]
                read[alias] = tables[alias]
                table.set("this", exp.to_identifier(alias))
        try:
            # a schema of every view defined so far made each statement cost as much as
            # the pipeline before it (a long chain validated in quadratic time)
            schema = MappingSchema(read, dialect=DIALECT, normalize=False)  # keys are normal
            resolved = qualify(body, schema=schema,
                               dialect=DIALECT, validate_qualify_columns=True,
                               quote_identifiers=True, identify=True)
        except (OptimizeError, ValueError, KeyError) as exc:
            problems.append(Diagnostic("CS041", f"{stmt.name}: a column does not resolve: "
                                       f"{shown(str(exc).splitlines()[0])}"))
            resolved = None
        checked += 1
        if name is not None and stmt.kind == "view":
            source = resolved if resolved is not None else body
            scan = stmt.step.scan_columns if isinstance(stmt.step, ViewStep) else None
            # a generator's columns (a JSON record_path's INLINE) are given by its step
            define(stmt.name, list(scan) if scan else list(source.named_selects)
                   if isinstance(source, exp.Query) else [])
    if problems:
        raise DiagnosticError(problems)
    return CheckReport(checked, len(aliases))
