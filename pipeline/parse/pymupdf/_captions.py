"""Caption detection and cheap page geometry shared by the tables, figures and equations views.

Everything here reads the per-page text lines and vector drawings that `page.py` already extracted, so it costs
a few milliseconds per page; the layout model is never touched here.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from pipeline.parse.pymupdf._joining import join_lines
from pipeline.parse.pymupdf.page import DocumentAnalysis, Line, PageAnalysis, Rect

# "Table 2:", "Figure 3.", "Fig. 3:", "Table A1 |" at the very start of a block.
_LABEL = re.compile(r"^(Table|Tab\.|Figure|Fig\.)\s*([A-Z]?\d+(?:\.\d+)?)\s*([:.|]|$)")


@dataclass
class Caption:
    kind: str  # "table" | "figure"
    number: str
    sep: str  # the character after the number; ':' is the strong signal
    text: str
    bbox: Rect
    page: int
    size: float


def union(rects: list[Rect]) -> Rect:
    return (min(r[0] for r in rects), min(r[1] for r in rects), max(r[2] for r in rects), max(r[3] for r in rects))


def to_bbox(r: Rect) -> tuple[float, float, float, float]:
    """x0,y0,x1,y1 -> the dataclass form (x0, y0, w, h)."""
    return (round(r[0], 2), round(r[1], 2), round(r[2] - r[0], 2), round(r[3] - r[1], 2))


def x_overlap(a: Rect, b: Rect) -> float:
    return min(a[2], b[2]) - max(a[0], b[0])


def inside(inner: Rect, outer: Rect, tol: float = 2.0) -> bool:
    return inner[0] >= outer[0] - tol and inner[1] >= outer[1] - tol and inner[2] <= outer[2] + tol and inner[3] <= outer[3] + tol


def text_area(p: PageAnalysis) -> tuple[float, float]:
    """Left and right edges of the body text (from the lines of normal width); cached on the page."""
    cached = getattr(p, "_pb_text_area", None)
    if cached is None:
        xs0 = sorted(ln.bbox[0] for ln in p.lines if ln.bbox[2] - ln.bbox[0] > 100)
        xs1 = sorted(ln.bbox[2] for ln in p.lines if ln.bbox[2] - ln.bbox[0] > 100)
        if len(xs0) < 4:
            cached = (0.12 * p.width, 0.88 * p.width)
        else:
            cached = (xs0[len(xs0) // 10], xs1[-(len(xs1) // 10) - 1])
        p._pb_text_area = cached  # type: ignore[attr-defined]
    return cached


def two_columns(p: PageAnalysis) -> bool:
    """Two text columns: several wide blocks on each side (equation numbers and labels are narrow)."""
    cached = getattr(p, "_pb_two_columns", None)
    if cached is None:
        wide = [b.column for b in p.blocks if b.bbox[2] - b.bbox[0] > 0.25 * p.width]
        cached = wide.count(1) >= 2 and wide.count(2) >= 2
        p._pb_two_columns = cached  # type: ignore[attr-defined]
    return cached


def column_range(p: PageAnalysis, r: Rect) -> tuple[float, float]:
    """Horizontal extent of the text column holding `r` (the whole text width when it spans both columns)."""
    left, right = text_area(p)
    mid = (left + right) / 2
    if two_columns(p) and r[2] - r[0] < 0.6 * (right - left):
        if r[2] <= mid + 8:
            return left, mid - 5
        if r[0] >= mid - 8:
            return mid + 5, right
    return left, right


def anchor_range(p: PageAnalysis, cap: Rect) -> tuple[float, float]:
    """Horizontal search range for the float a caption belongs to: its whole column when the caption is centred
    there; only the caption's own width (plus a margin) for an off-centre one (side-by-side or wrapped floats)."""
    x0, x1 = column_range(p, cap)
    cx = (cap[0] + cap[2]) / 2
    if abs(cx - (x0 + x1) / 2) < 0.12 * (x1 - x0):
        return x0, x1
    return cap[0] - 10, cap[2] + 10


def reading_key(p: PageAnalysis, r: Rect) -> tuple[int, float]:
    """Sort key for reading order on a page: full-width items at the top, left column, right column, then
    full-width items at the bottom."""
    left, right = text_area(p)
    if not two_columns(p) or r[2] - r[0] > 0.6 * (right - left):
        return (0 if r[1] < p.height / 2 else 3, r[1])
    return (1 if (r[0] + r[2]) / 2 < (left + right) / 2 else 2, r[1])


def is_prose(line: Line, body: float, col_width: float) -> bool:
    """Running text: body-sized, wide and densely set (table rows are sparse, figure labels short)."""
    w = line.bbox[2] - line.bbox[0]
    txt = line.text
    if len(txt) < 25 or line.size < body - 1.2 or w < 0.55 * col_width:
        return False
    return len(txt) * line.size * 0.42 >= 0.8 * w


def hrules(p: PageAnalysis, min_len: float = 8.0) -> list[Rect]:
    """Horizontal rules (stroked lines or thin filled rectangles) as rects."""
    out: list[Rect] = []
    for d in p.drawings:
        for it in d["items"]:
            if it[0] == "l":
                a, b = it[1], it[2]
                if abs(a.y - b.y) < 1.0 and abs(a.x - b.x) >= min_len:
                    out.append((min(a.x, b.x), min(a.y, b.y) - 0.3, max(a.x, b.x), max(a.y, b.y) + 0.3))
            elif it[0] == "re":
                r = it[1]
                if r.height < 2.0 and r.width >= min_len:
                    out.append((r.x0, r.y0, r.x1, r.y1))
    return out


def _candidates(analysis: DocumentAnalysis) -> list[Caption]:
    body = analysis.body_size
    found: list[Caption] = []
    for p in analysis.pages:
        for b in p.blocks:
            first = b.lines[0]
            m = _LABEL.match(first.text)
            if not m or first.size < 0.7 * body:
                continue
            kind = "table" if m.group(1).startswith("Tab") else "figure"
            # A caption ends at the block end or at a clear vertical gap.
            lines = [first]
            for ln in b.lines[1:]:
                if ln.bbox[1] - lines[-1].bbox[3] > 0.8 * first.size:
                    break
                lines.append(ln)
            found.append(Caption(kind, m.group(2), m.group(3), join_lines([ln.text for ln in lines]),
                                 union([ln.bbox for ln in lines]), p.number, first.size))
    return found


def find_captions(analysis: DocumentAnalysis) -> list[Caption]:
    """Table and figure captions of the document, one per label (cached on the analysis).

    Running text that starts a paragraph with "Table 4. On average ..." looks like a caption; when the document's
    captions use ':' a '.' label is rejected, and among duplicates of one label the smaller font (captions are
    usually set smaller than the body) wins."""
    cached = getattr(analysis, "_pb_captions", None)
    if cached is not None:
        return cached
    cands = _candidates(analysis)
    colon = sum(1 for c in cands if c.sep == ":")
    if colon >= 0.6 * max(1, len(cands)):
        cands = [c for c in cands if c.sep == ":"]
    best: dict[tuple[str, str], Caption] = {}
    for c in cands:
        key = (c.kind, c.number)
        if key not in best or c.size < best[key].size - 0.3:
            best[key] = c
    out = [c for c in cands if best[(c.kind, c.number)] is c]
    analysis._pb_captions = out  # type: ignore[attr-defined]
    return out


def captions_on(analysis: DocumentAnalysis, page: int, kind: str | None = None) -> list[Caption]:
    return [c for c in find_captions(analysis) if c.page == page and (kind is None or c.kind == kind)]
