"""Sink node -> the projected rows view and the write statement (spec §2.7)."""

from __future__ import annotations

from sqlglot import exp

from clinker_sql.codegen import sql as S
from clinker_sql.codegen.context import Context
from clinker_sql.codegen.plan import SOURCE_NAME, SOURCE_ROW, Relation, Statement
from clinker_sql.codegen.templates import Sql, ident, render, select_list, sql
from clinker_sql.config import model as m
from clinker_sql.cxl.text import to_cell
from clinker_sql.cxl.types import CxlType
from clinker_sql.diagnostics import fail


def project(node: m.SinkNode, upstream: Relation) -> list[tuple[str, exp.Expression, CxlType]]:
    """Output columns in order: (name, expression over the input, type)."""
    cfg = node.config
    cols = list(upstream.columns)
    if cfg.include_correlation_keys:
        cols += list(upstream.ck)
    if not cfg.include_unmapped and cfg.mapping is None and upstream.emitted is not None:
        keep = upstream.emitted | {c for c, _ in upstream.ck if cfg.include_correlation_keys}
        cols = [(n, t) for n, t in cols if n in keep]
    excluded = set(cfg.exclude)
    cols = [(n, t) for n, t in cols if n not in excluded]
    out = [(n, S.col(n), t) for n, t in cols]
    if cfg.mapping is not None:
        available = dict(cols)
        mapped: list[tuple[str, exp.Expression, CxlType]] = []
        used: set[str] = set()
        for out_name, src in cfg.mapping:
            if src not in available:
                raise fail("E365", f"sink '{node.name}' maps '{src}', which the pipeline does "
                           "not carry at this point", cfg.path_loc)
            mapped.append((out_name, S.col(src), available[src]))
            used.add(src)
        if cfg.include_unmapped:
            names = {o for o, _, _ in mapped}
            mapped += [(n, e, t) for n, e, t in out if n not in used and n not in names]
        out = mapped
    return out


def staging_path(path: str) -> str:
    return f"{path}.clinker-staging"


def compile_sink(ctx: Context, node: m.SinkNode, upstream: Relation) -> None:
    cfg = node.config
    columns = project(node, upstream)
    rows_view = ctx.view(node.name, "rows")
    items = [(e, n) for n, e, _ in columns]
    hidden = ["$source.order", SOURCE_NAME, SOURCE_ROW]
    names = {n for n, _, _ in columns}
    items += [(S.col(h), h) for h in hidden if h not in names]
    ctx.add(Statement("view", node.name, rows_view, render(
        "sink_rows.sql.j2", view=ident(rows_view), input=ident(upstream.view),
        select_list=select_list(items)), header=f"sink {node.name}: the rows it writes"))
    order_by = Sql(", ".join(sql(e) for e in upstream.order_by()))
    typed = [(n, S.col(n), t) for n, _, t in columns]
    if cfg.format == "parquet":
        body = render("write_parquet.sql.j2", input=ident(rows_view), order_by=order_by,
                      select_list=select_list([(S.col(n), n) for n, _, _ in columns]))
    else:
        line = csv_line(typed, cfg.delimiter) if cfg.format == "csv" else \
            json_line(typed, cfg.preserve_nulls)
        body = render("write_text.sql.j2", line=sql(line), input=ident(rows_view),
                      order_by=order_by)
    ctx.add(Statement("write", node.name, node.name, body,
                      header=f"sink {node.name}: write {cfg.format} to {cfg.path}",
                      meta={"path": cfg.path, "staging": staging_path(cfg.path),
                            "format": cfg.format, "header": [n for n, _, _ in columns],
                            "include_header": cfg.include_header,
                            "delimiter": cfg.delimiter, "json_format": cfg.json_format,
                            "rows_view": rows_view}))
    ctx.compiled.sinks.append({"name": node.name, "path": cfg.path, "rows_view": rows_view,
                               "format": cfg.format})


def csv_cell(value: exp.Expression, delimiter: str) -> exp.Expression:
    """RFC 4180 quoting as Rust's csv crate does it (quote only when needed)."""
    klass = "[" + ("\\" + delimiter if not delimiter.isalnum() else delimiter) + '"\\r\\n]'
    quoted = S.fn("concat", S.string('"'), S.fn("replace", value, S.string('"'), S.string('""')),
                  S.string('"'))
    return S.case([(S.is_null(value), S.string("")),
                   (exp.RegexpLike(this=value, expression=S.string(klass)), quoted)], value)


def csv_line(columns: list[tuple[str, exp.Expression, CxlType]], delimiter: str
             ) -> exp.Expression:
    cells = [csv_cell(to_cell(e, t), delimiter) for _, e, t in columns]
    return S.fn("concat_ws", S.string(delimiter), *cells)


def json_line(columns: list[tuple[str, exp.Expression, CxlType]], preserve_nulls: bool
              ) -> exp.Expression:
    args: list[exp.Expression] = []
    for name, e, t in columns:
        args += [S.string(name), e if t.kind != "datetime" else to_cell(e, t)]
    struct = S.fn("named_struct", *args)
    if preserve_nulls:
        return S.fn("to_json", struct, S.fn("map", S.string("ignoreNullFields"),
                                            S.string("false")))
    return S.fn("to_json", struct)
