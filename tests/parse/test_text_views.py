"""What the text views hold (issue 27): paragraphs, figure text and margin stamps kept out of chunks and sections
(pages keep them), display equations replaced by placeholders in the prose, raster tables flagged, equation rows
plausible. A PDF drawn here with PyMuPDF (exact truth) and corpus papers."""
from __future__ import annotations

import re
from pathlib import Path

import pymupdf
import pytest

from pipeline.parse import parse_pdf
from pipeline.parse.quality import latex_problem, repair_latex, text_defects
from schemas.content_marks import EQUATION_PLACEHOLDER, RASTER_TABLE, is_raster_table
from tests.conftest import CORPUS

PARA1 = ["Our method reads every page of the paper in its reading order and keeps the words whole for search.",
         "It joins the lines of one paragraph and it keeps the break between two paragraphs where the paper has it.",
         "This first paragraph ends here."]
PARA2 = ["A second paragraph starts with an indent, as the class of this paper sets it for every new paragraph.",
         "It goes on for one more line of ordinary running text before the figure."]
LABELS = ["tick 0.25", "tick 0.75", "legend: baseline"]
STAMP = "arXiv:2401.00001v1 [cs.CL] 1 Jan 2024"


def _png() -> bytes:
    pix = pymupdf.Pixmap(pymupdf.csRGB, pymupdf.IRect(0, 0, 60, 20), False)
    pix.clear_with(200)
    return pix.tobytes("png")


def build(path: Path) -> Path:
    doc = pymupdf.open()
    page = doc.new_page()  # 595 x 842
    y = 90.0
    page.insert_text((72, y), "A Paper Drawn for the Text Views", fontname="tibo", fontsize=16)
    y += 40
    page.insert_text((72, y), "1 Introduction", fontname="tibo", fontsize=12)
    y += 20
    for i, text in enumerate(PARA1 + PARA2):
        x = 84 if i == len(PARA1) else 72  # first-line indent of the second paragraph
        page.insert_text((x, y), text, fontname="tiro", fontsize=10)
        y += 13
    y += 20
    # a figure: a framed plot with labels inside, its caption under it
    page.draw_rect(pymupdf.Rect(150, y, 450, y + 120), color=(0, 0, 0), width=1)
    page.draw_line((160, y + 100), (440, y + 20), color=(0, 0, 1), width=1)
    for k, label in enumerate(LABELS):
        page.insert_text((170 + 90 * k, y + 112), label, fontname="helv", fontsize=6)
    y += 135
    page.insert_text((150, y), "Figure 1: Accuracy against the size of the input for both systems.", fontname="tiro",
                     fontsize=9)
    y += 35
    # a table printed as a picture: caption above, an image under it
    page.insert_text((150, y), "Table 1: Results of every system printed as an image.", fontname="tiro", fontsize=9)
    page.insert_image(pymupdf.Rect(150, y + 8, 450, y + 88), stream=_png())
    y += 110
    page.insert_text((72, y), "2 Method", fontname="tibo", fontsize=12)
    y += 20
    page.insert_text((72, y), "The method section has one short paragraph of running text for its content.",
                     fontname="tiro", fontsize=10)
    # the rotated arXiv stamp down the left margin
    page.insert_text((30, 600), STAMP, fontname="helv", fontsize=9, rotate=90)
    doc.save(path)
    return path


@pytest.fixture(scope="module")
def paper(tmp_path_factory):
    return parse_pdf(build(tmp_path_factory.mktemp("views") / "views.pdf"))


def test_page_text_keeps_everything_chunks_leave_figure_text_and_stamp_out(paper) -> None:
    page = paper.pages[0]
    chunks = "\n\n".join(c.text for c in paper.chunks)
    for label in LABELS:
        assert label in page.text and label not in chunks
    assert "arXiv:2401.00001v1" in page.text and "arXiv" not in chunks
    assert "Figure 1: Accuracy against" in chunks  # captions are prose
    sections = "\n\n".join(s.content for s in paper.sections)
    assert not any(label in sections for label in LABELS) and "arXiv" not in sections


def test_paragraphs_joined_and_kept_apart(paper) -> None:
    intro = next(s for s in paper.sections if s.title == "1 Introduction")
    paragraphs = intro.content.split("\n\n")
    assert paragraphs[0] == " ".join(PARA1)
    assert paragraphs[1] == " ".join(PARA2)
    assert "\n" not in paragraphs[0]


def test_a_table_printed_as_an_image_is_flagged(paper) -> None:
    table = next(t for t in paper.tables if t.caption.startswith("Table 1"))
    assert table.html == RASTER_TABLE and is_raster_table(table.html)
    assert not is_raster_table("<table><tr><td>1</td></tr></table>") and not is_raster_table("<table></table>")


@pytest.mark.parametrize("latex, problem", [
    (r"h_i = \sum_{j} \frac{\exp(q_i^\top k_j)}{Z} v_j \tag{1}", None),
    (r"\sum_{\sigma}_{f} x", "double script"),
    (r"\mathrm{We}\mathrm{can}\mathrm{then}\mathrm{see}", "prose"),
    (r"\frac{KC123456}{KC123457}", "identifiers"),
    (r"\frac{a}{b", "unbalanced"),
    (r"\left( x \right", "unbalanced"),
    (r"12.5", "no mathematics"),
    (r"f(x) = [0, 1)", None),  # a half-open interval is balanced
])
def test_equation_plausibility(latex: str, problem: str | None) -> None:
    assert latex_problem(latex) == problem


def test_repairs_make_reconstructed_formulas_plausible() -> None:
    assert repair_latex(r"\sum_{\sigma}_{f} x") == r"\sum_{\sigma}{}_{f} x"
    assert repair_latex(r"\frac{a}{b") == r"\frac{a}{b}"
    assert repair_latex(r"f(x)) = y \tag{2}") == r"f(x) = y \tag{2}"
    for bad in (r"\sum_{\sigma}_{f} x", r"\frac{a}{b", r"f(x)) = y \tag{2}"):
        assert latex_problem(repair_latex(bad)) is None


ATTENTION = CORPUS / "neurips2017_attention.pdf"


@pytest.mark.skipif(not ATTENTION.exists(), reason="../shared/corpus is absent")
def test_display_equations_leave_the_prose_for_placeholders(parsed) -> None:
    paper = parsed("neurips2017_attention.pdf")
    chunks = "\n\n".join(c.text for c in paper.chunks)
    marks = [p for c in paper.chunks for p in c.text.split("\n\n") if EQUATION_PLACEHOLDER.match(p)]
    assert "[Equation (1)]" in marks
    assert len(marks) >= len(paper.equations) - 1
    assert all(latex_problem(e.latex) is None for e in paper.equations)
    # the glyph debris of eq. 1 (softmax over a fraction with a root) is gone from the prose
    assert not re.search(r"Attention\(Q, ?K, ?V\) ?= ?softmax", chunks)
    sections = "\n\n".join(s.content for s in paper.sections)
    assert "[Equation (1)]" in sections
    defects = text_defects(chunks)
    assert defects["split"] <= 1 and defects["accent"] == defects["fffd"] == defects["math_alnum"] == 0


@pytest.mark.skipif(not ATTENTION.exists(), reason="../shared/corpus is absent")
def test_chunks_are_cut_from_the_prose(parsed) -> None:
    paper = parsed("neurips2017_attention.pdf")
    squash = lambda s: re.sub(r"\s+", "", s)  # noqa: E731
    for page in paper.pages:
        chunks = [c for c in paper.chunks if c.page_number == page.number]
        assert squash("".join(c.text for c in chunks)) == squash(page.prose or "")
