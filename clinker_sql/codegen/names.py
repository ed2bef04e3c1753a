"""Every name the compiled SQL adds to the user's: hidden columns, view-name suffixes and
the pipeline's own views, each defined once with what it holds. The compiler builds from
these constants, and `LEGEND` explains them to a reader of the compiled folder.

User names cannot collide with them: a hidden column starts with `$`, which no CXL field
may, and a node's views are `<node>.<suffix>` while node names hold no `.`."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal


@dataclass(frozen=True)
class Name:
    name: str  # as it appears in the SQL; `<n>`, `<field>`... stand for a part it varies by
    kind: Literal["column", "suffix", "view"]
    description: str  # one line


# -- hidden columns: row identity (carried by every row)
SOURCE_NAME = "$source.name"
SOURCE_FILE = "$source.file"
SOURCE_ROW = "$source.row"
SOURCE_ORDER = "$source.order"
FAN = "$fan"
CK_PREFIX = "$ck."
AGGREGATE_CK_PREFIX = "$ck.aggregate."
WIDENED = "$widened"
DOC = "$doc"

# -- hidden columns: the error machinery
LIVE = "$live"
ERR = "$err"
KEEP = "$keep"
DLQ = "$dlq"
NODE = "$node"
PAYLOAD = "$payload"
FAIL = "$fail"
FAIL_ENTRY = "$fail.entry"
REF_ORDER = "$ref.order"
REF_ROW = "$ref.row"
LAYOUT = "$layout"
RAW = "$raw"
# the DLQ write's own columns (codegen/dlq.py::_dlq_write)
FIELDS = "$fields"
HEADER = "$header"
FILE_LAYOUT = "$file_layout"

# -- hidden columns: a node's intermediate values
OUT_PREFIX = "$out."
SHARED_PREFIX = "$shared."
KEY_PREFIX = "$key."
GROUP_INDEX = "$group.index"
FIRST = "$first"
RETRACTED_COLUMN = "$retracted"
SPLIT_ROWS = "$rows"
LINE = "$line"
PART = "$part"
EACH = "$each"
POS = "$pos"
LEAF = "$leaf"
# a time-windowed aggregate's input (codegen/time_window.py)
EVENT_TIME = "$event_time"
WATERMARK = "$watermark"
WINDOW_START = "$window.start"
WINDOW_END = "$window.end"
WINDOW_LAST = "$window.last"
SESSION_NEW = "$session.new"
SESSION_NUMBER = "$session.number"
LATE = "$late"
CLOSE = "$close"
BLOCK = "$merge.input"
BLOCK_OPEN = "$merge.open"
BLOCK_BEFORE = "$merge.before"
BLOCK_MAX = "$merge.max."

# -- the pipeline's own views
TRIGGERS_VIEW = "$pipeline.triggers"
DLQ_VIEW = "$pipeline.dlq"
LIVE_VIEW = "$pipeline.triggers_live"
EARLY_VIEW = "$pipeline.triggers_early"
TRIGGERS_SEEN = "$pipeline.triggers_seen"
RETRACTED = "$pipeline.retracted"
CANDIDATES = "$pipeline.retract_candidates"
NUMBERING_VIEW = "$pipeline.numbering"
LINES_VIEW = "$pipeline.lines"
CK_DIRTY = "$pipeline.ck_dirty"
CK_MEMBERS = "$pipeline.ck_members"
CK_BIG = "$pipeline.ck_big"
CK_OVERFLOW = "$pipeline.ck_overflow"
CK_COLLATERAL = "$pipeline.ck_collateral"
DOC_FAILED = "$pipeline.doc_failed"
DOC_TRIGGERS = "$pipeline.doc_triggers"
DOC_COLLATERAL = "$pipeline.doc_collateral"


def ck_column(field_name: str) -> str:
    """A correlation-key field's hidden column."""
    return CK_PREFIX + field_name


def aggregate_ck(node: str) -> str:
    """The hidden column naming a row's group of a relaxed aggregate, for retraction."""
    return AGGREGATE_CK_PREFIX + node


def index_key(i: int) -> str:
    """The i-th group key of an aggregate, under a name no user column has."""
    return f"{KEY_PREFIX}{i}"


_C, _S, _V = "column", "suffix", "view"
LEGEND: tuple[Name, ...] = (
    Name(SOURCE_NAME, _C, "the source the row was read from"),
    Name(SOURCE_FILE, _C, "the file the row was read from, as its path was written"),
    Name(SOURCE_ROW, _C, "the row's position in its file (turned into a row number for the DLQ)"),
    Name(SOURCE_ORDER, _C, "the declaration index of the row's source: outputs keep arrival order"),
    Name(FAN, _C, "the row's position among the rows an `emit each` made of one input row"),
    Name(CK_PREFIX + "<field>", _C, "a correlation-key field as the commit compares it"),
    Name(AGGREGATE_CK_PREFIX + "<node>", _C, "the row's group of a relaxed aggregate (retraction)"),
    Name(WIDENED, _C, "a source's undeclared columns (on_unmapped: auto_widen), one map a row"),
    Name(DOC, _C, "the document (input file) a combine's row belongs to"),
    Name(LIVE, _C, "the row is still good: it failed at no node so far"),
    Name(ERR, _C, "the row's first failure at this node (null: none)"),
    Name(KEEP, _C, "the row passed this node's filters"),
    Name(DLQ, _C, "the DLQ entry of a row that failed in a fused chain"),
    Name(NODE, _C, "the node a carried DLQ entry was raised at"),
    Name(PAYLOAD, _C, "the failing record's columns in a carried DLQ entry"),
    Name(PAYLOAD + ".<column>", _C, "one column of the failing record, as its cell text"),
    Name(FAIL, _C, "an aggregate's failing row, a group of its own (null for a good row)"),
    Name(FAIL_ENTRY, _C, "that failing row's DLQ entry, as JSON"),
    Name(REF_ORDER, _C, "the source order of the row a DLQ detail names, not its own"),
    Name(REF_ROW, _C, "the position of the row a DLQ detail names, not its own"),
    Name(LAYOUT, _C, "which record layout a DLQ entry has"),
    Name(RAW, _C, "a source row's text as read, which its type-error entry quotes"),
    Name(FILE_LAYOUT, _C, "the one layout every DLQ entry shares (null: mixed layouts)"),
    Name(FIELDS, _C, "a DLQ line's fixed cells, already CSV text"),
    Name(HEADER, _C, "marks the DLQ file's header line, written first"),
    Name(OUT_PREFIX + "<field>", _C, "a CXL emit's value before it replaces the column"),
    Name(SHARED_PREFIX + "<n>", _C, "a value several expressions read, computed once"),
    Name(KEY_PREFIX + "<n>", _C, "an aggregate's or a distinct's n-th key"),
    Name("$keyerr.<n>", _C, "a distinct key's failure"),
    Name("$err.<n>", _C, "the first failure of a transform's n-th distinct segment"),
    Name("$keep.<n>", _C, "whether a transform's n-th distinct segment's filters passed"),
    Name("$rank.<n>", _C, "the row's rank among the rows of its distinct key, in arrival order"),
    Name(GROUP_INDEX, _C, "the index of an aggregate's group, in first-seen order"),
    Name(FIRST, _C, "the arrival order of a group's first row"),
    Name(RETRACTED_COLUMN, _C, "the row's contribution is retracted (its group holds a failure)"),
    Name(SPLIT_ROWS, _C, "how many rows a source read (its `.total` view)"),
    Name(LINE, _C, "a fan-out write's output text of a record, before its framing"),
    Name(PART, _C, "a split write's part: 0 a failing row, 1 the marker, 2 an output row"),
    Name(EACH, _C, "the records an `emit each` produces for the row"),
    Name(POS, _C, "a record's position among those of `$each`"),
    Name(LEAF, _C, "one record of `$each`"),
    Name(EVENT_TIME, _C, "a record's event time in microseconds, shifted by watermark.delay"),
    Name(WATERMARK, _C, "the largest event time of the records before this one"),
    Name(WINDOW_START, _C, "the start of a record's time window (its first, when it has several)"),
    Name(WINDOW_END, _C, "the end of that window (exclusive)"),
    Name(WINDOW_LAST, _C, "the start of a record's last hopping or tumbling window"),
    Name(SESSION_NEW, _C, "1 when a record starts a new session of its group key"),
    Name(SESSION_NUMBER, _C, "the number of a record's session among its group key's"),
    Name(LATE, _C, "every window the record falls in had closed: it goes to the DLQ"),
    Name(CLOSE, _C, "the watermark at which every window of the record has closed"),
    Name(BLOCK, _C, "the merge input a record came through: the inputs arrive in turn"),
    Name(BLOCK_OPEN, _C, "the first record of its input not late when it arrives"),
    Name(BLOCK_OPEN + ".<n>", _C, "that record for the n-th input"),
    Name(BLOCK_BEFORE, _C, "the watermark the inputs before the record's left"),
    Name(BLOCK_MAX + "<n>", _C, "the n-th input's largest event time, past its first not late"),
    Name("$when.<branch>", _C, "a route branch's condition for the row"),
    Name("<node>.scan", _S, "a source's files as Spark reads them"),
    Name("<node>.split", _S, "a source's rows as text, with the split they were read from"),
    Name("<node>.files", _S, "a source's files, in name order"),
    Name("<node>.listing", _S, "a source's files as a local run lists them"),
    Name("<node>.offsets", _S, "where each of a source's files starts in the row numbering"),
    Name("<node>.rows", _S, "a source's rows with their identity"),
    Name("<node>.total", _S, "how many rows a source read (run summary)"),
    Name("<node>.bytes", _S, "a source's lines as bytes, for the UTF-8 check"),
    Name("<node>.eval", _S, "a node's CXL evaluated on every row, with its failures"),
    Name("<node>.carry", _S, "a fused chain's rows with `$live` and their DLQ entries"),
    Name("<node>.checked", _S, "a transform's or route's rows with their first failure"),
    Name("<node>.typed", _S, "a source's rows typed (the node's view of a fused source)"),
    Name("<node>.distinct<n>", _S, "a transform's n-th distinct: the first row of each key"),
    Name("<node>.errors", _S, "the DLQ entries raised at a node"),
    Name("<node>.failed", _S, "the failing rows of a fused chain, read from its carry"),
    Name("<node>.spec", _S, "an aggregate's one pass over the chain before it"),
    Name("<node>.spec_groups", _S, "an aggregate's groups as if nothing were retracted"),
    Name("<node>.windows", _S, "a time-windowed aggregate's records with their windows"),
    Name("<node>.windowed", _S, "those records not late, one row per open window"),
    Name("<node>.late", _S, "a time-windowed aggregate's late records, as DLQ entries"),
    Name("<node>.final", _S, "an aggregate's emitted values"),
    Name("<node>.finalize_errors", _S, "an aggregate's groups whose finalize fails"),
    Name("<node>.index", _S, "an aggregate's group index, in first-seen order"),
    Name("<node>.commit", _S, "a sink's records of clean correlation groups or documents"),
    Name("<node>.split", _S, "a sink's records with the failing rows of the chain before it"),
    Name("<node>.<branch>", _S, "a route branch's rows"),
    Name("<node>.step<n>", _S, "one binary join of a combine of more than two inputs"),
    Name(TRIGGERS_VIEW, _V, "every DLQ trigger: each node's error view"),
    Name(LIVE_VIEW, _V, "the triggers computed again in every retraction pass"),
    Name(EARLY_VIEW, _V, "the triggers raised before any retraction input"),
    Name(TRIGGERS_SEEN, _V, "the triggers of earlier retraction passes"),
    Name(RETRACTED, _V, "what is retracted so far"),
    Name(CANDIDATES, _V, "what the next retraction pass retracts"),
    Name(DLQ_VIEW, _V, "the DLQ's entries, as written"),
    Name(NUMBERING_VIEW, _V, "where each file's rows start: row positions to row numbers"),
    Name(LINES_VIEW, _V, "sorted sources' rows: arrival number to row number in the files"),
    Name(CK_DIRTY, _V, "correlation groups holding a failure"),
    Name(CK_MEMBERS, _V, "every record that reached a sink, with its correlation key"),
    Name(CK_BIG, _V, "correlation groups over max_group_buffer"),
    Name(CK_OVERFLOW, _V, "those groups, with their first record"),
    Name(CK_COLLATERAL, _V, "the records withheld with a failing correlation group"),
    Name(DOC_FAILED, _V, "documents holding a failure"),
    Name(DOC_TRIGGERS, _V, "the failures of those documents"),
    Name(DOC_COLLATERAL, _V, "the records withheld with a failing document"),
)
