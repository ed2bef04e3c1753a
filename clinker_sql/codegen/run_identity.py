"""The run's identity in CXL: `$pipeline.execution_id`, `$pipeline.batch_id` and
`$pipeline.start_time` (Clinker's cxl eval/context.rs `resolve_pipeline_stable`: two
strings, a UUID v7 each unless the run is given a batch id, and the run's start as a UTC
date_time without zone).

Their values change from run to run, and the compiled SQL must not: each is a Spark session
variable, declared in session.sql (`DECLARE OR REPLACE VARIABLE`) and read by the views as
`system.session.<variable>`; the runner sets them once, at the start of each run, from the
`RunIdentity` step of the last declaration (runtime/run_identity.py). A pipeline that
reads none of them declares nothing."""

from __future__ import annotations

import re
from dataclasses import dataclass

from sqlglot import exp

from clinker_sql import sqlbuild as S
from clinker_sql.codegen.numbering import cxl_programs
from clinker_sql.codegen.plan import Statement
from clinker_sql.codegen.run_plan import Step
from clinker_sql.config import model as m
from clinker_sql.cxl import types as T

# member -> (session variable, CXL type, Spark type)
MEMBERS = {
    "execution_id": ("clinker_execution_id", T.STRING, "STRING"),
    "batch_id": ("clinker_batch_id", T.STRING, "STRING"),
    "start_time": ("clinker_start_time", T.DATETIME, "TIMESTAMP_NTZ"),
}
_READS = re.compile(r"\$pipeline\s*\.\s*(execution_id|batch_id|start_time)\b")


@dataclass(frozen=True)
class RunIdentity(Step):
    """What the runner binds at the start of a run: (member, session variable) pairs."""
    variables: tuple[tuple[str, str], ...] = ()


def variable(member: str) -> exp.Expression:
    """A view's read of the member: `system`.`session`.`clinker_<member>`."""
    return exp.Column(this=S.ident(MEMBERS[member][0]), table=S.ident("session"),
                      db=S.ident("system"))


def system_scope() -> dict[tuple[str, str], tuple[exp.Expression, T.CxlType]]:
    """The members as the CXL lowerer's system variables."""
    return {("pipeline", k): (variable(k), t) for k, (_, t, _) in MEMBERS.items()}


def read_members(pipeline: m.Pipeline) -> list[str]:
    """The members the pipeline's CXL programs read, in MEMBERS' order."""
    found = {match for c in cxl_programs(pipeline) for match in _READS.findall(c.text)}
    return [k for k in MEMBERS if k in found]


def declarations(pipeline: m.Pipeline) -> list[Statement]:
    """session.sql's declarations of the members the pipeline reads; the last one carries
    the step the runner binds them by."""
    members = read_members(pipeline)
    out = []
    for i, member in enumerate(members):
        name, _, spark_type = MEMBERS[member]
        step = RunIdentity(variables=tuple((k, MEMBERS[k][0]) for k in members)) \
            if i == len(members) - 1 else None
        out.append(Statement("setup", None, name, "DECLARE OR REPLACE VARIABLE "
                             f"{S.to_sql(S.ident(name))} {spark_type}", step=step))
    return out
