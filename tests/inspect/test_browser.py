"""The docs page in a real headless browser (Debian's chromium through Playwright):
it loads without console errors and every node is clickable and shows its SQL.

Skipped when chromium or Playwright is missing, unless CLINKER_SQL_REQUIRE_BROWSER=1
(set by .ci/run), which turns the skip into a failure."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from clinker_sql.inspect.docs import write_page
from clinker_sql.project import Project

from .conftest import EXAMPLES, RETRACTING, write_pipeline

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
REQUIRED = os.environ.get("CLINKER_SQL_REQUIRE_BROWSER") == "1"


def _missing() -> str | None:
    if not Path(CHROMIUM).exists():
        return f"{CHROMIUM} is missing (apt-get install chromium)"
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "the playwright package is missing (pip install '.[dev]')"
    return None


@pytest.fixture(scope="module")
def browser():
    reason = _missing()
    if reason:
        if REQUIRED:
            pytest.fail(f"CLINKER_SQL_REQUIRE_BROWSER=1 but {reason}")
        pytest.skip(reason)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        b.close()


def _pages(tmp_path: Path) -> list[Path]:
    out = []
    for pipeline in EXAMPLES + [write_pipeline(tmp_path, RETRACTING)]:
        project = Project(pipeline)
        model = project.load()
        compiled = project.compile(model)
        out.append(write_page(model, compiled, tmp_path / f"{compiled.pipeline}.html"))
    return out


def test_every_node_is_clickable_and_shows_its_sql(browser, tmp_path):
    for path in _pages(tmp_path):
        page = browser.new_page(viewport={"width": 1280, "height": 900})
        errors: list[str] = []
        requests: list[str] = []
        page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.on("request", lambda r: requests.append(r.url))
        page.goto(path.as_uri())
        assert page.locator("#panel-overview").is_visible()
        nodes = page.locator("#dag g.node")
        assert nodes.count() >= 3
        for i in range(nodes.count()):
            node = nodes.nth(i)
            node.click()
            target = node.get_attribute("data-panel")
            visible = page.locator("#panels .panel:not([hidden])")
            assert visible.count() == 1, path.name
            assert visible.get_attribute("id") == f"panel-{target}"
            assert "selected" in (node.get_attribute("class") or "")
            if target.startswith("node-"):
                sql = visible.locator("details[open] pre.sql")
                assert sql.count() >= 1, f"{path.name}: {target} shows no SQL"
                assert sql.first.is_visible()
                assert "CREATE OR REPLACE TEMPORARY VIEW" in sql.first.inner_text() or \
                    "INSERT OVERWRITE DIRECTORY" in sql.first.inner_text()
        # links inside panels navigate too, keyboard works
        page.locator("#panel-dlq a.goto").first.click() if page.locator(
            "#panel-dlq").is_visible() else None
        nodes.first.focus()
        page.keyboard.press("Enter")
        assert page.locator("#panel-node-0").is_visible()
        assert errors == [], f"{path.name}: console errors {errors}"
        assert all(u.startswith(("file:", "data:")) for u in requests), requests
        page.close()
