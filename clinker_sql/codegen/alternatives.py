"""The statements a run picks at run time, compiled like every other (issue 39: what runs
is exactly what is compiled). Each is an `alternative` statement, placed after the run's
own statements in engine/NN_<name>.sql with a header that says when the runner runs it;
the runner finds it by name (`Compiled.alternative`) and never builds SQL text itself.

- `adaptive.allow`: Spark's adaptive rule that drops an empty branch is allowed for a
  statement whose plan observes nothing (runtime/runner.py, `_Views.adaptive`); the
  session's own setting (session.sql) excludes it again after that statement;
- `<sink>.listed`: the files of the source a sink writing one file per source file
  follows (codegen/sink.py, `FanOut`);
- `<sink>.prepare`, `<sink>.tables`, `<sink>.swap`, `<sink>.swap_new`, `<sink>.discard`:
  a table sink's staging table dropped before the write, the tables of its database
  listed, the staging table swapped in (over an existing table, or as a new one), the
  staging table dropped when the run fails (codegen/sink.py);
- `retraction.news`: whether a retraction pass found new triggers (codegen/retraction.py);
- `<view>.side`: a chain's failing rows defined over the lines a write split off
  (codegen/split_write.py), when the write split off any;
- `<view>.clean_groups`: an aggregate's emitted rows from the clean groups its chain's
  pass computed, when nothing is retracted before it (codegen/one_pass.py).
"""

from __future__ import annotations

from clinker_sql.codegen import retraction as R
from clinker_sql.codegen import sink as T
from clinker_sql.codegen.plan import Compiled, Statement
from clinker_sql.codegen.run_plan import AlternativeStep, ViewStep, WriteStep
from clinker_sql.codegen.templates import ident

ADAPTIVE_ALLOW = "adaptive.allow"
RETRACTION_NEWS = "retraction.news"


def listed(sink: str) -> str:
    return f"{sink}.listed"


def side(view: str) -> str:
    return f"{view}.side"


def clean_groups(view: str) -> str:
    return f"{view}.clean_groups"


def table(sink: str, what: str) -> str:
    """`what`: prepare, tables, swap, swap_new or discard."""
    return f"{sink}.{what}"


def add_alternatives(compiled: Compiled, adaptive_key: str) -> None:
    """Append every alternative the run of `compiled` may pick; `adaptive_key`: the
    session setting that excludes the adaptive empty-branch rule (codegen/compiler.py)."""
    add = _adder(compiled)
    add(ADAPTIVE_ALLOW, f"RESET {adaptive_key}",
        "run before a statement whose plan observes nothing: Spark may then drop a branch "
        "that ran empty; the session's setting excludes that rule again after it")
    for stmt in list(compiled.statements):
        step = stmt.step
        if isinstance(step, ViewStep) and step.clean_groups is not None:
            unless = ", ".join(step.clean_groups.unless)
            add(clean_groups(stmt.name), step.clean_groups.define,
                f"run in place of {stmt.name} when {unless} has no row: nothing is "
                "retracted before it")
        if not isinstance(step, WriteStep):
            continue
        if step.split is not None:
            add(side(step.split.failed), step.split.define,
                f"run after the write of {stmt.name} when it split off failing rows: "
                f"{step.split.failed} reads them")
        if step.fan_out is not None and step.fan_out.files is not None:
            add(listed(stmt.name), f"SELECT DISTINCT `$path` AS p FROM "
                f"{ident(step.fan_out.files)} ORDER BY p",
                f"run after the write of {stmt.name}: the files it wrote one output for")
        if step.format == "table":
            for sql in T.table_prepare_statements(step):
                add(table(stmt.name, "prepare"), sql,
                    f"run before the write of {stmt.name}: a staging table a crashed run "
                    "left is dropped")
            add(table(stmt.name, "tables"), T.table_listing_sql(step),
                f"run at the commit of {stmt.name}: whether its table exists")
            for what, exists in (("swap", True), ("swap_new", False)):
                for sql in T.table_swap_statements(step, exists):
                    add(table(stmt.name, what), sql,
                        f"run at the commit of {stmt.name} when its table "
                        f"{'exists' if exists else 'does not exist yet'}: the staging "
                        "table takes its name")
            for sql in T.table_discard_statements(step):
                add(table(stmt.name, "discard"), sql,
                    f"run when the run fails: the staging table of {stmt.name} is dropped")
    if any(s.kind == "fixpoint" for s in compiled.statements):
        add(RETRACTION_NEWS, R.news_sql(),
            "run after each retraction pass: a row when it found new triggers")


def _adder(compiled: Compiled):
    def add(name: str, sql: str, used: str) -> None:
        compiled.add(Statement("alternative", None, name, sql, header=f"{name}: {used}",
                               step=AlternativeStep(used)))
    return add
