"""Visual rows for the sections and reference views: PyMuPDF often splits one printed line into several
`Line`s (a heading's number and its title, a bold run-in title and the rest of the line), so lines that sit
side by side in reading order are merged back into one row before any typography is judged."""
from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass

from pipeline.parse.ocr import CODE_FONT
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
    font: str = ""  # font of most of the row's letters
    italic: bool = False
    font_share: float = 1.0  # share of the letters set in `font`
    tail: str = ""  # a run-in heading's paragraph text after the heading (the heading keeps only its title)




def _row(page: int, index: int, lines: list[Line], column: int) -> Row:
    text = lines[0].text if len(lines) == 1 else " ".join(line.text for line in lines)
    if "  " in text:
        text = re.sub(r"\s+", " ", text)
    size = 0.0
    total = bold = italic = 0
    fonts: Counter[str] = Counter()
    spans = [s for line in lines for s in line.spans]
    # a row with words outside a typewriter face is judged by those words: code in a heading (`2. The network
    # class`) takes the weight of the words around it; a row all in one is code, judged as is
    if any(s.text.strip() and not CODE_FONT.search(s.font) for s in spans):
        spans = [s for s in spans if not CODE_FONT.search(s.font)]
    for line in lines:
        for s in line.spans:
            n = len(s.text.strip())
            if n:
                size = max(size, s.size)
    for s in spans:
        n = len(s.text.strip())
        if n:
            total += n
            # a demibold face is bold (JSS sets package names in one: `3.3. timeDate/fCalendar:`)
            bold += n if s.bold or "demi" in s.font.lower() else 0
            italic += n if s.italic else 0
            fonts[s.font] += n
    x0 = min(ln.bbox[0] for ln in lines)
    x1 = max(ln.bbox[2] for ln in lines)
    y0 = min(ln.bbox[1] for ln in lines)
    y1 = max(ln.bbox[3] for ln in lines)
    font, n_font = fonts.most_common(1)[0] if fonts else ("", 0)
    return Row(page, index, lines, text, round(size, 1), total > 0 and bold >= 0.6 * total, x0, y0, x1, y1, column,
               font, total > 0 and italic >= 0.6 * total, n_font / total if total else 1.0)


def _same_row(a: Line, b: Line) -> bool:
    """b continues a on the same printed line: vertically overlapping and just to its right."""
    ha, hb = a.bbox[3] - a.bbox[1], b.bbox[3] - b.bbox[1]
    ca, cb = (a.bbox[1] + a.bbox[3]) / 2, (b.bbox[1] + b.bbox[3]) / 2
    return abs(ca - cb) < 0.45 * max(min(ha, hb), 1.0) and -2 <= b.bbox[0] - a.bbox[2] < 40


def build_rows(analysis: DocumentAnalysis) -> list[Row]:
    """All rows of the document in reading order, without running headers/footers, page numbers and
    the rotated arXiv stamp (none of which belong to any section's content)."""
    rows: list[Row] = []
    for p in analysis.pages:
        top, bottom = p.height * MARGIN, p.height * (1 - MARGIN)
        for block in p.blocks:
            cur: list[Line] = []
            for line in block.lines:
                in_margin = line.bbox[1] < top or line.bbox[3] > bottom
                if line.running or (in_margin and line.text.isdigit()):  # furniture: page.py marks it
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
    return _join_numbers(rows)


NUMBER_ONLY = re.compile(r"(\d{1,2}(\.\d{1,2}){0,3}|[IVX]{1,5}|[A-Z](\.\d{1,2}){0,3})\.?")


def _beside(a: Line, b: Line) -> bool:
    """b sits on a's baseline to its right, within a heading's number indent (wider than _same_row allows)."""
    ha, hb = a.bbox[3] - a.bbox[1], b.bbox[3] - b.bbox[1]
    ca, cb = (a.bbox[1] + a.bbox[3]) / 2, (b.bbox[1] + b.bbox[3]) / 2
    return abs(ca - cb) < 0.45 * max(min(ha, hb), 1.0) and -2 <= b.bbox[0] - a.bbox[2] < 90


def _above(a: Row, b: Row) -> bool:
    """b is the next line under a, aligned with it (same left edge, or centred alike), within two and a half of
    their font size: a heading whose number is set on a line of its own above its title (titlesec's `display`,
    KOMA's and memoir's chapter-like headings). Both bold: a lone number above a word in body type is a table's
    or a list's, not a heading's."""
    if not (a.bold and b.bold) or b.page != a.page:
        return False
    aligned = abs(a.x0 - b.x0) <= 2 or abs((a.x0 + a.x1) / 2 - (b.x0 + b.x1) / 2) <= 2
    return aligned and 0 <= b.y0 - a.y1 <= 2.5 * a.size


# a book or report's chapter label on a line of its own over the chapter's title (LaTeX's `report`: `Chapter 1` in
# \huge over `Introduction` in \Huge)
CHAPTER = re.compile(r"(?:Chapter|CHAPTER|Appendix|APPENDIX)\s+(\d{1,2}|[A-Z]|[IVXL]{1,5})")


def _chapter(a: Row, b: Row) -> str | None:
    """`b`'s number when `a` is a chapter label right over `b`, its title, set as large or larger (14 pt or more),
    aligned with it; the title row becomes `1 Introduction`, numbered as its sections (`1.1 History`) go on."""
    m = CHAPTER.fullmatch(a.text.strip())
    if not m or b.page != a.page or a.size < 14 or b.size < a.size - 0.5 or not b.text[:1].isalpha():
        return None
    aligned = abs(a.x0 - b.x0) <= 2 or abs((a.x0 + a.x1) / 2 - (b.x0 + b.x1) / 2) <= 2
    return m.group(1) if aligned and 0 <= b.y0 - a.y1 <= 3 * a.size else None


def _join_numbers(rows: list[Row]) -> list[Row]:
    """A heading's number and its title written as separate text blocks ("1" / "Introduction" side by side on
    one printed line, or the number on a line of its own above the title, or a chapter label over the chapter's
    title): the number row is put in front of the title row."""
    out: list[Row] = []
    skip = False
    for i, r in enumerate(rows):
        if skip:
            skip = False
            continue
        nxt = rows[i + 1] if i + 1 < len(rows) else None
        number = _chapter(r, nxt) if nxt is not None else None
        if number:
            joined = _row(r.page, len(out), r.lines + nxt.lines, nxt.column)
            joined.text = f"{number} {nxt.text}"
            out.append(joined)
            skip = True
            continue
        if (nxt is not None and NUMBER_ONLY.fullmatch(r.text) and nxt.page == r.page and nxt.text[:1].isalpha()
                and (_beside(r.lines[-1], nxt.lines[0]) or _above(r, nxt)) and abs(r.size - nxt.size) <= 0.5
                and r.bold == nxt.bold):
            out.append(_row(r.page, len(out), r.lines + nxt.lines, nxt.column))
            skip = True
            continue
        r.index = len(out)
        out.append(r)
    return out
