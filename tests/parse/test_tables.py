"""tables view on real papers: counts, captions, HTML cells with spans, bboxes (verified by reading the PDFs)."""
from __future__ import annotations

import pymupdf
import pytest

from tests.conftest import corpus_pdf, needs_corpus

pytestmark = needs_corpus


def _inside(word: pymupdf.Rect, bbox: tuple[float, float, float, float], tol: float = 2.0) -> bool:
    x0, y0, w, h = bbox
    return word.x0 >= x0 - tol and word.y0 >= y0 - tol and word.x1 <= x0 + w + tol and word.y1 <= y0 + h + tol


def test_attention_tables(parsed):
    tables = parsed("neurips2017_attention.pdf").tables
    assert [t.page_number for t in tables] == [6, 8, 9, 10]
    assert [t.caption.split(":")[0] for t in tables] == ["Table 1", "Table 2", "Table 3", "Table 4"]
    assert tables[1].caption.startswith("Table 2: The Transformer achieves better BLEU scores than previous")
    assert tables[1].caption.endswith("at a fraction of the training cost.")  # two caption lines joined
    html = tables[1].html
    assert html.startswith("<table>") and html.endswith("</table>") and "<tr>" in html and "<td>" in html
    assert '<th colspan="2">BLEU</th>' in html  # spanning header over EN-DE / EN-FR
    assert '<th colspan="2">Training Cost (FLOPs)</th>' in html
    assert "<th>EN-DE</th><th>EN-FR</th><th>EN-DE</th><th>EN-FR</th>" in html
    assert '<th rowspan="2">Model</th>' in html  # multirow header cell
    for cell in ("<td>ByteNet [18]</td>", "<td>23.75</td>", "<td>Transformer (big)</td>", "<td>41.8</td>"):
        assert cell in html




def test_table_bbox_contains_its_cells(parsed):
    t = parsed("neurips2017_attention.pdf").tables[1]
    doc = pymupdf.open(corpus_pdf("neurips2017_attention.pdf"))
    page = doc[t.page_number - 1]
    x0, y0, w, h = t.bbox
    assert 0 <= x0 and 0 <= y0 and x0 + w <= page.rect.width and y0 + h <= page.rect.height
    for word in ("ByteNet", "Training Cost", "ConvS2S Ensemble", "Transformer (big)"):
        hits = page.search_for(word)
        assert hits and any(_inside(r, t.bbox) for r in hits), word
    caption = page.search_for("The Transformer achieves better BLEU")[0]
    assert not _inside(caption, t.bbox)  # the bbox is the table body only


def test_tapas_tables(parsed):
    tables = parsed("acl2020_tapas.pdf").tables
    assert len(tables) == 13
    assert sorted(int(t.caption.split(":")[0].split()[1]) for t in tables) == list(range(1, 14))
    by_label = {t.caption.split(":")[0]: t for t in tables}
    t3 = by_label["Table 3"]
    assert t3.caption.startswith("Table 3: WIKISQL denotation accuracy")
    assert "<th>Model</th><th>Dev</th><th>Test</th>" in t3.html
    assert "<td>Liang et al. (2018)</td><td>71.8</td><td>72.4</td>" in t3.html
    t6 = by_label["Table 6"]
    assert '<th colspan="2">SQA (SEQ)</th>' in t6.html and '<th colspan="2">WIKITQ</th>' in t6.html
    # four tables on page 7, numbered per page in reading order
    assert [t.ordinal for t in tables if t.page_number == 7] == [0, 1, 2, 3]


def test_tofueval_tables(parsed):
    tables = parsed("naacl2024_tofueval.pdf").tables
    assert len(tables) == 13
    t2 = next(t for t in tables if t.caption.startswith("Table 2:"))
    assert t2.page_number == 5
    assert t2.caption.startswith("Table 2: Percentage of sentence/summary-level factual inconsistencies")
    assert '<th colspan="4">Sentence-Level (% Error)</th>' in t2.html
    assert "<td>Vicuna-7B</td><td>19.6</td><td>35.8</td>" in t2.html


@pytest.mark.parametrize("name", ["neurips2017_attention.pdf", "acl2020_tapas.pdf", "iclr2014_vae.pdf"])
def test_no_figure_taken_for_a_table(parsed, name):
    paper = parsed(name)
    assert all(t.caption.startswith("Table") for t in paper.tables)
    if name == "iclr2014_vae.pdf":  # five figures, no tables at all
        assert paper.tables == []
