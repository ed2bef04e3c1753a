"""A JSON source's record_path (codegen/json_record_path.py): the compiler finds the files
Clinker's reader refuses at the path, with the reader's messages (body_stream.rs
`navigate_to_path`, `find_key_in_object`, `at_array`), and reads the records of the others."""

from __future__ import annotations

import pytest

from clinker_sql.codegen import json_record_path as rp


@pytest.mark.parametrize("text, keys, message", [
    ('{"a": []}', ["nope"], "record_path: key 'nope' not found in object"),
    ("", ["data"], "record_path: unexpected end of input seeking segment 'data'"),
    ("  \n", ["data"], "record_path: unexpected end of input seeking segment 'data'"),
    ('[{"x": 1}]', ["data"],
     "record_path: expected an object at segment 'data' (depth 0), found '[' (0x5b)"),
    ('{"data": 5}', ["data", "rows"],
     "record_path: expected an object at segment 'rows' (depth 1), found '5' (0x35)"),
    ('{"data": {"x": 1}}', ["data"],
     "expected '[' to start JSON array body, found '{' (0x7b)"),
    ('{"data": null}', ["data"], "expected '[' to start JSON array body, found 'n' (0x6e)"),
    ('{"data": "s"}', ["data"], "expected '[' to start JSON array body, found '\"' (0x22)"),
])
def test_a_file_without_an_array_at_the_path_has_clinkers_message(tmp_path, text, keys,
                                                                   message):
    f = tmp_path / "in.json"
    f.write_text(text)
    with pytest.raises(rp.Fault) as info:
        rp.navigate(f, keys)
    assert str(info.value) == message


def test_the_records_are_the_array_at_the_path_the_first_repeated_key_wins(tmp_path):
    f = tmp_path / "in.json"
    f.write_bytes(b'\xef\xbb\xbf{"d": {"r": [{"x": 1}, {"x": 2}]}, "d": {"r": []}}')
    assert rp.navigate(f, ["d", "r"]) == [{"x": 1}, {"x": 2}]


def test_the_documents_schema_nests_the_records_under_the_path():
    from sqlglot import exp
    record = exp.DataType.build("STRUCT<`id`: STRING>", dialect="spark")
    assert rp.document_schema(["data", "rows"], record) == \
        "`data` STRUCT<`rows`: ARRAY<STRUCT<`id`: STRING>>>"
