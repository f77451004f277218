"""`paperbase export`: Markdown whose headings and tables are the database's rows, JSON with all eight views."""
from __future__ import annotations

import html
import json
import re

from typer.testing import CliRunner

from cli import app
from report.export import heading_level, table_markdown

runner = CliRunner()


def _export(settings, paper: str, fmt: str) -> str:
    result = runner.invoke(app, ["export", paper, "--format", fmt, "--data-dir", str(settings.data_dir)])
    assert result.exit_code == 0, result.output
    return result.stdout


def _rows(settings, sql: str, params: list) -> list[dict]:
    from pipeline.read import Reader

    with Reader(settings) as reader:
        return reader.sql(sql, params).records()


def test_markdown_headings_are_the_section_rows_in_order(report_store):
    settings, ids = report_store
    pid = ids["neurips2017_attention.pdf"]
    text = _export(settings, pid, "md")
    sections = _rows(settings, "SELECT section_title FROM sections WHERE ref_paper_id = ? ORDER BY ordinal", [pid])
    assert len(sections) >= 5
    headings = [line for line in text.splitlines() if re.match(r"#{2,6} ", line)]
    expected = [f"{'#' * heading_level(s['section_title'])} {s['section_title']}" for s in sections] + ["## References"]
    assert headings == expected
    title = _rows(settings, "SELECT title FROM metadata WHERE paper_id = ?", [pid])[0]["title"]
    assert text.startswith(f"# {title}\n")
    assert "$$" in text  # display equations


def test_markdown_tables_hold_the_stored_cells(report_store):
    settings, ids = report_store
    pid = ids["acl2020_tapas.pdf"]
    text = _export(settings, pid, "md")
    tables = _rows(settings, "SELECT t.table_caption, t.table_content FROM tables t JOIN pages p ON p.page_id = t.ref_page_id "
                             "WHERE t.ref_paper_id = ? ORDER BY p.page_number, t.ordinal", [pid])
    assert tables
    at = 0
    for t in tables:
        caption = text.index(f"**{t['table_caption']}**", at)  # each table once, in reading order
        cells = [" ".join(html.unescape(c).split()) for c in re.findall(r"<t[dh][^>]*>(.*?)</t[dh]>", t["table_content"], re.S)]
        body = text[caption:text.index("\n\n", text.index("|", caption))]
        for cell in (c for c in cells if c):
            assert cell.replace("|", "\\|") in body, (t["table_caption"], cell)
        at = caption + 1


def test_json_has_every_view_with_the_stored_rows(report_store):
    settings, ids = report_store
    pid = ids["acl2020_tapas.pdf"]
    data = json.loads(_export(settings, pid, "json"))
    assert data["paper_id"] == pid and data["metadata"]["paper_id"] == pid
    for view in ("pages", "sections", "chunks", "tables", "images", "equations", "reference"):
        n = _rows(settings, f'SELECT count(*) AS n FROM "{view}" WHERE ref_paper_id = ?', [pid])[0]["n"]
        assert len(data[view]) == n, view
    assert [p["page_number"] for p in data["pages"]] == list(range(1, len(data["pages"]) + 1))


def test_export_names_a_paper_by_title_and_refuses_unknown_ones(report_store):
    settings, _ = report_store
    assert _export(settings, "attention is all", "md").startswith("# Attention Is All You Need")
    result = runner.invoke(app, ["export", "no such paper at all", "--data-dir", str(settings.data_dir)])
    assert result.exit_code == 1 and "no stored paper matches" in str(result.exception)  # cli.main prints it


def test_spanning_cells_keep_their_columns():
    html = ('<table><tr><th rowspan="2">Model</th><th colspan="2">Acc</th></tr><tr><th>dev</th><th>test</th></tr>'
            '<tr><td>A</td><td>1.0</td><td>2|0</td></tr></table>')
    assert table_markdown(html).splitlines() == [
        "| Model | Acc |  |", "| --- | --- | --- |", "|  | dev | test |", "| A | 1.0 | 2\\|0 |"]
