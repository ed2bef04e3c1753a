"""Property test on Spark: a CSV column with any name and any values, and a CXL string
literal with any text (quotes, backslashes, `$`, `${x}`, backticks, line breaks, non-ASCII),
pass through a real run unchanged: the output file holds exactly the input column, the
literal, and a CXL copy of an identifier-named column.

Few examples (each one is a pipeline run); tests/cxl/test_roundtrip.py checks many
more strings and names through the compiler without Spark.
"""

from __future__ import annotations

import csv
import io

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.cxl.test_roundtrip import COLUMN, IDENT, TEXT, pipeline_yaml
from tests.e2e.compare import read_csv
from tests.e2e.pipelines import project



def csv_text(header: list[str], rows: list[list[str]]) -> str:
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    writer.writerow(header)
    writer.writerows(rows)
    return buf.getvalue()


def run_case(executor, work, ident: str, column: str, literal: str,
             values: list[tuple[str, str]]) -> tuple[list[str], list[list[str]]]:
    (work / "out").mkdir(parents=True)
    (work / "in.csv").write_text(csv_text([ident, column], [list(v) for v in values]),
                                 encoding="utf-8")
    yaml = pipeline_yaml(ident, column, literal).replace("path: in.csv", f"path: {work}/in.csv")
    yaml = yaml.replace("path: out.csv", f"path: {work}/out/out.csv")
    (work / "pipeline.yaml").write_text(yaml, encoding="utf-8")
    result = project(work / "pipeline.yaml", work / "target").run(executor=executor, base=work)
    assert result.exit_code == 0
    return read_csv(work / "out" / "out.csv")


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(ident=IDENT, column=COLUMN, literal=TEXT,
       values=st.lists(st.tuples(TEXT, TEXT), min_size=1, max_size=3))
def test_names_literals_and_values_reach_spark_intact(executor, tmp_path_factory, ident, column,
                                                      literal, values):
    if column in (ident, "lit", "copy") or ident in ("lit", "copy") or "\r" in column:
        return  # a carriage return in a header name is refused (CS001, test_runs.py)
    work = tmp_path_factory.mktemp("roundtrip")
    header, rows = run_case(executor, work, ident, column, literal, values)
    assert header == [ident, column, "lit", "copy"]
    assert rows == [[a, b, literal, a] for a, b in values]
