"""Binds the run's identity (codegen/run_identity.py) at the start of a run: one
`SET VAR` of the session variables the compiled session.sql declared, from values made
here, so that the compiled SQL stays the same from run to run. As Clinker (crates/clinker
main.rs, machine.rs): the execution id and the batch id are UUID v7s, the start time is
the run's start in UTC, as a date_time without zone."""

from __future__ import annotations

import datetime as dt
import os
import time
import uuid
from dataclasses import dataclass, field

from clinker_sql import sqlbuild as S
from clinker_sql.codegen.run_identity import RunIdentity


def uuid7() -> str:
    """A UUID v7 (RFC 9562): 48 bits of Unix milliseconds, then random bits."""
    ms = time.time_ns() // 1_000_000
    rand = int.from_bytes(os.urandom(10), "big")
    value = (ms << 80) | (0x7 << 76) | ((rand >> 68) & 0xFFF) << 64 | (0b10 << 62) | (
        rand & ((1 << 62) - 1))
    return str(uuid.UUID(int=value))


@dataclass(frozen=True)
class Identity:
    execution_id: str = field(default_factory=uuid7)
    batch_id: str = field(default_factory=uuid7)
    start_time: dt.datetime = field(
        default_factory=lambda: dt.datetime.now(dt.timezone.utc).replace(tzinfo=None))

    def literal(self, member: str):
        if member == "start_time":
            return S.cast(S.string(self.start_time.isoformat(sep=" ")), "TIMESTAMP_NTZ")
        return S.string(getattr(self, member))


def set_sql(step: RunIdentity, identity: Identity) -> str:
    """`SET VAR a = ..., b = ...`: the names and values printed by sqlglot."""
    return "SET VAR " + ", ".join(
        f"{S.to_sql(S.ident(name))} = {S.to_sql(identity.literal(member))}"
        for member, name in step.variables)


def bind(executor, step, identity: Identity | None = None) -> Identity | None:
    """After a setup statement: set the run identity when its step asks for it."""
    if not isinstance(step, RunIdentity):
        return None
    identity = identity or Identity()
    executor.execute(set_sql(step, identity))
    return identity
