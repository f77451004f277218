"""images view: captioned figures, raster or vector, one per caption (sub-figures included), with a bbox.

The caption ("Figure 3: ..." / "Fig. 3.") anchors the search. The figure is the stack of graphics (raster image
rectangles and vector-drawing paths) adjoining the caption on the figure side (above it unless the document
puts figures under their captions), bounded by running text, other captions and tables, plus the text labels
lying inside or right next to those graphics. Drawings inside tables (their rules) and page-sized or white
background fills are ignored, so decorations never form figures on their own: only a caption creates one.
When no graphics are found (a figure typeset as text, an unusual drawing), the layout model's 'picture' region
next to the caption is used, so the model runs only on those few pages. The bbox covers the graphics, not the
caption, as (x0, y0, w, h).
"""
from __future__ import annotations

from pipeline.document import Figure
from pipeline.parse.pymupdf._captions import (
    Caption, anchor_range, find_captions, inside, is_prose, reading_key, to_bbox, union, x_overlap,
)
from pipeline.parse.pymupdf.page import DocumentAnalysis, PageAnalysis, Rect
from pipeline.parse.pymupdf.tables import table_regions

GAP = 30.0  # max vertical gap between stacked parts of one figure (pt)


def graphics(p: PageAnalysis, tables: list[Rect]) -> list[Rect]:
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


def region(p: PageAnalysis, cap: Caption, above: bool, body: float, graphics: list[Rect], blocks: list[Rect]) -> Rect | None:
    xr = anchor_range(p, cap.bbox)
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


def _layout_region(p: PageAnalysis, cap: Caption, taken: list[Rect]) -> Rect | None:
    best, best_d = None, 60.0
    for r, cls in p.layout:
        if cls != "picture" or x_overlap(r, cap.bbox) <= 0 or any(inside(r, t, 3) for t in taken):
            continue
        d = min(abs(cap.bbox[1] - r[3]), abs(r[1] - cap.bbox[3]))
        if d < best_d:
            best, best_d = r, d
    return best


def _figures_above(analysis: DocumentAnalysis) -> bool:
    """Vote over the document: graphics right above the caption (the usual) or right below it."""
    votes = 0
    for cap in find_captions(analysis):
        if cap.kind != "figure":
            continue
        p = analysis.pages[cap.page - 1]
        rects = list(p.image_rects) + [(d["rect"].x0, d["rect"].y0, d["rect"].x1, d["rect"].y1) for d in p.drawings]
        near = [r for r in rects if x_overlap(r, cap.bbox) > 0]
        up = min((cap.bbox[1] - r[3] for r in near if r[3] <= cap.bbox[1] + 3), default=1e9)
        down = min((r[1] - cap.bbox[3] for r in near if r[1] >= cap.bbox[3] - 3), default=1e9)
        if min(up, down) < GAP:
            votes += 1 if up <= down else -1
    return votes >= 0


def extract_figures(analysis: DocumentAnalysis) -> list[Figure]:
    body = analysis.body_size
    above = _figures_above(analysis)
    tables_by_page: dict[int, list[Rect]] = {}
    for cap, r in table_regions(analysis):
        tables_by_page.setdefault(cap.page, []).append(r)
    found: list[tuple[int, Rect, str]] = []
    for cap in find_captions(analysis):
        if cap.kind != "figure":
            continue
        p = analysis.pages[cap.page - 1]
        tables = tables_by_page.get(cap.page, [])
        others = [c.bbox for c in find_captions(analysis) if c.page == cap.page and c is not cap]
        drawn = graphics(p, tables)
        blocks = others + tables
        box = region(p, cap, above, body, drawn, blocks) or region(p, cap, not above, body, drawn, blocks)
        if box is None:
            box = _layout_region(p, cap, tables)
        if box is not None:
            found.append((cap.page, box, cap.text))
    regions: dict[int, list[Rect]] = {}
    for page, box, _ in found:
        regions.setdefault(page, []).append(box)
    analysis._pb_figures = regions  # type: ignore[attr-defined]  (the equations view skips these areas)
    found.sort(key=lambda f: (f[0], reading_key(analysis.pages[f[0] - 1], f[1])))
    figures: list[Figure] = []
    per_page: dict[int, int] = {}
    for page, box, caption in found:
        ordinal = per_page.get(page, 0)
        per_page[page] = ordinal + 1
        figures.append(Figure(page, ordinal, caption, to_bbox(box)))
    return figures
