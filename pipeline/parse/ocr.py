"""OCR for pages whose text layer cannot be trusted: when a page needs it (a measured rule) and the engine that reads it.

When (`page_verdict`, per page, from the text layer PyMuPDF already extracted; no extra MuPDF call on a page
that has ordinary visible text):

- `no_text`: under `MIN_CHARS` characters of text while raster images cover at least `MIN_IMAGE_SHARE` of the
  page (a scanned page, or a page printed as one picture). A page with neither text nor images is left alone.
- `ocr_layer`: every glyph of the page is invisible (render mode 3) and images cover `MIN_IMAGE_SHARE` of it: a
  scan under someone else's OCR layer, whose quality nobody measured (the hidden IEEE scan of issue 30 reads its
  title's "2Q" as "X3" there, too few wrong words for any dictionary rule). Our OCR replaces it.
- `unmapped`: at least `MAX_UNMAPPED` of the visible characters are U+FFFD or private-use code points (fonts
  without a usable ToUnicode map), or symbols a wrong map gives for letters (dingbats: see `_UNMAPPED`), after
  the PyMuPDF backend's own recovery of TeX's math-extension glyphs.
- `unknown_words` (also: at least `MIN_RUNS` runs of 3+ letters in any case, under `MIN_KNOWN_RUNS` of them known
  and the unknown ones as poor in vowels: a Type 3 font whose codes are no letters, `46587:9<;>=?7A@CBC7ADFEHG`,
  has almost no lower-case words to count; its pages run 0.00-0.13 known with 0.10-0.15 of the unknown runs'
  letters vowels, while the 4,080 born-digital pages with 50 runs or more (corpora, zoo, matrices, 144 R package
  vignettes) run 0.15 known and up, and every one under 0.35 known has 0.38 vowels or more: German, Latin names,
  code identifiers):
  at least `MIN_WORDS` words of 3+ letters and at least `MAX_UNKNOWN` of them unknown to the
  English word list the normaliser already uses (pyspellchecker's, `quality.word_list`), and those unknown words
  with under `MAX_VOWELS` of their letters vowels (a, e, i, o, u, y): text whose glyphs map to the wrong letters. The
  vowel bound keeps a page in another language (or typeset filler such as lorem ipsum) from counting as garbled:
  its words are unknown to an English list but spelled like a language, about 0.42 of their letters vowels (Latin
  filler, measured on the test suite's typeset papers; French, German, Spanish and Dutch text runs 0.37-0.48),
  while a letter substitution leaves about 6/26 = 0.23 by chance (0.17 measured on corpus pages drawn through the
  substitution the tests use). MAX_VOWELS = 0.30 sits between.

Thresholds, measured by `bench/ocr.py` over every born-digital page of corpus, corpus2 and corpus3 (964 pages):
the largest unmapped share is 0.031 (a supplement's maths), the largest unknown share of lower-case words 0.594 (an
eLife table of Latin species names; then economics reference lists, 0.47-0.55); deliberately wrong layers (a
corpus page's words drawn through a letter substitution, as a font with a wrong ToUnicode map reads) start at 0.854.
MAX_UNKNOWN = 0.70 sits between the two; MAX_UNMAPPED = 0.30 is ten times the born-digital maximum. On those 964
pages no page is flagged; of 80 deliberately wrong pages (20 each: image only, image under a shuffled invisible
layer, image under a true invisible layer with one word in ten garbled, visible substituted letters) all 80 are.

Engine: Tesseract 5 (Debian's `tesseract-ocr`, English data), run as its command-line program on a page rendered
by PyMuPDF, hOCR out (words, lines, paragraphs with boxes and Tesseract's own line height `x_size`, which gives
the font size the views need). Compared on this machine (4 corpus pages rasterized at 150 and 300 dpi, CER against
their own text layer, each OCR word matched to the text-layer line under it; load 2.8-3.3 on 2 shared cores):
Tesseract 5.3 CLI 1.0 % / 1.0 % CER at 0.33 / 0.25 pages/s; RapidOCR 1.4.4 (PP-OCR ONNX models inside its PyPI
wheel) 4.5 % / 3.0 % CER (maths-heavy iclr2014_vae p2: 11.5 % / 7.3 %) at 0.06 / 0.06 pages/s, and it would pull
opencv-python into the install; PyMuPDF's own `get_textpage_ocr` (Tesseract through MuPDF's OCR device) read some
words twice (7-8 % CER) and took 3-4x the CLI's time. So Tesseract's CLI: one Debian package, no Python dependency,
its English data in the package. Without it a page that needs OCR fails its file with `TESSERACT_HINT` in the
error (never silently).

Pages are OCR'd in parallel (`OCROptions.workers`, default the CPU count: Tesseract is a separate process and
single-threaded here, OMP_THREAD_LIMIT=1, so threads only wait on it).
"""
from __future__ import annotations

import os
import re
import shutil
import subprocess
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor, as_completed
from dataclasses import dataclass, field
from html.parser import HTMLParser
from statistics import median

from pipeline.parse.errors import ParseError

MIN_CHARS = 20  # fewer non-space characters than this: no text layer to speak of
MIN_IMAGE_SHARE = 0.3  # images must cover this share of the page before OCR has anything to read
MAX_UNMAPPED = 0.30  # share of U+FFFD / private-use characters that makes a layer not text
MIN_WORDS = 20  # fewer lower-case words than this say nothing about a dictionary share
MAX_UNKNOWN = 0.70  # share of lower-case words the word list does not know that makes a layer not text
MAX_VOWELS = 0.30  # ... when so few of those unknown words' letters are vowels (a language has more: see above)
MIN_RUNS = 50  # letter runs (any case) a page needs before their known share says anything
MIN_KNOWN_RUNS = 0.20  # known share of letter runs under which a layer is a font's codes, not words (see above)

OCR_FONT = "OCR"  # the font name of every OCR'd span: the views loosen their typography rules for it
MIN_LIGHT_SHARE = 0.5  # a region less light than this is a picture, not a table printed as one (light_share)
MIN_TABLE_CONFIDENCE = 60  # median Tesseract word confidence below which a raster table's reading is dropped
TESSERACT_HINT = "install Tesseract OCR: `apt-get install -y tesseract-ocr` (Debian/Ubuntu; English data included)"
# Tesseract's x_size (a line's height in pixels, ascenders to descenders) is about 0.9 of the font size in points:
# measured on corpus pages, title 14.3 pt -> x_size 13.3 pt, body 12.0 pt -> 10.8 pt
SIZE_PER_XSIZE = 1.1

# lower-case words of 3+ letters: names, acronyms and identifiers (capitalised) are what a word list does not know on
# an ordinary page; a layer whose glyphs map to the wrong letters garbles the lower-case words as much as the rest
_WORD = re.compile(r"(?<![A-Za-z])[a-z]{3,}(?![A-Za-z])")
INK = 16 | 32  # FZ_STEXT_FILLED | FZ_STEXT_STROKED (a glyph drawn in neither mode is invisible)


class OCRUnavailable(ParseError):
    """A page needs OCR and the OCR engine is not installed."""
    kind = "ocr_unavailable"


class OCRFailed(ParseError):
    kind = "ocr_failed"


# ---- when ---------------------------------------------------------------------------------------------------

@dataclass
class LayerStats:
    """What the detector looks at on one page's text layer."""
    chars: int = 0  # non-space characters, visible or not
    visible: int = 0  # non-space characters drawn visibly
    unmapped: int = 0  # visible U+FFFD / private-use characters
    words: int = 0  # lower-case words of 3+ letters in the visible text
    unknown: int = 0  # of those, not in the word list
    unknown_letters: int = 0  # letters of the unknown words
    unknown_vowels: int = 0  # of those, vowels
    runs: int = 0  # runs of 3+ letters in any case (`KA^_NPTP` has one: a layer of codes has few lower-case words)
    known_runs: int = 0  # of those, in the word list (lower-cased)
    odd_run_letters: int = 0  # letters of the unknown runs
    odd_run_vowels: int = 0  # of those, vowels

    @property
    def unknown_vowel_share(self) -> float:
        return self.unknown_vowels / self.unknown_letters if self.unknown_letters else 0.0

    @property
    def known_run_share(self) -> float:
        return self.known_runs / self.runs if self.runs else 1.0

    @property
    def odd_run_vowel_share(self) -> float:
        return self.odd_run_vowels / self.odd_run_letters if self.odd_run_letters else 0.0

    @property
    def unmapped_share(self) -> float:
        return self.unmapped / self.visible if self.visible else 0.0

    @property
    def unknown_share(self) -> float:
        return self.unknown / self.words if self.words else 0.0


_UNMAPPED = re.compile("[\ufffd\ue000-\uf8ff]")  # U+FFFD or private use: a glyph without its character
# the symbol blocks (enclosed alphanumerics, shapes, miscellaneous symbols, dingbats) that a wrong ToUnicode map
# sends letters to: Ghostscript maps dvips's code-named bitmap glyphs (`/a101` is the `e` at code 101) through
# Adobe's Zapf Dingbats names (`a101` is ❡), so a Sweave vignette reads `P❡♥❛❧✐③❡❞ ❧❡❛st sq✉❛r❡s`. Counted as
# unmapped only inside words (3+ characters, not one symbol repeated): R's pdf device draws scatterplot points as
# the Dingbats circle, and a plot's thousands of `●` (alone, or run together where points overlap) are no text
_SYMBOLS = re.compile("[\u2460-\u24ff\u25a0-\u27bf]")
_TOKEN = re.compile(r"\S{3,}")
_NOT_VOWEL = re.compile("[^aeiouy]")  # the vowels MAX_VOWELS counts
_RUN = re.compile(r"[A-Za-z]{3,}")
# typewriter faces, by name (code: listings, identifiers, a function's name in a heading)
CODE_FONT = re.compile(r"mono|courier|cmtt|^(?:[A-Z]{6}\+)?(?:lmtt|txtt|pcr|rtt|tt\d)|consol|inconsolata|typewriter", re.I)


def layer_stats(raw: dict) -> LayerStats:
    """Counts over a page's `get_text("dict")` (with `char_flags`). Every page of every paper passes here, so the
    counting is done by str and re methods rather than a Python loop over characters."""
    from pipeline.parse.quality import word_list

    known = word_list()
    stats = LayerStats()
    visible_text: list[str] = []
    code_text: list[str] = []
    for b in raw["blocks"]:
        for ln in b.get("lines", ()):
            for s in ln["spans"]:
                text = s["text"]
                n = len("".join(text.split()))  # characters other than white space
                if not n:
                    continue
                stats.chars += n
                if s.get("char_flags", INK) & INK:
                    stats.visible += n
                    stats.unmapped += len(_UNMAPPED.findall(text))
                    if _SYMBOLS.search(text):
                        stats.unmapped += sum(len(_SYMBOLS.findall(t)) for t in _TOKEN.findall(text)
                                              if len(set(t)) > 1 and _SYMBOLS.search(t))
                    (code_text if CODE_FONT.search(s.get("font", "")) else visible_text).append(text)
    # a code listing's identifiers (`hgu95av2CHRLOC`, R output in a vignette) are no words of a language: they count
    # only on a page set wholly in a typewriter face
    words = _WORD.findall(" ".join(visible_text or code_text))
    stats.words = len(words)
    unknown = [w for w in words if w not in known]
    stats.unknown = len(unknown)
    letters = "".join(unknown)
    stats.unknown_letters = len(letters)
    stats.unknown_vowels = len(letters) - len(_NOT_VOWEL.findall(letters))
    runs = _RUN.findall(" ".join(visible_text or code_text))
    odd = [w for w in runs if w.lower() not in known]
    stats.runs, stats.known_runs = len(runs), len(runs) - len(odd)
    letters = "".join(odd).lower()
    stats.odd_run_letters = len(letters)
    stats.odd_run_vowels = len(letters) - len(_NOT_VOWEL.findall(letters))
    return stats


def image_share(page) -> float:
    """Share of the page covered by raster images (overlaps counted once per image, capped at 1)."""
    area = abs(page.rect)
    if not area:
        return 0.0
    covered = 0.0
    for info in page.get_image_info():
        x0, y0, x1, y1 = info["bbox"]
        x0, y0 = max(x0, page.rect.x0), max(y0, page.rect.y0)
        x1, y1 = min(x1, page.rect.x1), min(y1, page.rect.y1)
        if x1 > x0 and y1 > y0:
            covered += (x1 - x0) * (y1 - y0)
    return min(covered / area, 1.0)


def page_verdict(page, raw: dict) -> str | None:
    """Why this page must be OCR'd (`no_text`, `ocr_layer`, `unmapped`, `unknown_words`), or None. The image
    coverage (a second MuPDF call) is asked only of pages with no visible text."""
    stats = layer_stats(raw)
    if stats.visible < MIN_CHARS:
        if image_share(page) < MIN_IMAGE_SHARE:
            return None
        return "ocr_layer" if stats.chars >= MIN_CHARS else "no_text"
    if stats.unmapped_share >= MAX_UNMAPPED:
        return "unmapped"
    if stats.words >= MIN_WORDS and stats.unknown_share >= MAX_UNKNOWN and stats.unknown_vowel_share < MAX_VOWELS:
        return "unknown_words"
    if stats.runs >= MIN_RUNS and stats.known_run_share < MIN_KNOWN_RUNS and stats.odd_run_vowel_share < MAX_VOWELS:
        return "unknown_words"  # hardly a word at all, in any case: a font's own codes (`IFJHKMLMNPORQ?SMTVU`)
    return None


# ---- how ----------------------------------------------------------------------------------------------------

@dataclass
class OCRLine:
    text: str
    bbox: tuple[float, float, float, float]  # points, top-left origin
    size: float  # font size estimate in points
    vertical: bool = False  # read bottom-up (a rotated margin stamp)
    confidence: float = 0.0  # mean word confidence, 0-100
    bold: bool = False  # strokes clearly thicker than the page's body text (`mark_bold`)


@dataclass
class OCRBlock:
    bbox: tuple[float, float, float, float]
    lines: list[OCRLine] = field(default_factory=list)


def _title_fields(title: str) -> dict[str, list[str]]:
    out = {}
    for part in title.split(";"):
        key, _, rest = part.strip().partition(" ")
        out[key] = rest.split()
    return out


class _HOCR(HTMLParser):
    """Tesseract's hOCR: paragraphs (`ocr_par`) -> lines (`ocr_line`, `ocr_header`, `ocr_caption`,
    `ocr_textfloat`) -> words (`ocrx_word`), each with a `bbox` in pixels."""
    LINE_CLASSES = {"ocr_line", "ocr_header", "ocr_caption", "ocr_textfloat"}

    def __init__(self, scale: float):
        super().__init__()
        self.scale = scale
        self.blocks: list[OCRBlock] = []
        self._line: dict | None = None
        self._word: dict | None = None
        self._stack: list[str | None] = []
        # every word with its box, as PyMuPDF's get_text("words") gives them: (x0, y0, x1, y1, text, block, line, n)
        self.words: list[tuple] = []
        self.confidences: list[float] = []  # Tesseract's x_wconf of each of `words`
        self.line_count = 0
        self._word_in_line = 0

    def _box(self, f: dict[str, list[str]]) -> tuple[float, float, float, float]:
        return tuple(float(v) * self.scale for v in f["bbox"][:4])  # type: ignore[return-value]

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        cls = a.get("class")
        self._stack.append(cls)
        fields = _title_fields(a.get("title", ""))
        if cls == "ocr_par":
            self.blocks.append(OCRBlock(self._box(fields)))
        elif cls in self.LINE_CLASSES:
            if not self.blocks:
                self.blocks.append(OCRBlock(self._box(fields)))
            self._line = {"bbox": self._box(fields), "words": [], "conf": [],
                          "x_size": float(fields.get("x_size", ["0"])[0]) * self.scale,
                          "angle": float(fields.get("textangle", ["0"])[0]),
                          "baseline": [float(v) for v in fields.get("baseline", [])[:2]]}
        elif cls == "ocrx_word" and self._line is not None:
            self._word = {"text": "", "conf": float(fields.get("x_wconf", ["0"])[0]), "bbox": self._box(fields)}
            self.line_count += self._word_in_line == 0

    def handle_data(self, data):
        if self._word is not None:
            self._word["text"] += data

    def handle_endtag(self, tag):
        cls = self._stack.pop() if self._stack else None
        if cls == "ocrx_word" and self._word is not None:
            if self._word["text"].strip():
                self._line["words"].append((self._word["text"].strip(), self._word["bbox"]))
                self._line["conf"].append(self._word["conf"])
                self.words.append((*self._word["bbox"], self._word["text"].strip(), len(self.blocks), self.line_count,
                                   self._word_in_line))
                self.confidences.append(self._word["conf"])
                self._word_in_line += 1
            self._word = None
        elif cls in self.LINE_CLASSES and self._line is not None:
            self._word_in_line = 0
            ln = self._line
            if any(ch.isalnum() for w, _ in ln["words"] for ch in w):  # not a row of specks (": : - . :")
                height = ln["bbox"][3] - ln["bbox"][1]
                size = round((ln["x_size"] or height) * SIZE_PER_XSIZE * 2) / 2
                vertical = abs(ln["angle"] - 90) < 1
                conf = sum(ln["conf"]) / len(ln["conf"])
                top, bottom = _font_box(ln, size, self.scale)
                for words in ([ln["words"]] if vertical else _pieces(ln["words"], size)):
                    box = ln["bbox"] if vertical else (words[0][1][0], top, words[-1][1][2], bottom)
                    self.blocks[-1].lines.append(OCRLine(fix_label(" ".join(w for w, _ in words)), box, size,
                                                         vertical=vertical, confidence=conf))
            self._line = None


# Tesseract often reads a reference label's square bracket as a round or curly one ("(11]", "{AGLP89]", "[Pel90}");
# the references view knows labels by their brackets. A line-initial label whose brackets disagree gets square ones.
_MIXED_LABEL = re.compile(r"^([\[({])(\d{1,3}|[A-Za-z][^\s\])}]{0,10})([\])}])(?=\s|$)")


def fix_label(text: str) -> str:
    m = _MIXED_LABEL.match(text)
    if not m or (m[1] + m[3]) in ("[]", "()", "{}") or "[" not in m[1] and "]" not in m[3]:
        return text
    return f"[{m[2]}]{text[m.end():]}"


# A text layer's line box is its font's box (ascender to descender: about 0.9 of the size above the baseline and
# 0.2 below, Times and Computer Modern alike), whatever letters the line holds; Tesseract's is the ink's. The
# paragraph and heading rules measure gaps between line boxes, so an OCR'd line gets the font's box from its baseline.
ASCENT, DESCENT = 0.9, 0.22


def _font_box(line: dict, size: float, scale: float) -> tuple[float, float]:
    x0, y0, x1, y1 = line["bbox"]
    if len(line["baseline"]) < 2 or abs(line["angle"]) > 1:
        return y0, y1
    slope, offset = line["baseline"]
    base = y1 + offset * scale + slope * (x1 - x0) / 2  # at the line's middle; hOCR's offset is from the bottom
    return base - ASCENT * size, base + DESCENT * size


# Tesseract sometimes reads across a column gutter or between table cells as one line; MuPDF starts a new line at
# such a gap, and the reading order and table rules expect that. A gap wider than this many font sizes cuts the line
# there: a word space is about a quarter of one, a justified line's widest about half, the quad after ACM's section
# numbers about one; a two-column gutter is 2-3 (ACM 24 pt at 9 pt type).
LINE_GAP = 1.8


def _pieces(words: list[tuple[str, tuple]], size: float) -> list[list[tuple[str, tuple]]]:
    out = [[words[0]]]
    for w in words[1:]:
        if w[1][0] - out[-1][-1][1][2] > LINE_GAP * size:
            out.append([w])
        else:
            out[-1].append(w)
    return out


def parse_hocr(hocr: str, scale: float) -> list[OCRBlock]:
    """Blocks of lines from Tesseract's hOCR; `scale` turns pixels into points (72 / dpi)."""
    parser = _HOCR(scale)
    parser.feed(hocr)
    return [b for b in parser.blocks if b.lines]


class TesseractEngine:
    name = "tesseract"

    def __init__(self, language: str = "eng", binary: str | None = None):
        self.language = language
        self.binary = binary or shutil.which("tesseract")

    def check(self) -> None:
        if not self.binary:
            raise OCRUnavailable(f"this PDF has pages that need OCR and Tesseract is not installed; {TESSERACT_HINT}")

    def hocr(self, image: bytes, dpi: int, psm: int = 3) -> str:
        """Tesseract's hOCR for one image (PGM or PNG bytes rendered at `dpi`); `psm` 3 lays out a page, 6 reads one
        block."""
        self.check()
        env = {**os.environ, "OMP_THREAD_LIMIT": "1"}
        proc = subprocess.run([self.binary, "stdin", "stdout", "--dpi", str(dpi), "-l", self.language, "--psm", str(psm),
                               "hocr"], input=image, capture_output=True, env=env, timeout=300)
        if proc.returncode != 0:
            raise OCRFailed(f"tesseract exited {proc.returncode}: {proc.stderr.decode(errors='replace')[-300:]}")
        return proc.stdout.decode("utf-8", errors="replace")

    def read_image(self, image: bytes, dpi: int) -> list[OCRBlock]:
        """OCR one page image (PGM or PNG bytes rendered at `dpi`)."""
        return parse_hocr(self.hocr(image, dpi), 72.0 / dpi)


def light_share(page, region: tuple[float, float, float, float]) -> float:
    """Share of a region's pixels that are paper-light (grey > 200 at 50 dpi: a few milliseconds). A table printed
    as a picture is dark print on light paper, 0.72-0.90 on every raster table of corpus2/corpus3 and of the zoo's
    rasterized tables; a "table" of photographs or maps is mostly colour (0.05 for neurips2021_imle's grid of maps)."""
    import numpy as np
    import pymupdf

    pix = page.get_pixmap(dpi=50, clip=pymupdf.Rect(region), colorspace=pymupdf.csGRAY, annots=False)
    pixels = np.frombuffer(pix.samples, dtype=np.uint8)
    return float((pixels > 200).mean()) if pixels.size else 0.0


def region_image(page, region: tuple[float, float, float, float], dpi: int = 300) -> bytes | None:
    """A table region as Tesseract will read it (grey PGM at `dpi`); None for a region that is no printed table
    (photographs, maps, a grid of pictures: see light_share)."""
    import pymupdf

    if light_share(page, region) < MIN_LIGHT_SHARE:
        return None
    return page.get_pixmap(dpi=dpi, clip=pymupdf.Rect(region), colorspace=pymupdf.csGRAY, annots=False).tobytes("pnm")


def region_words(page, region: tuple[float, float, float, float], dpi: int = 300, language: str = "eng",
                 engine: TesseractEngine | None = None) -> list[tuple]:
    """The words OCR reads in one region of a page (a table printed as a picture), as PyMuPDF's get_text("words")
    tuples in page coordinates, so the table grid builder reads them as it reads a text layer's (see
    `read_region`)."""
    engine = engine or TesseractEngine(language)
    engine.check()
    image = region_image(page, region, dpi)
    return read_region(engine, image, region, dpi) if image else []


def read_region(engine: TesseractEngine, image: bytes, region: tuple[float, float, float, float], dpi: int
                ) -> list[tuple]:
    """The words of a region image from `region_image`. Tesseract reads the region as one uniform block (`--psm 6`):
    a table's rows come out as lines, its cells as runs of words apart. Thread-safe (the engine is a process), so a
    paper's raster tables are read side by side.

    Nothing (the table stays flagged and empty) when the median word confidence is under `MIN_TABLE_CONFIDENCE`: a
    table rasterized at low resolution reads as noise, and an agent is better told "picture, not read" than given
    invented cells. Measured with Tesseract 5.3 at 300 dpi: zoo tables rasterized at 200 dpi 95-96 (their cells
    right, TEDS 0.95+); corpus3's 1997 IEEE tables 96 (system parameters, right), 67 and 63 (numbers mostly right,
    some words garbled), 58 (mostly wrong); the 2006 IJECE tables 43-44 (noise)."""
    parser = _HOCR(72.0 / dpi)
    parser.feed(engine.hocr(image, dpi, psm=6))
    if not parser.words or median(parser.confidences) < MIN_TABLE_CONFIDENCE:
        return []
    x, y = region[0], region[1]
    return [(x0 + x, y0 + y, x1 + x, y1 + y, text, b, ln, n) for x0, y0, x1, y1, text, b, ln, n in parser.words
            if any(ch.isalnum() for ch in text)]


def render(page, dpi: int):
    """The page as Tesseract sees it: greyscale, at `dpi`, invisible text not drawn (MuPDF skips render mode 3)."""
    import pymupdf

    return page.get_pixmap(dpi=dpi, colorspace=pymupdf.csGRAY, annots=False)


# Bold is not something Tesseract 5 reports, and the heading rules lean on it. Stroke width does: the mean length of
# the dark runs along a line's pixel rows, over its font size. Measured against the text layer's fonts on corpus
# pages rendered at 150-300 dpi (emnlp2014, acl2020_bleurt, neurips2017; 37 bold and 678 regular lines), bold lines
# sit at 1.39-1.53x the page's median, regular ones at <= 1.26x in 99 % (the rest: lines whose label alone is bold)
BOLD_STROKE = 1.35


def stroke_width(dark) -> float:
    """Mean length of the dark runs along the pixel rows of a boolean image: a glyph's stroke width in pixels (also
    the Type 3 font weight measure, pipeline/parse/pymupdf/_type3.py)."""
    if not dark.size:
        return 0.0
    starts = int((dark[:, 1:] & ~dark[:, :-1]).sum() + dark[:, 0].sum())
    return float(dark.sum()) / starts if starts else 0.0


def _stroke(gray, box: tuple[float, float, float, float], scale: float) -> float:
    x0, y0, x1, y1 = (int(round(v / scale)) for v in box)
    return stroke_width(gray[max(y0, 0):y1, max(x0, 0):x1] < 140)


def mark_bold(blocks: list[OCRBlock], pix, dpi: int) -> None:
    """Set `OCRLine.bold` for lines whose strokes are BOLD_STROKE times thicker, per point of font size, than the
    page's median line (see above)."""
    import numpy as np

    gray = np.frombuffer(pix.samples, np.uint8).reshape(pix.h, pix.w, pix.n)[:, :, 0]
    scale = 72.0 / dpi
    lines = [ln for b in blocks for ln in b.lines if not ln.vertical and ln.size > 0]
    widths = [_stroke(gray, ln.bbox, scale) / ln.size for ln in lines]
    body = [w for w, ln in zip(widths, lines) if len(ln.text) >= 20 and w > 0]
    if len(body) < 3:
        return
    median = float(np.median(body))
    for w, ln in zip(widths, lines):
        ln.bold = w >= BOLD_STROKE * median


def ink(page) -> int:
    """Dark pixels of the page at 24 dpi (about a millisecond): how much text Tesseract will read there, to hand the
    heaviest pages out first."""
    import numpy as np
    import pymupdf

    pix = page.get_pixmap(dpi=24, colorspace=pymupdf.csGRAY, annots=False)
    return int((np.frombuffer(pix.samples, dtype=np.uint8) < 128).sum())


def ocr_pages(pages: list, dpi: int = 300, workers: int | None = None,
              engine: TesseractEngine | None = None, on_page: Callable[[int, int], None] | None = None
              ) -> list[list[OCRBlock]]:
    """OCR several pages: rendered here one at a time (MuPDF objects stay in this thread), read by the engine in
    parallel (separate processes). `on_page(done, total)` is called before the first page and as each page is read
    (seconds apart: the progress a scanned paper shows).

    Why streamed: Tesseract is the whole cost (about 4 s a page on one core), so the cores must never wait for
    anything else. A page is rendered and handed over while the others are read (rendering every page first left a
    core idle for 0.2 s a page at 300 dpi), as PGM (no PNG deflate here and no inflate in Tesseract: 0.15 s and 3 % of
    Tesseract's time a page), the pages with the most ink first (the longest jobs first, so the last page read is a
    short one and no core idles at the end), and only `workers + 1` images are held at once (a 300-page scan at
    300 dpi would hold 2.6 GB of pixels otherwise)."""
    engine = engine or TesseractEngine()
    engine.check()
    total = len(pages)
    if on_page:
        on_page(0, total)
    read: list[list[OCRBlock]] = [[] for _ in pages]
    if not pages:
        return read
    workers = max(1, min(workers or os.cpu_count() or 1, total))
    order = sorted(range(total), key=lambda i: -ink(pages[i])) if workers > 1 else list(range(total))

    def finish(i: int, blocks: list[OCRBlock], pix) -> None:
        mark_bold(blocks, pix, dpi)
        attach_labels(blocks)
        read[i] = blocks

    done = 0
    if workers == 1:
        for i in order:
            pix = render(pages[i], dpi)
            finish(i, engine.read_image(pix.tobytes("pnm"), dpi), pix)
            done += 1
            if on_page:
                on_page(done, total)
    else:
        with ThreadPoolExecutor(max_workers=workers) as pool:
            running: dict = {}
            queue = iter(order)
            while True:
                while len(running) <= workers:  # one page waiting beside the ones being read
                    i = next(queue, None)
                    if i is None:
                        break
                    pix = render(pages[i], dpi)
                    running[pool.submit(engine.read_image, pix.tobytes("pnm"), dpi)] = (i, pix)
                if not running:
                    break
                fut = next(as_completed(running))
                i, pix = running.pop(fut)
                finish(i, fut.result(), pix)
                done += 1
                if on_page:
                    on_page(done, total)
    snap_sizes([ln for blocks in read for b in blocks for ln in b.lines])
    return read


# A reference list's labels set in a hanging column ("[AKP90]   Baruch Awerbuch, ...") come out of Tesseract as a
# column of their own, read after the entries; in a text layer the label and its entry share a line, which is what
# the references view reads. A line that is only such a label is put back in front of the line beside it. Square
# brackets only (fix_label has set them): "(1)" is as often an equation's number at a column's right edge.
_LABEL = re.compile(r"^\[[^\s\]]{1,10}(?: ?\d{2})?\]$|^\d{1,3}\.$")


def attach_labels(blocks: list[OCRBlock]) -> None:
    lines = [ln for b in blocks for ln in b.lines if not ln.vertical]
    taken = set()
    for label in lines:
        if not _LABEL.match(label.text):
            continue
        x0, y0, x1, y1 = label.bbox
        beside = [ln for ln in lines if ln is not label and id(ln) not in taken and not _LABEL.match(ln.text)
                  and 0 <= ln.bbox[0] - x1 <= 4 * max(label.size, 1.0)
                  and min(y1, ln.bbox[3]) - max(y0, ln.bbox[1]) > 0.5 * min(y1 - y0, ln.bbox[3] - ln.bbox[1])]
        if not beside:
            continue
        entry = min(beside, key=lambda ln: ln.bbox[0])
        entry.text = f"{label.text} {entry.text}"
        entry.bbox = (x0, min(y0, entry.bbox[1]), entry.bbox[2], max(y1, entry.bbox[3]))
        taken.add(id(label))
    for b in blocks:
        b.lines = [ln for ln in b.lines if id(ln) not in taken]
    blocks[:] = [b for b in blocks if b.lines]


# A printed size comes out of x_size within about half a point either way (10.5 for one 11-point heading, 11 for the
# next); the heading rules compare sizes, and two headings of one level must read the same. Sizes within this many
# points of a size that more characters have are taken as that size.
SIZE_TOLERANCE = 0.75


def snap_sizes(lines: list[OCRLine]) -> None:
    weight: dict[float, int] = {}
    for ln in lines:
        weight[ln.size] = weight.get(ln.size, 0) + len(ln.text)
    peaks: list[float] = []
    to: dict[float, float] = {}
    for size in sorted(weight, key=lambda s: (-weight[s], s)):
        near = next((p for p in peaks if abs(p - size) <= SIZE_TOLERANCE), None)
        if near is None:
            peaks.append(size)
        to[size] = size if near is None else near
    for ln in lines:
        ln.size = to[ln.size]


def as_text_dict(blocks: list[OCRBlock]) -> dict:
    """OCR blocks in the shape of PyMuPDF's `get_text("dict")`, so the backend builds its page analysis, and every
    view after it, exactly as for a born-digital page. One span per line in font `OCR` (no bold or italic: Tesseract 5
    does not report them)."""
    out = []
    for b in blocks:
        lines = []
        for ln in b.lines:
            span = {"text": ln.text, "bbox": ln.bbox, "size": ln.size, "font": OCR_FONT, "flags": 16 if ln.bold else 0,
                    "char_flags": INK}
            lines.append({"bbox": ln.bbox, "spans": [span], "dir": (0.0, -1.0) if ln.vertical else (1.0, 0.0)})
        out.append({"type": 0, "bbox": b.bbox, "lines": lines})
    return {"blocks": out}
