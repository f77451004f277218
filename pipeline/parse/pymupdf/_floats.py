"""Float geometry shared by the tables and images views: the graphics of a page and the region a caption
claims from them (used for figures, and for tables that are grids of pictures).

Takes the DocumentFacts for column geometry (typing-only import: facts.py builds on this module).
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from pipeline.parse.pymupdf._captions import Caption
from pipeline.parse.pymupdf._geometry import inside, is_prose, union, x_overlap
from pipeline.parse.pymupdf.page import PageAnalysis, Rect

if TYPE_CHECKING:
    from pipeline.parse.pymupdf.facts import DocumentFacts

GAP = 30.0  # max vertical gap between stacked parts of one figure (pt)


def graphics(p: PageAnalysis, tables: list[Rect]) -> list[Rect]:
    """Raster image rects and vector drawing rects of the page, minus page-sized or white fills, margin
    decorations and anything inside a table."""
    area = p.width * p.height
    out: list[Rect] = list(p.image_rects)
    for d in p.drawings:
        r = d["rect"]
        rect = (r.x0, r.y0, r.x1, r.y1)
        if r.width * r.height > 0.5 * area or (r.width < 0.5 and r.height < 0.5):
            continue
        if d.get("type") == "f" and d.get("fill") in ((1.0, 1.0, 1.0), [1.0, 1.0, 1.0]):
            continue  # white background / knock-out boxes
        out.append(rect)
    # running-header/footer decorations live in the top and bottom margins
    top, bottom = 0.075 * p.height, 0.925 * p.height
    return [g for g in out if g[3] > top and g[1] < bottom and not any(inside(g, t, 3) for t in tables)]


def region(facts: DocumentFacts, p: PageAnalysis, cap: Caption, above: bool, body: float, graphics: list[Rect],
           blocks: list[Rect]) -> Rect | None:
    """The float next to `cap` (above or below it): the stack of graphics adjoining the caption, bounded by running
    text, other captions and tables, plus the text labels inside or right next to those graphics."""
    xr = facts.anchor_range(p, cap.bbox)
    band = (xr[0], 0.0, xr[1], 0.0)
    colw = xr[1] - xr[0]
    boxes = [g for g in graphics if (g[2] - g[0]) * (g[3] - g[1]) > 3000]
    # Running text (not inside a drawn box) bounds the figure, as do other captions and tables.
    stops = [b for b in blocks if x_overlap(b, band) > 0]
    for ln in p.lines:
        if is_prose(ln, body, colw) and ln.size >= body - 0.3 and x_overlap(ln.bbox, band) > 0.5 * (ln.bbox[2] - ln.bbox[0]):
            if not any(inside(ln.bbox, b, 2) for b in boxes):
                stops.append(ln.bbox)
    # Text lines count as links in the chain (labels between a plot and its caption) but never make a figure.
    texts = [ln.bbox for ln in p.lines if x_overlap(ln.bbox, band) > 0 and ln.bbox not in stops]
    # a graphic belongs to this float only if it lies mostly within the search range
    elems = [(g, True) for g in graphics if x_overlap(g, band) >= 0.6 * (g[2] - g[0])] + [(t, False) for t in texts]
    if above:
        limit = max((s[3] for s in stops if s[3] <= cap.bbox[1] + 1), default=0.0)
        cands = [e for e in elems if e[0][3] <= cap.bbox[1] + 3 and e[0][1] >= limit - 2]
        cands.sort(key=lambda e: -e[0][3])
    else:
        limit = min((s[1] for s in stops if s[1] >= cap.bbox[3] - 1), default=p.height)
        cands = [e for e in elems if e[0][1] >= cap.bbox[3] - 3 and e[0][3] <= limit + 2]
        cands.sort(key=lambda e: e[0][1])
    got: list[Rect] = []
    n_graphic = 0  # how many of `got` end with a graphic (trailing text is dropped)
    edge = cap.bbox[1] if above else cap.bbox[3]
    for g, is_graphic in cands:
        if (edge - g[3] if above else g[1] - edge) > GAP:
            break
        got.append(g)
        if is_graphic:
            n_graphic = len(got)
        edge = min(edge, g[1]) if above else max(edge, g[3])
    got = got[:n_graphic]
    if not got:
        return None
    box = union(got)
    if (box[2] - box[0]) * (box[3] - box[1]) < 400:
        return None
    # Labels: text lines inside the graphics or hugging them (axis ticks, legends), between the stops.
    lo, hi = (limit, cap.bbox[1]) if above else (cap.bbox[3], limit)
    grow = (box[0] - 25, box[1] - 12, box[2] + 25, box[3] + 12)
    labels = [ln.bbox for ln in p.lines if lo - 1 <= ln.bbox[1] and ln.bbox[3] <= hi + 1 and inside(ln.bbox, grow, 0)
              and ln.bbox not in stops]
    return union([box] + labels)
