"""Per-page analysis shared by every view extractor: text lines with font info, in reading order.

Computed once per page; extractors (text, sections, tables, figures, equations, references) read from it
instead of calling PyMuPDF again. The ONNX layout model is run lazily (`PageAnalysis.layout`) so pages that
do not need it never pay for it.

Reading order is geometric and cheap (no model): a column gutter is found from where the text lines are,
the page is cut into a header zone, a body zone and a footer zone, and body text is read column by column
inside bands separated by blocks that span both columns. Rotated text in the page margins (the arXiv stamp)
is set aside and read last so it never splits a column. Pieces of one visual row (a section number and its
title, a run-in heading and its paragraph) are judged together; headings and in-column figures right above
column text are read with their column; a page whose own gutter peaks come from a wide table or figure
takes the document's gutter when its column text lines up with it.
"""
from __future__ import annotations

import math
import re
from collections import Counter
from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from operator import itemgetter
from typing import NamedTuple

import pymupdf

from pipeline.parse import progress as parse_progress
from pipeline.parse.ocr import TesseractEngine, as_text_dict, ocr_pages, page_verdict
from pipeline.parse.options import OCROptions
from pipeline.parse.pymupdf._glyphs import EXTENSION_FONT, decode_codes, needs_recovery, raw_codes, recover
from pipeline.parse.pymupdf._running import mark_running
from pipeline.parse.pymupdf._type3 import mark_type3_styles

Rect = tuple[float, float, float, float]  # x0, y0, x1, y1 (PyMuPDF page space: top-left origin)
_second = itemgetter(1)
CM_BOLD = re.compile(r"([A-Z]{6}\+)?(CMBX|CMB\d|CMBSY|LMRoman\d+-Bold|SFBX)")


@lru_cache(maxsize=4096)
def bold_font(font: str) -> bool:
    """A bold face by its name (a paper uses a few dozen fonts; asked for every span many times)."""
    # TeX's Computer Modern bold (CMBX12, CMB10) carries neither the flag nor "Bold" in its name
    return "bold" in font.lower() or bool(CM_BOLD.match(font))


@lru_cache(maxsize=4096)
def italic_font(font: str) -> bool:
    lower = font.lower()
    return "ital" in lower or "oblique" in lower


@dataclass(slots=True)  # tens of thousands per paper: slots make them cheaper to build and to read
class Span:
    text: str
    bbox: Rect
    size: float
    font: str
    flags: int

    @property
    def bold(self) -> bool:
        return bool(self.flags & 16) or bold_font(self.font)

    @property
    def italic(self) -> bool:
        return bool(self.flags & 2) or italic_font(self.font)

    @property
    def superscript(self) -> bool:
        return bool(self.flags & 1)


@dataclass
class Line:
    bbox: Rect
    spans: list[Span]
    block: int  # index of the text block it came from
    dir: tuple[float, float] = (1.0, 0.0)  # writing direction; (0, -1) is text rotated to read bottom-up
    running: bool = False  # running header/footer or page number (_running.py): in no view's content

    # text and size are read hundreds of thousands of times per paper (roles, headings, equations, paragraphs); a
    # Line's spans never change after extraction, so each is computed once
    @cached_property
    def text(self) -> str:
        return "".join(s.text for s in self.spans).strip()

    @property
    def horizontal(self) -> bool:
        return abs(self.dir[0]) > 0.9

    @cached_property
    def size(self) -> float:
        """Dominant font size (by character count; the first size seen wins a tie)."""
        spans = self.spans
        if len(spans) == 1:
            return round(spans[0].size, 1)
        counts: dict[float, int] = {}
        for s in spans:
            key = round(s.size, 1)
            counts[key] = counts.get(key, 0) + len(s.text.strip())
        return max(counts.items(), key=_second)[0] if counts else 0.0

    @property
    def max_size(self) -> float:
        """Largest font size of a visible span (small caps titles have a smaller dominant size)."""
        return max((round(s.size, 1) for s in self.spans if s.text.strip()), default=0.0)

    @property
    def bold(self) -> bool:
        chars = [(s.bold, len(s.text.strip())) for s in self.spans if s.text.strip()]
        total = sum(n for _, n in chars)
        return total > 0 and sum(n for b, n in chars if b) >= 0.6 * total


@dataclass
class Block:
    bbox: Rect
    lines: list[Line]
    column: int = 0  # 0: spans the page / single column, 1: left, 2: right
    margin: bool = False  # rotated text in the page margin (arXiv stamp), read after the page body

    @property
    def text(self) -> str:
        return "\n".join(line.text for line in self.lines if line.text)

    @property
    def content(self) -> str:
        """The block's text without running headers, footers and page numbers."""
        return "\n".join(line.text for line in self.lines if line.text and not line.running)


class Drawing(NamedTuple):
    """One vector path of `page.get_cdrawings()`: its bounding rect, type ("f" fill, "s" stroke, "fs" both),
    fill colour and raw items (("l", p1, p2), ("re", rect, orientation), ("c", ...), ("qu", quad))."""
    rect: Rect
    type: str
    fill: tuple | None
    items: list


@dataclass
class PageAnalysis:
    page: pymupdf.Page
    number: int  # from 1
    blocks: list[Block] = field(default_factory=list)  # text blocks in reading order
    gutter: float | None = None  # x of the column split on two-column pages
    _edges: tuple[float, float] | None = field(default=None, repr=False)  # column edges beside the gutter
    _raw: list[Block] = field(default_factory=list, repr=False)  # text blocks as extracted, before ordering
    ocr: str | None = None  # why the page's text was read by OCR (pipeline/parse/ocr.py `page_verdict`), else None

    # read tens of thousands of times per paper; `page.rect` asks MuPDF for the page bounds and builds a Rect each time
    @cached_property
    def width(self) -> float:
        return self.page.rect.width

    @cached_property
    def height(self) -> float:
        return self.page.rect.height

    @property
    def lines(self) -> list[Line]:
        return [line for block in self.blocks for line in block.lines]

    @property
    def text(self) -> str:
        """Page text in reading order without running headers, footers and page numbers (they repeat on every
        page and would pollute search and chunks); `lines`/`blocks` still hold them, marked `running`."""
        return "\n".join(t for t in (b.content for b in self.blocks) if t)

    @cached_property
    def image_rects(self) -> list[Rect]:
        """Bounding boxes of raster images drawn on the page."""
        if draws_no_image(self.page):
            return []
        rects = []
        for info in self.page.get_image_info():
            x0, y0, x1, y1 = info["bbox"]
            if x1 - x0 > 1 and y1 - y0 > 1:
                rects.append((x0, y0, x1, y1))
        return rects

    @cached_property
    def drawings(self) -> list[Drawing]:
        """The page's vector paths as plain tuples. `get_cdrawings` is what `get_drawings` wraps; the wrapper's
        Point/Rect objects cost about three times the extraction itself and no view needs them."""
        out = []
        for d in self.page.get_cdrawings():
            x0, y0, x1, y1 = d["rect"]
            out.append(Drawing((float(x0), float(y0), float(x1), float(y1)), d["type"], d.get("fill"), d["items"]))
        return out

    @cached_property
    def drawing_rects(self) -> list[Rect]:
        return [d.rect for d in self.drawings]

    @cached_property
    def rule_candidates(self) -> list[tuple[float, Rect]]:
        """(length, rect) of every horizontal stroked line and thin filled rectangle, in drawing order:
        `_geometry.hrules` keeps those of at least a given length (computed once per page, asked for many times)."""
        out: list[tuple[float, Rect]] = []
        for d in self.drawings:
            for it in d.items:
                if it[0] == "l":
                    (ax, ay), (bx, by) = it[1], it[2]
                    if abs(ay - by) < 1.0:
                        out.append((abs(ax - bx), (min(ax, bx), min(ay, by) - 0.3, max(ax, bx), max(ay, by) + 0.3)))
                elif it[0] == "re":
                    x0, y0, x1, y1 = (float(v) for v in it[1])
                    x0, x1 = min(x0, x1), max(x0, x1)
                    y0, y1 = min(y0, y1), max(y0, y1)
                    if y1 - y0 < 2.0:
                        out.append((x1 - x0, (x0, y0, x1, y1)))
        return out

    @cached_property
    def layout(self) -> list[tuple[Rect, str]]:
        """Regions from PyMuPDF's bundled ONNX layout model: (rect, class) with classes such as
        text, title, section-header, picture, caption, table, formula, list-item, footnote, page-header.

        Nothing for a page that had no text layer (OCR read it from its picture): the model reads the PDF's own
        text boxes and gives no region on an image-only page (none on any of 25: bench/ocr.py's rasterized corpus
        pages and corpus3's JSTOR scan), so asking it there only cost 0.5 s a page and the model's load (about 1 s)."""
        if self.ocr == "no_text":
            return []
        from pipeline.parse._mupdf import load_layout_model

        load_layout_model()
        self.page.get_layout()
        return [((r[0], r[1], r[2], r[3]), r[4]) for r in (self.page.layout_information or [])]


# ---- images ------------------------------------------------------------------------------------------------

_INLINE_IMAGE = re.compile(rb"(?:^|\s)BI[\s/]")  # the operator that opens an image written into the content stream
_IMAGE_SOURCES = (pymupdf.mupdf.PDF_ENUM_NAME_XObject, pymupdf.mupdf.PDF_ENUM_NAME_Pattern,
                  pymupdf.mupdf.PDF_ENUM_NAME_Shading)


def draws_no_image(page: pymupdf.Page) -> bool:
    """True when nothing on the page can draw an image, so `get_image_info` would return nothing.

    `get_image_info` runs the whole page through MuPDF's text device a second time (about 5 ms a page, 6 % of a
    parse), and most pages of a paper have no image. MuPDF's image list counts what is drawn from an image XObject,
    an inline image, or a shading (rendered to an image); XObjects (forms too, which can hold either), patterns and
    shadings all have to be named in the page's resources, Type3 glyphs can draw images, and so can annotations.
    A page without any of those, whose content stream has no inline image, draws none. Checked against
    `get_image_info` on the 1,051 pages of the three corpora: 572 pages skip the call, none of them wrongly."""
    try:
        return _draws_no_image(page)
    except Exception:  # a damaged resource dictionary: MuPDF's own image list decides
        return False


def _draws_no_image(page: pymupdf.Page) -> bool:
    mupdf = pymupdf.mupdf
    if not page.parent.is_pdf or page.first_annot is not None or page.first_widget is not None:
        return False
    pdf_page = page.this if isinstance(page.this, mupdf.PdfPage) else mupdf.pdf_page_from_fz_page(page.this)
    resources = mupdf.pdf_page_resources(pdf_page)  # inherited ones too
    if resources.m_internal is not None:
        for name in _IMAGE_SOURCES:
            entries = mupdf.pdf_dict_get(resources, name)
            if entries.m_internal is not None and mupdf.pdf_dict_len(entries):
                return False
        fonts = mupdf.pdf_dict_get(resources, mupdf.PDF_ENUM_NAME_Font)
        for i in range(mupdf.pdf_dict_len(fonts) if fonts.m_internal is not None else 0):
            subtype = mupdf.pdf_dict_get(mupdf.pdf_dict_get_val(fonts, i), mupdf.PDF_ENUM_NAME_Subtype)
            if mupdf.pdf_name_eq(subtype, mupdf.PDF_ENUM_NAME_Type3):
                return False
    return not _INLINE_IMAGE.search(page.read_contents())


# ---- reading order -------------------------------------------------------------------------------------

MIN_COLUMN_LINES = 4  # full-length lines needed on each side before a page counts as two-column


def _bbox(lines: list[Line]) -> Rect:
    return (min(l.bbox[0] for l in lines), min(l.bbox[1] for l in lines),
            max(l.bbox[2] for l in lines), max(l.bbox[3] for l in lines))


def _clusters(values: list[float], tol: float = 1.5) -> list[list[float]]:
    """Sorted values grouped into runs whose neighbours lie within `tol` points."""
    runs: list[list[float]] = []
    for v in sorted(values):
        if runs and v - runs[-1][-1] <= tol:
            runs[-1].append(v)
        else:
            runs.append([v])
    return runs


def find_gutter(lines: list[Line], width: float, hint: tuple[float, float] | None = None,
                prefer_hint: bool = False) -> tuple[float, float, float] | None:
    """(split x, left column's right edge, right column's left edge) of a two-column page, else None.

    Justified column text makes many lines end at one x (left column) and start at one x (right column);
    those two peaks, a few points apart in the middle of the page, are the gutter. Lines across the page,
    centred titles, figure labels or side-by-side table cells do not form such peaks, so single-column pages
    stay single-column even when a wide figure or table puts text on both sides of the middle."""
    long = [l for l in lines if l.horizontal and l.bbox[2] - l.bbox[0] >= 0.2 * width]
    # the right column starts at the leftmost x where several lines start (indented items start later) ...
    starts = [c for c in _clusters([l.bbox[0] for l in long if 0.35 * width <= l.bbox[0] <= 0.65 * width])
              if len(c) >= MIN_COLUMN_LINES]
    start, n_right = (starts[0][0], len(starts[0])) if starts else (0.0, 0)
    # ... and the left column ends at the rightmost x where several lines end (an indented abstract ends earlier)
    ends = [c for c in _clusters([l.bbox[2] for l in long if start - 0.15 * width <= l.bbox[2] <= start - 3])
            if len(c) >= 2]
    edge, n_left = (ends[-1][-1], len(ends[-1])) if ends else (0.0, 0)
    need, max_across = MIN_COLUMN_LINES, 0.4
    if hint is not None and prefer_hint:
        # the page found peaks of its own (a wide table or figure with a gap near the middle) while the
        # document's gutter shows in column text on at least one side: the document's gutter wins
        edge, start = hint
        n_left = sum(1 for l in long if edge - 3 <= l.bbox[2] <= edge + 1.5)
        n_right = sum(1 for l in long if abs(l.bbox[0] - start) <= 1.5)
        if max(n_left, n_right) < MIN_COLUMN_LINES:
            return None
        n_left = n_right = need = 1
        max_across = 0.5
    elif hint is not None and min(n_left, n_right) < need:
        # figure-heavy page of a two-column paper: a few lines at the document's gutter edges suffice
        edge, start = hint
        n_left = sum(1 for l in long if edge - 3 <= l.bbox[2] <= edge + 1.5)
        n_right = sum(1 for l in long if abs(l.bbox[0] - start) <= 1.5)
        need, max_across = 2, 0.5
    if hint is None and n_right >= MIN_COLUMN_LINES and n_left < need:
        # a ragged or centred left column beside justified text (a journal's cover page in the left column of a
        # landscape page, Philosophers' Imprint): no line ends at one x there, but nothing crosses into the right
        # column either
        left = [l for l in lines if l.horizontal and l.text.strip() and l.bbox[2] <= start - 6]
        if len(left) >= MIN_COLUMN_LINES and not any(
                l.horizontal and l.bbox[0] < start - 6 and l.bbox[2] > start + 2 for l in lines):
            edge, n_left = max(l.bbox[2] for l in left), need
    if min(n_left, n_right) < need:
        return None
    split = (edge + start) / 2
    # wrapped figures on a single-column page also make small peaks; column text must dominate the page
    across = sum(1 for l in long if l.bbox[0] < split - 2 and l.bbox[2] > split + 2)
    if across > max_across * len(long):
        return None
    return split, edge, start


def _row_major(blocks: list[Block]) -> list[Block]:
    """Top to bottom, and left to right among blocks that start on the same row (author grids, table rows)."""
    rows: list[list[Block]] = []
    for b in sorted(blocks, key=lambda b: (b.bbox[1], b.bbox[0])):
        if rows and b.bbox[1] < rows[-1][0].bbox[1] + 3:
            rows[-1].append(b)
        else:
            rows.append([b])
    return [b for row in rows for b in sorted(row, key=lambda b: b.bbox[0])]


def _rows(lines: list[Line]) -> list[list[Line]]:
    """Lines of one block grouped into visual rows: pieces on one baseline (a run-in heading and the text
    after it, a section number and its title) are one row."""
    rows: list[list[Line]] = []
    for l in sorted(lines, key=lambda l: (l.bbox[1], l.bbox[0])):
        if rows:
            last = rows[-1]
            y0, y1 = max(x.bbox[1] for x in last), min(x.bbox[3] for x in last)
            if min(y1, l.bbox[3]) - max(y0, l.bbox[1]) > 0.5 * min(y1 - y0, l.bbox[3] - l.bbox[1]):
                last.append(l)
                continue
        rows.append([l])
    return rows


def _split_by_side(block: Block, split: float) -> list[Block]:
    """A block whose lines each sit in one column is cut in two; one that really crosses stays whole."""
    left = [l for l in block.lines if l.bbox[2] <= split + 2]
    right = [l for l in block.lines if l.bbox[0] >= split - 2]
    if not left or not right or len(left) + len(right) != len(block.lines):
        return [block]
    return [Block(_bbox(left), left), Block(_bbox(right), right)]


def _reading_order(blocks: list[Block], width: float, hint: tuple[float, float] | None = None,
                   prefer_hint: bool = False) -> tuple[list[Block], tuple[float, float, float] | None]:
    """Order blocks for reading; returns (ordered blocks, (split, left edge, right edge) or None)."""
    margin = [b for b in blocks if b.margin]
    blocks = [b for b in blocks if not b.margin]
    gutter = find_gutter([l for b in blocks for l in b.lines], width, hint, prefer_hint)
    if gutter is None:
        for b in blocks:
            b.column = 0
        return _row_major(blocks) + margin, None
    split, left_edge, right_edge = gutter
    pieces = [p for b in blocks for p in _split_by_side(b, split)]
    for b in pieces:
        b.column = 1 if b.bbox[2] <= split + 2 else 2 if b.bbox[0] >= split - 2 else 0
    # The body zone runs from the first to the last line that fills a column; above it (title, authors,
    # wide tables) and below it (page footers) blocks are read row by row.
    col_w = max(left_edge - min(b.bbox[0] for b in pieces), 1.0)

    def columnar(b: Block, row: list[Line]) -> bool:  # a row of column text: fills most of its column
        x0, x1 = min(l.bbox[0] for l in row), max(l.bbox[2] for l in row)
        touches = b.column == 1 and x1 >= left_edge - 3 or b.column == 2 and x0 <= right_edge + 3
        return x1 - x0 >= 0.75 * col_w or (touches and x1 - x0 >= 0.5 * col_w)

    rows = {id(b): _rows(b.lines) for b in pieces}
    body = [l for b in pieces if b.column for row in rows[id(b)] if columnar(b, row) for l in row]
    if not body:
        return _row_major(pieces) + margin, gutter
    in_body = {id(b) for b in pieces if b.column and any(columnar(b, row) for row in rows[id(b)])}
    top, bottom = min(l.bbox[1] for l in body), max(l.bbox[3] for l in body)
    header = {id(b) for b in pieces if b.bbox[3] <= top + 2}
    # column-wide blocks (tables, figures set in one column) under the last block across the gutter are
    # column content too; narrower ones (author cells of a title block) stay in the row-by-row header
    floor = max((b.bbox[3] for b in pieces if id(b) in header and b.column == 0), default=0.0)
    for b in pieces:
        if id(b) in header and b.column and b.bbox[1] >= floor and b.bbox[2] - b.bbox[0] >= 0.7 * col_w:
            header.discard(id(b))
    # a one-row heading ("Abstract", "1 Introduction") right above column text belongs to that column
    for b in pieces:
        if id(b) in header and b.column and len(rows[id(b)]) == 1:
            below = [p for p in pieces if p.column == b.column and p.bbox[1] >= b.bbox[3] - 1 and p is not b]
            nearest = min(below, key=lambda p: p.bbox[1], default=None)
            if nearest is not None and id(nearest) in in_body and nearest.bbox[1] - b.bbox[3] <= 25:
                header.discard(id(b))
    # text set in one column right above that column's content (figure labels over their caption, a
    # figure under the title block) is column content too: follow such blocks upwards while they touch.
    # Bottom-up, so every block a candidate could attach to (one starting lower) is already decided.
    for b in sorted(pieces, key=lambda b: -b.bbox[1]):
        if id(b) not in header or not b.column or b.bbox[1] < floor:
            continue
        if any(p.column == b.column and id(p) not in header and p.bbox[1] >= b.bbox[1]
               and p.bbox[1] - b.bbox[3] <= 10 for p in pieces if p is not b):
            header.discard(id(b))
    footer = {id(b) for b in pieces if b.bbox[1] >= bottom - 2 and id(b) not in header}
    middle = [b for b in pieces if id(b) not in header and id(b) not in footer]
    ordered = _row_major([b for b in pieces if id(b) in header])
    band: list[Block] = []
    for b in sorted(middle, key=lambda b: (b.bbox[1], b.bbox[0])):
        if b.column == 0:  # a block across the gutter closes the band above it
            ordered += sorted(band, key=lambda x: (x.column, x.bbox[1], x.bbox[0]))
            band = []
            ordered.append(b)
        else:
            band.append(b)
    ordered += sorted(band, key=lambda x: (x.column, x.bbox[1], x.bbox[0]))
    return ordered + _row_major([b for b in pieces if id(b) in footer]) + margin, gutter


# MuPDF marks each glyph as filled and/or stroked; text drawn in render mode 3 (neither: the LaTeX source some
# tools hide behind equations, OCR layers over a scan) is invisible and is dropped from every view.
INK = 16 | 32  # FZ_STEXT_FILLED | FZ_STEXT_STROKED


def _invisible_only(raw: dict) -> bool:
    """True when every glyph of the page is invisible: a scanned page with an OCR layer, whose hidden text is
    the only text there is (kept, or the page would have no text at all)."""
    seen = False
    for b in raw["blocks"]:
        for ln in b.get("lines", ()):
            for s in ln["spans"]:
                if s["text"].strip():
                    if s.get("char_flags", INK) & INK:
                        return False
                    seen = True
    return seen


def _recover_glyphs(page: pymupdf.Page, raw: dict, flags: int) -> None:
    """U+FFFD of TeX's math extension fonts recovered from their character codes (_glyphs.py), in place; only pages
    that have such glyphs are read a second time. Extension spans that came out as their codes are decoded."""
    for b in raw["blocks"]:
        for ln in b.get("lines", ()):
            for s in ln["spans"]:
                if raw_codes(s["font"], s["text"]):
                    s["text"] = decode_codes(s["text"])
    if not any(needs_recovery(s["font"], s["text"]) for b in raw["blocks"] for ln in b.get("lines", ())
               for s in ln["spans"]):
        return
    coded = page.get_text("dict", flags=flags | pymupdf.TEXT_CID_FOR_UNKNOWN_UNICODE)
    for b, cb in zip(raw["blocks"], coded["blocks"]):
        for ln, cln in zip(b.get("lines", ()), cb.get("lines", ())):
            for s, cs in zip(ln["spans"], cln["spans"]):
                if needs_recovery(s["font"], s["text"]):
                    s["text"] = recover(s["text"], cs["text"])


# TeX fonts without a ToUnicode map (Type 3 bitmap fonts, which pdfTeX makes when a font has no Type 1 version
# installed: T1-encoded text without cm-super, for one) come out as their encoding's codes. Letters are ASCII there,
# but the ligatures sit in control-character slots: T1 (Cork) has ff fi fl ffi ffl at 0x1B-0x1F, OT1 at 0x0B-0x0F,
# and OT1 puts œ ø Æ Œ Ø at 0x1B-0x1F. Python counts 0x1C-0x1F as whitespace, so left alone "E\x1ecient" became
# "E cient" or "Ecient" in every view. Measured on a cas-dc paper typeset here (tests/zoo: els_cas).
_T1_LIGATURES = dict(zip("\x1b\x1c\x1d\x1e\x1f", ("ff", "fi", "fl", "ffi", "ffl")))
_OT1_LIGATURES = dict(zip("\x0b\x0c\x0d\x0e\x0f", ("ff", "fi", "fl", "ffi", "ffl")))
_OT1_LETTERS = dict(zip("\x1b\x1c\x1d\x1e\x1f", ("œ", "ø", "Æ", "Œ", "Ø")))
_TEX_CODES = re.compile("[\x0b-\x0f\x1b-\x1f]")
_CODED_WORD = re.compile("[A-Za-z\x0b-\x0f\x1b-\x1f]+")
# T1 also puts its quotes and dashes in control slots (OT1 has accents there, OML Greek letters): decoded only in a
# font read as T1, or in one whose only codes are these and that uses them as T1 text does (a quote opened and
# closed, a dash between digits or letters: `\x10Title.\x11`, `617\x15630`).
_T1_PUNCTUATION = dict(zip("\x10\x11\x12\x13\x14\x15\x16", "“”„«»–—"))
_PUNCTUATION_CODES = re.compile("[\x10-\x16]")
_T1_PUNCTUATION_USE = re.compile("\x10[^\x10\x11]*[A-Za-z][^\x10\x11]*\x11|[A-Za-z0-9]\x15[A-Za-z0-9]")
_OTHER_CODES = re.compile("[\x0b-\x0f\x17-\x1f]")
_INSIDE_WORD = re.compile("[A-Za-z]+[\x0b-\x0f\x1b-\x1f][A-Za-z]+|(?<![A-Za-z])[\x0b-\x0f\x1b-\x1f][a-z]{2,}")
_TEXT_WORDS = re.compile("[A-Za-z]{3,}")


def _read(word: str, ot1: bool) -> str:
    table = {**_OT1_LIGATURES, **_OT1_LETTERS} if ot1 else _T1_LIGATURES
    return "".join(table.get(c, c) for c in word)


def _tex_codes(raw: dict) -> None:
    """TeX encoding codes inside words decoded in place, per font: a font is T1 or OT1 throughout, and the reading
    under which more of its coded words are English words wins (T1 on a tie: ligatures are far more common in
    English text than œ or ø, and T1 is what LaTeX documents select). A font none of whose coded words reads as an
    English word either way is left alone (a maths font: OML has Greek letters in those slots), as is a code outside
    any word. A font read as T1 also gets its quotes and dashes (`_T1_PUNCTUATION`)."""
    coded: dict[str, list[dict]] = {}
    for b in raw["blocks"]:
        for ln in b.get("lines", ()):
            for s in ln["spans"]:
                if _TEX_CODES.search(s["text"]) or _PUNCTUATION_CODES.search(s["text"]):
                    coded.setdefault(s["font"], []).append(s)
    if not coded:
        return
    from pipeline.parse.quality import word_list

    known = word_list()
    decided: list[bool] = []  # the page's fonts' readings (ot1?), for a font whose own words decide nothing
    undecided: list[list[dict]] = []
    for spans in coded.values():
        words = [w for s in spans for w in _CODED_WORD.findall(s["text"]) if _TEX_CODES.search(w)]
        votes = [sum(_read(w, ot1).lower() in known for w in words) for ot1 in (False, True)]
        if max(votes):
            ot1 = votes[1] > votes[0]
            decided.append(ot1)
            for s in spans:
                s["text"] = _CODED_WORD.sub(lambda m: _read(m[0], ot1) if re.search("[A-Za-z]", m[0]) else m[0], s["text"])
            t1 = not ot1
        else:  # no ligature says which encoding: T1 punctuation only where it is used as such, and nothing else coded
            undecided.append(spans)
            t1 = (any(_T1_PUNCTUATION_USE.search(s["text"]) for s in spans)
                  and not any(_OTHER_CODES.search(s["text"]) for s in spans))
        if t1:
            for s in spans:
                s["text"] = _PUNCTUATION_CODES.sub(lambda m: _T1_PUNCTUATION[m[0]], s["text"])
    if decided and undecided:
        # a title font whose one coded word is a name (`shape\x1cles`, `a\x1by`: a T1 title over T1 text): the
        # page's text fonts say the encoding, for codes inside or opening a word, in a font that sets words (one of
        # three letters or more: a maths font's Greek letters in those slots sit among single letters and symbols)
        ot1 = decided.count(True) > decided.count(False)
        wordy = {s["font"] for b in raw["blocks"] for ln in b.get("lines", ()) for s in ln["spans"]
                 if _TEXT_WORDS.search(s["text"])}
        for spans in undecided:
            if spans[0]["font"] not in wordy:
                continue
            for s in spans:
                s["text"] = _INSIDE_WORD.sub(lambda m: _read(m[0], ot1), s["text"])
                if not ot1 and _T1_PUNCTUATION_USE.search(s["text"]):  # and its quotes and dashes (`478\x15493`)
                    s["text"] = _PUNCTUATION_CODES.sub(lambda m: _T1_PUNCTUATION[m[0]], s["text"])


def text_dict(page: pymupdf.Page) -> dict:
    """The page's text layer as MuPDF extracts it, math-extension glyphs recovered, TeX ligature codes decoded."""
    flags = pymupdf.TEXT_PRESERVE_WHITESPACE | pymupdf.TEXT_MEDIABOX_CLIP
    raw = page.get_text("dict", flags=flags)
    _tight_extension_boxes(page, raw, flags)
    _recover_glyphs(page, raw, flags)
    _tex_codes(raw)
    return raw


def _tight_extension_boxes(page: pymupdf.Page, raw: dict, flags: int) -> None:
    """Spans of maths extension fonts (CMEX and its kin: big delimiters, big operators, wide accents) boxed by their
    ink, and their lines' boxes made again from their spans; in place. MuPDF boxes a glyph by its font's whole height,
    and an extension font is very tall: a JMLR display's bars `|...|` boxed 96-150 pt for ink at 104-124, a wide hat
    106-146 for ink at 106-108, so a display seemed to share its band with the paragraph line under it and was read
    as inline maths. One more extraction with TEXT_ACCURATE_BBOXES (ink boxes), only on a page that sets such glyphs,
    and only those spans take its boxes: every other rule keeps MuPDF's usual line geometry."""
    wanted = [(i, j, k) for i, b in enumerate(raw["blocks"]) if b.get("type") == 0
              for j, ln in enumerate(b["lines"]) for k, sp in enumerate(ln["spans"])
              if sp["text"].strip() and EXTENSION_FONT.match(sp["font"].split("+")[-1])]
    if not wanted:
        return
    tight = page.get_text("dict", flags=flags | pymupdf.TEXT_ACCURATE_BBOXES)["blocks"]
    for i, j, k in wanted:
        try:
            span = tight[i]["lines"][j]["spans"][k]
        except (IndexError, KeyError):
            return  # the two extractions do not line up: keep MuPDF's boxes
        ln = raw["blocks"][i]["lines"][j]
        if span["font"] != ln["spans"][k]["font"] or span["text"] != ln["spans"][k]["text"]:
            return
        x0, y0, x1, y1 = span["bbox"]
        if x1 > x0 and y1 > y0:
            ln["spans"][k]["bbox"] = (x0, y0, x1, y1)
            boxes = [sp["bbox"] for sp in ln["spans"] if sp["text"].strip()]
            ln["bbox"] = (min(b[0] for b in boxes), min(b[1] for b in boxes), max(b[2] for b in boxes),
                          max(b[3] for b in boxes))


_LINE_NUMBER = re.compile(r"\d{1,4}")
NUMBER_COLUMN_TOL = 6.0  # points: the numbers' outer edges stand in one column


def _raw_lines(raw: dict) -> list[tuple[tuple[float, float, float, float], str]]:
    return [(tuple(ln["bbox"]), "".join(s["text"] for s in ln["spans"]).strip())
            for b in raw["blocks"] if b.get("type") == 0 for ln in b["lines"] if abs(ln["dir"][0]) > 0.9]


def number_columns(raw: dict) -> list[tuple[int, float]]:
    """Margin columns of line numbers on one page, as (side, edge): side 0 left of the text (edge: the numbers'
    right end), 1 right of it (edge: their left end). A column is at least 5 bare integers left of every other
    line's start (or right of every other line's end), their edges within NUMBER_COLUMN_TOL, counting up down the
    page in steps of 1-10 (lineno in review manuscripts and preprints, NeurIPS/ICLR submissions, ACL's review
    ruler; a figure's axis ticks count down, and sit inside the text width)."""
    lines = [(b, t) for b, t in _raw_lines(raw) if t]
    bare = [(b, t) for b, t in lines if _LINE_NUMBER.fullmatch(t)]
    text = [b for b, t in lines if not _LINE_NUMBER.fullmatch(t)]
    if len(bare) < 5 or not text:
        return []
    left, right = min(b[0] for b in text), max(b[2] for b in text)
    found = []
    for side in (0, 1):
        column = [(b, t) for b, t in bare if (b[2] <= left - 1 if side == 0 else b[0] >= right + 1)]
        if len(column) < 5:
            continue
        edges = sorted(b[2 - 2 * side] for b, _ in column)
        at = edges[len(edges) // 2]
        column = sorted(((b, t) for b, t in column if abs(b[2 - 2 * side] - at) <= NUMBER_COLUMN_TOL),
                        key=lambda c: c[0][1])
        steps = [int(b[1]) - int(a[1]) for a, b in zip(column, column[1:])]
        if len(column) >= 5 and sum(1 <= d <= 10 for d in steps) >= 0.8 * len(steps):
            found.append((side, at))
    return found


def document_number_columns(raws: list[dict]) -> list[tuple[int, float]]:
    """The line-number columns of a document: a page's column counts where at least 30 % of the pages (at least 2,
    or the only page) show one on the same side within NUMBER_COLUMN_TOL; a table of row numbers on one page does
    not."""
    per_page = [number_columns(raw) for raw in raws]
    need = 1 if len(raws) == 1 else max(2, math.ceil(0.3 * len(raws)))
    found: list[tuple[int, float]] = []
    for cols in per_page:
        for side, at in cols:
            support = sum(any(s == side and abs(a - at) <= NUMBER_COLUMN_TOL for s, a in other) for other in per_page)
            if support >= need and not any(s == side and abs(a - at) <= NUMBER_COLUMN_TOL for s, a in found):
                found.append((side, at))
    return found


def _is_line_number(line: Line, columns: list[tuple[int, float]], left: float, right: float) -> bool:
    if not (line.horizontal and _LINE_NUMBER.fullmatch(line.text)):
        return False
    return any((line.bbox[2] <= left - 1 and abs(line.bbox[2] - at) <= NUMBER_COLUMN_TOL) if side == 0
               else (line.bbox[0] >= right + 1 and abs(line.bbox[0] - at) <= NUMBER_COLUMN_TOL)
               for side, at in columns)


def analyze_page(page: pymupdf.Page, raw: dict | None = None, ocr: str | None = None,
                 number_columns_: list[tuple[int, float]] | None = None) -> PageAnalysis:
    """`raw`: the page's text in `get_text("dict")` shape (default: its text layer; OCR'd lines for a page whose
    layer cannot be trusted, `ocr` saying why). `number_columns_`: the document's margin columns of line numbers
    (`document_number_columns`; default: this page's own), whose numbers are in no view."""
    raw = text_dict(page) if raw is None else raw
    columns = number_columns(raw) if number_columns_ is None else number_columns_
    keep_invisible = _invisible_only(raw)
    width = page.rect.width
    blocks: list[Block] = []
    parsed: list[tuple[int, list[Line]]] = []
    for bno, b in enumerate(raw["blocks"]):
        if b.get("type") != 0:
            continue
        block_lines = []
        for ln in b["lines"]:
            spans = [Span(s["text"], tuple(s["bbox"]), s["size"], s["font"], s["flags"]) for s in ln["spans"]
                     if keep_invisible or s.get("char_flags", INK) & INK]
            line = Line(tuple(ln["bbox"]), spans, bno, tuple(ln["dir"]))
            if line.text:
                block_lines.append(line)
        parsed.append((bno, block_lines))
    if columns:
        text = [l for _, ls in parsed for l in ls if l.horizontal and not _LINE_NUMBER.fullmatch(l.text)]
        left, right = min((l.bbox[0] for l in text), default=0.0), max((l.bbox[2] for l in text), default=width)
    for bno, block_lines in parsed:
        lines, stamp = [], []
        for line in block_lines:
            if columns and _is_line_number(line, columns, left, right):
                continue  # a margin column of line numbers (a manuscript under review): in no view
            in_margin = line.bbox[2] < 0.12 * width or line.bbox[0] > 0.88 * width
            (stamp if not line.horizontal and in_margin else lines).append(line)
        if lines:
            blocks.append(Block(_bbox(lines), lines))
        if stamp:
            blocks.append(Block(_bbox(stamp), stamp, margin=True))
    ordered, gutter = _reading_order(blocks, width)
    return PageAnalysis(page=page, number=page.number + 1, blocks=ordered, gutter=gutter and gutter[0],
                        _edges=gutter and gutter[1:], _raw=blocks, ocr=ocr)


def line_spacing(pages: list[PageAnalysis], body_size: float) -> float:
    """How much looser than single spacing the paper sets its body lines: median baseline pitch of body-size lines
    over about 1.25 times their size (1.0 for ordinary typesetting, ~1.2 at one and a half spacing, ~1.6 double).
    Manuscript formats (economics and medical journals, theses, review copies) space every line that way, the
    title's included, so the gap that still continues a title grows with it."""
    pitches = []
    for page in pages[:6]:
        body = sorted((l for l in page.lines if l.horizontal and abs(l.max_size - body_size) < 0.6),
                      key=lambda l: l.bbox[1])
        for i, line in enumerate(body):
            for below in body[i + 1:i + 8]:
                step = below.bbox[1] - line.bbox[1]
                if step > 3 * body_size:
                    break
                if step > 0.8 * body_size and below.bbox[0] < line.bbox[2] and below.bbox[2] > line.bbox[0]:
                    pitches.append(step)
                    break
    if len(pitches) < 10:
        return 1.0
    pitches.sort()
    return min(2.0, max(1.0, pitches[len(pitches) // 2] / (1.25 * body_size)))


@dataclass
class DocumentAnalysis:
    doc: pymupdf.Document
    pages: list[PageAnalysis]
    ocr: OCROptions | None = None  # the parse's OCR options (raster tables are read with them); None: OCR off

    @cached_property
    def line_spacing(self) -> float:
        """How loosely the body lines are set against single spacing (`line_spacing`): 1.0 for ordinary papers."""
        return line_spacing(self.pages, self.body_size)

    @cached_property
    def body_size(self) -> float:
        """Most common font size by characters: the body text size."""
        counts: Counter[float] = Counter()
        for p in self.pages:
            for line in p.lines:
                counts[line.size] += len(line.text)
        return counts.most_common(1)[0][0] if counts else 10.0


def analyze_document(doc: pymupdf.Document, ocr: OCROptions | None = None) -> DocumentAnalysis:
    """Every page analysed; pages whose text layer cannot be trusted are read by OCR first (`ocr.enabled`)."""
    pages = _analyze_pages(doc, ocr or OCROptions())
    # Pages full of figures may show too little column text to find the gutter on their own; when most
    # pages agree on one, retry the others with it.
    found = [p._edges for p in pages if p._edges]
    if found:
        support = [sum(1 for f in found if abs(f[0] - e[0]) <= 2 and abs(f[1] - e[1]) <= 2) for e in found]
        hint = found[support.index(max(support))]
        if max(support) >= max(2, len(pages) / 4):
            for p in pages:
                if p.gutter is None:
                    ordered, gutter = _reading_order(p._raw or p.blocks, p.width, hint)
                elif abs(p._edges[0] - hint[0]) > 2 or abs(p._edges[1] - hint[1]) > 2:
                    # a gutter of the page's own that the document disagrees with (peaks from a wide table
                    # or figure); the document's one is taken where the page's column text lines up with it
                    lines = [l for b in p._raw if not b.margin for l in b.lines]
                    if find_gutter(lines, p.width, hint, prefer_hint=True) is None:
                        continue
                    ordered, gutter = _reading_order(p._raw, p.width, hint, prefer_hint=True)
                else:
                    continue
                if gutter is not None:
                    p.blocks, p.gutter, p._edges = ordered, gutter[0], gutter[1:]
    if pages:
        _mark_sidebar(pages[0])
    mark_running(pages)
    return DocumentAnalysis(doc=doc, pages=pages, ocr=ocr or OCROptions())


def _mark_sidebar(p: PageAnalysis) -> None:
    """A first page's left sidebar (PeerJ's Submitted / Accepted / Academic editor / Copyright column, MDPI's
    and Frontiers' article history beside an indented text column): blocks of small print that end left of where
    the page's body lines start, when those start past a fifth of the page width, are read after the page body
    as margin text (in the page text, not in prose, sections or chunks), instead of row by row beside it. Only
    when everything left of the body is such narrow small print."""
    sizes: Counter[float] = Counter()
    for line in p.lines:
        sizes[line.size] += len(line.text)
    if not sizes:
        return
    body = sizes.most_common(1)[0][0]
    main = sorted(l.bbox[0] for l in p.lines if l.horizontal and abs(l.size - body) < 0.6)
    if len(main) < 10:
        return
    left = main[len(main) // 10]
    if left < 0.2 * p.width:
        return
    side = [b for b in p.blocks if not b.margin and b.bbox[2] < left - 2]
    # a sidebar is narrow: anything left of the body reaching past 30 % of the width is a column of the page
    # (a two-column first page whose left column holds the abstract and footnotes in smaller print)
    if not side or any(b.bbox[2] >= 0.3 * p.width or any(l.size >= body - 0.5 for l in b.lines) for b in side):
        return
    for b in side:
        b.margin = True
    p.blocks = [b for b in p.blocks if not b.margin] + [b for b in p.blocks if b.margin]


def _analyze_pages(doc: pymupdf.Document, options: OCROptions) -> list[PageAnalysis]:
    raws = [text_dict(p) for p in doc]
    verdicts = [page_verdict(p, raw) if options.enabled else None for p, raw in zip(doc, raws)]
    todo = [i for i, v in enumerate(verdicts) if v]
    if todo:
        report = parse_progress.current()
        on_page = (lambda done, total: report(doc.name or "(unnamed)", done, total)) if report else None
        read = ocr_pages([doc[i] for i in todo], dpi=options.dpi, workers=options.workers,
                         engine=TesseractEngine(options.language), on_page=on_page)
        for i, blocks in zip(todo, read):
            raws[i] = as_text_dict(blocks)
    mark_type3_styles(doc, raws)
    columns = document_number_columns(raws)
    return [analyze_page(p, raw, verdict, columns) for p, raw, verdict in zip(doc, raws, verdicts)]
