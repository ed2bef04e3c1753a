"""Typed, immutable model of a pipeline file (the output of the load pass)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from clinker_sql.config.path_template import PathTemplate
from clinker_sql.diagnostics import Location

SCALAR_TYPES = ("string", "int", "float", "bool", "decimal", "date", "date_time", "any", "null")
COLUMN_TYPES = SCALAR_TYPES + ("array", "map")


@dataclass(frozen=True)
class CxlSource:
    """A CXL program plus what is needed to map its positions back into the YAML."""

    text: str
    file: str
    line: int  # 1-based YAML line of the first CXL line
    column: int  # 1-based YAML column of the first CXL character on each line
    single_line: bool = False

    def location(self, cxl_line: int, cxl_col: int) -> Location:
        if self.single_line:
            return Location(self.file, self.line, self.column + cxl_col - 1)
        return Location(self.file, self.line + cxl_line - 1, self.column + cxl_col - 1)


@dataclass(frozen=True)
class FixedField:
    """A fixed-width column's byte range and padding (Clinker's ResolvedField): bytes
    `start` to `start + width` of the line; `trim` strips the `pad` character from the
    side opposite `justify`, then whitespace. A sink's column is padded on the side
    opposite `justify` with `pad`, and a value longer than `width` bytes is cut
    (`truncation` warn or silent) or stops the run (error: CS116)."""
    start: int
    width: int
    justify: str = "left"  # left | right
    pad: str = " "  # one ASCII character; "" strips whitespace only
    trim: bool = True
    truncation: str = "warn"  # a sink's: error | warn | silent
    end: int | None = None  # a sink's `end` until its start is resolved (fixed_width.py)


@dataclass(frozen=True)
class Column:
    name: str
    type: str
    nullable: bool = False
    loc: Location | None = None
    format: str | None = None
    precision: int | None = None
    scale: int | None = None
    source_name: str | None = None
    multiple: bool = False  # an array of values of `type` (codegen/multi_value.py)
    layout: FixedField | None = None  # a fixed-width source's byte range (fixed_width.py)


@dataclass(frozen=True)
class SplitValues:
    """A CSV source's `split_values` entry: the cell of `field` (the file's name) parsed
    into the array its `multiple: true` column holds."""
    field: str
    delimiter: str = ";"
    escape: str = ""
    json: bool = False
    loc: Location | None = None


@dataclass(frozen=True)
class SplitToRows:
    """A source's `split_to_rows` entry (one record per occurrence of `field`): on an XML
    source compiled by codegen/xml_source.py; on a JSON source read and checked (E358)
    only, then refused with CS001."""
    field: str
    keep_empty: bool = True
    mode: str = "extract"
    position_column: str | None = None
    loc: Location | None = None


@dataclass(frozen=True)
class JoinValues:
    """A CSV sink's `join_values` entry: how an array column is joined into one cell."""
    field: str
    delimiter: str = ";"
    on_conflict: str = "error"  # error | escape | encode_json
    escape: str = "\\"
    loc: Location | None = None


@dataclass(frozen=True)
class Ref:
    node: str
    port: str | None
    loc: Location

    def __str__(self) -> str:
        return f"{self.node}.{self.port}" if self.port else self.node


@dataclass(frozen=True)
class CsvOptions:
    delimiter: str = ","
    quote_char: str = '"'
    has_header: bool = True
    encoding: str = "utf-8"


@dataclass(frozen=True)
class JsonOptions:
    format: str | None = None  # array | ndjson | object | None (auto)
    record_path: str | None = None


@dataclass(frozen=True)
class XmlOptions:
    """An XML source's options (codegen/xml_source.py): the record elements' path of
    element names from the document element, and the prefix naming attribute fields."""
    record_path: str | None = None
    attribute_prefix: str = "@"


@dataclass(frozen=True)
class XmlSinkOptions:
    """An XML sink's document element, record element and attribute field prefix."""
    root_element: str = "Root"
    record_element: str = "Record"
    attribute_prefix: str = "@"
    # `join_values` entries: (field, repeat_as or None, wrap_in or None)
    repeats: tuple[tuple[str, str | None, str | None], ...] = ()


@dataclass(frozen=True)
class SortKey:
    """One `sort_order` entry: `field`, or `{field, order: asc|desc, null_order}`; nulls
    sort last by default whatever the direction (Clinker's compare_authored_values_with_
    nulls); `drop` (sinks only) leaves out the rows whose key is null."""
    field: str
    desc: bool = False
    null_order: str = "last"  # first | last | drop
    loc: Location | None = None


@dataclass(frozen=True)
class FileControls:
    """A source's `files:` block (Clinker's FileListingControls): files sorted by name
    (`desc`: descending), the first or last N of them (`take`: ("first"|"last", N)), and
    what no matching file means (`on_no_match`: error = E216, warn, skip = no rows)."""
    desc: bool = False
    take: tuple[str, int] | None = None
    on_no_match: str = "error"
    loc: Location | None = None


@dataclass(frozen=True)
class FileFilters:
    """The filters of Clinker's file discovery (config/file_filters.py): the files a
    `regex:` matches, under the pipeline's folder (walked recursively unless
    `files.recursive: false`), then those left after `exclude` (globs tried on the full
    path and on the name), `min_size` / `max_size` (bytes) and `modified_after` /
    `modified_before` (seconds since the epoch, a relative bound resolved when the
    pipeline is loaded, as Clinker resolves it when it parses the file)."""
    regex: str | None = None
    recursive: bool | None = None  # files.recursive; None: Clinker's default
    exclude: tuple[str, ...] = ()
    min_size: int | None = None
    max_size: int | None = None
    modified_after: float | None = None
    modified_before: float | None = None

    def active(self) -> bool:
        """Whether the files must be listed to be read (a plain path or glob is read as
        written)."""
        return self.regex is not None or bool(self.exclude) or any(
            v is not None for v in (self.min_size, self.max_size, self.modified_after,
                                    self.modified_before))


@dataclass(frozen=True)
class SourceConfig:
    name: str
    format: str  # csv | json | parquet | fixed_width | xml
    paths: tuple[str, ...]
    path_kind: str  # path | paths | glob | regex (`paths`: the pattern)
    schema: tuple[Column, ...]
    correlation_key: tuple[str, ...] = ()
    correlation_key_loc: Location | None = None
    csv: CsvOptions = CsvOptions()
    json: JsonOptions = JsonOptions()
    xml: XmlOptions = XmlOptions()
    on_unmapped: str = "auto_widen"  # auto_widen | drop | reject
    # `watermark:` (the key's location, its event-time column), checked as Clinker checks it
    # (E154, E155); read by a time-windowed aggregate (codegen/time_window.py)
    watermark: tuple[Location, str] | None = None
    watermark_delay_us: int = 0  # watermark.delay: event times are shifted earlier by it
    # accepted by Clinker, checked here as Clinker checks it, then refused (CS001) by
    # config/checks.py
    document_dlq: Location | None = None  # dlq_granularity: document
    # the order of the records inside each file (codegen/source_order.py): `warn` repairs
    # an unsorted file, `error` refuses it (E366)
    sort_order: tuple[SortKey, ...] = ()
    on_unsorted: str = "warn"
    files: FileControls = FileControls()  # `files:`: which files, in which order
    filters: FileFilters = FileFilters()  # regex, exclude, sizes, modification times
    split_values: tuple[SplitValues, ...] = ()  # a CSV or XML source's multi-value cells
    split_to_rows: tuple[SplitToRows, ...] = ()  # an XML source's fan-out (xml_source.py)
    line_separator: str = "lf"  # a fixed-width source's `options.line_separator`: lf | crlf


@dataclass(frozen=True)
class FanOut:
    """A sink writing one file per file of `source` (`{source_file}` in its path):
    `template` has its other tokens rendered; the run renders `{source_file}` once per
    source file (runtime/outputs.py)."""
    template: str
    source: str  # the source node whose files the sink's records come from


@dataclass(frozen=True)
class SinkSplit:
    """A sink's `split:` (Clinker's SplitConfig): a new file once the current one holds
    `max_records` records or `max_bytes` bytes, only where `group_key` changes when
    given; files named by `naming` ({stem}, {ext}, one {seq:NN}) next to the sink's
    path (config/sink_split.py, runtime/outputs.py)."""
    max_records: int | None = None
    max_bytes: int | None = None
    group_key: str | None = None
    naming: str = "{stem}_{seq:04}.{ext}"
    repeat_header: bool = True
    oversize_group: str = "warn"  # warn | error | allow


@dataclass(frozen=True)
class SinkConfig:
    name: str
    format: str  # csv | json | parquet | table | xml | fixed_width
    path: str  # "" for a table sink
    path_loc: Location
    include_unmapped: bool = True
    include_header: bool = True
    include_correlation_keys: bool = False
    exclude: tuple[str, ...] = ()
    mapping: tuple[tuple[str, str], ...] | None = None  # (output name, source column)
    delimiter: str = ","
    json_format: str = "array"
    json_pretty: bool = False
    preserve_nulls: bool = False
    correlation_fanout_policy: str | None = None
    table: tuple[str, ...] | None = None  # `type: table`: [catalog.][database.]name
    sort_order: tuple[SortKey, ...] = ()  # the written order; ties keep arrival order
    # `schema:`: for a CSV or JSON file only a decimal column's `scale`, which rounds on write
    schema: tuple[Column, ...] = ()
    join_values: tuple[JoinValues, ...] = ()  # a CSV sink's array cells
    # a path with `{token}`s (config/path_template.py), rendered by config/sink_paths.py
    template: PathTemplate | None = None
    fan_out: FanOut | None = None  # one file per source file (config/sink_paths.py)
    split: SinkSplit | None = None  # several files, cut by size (config/sink_split.py)
    if_exists: str = "overwrite"  # overwrite | error | unique_suffix
    unique_suffix_width: int = 0  # unique_suffix: the `-N` counter's zero-padded width
    xml: XmlSinkOptions | None = None  # an XML sink's element names (codegen/xml_sink.py)
    line_separator: str = "lf"  # a fixed-width sink's: lf | crlf | none (fixed_width_sink.py)

    @property
    def target(self) -> str:
        """What the sink writes, for messages: its path or its table name."""
        return ".".join(self.table) if self.table else self.path


@dataclass(frozen=True)
class AnalyticWindow:
    group_by: tuple[str, ...]
    sort_by: tuple[tuple[str, str], ...] = ()
    loc: Location | None = None


@dataclass(frozen=True)
class Node:
    name: str
    kind: str
    loc: Location
    description: str | None = None

    @property
    def inputs(self) -> tuple[Ref, ...]:
        return ()


@dataclass(frozen=True)
class SourceNode(Node):
    config: SourceConfig = None  # type: ignore[assignment]


@dataclass(frozen=True)
class LogDirective:
    """A transform's `log:` entry: observability only, but its field selectors and its
    condition are checked against the transform's input row, as Clinker does."""
    name: str = ""
    fields: tuple[str, ...] = ()
    condition: CxlSource | None = None
    loc: Location | None = None


@dataclass(frozen=True)
class TransformNode(Node):
    input: Ref = None  # type: ignore[assignment]
    cxl: CxlSource = None  # type: ignore[assignment]
    analytic_window: AnalyticWindow | None = None
    max_expansion: int = 10_000  # emit each: records per input row, counted across nesting
    log: tuple[LogDirective, ...] = ()

    @property
    def inputs(self) -> tuple[Ref, ...]:
        return (self.input,)


@dataclass(frozen=True)
class TimeWindow:
    """An aggregate's `time_window:` and `allowed_lateness:`, durations in microseconds."""

    loc: Location
    kind: str  # tumbling | hopping | session
    size_us: int  # a tumbling or hopping window's size; a session's gap
    slide_us: int = 0  # hopping only
    lateness_us: int = 0  # allowed_lateness


@dataclass(frozen=True)
class AggregateNode(Node):
    input: Ref = None  # type: ignore[assignment]
    group_by: tuple[str, ...] = ()
    cxl: CxlSource = None  # type: ignore[assignment]
    strategy: str = "auto"
    time_window: TimeWindow | None = None  # codegen/time_window.py

    @property
    def inputs(self) -> tuple[Ref, ...]:
        return (self.input,)


@dataclass(frozen=True)
class RouteNode(Node):
    input: Ref = None  # type: ignore[assignment]
    mode: str = "exclusive"
    conditions: tuple[tuple[str, CxlSource], ...] = ()
    default: str = ""

    @property
    def inputs(self) -> tuple[Ref, ...]:
        return (self.input,)

    @property
    def ports(self) -> tuple[str, ...]:
        return tuple(name for name, _ in self.conditions) + (self.default,)


@dataclass(frozen=True)
class CullNode(Node):
    """A group-level filter (spec §2.8): a group of `partition_by` is removed, every row of
    it to the `removed_to` port, when any rule's aggregate predicate holds; the kept rows
    leave by the bare node name."""
    input: Ref = None  # type: ignore[assignment]
    partition_by: tuple[str, ...] = ()
    order_by: tuple[SortKey, ...] = ()
    rules: tuple[tuple[str, CxlSource], ...] = ()  # (name, drop_group_when)
    removed_to: str = ""

    @property
    def inputs(self) -> tuple[Ref, ...]:
        return (self.input,)


@dataclass(frozen=True)
class ReshapeNode(Node):
    """Per-group mutation and synthesis (Clinker's ReshapeBody): the rows of a group of
    `partition_by`, ordered by `order_by`, meet each rule (config/reshape.py,
    ReshapeRule) and a trigger row is rewritten and/or has a row derived from it."""
    input: Ref = None  # type: ignore[assignment]
    partition_by: tuple[str, ...] = ()
    order_by: tuple[SortKey, ...] = ()
    rules: tuple[Any, ...] = ()  # config/reshape.py ReshapeRule, in declaration order

    @property
    def inputs(self) -> tuple[Ref, ...]:
        return (self.input,)


@dataclass(frozen=True)
class MergeNode(Node):
    merge_inputs: tuple[Ref, ...] = ()

    @property
    def inputs(self) -> tuple[Ref, ...]:
        return self.merge_inputs


@dataclass(frozen=True)
class CombineNode(Node):
    combine_inputs: tuple[tuple[str, Ref], ...] = ()
    where: CxlSource = None  # type: ignore[assignment]
    cxl: CxlSource = None  # type: ignore[assignment]
    match: str = "first"
    on_miss: str = "null_fields"
    drive: str | None = None
    propagate_ck: Any = "driver"
    max_output_rows: int | None = None  # more output rows abort the run (E325)

    @property
    def inputs(self) -> tuple[Ref, ...]:
        return tuple(ref for _, ref in self.combine_inputs)


@dataclass(frozen=True)
class SinkNode(Node):
    input: Ref = None  # type: ignore[assignment]
    config: SinkConfig = None  # type: ignore[assignment]

    @property
    def inputs(self) -> tuple[Ref, ...]:
        return (self.input,)


@dataclass(frozen=True)
class DlqLimit:
    """A DLQ rate ceiling: `max_rate` of the rows read, once `min_records` were read."""
    max_rate: float | None = None
    min_records: int | None = None  # None: the pipeline-wide value (default 100)
    path: str | None = None  # per source only: its own DLQ file (codegen/dlq.py)
    loc: Location | None = None


@dataclass(frozen=True)
class DlqConfig:
    path: str | None
    include_reason: bool = True
    include_source_row: bool = True
    loc: Location | None = None
    limit: DlqLimit = DlqLimit()
    per_source: tuple[tuple[str, DlqLimit], ...] = ()


@dataclass(frozen=True)
class ErrorHandling:
    strategy: str = "fail_fast"  # fail_fast | continue
    dlq: DlqConfig | None = None
    max_group_buffer: int = 100_000
    correlation_fanout_policy: str = "any"
    type_error_threshold: float | None = None  # share of source-type rejections (E368)
    loc: Location | None = None


@dataclass(frozen=True)
class VarDecl:
    name: str
    type: str
    default: Any
    loc: Location


@dataclass(frozen=True)
class PortBinding:
    """A composition call's input port bound to an upstream node (config/composition.py):
    the columns the port declares (its minimum schema), for the E102 check before the
    body compiles."""
    call: str  # the call path, `outer/inner`
    port: str
    upstream: str  # the bound node (`node` or `node.port`), as named after expansion
    columns: tuple[tuple[str, str], ...]  # (name, declared column type)
    loc: Location


@dataclass(frozen=True)
class Pipeline:
    name: str
    file: str
    nodes: tuple[Node, ...]
    error_handling: ErrorHandling = ErrorHandling()
    vars: tuple[VarDecl, ...] = ()
    warnings: tuple[Any, ...] = field(default=(), compare=False)
    # absolute paths (and URIs) are refused (E-SEC-001) unless the loader was told to
    # allow them (--allow-absolute-paths or CLINKER_ALLOW_ABSOLUTE_PATHS, as in Clinker)
    allow_absolute_paths: bool = False
    # the folder CXL modules (`use a.b`) are found under, relative to the workspace:
    # `--rules-path` when given, else `pipeline.rules_path` (cxl/modules.py)
    rules_path: str | None = None
    ports: tuple[PortBinding, ...] = ()  # composition input ports, after expansion
    # `run --dry-run -n N`: each source reads its first N records only (codegen/source.py)
    preview_rows: int | None = None

    def node(self, name: str) -> Node:
        for n in self.nodes:
            if n.name == name:
                return n
        raise KeyError(name)
