"""What the remote targets (a Spark Thrift server, a Spark Connect server) share: paths
made absolute for a server that resolves them against its own working folder, loopback
hosts, numbers of seconds, the statement-timeout error."""

from __future__ import annotations

import ipaddress
import os
import re
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from clinker_sql import sqlbuild as S
from clinker_sql.codegen.plan import Compiled, Statement
from clinker_sql.codegen.run_plan import WriteStep
from clinker_sql.diagnostics import fail
from clinker_sql.runtime.executor import Executor, StatementFailed


def is_loopback(host: str) -> bool:
    if host.lower() in ("localhost", "localhost.localdomain", "ip6-localhost"):
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


@dataclass(frozen=True)
class RemoteTarget:
    """What every remote target has beside its own fields (which come first, positionally):
    the host, how long to wait, whether the server sees this machine's paths."""

    host: str
    #: None: true exactly when the host is loopback
    shared_filesystem: bool | None = field(default=None, kw_only=True)
    statement_timeout: float = field(default=3600.0, kw_only=True)  # seconds per statement
    connect_timeout: float = field(default=30.0, kw_only=True)
    name: str = field(default="", kw_only=True)  # the profile target's name, for messages

    @property
    def url_host(self) -> str:
        """The host as a URL writes it (an IPv6 address in brackets)."""
        return f"[{self.host}]" if ":" in self.host else self.host

    @property
    def loopback(self) -> bool:
        return is_loopback(self.host)

    @property
    def shares_files(self) -> bool:
        return self.loopback if self.shared_filesystem is None else self.shared_filesystem

    @property
    def url(self) -> str:
        raise NotImplementedError

    def validate(self) -> RemoteTarget:
        raise NotImplementedError

    def check_numbers(self, port: int) -> None:
        if not 0 < port < 65536:
            raise fail("CS035", f"invalid port {port}")
        if self.statement_timeout <= 0 or self.connect_timeout <= 0:
            raise fail("CS035", "timeouts must be positive numbers of seconds")


class RemoteExecutor(Executor):
    """An executor on a server: it reads and writes the files itself, so the compiled
    paths are made absolute, and a server on another host keeps the run's scratch folder
    under the pipeline's folder (a path both machines see)."""

    target: RemoteTarget

    def __init__(self, target: RemoteTarget):
        self.target = target.validate()
        if not self.target.shares_files:
            raise fail("CS034", f"{self.target.url} is not on this machine: clinker-sql "
                       "assembles each output from the server's staging folder, which it "
                       "cannot read there")
        self.scratch_root: str | None = None  # the runner's checkpoint folder (None: /tmp)

    def prepare(self, compiled: Compiled, base: Path) -> Compiled:
        """Called by the runner before the first statement."""
        if not self.target.loopback:  # the run's scratch folder must be on the shared paths
            root = Path(base).resolve() / ".clinker-sql-scratch"
            root.mkdir(exist_ok=True)
            self.scratch_root = str(root)
        return absolutize(compiled, base)


def seconds(value: Any, what: str) -> float:
    try:
        return float(value)
    except (TypeError, ValueError):
        raise fail("CS035", f"{what} must be a number of seconds, not '{value}'") from None


# --------------------------------------------------------------------------
# paths: the server resolves relative paths against its own working folder
# --------------------------------------------------------------------------

_SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]+:")


def resolve_path(path: str, base: Path) -> str:
    """An absolute path for the server; URIs (file:, hdfs:, s3a: ...) are left alone."""
    if _SCHEME.match(path) or os.path.isabs(path):
        return path
    return os.path.normpath(os.path.join(os.path.abspath(base), path))


def absolutize(compiled: Compiled, base: Path) -> Compiled:
    """A copy of `compiled` whose path literals (source OPTIONS path, write directories)
    are absolute. The literals are found with sqlglot's tokenizer and rewritten as
    sqlglot string literals; nothing else in a statement changes (`$source.file` keeps
    the path as written, as in a local run)."""
    statements = []
    for stmt in compiled.statements:
        if isinstance(stmt.step, WriteStep) and stmt.step.format == "table":
            pass  # a warehouse table: no path
        elif stmt.kind == "write":
            stmt = _absolute_write(stmt, base)
        elif "OPTIONS" in stmt.sql.upper():
            stmt = replace(stmt, sql=_rewrite_options_path(stmt.sql, base))
        statements.append(stmt)
    return replace(compiled, statements=statements)


def _tokens(text: str):
    from sqlglot.dialects.spark import Spark

    return Spark().tokenize(text)


def _literal(value: str) -> str:
    return S.to_sql(S.string(value))


def _splice(text: str, edits: list[tuple[int, int, str]]) -> str:
    for start, end, new in sorted(edits, reverse=True):
        text = text[:start] + new + text[end + 1:]
    return text


def _absolute_write(stmt: Statement, base: Path) -> Statement:
    from sqlglot.tokens import TokenType

    toks = _tokens(stmt.sql)
    words = [t.text.upper() for t in toks[:5]]
    at = 3 if words[:3] == ["INSERT", "OVERWRITE", "DIRECTORY"] else \
        4 if words[:4] == ["INSERT", "OVERWRITE", "LOCAL", "DIRECTORY"] else None
    if at is None or toks[at].token_type != TokenType.STRING:
        raise RuntimeError(f"write statement {stmt.name} has no INSERT OVERWRITE DIRECTORY")
    lit = toks[at]
    if lit.text != stmt.step.staging:
        raise RuntimeError(f"write statement {stmt.name} writes to {lit.text!r}, "
                           f"not its staging folder")
    staging = resolve_path(lit.text, base)
    step = replace(stmt.step, staging=staging, path=resolve_path(stmt.step.path, base))
    return replace(stmt, sql=_splice(stmt.sql, [(lit.start, lit.end, _literal(staging))]),
                   step=step)


def _rewrite_options_path(text: str, base: Path) -> str:
    """`USING fmt OPTIONS ('path'='x', ...)`: make the value of the path key absolute."""
    from sqlglot.tokens import TokenType

    toks = _tokens(text)
    edits = []
    i = 0
    while i < len(toks):
        t = toks[i]
        if t.text.upper() == "OPTIONS" and i + 1 < len(toks) and \
                toks[i + 1].token_type == TokenType.L_PAREN:
            depth, j = 0, i + 1
            while j < len(toks):
                k = toks[j]
                if k.token_type == TokenType.L_PAREN:
                    depth += 1
                elif k.token_type == TokenType.R_PAREN:
                    depth -= 1
                    if depth == 0:
                        break
                elif depth == 1 and k.text.lower() == "path" and \
                        k.token_type in (TokenType.STRING, TokenType.VAR):
                    v = j + 1
                    if v < len(toks) and toks[v].token_type == TokenType.EQ:
                        v += 1
                    if v < len(toks) and toks[v].token_type == TokenType.STRING:
                        value = toks[v]
                        new = resolve_path(value.text, base)
                        if new != value.text:
                            edits.append((value.start, value.end, _literal(new)))
                        j = v
                j += 1
            i = j
        i += 1
    return _splice(text, edits)


def statement_timeout(seconds: float, cancelled: bool = True) -> StatementFailed:
    """CS033: a statement ran longer than the target's statement timeout."""
    how = "was cancelled" if cancelled else "the run stops (the server answered it late)"
    exc = StatementFailed(f"statement did not finish within {seconds:g}s and {how}",
                          "CLINKER_STATEMENT_TIMEOUT")
    exc.code = "CS033"  # type: ignore[attr-defined]
    return exc


def one_line(text: str) -> str:
    return next((ln.strip() for ln in text.splitlines() if ln.strip()), "")[:500]


def quietly(fn) -> None:
    try:
        fn()
    except Exception:  # noqa: BLE001 - cleanup after a failure already being reported
        pass
