"""A PDF's text can hold anything: the rows of its `inspect` page travel as a JSON island that no text may end or
bend (issue 28: a page with `<!--<script` left the island open and swallowed inspect.js)."""
from __future__ import annotations

import json
import re
from html.parser import HTMLParser

import pymupdf
from typer.testing import CliRunner

HOSTILE = ["<!--<script>alert(1)</script>", "a </script><b>bold</b> & more", "line\u2028sep\u2029para", "x -->"]


class _Scripts(HTMLParser):
    """The script elements of a page as an HTML parser sees them: (attributes, text)."""

    def __init__(self):
        super().__init__()
        self.scripts: list[tuple[dict, str]] = []
        self._open: dict | None = None

    def handle_starttag(self, tag, attrs):
        if tag == "script":
            self._open = dict(attrs)
            self.scripts.append((self._open, ""))

    def handle_data(self, data):
        if self._open is not None:
            attrs, text = self.scripts[-1]
            self.scripts[-1] = (attrs, text + data)

    def handle_endtag(self, tag):
        if tag == "script":
            self._open = None


def test_hostile_page_text_stays_inside_the_json_island(tmp_path):
    pdf = tmp_path / "pdfs" / "hostile.pdf"
    pdf.parent.mkdir()
    doc = pymupdf.open()
    page = doc.new_page()
    page.insert_text((72, 72), "A Paper Whose Text Is Hostile", fontsize=16)
    for i, line in enumerate(HOSTILE * 3):
        page.insert_text((72, 120 + 18 * i), line, fontsize=11)
    doc.save(pdf)

    from cli import app
    from pipeline.config import load_settings
    from pipeline.ingest import ingest

    settings = load_settings(data_dir=tmp_path / "data", workers=1)
    report = ingest(pdf.parent, settings, stages=[])
    assert report.results[0].status in ("ok", "partial"), report.results[0].error
    pid = report.results[0].paper_id
    out = tmp_path / "report"
    done = CliRunner().invoke(app, ["inspect", "--data-dir", str(settings.data_dir), "--out", str(out)])
    assert done.exit_code == 0, done.output

    page_html = (out / "papers" / f"{pid}.html").read_text()
    parser = _Scripts()
    parser.feed(page_html)
    islands = [text for attrs, text in parser.scripts if attrs.get("id") == "rows"]
    assert len(islands) == 1
    island = islands[0]
    assert not re.search("[<>&\u2028\u2029]", island), "an HTML-significant character left raw in the island"
    rows = json.loads(island)
    stored = json.dumps(rows, ensure_ascii=False)
    assert "<!--<script>alert(1)</script>" in stored and "</script><b>bold</b> &" in stored
    # the page's own script still comes after the island, whole, as its own element
    assert len(parser.scripts) == 2 and "getElementById" in parser.scripts[1][1]
