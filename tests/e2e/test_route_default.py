"""A route whose `default:` names one of its conditions (Clinker accepts it; spec §2.4,
correlated_dlq.rs `inclusive_route_ck_group_dlq_once`): that branch takes the rows its
condition matches and the rows no condition matches, each once."""

from __future__ import annotations

import pytest

from .pipelines import dlq, pipeline, run, sink, source

ROWS = "id,n\na,1\nb,5\nc,9\n"


def _route(mode: str) -> str:
    return f"""
  - type: route
    name: split
    input: s
    config:
      mode: {mode}
      conditions:
        small: "n.to_int() < 3"
        big: "n.to_int() > 4"
      default: small
"""


@pytest.mark.parametrize("mode,small,big", [
    ("exclusive", ["a"], ["b", "c"]),
    ("inclusive", ["a"], ["b", "c"])])
def test_the_default_may_name_a_condition(executor, tmp_path, mode, small, big):
    text = pipeline(source("s", "id, n"), _route(mode), sink("small", "split.small"),
                    sink("big", "split.big"), name="route_default")
    r = run(executor, tmp_path, text, {"s.csv": ROWS})
    assert r.column("small.csv", "id") == small and r.column("big.csv", "id") == big
    assert dlq(r) == []


def test_unmatched_rows_join_the_named_branch_once(executor, tmp_path):
    route = _route("inclusive").replace('big: "n.to_int() > 4"', 'big: "n.to_int() > 8"')
    text = pipeline(source("s", "id, n"), route, sink("small", "split.small"),
                    sink("big", "split.big"), name="route_default")
    r = run(executor, tmp_path, text, {"s.csv": ROWS})
    assert r.column("small.csv", "id") == ["a", "b"] and r.column("big.csv", "id") == ["c"]
