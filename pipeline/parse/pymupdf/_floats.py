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
        rect = d.rect
        w, h = max(0.0, rect[2] - rect[0]), max(0.0, rect[3] - rect[1])  # pymupdf.Rect's width and height
        if w * h > 0.5 * area or (w < 0.5 and h < 0.5):
            continue
        if d.type == "f" and d.fill in ((1.0, 1.0, 1.0), [1.0, 1.0, 1.0]):
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
    # a picture's transparent margin may reach into the caption's first line
    slack = max(3.0, 0.8 * cap.size)
    if above:
        limit = max((s[3] for s in stops if s[3] <= cap.bbox[1] + 1), default=0.0)
        cands = [e for e in elems if e[0][3] <= cap.bbox[1] + (slack if e[1] else 3) and e[0][1] >= limit - 2]
        cands.sort(key=lambda e: -e[0][3])
    else:
        limit = min((s[1] for s in stops if s[1] >= cap.bbox[3] - 1), default=p.height)
        cands = [e for e in elems if e[0][1] >= cap.bbox[3] - (slack if e[1] else 3) and e[0][3] <= limit + 2]
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


def side_region(facts: DocumentFacts, p: PageAnalysis, cap: Caption, graphics: list[Rect]) -> Rect | None:
    """A float set beside its caption (Nature's legend next to a two-thirds-width figure, JMLR's side captions):
    the graphics left or right of the caption that overlap it vertically, within GAP of it, plus the graphics
    stacked with them on that side."""
    boxes = [g for g in graphics if (g[2] - g[0]) * (g[3] - g[1]) > 3000]

    def beside(g: Rect) -> bool:
        vertical = min(g[3], cap.bbox[3]) - max(g[1], cap.bbox[1]) > 0
        return vertical and (0 <= cap.bbox[0] - g[2] <= GAP or 0 <= g[0] - cap.bbox[2] <= GAP)

    seeds = [g for g in boxes if beside(g)]
    if not seeds:
        return None
    left = seeds[0][2] <= cap.bbox[0] + 1
    side = [g for g in graphics if (g[2] <= cap.bbox[0] + 1) == left and (g[0] >= cap.bbox[2] - 1) != left]
    got = [seeds[0]]
    grew = True
    while grew:
        grew = False
        box = union(got)
        for g in side:
            if g not in got and x_overlap(g, box) > 0 and g[1] <= box[3] + GAP and g[3] >= box[1] - GAP:
                got.append(g)
                grew = True
    box = union(got)
    labels = [ln.bbox for ln in p.lines if inside(ln.bbox, box, 4)]
    return union([box] + labels)


def text_float(p: PageAnalysis, cap: Caption, above: bool, body: float, colw: float, xr: tuple[float, float],
               stops: list[Rect]) -> Rect | None:
    """A float typeset as text (an algorithm listing, a dialogue example): the run of non-prose lines next to
    the caption, at most 28 pt from it and 2 lines apart, ending at running text or another float; 3 lines or more."""
    band = (xr[0], 0.0, xr[1], 0.0)
    lines = [ln for ln in p.lines if x_overlap(ln.bbox, band) > 0.5 * (ln.bbox[2] - ln.bbox[0])
             and not inside(ln.bbox, cap.bbox, 1)]
    lines.sort(key=lambda ln: -ln.bbox[3] if above else ln.bbox[1])
    edge = cap.bbox[1] if above else cap.bbox[3]
    got: list[Rect] = []
    for ln in lines:
        r = ln.bbox
        if (r[3] > edge + 1) if above else (r[1] < edge - 1):
            continue
        gap = edge - r[3] if above else r[1] - edge
        if gap > (28.0 if not got else 2.0 * body) or is_prose(ln, body, colw):
            break
        if any(x_overlap(r, s) > 0 and min(r[3], s[3]) - max(r[1], s[1]) > 0 for s in stops):
            break
        got.append(r)
        edge = min(edge, r[1]) if above else max(edge, r[3])
    return union(got) if len(got) >= 3 else None
