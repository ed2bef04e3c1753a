"""Keys Clinker parses and then ignores (issue 43, item 7): a source's `transport: file`
(bare or `{kind: file}`; Clinker's SourceTransport defaults to it) and a column's
`long_unique` storage hint (schema.rs: "purely advisory") are accepted and change no row;
the rest transport is refused."""

from __future__ import annotations

from .pipelines import pipeline, run, run_fails, sink, source

FILES = {"src.csv": "id,qty\na,1\nb,x\nc,3\n"}
BASE = pipeline(source("src", "id, qty: int"), sink("out", "src"))


def _expected(r) -> None:
    assert r.rows("out.csv") == [{"id": "a", "qty": "1"}, {"id": "c", "qty": "3"}]
    assert [e["id"] for e in r.rows("dlq.csv")] == ["b"]


def test_transport_file_reads_as_without_it(executor, tmp_path):
    for transport in ("file", "{ kind: file }"):
        text = BASE.replace("type: csv\n", f"type: csv\n      transport: {transport}\n", 1)
        _expected(run(executor, tmp_path, text, FILES))


def test_long_unique_reads_as_without_it(executor, tmp_path):
    for flag in ("true", "false"):
        text = BASE.replace("{ name: id, type: string }",
                            f"{{ name: id, type: string, long_unique: {flag} }}")
        _expected(run(executor, tmp_path, text, FILES))


def test_rest_transport_is_refused_and_an_unknown_one_is_e000(executor, tmp_path):
    text = BASE.replace("type: csv\n", "type: csv\n      transport: { kind: rest }\n", 1)
    assert run_fails(executor, tmp_path, text, FILES).diagnostics[0].code == "CS001"
    text = BASE.replace("type: csv\n", "type: csv\n      transport: ftp\n", 1)
    assert run_fails(executor, tmp_path, text, FILES).diagnostics[0].code == "E000"
