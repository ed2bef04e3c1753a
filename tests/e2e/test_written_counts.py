"""The run summary's written counts (codegen/written.py): observed on the writes when no
two records the sinks receive share a row identity, else counted by the `written` query.
Each pipeline runs twice, once on the local executor and once on an executor that cannot
observe (as a Thrift server): the counts must agree, and the query must run exactly when
the records may repeat an identity."""

from __future__ import annotations

from pathlib import Path

import pytest

from clinker_sql.runtime.executor import Executor

from .pipelines import run

HEAD = """
pipeline:
  name: written
error_handling:
  strategy: continue
  dlq:
    path: {dir}/out/dlq.csv
nodes:
  - type: source
    name: src
    config:
      name: src
      type: csv
      path: {dir}/src.csv
      schema:
        - { name: id, type: int }
        - { name: grp, type: string }
        - { name: n, type: int }
"""
SRC = """
id,grp,n
1,a,1
2,b,0
3,a,x
4,c,4
5,b,5
6,a,6
"""
OTHER = """
grp,label
a,Alpha
b,Beta
"""


def node(kind: str, name: str, input_: str, body: str) -> str:
    lines = "".join(f"        {line}\n" for line in body.strip("\n").splitlines())
    return f"""
  - type: {kind}
    name: {name}
    input: {input_}
    config:
{lines}"""


def sink(name: str, input_: str) -> str:
    return node("sink", name, input_, f"name: {name}\ntype: csv\npath: {{dir}}/out/{name}.csv")


def cxl(text: str) -> str:
    return "cxl: |\n" + "".join(f"  {line}\n" for line in text.strip("\n").splitlines())


ROUTE = node("route", "split", "src", "mode: {mode}\nconditions:\n  small: n < 5\n  "
             "odd: id % 2 == 1\ndefault: rest")
LABELS = """
  - type: source
    name: labels
    config:
      name: labels
      type: csv
      path: {dir}/labels.csv
      schema:
        - { name: grp, type: string }
        - { name: label, type: string }
"""
CASES = {
    # name: (nodes, distinct identities)
    "chain": (node("transform", "t", "src", cxl("filter n != 4\nemit r = 10 / n"))
              + sink("out", "t"), True),
    "exclusive_route": (ROUTE.replace("{mode}", "exclusive") + sink("small", "split.small")
                        + sink("odd", "split.odd") + sink("rest", "split.rest"), True),
    "inclusive_route": (ROUTE.replace("{mode}", "inclusive") + sink("small", "split.small")
                        + sink("odd", "split.odd") + sink("rest", "split.rest"), False),
    "merged_branches": (ROUTE.replace("{mode}", "exclusive")
                        + "\n  - type: merge\n    name: back\n    inputs: [split.small, "
                          "split.odd]\n" + sink("out", "back") + sink("rest", "split.rest"),
                        True),
    "emit_each": (node("transform", "t", "src", cxl("emit each k in [1, 2] {\n  emit k = k\n}"))
                  + sink("out", "t"), False),
    "aggregate_and_rows": (node("aggregate", "per_grp", "src", "group_by: [grp]\n"
                                + cxl("emit total = sum(n)")) + sink("totals", "per_grp")
                           + sink("rows", "src"), True),
    "two_aggregates": (node("aggregate", "per_grp", "src", "group_by: [grp]\n"
                            + cxl("emit total = sum(n)")) + sink("totals", "per_grp")
                       + node("aggregate", "all", "src", "group_by: []\n" + cxl("emit k = count(*)"))
                       + sink("overall", "all"), False),
    "combine": (LABELS + "\n  - type: combine\n    name: joined\n    input: { s: src, l: labels }"
                "\n    config:\n      where: s.grp == l.grp\n      match: first\n"
                "      on_miss: skip\n      propagate_ck: driver\n      cxl: |\n        emit id = s.id\n"
                "        emit label = l.label\n" + sink("out", "joined"), True),
}


class Unobserving(Executor):
    """The local session without `observe`, as a Thrift server runs."""

    def __init__(self, inner: Executor):
        self.inner = inner

    def execute(self, sql: str) -> None:
        self.inner.execute(sql)

    def query(self, sql: str):
        return self.inner.query(sql)


def _queried(result) -> bool:
    return any(t["name"] == "report.written" for t in result.timings)


@pytest.mark.parametrize("case", sorted(CASES))
def test_observed_counts_equal_the_query(executor, tmp_path: Path, case: str):
    nodes, distinct = CASES[case]
    files = {"src.csv": SRC, "labels.csv": OTHER}
    for side in ("observed", "queried"):
        (tmp_path / side).mkdir()
    observed = run(executor, tmp_path / "observed", HEAD + nodes, files).result
    queried = run(Unobserving(executor), tmp_path / "queried", HEAD + nodes, files).result
    assert _queried(queried)
    assert _queried(observed) is not distinct
    assert observed.counts == queried.counts
    assert observed.per_source == queried.per_source
    assert observed.written == queried.written
    assert observed.counts["written"] > 0
