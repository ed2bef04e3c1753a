"""A sink's write that also writes the failing rows of the chain it reads (a compiler pass
inside `sink.compile_write`).

A fused chain (codegen/fusion.py) hands its good rows to a sink and keeps its failing rows
for the DLQ, which the runner copies after the writes, when the writes counted any. That
copy is one more evaluation of the chain over its source: re-reading and parsing the files
is most of it (transform_chain, 1M rows, 0.1% bad: 1.6 s of 7 s; the write is 2.6 s).

The sink's write reads the chain's carry anyway, failing rows included, and drops them.
Split, it keeps them: the rows it writes are the good rows as output lines and, sorted
before them, each failing row's `$dlq` entry as one JSON line, then a marker line. The
runner cuts the staged part at the marker when it assembles the output: what comes before
goes to `failures.jsonl` in the staging folder, and the chain's failing rows are read from
there (`FROM_JSON` of each line) instead of being computed again. JSON escapes every line
break, so each entry is one line, and no entry is the marker (an entry starts with `{`).

Only the first text sink (CSV or JSON) that reads a fused chain's good rows directly,
with no commit layer in between, takes the chain's failing rows. The split happens on
every run: when the writes run after the DLQ's copies (a Thrift server) the side lines
are written and not read, and a clean run writes only the marker line.
"""

from __future__ import annotations

from dataclasses import replace

from sqlglot import exp

from clinker_sql import sqlbuild as S
from clinker_sql.codegen import sort_key
from clinker_sql.codegen.context import Context
from clinker_sql.codegen.fusion import DLQ, DLQ_TYPE, LIVE
from clinker_sql.codegen.names import PART
from clinker_sql.codegen.plan import Statement
from clinker_sql.codegen.run_plan import Split
from clinker_sql.codegen.templates import Sql, ident, render, select_list, sql

SIDE = "failures.jsonl"  # in the write's staging folder
MARKER = "-- clinker-sql: the failing rows end here; the output starts below --"


def chain_read(ctx: Context, sink_input: str, input_view: str, rows_view: str
               ) -> tuple[str, str] | None:
    """(carry, failing rows' view) of the fused chain whose good rows a text sink writes
    as they are (`sink_input`, read by its rows view, which the write reads), when the
    write can take the chain's failing rows; each chain's failing rows go with one write."""
    end = ctx.chain_ends.get(sink_input)
    if input_view != rows_view or end is None:
        return None
    del ctx.chain_ends[sink_input]
    return end


def compile_split_write(ctx: Context, sink: str, columns: list[str], carry: str,
                        failed: str, line: exp.Expression, sorted_by: list[exp.Expression],
                        arrival: list[exp.Expression], staging: str
                        ) -> tuple[str, str, Split]:
    """The split rows view `<sink>.split` (added), the write's body and what it splits.
    `sorted_by`: the sink's own keys (its `sort_order`, with direction and nulls
    placement), before `arrival`, the arrival order (`$source.order`, `$source.row`, ...)."""
    split = ctx.view(sink, "split")
    items = [(S.col(c), c) for c in columns] + [(S.col(LIVE), LIVE), (S.col(DLQ), DLQ)]
    ctx.add(Statement("view", sink, split, render(
        "carry_filter.sql.j2", view=ident(split), carry=ident(carry),
        select_list=select_list(items),
        condition=sql(S.or_(S.col(LIVE), S.not_null(S.col(DLQ))))),
        header=f"sink {sink}: the records it receives, and the rows of the chain before it "
               f"that failed ({failed}; codegen/split_write.py)"))
    live = S.col(LIVE)
    # the keys' values go through the union as columns; the ORDER BY over them carries
    # each key's direction and nulls placement (codegen/sort_key.py `carried`)
    keys, key_order = sort_key.carried(sorted_by + arrival)
    rows = exp.select(
        S.case([(live.copy(), line)], S.fn("to_json", S.col(DLQ))).as_(S.ident("value")),
        S.case([(live.copy(), S.small_int(2))], S.small_int(0)).as_(S.ident(PART)),
        *[e.as_(S.ident(k)) for e, k in keys]).from_(S.table(split))
    marker = exp.select(S.string(MARKER).as_(S.ident("value")),
                        S.small_int(1).as_(S.ident(PART)),
                        *[S.null().as_(S.ident(k)) for _, k in keys])
    order_keys, arrival_keys = key_order[:len(sorted_by)], key_order[len(sorted_by):]
    if sorted_by:  # `$part` first (the failing rows, the marker, the output), then the keys
        arrived = sort_key.arrival(arrival_keys[0], arrival_keys[1])
        order = [S.col(PART), *order_keys, arrived, *arrival_keys]
    else:  # the packed key first (codegen/sort_key.py): `$part`, then the arrival order
        first = sort_key.arrival(arrival_keys[0], arrival_keys[1], S.col(PART))
        order = [first, S.col(PART), *arrival_keys]
    body = render("write_text_split.sql.j2", rows=Sql(sql(exp.union(rows, marker,
                                                                   distinct=False))),
                  order_by=Sql(", ".join(sql(e) for e in order)))
    side = f"{staging}/{SIDE}"
    define = (f"CREATE OR REPLACE TEMPORARY VIEW {ident(failed)} AS\n"
              f"SELECT {sql(S.fn('from_json', S.col('value'), S.string(DLQ_TYPE)))} AS "
              f"{ident(DLQ)}\nFROM {sql(exp.Table(this=S.ident(side), db=S.ident('text')))}")
    _mark_checkpoint(ctx, failed, sink)
    return split, body, Split(failed, side, define)


def _mark_checkpoint(ctx: Context, failed: str, sink: str) -> None:
    statements = ctx.compiled.statements
    for i, stmt in enumerate(statements):
        if stmt.kind == "checkpoint" and stmt.name == failed:
            statements[i] = replace(stmt, header=stmt.header + (
                f"; when the writes run first (a local run), read from what the write of "
                f"sink {sink} split off (codegen/split_write.py)"))
