"""The CXL modules a compile admitted, as seen by the parser.

A program's module references are resolved where it is parsed, so that every pass that
reads a program (lowering, lineage, fusion, the aggregate and combine planners) sees the
same program with its module calls inlined and its constants substituted, and lowering
never meets a module. The compile of one pipeline binds its resolver for its duration
(`admitted`); the resolver (cxl/modules.py) reads the module files under the pipeline's
rules root, which is why it is bound rather than global.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar

from clinker_sql.cxl import ast as a

Resolver = Callable[[a.Program], a.Program]

_ACTIVE: ContextVar[Resolver | None] = ContextVar("cxl_modules", default=None)


@contextmanager
def admitted(resolver: Resolver) -> Iterator[None]:
    token = _ACTIVE.set(resolver)
    try:
        yield
    finally:
        _ACTIVE.reset(token)


def resolve(program: a.Program) -> a.Program:
    """`program` with its `use`s resolved; unchanged when it has none, or when no compile
    is under way (then lowering reports the `use` it cannot resolve)."""
    resolver = _ACTIVE.get()
    if resolver is None or not any(isinstance(s, a.Use) for s in program.statements):
        return program
    return resolver(program)
