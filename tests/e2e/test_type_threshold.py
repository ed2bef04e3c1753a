"""error_handling.type_error_threshold (spec §3.3; Clinker's source_type_errors.rs):
rejected source rows over the rows read so far, checked at each rejection; `>` trips
(E368, exit 3, nothing written); 0.0 stops on the first rejection, 1.0 never."""

from __future__ import annotations

import pytest

from clinker_sql.diagnostics import EXIT_EVAL

from .pipelines import dlq, pipeline, run, run_fails, sink, source


def _text(threshold: float, sources: tuple[str, ...] = ("s",)) -> str:
    nodes = [source(s, "id, quantity: int") for s in sources]
    if len(sources) > 1:
        nodes.append(f"\n  - type: merge\n    name: m\n    inputs: [{', '.join(sources)}]\n")
    nodes.append(sink("out", "m" if len(sources) > 1 else sources[0]))
    return pipeline(*nodes, name="threshold", extra=f"type_error_threshold: {threshold}")


@pytest.mark.parametrize("threshold,rows,written", [
    (0.5, "good,1\nbad,nope\n", ["good"]),              # 1/2 is not above 0.5
    (0.5, "good-a,1\ngood-b,2\nbad,nope\n", ["good-a", "good-b"]),
    (1.0, "bad-a,x\nbad-b,y\n", []),                    # 1.0 never trips
    # checked at each rejection: 1/1 at row 1 is above 0.5, though 1/4 at the end is not
    (0.5, "bad,nope\ngood-a,1\ngood-b,2\ngood-c,3\n", None),
    (0.5, "good,1\nbad-a,nope\nbad-b,still-nope\n", None),  # 2/3
    (0.0, "good,1\nbad,nope\n", None)])                 # the first rejection
def test_the_share_of_rejected_rows_read_so_far(executor, tmp_path, threshold, rows, written):
    files = {"s.csv": "id,quantity\n" + rows}
    if written is None:
        err = run_fails(executor, tmp_path, _text(threshold), files)
        assert err.diagnostics[0].code == "E368" and err.exit_code == EXIT_EVAL
        assert "source records)" in err.diagnostics[0].message
        assert not (tmp_path / "out" / "out.csv").exists()
        return
    r = run(executor, tmp_path, _text(threshold), files)
    assert r.column("out.csv", "id") == written and r.result.exit_code == 2


def test_a_later_source_counts_the_rows_of_the_sources_read_before_it(executor, tmp_path):
    """Sources are read one after the other: b's rejection at its row 1 is 1 of 4 rows."""
    files = {"a.csv": "id,quantity\na1,1\na2,2\na3,3\n", "b.csv": "id,quantity\nb1,x\n"}
    r = run(executor, tmp_path, _text(0.3, ("a", "b")), files)
    assert sorted(r.column("out.csv", "id")) == ["a1", "a2", "a3"]
    assert [e[:2] for e in dlq(r)] == [("b", "1")]
    err = run_fails(executor, tmp_path, _text(0.2, ("a", "b")), files)
    assert err.diagnostics[0].code == "E368" and "(1/4 source records)" in \
        err.diagnostics[0].message
