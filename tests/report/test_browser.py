"""The report in a real browser: Playwright driving headless Chromium over file:// (no server, no network).

Browser: Playwright's own Chromium when it was downloaded (`playwright install chromium`), else Debian's `chromium`
package through `executable_path` (Playwright's download is not reachable everywhere). CI installs the package
(.ci/run); elsewhere the test skips and says how to get one.
"""
from __future__ import annotations

import html
import re
import shutil
from pathlib import Path

import pytest

SYSTEM_BROWSERS = ("chromium", "chromium-browser", "google-chrome")


def _browser_path(playwright) -> str | None:
    own = Path(playwright.chromium.executable_path)
    if own.exists():
        return None  # Playwright's own build: no executable_path needed
    for name in SYSTEM_BROWSERS:
        found = shutil.which(name)
        if found:
            return found
    pytest.skip("no Chromium for Playwright: install Debian's package (`apt-get install -y chromium`; .ci/run does "
                "it in CI) or run `playwright install chromium`")


@pytest.fixture(scope="module")
def browser():
    sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed (./run-tests installs it)")
    with sync_api.sync_playwright() as p:
        path = _browser_path(p)
        browser = p.chromium.launch(headless=True, executable_path=path, args=["--no-sandbox"])
        yield browser
        browser.close()


def test_report_in_headless_chromium(built_report, browser):
    out, settings, ids = built_report
    pid = ids["acl2020_tapas.pdf"]
    from pipeline.read import Reader

    with Reader(settings) as reader:
        pages = reader.sql("SELECT num_pages FROM metadata WHERE paper_id = ?", [pid]).rows[0][0]
        table = reader.sql("SELECT t.table_id::VARCHAR, t.table_content FROM tables t JOIN pages p ON "
                           "p.page_id = t.ref_page_id WHERE t.ref_paper_id = ? ORDER BY p.page_number, t.ordinal",
                           [pid]).rows[0]

    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    outside: list[str] = []
    context.route(re.compile(r"^(?!file:|data:|about:)"), lambda route: (outside.append(route.request.url), route.abort()))
    page = context.new_page()
    requests: list[str] = []
    errors: list[str] = []
    page.on("request", lambda r: requests.append(r.url))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))

    from playwright.sync_api import expect  # assertions that wait for the page's script (a loaded machine is slow)

    page.goto((out / "index.html").as_uri())
    expect(page.locator("table.index tr")).to_have_count(len(ids) + 1)
    page.click(f'a[href="papers/{pid}.html"]')
    page.wait_for_url(f"**/papers/{pid}.html")
    expect(page.locator(".page img")).to_have_count(pages)
    page.locator(".page img").first.evaluate("img => img.decode()")
    assert page.locator(".page img").first.evaluate("img => img.naturalWidth") > 500
    for view in ("sections", "chunks", "tables"):
        page.locator(f".box.v-{view}").first.wait_for(state="attached")

    box = page.locator(f'.box.v-tables[data-id="{table[0]}"]').first
    toggle = page.locator('input[data-view="tables"]')
    toggle.uncheck()
    assert not box.is_visible()
    toggle.check()
    assert box.is_visible()

    box.click()
    panel_table = page.locator("#panel table")
    panel_table.wait_for()
    # the cell's text content (<sup>/<sub> are rendered as elements, so their tags are not in the shown text)
    cells = [" ".join(html.unescape(re.sub(r"</?su[bp]>", "", c)).split())
             for c in re.findall(r"<t[dh][^>]*>(.*?)</t[dh]>", table[1], re.S) if c.strip()]
    shown = " ".join(panel_table.inner_text().split())
    assert cells and all(c in shown for c in cells[:5]), (cells[:5], shown[:300])
    if re.search(r"<su[bp]>", table[1]):  # superscripts/subscripts shown as such, not as tag text
        assert panel_table.locator("sup, sub").count() > 0 and "<sub>" not in shown and "<sup>" not in shown
    assert page.locator(".box.selected").count() >= 1

    assert errors == []
    assert outside == [] and all(u.startswith(("file:", "data:")) for u in requests), requests
    context.close()
