"""A sink's `sort_order` on real runs, where its write also splits off the failing rows of
the chain before it (codegen/split_write.py) and where a key is named like a written
column. Clinker's order (pipeline/sort_key.rs `compare_authored_keys`): each key in turn,
asc by default, its nulls last unless `null_order: first` whatever the direction, and a
stable sort (rows whose keys tie keep their arrival order). The expected orders below are
worked out by hand from those rules."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from clinker_sql.project import Project

from .pipelines import Run, dlq, pipeline, sink, source, step, transform, write_case

# d's code does not convert: a DLQ entry from the transform, the others are written
ROWS = ("id,region,amount,code\na,eu,5,1\nb,,7,2\nc,us,5,3\nd,eu,9,x\ne,us,,5\n"
        "f,eu,5,6\ng,us,7,7\n")
COLUMNS = "id, region: string?, amount: int?, code"
PARSE = transform("t", "s", "emit code = code.to_int()")
FAILED = [("s", "4", "type_coercion_failure")]


def _run(executor, tmp_path: Path, text: str, files: dict[str, str]) -> tuple[Run, bool]:
    """The run, and whether its sink's write split off the chain's failing rows."""
    path = write_case(tmp_path, text, files)
    project = Project(path, tmp_path / "target", allow_absolute_paths=True)
    split = any(s.step.split is not None for s in project.compile(base=tmp_path).statements
                if s.kind == "write")
    return Run(project.run(executor=executor, base=tmp_path), tmp_path), split


def _sorted(keys: list[str], kind: str = "csv") -> str:
    out = sink("out", "t", "\n      sort_order:\n" + "".join(f"        - {k}\n" for k in keys))
    if kind == "json":
        out = out.replace("type: csv", "type: json").replace(
            "out.csv", "out.json\n      options: { format: ndjson }")
    return out


def _ids(r: Run, kind: str) -> list[str]:
    if kind == "csv":
        return r.column("out.csv", "id")
    lines = (r.dir / "out" / "out.json").read_text(encoding="utf-8").splitlines()
    return [json.loads(line)["id"] for line in lines]


# amount: a 5, b 7, c 5, e null, f 5, g 7; region: a eu, b "", c us, e us, f eu, g us
# (an empty string cell is "", not null, so "" sorts first); d is in the DLQ
ORDERS = [
    (["amount"], ["a", "c", "f", "b", "g", "e"]),  # ties in arrival order, null last
    (["{ field: amount, order: desc }"], ["b", "g", "a", "c", "f", "e"]),  # null still last
    (["{ field: amount, order: desc, null_order: first }"], ["e", "b", "g", "a", "c", "f"]),
    (["{ field: amount, null_order: first }"], ["e", "a", "c", "f", "b", "g"]),
    (["region", "{ field: amount, order: desc }"], ["b", "a", "f", "g", "c", "e"]),
    (["{ field: region, order: desc }", "amount"], ["c", "g", "e", "a", "f", "b"]),
    (["{ field: amount, null_order: drop }"], ["a", "c", "f", "b", "g"]),  # e left out
]


@pytest.mark.parametrize("kind", ["csv", "json"])
def test_sorted_sinks_beside_a_failing_row(executor, tmp_path, kind):
    for i, (keys, expected) in enumerate(ORDERS):
        case = tmp_path / str(i)
        case.mkdir()
        r, split = _run(executor, case, pipeline(source("s", COLUMNS), PARSE,
                                                 _sorted(keys, kind)), {"s.csv": ROWS})
        # the write takes the chain's failing rows, but for a `drop`, read from a view
        # of the rows it keeps
        assert split == ("drop" not in keys[0]), keys
        assert _ids(r, kind) == expected, keys
        assert [e[:3] for e in dlq(r)] == FAILED, keys  # the drop is no DLQ entry
        assert r.result.counts["written"] == len(expected)


def test_sorted_rows_keep_their_values(executor, tmp_path):
    r, _ = _run(executor, tmp_path, pipeline(source("s", COLUMNS), PARSE, _sorted(
        ["{ field: amount, order: desc }"], "json")), {"s.csv": ROWS})
    lines = (tmp_path / "out" / "out.json").read_text(encoding="utf-8").splitlines()
    assert [json.loads(line) for line in lines] == [
        {"id": "b", "region": "", "amount": 7, "code": 2},
        {"id": "g", "region": "us", "amount": 7, "code": 7},
        {"id": "a", "region": "eu", "amount": 5, "code": 1},
        {"id": "c", "region": "us", "amount": 5, "code": 3},
        {"id": "f", "region": "eu", "amount": 5, "code": 6},
        {"id": "e", "region": "us", "code": 5}]  # a null is left out of a JSON record


def test_without_a_dlq_the_failing_row_is_counted_not_written(executor, tmp_path):
    text = pipeline(source("s", COLUMNS), PARSE, _sorted(["{ field: amount, order: desc }"]))
    text = text.replace("  dlq:\n    path: {dir}/out/dlq.csv\n", "")
    r, _ = _run(executor, tmp_path, text, {"s.csv": ROWS})
    assert r.column("out.csv", "id") == ["b", "g", "a", "c", "f", "e"]
    assert r.result.counts["dlq"] == 1 and not (tmp_path / "out" / "dlq.csv").exists()


# `value` is also the name of the line a text write writes: the key must read the field
VALUES = "id,value,code\na,10,1\nb,9,2\nc,100,x\nd,100,4\ne,,5\n"


@pytest.mark.parametrize("kind", ["csv", "json"])
def test_a_key_named_like_the_written_line(executor, tmp_path, kind):
    columns = "id, value: int?, code"
    for name, nodes in (("split", [PARSE, _sorted(["value"], kind)]),
                        ("direct", [_sorted(["value"], kind).replace("input: t",
                                                                      "input: s")])):
        case = tmp_path / name
        case.mkdir()
        r, _ = _run(executor, case, pipeline(source("s", columns), *nodes), {"s.csv": VALUES})
        # by the number, not by the text ("a,10" < "b,9" < "d,100"), its null last
        expected = ["b", "a", "d", "e"] if name == "split" else ["b", "a", "c", "d", "e"]
        assert _ids(r, kind) == expected, name


def test_a_parquet_sink_sorts_by_the_field_not_the_mapped_column(executor, spark, tmp_path):
    """`mapping:` writes `amount` from `code`: the key `amount` is the record's field."""
    out = _sorted(["{ field: amount, order: desc }", "id"]).replace(
        "type: csv", "type: parquet").replace("out.csv", "out.parquet").replace(
        "      sort_order:", "      include_unmapped: false\n      mapping:\n        - id: id\n"
        "        - amount: code\n"
        "      sort_order:")
    r, _ = _run(executor, tmp_path, pipeline(source("s", COLUMNS), PARSE, out),
                {"s.csv": ROWS})
    rows = spark.read.parquet(str(tmp_path / "out" / "out.parquet")).collect()
    assert [(x.id, x.amount) for x in rows] == [
        ("b", 2), ("g", 7), ("a", 1), ("c", 3), ("f", 6), ("e", 5)]
    assert [e[:3] for e in dlq(r)] == FAILED


def test_sorted_after_a_correlation_key(executor, tmp_path):
    """d fails, so its group (region eu: a, d, f) goes to the DLQ whole; the others are
    sorted by their correlation key's snapshot `$ck.region` (a field of the records,
    written or not), desc, then by amount."""
    text = pipeline(source("s", COLUMNS, key="region"), PARSE, _sorted(
        ["{ field: $ck.region, order: desc }", "amount"]))
    r, _ = _run(executor, tmp_path, text, {"s.csv": ROWS})
    # us: c 5, g 7, e null (last); then "": b
    assert r.column("out.csv", "id") == ["c", "g", "e", "b"]
    assert sorted(e[1] for e in dlq(r)) == ["1", "4", "6"]


def test_sorted_after_an_aggregate(executor, tmp_path):
    """The groups (d in the DLQ): eu 5 + 5, "" 7, us 5 + 7 (e's null left out)."""
    text = pipeline(source("s", COLUMNS), PARSE, step(
        "aggregate", "g", "t", "emit region = region\nemit total = sum(amount)",
        "\n      group_by: [region]"), _sorted(["{ field: total, order: desc }"]).replace(
        "input: t", "input: g"))
    r, _ = _run(executor, tmp_path, text, {"s.csv": ROWS})
    assert [(x["region"], x["total"]) for x in r.rows("out.csv")] == [
        ("us", "12"), ("eu", "10"), ("", "7")]
    assert [e[:3] for e in dlq(r)] == FAILED
