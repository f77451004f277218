"""Display equations found once per document (DocumentFacts.equations) for the equations view and for the prose
views, which leave their lines out (pages keep them). Detection and LaTeX reconstruction are described in
equations.py and docs/equations.md; each reconstructed formula is repaired and screened here with the core's
`quality.repair_latex` / `latex_problem`, so a group that is not a plausible formula (prose or a table row set in math
fonts) is no equation and its lines stay prose.
"""
from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from typing import TYPE_CHECKING

import pymupdf

from pipeline.parse.pymupdf._geometry import hrules, inside, is_prose, union, x_overlap
from pipeline.parse.pymupdf._glyphs import extension_codes
from pipeline.parse.pymupdf._latex_build import glyph_atoms, render
from pipeline.parse.pymupdf._latex_symbols import base_font, math_share, prose_fonts, strong_math
from pipeline.parse.pymupdf.page import INK, Line, PageAnalysis, Rect
from pipeline.parse.quality import latex_problem, repair_latex

if TYPE_CHECKING:
    from pipeline.parse.pymupdf.facts import DocumentFacts

# an equation number: (3), (3a), (3.14), (2.1.4), appendix and supplement numbers (A1), (A.1), (S2), (B.12)
TAG = re.compile(r"^\(\s*((?:[A-Z]\.?)?\d+(?:\.\d+){0,2}[a-z]?)\s*\)$")


def _tag(line: Line) -> str | None:
    m = TAG.match(line.text)
    return m.group(1) if m else None


def _trailing_tag(line: Line) -> tuple[str, Rect] | None:
    """An equation number set at the end of a math line (same text line): "... = 0    (2)"."""
    spans = [sp for sp in line.spans if sp.text.strip()]
    for k in range(len(spans) - 1, max(-1, len(spans) - 4), -1):
        text = "".join(sp.text for sp in spans[k:]).strip()
        m = TAG.match(text)
        if m and k > 0 and spans[k].bbox[0] - spans[k - 1].bbox[2] > 8:
            return m.group(1), (spans[k].bbox[0], line.bbox[1], line.bbox[2], line.bbox[3])
    return None


def _is_math_line(line: Line, prose: frozenset[str]) -> bool:
    m, n = math_share(line.spans, prose)
    return n > 0 and m >= 0.5 * n


def _groups(facts: DocumentFacts, p: PageAnalysis, lines: list[Line], body: float) -> list[list[Line]]:
    """Stack math lines that touch vertically (gap below ~half a line) within one column."""
    groups: list[tuple[tuple[float, float], list[Line], list[float]]] = []  # (column, lines, [y0, y1])
    for ln in sorted(lines, key=lambda l: l.bbox[1]):
        col = facts.column_range(p, ln.bbox)
        target = next((g for g in reversed(groups) if min(g[0][1], col[1]) > max(g[0][0], col[0])
                       and ln.bbox[1] <= g[2][1] + 0.6 * body), None)
        if target is None:  # noqa: SIM108
            groups.append((col, [ln], [ln.bbox[1], ln.bbox[3]]))
        else:
            target[1].append(ln)
            target[2][1] = max(target[2][1], ln.bbox[3])
    return [g[1] for g in groups]


EDGE = 8.0  # pt: a line starting or ending this close to its column's edge is running text's


def _by_number(group: list[Line], body: float) -> list[list[Line]]:
    """A stack holding several equation numbers, one per row, split into one display per number: each line goes
    to the number nearest its middle (a fraction's numerator and denominator sit either side of their number). Rows
    set close together (an align's numbered rows, displays under tall brackets) stack into one group, and only the
    first number was kept."""
    tags = sorted((ln for ln in group if _tag(ln) is not None), key=lambda ln: ln.bbox[1])
    rows = [t for i, t in enumerate(tags) if i == 0 or t.bbox[1] - tags[i - 1].bbox[1] > 0.5 * body]
    if len(rows) < 2:
        return [group]
    parts: list[list[Line]] = [[t] for t in rows]
    for ln in group:
        if any(ln is t for t in rows):
            continue
        mid = (ln.bbox[1] + ln.bbox[3]) / 2
        nearest = min(range(len(rows)), key=lambda i: abs((rows[i].bbox[1] + rows[i].bbox[3]) / 2 - mid))
        parts[nearest].append(ln)
    return parts


def _reaches_edge(q: Rect, maths: list[Line], col: tuple[float, float]) -> bool:
    """Whether the text line of `q` (with the maths pieces on its baseline) starts or ends at its column's edge."""
    row = [q] + [ln.bbox for ln in maths if min(ln.bbox[3], q[3]) - max(ln.bbox[1], q[1]) > 0.5 * (q[3] - q[1])]
    return min(r[0] for r in row) - col[0] < EDGE or col[1] - max(r[2] for r in row) < EDGE


CLIP_MARGIN = 40.0  # pt around the displays of a page when their characters are read (find_equations)

ALGORITHM = re.compile(r"^Algorithm\s+\d+")


def _algorithms(facts: DocumentFacts, p: PageAnalysis) -> list[Rect]:
    """Pseudo-code floats: from an "Algorithm n" caption to the second rule under it (algorithm2e/algorithmic
    draw a rule under the caption and one at the end)."""
    out: list[Rect] = []
    for ln in p.lines:
        if not ALGORITHM.match(ln.text):
            continue
        rules = hrules(p, 40.0)
        below = sorted(r[1] for r in rules if r[1] > ln.bbox[3] - 1 and x_overlap(r, ln.bbox) > 0)
        end = below[1] if len(below) >= 2 else p.height
        x0, x1 = facts.column_range(p, ln.bbox)
        out.append((x0 - 5, ln.bbox[1] - 2, x1 + 5, end + 1))
    return out


def _excluded(facts: DocumentFacts, p: PageAnalysis) -> list[Rect]:
    """Tables, algorithm floats, captions and figures: math-looking lines in there are not display equations."""
    out = [r for c, r in facts.table_regions if c.page == p.number] + _algorithms(facts, p)
    out += [c.bbox for c in facts.captions if c.page == p.number]
    out += facts.figure_regions.get(p.number, [])
    return out


def _prose_fonts(facts: DocumentFacts) -> frozenset[str]:
    counts: Counter[str] = Counter()
    for p in facts.pages:
        for ln in p.lines:
            for sp in ln.spans:
                counts[sp.font] += len(sp.text)
    return prose_fonts(counts)


def _page_equations(facts: DocumentFacts, p: PageAnalysis, text_fonts: frozenset[str] = frozenset()
                    ) -> list[tuple[Rect, list[Line], str | None, list[Rect], list[Line]]]:
    """(box, math lines, equation number, boxes of the numbers, the group's lines) of each display equation."""
    body = facts.body_size
    skip = _excluded(facts, p)
    prose: list[Rect] = []
    prose_lines: list[Line] = []
    cands: list[Line] = []
    others: list[Line] = []  # short non-math lines: words inside a display ("softmax", "where") or labels
    for ln in p.lines:
        if ln.running or any(inside(ln.bbox, s, 2) for s in skip):  # running heads, page numbers, floats
            continue
        x0, x1 = facts.column_range(p, ln.bbox)
        if _tag(ln) is not None or _is_math_line(ln, text_fonts):
            cands.append(ln)
        elif is_prose(ln, body, x1 - x0) or (
                len(ln.text) > 12 and math_share(ln.spans, text_fonts)[0] < 0.3 * len(ln.text)):
            prose.append(ln.bbox)
            prose_lines.append(ln)
        else:
            others.append(ln)
    # A line beside an equation number is a display row whatever its share of maths fonts (`log`, brackets and
    # digits in the text font: `E[log q(x)] <= log E[q(x)]   (9)` under Kp or Times; `v = Transformer(input)[CLS],
    # (1)` with its names in typewriter), when it holds some maths and, if it reads as prose, reaches neither edge
    # of its column (a paragraph's line does)
    tag_boxes_all = [ln.bbox for ln in cands if _tag(ln) is not None]
    for ln in others + prose_lines if tag_boxes_all else []:
        col = facts.column_range(p, ln.bbox)
        if strong_math(ln.spans, text_fonts) and any(
                t[0] >= ln.bbox[2] and min(t[3], ln.bbox[3]) - max(t[1], ln.bbox[1]) > 0.5 * (t[3] - t[1])
                and facts.column_range(p, t) == col for t in tag_boxes_all):
            if ln in others:
                others.remove(ln)
            elif _reaches_edge(ln.bbox, [], col):
                continue
            else:
                prose_lines.remove(ln)
                prose.remove(ln.bbox)
            cands.append(ln)
    out = []
    for g in (sub for group in _groups(facts, p, cands, body) for sub in _by_number(group, body)):
        tags = [ln for ln in g if _tag(ln) is not None]
        maths = [ln for ln in g if _tag(ln) is None]
        if not maths:
            continue
        box = union([ln.bbox for ln in maths])
        # Inline math: a running-text line shares the band (same baseline) in the same column. Beside an equation
        # number, running text is what runs to an edge of its column (a paragraph's lines start or end there); words
        # set inside a numbered display, centred with it (`\quad\text{for all batches}`), touch neither edge.
        col = facts.column_range(p, box)
        trailing = [t for t in map(_trailing_tag, maths) if t]  # numbers set on a maths line's own text line
        running = [q for q in prose if not (tags or trailing) or _reaches_edge(q, maths, col)]
        if any(x_overlap(q, box) > -15 and min(q[3], box[3]) - max(q[1], box[1]) > 0.3 * body for q in running):
            continue
        # The math-only last line of a paragraph: starts at the column margin right under running text.
        if not tags and box[0] - col[0] < 8 and any(x_overlap(q, box) > 0 and -0.6 * body <= box[1] - q[3] < 0.45 * body
                                                    for q in prose):
            continue
        m = sum(math_share(ln.spans, text_fonts)[0] for ln in maths)
        if m < 2 or (not tags and m < 4 and box[2] - box[0] < 30):
            continue
        if not any(strong_math(ln.spans, text_fonts) for ln in maths):
            continue  # digits and dashes of the text font alone: a reference's `468–486.`, a date, a contents line
        tag = _tag(tags[0]) if tags else (trailing[0][0] if trailing else None)
        tag_boxes = [t.bbox for t in tags] + [t[1] for t in trailing]
        # words on the display's own baselines, between its math runs, belong to it (a numbered display's centred
        # words read as prose, but are not running text)
        words = others + [q for q in prose_lines if q.bbox not in running]
        maths += [ln for ln in words if facts.column_range(p, ln.bbox) == col and ln.bbox[0] >= col[0] - 2
                  and min(ln.bbox[3], box[3]) - max(ln.bbox[1], box[1]) > 0.6 * (ln.bbox[3] - ln.bbox[1])
                  and (not tag_boxes or ln.bbox[2] <= min(t[0] for t in tag_boxes))]
        out.append((union([ln.bbox for ln in g + maths]), maths, tag, tag_boxes, g))
    return out


def _chars(raw: dict, box: Rect, codes: dict[str, dict[str, str]] | None = None) -> list[tuple[str, Rect, str, float]]:
    """The visible glyphs whose centre lies in `box`, as (character, box, font, size). `codes`: extension-font
    characters read by their glyph names (`_glyphs.extension_codes`); Unicode variation selectors (newtx maps its
    display sum to `∑` + U+FE01) are dropped."""
    codes = codes or {}
    out = []
    for b in raw["blocks"]:
        if b.get("type") != 0 or x_overlap(b["bbox"], box) < 0:
            continue
        for ln in b["lines"]:
            for s in ln["spans"]:
                if not s.get("char_flags", INK) & INK:  # invisible (render mode 3) text, e.g. hidden TeX source
                    continue
                named = codes.get(base_font(s["font"]), {})
                for c in s["chars"]:
                    ch = named.get(c["c"], c["c"])
                    if not ch or "\ufe00" <= ch <= "\ufe0f":
                        continue
                    r = c["bbox"]
                    cx, cy = (r[0] + r[2]) / 2, (r[1] + r[3]) / 2
                    if box[0] - 1 <= cx <= box[2] + 1 and box[1] - 1 <= cy <= box[3] + 1:
                        out.append((ch, tuple(r), s["font"], s["size"]))
    return out


def to_latex(p: PageAnalysis, raw: dict, box: Rect, tag: str | None, tag_boxes: list[Rect],
             codes: dict[str, dict[str, str]] | None = None) -> str:
    chars = [c for c in _chars(raw, box, codes) if not any(inside(c[1], t, 1) for t in tag_boxes)]
    rules = [r for r in hrules(p, 3.0) if inside(r, (box[0] - 2, box[1] - 2, box[2] + 2, box[3] + 2), 0)]
    tex = render(glyph_atoms(chars), rules)
    return tex + (rf" \tag{{{tag}}}" if tag else "")




@dataclass
class EquationRegion:
    box: Rect
    lines: list[Line]  # every line of the display (math, words on its baselines, its number)
    tag: str | None
    latex: str


def find_equations(facts: DocumentFacts) -> dict[int, list[EquationRegion]]:
    """Page number -> its display equations in reading order, each a plausible formula (see the module docstring)."""
    text_fonts = _prose_fonts(facts)
    out: dict[int, list[EquationRegion]] = {}
    font_tables: dict[int, dict[str, str]] = {}  # extension fonts' glyph-name tables, read once per document
    for p in facts.pages:
        found = _page_equations(facts, p, text_fonts)
        if not found:
            continue
        # CID_FOR_UNKNOWN_UNICODE: CMEX glyphs come back as their TeX codes instead of U+FFFD. Only the characters
        # of this page's displays are read (to_latex keeps those whose centre lies in a display's box): clipped
        # around the boxes, MuPDF drops the glyphs drawn entirely outside and the per-character dictionary stays
        # small. The margin is wide because MuPDF judges by the ink: a big delimiter's centre can lie in a box
        # while its ink stays well outside it.
        x0, y0, x1, y1 = union([f[0] for f in found])
        raw = p.page.get_text("rawdict", clip=(x0 - CLIP_MARGIN, y0 - CLIP_MARGIN, x1 + CLIP_MARGIN, y1 + CLIP_MARGIN),
                              flags=pymupdf.TEXT_MEDIABOX_CLIP | pymupdf.TEXT_CID_FOR_UNKNOWN_UNICODE)
        codes = extension_codes(p.page.parent, p.page, font_tables)
        for box, maths, tag, tag_boxes, group in sorted(found, key=lambda f: facts.reading_key(p, f[0])):
            latex = to_latex(p, raw, union([ln.bbox for ln in maths]), tag, tag_boxes, codes)
            if len(latex) < 3:  # a stray symbol (e.g. left over from a matrix), not an equation
                continue
            latex = repair_latex(latex)
            if latex_problem(latex) is not None:
                continue
            seen = {id(ln) for ln in maths}
            lines = maths + [ln for ln in group if id(ln) not in seen]
            out.setdefault(p.number, []).append(EquationRegion(box, lines, tag, latex))
    return out
