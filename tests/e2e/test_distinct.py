"""`distinct` / `distinct by` end to end (cxl-spec §2, Clinker's eval/compiled.rs
build_distinct_key and clinker-record group_key.rs value_to_group_key): the first row of
each key in arrival order continues; rows dropped or failing before the statement do not
take part; a winner that fails later still holds its key; keys widen Int to f64, fold -0.0
into 0.0, compare nulls equal, and fail on NaN, arrays and maps; a bare `distinct` keys on
every field of the input record, including the file it came from.
"""

from __future__ import annotations

from .test_fanout import HEAD, dlq, rows, sink, source, transform
from .pipelines import run


def test_first_row_per_key_and_statement_order(executor, tmp_path):
    cxl = """
filter id != 9
emit chk = 100 / n
let key2 = if key == "" then null else key
distinct by key2
emit after = 10 / m
"""
    data = """
    id,key,n,m
    1,k1,1,1
    2,k1,1,1
    3,k2,0,1
    4,k2,1,1
    5,k3,1,0
    6,k3,1,1
    7,,1,1
    8,,1,1
    9,k4,1,1
    10,k4,1,1
    """
    yaml = HEAD + source("items", "id: int, key: string, n: int, m: int") + \
        transform("dedup", "items", cxl) + sink("out", "dedup")
    r = run(executor, tmp_path, yaml, {"items.csv": data})
    assert rows(r, "out.csv", "id", "key", "chk", "after") == [
        ("1", "k1", "100", "10"), ("4", "k2", "100", "10"), ("7", "", "100", "10"),
        ("10", "k4", "100", "10")]
    assert dlq(r) == [
        ("3", "transform:dedup", "type_coercion_failure", "chk",
         "row 3: field 'chk': division by zero"),
        ("5", "transform:dedup", "type_coercion_failure", "after",
         "row 5: field 'after': division by zero")]


def test_key_normalization_and_unhashable_keys(executor, tmp_path):
    by_f = """
let f = match kind { "nan" => "NaN".to_float(), "neg" => -0.0, "zero" => 0.0, _ => id * 1.5 }
distinct by f
"""
    by_arr = 'let arr = if kind == "arr" then [1] else null\ndistinct by arr'
    data = """
    id,big,kind
    1,9007199254740992,zero
    2,9007199254740993,neg
    3,1,nan
    4,2,arr
    5,3,one
    """
    yaml = HEAD + source("items", "id: int, big: int, kind: string") + \
        transform("by_big", "items", "distinct by big") + sink("big", "by_big") + \
        transform("by_f", "items", by_f) + sink("f", "by_f") + \
        transform("by_arr", "items", by_arr) + sink("arr", "by_arr") + \
        transform("by_nowhere", "items", "distinct by nowhere") + sink("nowhere", "by_nowhere")
    r = run(executor, tmp_path, yaml, {"items.csv": data})
    # 2^53 + 1 widens to the same f64 as 2^53, so row 2 duplicates row 1
    assert rows(r, "big.csv", "id") == [("1",), ("3",), ("4",), ("5",)]
    # -0.0 is 0.0; NaN fails
    assert rows(r, "f.csv", "id") == [("1",), ("4",), ("5",)]
    # nulls are one key; an array fails
    assert rows(r, "arr.csv", "id") == [("1",)]
    # a name that is no let and no field reads null: one row is kept
    assert rows(r, "nowhere.csv", "id") == [("1",)]
    hashable = "type mismatch: expected hashable value, got"
    assert dlq(r) == [
        ("3", "transform:by_f", "type_coercion_failure", "", f"row 3: {hashable} NaN"),
        ("4", "transform:by_arr", "type_coercion_failure", "", f"row 4: {hashable} array")]


def test_bare_distinct_keys_on_the_whole_input_record(executor, tmp_path):
    yaml = HEAD + """
  - type: source
    name: items
    config:
      name: items
      type: csv
      glob: "{dir}/data/*.csv"
      schema:
        - { name: id, type: string }
        - { name: v, type: string }
""" + transform("dedup", "items", 'emit v = "emitted"\ndistinct') + sink("out", "dedup")
    r = run(executor, tmp_path, yaml, {"data/a.csv": "id,v\n1,x\n1,x\n2,x\n",
                                       "data/b.csv": "id,v\n1,x\n"})
    # the emit does not change the key (input fields only); the same values from
    # another file are another key ($source.file is a field of Clinker's record)
    assert rows(r, "out.csv", "id", "v") == [("1", "emitted"), ("2", "emitted"),
                                            ("1", "emitted")]


def test_filter_and_distinct_inside_emit_each_fail_when_reached(executor, tmp_path):
    cxl = """
emit each t in tags.split(";").filter(it => it != "") {
  emit tag = t
  distinct
}
"""
    yaml = HEAD + source("items", "id: string, tags: string") + \
        transform("fan", "items", cxl) + sink("out", "fan")
    r = run(executor, tmp_path, yaml, {"items.csv": "id,tags\n1,a;b\n2,;\n"})
    assert rows(r, "out.csv", "id", "tag") == [("2", "")]
    assert dlq(r) == [("1", "transform:fan", "type_coercion_failure", "",
                       "row 1: type mismatch: expected let / emit / trace / nested emit each "
                       "inside emit each body, got filter / distinct")]


def test_distinct_then_emit_each(executor, tmp_path):
    cxl = """
distinct by id
emit each t in tags.split(";") {
  emit tag = t
}
"""
    yaml = HEAD + source("items", "id: string, tags: string") + \
        transform("fan", "items", cxl) + sink("out", "fan")
    r = run(executor, tmp_path, yaml, {"items.csv": "id,tags\n1,a;b\n1,c\n2,d\n"})
    assert rows(r, "out.csv", "id", "tag") == [("1", "a"), ("1", "b"), ("2", "d")]
