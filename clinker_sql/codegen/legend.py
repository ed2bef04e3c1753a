"""What the hidden names of the compiled SQL mean: the `$` columns and views, the suffixes
of a node's view names, and the names of the statements that belong to no node. The
generated README of a compiled folder lists those its files use (codegen/target_readme.py);
a test checks that every name the compiler writes has an entry here, so a new one cannot go
unexplained.

Each entry is the name as shown (`<n>` a number, `<column>` a user column's name, ...),
the pattern it matches and one line of meaning. The first matching entry wins, so a
specific pattern comes before a general one."""

from __future__ import annotations

import re
from dataclasses import dataclass


@dataclass(frozen=True)
class Entry:
    shown: str  # the name as the README shows it
    pattern: re.Pattern[str]
    meaning: str


def _entries(rows: list[tuple[str, str]]) -> tuple[Entry, ...]:
    """`<n>` stands for a number, any other `<...>` for a name (a column, field, branch or
    node), in `shown`: the pattern is made from it."""
    out = []
    for shown, meaning in rows:
        parts = re.split(r"(<[a-z_]+>)", shown)
        regex = "".join(r"\d+" if p == "<n>" else r".+" if p.startswith("<") and p.endswith(">")
                        else re.escape(p) for p in parts)
        out.append(Entry(shown, re.compile(regex, re.DOTALL), meaning))
    return tuple(out)


# Hidden columns, and the views that belong to the whole pipeline (`$pipeline.*`).
COLUMNS = _entries([
    ("$source.name", "the source a row was read from (Clinker's row identity)"),
    ("$source.file", "the file a row was read from"),
    ("$source.row", "the row's number in its file (a position until the DLQ numbers it)"),
    ("$source.order", "its source's place among the sources: the output order of ties"),
    ("$source.line", "the row's line in its file, for a source read in its sort_order"),
    ("$fan", "a row's positions among the rows an `emit each` (or `match: all`) made of one"),
    ("$ck.aggregate.<node>", "the correlation key an aggregate gives its output rows"),
    ("$ck.<field>", "a row's correlation-key field, as the commit compares it"),
    ("$ck", "a JSON record's correlation-key object"),
    ("$widened", "a source's undeclared columns (on_unmapped: auto_widen), as a map"),
    ("$unmapped.<n>", "the raw text of a source's undeclared column, by its position"),
    ("$doc", "the document (file) a combine's row belongs to: its driver row's"),
    ("$live", "the row is still good here: no node before it failed or filtered it"),
    ("$err.<n>", "the first failure of one `distinct` segment of a transform"),
    ("$err", "the row's first CXL failure, as a struct (NULL: none)"),
    ("$keep.<n>", "whether one `distinct` segment's filters pass"),
    ("$keep", "whether the row passes the node's filters"),
    ("$raw", "a source row's text as read, which its type-error entry quotes"),
    ("$dlq", "the DLQ entry a row carries through a fused chain (NULL: none)"),
    ("$node", "the node a carried DLQ entry belongs to"),
    ("$payload.<column>", "a failing record's column, as the DLQ writes it"),
    ("$payload", "a failing record's columns as text, in its DLQ entry"),
    ("$layout", "which column layout a DLQ entry is written with"),
    ("$line_bytes", "fixed-width source: a line's length in bytes, for the truncation check"),
    ("$pos<n>", "XML source: a split_to_rows entry n's occurrence, numbered from 0"),
    ("$occ<n>", "XML source: a split_to_rows entry n's occurrence (the element's fields)"),
    ("$set.<n>.<column>", "reshape: the value rule n's `mutate.set` gives a column"),
    ("$override.<n>.<column>", "reshape: the value rule n's `synthesize` gives a column"),
    ("$rule", "reshape: the rule a row was synthesized by (none: the row as rewritten)"),
    ("$first_conflict", "reshape: the group's first mutation conflict, in Clinker's order"),
    ("$conflict", "reshape: two rules of one group writing one field (the group rolls back)"),
    ("$file_layout", "the one layout every DLQ entry shares (null: mixed layouts)"),
    ("$fields", "a DLQ line's fixed cells, already CSV text"),
    ("$header", "marks the DLQ file's header line, written first"),
    ("$sink", "the sink a record reached, by its position"),
    ("$shared.<n>", "a value several expressions use, computed once below them"),
    ("$agg.<n>.overflow", "an aggregate function's value went past its type's range"),
    ("$agg.<n>", "one aggregate function's value for the group"),
    ("$arg.<n>.<n>", "one argument of an aggregate function, per input row"),
    ("$group.index", "an aggregate group's stable number, in first-seen order"),
    ("$first", "the first of a group or file: where it starts, or its first failure"),
    ("$retracted", "the row is retracted by a correlation failure (this retraction pass)"),
    ("$merged", "an aggregate's output rows, which have no source row of their own"),
    ("$out.<column>", "an emitted value, before it takes the column's name"),
    ("$when.<branch>", "a route branch's condition held for the row"),
    ("$event_time", "time window: a record's event time (microseconds, shifted by its delay)"),
    ("$watermark", "time window: the largest event time of the records before this one"),
    ("$window.start", "time window: the start of the record's window (its first, when several)"),
    ("$window.end", "time window: the end of that window (exclusive)"),
    ("$window.last", "time window: the start of the record's last window"),
    ("$session.new", "session window: 1 when the record starts a new session of its key"),
    ("$session.number", "session window: the record's session among its key's"),
    ("$late", "time window: every window of the record had closed when it arrived"),
    ("$close", "time window: the watermark at which the record's windows have all closed"),
    ("$merge.input", "time window: the merge input the record came through, in turn"),
    ("$merge.open.<n>", "time window: the n-th input's first record not late"),
    ("$merge.open", "time window: its input's first record not late"),
    ("$merge.before", "time window: the watermark the inputs before the record's left"),
    ("$merge.max.<n>", "time window: the n-th input's largest event time (from its first "
     "record not late)"),
    ("$key.<n>", "a key the node groups, ranks or dedups by (`distinct` #n, a group key)"),
    ("$keyerr.<n>", "the failure of `distinct` #n's key"),
    ("$part.<n>", "the row reached `distinct` #n clean, with a usable key"),
    ("$part", "which part of a split write a row is: failure, marker or output"),
    ("$rank.<n>", "the row's rank within its `distinct` #n key, in arrival order"),
    ("$rank", "a file's place in name order, or a row's rank in its group"),
    ("$each", "the records an `emit each` made of a row"),
    ("$pos", "a record's position in `$each`"),
    ("$leaf", "one record of `$each`"),
    ("$k.<n>", "a combine's join-key value on the build side"),
    ("$k<n>", "a sort key's value, carried to the ORDER BY"),
    ("$d.<column>", "a combine's driver column"),
    ("$b.<column>", "a combine's build column"),
    ("$u.<column>", "a combine's build column, NULL unless the outcome is a match"),
    ("$bkey", "a build row's order: which candidate comes first"),
    ("$present", "a driver row found a candidate build row"),
    ("$kind", "a combine outcome: match, miss, collect, key_err or res_err"),
    ("$dup", "numbers driver rows that share a row identity"),
    ("$coll", "the build rows `match: collect` gathers for a key"),
    ("$coll.sorted", "those build rows, in build order"),
    ("$dk_err", "the failure of a driver row's join key"),
    ("$res_ok", "a candidate pair passes the residual condition"),
    ("$res_err", "the residual condition failed to evaluate for a pair"),
    ("$m<n>", "a driver row's first matching candidate"),
    ("$e<n>", "a driver row's first failing candidate"),
    ("$mrank", "a candidate's rank among the matching ones"),
    ("$erank", "a candidate's rank among the failing ones"),
    ("$fault", "a combine row's DLQ error (NULL: none)"),
    ("$drop", "the row goes (a failing match drops its driver; a cull drops a group)"),
    ("$once", "keeps one DLQ entry per build row"),
    ("$fail.entry", "a failing row's DLQ entry, as JSON"),
    ("$fail", "a failing row's own group, NULL for a good row"),
    ("$ref.order", "the source order of the row a DLQ detail names"),
    ("$ref.row", "the row a DLQ detail names, not the entry's own"),
    ("$ref_found", "the numbering found the row a DLQ detail names"),
    ("$ref_number", "the number of the row a DLQ detail names"),
    ("$found", "the numbering found the row's file"),
    ("$number", "a row's number in its file, from its position"),
    ("$path", "a file's path as the outputs and the DLQ show it"),
    ("$file", "the file a line was read from, as Spark names it"),
    ("$block", "where in its file a split starts"),
    ("$mid", "a line's position as Spark read it (ordered within a file)"),
    ("$at", "a listed file's path and rank, looked up by its name"),
    ("$before", "the rows of the files (or splits) before this one"),
    ("$rows", "a count of rows"),
    ("$line", "a record's output text, before its framing"),
    ("$hit", "a row or cell the retraction names"),
    ("$dirty", "the record's correlation group holds a failure"),
    ("$copy", "keeps one collateral DLQ entry per record"),
    ("$n", "keeps one entry per record"),
    ("$pipeline.triggers_seen", "retraction: the DLQ triggers of earlier passes"),
    ("$pipeline.triggers_live", "retraction: the triggers this pass raised"),
    ("$pipeline.triggers_early", "the triggers raised before any retraction"),
    ("$pipeline.triggers", "every node's DLQ entries that trigger (the failures)"),
    ("$pipeline.retracted", "retraction: what this pass retracts"),
    ("$pipeline.retract_candidates", "retraction: what the next pass retracts"),
    ("$pipeline.ck_dirty", "correlation: the (source, key) cells that hold a trigger"),
    ("$pipeline.ck_members", "correlation: every record that reached a sink"),
    ("$pipeline.ck_big", "correlation: the groups over max_group_buffer"),
    ("$pipeline.ck_overflow", "correlation: those groups, with their first record"),
    ("$pipeline.ck_collateral", "correlation: the collateral DLQ entries"),
    ("$pipeline.doc_failed", "the files that hold a failure, with their first"),
    ("$pipeline.doc_triggers", "document DLQ: the triggers, and a rejected file's later ones"),
    ("$pipeline.doc_collateral", "document DLQ: an entry per record of a rejected file"),
    ("$pipeline.numbering", "where each file's rows start: positions to row numbers"),
    ("$pipeline.lines", "sorted sources: arrival number to line in the file"),
    ("$pipeline.dlq", "the DLQ: triggers and collaterals, numbered"),
])

# What follows `<node>.` in a view or statement name (a node name never holds a dot).
SUFFIXES = _entries([
    ("<node>.failed.side", "alternative: a chain's failing rows, read back from the lines "
     "its write split off"),
    ("<node>.final.clean_groups", "alternative: an aggregate's rows from the chain's pass, "
     "when nothing before it was retracted"),
    ("<node>.listed", "alternative: the files of the source a per-file sink writes one file "
     "for, listed"),
    ("<node>.rules", "reshape: each row with its rules' triggers and values"),
    ("<node>.occurrences", "XML source: one row per occurrence of each split_to_rows entry"),
    ("<node>.documents", "XML source: each file read whole once, for the record-path check"),
    ("<node>.elsewhere", "check: an XML file holds record elements outside record_path"),
    ("<node>.repeats", "check: an XML record repeats a field not declared `multiple`"),
    ("<node>.document", "JSON source with record_path: each file read as one document"),
    ("<node>.record_path", "check: a JSON file its reader refuses at record_path, or "
     "`format: object` without one (CS115)"),
    ("<node>.no_array", "check: a JSON document with no array at record_path (CS115)"),
    ("<node>.malformed", "check: a fixed-width line ending inside a field, or a field that "
     "does not parse, stops the run (CS111)"),
    ("<node>.scan", "source: its files read as text"),
    ("<node>.split", "source: the rows as text, with their split; sink: its records and the "
     "failures before it"),
    ("<node>.files", "source: its files, in name order"),
    ("<node>.offsets", "source: where each file (or split) starts in the numbering"),
    ("<node>.rows", "source: the rows stamped with `$source.row`; sink: the records it receives"),
    ("<node>.bytes", "source: its lines as bytes, for the UTF-8 check"),
    ("<node>.utf8", "check: bytes that are not UTF-8 fail the run"),
    ("<node>.undeclared", "check: a source's undeclared columns"),
    ("<node>.unsorted", "check: a source's rows out of their declared sort_order"),
    ("<node>.total", "source: the rows read, for the run summary"),
    ("<node>.carry", "every row of a fused chain, live or not, with its DLQ entry"),
    ("<node>.eval", "the node's expressions evaluated per row"),
    ("<node>.distinct<n>", "transform: `distinct` #n, the first row of each key"),
    ("<node>.checked", "transform or route: each row's first failure over the node's view"),
    ("<node>.typed", "source: its rows typed, the node's view (its type errors in .carry)"),
    ("<node>.failed", "the rows of a fused chain that failed (copied once)"),
    ("<node>.errors", "the node's DLQ entries"),
    ("<node>.finalize_errors", "aggregate: the groups whose finalize failed"),
    ("<node>.build_errors", "combine: the DLQ entries of matched build rows"),
    ("<node>.groups", "aggregate: one row per group"),
    ("<node>.windows", "time window: each record's event time, windows, watermark, lateness"),
    ("<node>.windowed", "time window: the records not late, one row per open window"),
    ("<node>.late", "time window: the late records' DLQ entries (under fail_fast, a check)"),
    ("<node>.final", "aggregate: the emitted values; combine: each row's DLQ error"),
    ("<node>.index", "aggregate: the groups' stable numbers"),
    ("<node>.input", "the input rows, flagged when retracted"),
    ("<node>.spec_groups", "aggregate: the groups as if nothing were retracted"),
    ("<node>.spec", "aggregate: one pass over the fused chain before it"),
    ("<node>.decide", "cull: one decision per group"),
    ("<node>.step<n>.build", "combine chain: step n's build input"),
    ("<node>.step<n>.driver", "combine chain: step n's numbered driver rows"),
    ("<node>.step<n>.pairs", "combine chain: step n's join"),
    ("<node>.step<n>", "combine chain: step n, every match of one input"),
    ("<node>.build", "combine: the build input with its join keys"),
    ("<node>.driver", "combine: driver rows numbered where they share an identity"),
    ("<node>.pairs", "combine: the driver joined with the build input"),
    ("<node>.ranked", "combine: each driver row's candidates ranked"),
    ("<node>.cases", "combine: one row per outcome"),
    ("<node>.failing_<view>", "combine: the same view over the driver rows that can fail"),
    ("<node>.faults", "combine: the failing rows with their match"),
    ("<node>.on_miss", "check: `on_miss: error` stops at an unmatched driver row"),
    ("<node>.output_cap", "check: a combine's max_output_rows"),
    ("<node>.commit", "sink: the records of clean correlation groups"),
    ("<node>.kept", "sink: without the rows whose sort key is null"),
    ("<node>.joinable", "sink: the records its multi-value join accepts"),
    ("<node>.collisions", "sink: the records its multi-value join refuses"),
    ("<node>.refused", "check: a record a fixed-width sink's layout cannot hold (an undeclared "
     "column, or a value wider than a field whose truncation is error) stops the run"),
    ("<node>.<port>", "a route branch's or a cull output's rows"),
])

# Statements that belong to no node.
STATEMENTS = _entries([
    ("dlq", "writes the DLQ"),
    ("dlq.<source>", "writes the DLQ entries of a source with a file of its own "
     "(`error_handling.dlq.per_source.<source>.path`)"),
    ("cxl_<name>", "a CXL builtin as a Spark SQL function (functions.sql; its file in macros/ "
     "says which rule it implements)"),
    ("report", "the run summary's counts"),
    ("report.written", "the run summary: what the sinks wrote"),
    ("fail_fast", "check: fail_fast stops at the first failure, before any write"),
    ("continue_without_dlq", "check: with no DLQ, a rejected source row stops the run"),
    ("type_error_threshold", "check: too large a share of rejected source rows stops the run"),
    ("retraction", "the runner's retraction passes"),
    ("retraction.news", "alternative: whether a retraction pass found new failures"),
    ("adaptive.allow", "alternative: allows Spark's empty-branch rule again for a statement "
     "that observes nothing (session.sql excludes it)"),
])


def lookup(entries: tuple[Entry, ...], name: str) -> Entry | None:
    return next((e for e in entries if e.pattern.fullmatch(name)), None)


def suffix_entry(name: str, ports: frozenset[str] = frozenset()) -> Entry | None:
    """The entry for a node's view or statement `name` (`<node>.<suffix>`); `ports`: the
    output ports of its node (a route's branches, a cull's removed rows)."""
    suffix = name.partition(".")[2]
    if not suffix:
        return None
    if suffix in ports:
        return SUFFIXES[-1]
    return lookup(SUFFIXES[:-1], f"<node>.{suffix}")


def hidden_names(text: str) -> set[str]:
    """The hidden names a compiled file quotes: backquoted identifiers that start with
    `$` (a quoted backquote is doubled, so it never ends one early)."""
    return set(re.findall(r"`(\$(?:[^`]|``)*)`", text))
