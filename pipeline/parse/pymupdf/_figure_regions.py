"""Figure regions for the images view (and for the equations view, which skips them).

The caption ("Figure 3: ..." / "Fig. 3.") anchors the search; `_floats.region` claims the graphics next to it
(above it unless the document puts figures under their captions, decided by a vote). When no graphics are found
the layout model's 'picture' region next to the caption is used (skipped with layout_model="never").
Called once per document by DocumentFacts.figures (typing-only import of facts: facts.py builds on this module).
"""
from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from pipeline.parse.pymupdf._captions import Caption
from pipeline.parse.pymupdf._floats import GAP, graphics, region, side_region, text_float
from pipeline.parse.pymupdf._geometry import inside, x_overlap
from pipeline.parse.pymupdf.page import PageAnalysis, Rect

if TYPE_CHECKING:
    from pipeline.parse.pymupdf.facts import DocumentFacts


def _layout_region(p: PageAnalysis, cap: Caption, taken: list[Rect]) -> Rect | None:
    best, best_d = None, 60.0
    for r, cls in p.layout:
        if cls != "picture" or x_overlap(r, cap.bbox) <= 0 or any(inside(r, t, 3) for t in taken):
            continue
        d = min(abs(cap.bbox[1] - r[3]), abs(r[1] - cap.bbox[3]))
        if d < best_d:
            best, best_d = r, d
    return best


def _figures_above(facts: DocumentFacts) -> bool:
    """Vote over the document: graphics right above the caption (the usual) or right below it."""
    votes = 0
    for cap in facts.captions:
        if cap.kind != "figure":
            continue
        p = facts.pages[cap.page - 1]
        rects = list(p.image_rects) + p.drawing_rects
        near = [r for r in rects if x_overlap(r, cap.bbox) > 0]
        up = min((cap.bbox[1] - r[3] for r in near if r[3] <= cap.bbox[1] + max(3.0, 0.8 * cap.size)), default=1e9)
        down = min((r[1] - cap.bbox[3] for r in near if r[1] >= cap.bbox[3] - 3), default=1e9)
        if min(up, down) < GAP:
            votes += 1 if up <= down else -1
    return votes >= 0


def find_figures(facts: DocumentFacts) -> list[tuple[int, Rect, str]]:
    """(page, rect, caption) of every captioned figure, in caption order."""
    analysis = facts.analysis
    body = analysis.body_size
    above = _figures_above(facts)
    tables_by_page: dict[int, list[Rect]] = {}
    for cap, r in facts.table_regions:
        tables_by_page.setdefault(cap.page, []).append(r)
    found: list[tuple[int, Rect, str]] = []
    for cap in facts.captions:
        if cap.kind != "figure":
            continue
        p = analysis.pages[cap.page - 1]
        tables = tables_by_page.get(cap.page, [])
        others = [c.bbox for c in facts.captions if c.page == cap.page and c is not cap]
        drawn = graphics(p, tables)
        blocks = others + tables
        box = region(facts, p, cap, above, body, drawn, blocks) or region(facts, p, cap, not above, body, drawn, blocks)
        if box is None:  # a caption line cut into pieces (inline maths) under a full-width figure
            left, right = facts.text_areas[p.number]
            wide = replace(cap, bbox=(min(left, cap.bbox[0]), cap.bbox[1], max(right, cap.bbox[2]), cap.bbox[3]))
            box = region(facts, p, wide, above, body, drawn, blocks)
        if box is None:
            box = side_region(facts, p, cap, drawn)
        if box is None and facts.use_layout:
            box = _layout_region(p, cap, tables)
        if box is None:
            xr = facts.anchor_range(p, cap.bbox)
            box = text_float(p, cap, above, body, xr[1] - xr[0], xr, blocks)
        # a caption is evidence enough of a figure: when its graphics cannot be placed, the figure keeps the
        # caption's box rather than vanishing from the view -- except a supplementary one ("Figure S1."): without
        # graphics that is an entry of a supporting-information list, its figure lives in another file
        if box is None and cap.number.startswith("S"):
            continue
        found.append((cap.page, box if box is not None else cap.bbox, cap.text))
    return found
