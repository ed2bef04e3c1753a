"""Shared state while compiling one pipeline."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from clinker_sql.codegen.plan import Compiled, ErrorView, Relation, Statement
from clinker_sql.config import model as m


@dataclass
class Context:
    pipeline: m.Pipeline
    compiled: Compiled
    relations: dict[tuple[str, str | None], Relation] = field(default_factory=dict)
    error_views: list[ErrorView] = field(default_factory=list)
    # a fused chain's error views (codegen/fusion.py): view -> (the chain's failing rows, node)
    fused_errors: dict[str, tuple[str, str]] = field(default_factory=dict)
    # sources whose `$source.row` holds positions (codegen/numbering.py): source ->
    # (order, files view, offsets view, rows view)
    numbered: dict[str, tuple[int, str, str, str]] = field(default_factory=dict)
    # sources with a sort_order (codegen/source_order.py): source -> (order, rows view)
    sorted_rows: dict[str, tuple[int, str]] = field(default_factory=dict)
    # a fused chain's good-rows view -> (its carry view, its failing rows' view): a sink
    # reading it writes the failing rows as it goes (codegen/split_write.py)
    chain_ends: dict[str, tuple[str, str]] = field(default_factory=dict)
    # the folder relative source paths resolve against, when the compiler may read the
    # sources' CSV headers (codegen/unmapped.py); None: it reads no file
    base: Path | None = None
    # combines whose rows carry their driver's document (`$doc`): a strict aggregate that
    # groups per document reads them (codegen/compiler.py)
    documents: set[str] = field(default_factory=set)

    @staticmethod
    def view(node: str, part: str | None = None) -> str:
        # Node names never contain '.', so `node.part` cannot collide with another node's view.
        return node if part is None else f"{node}.{part}"

    def add(self, stmt: Statement) -> None:
        self.compiled.add(stmt)
