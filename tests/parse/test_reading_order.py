"""Reading order of two-column pages (pipeline/parse/pymupdf/page.py), checked on the corpus.

The page-specific expectations were checked against the rendered pages. The property test reads every
two-column page of every corpus PDF and checks that, inside one band (the stretch of page between two
lines that cross the gutter), the left column is read before the right one."""
from __future__ import annotations

import re
from collections import Counter
from functools import lru_cache

import pymupdf
import pytest

from pipeline.parse.pymupdf.page import DocumentAnalysis, Line, PageAnalysis, analyze_document
from tests.conftest import CORPUS, corpus_pdf, needs_corpus


@lru_cache(maxsize=None)
def _analysis(name: str) -> DocumentAnalysis:
    return analyze_document(pymupdf.open(corpus_pdf(name)))


def _order(text: str, *parts: str) -> list[int]:
    return [text.index(p) for p in parts]


# ---- the reported bugs -----------------------------------------------------------------------------------

@needs_corpus
def test_short_right_column_heading_waits_for_left_column() -> None:
    # LoCoMo p.5: "4.1 Question Answering Task" opens the right column on the same row as a run-in heading
    # of the left column ("Image Sharing & Image Reaction. The image"); the left column is read first
    page = _analysis("acl2024_locomo.pdf").pages[4]
    text = page.text
    order = _order(text, "Figure 3: Overview", "Image Sharing & Image Reaction.", "3.4\nHuman Verification",
                   "4\nLOCOMO Evaluation Benchmark", "4.1\nQuestion Answering Task",
                   "A conversational agent is expected")
    assert order == sorted(order)
    assert page.gutter is not None


@needs_corpus
def test_abstract_before_introduction_under_title_block() -> None:
    # PaSa p.1: "Abstract" (left) and "1 Introduction" (right) share a row under the title block and logo
    text = _analysis("acl2025_pasa.pdf").pages[0].text
    order = _order(text, "PaSa: An LLM Agent", "Paper Search", "Abstract", "We introduce PaSa",
                   "∗Equal contribution.", "1\nIntroduction", "Academic paper search lies at the core")
    assert order == sorted(order)


@needs_corpus
def test_figure_at_the_top_of_a_column_is_read_with_that_column() -> None:
    # Re-Reading p.1: Figure 1 sits in the right column under the title block; its labels ("Input", "CoT")
    # belong to the right column instead of being read before "Abstract"
    text = _analysis("emnlp2024_rereading.pdf").pages[0].text
    order = _order(text, "Re-Reading Improves Reasoning", "Abstract", "1\nIntroduction", "Input",
                   "Figure 1: Example inputs of CoT", "ability to reason effectively")
    assert order == sorted(order)
    # BLEURT p.6: two figures side by side under a full-width table; each is read with its own caption
    text = _analysis("acl2020_bleurt.pdf").pages[5].text
    order = _order(text, "Table 4: Agreement", "Density (rescaled)", "Figure 1: Distribution",
                   "dominates the benchmark", "Kendall Tau w. Human Ratings", "Figure 2: Agreement",
                   "a series of tasks for which")
    assert order == sorted(order)


@needs_corpus
@pytest.mark.parametrize("name,number", [("acl2024_locomo.pdf", 16), ("emnlp2020_dpr.pdf", 13)])
def test_document_gutter_wins_over_a_wide_figure_or_table(name: str, number: int) -> None:
    # a wide figure (two panels) or table (three columns) makes peaks of its own near the middle; the
    # page's column text lines up with the gutter of the rest of the paper, so that one is used
    doc = _analysis(name)
    usual = Counter(round(p.gutter) for p in doc.pages if p.gutter is not None).most_common(1)[0][0]
    assert abs(doc.pages[number - 1].gutter - usual) <= 2


# ---- property: no interleaving of the two columns inside a band -------------------------------------------

_WORD = re.compile(r"[^\W\d_]{2,}")


class _Row:
    """Lines of one text block on one side of the gutter and one baseline (run-in headings, "4.1" + title)."""

    def __init__(self, line: Line, side: str) -> None:
        self.lines, self.side = [line], side
        self.x0, self.y0, self.x1, self.y1 = line.bbox

    def takes(self, line: Line, side: str) -> bool:
        if side != self.side or line.block != self.lines[0].block:
            return False
        overlap = min(self.y1, line.bbox[3]) - max(self.y0, line.bbox[1])
        if overlap <= 0.5 * (line.bbox[3] - line.bbox[1]):
            return False
        self.lines.append(line)
        self.x0, self.x1 = min(self.x0, line.bbox[0]), max(self.x1, line.bbox[2])
        return True

    @property
    def text(self) -> str:
        return " ".join(l.text for l in sorted(self.lines, key=lambda l: l.bbox[0]))

    @property
    def strong(self) -> bool:
        return all(l.bold for l in self.lines)


def interleavings(page: PageAnalysis) -> list[tuple[str, str]]:
    """(right-column text, left-column text) pairs where the right one is read first although both lie in
    the same band of the two-column body.

    Only column prose and the headings right above it are checked: wide rows of words (a line filling most
    of its column; table rows of numbers do not count) and bold rows just above such prose. Title blocks,
    author grids, tables and figure labels are read row by row on purpose, so they are left out. Bands are
    cut at every line that crosses the gutter (full-width captions, titles, footnotes)."""
    if page.gutter is None:
        return []
    split = page.gutter
    lines = [l for b in page.blocks if not b.margin for l in b.lines if l.horizontal]
    if not lines:
        return []

    def side(l: Line) -> str:
        return "L" if l.bbox[2] <= split + 2 else "R" if l.bbox[0] >= split - 2 else "S"

    rows: list[_Row] = []
    for l in sorted(lines, key=lambda l: (l.bbox[1], l.bbox[0])):
        s = side(l)
        if s != "S" and not any(r.takes(l, s) for r in rows):
            rows.append(_Row(l, s))
    col_w = split - min(l.bbox[0] for l in lines)

    def prose(r: _Row) -> bool:
        words = _WORD.findall(r.text)
        letters = sum(len(w) for w in words)
        return r.x1 - r.x0 >= 0.6 * col_w and len(words) >= 4 and letters >= 0.6 * len(r.text.replace(" ", ""))

    text_rows = [r for r in rows if prose(r)]
    for r in rows:
        if r.strong and not prose(r):
            below = [p for p in text_rows if p.side == r.side and p.y0 >= r.y1 - 1]
            nearest = min(below, key=lambda p: p.y0, default=None)
            if nearest is not None and nearest.y0 - r.y1 <= 25 and nearest.x0 <= r.x0 + 2:
                text_rows.append(r)
    checked = {id(l): r.side for r in text_rows for l in r.lines}
    cuts = sorted((l.bbox[1] + l.bbox[3]) / 2 for l in lines if side(l) == "S")

    def band(l: Line) -> int:
        return sum(1 for y in cuts if y <= (l.bbox[1] + l.bbox[3]) / 2)

    first_right: dict[int, Line] = {}
    out = []
    for l in lines:  # reading order
        s = checked.get(id(l))
        if s == "R":
            first_right.setdefault(band(l), l)
        elif s == "L" and band(l) in first_right:
            out.append((first_right[band(l)].text, l.text))
    return out


def test_interleaving_check_catches_a_right_column_read_first() -> None:
    # synthetic page: two columns of prose under a bold heading each; reading the right heading first fails
    doc = pymupdf.open()
    page = doc.new_page(width=595, height=842)
    words = "lorem ipsum dolor sit amet consectetur adipiscing elit sed do eiusmod tempor"
    for x in (72, 306):
        page.insert_text((x, 100), "Heading", fontname="hebo", fontsize=11)
        for i in range(12):
            page.insert_text((x, 120 + 12 * i), words[: 43 + i % 3], fontname="helv", fontsize=9.5)
    good = analyze_document(doc).pages[0]
    assert good.gutter is not None and interleavings(good) == []
    right_heading = next(b for b in good.blocks if b.column == 2 and b.text.startswith("Heading"))
    bad = PageAnalysis(page=page, number=1, blocks=[right_heading] + [b for b in good.blocks if b is not right_heading],
                       gutter=good.gutter)
    assert interleavings(bad)


@needs_corpus
def test_columns_never_interleave_within_a_band() -> None:
    names = sorted(p.name for p in CORPUS.glob("*.pdf"))
    assert len(names) >= 20
    problems, two_column = [], 0
    for name in names:
        for page in _analysis(name).pages:
            two_column += page.gutter is not None
            for right, left in interleavings(page)[:1]:
                problems.append(f"{name} p.{page.number}: {right!r} read before {left!r}")
    assert two_column >= 100
    assert not problems, "\n".join(problems)
