"""Bold in Type 3 fonts, measured from their strokes.

pdfTeX writes a font it has no Type 1 version of as a Type 3 font of bitmaps (T1-encoded text on a TeX Live without
cm-super; older arXiv papers; the zoo's els_cas, ascelike and aiaa_tc papers here). Such a font is named `F74`: no
`Bold` in the name, no bold flag, so every heading whose only mark is its weight (IEEE's and AIAA's `A. Sub-heading`
at body size, a bold run-in head) read as body text. The weight is still on the page: bold strokes are thicker.

Each Type 3 font's stroke width is measured on up to `SAMPLES` of its longest spans rendered at `ZOOM` (the mean
length of the dark runs along the pixel rows, per pixel of font size; the same measure as `ocr.mark_bold` uses on
OCR'd lines) and compared with the body font's. Measured on the zoo's aiaa_tc paper (Computer Modern bitmaps):
regular faces 0.072-0.093 of their size (12 pt down to 7 pt: small sizes are drawn heavier), the body 0.083; bold
faces 0.125-0.142 at 8-12 pt (1.5-1.7x the body) and 0.11 at 17 pt. BOLD_RATIO = 1.3 sits between; fonts under
MIN_SIZE of the body's size are left alone (a 7 pt regular sans face reaches 1.33x), as are fonts far larger than
the body (a title is told by its size already). Cost: the font lists of two pages for every document; one small
render per sample, only in documents whose body is set in a Type 3 font (none of the corpus papers).
"""
from __future__ import annotations

from collections import Counter

SAMPLES = 3
ZOOM = 3.0  # 216 dpi: a 10 pt stem is 2-4 pixels wide
BOLD_RATIO = 1.3
MIN_SIZE, MAX_SIZE = 0.85, 1.6  # of the body size: the range where the measure separates the weights
BOLD_FLAG = 16  # PyMuPDF's span flag for bold


def _stroke(page, span: dict) -> float:
    import numpy as np
    import pymupdf

    pix = page.get_pixmap(matrix=pymupdf.Matrix(ZOOM, ZOOM), clip=pymupdf.Rect(span["bbox"]),
                          colorspace=pymupdf.csGRAY, annots=False)
    if not pix.w or not pix.h:
        return 0.0
    dark = np.frombuffer(pix.samples, np.uint8).reshape(pix.h, pix.w) < 128
    starts = int((dark[:, 1:] & ~dark[:, :-1]).sum() + dark[:, 0].sum())
    return float(dark.sum()) / starts / (span["size"] * ZOOM) if starts else 0.0


def mark_type3_bold(doc, raws: list[dict]) -> set[str]:
    """Set the bold flag on every span of a Type 3 font whose strokes are BOLD_RATIO times the body font's (in
    `raws`, the pages' text in get_text("dict") shape, in place). Returns the fonts marked."""
    # a body set in Type 3 shows on the first page and the middle one (asking every page costs 1 ms a page)
    if not any(f[2] == "Type3" for n in {0, len(doc) // 2} if n < len(doc) for f in doc[n].get_fonts()):
        return set()
    type3 = {f[3] for page in doc for f in page.get_fonts() if f[2] == "Type3"}
    chars: Counter = Counter()
    spans: dict[str, list[tuple[int, dict]]] = {}
    for number, raw in enumerate(raws):
        for b in raw["blocks"]:
            for ln in b.get("lines", ()):
                if abs(ln["dir"][0]) < 0.9:
                    continue
                for s in ln["spans"]:
                    letters = sum(c.isalpha() for c in s["text"])
                    chars[s["font"]] += letters
                    if s["font"] in type3 and letters >= 3:
                        spans.setdefault(s["font"], []).append((number, s))
    if not chars:
        return set()
    body = chars.most_common(1)[0][0]
    if body not in spans:
        return set()  # the body is in a font that carries its own weight: nothing to compare with

    def measure(font: str) -> float:
        sample = sorted(spans[font], key=lambda ns: -len(ns[1]["text"]))[:SAMPLES]
        values = sorted(_stroke(doc[n], s) for n, s in sample)
        return values[len(values) // 2]

    body_size = Counter(round(s["size"], 1) for _, s in spans[body]).most_common(1)[0][0]
    body_stroke = measure(body)
    if body_stroke <= 0:
        return set()
    bold = set()
    for font, found in spans.items():
        size = Counter(round(s["size"], 1) for _, s in found).most_common(1)[0][0]
        if font != body and MIN_SIZE * body_size <= size <= MAX_SIZE * body_size \
                and measure(font) >= BOLD_RATIO * body_stroke:
            bold.add(font)
    if bold:
        for raw in raws:
            for b in raw["blocks"]:
                for ln in b.get("lines", ()):
                    for s in ln["spans"]:
                        if s["font"] in bold:
                            s["flags"] |= BOLD_FLAG
    return bold
