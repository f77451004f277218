"""DocumentFacts: the page and document facts several views share, each computed once on first use.

Views read captions, table and figure regions, headings and per-page column geometry from here instead of from
each other's leftovers, so views may run in any order (or alone) and give the same output. Every fact is a
`functools.cached_property` of pure functions of the DocumentAnalysis (plus the backend options): nothing is
stored on the analysis or its pages.
"""
from __future__ import annotations

from functools import cached_property

from pipeline.parse.options import PyMuPDFOptions
from pipeline.parse.pymupdf._captions import Caption, find_captions
from pipeline.parse.pymupdf._equation_regions import EquationRegion, find_equations
from pipeline.parse.pymupdf._figure_regions import find_figures
from pipeline.parse.pymupdf._geometry import text_area, two_columns
from pipeline.parse.pymupdf._headings import detect_headings
from pipeline.parse.pymupdf._paragraphs import Paragraph, page_paragraphs
from pipeline.parse.pymupdf._sections_rows import Row
from pipeline.parse.pymupdf._table_regions import find_table_regions
from pipeline.parse.pymupdf.page import DocumentAnalysis, PageAnalysis, Rect


class DocumentFacts:
    def __init__(self, analysis: DocumentAnalysis, options: PyMuPDFOptions | None = None):
        self.analysis = analysis
        # "never": the layout-model fallbacks of the tables and images views and its vote on headings are skipped
        self.use_layout = (options or PyMuPDFOptions()).layout_model != "never"

    @property
    def pages(self) -> list[PageAnalysis]:
        return self.analysis.pages

    @property
    def body_size(self) -> float:
        return self.analysis.body_size

    # ---- per-page column geometry ----------------------------------------------------------------------

    @cached_property
    def text_areas(self) -> dict[int, tuple[float, float]]:
        """Page number -> left and right edges of the body text."""
        return {p.number: text_area(p) for p in self.pages}

    @cached_property
    def two_columns(self) -> dict[int, bool]:
        """Page number -> whether the page sets its text in two columns."""
        return {p.number: two_columns(p) for p in self.pages}

    def column_range(self, p: PageAnalysis, r: Rect) -> tuple[float, float]:
        """Horizontal extent of the text column holding `r` (the whole text width when it spans both columns)."""
        left, right = self.text_areas[p.number]
        mid = (left + right) / 2
        if self.two_columns[p.number] and r[2] - r[0] < 0.6 * (right - left):
            if r[2] <= mid + 8:
                return left, mid - 5
            if r[0] >= mid - 8:
                return mid + 5, right
        return left, right

    def anchor_range(self, p: PageAnalysis, cap: Rect) -> tuple[float, float]:
        """Horizontal search range for the float a caption belongs to: its whole column when the caption is
        centred there; only the caption's own width (plus a margin) for an off-centre one (side-by-side floats)."""
        x0, x1 = self.column_range(p, cap)
        cx = (cap[0] + cap[2]) / 2
        if abs(cx - (x0 + x1) / 2) < 0.12 * (x1 - x0):
            return x0, x1
        return cap[0] - 10, cap[2] + 10

    def reading_key(self, p: PageAnalysis, r: Rect) -> tuple[int, float]:
        """Sort key for reading order on a page: full-width items at the top, left column, right column, then
        full-width items at the bottom."""
        left, right = self.text_areas[p.number]
        if not self.two_columns[p.number] or r[2] - r[0] > 0.6 * (right - left):
            return (0 if r[1] < p.height / 2 else 3, r[1])
        return (1 if (r[0] + r[2]) / 2 < (left + right) / 2 else 2, r[1])

    # ---- floats -----------------------------------------------------------------------------------------

    @cached_property
    def captions(self) -> list[Caption]:
        """Table and figure captions, one per label."""
        return find_captions(self.analysis)

    def captions_on(self, page: int, kind: str | None = None) -> list[Caption]:
        return [c for c in self.captions if c.page == page and (kind is None or c.kind == kind)]

    @cached_property
    def table_regions(self) -> list[tuple[Caption, Rect]]:
        """(caption, body rect) of every table found."""
        return find_table_regions(self)

    @cached_property
    def figures(self) -> list[tuple[int, Rect, str]]:
        """(page, rect, caption) of every figure found, in caption order."""
        return find_figures(self)

    @cached_property
    def figure_regions(self) -> dict[int, list[Rect]]:
        """Page number -> figure rects on it."""
        regions: dict[int, list[Rect]] = {}
        for page, box, _ in self.figures:
            regions.setdefault(page, []).append(box)
        return regions

    @cached_property
    def equations(self) -> dict[int, list[EquationRegion]]:
        """Page number -> display equations on it, in reading order (equations view, and left out of the prose)."""
        return find_equations(self)

    # ---- headings ---------------------------------------------------------------------------------------

    @cached_property
    def headings(self) -> tuple[list[Row], dict[int, int]]:
        """Rows of the document and {row index: level} of its headings (sections and reference views)."""
        return detect_headings(self.analysis, self.use_layout)

    # ---- paragraphs -------------------------------------------------------------------------------------

    @cached_property
    def paragraphs(self) -> dict[int, list[Paragraph]]:
        """Page number -> its paragraphs with their roles (_paragraphs.py): pages, prose and section content."""
        rows, heads = self.headings
        standalone: set[int] = set()
        runin: set[int] = set()
        for i in heads:
            (runin if rows[i].tail else standalone).update(id(ln) for ln in rows[i].lines)
        return {p.number: page_paragraphs(self, p, standalone, runin) for p in self.pages}


def as_facts(source: DocumentFacts | DocumentAnalysis, options: PyMuPDFOptions | None = None) -> DocumentFacts:
    """Views take DocumentFacts; a bare DocumentAnalysis (tests, one-off callers) gets fresh facts."""
    return source if isinstance(source, DocumentFacts) else DocumentFacts(source, options)

