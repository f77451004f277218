"""Where a stored text row sits on its page: boxes for the views whose rows keep no bounding box.

Tables and images are stored with their box. Sections, chunks and equations are stored as text only (the NeuSym-RAG
schema has no box for them), so the report finds them again on the page: the page's words (PyMuPDF, in content-stream
order) are folded to one string of lower-case letters and digits, and so is the row's text; the row is that string's
occurrence after the previous row's (rows come in reading order), else the best approximate match (rapidfuzz's
partial-ratio alignment). A long row is anchored by its first and last characters (or the first 48-character windows
from either end that are found: figure labels inside a chunk come in another order), so a chunk that runs through a
footnote or a float still spans from its start to its end. The matched words become one rectangle per run of lines
that sit under one another in a column.

Equations are stored as reconstructed LaTeX: commands that print no letters, braces and scripts are dropped before
matching (Greek letters and operator names kept), the match is drawn as one box, and only a compact one counts.
A row that is not found gets no box (the report's toggles count the rows that got one).
"""
from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

from rapidfuzz import fuzz

Box = tuple[float, float, float, float]  # (x0, y0, w, h), PDF points, top-left origin, like the stored boxes
_ANCHOR = 48  # characters that anchor each end of a long row
_TAG = re.compile(r"\\tag\{[^}]*\}")
_COMMAND = re.compile(r"\\([a-zA-Z]+)")
_OPERATORS = {"log", "ln", "exp", "sin", "cos", "tan", "max", "min", "arg", "lim", "det", "sup", "inf", "softmax",
              "Pr", "tanh", "sigmoid"}


def fold(text: str) -> str:
    """Letters and digits only, lower case, compatibility forms unfolded (ligatures, full-width digits): only for
    matching, never stored."""
    return "".join(ch for ch in unicodedata.normalize("NFKC", text).lower() if ch.isalnum())


def _command_glyph(m: re.Match) -> str:
    """What a LaTeX command prints as letters: an operator's name, a Greek letter, or nothing (\\frac, \\mathbf)."""
    name = m[1]
    if name in _OPERATORS:
        return name
    if name == "ell":
        return "l"
    letter = name.removeprefix("var")
    case = "CAPITAL" if letter[:1].isupper() else "SMALL"
    try:
        return unicodedata.lookup(f"GREEK {case} LETTER {letter.upper()}")
    except KeyError:
        return " "


def fold_latex(latex: str) -> str:
    """The characters of a LaTeX formula a reader sees as letters or digits: commands that print none and the
    equation tag are dropped, Greek letters and operator names kept."""
    return fold(_COMMAND.sub(_command_glyph, _TAG.sub(" ", latex)))


@dataclass
class PageText:
    """One page's words as a folded string with, per character, the index of its word."""

    words: list[tuple]  # PyMuPDF words: (x0, y0, x1, y1, text, block, line, word)
    folded: str
    owner: list[int]

    @classmethod
    def of(cls, page) -> PageText:
        words = page.get_text("words", sort=False)
        chars: list[str] = []
        owner: list[int] = []
        for i, w in enumerate(words):
            f = fold(w[4])
            chars.append(f)
            owner += [i] * len(f)
        return cls(words, "".join(chars), owner)

    def _find(self, needle: str, start: int, min_score: float) -> tuple[int, int] | None:
        at = self.folded.find(needle, start)
        if at >= 0:
            return at, at + len(needle)
        at = self.folded.find(needle)
        if at >= 0:
            return at, at + len(needle)
        hit = fuzz.partial_ratio_alignment(needle, self.folded, score_cutoff=min_score)
        return (hit.dest_start, hit.dest_end) if hit else None

    def span(self, folded: str, start: int = 0, min_score: float = 85) -> tuple[int, int] | None:
        """Character span of a folded row text, searched from `start` first."""
        if len(folded) < 3 or not self.folded:
            return None
        if len(folded) <= 2 * _ANCHOR:
            return self._find(folded, start, min_score)
        # windows from either end: a chunk may open or close with figure labels the content stream orders otherwise
        windows = range(0, len(folded) - _ANCHOR + 1, _ANCHOR)
        head = next((h for h in (self._find(folded[i:i + _ANCHOR], start, min_score) for i in list(windows)[:6]) if h), None)
        if head is None:
            return None
        tails = (self._find(folded[len(folded) - i - _ANCHOR:len(folded) - i], head[0], min_score) for i in list(windows)[:6])
        tail = next((t for t in tails if t and t[1] > head[0]), None)
        if tail is None:
            return head[0], min(len(self.folded), head[0] + len(folded))
        return head[0], tail[1]

    def boxes(self, span: tuple[int, int]) -> list[Box]:
        """One rectangle per run of matched lines stacked in a column. Lines side by side on one baseline (table
        cells, a split line) are a row first; a row joins the rectangle above it when it sits right under it and
        is about as wide or starts at the same left edge (a paragraph's short last line); a title over two columns,
        or the next column, starts a new rectangle."""
        first, last = self.owner[span[0]], self.owner[max(span[0], span[1] - 1)]
        lines: dict[tuple[int, int], list[float]] = {}
        for w in self.words[first:last + 1]:
            r = lines.setdefault((w[5], w[6]), [w[0], w[1], w[2], w[3]])
            r[0], r[1], r[2], r[3] = min(r[0], w[0]), min(r[1], w[1]), max(r[2], w[2]), max(r[3], w[3])
        rows: list[list[float]] = []
        for r in lines.values():
            prev = rows[-1] if rows else None
            if prev and min(prev[3], r[3]) - max(prev[1], r[1]) > 0.5 * min(prev[3] - prev[1], r[3] - r[1]):
                _grow(prev, r)
            else:
                rows.append(list(r))
        rects: list[list[float]] = []
        above: list[float] | None = None
        for r in rows:
            if above and _stacked(above, r) and -(r[3] - r[1]) < r[1] - rects[-1][3] < 2.5 * (r[3] - r[1]):
                _grow(rects[-1], r)
            else:
                rects.append(list(r))
            above = r
        return [(r[0], r[1], r[2] - r[0], r[3] - r[1]) for r in rects]


def _grow(rect: list[float], other: list[float]) -> None:
    rect[0], rect[1], rect[2], rect[3] = min(rect[0], other[0]), min(rect[1], other[1]), max(rect[2], other[2]), max(rect[3], other[3])


def _stacked(above: list[float], row: list[float]) -> bool:
    """`row` continues the column of `above`: about as wide, or the narrower starts at the other's left edge."""
    wa, wr = above[2] - above[0], row[2] - row[0]
    overlap = min(above[2], row[2]) - max(above[0], row[0])
    if overlap <= 0.9 * min(wa, wr):
        return False
    return min(wa, wr) >= 0.5 * max(wa, wr) or abs(above[0] - row[0]) <= 0.05 * max(wa, wr)


def _union(boxes: list[Box]) -> Box:
    x0, y0 = min(b[0] for b in boxes), min(b[1] for b in boxes)
    x1, y1 = max(b[0] + b[2] for b in boxes), max(b[1] + b[3] for b in boxes)
    return x0, y0, x1 - x0, y1 - y0


def locate(page_text: PageText, texts: list[str], *, latex: bool = False) -> list[list[Box]]:
    """Boxes of each text (in reading order) on the page; [] for one not found."""
    out: list[list[Box]] = []
    cursor = 0
    for text in texts:
        folded = fold_latex(text) if latex else fold(text)
        span = page_text.span(folded, cursor, min_score=70 if latex else 85)
        if span is None:
            out.append([])
            continue
        boxes = page_text.boxes(span)
        if latex:  # a display is one compact block (scripts and limits are lines of their own); a spread match is not it
            box = _union(boxes)
            if box[3] > 120:
                out.append([])
                continue
            boxes = [box]
        cursor = span[1]
        out.append(boxes)
    return out
