"""XML sources and sinks (codegen/xml_source.py, codegen/xml_sink.py): records read at
record_path with attributes, nested and repeated elements, typed as CSV cells are (faults
to the DLQ), and written back byte for byte as Clinker's writer writes them."""

from __future__ import annotations

import pytest

from clinker_sql.diagnostics import DiagnosticError

from .pipelines import dlq, project, run, run_fails, write_case

_SOURCE = """
pipeline:
  name: t
error_handling:
  strategy: continue
  dlq:
    path: {{dir}}/out/dlq.csv
nodes:
  - type: source
    name: orders
    config:
      name: orders
      type: xml
      path: {{dir}}/orders.xml
      options:
        record_path: {path}
      schema:
{schema}
  - type: sink
    name: out
    input: orders
    config:
      name: out
      type: {sink}
      path: {{dir}}/out/out.{sink}
{sink_options}
"""


def _text(schema: list[str], sink: str = "xml", path: str = "Orders/Order",
          sink_options: str = "") -> str:
    return _SOURCE.format(path=path, sink=sink, sink_options=sink_options, schema="\n".join(
        f"        - {c}" for c in schema))


def test_a_document_read_and_written_back_is_unchanged(executor, tmp_path):
    """Attributes, a nested element with its own attribute and a repeated element
    (`multiple: true`) round-trip through Clinker's reader and writer unchanged."""
    doc = ('<Orders><Order id="1" status="open"><customer>Ana &amp; Co</customer>'
           '<address type="home"><city>Oslo</city></address><tags>a</tags><tags>b</tags>'
           '</Order><Order id="2"><customer>&lt;Bo&gt;</customer><tags>c</tags></Order>'
           '</Orders>')
    text = _text(['{ name: "@id", type: int }', '{ name: "@status", type: { nullable: string } }',
                  '{ name: customer, type: string }',
                  '{ name: "address.@type", type: { nullable: string } }',
                  '{ name: address.city, type: { nullable: string } }',
                  '{ name: tags, type: string, multiple: true }'],
                 sink_options="      options: { root_element: Orders, record_element: Order }")
    r = run(executor, tmp_path, text, {"orders.xml": doc})
    assert (r.dir / "out" / "out.xml").read_text(encoding="utf-8") == doc


def test_a_string_column_refuses_text_the_reader_reads_as_a_number(executor, tmp_path):
    """Clinker's XML reader infers `1001` as an int and `2.5` as a float, which a `string`
    column refuses ("native int does not match declared string"): DLQ entries; `B-1`
    stays text, and a number too large for an i64 stays text."""
    doc = ('<Orders><Order><sku>1001</sku></Order><Order><sku>B-1</sku></Order>'
           '<Order><sku>2.5</sku></Order><Order><sku>99999999999999999999</sku></Order>'
           '<Order><sku>true</sku></Order></Orders>')
    r = run(executor, tmp_path, _text(["{ name: sku, type: string }"], sink="csv"),
            {"orders.xml": doc})
    assert r.column("out.csv", "sku") == ["B-1", "99999999999999999999"]
    assert [e[1] for e in dlq(r)] == ["1", "3", "5"]


def test_an_undeclared_repeat_fails_the_run(executor, tmp_path):
    doc = "<Orders><Order><sku>a</sku><sku>b</sku></Order></Orders>"
    err = run_fails(executor, tmp_path, _text(["{ name: sku, type: string }"], sink="csv"),
                    {"orders.xml": doc})
    assert err.diagnostics[0].code == "CS113"


@pytest.mark.parametrize("path", ["/Orders/Order", "Orders//Order", "Orders/", "Orders/*"])
def test_a_malformed_record_path_is_E363(tmp_path, path):
    pipeline = write_case(tmp_path, _text(["{ name: sku, type: string }"], path=f"'{path}'"),
                          {"orders.xml": "<Orders/>"})
    with pytest.raises(DiagnosticError) as info:
        project(pipeline, tmp_path / "target").compile()
    assert info.value.diagnostics[0].code == "E363"
