"""Visual rows for the sections and reference views: PyMuPDF often splits one printed line into several
`Line`s (a heading's number and its title, a bold run-in title and the rest of the line), so lines that sit
side by side in reading order are merged back into one row before any typography is judged."""
from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass

from pipeline.parse.pymupdf.page import DocumentAnalysis, Line

# Margins (fraction of the page height) where running headers, footers and page numbers live.
MARGIN = 0.075


@dataclass
class Row:
    page: int  # from 1
    index: int  # position in the document-wide reading order
    lines: list[Line]
    text: str
    size: float  # largest font size among the row's letters (small caps put the capitals at full size)
    bold: bool
    x0: float
    y0: float
    x1: float
    y1: float
    column: int


def _row(page: int, index: int, lines: list[Line], column: int) -> Row:
    text = lines[0].text if len(lines) == 1 else " ".join(line.text for line in lines)
    if "  " in text:
        text = re.sub(r"\s+", " ", text)
    size = 0.0
    total = bold = 0
    for line in lines:
        for s in line.spans:
            n = len(s.text.strip())
            if n:
                total += n
                bold += n if s.bold else 0
                size = max(size, s.size)
    x0 = min(ln.bbox[0] for ln in lines)
    x1 = max(ln.bbox[2] for ln in lines)
    y0 = min(ln.bbox[1] for ln in lines)
    y1 = max(ln.bbox[3] for ln in lines)
    return Row(page, index, lines, text, round(size, 1), total > 0 and bold >= 0.6 * total, x0, y0, x1, y1, column)


def _same_row(a: Line, b: Line) -> bool:
    """b continues a on the same printed line: vertically overlapping and just to its right."""
    ha, hb = a.bbox[3] - a.bbox[1], b.bbox[3] - b.bbox[1]
    ca, cb = (a.bbox[1] + a.bbox[3]) / 2, (b.bbox[1] + b.bbox[3]) / 2
    return abs(ca - cb) < 0.45 * max(min(ha, hb), 1.0) and -2 <= b.bbox[0] - a.bbox[2] < 40


def _margin_junk(analysis: DocumentAnalysis) -> set[str]:
    """Texts that repeat in the top/bottom margin of several pages (running headers/footers)."""
    counts: Counter[str] = Counter()
    for p in analysis.pages:
        seen = set()
        height = p.height
        for line in p.lines:
            if line.bbox[1] < height * MARGIN or line.bbox[3] > height * (1 - MARGIN):
                key = re.sub(r"\d+", "#", line.text.lower())
                seen.add(key)
        counts.update(seen)
    return {t for t, n in counts.items() if n >= 3}


def build_rows(analysis: DocumentAnalysis) -> list[Row]:
    """All rows of the document in reading order, without running headers/footers, page numbers and
    the rotated arXiv stamp (none of which belong to any section's content)."""
    junk = _margin_junk(analysis)
    rows: list[Row] = []
    for p in analysis.pages:
        top, bottom = p.height * MARGIN, p.height * (1 - MARGIN)
        for block in p.blocks:
            cur: list[Line] = []
            for line in block.lines:
                in_margin = line.bbox[1] < top or line.bbox[3] > bottom
                if in_margin and (re.sub(r"\d+", "#", line.text.lower()) in junk or line.text.isdigit()):
                    continue
                if line.text.startswith("arXiv:") and line.bbox[2] < 45:
                    continue
                if cur and _same_row(cur[-1], line):
                    cur.append(line)
                    continue
                if cur:
                    rows.append(_row(p.number, len(rows), cur, block.column))
                cur = [line]
            if cur:
                rows.append(_row(p.number, len(rows), cur, block.column))
    return rows
