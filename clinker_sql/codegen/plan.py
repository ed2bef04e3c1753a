"""Intermediate forms of the compiler: what a node's view offers downstream, and
the ordered statements that make up a compiled pipeline."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Literal

from sqlglot import exp

from clinker_sql import sqlbuild as S
from clinker_sql.codegen.comments import comment_text
from clinker_sql.codegen.names import (  # noqa: F401 - re-exported to the node modules
    CK_PREFIX,
    DOC,
    FAN,
    SOURCE_FILE,
    SOURCE_NAME,
    SOURCE_ORDER,
    SOURCE_ROW,
    WIDENED,
    ck_column,
)
from clinker_sql.codegen.run_plan import DlqLimits, SinkOutput, Step, default_step
from clinker_sql.codegen.sort_key import arrival
from clinker_sql.cxl.text import to_cell
from clinker_sql.cxl.types import INT, STRING, CxlType

# The hidden engine columns carried by every row (design.md: row identity) are named in
# codegen/names.py. Fanned-out rows keep their source row's identity; `$fan` (one array
# entry per fan-out transform on its path) is only carried downstream of a fan-out.
FAN_TYPE = CxlType("array", INT)
# `$widened` (on_unmapped: auto_widen, codegen/unmapped.py): one map of text cells per
# row, invisible to CXL and the DLQ, expanded by a sink's include_unmapped. `$doc`: its
# driver row's document (spec §2.9); a combine's `$source.*` say `<merged>`, so a strict
# aggregate after it groups per `$doc`, carried only by relations such an aggregate reads.
WIDENED_TYPE = CxlType("map", STRING)


def ck_cell(value: exp.Expression, t: CxlType) -> exp.Expression:
    """A correlation-key field as the commit compares it: its cell text, '' as null."""
    return S.fn("nullif", to_cell(value, t), S.string(""))


@dataclass(frozen=True)
class Relation:
    """The good rows a node hands to its consumers."""

    view: str
    columns: tuple[tuple[str, CxlType], ...]  # user columns, in record order
    ck: tuple[tuple[str, CxlType], ...] = ()  # $ck.* columns present, in lattice order
    emitted: frozenset[str] | None = None  # names the nearest CXL node emitted (None = all)
    fan: bool = False  # rows carry `$fan` (an `emit each` upstream)
    # a fused chain's carry view (codegen/fusion.py): every row with `$live` and the
    # chain's DLQ structs, one fusion.CarriedErrors per node so far
    carried: tuple[Any, ...] = ()
    # the keys `$widened` may hold (in first-seen order); none: the rows have no `$widened`
    widened: tuple[str, ...] = ()
    doc: bool = False  # rows carry `$doc`

    @property
    def hidden(self) -> tuple[tuple[str, CxlType], ...]:
        base = ((SOURCE_NAME, STRING), (SOURCE_FILE, STRING), (SOURCE_ROW, INT),
                (SOURCE_ORDER, INT))
        return base + ((FAN, FAN_TYPE),) * self.fan + self.ck + \
            ((WIDENED, WIDENED_TYPE),) * bool(self.widened) + ((DOC, STRING),) * self.doc

    def document(self, col: Callable[[str], exp.Expression] = S.col) -> exp.Expression:
        """The document a row belongs to, one value per (source, file); `col`: how a
        column of these rows is read (a combine reads its driver's under other names)."""
        own = S.fn("concat", col(SOURCE_NAME), S.string("/"), col(SOURCE_FILE))
        return S.fn("coalesce", col(DOC), own) if self.doc else own

    @property
    def all_columns(self) -> tuple[tuple[str, CxlType], ...]:
        return self.columns + self.hidden

    def column_type(self, name: str) -> CxlType | None:
        return dict(self.all_columns).get(name)

    def arrival(self) -> list[str]:
        """Hidden columns giving the rows' arrival order."""
        return [SOURCE_ORDER, SOURCE_ROW] + [FAN] * self.fan

    def order_by(self) -> list[exp.Expression]:
        return [S.col(c) for c in self.arrival()]

    def sort_keys(self) -> list[exp.Expression]:
        """The keys of an output's one-partition sort: the arrival order packed into one
        BIGINT first (codegen/sort_key.py), then the arrival order itself."""
        return [arrival(S.col(SOURCE_ORDER), S.col(SOURCE_ROW))] + self.order_by()


@dataclass(frozen=True)
class ErrorView:
    """A view of DLQ entries raised at one node (already in the DLQ column shape)."""

    view: str
    node: str
    payload: tuple[str, ...]  # user columns of the failing record, in its order
    exit_code: int  # under fail_fast: 4 for source type errors, 3 for evaluation errors
    code: str  # diagnostic code under fail_fast
    # its detail names another row than its own: that row's order and position are in
    # its hidden `$ref.order` / `$ref.row` (codegen/numbering.py, a combine's build rows)
    refers: bool = False


# Which file of the compiled folder a statement goes to (codegen/artifacts.py): `node`, the
# statements that hold a user node's logic (nodes/<node>.sql); `engine`, the machinery
# around them (row identity, scans, checkpoints, errors, DLQ, commit, writes, checks, the
# report: engine/NN_<name>.sql); `function`, the SQL functions (functions.sql); `session`,
# the settings every statement relies on (session.sql).
Layer = Literal["node", "engine", "function", "session"]
NODE_LAYER: Layer = "node"
# the layer a statement of these kinds always has, whoever makes it
_KIND_LAYERS: dict[str, Layer] = {"setup": "session", "function": "function"}


@dataclass(frozen=True)
class Statement:
    # setup | function | view | checkpoint | check | write | report | written | fixpoint |
    # alternative (run only when the runner picks it: codegen/alternatives.py)
    kind: str
    node: str | None
    name: str  # view or output name
    sql: str
    header: str = ""  # one line of comment text (codegen/comments.py), names escaped
    step: Step | None = None  # what the runner needs of it (None: its kind's default)
    reads: tuple[str, ...] = ()  # tables and views the statement reads (set when formatted)
    # set where the statement is made: only the statements of a node's own logic say
    # `node`; everything else is machinery unless its kind says otherwise
    layer: Layer = "engine"

    def __post_init__(self) -> None:
        layer = _KIND_LAYERS.get(self.kind)
        if layer is not None:
            object.__setattr__(self, "layer", layer)
        elif self.layer in _KIND_LAYERS.values():
            raise ValueError(f"a {self.kind} statement cannot be in the {self.layer} layer")
        if self.layer == NODE_LAYER and self.node is None:
            raise ValueError(f"statement {self.name} holds a node's logic but names no node")
        # every header names nodes, views or paths: escaped where it is made, so that no
        # header can hold a line break, whoever builds or extends it
        object.__setattr__(self, "header", comment_text(self.header))
        if self.step is None:
            object.__setattr__(self, "step", default_step(self.kind))


@dataclass
class Compiled:
    pipeline: str
    file: str
    statements: list[Statement] = field(default_factory=list)
    relations: dict[str, Relation] = field(default_factory=dict)
    error_views: list[ErrorView] = field(default_factory=list)
    sinks: list[SinkOutput] = field(default_factory=list)
    dlq: dict[str, Any] | None = None
    strategy: str = "fail_fast"
    sources: list[str] = field(default_factory=list)
    warnings: list[Any] = field(default_factory=list)
    nodes: list[dict[str, Any]] = field(default_factory=list)
    aggregates: list[Any] = field(default_factory=list)
    # views the output writes read, with the condition of a row that makes a DLQ entry:
    # counted during the writes, they tell whether the DLQ is empty (codegen/empty_dlq.py)
    dlq_witnesses: dict[str, str] = field(default_factory=dict)
    # error view -> [its witness view, its condition]: the error views a run computes are
    # those whose condition met a row
    dlq_witnessed: dict[str, list[str]] = field(default_factory=dict)
    dlq_limits: DlqLimits | None = None  # DLQ rate ceilings (runtime/dlq_rate.py)

    def add(self, stmt: Statement) -> None:
        self.statements.append(stmt)

    def alternative(self, name: str) -> list[str]:
        """The texts of the compiled alternative `name`, in order (codegen/alternatives.py):
        one statement, or the several that do one thing (a table sink's swap)."""
        found = [s.sql for s in self.statements if s.kind == "alternative" and s.name == name]
        if not found:
            raise KeyError(f"no compiled alternative {name}")
        return found
    lineage: dict[str, Any] = field(default_factory=dict)  # node -> codegen.lineage.NodeLineage
