"""Bold and italic in Type 3 fonts, measured from their strokes and their slant.

pdfTeX writes a font it has no Type 1 version of as a Type 3 font of bitmaps (T1-encoded text on a TeX Live without
cm-super; older arXiv papers; the zoo's els_cas, ascelike and aiaa_tc papers here). Such a font is named `F74`: no
`Bold` in the name, no bold flag, so every heading whose only mark is its weight (IEEE's and AIAA's `A. Sub-heading`
at body size, a bold run-in head) read as body text. The weight is still on the page: bold strokes are thicker.

Each Type 3 font's stroke width is measured on up to `SAMPLES` of its longest spans rendered at `ZOOM` (the mean
length of the dark runs along the pixel rows, per pixel of font size: `ocr.stroke_width`, which `ocr.mark_bold` uses
on OCR'd lines) and compared with the body font's. Measured on the zoo's aiaa_tc paper (Computer Modern bitmaps):
regular faces 0.072-0.093 of their size (12 pt down to 7 pt: small sizes are drawn heavier), the body 0.083; bold
faces 0.125-0.142 at 8-12 pt (1.5-1.7x the body) and 0.11 at 17 pt. BOLD_RATIO = 1.3 sits between; fonts under
MIN_SIZE of the body's size are left alone (a 7 pt regular sans face reaches 1.33x), as are fonts far larger than
the body (a title is told by its size already). Cost: the font lists of two pages for every document; one small
render per sample, only in documents whose body is set in a Type 3 font (none of the corpus papers).

Italic the same way: the dark pixels' column profile is peakier when the rows are sheared back by an italic's slant
(SLANT_SHEAR) than upright for a slanted face, and the other way round for an upright one. The ratio of the two
(peakiness sheared / upright), measured on the aiaa_tc paper: italic faces 1.19-1.35, upright ones 0.63-0.85 (bold,
sans and small sizes included). ITALIC_RATIO = 1.0 sits between. Italic matters to the heading rules (an italic
line at body size is a level-3 heading in ASCE's and AIAA's classes) and to the author block (italic affiliations).
"""
from __future__ import annotations

from collections import Counter

from pipeline.parse.ocr import stroke_width

SAMPLES = 3
ZOOM = 3.0  # 216 dpi: a 10 pt stem is 2-4 pixels wide
BOLD_RATIO = 1.3
MIN_SIZE, MAX_SIZE = 0.85, 1.6  # of the body size: the range where the measure separates the weights
BOLD_FLAG = 16  # PyMuPDF's span flag for bold
ITALIC_FLAG = 2
SLANT_SHEAR = 0.21  # about 12 degrees, Computer Modern italic's slant
ITALIC_RATIO = 1.0


def _peak(dark, shear: float) -> float:
    """Peakiness of the dark pixels' column profile with each row shifted by `shear` per row from the middle."""
    import numpy as np

    h, w = dark.shape
    cols = np.zeros(w + 2 * h + 2)
    for y in range(h):
        off = int(round((y - h / 2) * shear)) + h
        cols[off:off + w] += dark[y]
    return float((cols ** 2).sum())


def _measure(page, span: dict) -> tuple[float, float]:
    """(stroke width per pixel of size, slant ratio) of one span, from one render."""
    import numpy as np
    import pymupdf

    pix = page.get_pixmap(matrix=pymupdf.Matrix(ZOOM, ZOOM), clip=pymupdf.Rect(span["bbox"]),
                          colorspace=pymupdf.csGRAY, annots=False)
    if not pix.w or not pix.h:
        return 0.0, 0.0
    dark = np.frombuffer(pix.samples, np.uint8).reshape(pix.h, pix.w) < 128
    stroke = stroke_width(dark) / (span["size"] * ZOOM)
    upright = _peak(dark.astype(float), 0.0)
    return stroke, (_peak(dark.astype(float), SLANT_SHEAR) / upright if upright else 0.0)


def mark_type3_styles(doc, raws: list[dict]) -> set[str]:
    """Set the bold flag on every span of a Type 3 font whose strokes are BOLD_RATIO times the body font's, and the
    italic flag on every span of one that slants (in `raws`, the pages' text in get_text("dict") shape, in place).
    Returns the fonts marked bold."""
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

    def measure(font: str) -> tuple[float, float]:
        sample = sorted(spans[font], key=lambda ns: -len(ns[1]["text"]))[:SAMPLES]
        values = [_measure(doc[n], s) for n, s in sample]
        strokes, slants = sorted(v[0] for v in values), sorted(v[1] for v in values)
        return strokes[len(strokes) // 2], slants[len(slants) // 2]

    measured = {font: measure(font) for font in spans}
    body_size = Counter(round(s["size"], 1) for _, s in spans[body]).most_common(1)[0][0]
    body_stroke = measured[body][0]
    if body_stroke <= 0:
        return set()
    flags: dict[str, int] = {}
    for font, found in spans.items():
        size = Counter(round(s["size"], 1) for _, s in found).most_common(1)[0][0]
        stroke, slant = measured[font]
        if font != body and MIN_SIZE * body_size <= size <= MAX_SIZE * body_size and stroke >= BOLD_RATIO * body_stroke:
            flags[font] = flags.get(font, 0) | BOLD_FLAG
        if font != body and slant >= ITALIC_RATIO:
            flags[font] = flags.get(font, 0) | ITALIC_FLAG
    if flags:
        for raw in raws:
            for b in raw["blocks"]:
                for ln in b.get("lines", ()):
                    for s in ln["spans"]:
                        s["flags"] |= flags.get(s["font"], 0)
    return {font for font, f in flags.items() if f & BOLD_FLAG}
