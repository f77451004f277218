"""Unnumbered headings found by typography alone (AAAI, PLOS, eLife, Nature and other styles that print
"Related Work" or "Materials and Methods" without a number).

A row is a candidate when it looks set apart from the body text and stands alone:
- typography: bold, larger than the body, all capitals, or a (non-italic, non-math) font the body does not use
  (publishers' embedded fonts often carry no bold flag, so "another font" is the only sign of weight); italic
  counts only in a sans-serif face beside a serif body (BMC's and Springer's lowest level);
- isolation: short (at most 14 words), not ending like a sentence or a run-in head (`.`, `,`, `;`, `:`), starting
  its own block or set off by space above, flush with the text that follows it or centred over it; a line with
  a sentence break inside is a run-in head ("Datasets. We use ...") and stays in its parent's content;
- not a caption, a theorem-like label or math, and not part of the title block on page 1.
Candidates are then judged per style (size, weight, font, capitals): a style is a heading style when most rows
printed in it are candidates (bold table cells and bold paragraphs are not) and it recurs on two pages, or when
it prints a well-known heading name. In a paper that numbers its headings, an unnumbered row counts only in the
style of a numbered level 1 or 2 (ACM's unnumbered ACKNOWLEDGMENTS beside "1 INTRODUCTION") and takes that
level, and only when it is a well-known name or a single line larger than the body or in capitals: bold at body
size is also how ACL-style papers set their run-in paragraph heads.
Otherwise levels follow the styles' rank: larger first, then the style that prints more well-known names
(Introduction, Results, References, ...), then capitals, then bold; "Abstract" is always level 1.
"""
from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Callable

from pipeline.parse.pymupdf._sections_rows import Row

KNOWN = re.compile(
    r"(abstract|introduction|background|related work|methods?|materials and methods|methodology|results"
    r"|results and discussion|discussion|experiments?|evaluation|conclusions?|summary|outlook|references"
    r"|bibliography|acknowledge?ments?|appendix|supplementary (information|materials?)|methods summary"
    r"|data availability|author contributions|funding|competing interests)",
    re.I,
)
LABEL = re.compile(
    r"(theorem|lemma|definition|proof|corollary|proposition|remark|example|assumption|claim|conjecture|note|"
    r"ccs concepts|"
    r"fig\.?|figure|table|tab\.|algorithm|listing|eq\.|equation|step|case|input|output|keywords?|key words)\b",
    re.I,
)
MATH_FONT = re.compile(r"^(CMMI|CMSY|CMEX|MSBM|MSAM|Symbol|txsy|txmi|txex|rsfs|eufm|stix.*math|.*Math)", re.I)

Style = tuple[float, bool, str, bool]
# italic fonts named by a suffix only (Adobe's subset names "AdvTT...I", "-It", "-Oblique")
ITALIC_FONT = re.compile(r"(\.B?I|-(Bold)?It(alic)?|Italic|Oblique)$")


def style_of(row: Row) -> Style:
    return (round(row.size * 2) / 2, row.bold, row.font, row.text.isupper())


def _distinct(row: Row, body: float, body_font: str, italic_ok: bool = False) -> bool:
    if row.bold and row.size >= body - 0.6:
        return True
    if row.size >= body + 0.8:
        return True
    letters = [c for c in row.text if c.isalpha()]
    if len(letters) >= 4 and row.text.isupper() and row.size >= body - 1.0:
        return True
    # italic alone is emphasis, but an italic line in a sans-serif face beside a serif body is a heading's typography
    # (BMC, SpringerOpen and Springer journals set their lowest heading level so)
    return row.font != body_font and row.font_share >= 0.9 and row.size >= body - 1.0 \
        and (not row.italic or italic_ok or (_sans(row.font) and not _sans(body_font)))


SANS = re.compile(r"sans|helvet|arial|nimbussan|cmss|lmss|verdana|calibri|myriad|frutiger|univers|futura|gill", re.I)


def _sans(font: str) -> bool:
    return bool(SANS.search(font))


def _candidate(rows: list[Row], i: int, body: float, body_font: str, italic_ok: bool = False) -> bool:
    row = rows[i]
    text = row.text
    if not (2 <= len(text) <= 100) or len(text.split()) > 14 or text.endswith((".", ",", ";", ":")):
        return False
    letters = sum(c.isalpha() for c in text)
    if letters < 3 or letters < 0.6 * len(text.replace(" ", "")) or not text.lstrip("(")[:1].isupper():
        return False
    if LABEL.match(text) or MATH_FONT.match(row.font) or row.font_share < 0.9 \
            or not _distinct(row, body, body_font, italic_ok):
        return False  # (a row mixing fonts is a run-in head and its paragraph)
    if re.search(r"[\w)]{2}\. [A-Z]", text):
        return False  # a run-in head and the start of its paragraph ("Datasets. We use ...")
    # flush with, or centred over, the text that follows it in its column
    extent = _text_below(rows, row)
    if extent is None:
        return False
    left, right = extent
    if not (abs(row.x0 - left) <= 0.04 * _width(extent) + 2 or _centred_over(row, extent)):
        return False
    prev = rows[i - 1] if i else None
    starts_block = prev is None or prev.page != row.page or prev.lines[-1].block != row.lines[0].block
    under_heading = (prev is not None and len(prev.text) < 60 and style_of(prev) != style_of(row)
                     and _distinct(prev, body, body_font))
    if not starts_block and row.y0 - prev.y1 < 0.25 * (row.y1 - row.y0) and not under_heading:
        return False
    # a heading wrapped over up to four lines (same style) is followed by text in another style; the first
    # line of a bold paragraph goes on in its style, a figure's label is followed by other short labels
    same = 0
    for r in rows[i + 1 : i + 5]:
        if style_of(r)[:3] != style_of(row)[:3]:
            break
        same += 1
    later = [r for r in rows[i + same + 1 : i + same + 4] if r.text]
    after = later[0] if later else None
    if after is not None and len(after.text) < 25 and len(later) > 1 and _distinct(after, body, body_font) \
            and style_of(later[1])[:3] not in (style_of(after)[:3], style_of(row)[:3]) and len(later[1].text) >= 25:
        after = later[1]  # a heading directly followed by its first sub-heading (BMC's "Methods" / "Ethics")
    return same <= 3 and after is not None and style_of(after)[:3] != style_of(row)[:3] and len(after.text) >= 25


def is_wrap(rows: list[Row], i: int) -> bool:
    """Row i continues the heading above it (same style, right below): _join_wrapped folds it in."""
    prev, row = rows[i - 1] if i else None, rows[i]
    return (prev is not None and prev.page == row.page and prev.column == row.column
            and style_of(prev)[:3] == style_of(row)[:3]
            and -0.4 * (row.y1 - row.y0) <= row.y0 - prev.y1 < 0.8 * (row.y1 - row.y0))


def title_block_end(rows: list[Row]) -> int:
    """Index of the first row after the title block: the first well-known heading on page 1 (Abstract,
    Introduction), else the first row below the top third of page 1."""
    first = [r for r in rows if r.page == rows[0].page] if rows else []
    for r in first:
        words = re.sub(r"^(\d+|[IVX]+)\.?\s+", "", r.text).strip(" .:")
        if KNOWN.fullmatch(words) or re.match(r"abstract\b", r.text, re.I):
            return r.index
    height = max((r.y1 for r in first), default=0.0)
    return next((r.index for r in first if r.y0 > height / 3), len(first))


def _italic_styles(rows: list[Row], start: int, body: float, body_font: str, taken: set[int],
                   vote: Callable[[list[Row]], float]) -> list[Row]:
    """Rows of italic serif styles that stand alone like headings and recur (ASCE's, AIAA's and many engineering
    journals' lowest level), kept when the layout model calls most of them section headers: italic at body size is
    also emphasis (a quoted line, a one-line remark), so typography alone cannot tell them apart."""
    by_style: dict[Style, list[Row]] = defaultdict(list)
    for r in rows[start:]:
        prev = rows[r.index - 1] if r.index else None
        if prev is not None and CAPTION_LABEL.fullmatch(prev.text.strip()):
            continue  # APA's italic float title under its `Figure 1` label
        if r.index not in taken and r.italic and not is_wrap(rows, r.index) \
                and _candidate(rows, r.index, body, body_font, italic_ok=True):
            by_style[style_of(r)].append(r)
    out: list[Row] = []
    for rs in by_style.values():  # (how often the style prints other lines does not count: journal names do)
        if len(rs) >= 2 and len({r.page for r in rs}) >= 2 and vote(rs) >= VOTE_SHARE:
            out += rs
    return out


CAPTION_LABEL = re.compile(r"(fig\.?|figure|table|tab\.)\s*[\dIVXA-Z]+[.:]?", re.I)
VOTE_SHARE = 0.6  # share of a style's rows the layout model must call section headers


def styled_headings(rows: list[Row], body: float, numbered: dict[int, Style],
                    vote: Callable[[list[Row]], float] | None = None) -> dict[int, int]:
    """{row index: level} of unnumbered headings found by typography. `numbered` maps each numbered level to
    its dominant style (empty for papers without numbered headings). `vote` (the layout model: the share of
    given rows it calls section headers) is asked only about italic serif styles in unnumbered papers."""
    if not rows:
        return {}
    fonts: Counter[str] = Counter()
    for r in rows:
        fonts[r.font] += len(r.text)
    body_font = fonts.most_common(1)[0][0]
    start = title_block_end(rows)
    cands = [r for r in rows[start:] if _candidate(rows, r.index, body, body_font) and not is_wrap(rows, r.index)]
    # the title printed again over the text (APA manuscripts, theses) is no heading
    front = _key(" ".join(r.text for r in rows[:start] if r.page == rows[0].page))
    cands = [r for r in cands if len(_key(r.text)) < 20 or _key(r.text) not in front]
    if numbered:
        # levels 1-2 only: a deeper level's style (bold at body size) is also the style of emphasised body lines
        level_of = {(s[0], s[1], s[2]): lvl for lvl, s in sorted(numbered.items(), reverse=True) if lvl <= 2}
        def plain(r: Row) -> bool:  # a well-known name, or a one-line row larger than the body or in capitals
            nxt = rows[r.index + 1] if r.index + 1 < len(rows) else None
            wraps = nxt is not None and style_of(nxt)[:3] == style_of(r)[:3]
            return bool(KNOWN.fullmatch(r.text.strip(" .:"))) or (
                (r.size >= body + 0.8 or r.text.isupper()) and not wraps)

        return {r.index: level_of[style_of(r)[:3]] for r in cands if style_of(r)[:3] in level_of and plain(r)}
    voted: set[int] = set()
    if vote is not None:
        voted = {r.index for r in _italic_styles(rows, start, body, body_font, {r.index for r in cands}, vote)}
        cands = sorted(cands + [rows[i] for i in voted], key=lambda r: r.index)
    usage: Counter[Style] = Counter(style_of(r) for r in rows if not is_wrap(rows, r.index))
    by_style: dict[Style, list[Row]] = defaultdict(list)
    for r in cands:
        by_style[style_of(r)].append(r)
    split = _split_by_alignment(rows, by_style)
    accepted: list[tuple[tuple, Style]] = []
    for style, rs in by_style.items():
        if all(r.text.lower().startswith("abstract") for r in rs):
            continue  # level 1 whatever its style: a bold "Abstract" set apart ranks no heading level (ICSV)
        known = sum(1 for r in rs if KNOWN.fullmatch(r.text.strip(" .:")))
        spread = len(rs) >= 2 and len({r.page for r in rs}) >= 2 and (
            len(rs) >= 0.5 * usage[style] or all(r.index in voted for r in rs))
        if known or spread:
            # ties (same size, weight and case: BMC's sans sub-headings and italic sub-sub-headings) go to the
            # upright font, then to the style printed first (a deeper level only appears below a shallower one)
            italic = sum(1 for r in rs if r.italic or ITALIC_FONT.search(r.font)) > len(rs) / 2
            centred = split.get(style) == "centred"
            accepted.append(((-style[0], -known, not style[3], not style[1], italic, not centred, rs[0].index), style))
    ranks = {style: n + 1 for n, (_, style) in enumerate(sorted(accepted))}
    out: dict[int, int] = {}
    for r in cands:
        if r.text.lower().startswith("abstract"):
            out[r.index] = 1
        elif (rank := ranks.get(_split_key(rows, r, split))) is not None:
            out[r.index] = rank
    return out


def _key(text: str) -> str:
    return re.sub(r"[^a-z0-9]", "", text.lower())


def _text_below(rows: list[Row], row: Row) -> tuple[float, float] | None:
    """Left and right edges of the next few rows of the row's column on its page (None: nothing follows)."""
    below = [r for r in rows[row.index + 1 : row.index + 5] if r.page == row.page and r.column == row.column and r.text]
    return (min(r.x0 for r in below), max(r.x1 for r in below)) if below else None


def _width(extent: tuple[float, float]) -> float:
    return max(extent[1] - extent[0], 1.0)


def _centred_over(row: Row, extent: tuple[float, float]) -> bool:
    left, right = extent
    return abs((row.x0 + row.x1) / 2 - (left + right) / 2) <= 0.06 * _width(extent) and row.x0 > left + 5


def _centred(rows: list[Row], row: Row) -> bool:
    """Centred over the text that follows it in its column."""
    extent = _text_below(rows, row)
    return extent is not None and _centred_over(row, extent)


def _split_key(rows: list[Row], r: Row, split: dict) -> tuple:
    """The row's style, or its half of a style `_split_by_alignment` split in two."""
    style = style_of(r)
    return (*style, "centred" if _centred(rows, r) else "flush") if split.get(style) == "split" else style


def _split_by_alignment(rows: list[Row], by_style: dict[Style, list[Row]]) -> dict:
    """One typography printed both centred and flush left, each on two pages or more: two heading levels told apart
    by placement alone (APA: level 1 centred bold, level 2 flush-left bold, same face and size). Replaces such a
    style's group in `by_style` by its two halves; returns {half: "centred" | "flush", split style: "split"}."""
    out: dict = {}
    for style, rs in list(by_style.items()):
        halves: dict[str, list[Row]] = {"centred": [], "flush": []}
        for r in rs:
            halves["centred" if _centred(rows, r) else "flush"].append(r)
        if all(len(h) >= 2 and len({r.page for r in h}) >= 2 for h in halves.values()):
            del by_style[style]
            for name, h in halves.items():
                by_style[(*style, name)] = h
                out[(*style, name)] = name
            out[style] = "split"
    return out
