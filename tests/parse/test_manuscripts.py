"""Manuscript layouts (issue 29): margin columns of line numbers (lineno in review copies and preprints, NeurIPS/ICLR
submissions, ACL's review ruler) are in no view, and one and a half or double spacing neither cuts a title nor makes
every line a paragraph. PDFs are written here with PyMuPDF, so the truth is exact; the zoo's `els_review` and `erae`
papers (typeset with lineno and at 1.5 spacing) are scored in tests/zoo."""
from __future__ import annotations

from pathlib import Path

import pymupdf
import pytest

from pipeline.parse import ParseOptions, parse_pdf
from tests.conftest import CORPUS2

WORDS = ("routing layers learn which tokens attend to which others and the encoder keeps its accuracy while the "
         "memory it needs falls by a third on long inputs of sixteen thousand tokens in every benchmark we tried").split()


def _sentence(i: int, n: int = 11) -> str:
    return " ".join(WORDS[(i * 7 + k) % len(WORDS)] for k in range(n))


def _manuscript(path: Path, pages: int, numbered: set[int], pitch: float = 14.0) -> list[str]:
    """A one-column paper whose pages in `numbered` carry lineno-style numbers left of the text; returns its lines."""
    doc, written, counter = pymupdf.open(), [], 0
    for n in range(pages):
        page = doc.new_page(width=612, height=792)
        y = 90.0
        for i in range(30):
            text = _sentence(n * 30 + i)
            page.insert_text((100, y), text, fontsize=10)
            written.append(text)
            if n in numbered:
                counter += 1
                page.insert_text((80 - 4 * len(str(counter)), y), str(counter), fontsize=6)
            y += pitch
    doc.save(path)
    return written


def test_a_margin_column_of_line_numbers_is_in_no_view(tmp_path):
    pdf = tmp_path / "review.pdf"
    written = _manuscript(pdf, 3, {0, 1, 2})
    doc = parse_pdf(pdf, ParseOptions())
    text = "\n".join(p.text for p in doc.pages)
    lone_numbers = [ln for ln in text.splitlines() if ln.strip().isdigit()]
    assert not lone_numbers, lone_numbers[:5]
    words = text.split()
    assert not any(w.isdigit() for w in words), [w for w in words if w.isdigit()][:5]
    assert all(line in " ".join(words) for line in written[1:29])


def test_numbers_left_of_the_text_on_one_page_only_stay(tmp_path):
    """One page of five with numbers left of its text (a numbered list set in the margin, a table's row numbers)
    is no line-number column: the document vote needs 30 % of the pages."""
    pdf = tmp_path / "list.pdf"
    _manuscript(pdf, 5, {2})
    doc = parse_pdf(pdf, ParseOptions())
    kept = [w for w in doc.pages[2].text.split() if w.isdigit()]
    assert len(kept) >= 25


def test_double_spacing_keeps_paragraphs_whole(tmp_path):
    pdf = tmp_path / "double.pdf"
    _manuscript(pdf, 3, set(), pitch=24.0)  # 10 pt type on a 24 pt pitch: double spacing, no paragraph breaks
    doc = parse_pdf(pdf, ParseOptions())
    paragraphs = [p for p in doc.pages[1].text.split("\n\n") if p.strip()]
    assert len(paragraphs) <= 3, len(paragraphs)


@pytest.mark.skipif(not (CORPUS2 / "econ_wp2000_why_rich_save.pdf").exists(), reason="corpus2 is absent")
def test_a_double_spaced_working_paper_reads_in_paragraphs():
    doc = parse_pdf(CORPUS2 / "econ_wp2000_why_rich_save.pdf", ParseOptions())
    paragraphs = [p for p in doc.pages[2].text.split("\n\n") if p.strip()]
    assert len(paragraphs) <= 8, len(paragraphs)  # 25 lines of running text; one paragraph per line before


@pytest.mark.skipif(not (CORPUS2 / "elife_elife2012_sulfonolipid.pdf").exists(), reason="corpus2 is absent")
def test_a_first_page_sidebar_is_read_after_the_body():
    """eLife's first page: the article history and correspondence sidebar left of an indented text column is read
    after the body, so the introduction runs on into its next heading instead of into `Received: ...`."""
    doc = parse_pdf(CORPUS2 / "elife_elife2012_sulfonolipid.pdf", ParseOptions())
    text = doc.pages[0].text
    assert text.index("Results") < text.index("Received:") < text.index("Reviewing editor")
    assert "Received:" not in (doc.pages[0].prose or "")
