"""docs: a static HTML page, everything escaped, nothing loaded from the network."""

from __future__ import annotations

import re

import pytest

from .conftest import EXAMPLES, RETRACTING, write_pipeline


@pytest.mark.parametrize("pipeline", EXAMPLES, ids=lambda p: p.parent.name)
def test_page_for_every_example(run_cli, tmp_path, pipeline):
    r = run_cli("docs", pipeline, "--out", tmp_path)
    assert r.exit_code == 0, r.output
    page = next(tmp_path.glob("*/docs.html")).read_text(encoding="utf-8")
    assert page.startswith("<!DOCTYPE html>")
    assert "CREATE OR REPLACE TEMPORARY VIEW" in page
    assert page.count('class="node k-') >= 3 and 'id="panel-dlq"' in page
    # offline: no script, style or image from anywhere
    assert not re.search(r"""(src|href)\s*=\s*["']?(https?:)?//""", page)
    assert "Content-Security-Policy" in page


def test_everything_is_html_escaped(run_cli, tmp_path):
    hostile = "</pre><script>alert(1)</script>"
    text = RETRACTING.replace("emit n = count(*)",
                              f'emit n = count(*)\n      emit note = "{hostile}"')
    text = text.replace("  name: windowed\n", "  name: windowed\n  description: '<img src=x "
                        "onerror=alert(2)>'\n")
    pipeline = write_pipeline(tmp_path, text)
    out = tmp_path / "page.html"
    r = run_cli("docs", pipeline, "-o", out)
    assert r.exit_code == 0, r.output
    page = out.read_text(encoding="utf-8")
    assert "<script>alert" not in page and "<img src=x" not in page
    assert "&lt;/pre&gt;&lt;script&gt;alert(1)&lt;/script&gt;" in page
    assert page.count("<script>") == 1  # the page's own


def test_unwritable_output_is_a_coded_diagnostic(run_cli, tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    r = run_cli("docs", EXAMPLES[0], "-o", blocker / "sub" / "docs.html")
    assert r.exit_code != 0 and "error[CS103]" in r.stderr and "Traceback" not in r.output
