"""Sink node -> the view of the records it receives, and (after the commit
layer has decided which of them are clean) the write statement (spec §2.7)."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, replace

from sqlglot import exp

from clinker_sql import sqlbuild as S
from clinker_sql.codegen import (
    fixed_width_sink,
    multi_value,
    sink_split,
    sort_key,
    split_write,
    unmapped,
    xml_sink,
)
from clinker_sql.codegen.context import Context
from clinker_sql.codegen.fusion import LIVE
from clinker_sql.codegen.names import LINE
from clinker_sql.codegen.plan import (
    NODE_LAYER,
    SOURCE_FILE,
    SOURCE_ORDER,
    WIDENED,
    Relation,
    Statement,
)
from clinker_sql.codegen.run_plan import FanOut, SinkOutput, Split, WriteStep
from clinker_sql.codegen.templates import Sql, ident, render, select_list, sql
from clinker_sql.config import model as m
from clinker_sql.config.checks import upstream as upstream_nodes
from clinker_sql.cxl import json_values
from clinker_sql.cxl.text import to_cell
from clinker_sql.cxl.types import STRING, CxlType
from clinker_sql.diagnostics import fail


@dataclass(frozen=True)
class SinkPlan:
    node: m.SinkNode
    relation: Relation  # the records the sink receives (view = `<sink>.rows`)
    columns: tuple[tuple[str, str, CxlType], ...]  # (output name, input column, type)
    upstream: str = ""  # the view its records view reads


def project(node: m.SinkNode, upstream: Relation) -> list[tuple[str, str, CxlType]]:
    """Output columns in order: (name, input column, type)."""
    cfg = node.config
    cols = list(upstream.columns)
    if cfg.include_correlation_keys:
        cols += list(upstream.ck)
    if cfg.include_unmapped:  # the undeclared columns after them (existing names win)
        names = {n for n, _ in cols}
        cols += [(widened_column(k), STRING) for k in upstream.widened if k not in names]
    if not cfg.include_unmapped and cfg.mapping is None and upstream.emitted is not None:
        keep = upstream.emitted | {c for c, _ in upstream.ck if cfg.include_correlation_keys}
        cols = [(n, t) for n, t in cols if n in keep]
    excluded = set(cfg.exclude)
    cols = [(n, t) for n, t in cols if _written_name(n) not in excluded]
    out = [(_written_name(n), n, t) for n, t in cols]
    if cfg.mapping is not None:
        available = {_written_name(n): t for n, t in cols}
        reads = {_written_name(n): n for n, _ in cols}
        mapped: list[tuple[str, str, CxlType]] = []
        read_excluded = [src for _, src in cfg.mapping if src in excluded]
        if read_excluded:
            raise fail("E364", f"sink '{node.name}': mapping reads {', '.join(read_excluded)}, "
                       "which its own exclude: removes first", cfg.path_loc,
                       "drop the column from exclude: or the entry from mapping:")
        sources = {src for _, src in cfg.mapping}
        # a declared column only: Clinker's planner does not see the undeclared ones (its
        # `$widened` sidecar), and the mapped column takes the place of one of that name
        declared = {n for n, _ in cols if not n.startswith(WIDENED + ".")}
        clashes = [o for o, _ in cfg.mapping if o in declared and o not in sources]
        if cfg.include_unmapped and clashes:
            raise fail("E364", f"sink '{node.name}': mapping writes column '{clashes[0]}', and "
                       "include_unmapped: true would also carry the upstream column of that "
                       "name beside it", cfg.path_loc,
                       f"rename the mapped column or exclude the upstream '{clashes[0]}'")
        for out_name, src in cfg.mapping:
            if src not in available:
                raise fail("E365", f"sink '{node.name}' maps '{src}', which the pipeline does "
                           "not carry at this point", cfg.path_loc)
            mapped.append((out_name, reads[src], available[src]))
        if cfg.include_unmapped:
            used = {s for _, s, _ in mapped} | {o for o, _, _ in mapped}
            mapped += [c for c in out if c[0] not in used and c[1] not in used]
        out = mapped
    if not out and cfg.format in ("parquet", "table"):
        raise fail("CS001", f"sink '{node.name}' writes no column: a {cfg.format} output "
                   "needs at least one", cfg.path_loc or node.loc,
                   "keep a column (exclude:, mapping: and include_unmapped: decide which "
                   "are written)")
    for name, _, t in out:
        if cfg.format == "csv" and t.kind == "map":
            raise fail("CS001", f"sink '{node.name}' cannot write the map column '{name}' as "
                       "CSV", node.loc)
    return out


def _field_path(name: str) -> list[str]:
    """A column name's path: split at each `.` that no backslash escapes (`\\.`, `\\\\`,
    `\\[` stand for the character)."""
    out, part, i = [], "", 0
    while i < len(name):
        if name[i] == "\\" and i + 1 < len(name) and name[i + 1] in ".\\[":
            part, i = part + name[i + 1], i + 2
            continue
        if name[i] == ".":
            out.append(part)
            part = ""
        else:
            part += name[i]
        i += 1
    return out + [part]


def _values(tree: dict) -> dict:
    return {k: _values(v) if isinstance(v, dict) else v[0] for k, v in tree.items()}


def _text_object(tree: dict, preserve_nulls: bool, top: bool = False) -> exp.Expression:
    """A record holding `json` values as JSON text built in place: a `json` value is its
    text already, in the document's key order (a VARIANT would sort the keys); any other
    value is written by `to_json`, as a record without them is. Null: an object whose
    every leaf is null, left out without `preserve_nulls` (never the record)."""
    options = [S.fn("map", S.string("ignoreNullFields"), S.string("false"))] \
        if preserve_nulls else []
    parts: list[exp.Expression] = []
    for key, node in tree.items():
        if isinstance(node, dict):
            value = _text_object(node, preserve_nulls)
        elif json_values.holds_json(node[1]):
            value = json_values.text_of(node[0], node[1])
            if preserve_nulls:
                value = S.fn("coalesce", value, S.string("null"))
        else:  # `{"v":<value>}` without its frame; `{}` (null left out) is no part
            whole = S.fn("to_json", S.fn("named_struct", S.string("v"), node[0]), *options)
            value = S.fn("nullif", S.fn("regexp_extract", whole, S.string(r'^\{"v":(.*)\}$'),
                                        S.small_int(1)), S.string(""))
        parts.append(S.fn("concat", S.string(json.dumps(key, ensure_ascii=False) + ":"),
                          value))
    text = S.fn("concat", S.string("{"), S.fn("concat_ws", S.string(","), *parts),
                S.string("}"))
    if top or preserve_nulls:
        return text
    return S.case([(S.or_(*[S.not_null(p.copy()) for p in parts]), text)])


def _json_object(tree: dict, preserve_nulls: bool) -> exp.Expression:
    """`named_struct` of a path tree; without `preserve_nulls` an object whose every leaf
    is null is left out, as the null leaves are (Clinker emits no empty object)."""
    args: list[exp.Expression] = []
    for key, node in tree.items():
        if isinstance(node, dict):
            value = _json_object(node, preserve_nulls)
            if not preserve_nulls:
                value = S.case([(S.or_(*[S.not_null(leaf.copy()) for leaf in _leaves(node)]),
                                 value)])
            node = value
        args += [S.string(key), node]
    return S.fn("named_struct", *args)


def _leaves(tree: dict) -> list[exp.Expression]:
    return [leaf for node in tree.values()
            for leaf in (_leaves(node) if isinstance(node, dict) else [node])]


def widened_column(key: str) -> str:
    """A sink column read from the rows' `$widened` (codegen/unmapped.py), as `project`
    names its input."""
    return f"{WIDENED}.{key}"


def _written_name(column: str) -> str:
    return column[len(WIDENED) + 1:] if column.startswith(WIDENED + ".") else column


def column_value(column: str) -> exp.Expression:
    """The value a sink writes for an input column of `project`."""
    if column.startswith(WIDENED + "."):
        return unmapped.expanded(_written_name(column))
    return S.col(column)


def declared_scale(cfg: m.SinkConfig, name: str, value: exp.Expression, t: CxlType
                   ) -> tuple[str, exp.Expression, CxlType]:
    """An output column and its value, rounded half to even when the sink's `schema:`
    declares it a decimal with a smaller `scale` than its values have (Clinker rounds a
    decimal on write, and never pads one: projection.rs `round_declared_output_decimals`).
    Nothing else of the sink's schema changes a value."""
    declared = next((c for c in cfg.schema if c.name == name), None)
    if declared is None or declared.type != "decimal" or declared.scale is None or \
            t.kind != "decimal" or t.scale <= declared.scale:
        return name, value, t
    rounded = replace(t, scale=declared.scale, free=False)
    return name, S.cast(S.fn("bround", value, S.small_int(declared.scale)),
                        f"DECIMAL({t.precision}, {declared.scale})"), rounded


def staging_path(path: str) -> str:
    """Where Spark writes an output's parts: next to it, without a template's braces or a
    `<merged>` (characters a Hadoop path reads as a glob or refuses in a URI)."""
    return re.sub(r"[{}<>]", "_", path) + ".clinker-staging"


def compile_sink(ctx: Context, node: m.SinkNode, upstream: Relation) -> SinkPlan:
    rows_view = ctx.view(node.name, "rows")
    items = [(S.col(n), n) for n, _ in upstream.all_columns]
    ctx.add(Statement("view", node.name, rows_view, render(
        "sink_rows.sql.j2", view=ident(rows_view), input=ident(upstream.view),
        select_list=select_list(items)), header=f"sink {node.name}: the records it receives",
        layer=NODE_LAYER))
    relation = Relation(rows_view, upstream.columns, upstream.ck, upstream.emitted, upstream.fan,
                        widened=upstream.widened)
    columns = tuple(project(node, upstream))
    # a CSV sink's multi-value join refuses records (codegen/multi_value.py): it writes
    # the others, read from its rows view (so no fused chain's rows are split off here)
    joinable = multi_value.compile_collisions(ctx, node, rows_view, relation, columns)
    if joinable is not None:
        return SinkPlan(node, replace(relation, view=joinable), columns, rows_view)
    return SinkPlan(node, relation, columns, upstream.view)


def _sort_order(ctx: Context, plan: SinkPlan, input_view: str
                ) -> tuple[str, list[exp.Expression]]:
    """A sink's `sort_order`: (the view to write, without the rows a `null_order: drop`
    key leaves out; the keys, before the arrival order that keeps ties as they came:
    Clinker's sort is stable)."""
    keys = plan.node.config.sort_order
    # a correlation key's snapshot (`$ck.<field>`) is a field of the records too, written
    # or not (Clinker's sink schema carries it)
    columns = {n for n, _ in plan.relation.columns + plan.relation.ck}
    for k in keys:
        if k.field not in columns:
            raise fail("E000", f"sink '{plan.node.name}' sorts on '{k.field}', which its "
                       "records do not carry", k.loc or plan.node.loc,
                       f"its records carry: {', '.join(sorted(columns))}")
    dropped = [S.not_null(S.col(k.field)) for k in keys if k.null_order == "drop"]
    if dropped:
        kept = ctx.view(plan.node.name, "kept")
        ctx.add(Statement("view", plan.node.name, kept, render(
            "sink_kept.sql.j2", view=ident(kept), input=ident(input_view),
            condition=sql(S.and_(*dropped))),
            header=f"sink {plan.node.name}: without the rows whose sort key is null "
                   "(null_order: drop)"))
        input_view = kept
    ordered = [exp.Ordered(this=S.col(k.field), desc=k.desc,
                           nulls_first=k.null_order == "first") for k in keys]
    return input_view, _per_document(ctx, plan) + ordered if ordered else ordered


def _per_document(ctx: Context, plan: SinkPlan) -> list[exp.Expression]:
    """Under `dlq_granularity: document` Clinker commits a file's records at once, so a
    sorted sink sorts each file's records and writes the files in their reading order:
    the keys that put a file's records together first (when every source the sink reads
    from decides per document)."""
    sources = [n for n in upstream_nodes(ctx.pipeline.nodes, [plan.node.input.node])
               if isinstance(n, m.SourceNode)]
    if not sources or any(s.config.document_dlq is None for s in sources):
        return []
    desc = len({s.config.files.desc for s in sources}) == 1 and sources[0].config.files.desc
    return [exp.Ordered(this=S.col(SOURCE_ORDER)),
            exp.Ordered(this=S.col(SOURCE_FILE), desc=desc)]


def compile_write(ctx: Context, plan: SinkPlan, input_view: str) -> None:
    cfg = plan.node.config
    name = plan.node.name
    input_view, sorted_by = _sort_order(ctx, plan, input_view)
    if cfg.fan_out is not None and cfg.if_exists != "overwrite":
        raise fail("CS001", f"sink '{name}': if_exists: {cfg.if_exists} on a path with "
                   "{source_file} or {source_path} is not supported yet", cfg.path_loc)
    if cfg.fan_out is not None:  # each source file's records together, in the sink's order
        sorted_by = [exp.Ordered(this=S.col(SOURCE_FILE))] + sorted_by
    # the sink's keys read the records' fields, never a written column of the same name:
    # qualified by the name the write reads its records under
    fanned = (cfg.fan_out is not None or cfg.split is not None) and \
        cfg.format in ("csv", "json", "fixed_width")
    read_as = FANNED if fanned else RECORDS
    records = Sql(f"{ident(input_view)} AS {ident(RECORDS)}") if sorted_by else \
        ident(input_view)
    order_by = Sql(", ".join(sql(e) for e in sort_key.qualified(sorted_by, read_as) +
                             plan.relation.sort_keys()))
    typed = [declared_scale(cfg, out, column_value(src), t) for out, src, t in plan.columns]
    if cfg.format == "csv":  # an array is joined into one cell (codegen/multi_value.py)
        typed = [(n, multi_value.joined(cfg, n, e, t), STRING) if t.kind == "array" else
                 (n, e, t) for n, e, t in typed]
    if cfg.format == "table":
        compile_table_write(ctx, plan, input_view, records, order_by, typed)
        return
    if cfg.format == "parquet":
        body = render("write_parquet.sql.j2", input=records, order_by=order_by,
                      select_list=select_list([(e, n) for n, e, _ in typed]))
    header = f"sink {name}: write {cfg.format} to {cfg.path} (sorted in one partition, " \
        "chosen for speed: no sampling pass; its arrival order packed into one BIGINT " \
        "first, codegen/sort_key.py)"
    fan_out: FanOut | None = None
    split_off: Split | None = None  # a split write's failing rows
    observed: dict[str, str] = {}  # a split write: where its written rows are counted
    if cfg.format == "xml" and cfg.fan_out is not None:
        raise fail("CS001", f"sink '{name}': an XML output per source file is not supported "
                   "yet", cfg.path_loc)
    if cfg.format == "fixed_width":  # the records its layout cannot hold stop the run
        fixed_width_sink.compile_check(ctx, plan.node, input_view, typed, {
            out: column_value(src) for out, src, _ in plan.columns
            if src.startswith(WIDENED + ".")})
    if cfg.format in ("csv", "json", "xml", "fixed_width"):
        line = csv_line([(n, json_values.csv_guard(e, t), t) for n, e, t in typed],
                        cfg.delimiter) if cfg.format == "csv" else \
            json_line(typed, cfg.preserve_nulls) if cfg.format == "json" else \
            fixed_width_sink.line(cfg, typed, name) if cfg.format == "fixed_width" else \
            xml_sink.framed(xml_sink.xml_record(typed, cfg, _field_path))
        if cfg.format == "fixed_width" and cfg.line_separator == "none" and \
                cfg.fan_out is None:  # each record whole, the text writer's line feed dropped
            line = xml_sink.framed(line)
        split = None if cfg.fan_out is not None or cfg.split is not None else \
            split_write.chain_read(ctx, plan.upstream, input_view, plan.relation.view)
        source = records
        if cfg.split is not None:  # cut into files as the output is assembled
            source = Sql(f"(SELECT *, {sql(line)} AS {ident(LINE)} FROM {ident(input_view)}) "
                         f"AS {FANNED}")
            line = sink_split.framed_line(S.col(LINE), sink_split.group_key(
                cfg, [n for n, _ in plan.relation.all_columns]))
            fan_out = FanOut(cfg.path, None)  # assembled as a fan-out's files are
            header += "; each line framed with its group key, cut into the split files " \
                "when the output is assembled (codegen/sink_split.py)"
        if cfg.fan_out is not None:  # the line computed once, below its framing
            source = Sql(f"(SELECT *, {sql(line)} AS {ident(LINE)} FROM {ident(input_view)}) "
                         f"AS {FANNED}")
            line = fan_out_line(S.col(LINE))
            header += "; each line framed with its source file, whose own output file it " \
                "goes to when the output is assembled (runtime/outputs.py)"
            fan_out = FanOut(cfg.fan_out.template, _files_view(ctx, cfg.fan_out.source))
        if split is None:
            body = render("write_text.sql.j2", line=sql(line), input=source,
                          order_by=order_by)
        else:
            view, body, split_off = split_write.compile_split_write(
                ctx, name, [n for n, _ in plan.relation.all_columns], *split, line,
                sorted_by, plan.relation.order_by(), staging_path(cfg.path))
            header += f"; before its rows, those that failed in {split[1]}, split off " \
                "when the output is assembled (codegen/split_write.py)"
            observed = {"observe_view": view, "observe_when": LIVE}
    ctx.add(Statement("write", name, name, body, header=header,
                      step=WriteStep(path=cfg.path, staging=staging_path(cfg.path),
                                     format=cfg.format,
                                     header=tuple(n for n, _, _ in plan.columns),
                                     include_header=cfg.include_header,
                                     delimiter=cfg.delimiter, json_format=cfg.json_format,
                                     fan_out=fan_out, split=split_off,
                                     if_exists=cfg.if_exists,
                                     unique_suffix_width=cfg.unique_suffix_width,
                                     segments=sink_split.segments(cfg),
                                     xml_root=cfg.xml.root_element if cfg.xml else None,
                                     line_separator=cfg.line_separator
                                     if cfg.format == "fixed_width" else None)))
    ctx.compiled.sinks.append(SinkOutput(name, cfg.format, input_view, path=cfg.path,
                                         **observed))


def _files_view(ctx: Context, source: str) -> str | None:
    """A view with the `$path` of each file a source read (codegen/source.py): its files
    when its rows hold positions, else its per-split offsets (the files it read a row
    from); None for a source that matched no file."""
    defined = {s.name for s in ctx.compiled.statements if s.kind == "view"}
    for view in (ctx.view(source, "files"), ctx.view(source, "offsets")):
        if view in defined:
            return view
    return None


RECORDS = "records"  # a sorted write's name for the records it reads
FANNED = "lines"  # a fan-out write's records, each with its `$line`


def fan_out_line(line: exp.Expression) -> exp.Expression:
    """A record's output text framed with the file it was read from, as
    `<length>:<file><length>:<text>` (lengths in characters): the runner reads each record
    whole, line breaks in a quoted value included, and writes it to its file's output."""
    framed = []
    for part in (S.col(SOURCE_FILE), line):
        framed += [exp.cast(S.fn("length", part.copy()), "STRING"), exp.Literal.string(":"),
                   part]
    return exp.Concat(expressions=framed, safe=False, coalesce=False)


def compile_table_write(ctx: Context, plan: SinkPlan, input_view: str, records: Sql,
                        order_by: Sql, typed: list) -> None:
    """`type: table`: the rows are written to a staging table with their CXL types; the
    runner swaps it in for the target only once every output of the run is ready
    (`table_swap_statements`), so readers see the old table or the new one, never a
    half-written one."""
    cfg = plan.node.config
    name = plan.node.name
    body = render("write_table.sql.j2", input=records, order_by=order_by,
                  select_list=select_list([(e, n) for n, e, _ in typed]))
    ctx.add(Statement("write", name, name, body,
                      header=f"sink {name}: write table {cfg.target} (staged as "
                             f"{'.'.join(staging_table(cfg.table))}, swapped in at the end)",
                      step=WriteStep(format="table", table=tuple(cfg.table),
                                     staging_table=staging_table(cfg.table))))
    ctx.compiled.sinks.append(SinkOutput(name, "table", input_view, table=cfg.target))


def staging_table(parts: tuple[str, ...] | list[str]) -> tuple[str, ...]:
    return (*parts[:-1], f"{parts[-1]}__clinker_staging")


def _old_table(parts: tuple[str, ...] | list[str]) -> tuple[str, ...]:
    return (*parts[:-1], f"{parts[-1]}__clinker_old")


def table_ref(parts: tuple[str, ...] | list[str]) -> str:
    """A (possibly qualified) table name, each part quoted by sqlglot."""
    return ".".join(S.to_sql(exp.to_identifier(p, quoted=True)) for p in parts)


def table_create_sql(step: WriteStep, body: str) -> str:
    """The write statement of a table sink: CTAS into the staging table."""
    return f"CREATE TABLE {table_ref(step.staging_table)} USING parquet AS\n{body}"


def table_prepare_statements(step: WriteStep) -> list[str]:
    """Before the write: a staging table left by a crashed run is dropped."""
    return [f"DROP TABLE IF EXISTS {table_ref(step.staging_table)}"]


def table_listing_sql(step: WriteStep) -> str:
    """Lists the tables of the target's database, to learn whether the target exists."""
    parts = step.table
    return "SHOW TABLES" + (f" IN {table_ref(parts[:-1])}" if len(parts) > 1 else "")


def table_swap_statements(step: WriteStep, exists: bool) -> list[str]:
    """Swap the staging table in: the old table (if any) is renamed away, the staging table
    takes its name, and the old one is dropped."""
    target, staging, old = step.table, step.staging_table, _old_table(step.table)
    out = [f"DROP TABLE IF EXISTS {table_ref(old)}"]
    if exists:
        out.append(f"ALTER TABLE {table_ref(target)} RENAME TO {table_ref(old)}")
    out.append(f"ALTER TABLE {table_ref(staging)} RENAME TO {table_ref(target)}")
    out.append(f"DROP TABLE IF EXISTS {table_ref(old)}")
    return out


def table_discard_statements(step: WriteStep) -> list[str]:
    return [f"DROP TABLE IF EXISTS {table_ref(step.staging_table)}"]


# The characters a value of each type can print as (cxl/text.py): a cell of such a type
# needs no quoting test when the delimiter is not among them (a quote, CR and LF never are).
_CELL_ALPHABET = {
    "int": "+-0123456789",
    "decimal": "+-.0123456789E",
    "float": "+-.0123456789EINaefinty",
    "bool": "aefilrstu",
    "date": "+-0123456789",
    "datetime": "+-.:0123456789T",
}


def csv_cell(value: exp.Expression, delimiter: str, kind: str = "string") -> exp.Expression:
    """RFC 4180 quoting as Rust's csv crate does it (quote only when needed). A value whose
    type never prints the delimiter skips the test. The test is one `contains` per special
    character: a byte search, where a regex class was a match per cell and row (the write
    of 1M nine-column lines: 4.9 -> 4.5 s)."""
    if not set(delimiter) & set(_CELL_ALPHABET.get(kind, delimiter)):
        return S.fn("coalesce", value, S.string(""))
    special = list(dict.fromkeys(list(delimiter) + ['"', "\n", "\r"]))
    needs_quotes = S.or_(*[S.fn("contains", value.copy(), S.string(c)) for c in special])
    quoted = S.fn("concat", S.string('"'),
                  S.fn("replace", value.copy(), S.string('"'), S.string('""')), S.string('"'))
    # the CASE `S.case` would build (two distinct tests, neither FALSE), built from fresh
    # parts: `S.case` copies every branch again, and a DLQ line has a cell per column of
    # every node (a wide chain copied each cell twice)
    return exp.Case(ifs=[exp.If(this=S.is_null(value.copy()), true=S.string("")),
                         exp.If(this=needs_quotes, true=quoted)], default=value)


def csv_line(columns: list[tuple[str, exp.Expression, CxlType]], delimiter: str,
             plain: frozenset[str] = frozenset()) -> exp.Expression:
    """`plain`: columns whose text never holds the delimiter, a quote or a line break (a
    DLQ entry's id and timestamp): no quoting test, and a nondeterministic value such as
    `uuid()` computed once."""
    cells = [S.fn("coalesce", to_cell(e, t), S.string("")) if n in plain else
             csv_cell(to_cell(e, t), delimiter, t.kind) for n, e, t in columns]
    return S.fn("concat_ws", S.string(delimiter), *cells)


def json_line(columns: list[tuple[str, exp.Expression, CxlType]], preserve_nulls: bool
              ) -> exp.Expression:
    """A record as one JSON object. A dotted column name is a path: `customer.name` is
    the key `name` of an object `customer` (`$ck.x` under `"$ck"`; `a\\.b` is a literal
    dot), columns of one prefix grouped where it first appears, as Clinker's writer
    nests them (json/writer.rs `build_plan_cache`)."""
    tree: dict = {}
    for name, e, t in columns:
        *branches, leaf = _field_path(name)
        body = tree
        for segment in branches:
            body = body.setdefault(segment, {})
            if not isinstance(body, dict):
                raise fail("CS001", f"JSON output column '{name}' nests under the column "
                           f"'{segment}', which holds a value")
        if leaf in body:
            raise fail("CS001", f"JSON output column '{name}' takes the place of another one")
        body[leaf] = (to_cell(e, t) if t.kind == "datetime" else e, t)
    if any(json_values.holds_json(t) for _, _, t in columns):
        return _text_object(tree, preserve_nulls, top=True)
    struct = _json_object(_values(tree), preserve_nulls)
    if preserve_nulls:
        return S.fn("to_json", struct, S.fn("map", S.string("ignoreNullFields"),
                                            S.string("false")))
    return S.fn("to_json", struct)
