"""The common column shape of every error view (one row = one DLQ entry)."""

from __future__ import annotations

from sqlglot import exp

from clinker_sql import sqlbuild as S
from clinker_sql.codegen.names import SOURCE_ORDER as ORDER

DLQ_COLUMNS = ("_cxl_dlq_source_file", "_cxl_dlq_source_name", "_cxl_dlq_source_row",
               "_cxl_dlq_triggering_field", "_cxl_dlq_triggering_value",
               "_cxl_dlq_error_category", "_cxl_dlq_error_detail", "_cxl_dlq_stage",
               "_cxl_dlq_route", "_cxl_dlq_trigger")


def real_row() -> exp.Expression:
    """A record of a source row, not an aggregate's row (those have a negative order)."""
    return exp.GTE(this=S.col(ORDER), expression=S.bigint(0))


def dlq_select(*, source_name: exp.Expression, source_file: exp.Expression,
               source_row: exp.Expression, order: exp.Expression, field: exp.Expression,
               value: exp.Expression, category: exp.Expression, detail: exp.Expression,
               stage: exp.Expression, trigger: bool, payload: dict[str, exp.Expression],
               route: exp.Expression | None = None,
               extra: dict[str, exp.Expression] | None = None,
               ) -> list[tuple[exp.Expression, str]]:
    """Select-list items of an error view. `payload` values must already be text."""
    items = [
        (source_file, "_cxl_dlq_source_file"),
        (source_name, "_cxl_dlq_source_name"),
        (S.cast(source_row, "BIGINT"), "_cxl_dlq_source_row"),
        (field, "_cxl_dlq_triggering_field"),
        (value, "_cxl_dlq_triggering_value"),
        (category, "_cxl_dlq_error_category"),
        (detail, "_cxl_dlq_error_detail"),
        (stage, "_cxl_dlq_stage"),
        (route if route is not None else S.cast(S.null(), "STRING"), "_cxl_dlq_route"),
        (S.boolean(trigger), "_cxl_dlq_trigger"),
        (S.cast(order, "BIGINT"), ORDER),
    ]
    items += [(v, k) for k, v in (extra or {}).items()]
    items += [(v, k) for k, v in payload.items()]
    return items
