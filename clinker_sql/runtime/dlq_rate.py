"""DLQ rate ceilings (`error_handling.dlq.max_rate`, `per_source.<s>.max_rate`).

Clinker checks them after each DLQ entry: a source's entries over the rows read from it
(E316), and all entries over all rows read (E315), once `min_records` rows were read;
`>=` trips, and the run ends with exit 3 and no output. clinker-sql has no "after each
entry": it checks the run's totals, after the writes are staged and before any is
committed. The two agree whenever Clinker has read the rows before it meets the errors
(every node runs over its whole input in turn, unless a chain streams) and whenever the
rate holds at the end; a run whose errors come early in a streamed chain, and then thin
out below the ceiling, ends here where Clinker would have halted. Documented in
docs/status.md ("DLQ rate ceilings").
"""

from __future__ import annotations

from typing import Any

from clinker_sql.codegen.run_plan import DlqLimits
from clinker_sql.diagnostics import EXIT_EVAL, fail


def check(limits: DlqLimits | None, counts: dict[str, Any], sources: list[str]) -> None:
    if limits is None:
        return
    for src, limit in sorted(limits.sources.items()):
        total, dlq = int(counts.get(f"total:{src}") or 0), int(counts.get(f"dlq:{src}") or 0)
        _check("E316", f"source '{src}'", dlq, total, limit.max_rate, limit.min_records)
    if limits.pipeline is not None:
        total = sum(int(counts.get(f"total:{s}") or 0) for s in sources)
        _check("E315", "the pipeline", int(counts.get("dlq") or 0), total,
               limits.pipeline.max_rate, limits.pipeline.min_records)


def _check(code: str, who: str, dlq: int, total: int, max_rate: float, floor: int) -> None:
    """Clinker's check_dlq_rate: `>=` trips, once `floor` rows were read."""
    if total > 0 and total >= floor and dlq / total >= max_rate:
        raise fail(code, f"DLQ rate exceeded for {who}: {dlq} of {total} rows "
                   f"({dlq / total:.4g}) reached max_rate {max_rate:g}",
                   hint="fix the failing rows, or raise max_rate / min_records in "
                        "error_handling.dlq", exit=EXIT_EVAL)
