"""`paperbase export`: Markdown whose headings and tables are the database's rows, JSON with all eight views."""
from __future__ import annotations

import html
import json
import re

from typer.testing import CliRunner

from cli import app
from report.export import escape, escape_inline, heading_level, table_markdown, to_markdown
from report.load import PaperRows
from tests.report.roundtrip import accidents, rendered

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
    kept = [s for s in sections if s["section_title"].lower() not in ("abstract", "references")]
    expected = (["## Abstract"] + [f"{'#' * heading_level(s['section_title'])} {escape(s['section_title'])}" for s in kept]
                + ["## References"])
    assert headings == expected
    assert text.count("\n## References\n") == 1  # one list, not the section and the rows
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
        caption = text.index(f"**{escape(t['table_caption'])}**", at)  # each table once, in reading order
        cells = [" ".join(html.unescape(re.sub(r"</?su[pb]>", "", c)).split())
                 for c in re.findall(r"<t[dh][^>]*>(.*?)</t[dh]>", t["table_content"], re.S)]
        body = re.sub(r"</?su[pb]>", "", text[caption:text.index("\n\n", text.index("| ---", caption))])
        for cell in (c for c in cells if c):
            assert escape_inline(cell) in body, (t["table_caption"], cell)
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


def test_round_trip_rendered_markdown_matches_the_stored_rows(report_store):
    """The export rendered by a CommonMark library (markdown-it-py): its headings, tables and equations are the
    stored rows', each equation in the section whose placeholder names it, and nothing else turns into syntax."""
    settings, ids = report_store
    for name in ("neurips2017_attention.pdf", "acl2020_tapas.pdf"):
        pid = ids[name]
        text = _export(settings, pid, "md")
        data = json.loads(_export(settings, pid, "json"))
        rows = {v: data[v] for v in ("sections", "tables", "images", "equations", "reference")}
        assert accidents(text, rows) == [], name
        seen = rendered(text)
        assert seen["headings"][0][0] == 1 and seen["headings"][1] == (2, "Abstract")
        sections = [s for s in rows["sections"] if s["section_title"].lower() not in ("abstract", "references")]
        assert [h for h in seen["headings"][2:-1]] == [(heading_level(s["section_title"]), s["section_title"])
                                                          for s in sections]
        assert seen["equations"] == len(rows["equations"])
        assert seen["tables"] == sum(1 for t in rows["tables"] if "<tr" in t["table_content"])
    # the attention paper's eq. 1 stands where it is printed: right after the sentence that introduces it
    text = _export(settings, ids["neurips2017_attention.pdf"], "md")
    eq1 = text.index("\\tag{1}")
    assert eq1 - text.rindex("We compute the matrix of outputs as:", 0, eq1) < 300


def test_markdown_syntax_in_the_text_is_escaped():
    rows = {"metadata": [{"title": "A *bold* claim", "authors": ["A. Author"], "abstract": "We use #hashtags and _x_."}],
            "pages": [{"page_id": "p1", "page_number": 1}],
            "sections": [{"section_title": "1 Intro", "section_content": "#Edges are many.\n\n1. not a list\n\n"
                          "- not a bullet\n\n[Equation (1)]\n\nTable 1: Scores of every system", "page_numbers": [1]},
                         {"section_title": "References", "section_content": "[1] A. B. Title.", "page_numbers": [1]}],
            "tables": [{"table_caption": "Table 1: Scores of every system", "ref_page_id": "p1", "ordinal": 0,
                        "table_content": "<table><tr><th>a_b</th></tr><tr><td>1*2</td></tr></table>"},
                       {"table_caption": "Table 2: Printed as an image", "ref_page_id": "p1", "ordinal": 1,
                        "table_content": '<table data-raster="true"></table>'}],
            "images": [], "equations": [{"equation_content": "x = y_{i} \\tag{1}", "ref_page_id": "p1", "ordinal": 0}],
            "reference": [{"reference_content": "[1] A. B. Title.", "ordinal": 0}], "chunks": []}
    text = to_markdown(PaperRows("pid", rows))
    assert accidents(text, rows) == []
    seen = rendered(text)
    assert [h[1] for h in seen["headings"]] == ["A *bold* claim", "Abstract", "1 Intro", "References"]
    intro = text[text.index("## 1 Intro"):text.index("## References")]
    assert intro.index("#Edges") < intro.index("$$x = y_{i} \\tag{1}$$") < intro.index("**Table 1: Scores")
    assert intro.index("**Table 1: Scores") < intro.index("| a\\_b |")
    assert "printed as an image" in text
