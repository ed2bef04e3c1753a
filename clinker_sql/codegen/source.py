"""Source node -> scan, row-numbering, typed (ok) and error views, or the carry that heads a
fused chain (codegen/fusion.py)."""

from __future__ import annotations

import os
from dataclasses import replace
from pathlib import Path

from sqlglot import exp

from clinker_sql import sqlbuild as S
from clinker_sql.codegen import (
    fixed_width,
    fusion,
    input_bytes,
    input_files,
    json_nested,
    json_record_path,
    multi_value,
    numbering,
    source_order,
    unmapped,
    xml_source,
)
from clinker_sql.codegen.context import Context
from clinker_sql.codegen.dlq_shape import dlq_select
from clinker_sql.codegen.ingest import typed_value
from clinker_sql.codegen.materialize import checkpoint, counted_in
from clinker_sql.codegen.plan import (
    NODE_LAYER,
    SOURCE_FILE,
    SOURCE_NAME,
    SOURCE_ROW,
    WIDENED,
    ErrorView,
    Relation,
    Statement,
    ck_cell,
    ck_column,
)
from clinker_sql.codegen.run_plan import CheckpointStep, Discovery, FewFiles, Listing, ViewStep
from clinker_sql.codegen.templates import Sql, ident, literal, render, select_list, sql
from clinker_sql.config import model as m
from clinker_sql.config.discovery import matched_files, relative
from clinker_sql.cxl import types as T
from clinker_sql.cxl.text import to_cell
from clinker_sql.diagnostics import Diagnostic, fail

# the rows of one file split, a column of `<source>.offsets`

_SPARK_FORMAT = {"csv": "csv", "json": "json", "parquet": "parquet", "fixed_width": "text"}


def compile_source(ctx: Context, node: m.SourceNode, order: int) -> Relation:
    cfg = node.config
    if cfg.path_kind == "paths" and _braces(cfg.paths):
        raise fail("CS001", "a `paths:` entry holding one of , { } [ ] * ? \\ is not "
                   "supported (the files are read as one brace pattern)", node.loc,
                   "rename the file, or read it with `path:`")
    if cfg.sort_order and numbering.reads_source_row(ctx.pipeline):
        raise fail("CS001", f"source '{node.name}' declares a sort_order, and a CXL program "
                   "reads $source.row: not supported (the rows' arrival order is not their "
                   "order in the files)", node.loc)
    raw, split, offsets, rows, total, ok, err = (
        ctx.view(node.name, s)
        for s in ("scan", "split", "offsets", "rows", "total", None, "errors"))
    # the files matched, listed once (config/discovery.py); None: the compiler reads none
    files = None if ctx.base is None else matched_files(
        cfg.path_kind, cfg.paths, ctx.base, cfg.filters if cfg.filters.active() else None)
    selected = _selected_files(ctx, node, files)
    discovery = ViewStep(discovery=Discovery(
        node.name, cfg.path_kind, tuple(cfg.paths), cfg.files.on_no_match,
        cfg.filters if cfg.filters.active() else None))
    in_order = None if files is None else _read_order(cfg, files)
    cfg = input_files.json_layout(node, in_order)  # no `format:`: as the files are laid out
    node = replace(node, config=cfg)
    # every file has no record (0 bytes, blank lines): no rows (input_files.py)
    empty = selected != [] and input_files.all_empty(cfg, in_order)
    keys = unmapped.json_keys(cfg, in_order)  # a JSON source's, with nested paths
    # `any` columns holding arrays: the scan declares its schema (codegen/json_nested.py)
    dynamic = json_nested.dynamic_columns(cfg, keys) if not empty else frozenset()
    record_path = json_record_path.steps(cfg)  # a JSON source's (json_record_path.py)
    if json_record_path.object_alone(cfg) and in_order is None:  # files not listed here
        json_record_path.object_alone_check(ctx, node)
    if selected == [] or empty:  # on_no_match warn or skip, and no file: a source of no rows
        ctx.add(Statement("view", node.name, raw, f"CREATE OR REPLACE TEMPORARY VIEW "
                          f"{ident(raw)} AS {sql(_no_rows(cfg))}",
                          header=f"source {node.name}: " + (
                              "its files have no record: no rows" if empty else
                              f"no file matched (files.on_no_match: "
                              f"{cfg.files.on_no_match}): no rows"), step=discovery))
    elif cfg.format == "xml":  # the declared fields' shape as the schema (xml_source.py)
        read = cfg if selected is None else replace(cfg, paths=tuple(selected))
        ctx.add(Statement("view", node.name, raw, xml_source.scan(
            raw, read, dict(_options(read))["path"]),
            header=f"source {node.name}: read the xml elements "
                   f"{xml_source.record_tag(cfg)} (record_path {cfg.xml.record_path}) as text"
            + (f" (files: {len(selected)} of its matches)" if selected else ""),
            step=replace(discovery, scan_columns=xml_source.scan_names(cfg))))
        xml_source.compile_path_check(ctx, node, dict(_options(read))["path"])
        if not cfg.split_to_rows:
            xml_source.compile_repeat_check(ctx, node, raw)
    elif record_path is not None:  # each file one document, its array's elements
        read = cfg if selected is None else replace(cfg, paths=tuple(selected))
        document = ctx.view(node.name, "document")
        ctx.add(Statement("view", node.name, document, render(
            "source_scan.sql.j2", view=ident(document), format=Sql("json"),
            options=Sql(", ".join(f"{k} {literal(v)}" for k, v in _options(read))),
            schema=Sql(json_record_path.document_schema(
                record_path, json_nested.record_type(keys))) if dynamic else None),
            header=f"source {node.name}: read each json file as one document" + (
                f" (files: {len(selected)} of its matches)" if selected else ""),
            step=replace(discovery, scan_columns=(record_path[0],))))
        ctx.add(Statement("view", node.name, raw, f"CREATE OR REPLACE TEMPORARY VIEW "
                          f"{ident(raw)} AS {sql(json_record_path.scan(document, record_path))}",
                          header=f"source {node.name}: its records, the elements of the "
                                 f"array at record_path {cfg.json.record_path}, as text",
                          step=ViewStep(scan_columns=_record_columns(cfg, keys))))
        if keys is None:  # the compiler did not read the files (json_record_path.py)
            json_record_path.compile_null_check(ctx, node, document, record_path)
    else:
        read = cfg if selected is None else replace(cfg, paths=tuple(selected))
        ctx.add(Statement("view", node.name, raw, render(
            "source_scan.sql.j2", view=ident(raw), format=Sql(_SPARK_FORMAT[cfg.format]),
            options=Sql(", ".join(f"{k} {literal(v)}" for k, v in _options(read))),
            schema=Sql(json_nested.scan_schema(keys)) if dynamic else None),
            header=f"source {node.name}: read {cfg.format} as text" + (
                f" (files: {len(selected)} of its matches)" if selected else ""),
            step=replace(discovery, scan_columns=("value",)) if cfg.format == "fixed_width"
            else discovery))

    if cfg.format == "xml" and cfg.split_to_rows:  # a row per occurrence (xml_source.py)
        raw = xml_source.compile_fan_out(ctx, node, raw)
        if selected != [] and not empty:
            xml_source.compile_repeat_check(ctx, node, raw)
    physical = _physical(cfg)
    if cfg.format == "xml":
        xml_source.check_unmapped(node, in_order)
    # its first file's header (Clinker's schema), or a JSON source's flattened fields
    header = unmapped.header(cfg, in_order) or unmapped.leaves(keys)
    unmapped.reject_check(ctx, node, header)  # on_unmapped: reject
    # CS109 bytes not UTF-8, CS110 no header, E217 another schema: as each file is opened
    input_files.files_check(ctx, node, in_order, ctx.base)
    widened = unmapped.undeclared(cfg, header)  # carried in `$widened` (unmapped.py)
    # declared, not in the file: null
    missing = {c.name for c in cfg.schema} if empty else \
        unmapped.absent(cfg, header if keys is None else list(keys))
    extra = [unmapped.raw_name(i) for i in range(len(widened))]
    columns = Sql(",\n    ".join(
        [f"{sql(_split_value(p, c, cfg, missing, keys, bool(dynamic)))} AS {ident(c.name)}"
         for p, c in zip(physical, cfg.schema)] +
        [f"{sql(_widened_value(cfg, h, keys, bool(dynamic)))} AS {ident(r)}"
         for h, r in zip(widened, extra)] +
        ([f"{sql(fixed_width.line_bytes(cfg))} AS {ident(fixed_width.LINE_BYTES)}"]
         if cfg.format == "fixed_width" else [])))
    scan_columns = Sql(", ".join(f"scan.{ident(n)}" for n in [c.name for c in cfg.schema] + extra))
    file_expr = _file_path(_fixed_path(cfg), S.col("$file"))
    where = "fields of its records" if keys is not None else \
        "columns in the header of its first file"
    found = (f"; undeclared {where}, carried in $widened (on_unmapped: auto_widen): "
             f"{', '.join(ident(h) for h in widened)}") if widened else ""
    if missing:
        found += ("; declared columns its files lack, read as null: " +
                  ", ".join(c.name for c in cfg.schema if c.name in missing))
    ctx.add(Statement("view", node.name, split, render(
        "source_split.sql.j2", view=ident(split), raw=ident(raw), columns=columns),
        header=f"source {node.name}: the rows as text, with the split they were read "
               f"from{found}"))
    if cfg.format == "fixed_width":  # CS111: a truncated field, a value that does not parse
        fixed_width.compile_check(ctx, node, split)
    ctx.add(replace(checkpoint(split, node.name, "the files are parsed once (numbering the "
                               "rows and every consumer of the source would parse them again)"),
                    step=CheckpointStep(optional=_whole_files(cfg))))  # kept if read often
    counted = ViewStep(observed=rows)
    if ctx.pipeline.preview_rows is None and numbering.lazy(ctx.pipeline, cfg,
                                                            _whole_files(cfg)):
        _positions(ctx, node, order, file_expr, scan_columns)
        counted = replace(counted, files=ctx.view(node.name, "files"))
    else:
        _numbers(ctx, node, order, file_expr, scan_columns, extra)
    # a null cell: JSON's null or absent key, Parquet's null; a CSV's empty cell is text
    nulls = cfg.format != "csv"
    parts = {c.name: multi_value.elements(cfg, c, S.col(c.name), (keys or {}).get(
        c.source_name or c.name)) for c in cfg.schema if c.multiple and c.name not in missing}
    typed = [(c, S.cast(S.null(), T.spark_type_sql(multi_value.column_type(c)))
              if c.name in missing else multi_value.typed(c, parts[c.name], nulls)
              if c.multiple else json_nested.typed(S.col(c.name)) if c.name in dynamic
              else fixed_width.typed_value(S.col(c.name), c)
              if c.layout is not None else typed_value(S.col(c.name), c, nulls))
             for c in cfg.schema]
    if cfg.correlation_key:  # sketched while counted (correlation._sketch_bound)
        counted = replace(counted, ck_sketch=S.to_sql(_ck_text(cfg, dict(
            (c.name, value) for c, value in typed))))
    if selected != [] and not empty and cfg.format == "csv" and input_files.utf8(cfg):
        counted = _utf8_check(ctx, node, read, header, widened, in_order, rows, counted,
                    [c.name for c in cfg.schema if c.name not in missing] + extra)
    ctx.add(Statement("view", node.name, total, render(
        "source_total.sql.j2", view=ident(total), offsets=ident(offsets)),
        header=f"source {node.name}: the rows read (run summary)", step=counted))

    is_bad = _is_bad_xml if cfg.format == "xml" else _is_bad
    bad = [(c, S.boolean(_rejects_null(c)) if c.name in missing else
            multi_value.is_bad(c, parts[c.name], nulls, is_bad, S.col(c.name),
                               nulls and _rejects_null(c)) if c.multiple else
            is_bad(S.col(c.name), c, value, nulls)) for c, value in typed]
    any_bad = S.or_(*[b for _, b in bad]) if bad else S.boolean(False)
    ck = tuple((ck_column(f), _ck_type(cfg, f)) for f in cfg.correlation_key)
    items = [(value, c.name) for c, value in typed]
    items += [(S.col(h), h) for h in (SOURCE_NAME, SOURCE_FILE, SOURCE_ROW, "$source.order")]
    items += [(typed[[c.name for c in cfg.schema].index(f)][1], ck_column(f))
              for f in cfg.correlation_key]
    if widened:
        items.append((unmapped.widened_map(widened, cells=cfg.format == "csv"), WIDENED))
    relation = Relation(ok, tuple((c.name, json_nested.JSON_ARRAY if c.name in dynamic
                                   else multi_value.column_type(c)) for c in cfg.schema),
                        ck=ck, widened=widened)
    first_bad = S.case([(b, S.string(c.name)) for c, b in bad])
    payload = [c.name for c in cfg.schema]
    detail = _type_error_detail(node, cfg, bad)
    entry = dlq_select(
        source_name=S.col(SOURCE_NAME), source_file=S.col(SOURCE_FILE),
        source_row=S.col(SOURCE_ROW), order=S.col("$source.order"),
        field=first_bad, value=S.case([(b, S.fn("coalesce", S.col(c.name), S.string("")))
                                       for c, b in bad]),
        category=S.string("type_coercion_failure"), detail=detail, stage=S.string("source"),
        trigger=True, payload=_payload(cfg, typed))
    ctx.error_views.append(ErrorView(err, node.name, tuple(payload), 4, "E126"))
    if fusion.source_fuses(ctx, node):  # typed with the chain that reads it: one pass
        carry, carried = fusion.source_carry(ctx, node.name, rows, items, any_bad, entry)
        return replace(relation, view=carry, carried=carried)
    ctx.add(Statement("view", node.name, ok, render(
        "source_typed.sql.j2", view=ident(ok), rows=ident(rows),
        select_list=select_list(items), any_bad=sql(any_bad)),
        header=f"source {node.name}: typed rows (values that do not cast go to the DLQ)",
        layer=NODE_LAYER))
    ctx.add(Statement("view", node.name, err, render(
        "node_errors.sql.j2", view=ident(err), input=ident(rows),
        select_list=select_list(entry), condition=sql(any_bad)),
        header=f"source {node.name}: DLQ entries for values that violate the declared type",
        step=counted_in(rows, sql(any_bad))))
    return relation


def _payload(cfg: m.SourceConfig, typed: list[tuple[m.Column, exp.Expression]]
             ) -> dict[str, exp.Expression]:
    """A DLQ entry's record: each cell's text; a fixed-width record's values as its reader
    typed them (the failing field null), written as a sink writes them."""
    if cfg.format != "fixed_width":
        return {c.name: S.col(c.name) for c, _ in typed}
    return {c.name: to_cell(value.copy(), T.from_column(c.type, c.precision, c.scale))
            for c, value in typed}


def _utf8_check(ctx: Context, node: m.SourceNode, read: m.SourceConfig,
                header: list[str] | None, widened: tuple[str, ...],
                in_order: list[Path] | None, rows: str, counted: ViewStep,
                columns: list[str]) -> ViewStep:
    """The run's check that a CSV source read as UTF-8 holds no bytes that are not UTF-8
    (codegen/input_bytes.py); gated by its rows holding U+FFFD (`counted`, the step of its
    total, returned with the condition) when they carry every column of its files."""
    cfg = node.config
    path = dict(_options(read))["path"]
    input_bytes.compile_check(ctx, node.name, path, _file_path(_fixed_path(cfg), S.col("$file")),
                              cfg.files.desc, rows)
    if cfg.csv.has_header:
        carried = header is not None and all(
            h in unmapped.declared(cfg) or h in widened for h in header)
    else:  # the first file's record no wider than the schema (the others: E217)
        try:
            first = input_files.schema_of(in_order[0], cfg) if in_order else None
        except input_files.NotDecodable:
            first = None
        carried = first is not None and len(first) <= len(cfg.schema)
    if carried:
        return replace(counted, suspect=input_bytes.suspect(columns))
    return counted


def _selected_files(ctx: Context, node: m.SourceNode, found: list[Path] | None
                    ) -> list[str] | None:
    """The files a source's `files:` block picks (take_first / take_last, in its name
    order) among those the compiler listed (`found`, None when it lists none); [] when
    none matched under `on_no_match: warn | skip`; None when the scan reads its matcher as
    written."""
    cfg, ctl = node.config, node.config.files
    listed = ctl.take is not None or cfg.filters.active()  # the scan reads the listing
    if not listed and ctl.on_no_match == "error":
        return None
    if found is None:
        if not listed:
            return None
        what = f"files.take_{ctl.take[0]}" if ctl.take is not None else \
            "a regex matcher or a file filter (exclude, min_size, max_size, " \
            "modified_after, modified_before)"
        raise fail("CS001", f"source '{node.name}': {what} needs the source's files on this "
                   "machine (the compiler lists them)", ctl.loc or node.loc)
    absolute = any(Path(p).is_absolute() for p in cfg.paths) and cfg.path_kind != "regex"
    names = [str(p) if absolute else relative(p, ctx.base) for p in _read_order(cfg, found)]
    if not names:
        if ctl.on_no_match == "error":
            # the run's check says E216 (runtime/runner.py); a listing reads no file
            return [] if listed else None
        if ctl.on_no_match == "warn":
            ctx.compiled.warnings.append(Diagnostic(
                "CS051", f"source '{node.name}': no file matched "
                f"{', '.join(cfg.paths)} (files.on_no_match: warn): it has no rows",
                ctl.loc, severity="warning"))
        return []
    if _braces(names):
        raise fail("CS001", f"source '{node.name}': its files.take_* or filters pick a file "
                   "whose name holds one of , { } [ ] * ? \\ (the files are read as one "
                   "brace pattern)", ctl.loc or node.loc)
    return names if listed else None


def _read_order(cfg: m.SourceConfig, found: list[Path]) -> list[Path]:
    """The files Clinker reads, in its order: the listing sorted by name (`files:
    sort_order`), then its `take_first` / `take_last`."""
    ordered = sorted(found, reverse=cfg.files.desc)
    if cfg.files.take is None:
        return ordered
    side, n = cfg.files.take
    return ordered[:n] if side == "first" else ordered[len(ordered) - n:] if n else []


def _braces(names) -> bool:
    """Whether a name holds a character of Hadoop's glob, which reads several files as
    one brace pattern (`_brace_pattern`)."""
    return any(ch in n for n in names for ch in ",{}[]*?\\")


def _physical(cfg: m.SourceConfig) -> list[str]:
    """The file's names of the declared columns (positions `_c<i>` without a header)."""
    if cfg.format == "csv" and not cfg.csv.has_header:
        return [f"_c{i}" for i in range(len(cfg.schema))]
    return [c.source_name or c.name for c in cfg.schema]


def _no_rows(cfg: m.SourceConfig) -> exp.Expression:
    """The scan of a source whose files matched nothing: its columns, no row."""
    if cfg.format == "fixed_width":
        return exp.select(exp.alias_(S.cast(S.null(), "STRING"), S.ident(fixed_width.LINE))
                          ).where(S.boolean(False))
    if cfg.format == "xml":
        return xml_source.no_rows(cfg)
    return exp.select(*[exp.alias_(S.cast(S.null(), "STRING"), S.ident(n))
                        for n in _physical(cfg)]).where(S.boolean(False))


def _numbers(ctx: Context, node: m.SourceNode, order: int, file_expr: exp.Expression,
             scan_columns: Sql, extra: list[str]) -> None:
    """`$source.row` numbered before anything reads the rows (codegen/numbering.py)."""
    split, offsets, rows = (ctx.view(node.name, s) for s in ("split", "offsets", "rows"))
    ctx.add(Statement("view", node.name, offsets, render(
        "source_offsets.sql.j2", view=ident(offsets), split=ident(split),
        source_file=sql(file_expr), desc=node.config.files.desc),
        header=f"source {node.name}: where each file split starts in the row numbering"))
    ctx.add(checkpoint(offsets, node.name, "one small job instead of an aggregate, a sort "
                       "and a broadcast in every statement that reads the rows"))
    args = dict(view=ident(rows), split=ident(split), offsets=ident(offsets),
                scan_columns=scan_columns, source_name=sql(S.string(node.name)),
                source_order=sql(S.bigint(order)))
    preview = ctx.pipeline.preview_rows
    if node.config.sort_order:  # arrival order != file order (codegen/source_order.py)
        if preview is not None:
            raise fail("CS001", f"source '{node.name}': a preview (run --dry-run -n) of a "
                       "source with a sort_order is not supported", node.loc)
        ctx.add(Statement("view", node.name, rows, render(
            "source_rows_sorted.sql.j2", **args, **source_order.rows_args(node.config, extra)),
            header=f"source {node.name}: stamp $source.row in its sort_order within each "
                   "file ($source.line: the row's number in its file)"))
        ctx.sorted_rows[node.name] = (order, rows)
        if node.config.on_unsorted == "error":
            source_order.compile_unsorted_check(ctx, node, rows)
        return
    if preview is not None:  # the rows numbered, then the first N of them
        every = ctx.view(node.name, "rows_all")
        ctx.add(Statement("view", node.name, every, render(
            "source_rows.sql.j2", **{**args, "view": ident(every)}),
            header=f"source {node.name}: stamp $source.row"))
        first = exp.select(exp.Star()).from_(S.table(every)).where(
            exp.LTE(this=S.col(SOURCE_ROW), expression=S.bigint(preview)))
        ctx.add(Statement("view", node.name, rows, f"CREATE OR REPLACE TEMPORARY VIEW "
                          f"{ident(rows)} AS {sql(first)}",
                          header=f"source {node.name}: its first {preview} records only "
                                 "(a preview: run --dry-run -n)"))
        return
    ctx.add(Statement("view", node.name, rows, render("source_rows.sql.j2", **args),
                      header=f"source {node.name}: stamp $source.row"))


def _positions(ctx: Context, node: m.SourceNode, order: int, file_expr: exp.Expression,
               scan_columns: Sql) -> None:
    """`$source.row` as a position, turned into a row number by the DLQ; the offsets
    are computed where the DLQ needs them, only if it has entries (codegen/numbering.py)."""
    raw, split, files, offsets, rows = (
        ctx.view(node.name, s) for s in ("scan", "split", "files", "offsets", "rows"))
    desc = node.config.files.desc  # `files: {sort_order: desc}`
    ctx.add(Statement("view", node.name, files, render(
        "source_files.sql.j2", view=ident(files), source_file=sql(file_expr),
        files=Sql(f"(SELECT DISTINCT `$file` FROM {ident(split)}) AS f"), desc=desc),
        header=f"source {node.name}: its files in name order" + " (descending)" * desc))
    listing = ctx.view(node.name, "listing")  # defined by a local run: the files' names
    ctx.add(replace(checkpoint(files, node.name, "a local run lists the files (no job); "
                               "the rows read its copy as a broadcast"),
                    step=CheckpointStep(listing=Listing(raw, listing, render(
                        "source_files.sql.j2", view=ident(files), source_file=sql(file_expr),
                        files=ident(listing), desc=desc)))))
    ctx.add(Statement("view", node.name, offsets, render(
        "source_file_offsets.sql.j2", view=ident(offsets), split=ident(split),
        low=sql(numbering.low_bits(S.col("$mid"))), desc=desc),
        header=f"source {node.name}: where each file starts in the row numbering"))
    common = dict(view=ident(rows), split=ident(split), scan_columns=scan_columns,
                  source_name=sql(S.string(node.name)), source_order=sql(S.bigint(order)))
    position = numbering.position(S.col("$rank", "files"), S.col("$mid", "scan"))
    at_rank = exp.Dot(this=S.col("$at", "scan"), expression=S.ident("$rank"))
    few = {**common, "position": sql(numbering.position(at_rank, S.col("$mid", "scan")))}
    # shown in the compiled file: the map built by a subquery over the files view
    lookup = Sql(f"(SELECT MAP_FROM_ENTRIES(COLLECT_LIST(STRUCT(`$file` AS `key`, "
                 f"STRUCT(`$path`, `$rank`) AS `value`))) FROM {ident(files)})")
    ctx.add(Statement("view", node.name, rows, render(
        "source_rows_positions.sql.j2", **common, files=ident(files), position=sql(position)),
        header=f"source {node.name}: stamp $source.row with row positions",
        step=ViewStep(few_files=FewFiles(
            files, render("source_rows_mapped.sql.j2", **few, lookup=lookup), few,
            _fixed_path(node.config), desc))))
    ctx.numbered[node.name] = (order, files, offsets, rows)


def listed_rows(few: FewFiles, files: list[str]) -> str:
    """The rows view of a source of a few files (`ViewStep.few_files`) once the
    runner has listed `files` (in name order, as `input_file_name()` gives them): each
    file, its `$source.file` and its rank in a literal MAP, which no job has to build."""
    if few.desc:  # `files: {sort_order: desc}`: ranks in descending name order
        files = list(reversed(files))
    entries: list[exp.Expression] = []
    for rank, name in enumerate(files):
        entries += [S.string(name), S.fn(
            "named_struct", S.string("$path"), _file_path(few.fixed_path, S.string(name)),
            S.string("$rank"), S.bigint(rank))]
    return render("source_rows_mapped.sql.j2", **few.render, lookup=sql(S.fn("map", *entries)))


def _fixed_path(cfg: m.SourceConfig) -> str | None:
    """The one file a `path:` source reads, as `$source.file` names it; None for a glob."""
    return cfg.paths[0] if cfg.path_kind == "path" else None


def _file_path(fixed: str | None, file: exp.Expression) -> exp.Expression:
    """`$source.file` of a row read from `file` (an `input_file_name()` value): the
    configured path of a `path:` source, else the file's URI without its `file:` scheme."""
    if fixed is not None:
        return S.string(fixed)
    return S.fn("regexp_replace", file, S.string("^file:(//)?"), S.string(""))


def _whole_files(cfg: m.SourceConfig) -> bool:
    """Whether Spark reads each file as one split (CSV, always read multi-line here, and
    JSON documents): every scan then numbers the rows alike, so the rows need not be
    copied. A splittable file (NDJSON, Parquet) is cut by a size that depends on the
    cluster's cores at the time of the scan, which can change between two scans."""
    return cfg.format == "csv" or (cfg.format == "json" and (
        cfg.json.format != "ndjson" or bool(cfg.json.record_path)))


def _record_columns(cfg: m.SourceConfig, keys: dict[str, str] | None) -> tuple[str, ...]:
    """The columns of a record_path source's records (inspect/sqlcheck.py): the top-level
    keys of its records, those the schema declares when the compiler read none."""
    names = [c.source_name or c.name for c in cfg.schema] + (unmapped.leaves(keys) or [])
    return tuple(dict.fromkeys(n.split(".")[0] for n in names))


def _split_value(physical: str, column: m.Column, cfg: m.SourceConfig, missing: set[str],
                 keys: dict[str, str] | None, declared: bool = False) -> exp.Expression:
    """A declared column's text in the split view; null when the file lacks it; a JSON
    source's multi-value field as its array's JSON text. `declared`: a JSON source read
    with its schema declared, where every field is its text (codegen/json_nested.py)."""
    fmt = cfg.format
    if column.name in missing:
        return S.cast(S.null(), "STRING")
    if declared:
        return json_nested.raw_text(unmapped.path(physical))
    if column.layout is not None:  # a fixed-width field (codegen/fixed_width.py)
        return fixed_width.field_text(cfg, column)
    if fmt == "xml":
        return xml_source.split_value(cfg, column)
    if fmt == "json" and column.multiple:
        return multi_value.raw_text(unmapped.path(physical), (keys or {}).get(physical))
    if fmt == "json":  # a dotted name is a nested field: `customer`.`name`
        return _raw_text(unmapped.path(physical), column, fmt)
    return _raw_text(S.col(physical), column, fmt)


def _widened_value(cfg: m.SourceConfig, name: str, keys: dict[str, str] | None,
                   declared: bool) -> exp.Expression:
    """An undeclared field's text (`declared`: as _split_value's)."""
    if declared:
        return json_nested.raw_text(unmapped.path(name))
    return unmapped.raw_value(cfg, name, keys)


def _raw_text(c: exp.Expression, column: m.Column, fmt: str) -> exp.Expression:
    if fmt == "csv":
        return c
    return S.cast(c, "STRING")


def _ck_text(cfg: m.SourceConfig, values: dict[str, exp.Expression]) -> exp.Expression:
    """A row's correlation key as one text, equal for two rows exactly when the commit
    puts them in one group (each field as the commit compares it: its cell text, '' as
    null); null when every field is null (no group)."""
    cells = [ck_cell(values[f].copy(), _ck_type(cfg, f)) for f in cfg.correlation_key]
    if len(cells) == 1:
        return cells[0]
    return S.case([(S.or_(*[S.not_null(c.copy()) for c in cells]),
                    S.fn("to_json", exp.Array(expressions=cells)))])


def _ck_type(cfg: m.SourceConfig, field_name: str) -> T.CxlType:
    col = next(c for c in cfg.schema if c.name == field_name)
    return T.from_column(col.type, col.precision, col.scale)


def _rejects_null(column: m.Column) -> bool:
    """Whether a null is a type error in the column: Clinker admits one only in a nullable
    column or one of type any or null ("null is not a valid String", schema_coerce.rs);
    a declared column the file lacks is null in every record."""
    return not column.nullable and column.type not in ("any", "null")


def _is_bad(raw: exp.Expression, column: m.Column, value: exp.Expression, nulls: bool
            ) -> exp.Expression:
    """A present value that does not convert; an empty cell of a non-nullable typed column;
    with `nulls` (a JSON or Parquet source), a null in a non-nullable string column."""
    if column.type == "string" and nulls and _rejects_null(column):
        return S.is_null(raw)
    if column.type in ("string", "any"):
        return S.boolean(False)
    empty = S.or_(S.is_null(raw), S.eq(raw, S.string("")))
    if column.nullable:
        return S.is_true(S.and_(S.not_(empty), S.is_null(value)))
    return S.is_true(S.or_(empty, S.is_null(value)))


def _is_bad_xml(raw: exp.Expression, column: m.Column, value: exp.Expression, nulls: bool
                ) -> exp.Expression:
    """`_is_bad`, and a `string` column's text that Clinker's XML reader reads as a number
    or a bool (codegen/xml_source.py)."""
    bad = _is_bad(raw, column, value, nulls)
    if column.type != "string":
        return bad
    return S.or_(bad, S.is_true(xml_source.native_non_string(raw.copy())))


_TYPE_NAMES = {"int": "Int", "float": "Float", "bool": "Bool", "decimal": "Decimal",
               "date": "Date", "date_time": "DateTime", "null": "Null"}


def _type_error_detail(node: m.SourceNode, cfg: m.SourceConfig,
                       bad: list[tuple[m.Column, exp.Expression]]) -> exp.Expression:
    whens = []
    for i, (c, b) in enumerate(bad):
        if isinstance(b, exp.Boolean) and not b.this:
            continue
        text = S.fn("concat", S.string(f'[E126] source="{node.name}" file="'),
                    S.col(SOURCE_FILE), S.string('" row='),
                    S.cast(S.col(source_order.LINE if cfg.sort_order else SOURCE_ROW),
                           "STRING"),
                    S.string(f' column={i + 1} field="{c.name}" '
                             f'declared_type={_TYPE_NAMES.get(c.type, c.type)}: value "'),
                    S.fn("coalesce", S.col(c.name), S.string("")),
                    S.string(f'" is not a valid {_TYPE_NAMES.get(c.type, c.type)}'))
        if c.layout is not None:  # a fixed-width field: only a blank one reaches the DLQ
            text = S.fn("concat", S.string(f'[E126] source="{node.name}" file="'),
                        S.col(SOURCE_FILE), S.string('" row='),
                        S.cast(S.col(source_order.LINE if cfg.sort_order else SOURCE_ROW),
                               "STRING"),
                        S.string(f' column={i + 1} field="{c.name}" declared_type='
                                 f'{_TYPE_NAMES.get(c.type, "String")}: null is not a valid '
                                 f'{_TYPE_NAMES.get(c.type, "String")}'))
        whens.append((b, text))
    return S.case(whens)


def _brace_pattern(paths: tuple[str, ...]) -> str:
    """`dir/{a.csv,b.csv}`: the folder the paths share stays outside the braces, so that
    Spark sees an absolute pattern when they are absolute."""
    common = os.path.commonprefix(list(paths))
    common = common[:common.rfind("/") + 1]
    return common + "{" + ",".join(p[len(common):] for p in paths) + "}"


def _options(cfg: m.SourceConfig) -> list[tuple[str, str]]:
    # several `paths:`: one brace pattern, which Hadoop expands into the files (read, like
    # a glob's, in name order: Clinker's discovery sorts a `paths:` list by name too)
    path = cfg.paths[0] if len(cfg.paths) == 1 else _brace_pattern(cfg.paths)
    if cfg.format == "csv":
        o = cfg.csv
        for c in cfg.schema:
            if o.has_header and "\r" in (c.source_name or c.name):
                # Spark's CSV reader takes the first line break it meets for the file's line
                # separator: a lone carriage return inside a quoted header name becomes one
                raise fail("CS001", f"CSV column {c.name!r}: a column name holding a carriage "
                           "return is not supported (Spark's CSV reader splits the header "
                           "there)", c.loc)
        encoding = "UTF-8" if o.encoding in ("utf-8", "utf8") else "ISO-8859-1"
        return [("path", path), ("header", "true" if o.has_header else "false"),
                ("sep", o.delimiter), ("quote", o.quote_char), ("escape", o.quote_char),
                ("multiLine", "true"), ("mode", "FAILFAST"), ("inferSchema", "false"),
                ("encoding", encoding)]
    if cfg.format == "json":  # record_path wins over `format: ndjson`: one document
        multi = "false" if cfg.json.format == "ndjson" and not cfg.json.record_path \
            else "true"
        return [("path", path), ("multiLine", multi), ("mode", "FAILFAST"),
                ("primitivesAsString", "true"), ("prefersDecimal", "false")]
    if cfg.format == "fixed_width":
        return fixed_width.spark_options(path)
    return [("path", path)]
