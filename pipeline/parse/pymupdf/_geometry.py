"""Cheap page geometry shared by the float views (tables, figures, equations): rect arithmetic, running-text
and rule detection, and the per-page text area / column facts (pure functions; DocumentFacts caches them).

Everything here reads the text lines and vector drawings `page.py` already extracted; no layout model.
"""
from __future__ import annotations

from pipeline.parse.pymupdf.page import Line, PageAnalysis, Rect


def union(rects: list[Rect]) -> Rect:
    return (min(r[0] for r in rects), min(r[1] for r in rects), max(r[2] for r in rects), max(r[3] for r in rects))


def to_bbox(r: Rect) -> tuple[float, float, float, float]:
    """x0,y0,x1,y1 -> the dataclass form (x0, y0, w, h)."""
    return (round(r[0], 2), round(r[1], 2), round(r[2] - r[0], 2), round(r[3] - r[1], 2))


def x_overlap(a: Rect, b: Rect) -> float:
    return min(a[2], b[2]) - max(a[0], b[0])


def inside(inner: Rect, outer: Rect, tol: float = 2.0) -> bool:
    return inner[0] >= outer[0] - tol and inner[1] >= outer[1] - tol and inner[2] <= outer[2] + tol and inner[3] <= outer[3] + tol


def is_prose(line: Line, body: float, col_width: float) -> bool:
    """Running text: body-sized, wide and densely set (table rows are sparse, figure labels short)."""
    w = line.bbox[2] - line.bbox[0]
    txt = line.text
    if len(txt) < 25 or line.size < body - 1.2 or w < 0.55 * col_width:
        return False
    return len(txt) * line.size * 0.42 >= 0.8 * w


def hrules(p: PageAnalysis, min_len: float = 8.0) -> list[Rect]:
    """Horizontal rules (stroked lines or thin filled rectangles) at least `min_len` long, as rects."""
    return [r for length, r in p.rule_candidates if length >= min_len]


def text_area(p: PageAnalysis) -> tuple[float, float]:
    """Left and right edges of the body text (from the lines of normal width)."""
    xs0 = sorted(ln.bbox[0] for ln in p.lines if ln.bbox[2] - ln.bbox[0] > 100)
    xs1 = sorted(ln.bbox[2] for ln in p.lines if ln.bbox[2] - ln.bbox[0] > 100)
    if len(xs0) < 4:
        return (0.12 * p.width, 0.88 * p.width)
    return (xs0[len(xs0) // 10], xs1[-(len(xs1) // 10) - 1])


def two_columns(p: PageAnalysis) -> bool:
    """Two text columns: several wide blocks on each side (equation numbers and labels are narrow)."""
    wide = [b.column for b in p.blocks if b.bbox[2] - b.bbox[0] > 0.25 * p.width]
    return wide.count(1) >= 2 and wide.count(2) >= 2
