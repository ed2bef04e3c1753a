"""What the runner needs to know of each compiled statement, beyond its SQL: one frozen
step per statement kind (`Statement.step`). The compiler decides these; the runner walks
them (runtime/runner.py) and never reads a statement's text to decide anything."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from clinker_sql.config.model import FileFilters


@dataclass(frozen=True)
class Counted:
    """Rows of `view` meeting a condition, counted by a copy of `view` as it is written
    (`count`: the SQL aggregate; codegen/materialize.py)."""

    view: str
    count: str


@dataclass(frozen=True)
class Discovery:
    """A source's file matcher, checked by a run before anything else (config/discovery.py)."""

    source: str
    kind: str
    paths: tuple[str, ...]
    on_no_match: str
    filters: FileFilters | None = None  # the files it keeps (None: all that match)


@dataclass(frozen=True)
class Listing:
    """A source's files checkpoint made by listing `scan`'s files into `view`, then
    running `sql` (codegen/source.py)."""

    scan: str
    view: str
    sql: str


@dataclass(frozen=True)
class CleanGroups:
    """An aggregate's `.final` defined over its clean groups when `unless` has no row
    (codegen/one_pass.py)."""

    define: str
    unless: tuple[str, ...]
    spec: str
    counted: tuple[str, ...]


@dataclass(frozen=True)
class FewFiles:
    """A source's rows view over a literal map of a few listed files (codegen/source.py)."""

    files: str
    sql: str
    render: Mapping[str, Any]
    fixed_path: str | None  # the one file of a `path:` source; None for a glob
    desc: bool


@dataclass(frozen=True)
class Step:
    """Nothing to know beyond the statement's SQL (setup, function, written)."""


@dataclass(frozen=True)
class ViewStep(Step):
    unread: bool = False  # kept for review; nothing in the run reads it (codegen/prune.py)
    discovery: Discovery | None = None  # a source's scan
    observed: str | None = None  # `<source>.total`: the rows view to count
    files: str | None = None  # `<source>.total`: the source's files view
    ck_sketch: str | None = None  # `<source>.total`: its correlation key as text
    suspect: str | None = None  # `<source>.total`: rows holding U+FFFD (input_bytes.py)
    counted_in: Counted | None = None  # an error view: the copy that counts its rows
    filters: Counted | None = None  # a checkpointed filter of a view (codegen/fusion.py)
    clean_groups: CleanGroups | None = None
    also_reads: tuple[str, ...] = ()  # views the runner may read for it (codegen/prune.py)
    few_files: FewFiles | None = None
    scan_columns: tuple[str, ...] | None = None  # a scan's columns (inspect/sqlcheck.py)


@dataclass(frozen=True)
class CheckpointStep(Step):
    unread: bool = False
    optional: bool = False  # dropped unless read often (materialize.MAX_PARSES)
    failures: bool = False  # a copy of failures: usually empty
    empty_unless: tuple[str, ...] | None = None  # views without which it has no row
    broadcast: bool = False  # made only so that Spark sizes a join's build side
    counts: Mapping[str, str] = field(default_factory=dict)  # view -> count, while copied
    local: bool = False  # a few rows: kept in the driver
    skip_unless: tuple[str, ...] | None = None  # made only when these have rows
    listing: Listing | None = None
    per_file: tuple[Mapping[str, Any], ...] | None = None  # the numbering's sources
    bound: Mapping[str, Any] | None = None  # correlation.py: the sketch bound of groups
    records_copy: bool = False  # a sink's records (codegen/records_copy.py)
    after_writes: bool = False  # only the DLQ needs it (codegen/empty_dlq.py)


@dataclass(frozen=True)
class CheckStep(Step):
    code: str | None = None  # the diagnostic of a row it finds (None: a plain query)
    after_writes: bool = False  # run after the writes (codegen/type_threshold.py)
    bytes_rows: str | None = None  # run only when this rows view held U+FFFD


@dataclass(frozen=True)
class FanOut:
    template: str  # the sink's path template
    files: str | None  # the view of the source's files


@dataclass(frozen=True)
class Split:
    """A write that also writes the failing rows of the chain before it
    (codegen/split_write.py)."""

    failed: str
    side: str
    define: str


@dataclass(frozen=True)
class Segments:
    """A sink's `split:` (config/sink_split.py): its records, each framed with its group
    key, are cut into files when the output is assembled (runtime/outputs.py)."""

    naming: str
    max_records: int | None = None
    max_bytes: int | None = None
    grouped: bool = False  # a new file only where the group key changes
    oversize_group: str = "warn"


@dataclass(frozen=True)
class Observe:
    view: str  # the view counted while the write reads it
    counts: Mapping[str, str]  # name -> SQL aggregate


@dataclass(frozen=True)
class WriteStep(Step):
    format: str = "csv"
    path: str | None = None
    staging: str | None = None
    header: tuple[str, ...] = ()
    include_header: bool = True
    delimiter: str = ","
    json_format: str = ""
    fan_out: FanOut | None = None
    split: Split | None = None
    observe: Observe | None = None
    table: tuple[str, ...] | None = None
    staging_table: tuple[str, ...] | None = None
    dlq: bool = False
    # a DLQ file of some sources' entries (`per_source.<s>.path`): only theirs, or all but
    # theirs; the runner writes it only when it has entries
    dlq_only: tuple[str, ...] = ()
    dlq_except: tuple[str, ...] = ()
    segments: Segments | None = None  # `split:` (codegen/sink_split.py)
    if_exists: str = "overwrite"  # error | unique_suffix: checked as the output is assembled
    unique_suffix_width: int = 0
    xml_root: str | None = None  # an XML output's document element (codegen/xml_sink.py)
    # a fixed-width output's line_separator (codegen/fixed_width_sink.py): `none` is
    # staged as an XML output's records are, and assembled without line breaks
    line_separator: str | None = None

    def output(self) -> dict[str, Any]:
        """The manifest's description of the output, in its long-standing key order."""
        if self.format == "table":
            return {"format": "table", "table": list(self.table or ()),
                    "staging_table": list(self.staging_table or ())}
        out: dict[str, Any] = {
            "path": self.path, "staging": self.staging, "format": self.format,
            "header": list(self.header), "include_header": self.include_header,
            "delimiter": self.delimiter, "json_format": self.json_format}
        if self.dlq:
            out["dlq"] = True
        if self.dlq_only or self.dlq_except:
            out["dlq_sources"] = {"only": list(self.dlq_only), "except": list(self.dlq_except)}
        if self.xml_root is not None:
            out["xml_root"] = self.xml_root
        if self.line_separator is not None:
            out["line_separator"] = self.line_separator
        if self.fan_out is not None:
            out["fan_out"] = {"template": self.fan_out.template, "files": self.fan_out.files}
        if self.split is not None:
            out["split"] = {"failed": self.split.failed, "side": self.split.side,
                            "define": self.split.define}
        if self.segments is not None:
            out["segments"] = {"naming": self.segments.naming,
                               "max_records": self.segments.max_records,
                               "max_bytes": self.segments.max_bytes,
                               "grouped": self.segments.grouped,
                               "oversize_group": self.segments.oversize_group}
        if self.if_exists != "overwrite":
            out["if_exists"] = self.if_exists
            out["unique_suffix_width"] = self.unique_suffix_width
        if self.observe is not None:
            out["observe"] = {"view": self.observe.view, "counts": dict(self.observe.counts)}
        return out


@dataclass(frozen=True)
class SinkOutput:
    """A sink as the run summary and the manifest know it (`Compiled.sinks`)."""

    name: str
    format: str
    rows_view: str  # the records it writes
    path: str | None = None  # a file sink's
    table: str | None = None  # a table sink's
    # a split write: its written rows are counted on this view, where this column holds
    observe_view: str | None = None
    observe_when: str | None = None

    def manifest(self) -> dict[str, Any]:
        where = {"table": self.table} if self.format == "table" else {"path": self.path}
        out = {"name": self.name, **where, "rows_view": self.rows_view, "format": self.format}
        if self.observe_view is not None:
            out.update(observe_view=self.observe_view, observe_when=self.observe_when)
        return out


@dataclass(frozen=True)
class RateLimit:
    max_rate: float
    min_records: int  # resolved: a source's own, else the pipeline's, else 100


@dataclass(frozen=True)
class DlqLimits:
    """The DLQ rate ceilings a run checks (runtime/dlq_rate.py)."""

    pipeline: RateLimit | None = None
    sources: Mapping[str, RateLimit] = field(default_factory=dict)


@dataclass(frozen=True)
class ReportStep(Step):
    # what it counts when the DLQ is known to be empty (runtime/runner.py): {unless: views
    # without a row of which the DLQ has none, totals: {column: the source's total view},
    # zeros: {column: its value}}
    empty_report: Mapping[str, Any] | None = None


@dataclass(frozen=True)
class FixpointStep(Step):
    # the error views computed again in every pass, when the first pass can end it
    late: tuple[str, ...] | None = None


@dataclass(frozen=True)
class AlternativeStep(Step):
    """A statement the run does not reach in order: the runner runs it, by its name, when a
    decision made at run time picks it (codegen/alternatives.py); `used` says when."""

    used: str = ""


_BY_KIND: dict[str, type[Step]] = {
    "view": ViewStep, "checkpoint": CheckpointStep, "check": CheckStep, "write": WriteStep,
    "report": ReportStep, "fixpoint": FixpointStep, "alternative": AlternativeStep,
}


def default_step(kind: str) -> Step:
    return _BY_KIND.get(kind, Step)()
