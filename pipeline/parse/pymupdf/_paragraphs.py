"""Paragraphs of a page, each with its role: what the pages, chunks (`Page.prose`) and sections views are made of.

Every line of the page (running headers, footers and page numbers aside) gets one role, first match wins:

| role | lines |
| --- | --- |
| margin | rotated text in the page margin (the `arXiv:2309.06275v2 [cs.CL] 29 Feb 2024` stamp) |
| equation | a line of a display equation (DocumentFacts.equations: plausible formulas only) |
| caption | inside a table or figure caption |
| table | inside a table's region |
| figure | inside a figure's region or on a raster image, and not running text: tick labels, legends, diagram boxes |
| heading | a section heading standing on its own row |
| text | everything else |

Consecutive lines of one role form a paragraph; table, figure and heading rows are one paragraph each, an equation is
one paragraph. Running text is cut into paragraphs by its typography (one rule for every style): a change of font
size, a vertical gap wider than ~0.7 of the font size (more at one and a half or double spacing), a first-line indent after a line that ends a sentence or stops
short of the column's right edge, a flush-left line after a short line that ends a sentence, a list item (bullet or
`(a)`/`1.` label), a run-in heading. A word broken at the end of a column or block continues its paragraph.

The page's text keeps every paragraph (the pages view is the page's text); its prose (`Page.prose`, what chunks are
cut from) leaves out figure text and margin stamps and has a placeholder paragraph (`[Equation (3)]`, see
schemas/content_marks.py) where each display equation stood. Sections use the same paragraphs (sections.py).
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from pipeline.parse.pymupdf._geometry import inside, is_prose
from pipeline.parse.pymupdf.page import Line, PageAnalysis, Rect
from schemas.content_marks import equation_placeholder

if TYPE_CHECKING:
    from pipeline.parse.pymupdf.facts import DocumentFacts

PROSE_ROLES = ("text", "heading", "caption", "table")
_ITEM = re.compile(r"^(?:[•·▪◦●■□►‣∙]\s|\(?[a-z0-9]{1,2}\)\s|\d{1,2}\.\s+[A-Z])")
_ENDS_SENTENCE = re.compile(r"[.!?:;][)\]\"'”’]*$")


@dataclass
class Paragraph:
    role: str
    lines: list[Line]
    page: int
    equation: object | None = None  # the EquationRegion of an equation paragraph

    @property
    def text(self) -> str:
        """The paragraph's lines, one per line (the core's normalisation joins them)."""
        return "\n".join(ln.text for ln in self.lines if ln.text)

    @property
    def prose(self) -> str | None:
        """What the paragraph contributes to prose: None for figure text and margin stamps, a placeholder for an
        equation."""
        if self.role == "equation":
            return equation_placeholder(getattr(self.equation, "tag", None))
        return self.text if self.role in PROSE_ROLES else None


def _same_row(a: Line, b: Line) -> bool:
    """b continues a on the same printed line (pieces split by inline maths or a font change)."""
    ha, hb = a.bbox[3] - a.bbox[1], b.bbox[3] - b.bbox[1]
    overlap = min(a.bbox[3], b.bbox[3]) - max(a.bbox[1], b.bbox[1])
    return overlap > 0.5 * max(min(ha, hb), 1.0) and b.bbox[0] >= a.bbox[0] - 2


class _Roles:
    """Role of each line of one page (see the module docstring)."""

    def __init__(self, facts: DocumentFacts, p: PageAnalysis, heading_ids: set[int]):
        self.facts, self.p = facts, p
        self.heading_ids = heading_ids
        self.equation_of = {id(ln): region for region in facts.equations.get(p.number, []) for ln in region.lines}
        self.captions = [c.bbox for c in facts.captions_on(p.number)]
        self.tables = [r for c, r in facts.table_regions if c.page == p.number]
        self.figures: list[Rect] = list(facts.figure_regions.get(p.number, []))
        self.figures += [r for r in p.image_rects if (r[2] - r[0]) * (r[3] - r[1]) > 0.01 * p.width * p.height]
        self.body = facts.body_size

    def role(self, ln: Line, margin_block: bool) -> str:
        if margin_block or (ln.text.startswith("arXiv:") and (ln.bbox[2] < 45 or not ln.horizontal)):
            return "margin"
        if id(ln) in self.equation_of:
            return "equation"
        if any(inside(ln.bbox, c, 2) for c in self.captions):
            return "caption"
        if any(inside(ln.bbox, t, 2) for t in self.tables):
            return "table"
        if any(inside(ln.bbox, f, 2) for f in self.figures):
            x0, x1 = self.facts.column_range(self.p, ln.bbox)
            if not is_prose(ln, self.body, x1 - x0):
                return "figure"
        if id(ln) in self.heading_ids:
            return "heading"
        return "text"


def _text_break(facts: DocumentFacts, p: PageAnalysis, prev: Line, ln: Line) -> bool:
    """Whether running-text line `ln` starts a new paragraph after `prev` (see the module docstring)."""
    size = max(ln.size, 1.0)
    if abs(ln.size - prev.size) > 1.0:
        return True
    if _ITEM.match(ln.text):
        return True
    if prev.text.endswith("-") and prev.text[-2:-1].isalpha():
        return False  # a word broken at the line end continues here, even across columns
    below = ln.bbox[1] >= prev.bbox[3] - 0.5 * size and ln.bbox[0] < prev.bbox[2]
    # a manuscript at one and a half or double spacing sets every line that much apart: only the excess is a break
    if below and ln.bbox[1] - prev.bbox[3] > (0.7 + 1.25 * (facts.analysis.line_spacing - 1.0)) * size:
        return True
    left, _ = facts.column_range(p, ln.bbox)
    _, prev_right = facts.column_range(p, prev.bbox)
    short = prev.bbox[2] < prev_right - 2.5 * size
    ends = bool(_ENDS_SENTENCE.search(prev.text))
    indent = ln.bbox[0] - left
    if 0.6 * size < indent < 4 * size and (short or ends):
        return True
    return short and ends and indent <= 0.6 * size and (ln.text[:1].isupper() or ln.text[:1].isdigit())


def page_paragraphs(facts: DocumentFacts, p: PageAnalysis, heading_ids: set[int], runin_ids: set[int]
                    ) -> list[Paragraph]:
    """The page's paragraphs in reading order (running headers, footers and page numbers left out)."""
    roles = _Roles(facts, p, heading_ids)
    out: list[Paragraph] = []
    for block in p.blocks:
        for ln in block.lines:
            if ln.running or not ln.text:
                continue
            role = roles.role(ln, block.margin)
            last = out[-1] if out else None
            prev = last.lines[-1] if last else None
            if last is not None and last.role == role and prev is not None:
                if role == "equation":
                    if last.equation is roles.equation_of[id(ln)]:
                        last.lines.append(ln)
                        continue
                elif _same_row(prev, ln) and id(ln) not in runin_ids:
                    last.lines.append(ln)
                    continue
                elif role == "caption":
                    if any(inside(prev.bbox, c, 2) and inside(ln.bbox, c, 2) for c in roles.captions):
                        last.lines.append(ln)  # the same caption goes on (another caption starts a paragraph)
                        continue
                elif role == "text" and id(ln) not in runin_ids and not _text_break(facts, p, prev, ln):
                    last.lines.append(ln)
                    continue
            if role == "equation":
                region = roles.equation_of[id(ln)]
                if any(q.equation is region for q in out):  # a line of a display already placed
                    next(q for q in out if q.equation is region).lines.append(ln)
                    continue
                out.append(Paragraph(role, [ln], p.number, region))
            else:
                out.append(Paragraph(role, [ln], p.number))
    return out


def page_text(paragraphs: list[Paragraph]) -> str:
    return "\n\n".join(t for t in (q.text for q in paragraphs) if t)


def page_prose(paragraphs: list[Paragraph]) -> str:
    return "\n\n".join(t for t in (q.prose for q in paragraphs) if t)
