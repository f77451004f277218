"""Running headers, running footers and page numbers: page furniture that belongs to no view's content.

A line is furniture when text of the same shape (digits ignored, so "3 of 16" and "4 of 16", "THURSTON 2" and
"THURSTON 4" match) sits in the same band, on one of the two printed rows nearest the top or bottom edge, of
enough pages: alternating even/odd
heads, `Page N` / `N of M` footers, journal citation footers (`PLOS ONE | www.plosone.org | 3 | ...`) and bare
page numbers all qualify without naming any of them. Once a band is known to hold furniture, every line of the
same size in that band with nothing between it and the page edge is furniture too (running heads that print
the current section's title change their words from page to page). Shapes without letters count only as page
numbers that count up with the pages, so equation numbers and axis ticks near the edge stay content.
A publisher's how-to-cite block on page 1 or 2 (`ACM Reference Format:`, `To cite this article:`) is furniture too.
First-page furniture printed once (elsarticle's `Preprint submitted to ...`, ACM's permission box, AAAI's and IEEE's
copyright lines, a journal's citation/DOI footer) cannot repeat: on page 1 the lowest text block is furniture when
it sits at the foot of its column (nothing below it, its top in the lower 40 % of the page), is set smaller than
the body, and is no footnote (it does not start with a footnote mark or a superscript) and no caption.
Lines are only marked (`Line.running`); the metadata view still reads them, since venues are printed there;
page text, sections, chunks and equations skip them.
"""
from __future__ import annotations

import math
import re
from collections import Counter, defaultdict
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pipeline.parse.pymupdf.page import Line, PageAnalysis

ZONE = 0.2  # furniture lives in the top and bottom 20 % of the page ...
EDGE_ROWS = 2  # ... on one of the two printed rows nearest the page edge
SHARE = 0.3  # ... and repeats on at least 30 % of the pages (at least 2)
Y_TOL = 6.0  # points: the same band on every page (alternating heads sit at the same height)


def _shape(text: str) -> str:
    return re.sub(r"\d+", "#", re.sub(r"\s+", " ", text.lower())).strip()


def _zone(line: Line, height: float) -> str | None:
    if line.bbox[3] <= ZONE * height:
        return "top"
    if line.bbox[1] >= (1 - ZONE) * height:
        return "bottom"
    return None


def _edge_lines(p: PageAnalysis) -> list[tuple[str, Line]]:
    """(zone, line) for the horizontal lines on the EDGE_ROWS printed rows nearest the top and bottom edges."""
    lines = [ln for ln in p.lines if ln.horizontal]
    out: list[tuple[str, Line]] = []
    for zone, key, sign in (("top", 1, 1), ("bottom", 3, -1)):
        rows: list[float] = []
        for ln in sorted(lines, key=lambda ln: sign * ln.bbox[key]):
            if _zone(ln, p.height) != zone:
                break
            if not rows or abs(ln.bbox[key] - rows[-1]) > 3:
                if len(rows) == EDGE_ROWS:
                    break
                rows.append(ln.bbox[key])
            out.append((zone, ln))
    return out


# shapes without letters that are page furniture: page numbers, "- 3 -", "3/16", "3 of 16", "Page 3"
PAGE_NO = re.compile(r"(page )?[-–—]? ?# ?[-–—]?( ?(of|/) ?#)?")


def _outermost(line: Line, p: PageAnalysis, zone: str) -> bool:
    """No other text between the line and the page edge (body lines that reach into the zone are not)."""
    if zone == "top":
        return not any(o.bbox[3] <= line.bbox[1] - 1 and not o.running for o in p.lines if o is not line)
    return not any(o.bbox[1] >= line.bbox[3] + 1 and not o.running for o in p.lines if o is not line)


def _page_numbers(found: list[tuple[int, Line]], need: int) -> list[tuple[int, Line]]:
    """Occurrences of a bare number that count up with the pages (printed number - page index constant):
    axis ticks and table cells near the page edge do not."""
    by_offset: dict[int, list[tuple[int, Line]]] = defaultdict(list)
    for n, line in found:
        digits = re.findall(r"\d+", line.text)
        if digits:
            by_offset[int(digits[0]) - n].append((n, line))
    best = max(by_offset.values(), key=len, default=[])
    return best if len(best) >= need else []


FOOTNOTE_MARK = re.compile(r"[*∗†‡§¶⋆\u2020\u2021]|\(?[a-z\d]\)\s")
CAPTION = re.compile(r"(fig\.?|figure|table|tab\.)\s*[A-Z]?\d", re.I)


COPYRIGHT = re.compile(r"(©|\(c\)|copyright\b)\s*(19|20)\d\d", re.I)


def _first_page_footer(p: PageAnalysis, body: float) -> None:
    """Mark page 1's bottom furniture block (see the module docstring). Blocks are looked at from the bottom up; a
    copyright notice may stand over another furniture block (Cascadilla: its proceedings footnote over the class's
    copyright line), any other block only over what was furniture before."""
    before = {id(ln) for ln in p.lines if ln.running}
    for block in sorted(p.blocks, key=lambda b: -b.bbox[3]):
        lines = [ln for ln in block.lines if ln.horizontal and ln.text.strip()]
        if not lines or len(lines) > 12 or block.bbox[1] < 0.6 * p.height or block.bbox[3] < (1 - ZONE) * p.height:
            continue
        first = lines[0]
        # a footnote is content, unless it is the paper's copyright notice (Cascadilla's "* © 2026 A. Author.
        # Proceedings of the 44th West Coast Conference on Formal Linguistics, ed. ...")
        notice = bool(COPYRIGHT.match(re.sub(r"^\s*[*∗†‡§¶⋆\d]{0,2}\s*", "", first.text)))
        if (any(ln.size > body - 1.0 for ln in lines) or max(len(ln.text) for ln in lines) < 25
                or ((FOOTNOTE_MARK.match(first.text)
                     or (first.spans and (first.spans[0].superscript or first.spans[0].size < first.size - 1.0)))
                    and not notice)
                or CAPTION.match(first.text)):
            continue
        x0, x1 = block.bbox[0], block.bbox[2]
        below = [o for o in p.lines if o.bbox[1] >= block.bbox[3] - 1 and o.bbox[0] < x1 and o.bbox[2] > x0
                 and not (o.running if notice else id(o) in before) and o not in block.lines]
        if not below:
            for ln in block.lines:
                ln.running = True


# the stamp a class prints on its papers: "This paper has been typeset from a TeX/LaTeX file prepared by the author."
# (mnras), "Typeset using LaTeX twocolumn style in AASTeX631" (aastex), "Typeset with jpsj2.cls <ver.1.2.2>"
STAMP = re.compile(r"(this (paper|article|manuscript|preprint) (has been|was) typeset|typeset (using|with|by|from)) "
                   r".{0,80}\b(t\s?e\s?x|l\s?a\s?t\s?e\s?x|\w+\.cls|aastex\w*)\b", re.I)


# a publisher's "how to cite this paper" block: the citation the metadata view reads, not the paper's text
CITE_AS = re.compile(r"(ACM Reference Format|To cite this article|How to cite this article|Cite this article(?: as)?|"
                     r"Please cite this article(?: in press)? as)\s*:", re.I)


def mark_running(pages: list[PageAnalysis]) -> None:
    """Set `Line.running` on the running headers, footers and page numbers of a document."""
    if len(pages) < 2:
        return
    sizes: Counter[float] = Counter()
    for p in pages:
        for line in p.lines:
            sizes[line.size] += len(line.text)
    body = sizes.most_common(1)[0][0] if sizes else 10.0
    need = max(2, math.ceil(SHARE * len(pages)))
    groups: dict[tuple[str, str], list[tuple[int, Line]]] = defaultdict(list)
    edges = {p.number: _edge_lines(p) for p in pages}
    for p in pages:
        for zone, line in edges[p.number]:
            groups[(zone, _shape(line.text))].append((p.number, line))
    bands: list[tuple[str, float, float]] = []  # (zone, y0, size) of the bands that hold furniture
    for (zone, shape), found in groups.items():
        if CAPTION.match(found[0][1].text.strip()):
            continue  # "TABLE 1", "TABLE 2" atop successive pages are floats set at the top, not a running head
            # (counted as one, their band made the first reference of a 5-page IEEE compsoc paper's last page furniture)
        if not re.search(r"[a-z]", shape.replace("page", "").replace("of", "")):
            if not PAGE_NO.fullmatch(shape):
                continue  # "(3)", "0.5": equation numbers, axis ticks
            found = _page_numbers(found, need)
        found.sort(key=lambda f: f[1].bbox[1])
        # the largest set of occurrences within Y_TOL of each other, counted in distinct pages
        best: list[tuple[int, Line]] = []
        for i, (_, first) in enumerate(found):
            run = [f for f in found[i:] if f[1].bbox[1] - first.bbox[1] <= Y_TOL]
            if len({n for n, _ in run}) > len({n for n, _ in best}):
                best = run
        if len({n for n, _ in best}) < need:
            continue
        for _, line in best:
            line.running = True
        ys = sorted(line.bbox[1] for _, line in best)
        bands.append((zone, ys[len(ys) // 2], best[0][1].size))
    for p in pages:
        for zone, line in edges[p.number]:
            if not line.running and any(
                z == zone and abs(line.bbox[1] - y) <= Y_TOL / 2 and abs(line.size - size) <= 0.6
                for z, y, size in bands
            ) and _outermost(line, p, zone):
                line.running = True
    _first_page_footer(pages[0], body)
    for p in pages[:2]:  # how to cite the paper, as the publisher prints it on its first page (ACM's reference format)
        for block in p.blocks:
            if block.lines and CITE_AS.match(block.lines[0].text.strip()):
                for line in block.lines:
                    line.running = True
    for p in pages:  # a class's typesetting stamp, wherever the class prints it (mnras: after the last paragraph)
        for line in p.lines:
            if len(line.text) < 120 and STAMP.match(line.text.strip()):
                line.running = True
