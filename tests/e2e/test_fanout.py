"""`emit each` end to end (cxl-spec §2.1, Clinker's eval/compiled.rs run_fan_out): the
records a fan-out produces, rows that produce none, `outer`, nesting, `max_expansion`
and where its check falls among body failures, hidden columns on every produced row,
downstream failures of one fanned-out row, and correlation groups.
"""

from __future__ import annotations

from .pipelines import dlq as entries
from .pipelines import pipeline, run, sink, source, transform

HEAD = pipeline(name="fan")


def rows(r, name: str, *columns: str) -> list[tuple[str, ...]]:
    return [tuple(row[c] for c in columns) for row in r.rows(name)]


def dlq(r) -> list[tuple[str, ...]]:
    """(row, stage, category, field, detail) of each entry, sorted."""
    return sorted(entries(r, ("_cxl_dlq_source_row", "_cxl_dlq_stage",
                              "_cxl_dlq_error_category", "_cxl_dlq_triggering_field",
                              "_cxl_dlq_error_detail")))


ITEMS = """
id,tags,n
1,a;b,1
2,none,2
3,;,3
4,c,0
5,d,5
"""
SPLIT = 'let xs = if tags == "none" then null else tags.split(";").filter(it => it != "")'


def test_records_fallback_outer_and_lost_emits(executor, tmp_path):
    plain = f"""
{SPLIT}
emit before = "b" + id.to_string()
emit each t in xs {{
  let u = t.upper()
  emit tag = u
  emit ratio = 10 / n
}}
emit after = "after"
"""
    outer = f"""
{SPLIT}
emit each it in xs outer {{
  emit tag = it ?? "none"
  emit each_pos = id * 10
}}
"""
    yaml = HEAD + source("items", "id: int, tags: string, n: int") + \
        transform("plain", "items", plain) + transform("outer", "items", outer) + \
        sink("plain_out", "plain") + sink("outer_out", "outer")
    r = run(executor, tmp_path, yaml, {"items.csv": ITEMS})
    assert r.result.exit_code == 2
    # the block's records replace the row; emits after the block are lost then;
    # a null or empty array produces no record: the row is written as itself
    assert rows(r, "plain_out.csv", "id", "before", "tag", "ratio", "after") == [
        ("1", "b1", "A", "10", ""), ("1", "b1", "B", "10", ""),
        ("2", "b2", "", "", "after"), ("3", "b3", "", "", "after"),
        ("5", "b5", "D", "2", "")]
    assert list(r.rows("plain_out.csv")[0]) == ["id", "tags", "n", "before", "tag", "ratio",
                                                "after"]
    # outer runs the body once with the binding null on a null or empty array
    assert rows(r, "outer_out.csv", "id", "tag", "each_pos") == [
        ("1", "a", "10"), ("1", "b", "10"), ("2", "none", "20"), ("3", "none", "30"),
        ("4", "c", "40"), ("5", "d", "50")]
    # the failing row goes to the DLQ once, as itself (its payload is the input record)
    entries = r.rows("dlq.csv")
    assert dlq(r) == [("4", "transform:plain", "type_coercion_failure", "ratio",
                       "row 4: field 'ratio': division by zero")]
    assert (entries[0]["id"], entries[0]["tags"]) == ("4", "c")
    assert r.result.counts["ok"] == 5


def test_nesting_and_max_expansion_order(executor, tmp_path):
    cxl = """
let xs = tags.split(";")
emit each t in xs {
  emit each k in [1, 2] {
    emit pair = t + k.to_string()
    emit bad = if t == "z" then "x".to_int() else 0
  }
}
"""
    data = """
    id,tags
    1,a;b
    2,a;z;q
    3,a;b;z
    4,c
    5,a;b;c;d
    """
    yaml = HEAD + source("items", "id: int, tags: string") + \
        transform("nest", "items", cxl, "\n      max_expansion: 3") + sink("out", "nest")
    r = run(executor, tmp_path, yaml, {"items.csv": data})
    assert rows(r, "out.csv", "id", "pair", "bad") == [("4", "c1", "0"), ("4", "c2", "0")]
    limit = "emit_each fan-out exceeded max_expansion (limit 3)"
    assert dlq(r) == [
        # 4 records: the 4th element check fails
        ("1", "transform:nest", "expansion_limit_exceeded", "", f"row 1: {limit}"),
        # z's body fails at the 3rd record, before the limit is reached
        ("2", "transform:nest", "type_coercion_failure", "bad",
         "row 2: field 'bad': conversion failed: cannot convert 'x' to Int"),
        # the 4th record (b2) is checked before z's body runs
        ("3", "transform:nest", "expansion_limit_exceeded", "", f"row 3: {limit}"),
        ("5", "transform:nest", "expansion_limit_exceeded", "", f"row 5: {limit}")]


def test_hidden_columns_downstream_failures_and_order(executor, tmp_path):
    fan = """
emit each t in tags.split(";") {
  emit tag = t
}
"""
    check = 'emit size = if tag == "bad" then tag.to_int() else 1'
    summary = "emit tags_seen = collect(tag)\nemit n = count(*)"
    window = "emit rank = $window.row_number()\nemit prev = $window.lag(1).tag"
    yaml = HEAD + source("items", "id: string, tags: string") + \
        transform("fan", "items", fan) + transform("check", "fan", check) + \
        sink("checked", "check") + f"""
  - type: aggregate
    name: summary
    input: fan
    config:
      group_by: [id]
      cxl: |
        {summary.splitlines()[0]}
        {summary.splitlines()[1]}
""" + sink("summaries", "summary") + transform(
        "ranked", "fan", window,
        "\n      analytic_window:\n        group_by: [id]") + sink("ranks", "ranked")
    data = """
    id,tags
    x,p;q;r;s;t;u;v;w
    y,bad;ok
    z,one
    """
    r = run(executor, tmp_path, yaml, {"items.csv": data})
    # the fanned-out rows keep their order through every node
    letters = list("pqrstuvw")
    assert rows(r, "checked.csv", "id", "tag") == [("x", c) for c in letters] + [
        ("y", "ok"), ("z", "one")]
    assert rows(r, "summaries.csv", "id", "tags_seen", "n") == [
        ("x", ";".join(letters), "8"), ("y", "bad;ok", "2"), ("z", "one", "1")]
    assert rows(r, "ranks.csv", "tag", "rank", "prev") == [
        (c, str(i + 1), letters[i - 1] if i else "") for i, c in enumerate(letters)] + [
        ("bad", "1", ""), ("ok", "2", "bad"), ("one", "1", "")]
    # a failure of one fanned-out row downstream: that row (as it reached the node) goes to
    # the DLQ under its source row; its siblings continue
    entries = r.rows("dlq.csv")
    assert len(entries) == 1
    e = entries[0]
    assert (e["_cxl_dlq_source_row"], e["_cxl_dlq_source_name"], e["_cxl_dlq_stage"],
            e["tag"], e["tags"]) == ("2", "items", "transform:check", "bad", "bad;ok")


def test_correlation_groups_take_every_fanned_out_row(executor, tmp_path):
    fan = """
emit each t in tags.split(";") {
  emit tag = t
}
"""
    check = 'emit size = if tag == "bad" then tag.to_int() else 1'
    data = """
    id,grp,tags
    1,g1,a;bad
    2,g1,c;d
    3,g2,e;f
    4,,bad;h
    5,,i
    """
    yaml = HEAD + source("items", "id: string, grp: string, tags: string", key="grp") + \
        transform("fan", "items", fan) + transform("check", "fan", check) + \
        sink("out", "check", "\n      include_correlation_keys: true")
    r = run(executor, tmp_path, yaml, {"items.csv": data})
    # g1 is dirty (row 1): rows 1 and 2 are not written, with one collateral for row 2
    # although two of its fanned-out rows reached the sink; a null key is a group of one
    assert rows(r, "out.csv", "id", "tag", "$ck.grp") == [
        ("3", "e", "g2"), ("3", "f", "g2"), ("5", "i", "")]
    assert sorted((e["_cxl_dlq_source_row"], e["_cxl_dlq_error_category"],
                   e["_cxl_dlq_trigger"]) for e in r.rows("dlq.csv")) == [
        ("1", "type_coercion_failure", "true"), ("2", "correlated", "false"),
        ("4", "type_coercion_failure", "true")]


def test_merge_of_fanned_and_plain_rows(executor, tmp_path):
    fan = "emit each t in tags.split(\";\") {\n  emit tag = t\n}"
    plain = "emit tag = tags"
    yaml = HEAD + source("items", "id: string, tags: string") + \
        source("more", "id: string, tags: string") + \
        transform("fan", "items", fan) + transform("plain", "more", plain) + """
  - type: merge
    name: both
    inputs: [fan, plain]
""" + sink("out", "both")
    r = run(executor, tmp_path, yaml, {"items.csv": "id,tags\n1,a;b\n2,c\n",
                                       "more.csv": "id,tags\n3,x;y\n"})
    assert rows(r, "out.csv", "id", "tag") == [("1", "a"), ("1", "b"), ("2", "c"),
                                              ("3", "x;y")]


def test_fanned_out_records_drive_a_combine_matching_all(executor, tmp_path):
    combine = """
  - type: combine
    name: labelled
    input:
      s: split
      n: names
    config:
      where: "s.tag == n.tag"
      match: all
      on_miss: skip
      propagate_ck: driver
      cxl: |
        emit id = s.id
        emit tag = s.tag
        emit label = n.label
"""
    yaml = HEAD + source("items", "id: int, tags: string") + \
        transform("split", "items", 'emit each t in tags.split(";") {\n  emit tag = t\n}') + \
        source("names", "tag, label") + combine + sink("out", "labelled")
    r = run(executor, tmp_path, yaml, {"items.csv": "id,tags\n1,a;b\n2,c\n",
                                       "names.csv": "tag,label\na,A1\na,A2\nb,B\n"})
    assert r.result.exit_code == 0
    assert sorted(rows(r, "out.csv", "id", "tag", "label")) == \
        [("1", "a", "A1"), ("1", "a", "A2"), ("1", "b", "B")]
