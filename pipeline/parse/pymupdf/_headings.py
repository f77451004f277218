"""Heading detection for the sections and reference views.

Headings come from typography + numbering ("3", "3.1", "A.2", "IV.", IEEE's italic "A. Title", amsart's run-in
"5.1. Title.", plus unnumbered names such as Abstract or References), from typography alone for unnumbered
headings (_heading_styles.py), and from the PDF outline when there is one. Nothing above the first heading of
page 1 (title, authors) is a heading. Outline entries are located on their page by
text so they cut the content exactly like typographic headings do. A pure function of the DocumentAnalysis;
DocumentFacts.headings computes it once per document.
"""
from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable
from statistics import median

from pipeline.parse.ocr import OCR_FONT
from pipeline.parse.pymupdf._heading_styles import MATH_FONT, Style, style_of, styled_headings, title_block_end
from pipeline.parse.pymupdf._sections_rows import Row, build_rows
from pipeline.parse.pymupdf.page import DocumentAnalysis

# a section sign may stand before the number (`§2 Related Work`, `§2.1 ...`: law, economics and some CS templates)
_NUM = r"(?:§\s?)?(?P<num>\d{1,2}(?:\.\d{1,2}){0,3}|[A-Z](?:\.\d{1,2}){0,3}|[IVX]{1,5})"
NUMBERED = re.compile(_NUM + r"(?P<dot>\.?)\s+(?P<title>[^\W\d_][^\n]*)$")
UNNUMBERED = re.compile(
    r"(abstract|acknowledge?ments?|references|bibliography|limitations?|ethics( statement)?|ethical considerations?"
    r"|broader impacts?( statement)?|appendix( overview)?|appendices|supplementary materials?|reproducibility statement"
    r"|impact statement|author contributions?|conclusions?)\s*[.:]?",
    re.I,
)
APPENDIX = re.compile(r"appendix\s+([A-Z])\b[.:]?\s*\S", re.I)
CAPTION = re.compile(r"(fig\.?|figure|table|tab\.|algorithm|listing|eq\.|equation)\s*[A-Z]?\d", re.I)
DOTTED = re.compile(r"\d{1,2}(?:\.\d{1,2}){1,3}\.?\s+[^\W\d_]")  # a subsection number: "2.1", "3.2.1."
# a numbered heading's start: "II. ", "A. ", "2.1. ", "2.1 " (not "A " or "II ": words and table cells)
DOT_NUMBERED = re.compile(r"(?:[IVX]{1,5}\.|[A-Z]\.|\d{1,2}(?:\.\d{1,2}){0,3}\.?)\s+[^\W\d_]")
# fonts whose lower-case letters are small capitals: cmcsc10, LMRomanCaps10, *SmallCaps*, *-SC, smcp features
SMALL_CAPS_FONT = re.compile(r"caps|csc\d|smallcap|-sc\b|\bsc\d*$|smcp", re.I)
ROMAN_BEFORE = {"V": "IV", "X": "IX"}  # single-letter roman numerals, by the numeral before them
ROMAN = {"I": 1, "II": 2, "III": 3, "IV": 4, "V": 5, "VI": 6, "VII": 7, "VIII": 8, "IX": 9, "X": 10}


def _norm(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "", text.lower())


def _key(num: str) -> tuple:
    """Sortable key of a section number: digits < letters (appendix) so 'A' follows '7'; 'IV.' is roman."""
    if num.endswith("."):
        return (ROMAN[num[:-1]],)
    parts = num.split(".")
    head = (100 + ord(parts[0]) - 64) if parts[0].isalpha() else int(parts[0])
    return (head, *(int(x) for x in parts[1:]))


# OCR'd lines (font "OCR", pipeline/parse/ocr.py) carry noisy typography. Tesseract's line height underrates a line
# set in capitals (no descenders: KDD's bold "REFERENCES" reads 6.5 pt for 10.9, its "5 EXPERIMENTS" 9.0 beside 10.5
# for the other level-1 headings; Econometrica's centred small-capital headings 7.5-9.5 pt), and the stroke-width
# bold test misses a heading now and then (ReStat's "V. Results" beside four bold ones). So on an OCR'd line the
# heading cue is weight OR placement: bold down to OCR_BOLD_SLACK points under the body size, or centred in its
# column (_ocr_centred); and the headings of one level are not compared by style (_level_style), only by their
# numbers, which must still count up.
OCR_BOLD_SLACK = 3.0
OCR_NUMBER_STEP = 2  # an OCR'd heading number is at most this much past the one before it (one may be unread)
OCR_CENTRE = 0.06  # a centred line's middle is within this share of the column's width of the column's middle


def _ocr_bold(row: Row) -> bool:
    return row.bold and row.font == OCR_FONT


def _ocr_centred(rows: list[Row]) -> set[int]:
    """Indices of OCR'd rows set centred in their column: indented from both of its edges by the same amount."""
    columns: dict[tuple[int, int], list[Row]] = {}
    for r in rows:
        if r.font == OCR_FONT and r.text:
            columns.setdefault((r.page, r.column), []).append(r)
    out: set[int] = set()
    for rs in columns.values():
        full = sorted(rs, key=lambda r: r.x1 - r.x0)[len(rs) // 2 :]  # the longer half: the column's full lines
        if len(full) < 4:
            continue
        left = median(r.x0 for r in full)
        right = median(r.x1 for r in full)
        width = right - left
        for r in rs:
            if width > 0 and r.x0 > left + 8 and r.x1 < right - 8 \
                    and abs((r.x0 + r.x1) / 2 - (left + right) / 2) <= OCR_CENTRE * width:
                out.add(r.index)
    return out


def _wordlike(title: str) -> bool:
    """An OCR'd heading title reads as words: letters make most of it and one word has three letters or more."""
    chars = title.replace(" ", "")
    return sum(c.isalpha() for c in chars) >= 0.75 * len(chars) and bool(re.search(r"[^\W\d_]{3}", title))


def _looks_like_heading(row: Row, body: float, centred: set[int] = frozenset()) -> bool:
    text = row.text
    if not (3 <= len(text) <= 110) or text.endswith((",", ";")) or text.count(",") > 2 or len(text.split()) > 16:
        return False
    if sum(c.isalpha() for c in text) < 3 or MATH_FONT.match(row.font):
        return False  # display math set large ("2 V T [KT"), not a heading
    if row.italic and row.size >= body - 0.6 and re.match(r"[A-Z]\. [a-z]*[A-Z]", text) and not text.endswith("."):
        return True  # IEEE subsections: "A. Core properties", "D. kNN-Based Methods" in italics (_filter keeps them
        # in roman papers only)
    if row.italic and row.size >= body - 1.1 and re.match(r"\d{1,2}\. [A-Z]", text) and not text.endswith("."):
        return True  # AIAA's and revtex's third level: "1. Relaxed Selection" in italics (roman papers only: _filter)
    if row.italic and row.size >= body - 0.6 and DOTTED.match(text) and not text.endswith("."):
        return True  # elsarticle subsections: "2.1. Data" in italics (_filter: levels 2+ only, their top must exist)
    if row.bold and re.fullmatch(r"abstract[.:]?", text, re.I):
        return True  # article class sets it bold in \small
    if row.bold and row.size >= body - 1.1 and UNNUMBERED.fullmatch(text):
        return True  # revtex's preprint mode: bold 10.9 pt "ACKNOWLEDGMENTS" beside its 12 pt text, as its numbered ones
    if row.bold and row.size >= body - 1.1 and DOT_NUMBERED.match(text):
        return True  # revtex's bold \small "II. RELATED WORK", a scaled sans "2.1 Data" (_filter: dominant style)
    if row.size >= body + 0.8 and row.font_share >= 0.9 and (DOT_NUMBERED.match(text) or UNNUMBERED.fullmatch(text)):
        return not CAPTION.match(text)  # NRC's light sans "1. Introduction" at 10.9 pt over a 10 pt body
    if row.font == OCR_FONT and ((row.bold and row.size >= body - OCR_BOLD_SLACK) or row.index in centred):
        return not CAPTION.match(text)  # weight or placement, not size, on OCR'd lines (OCR_BOLD_SLACK)
    if not ((row.bold and row.size >= body - 0.6) or row.size >= body + 1.0):
        # small caps (ICLR): capitals at body size, the rest of each word smaller and not bold
        if not row.size >= body - 0.2:
            return False
        if SMALL_CAPS_FONT.search(row.font):
            return not CAPTION.match(text)  # a small-caps font (amsart's centred "1. Introduction")
        if not text.isupper() or len({round(s.size, 1) for ln in row.lines for s in ln.spans if s.text.strip()}) < 2:
            return False
    return not CAPTION.match(text)


RUN_IN = re.compile(r"(?P<num>\d{1,2}(?:\.\d{1,2}){1,2})\.?\s+(?P<title>[A-Z][^.]{2,100})\.")


def _lead(row: Row, emphasis: str | None = None) -> tuple[str, str | None]:
    """The row's leading run of bold (or italic) text, its number included, and which emphasis it is."""
    lead = ""
    for line in row.lines:
        if lead and not lead[-1].isspace():  # the number as a line of its own (ASME: "3.1", a quad, the title)
            lead += " "
        for span in line.spans:
            text = span.text.strip()
            if text and not re.fullmatch(r"[\d.]+", text):  # the number may be set in the body font
                kind = "bold" if span.bold else "italic" if span.flags & 2 or "ital" in span.font.lower() else None
                emphasis = emphasis or kind
                if kind is None or kind != emphasis:
                    return lead, emphasis  # the title is the bold (level 2) or italic (level 3) lead
            lead += span.text
    return lead, emphasis


def _run_in(row: Row, nxt: Row | None = None) -> tuple[Row, str, int] | None:
    """A numbered subsection set run-in (amsart: a bold "5.1. Planar algebras." or an italic "5.1.1. Cases." then the
    paragraph on the same line). Unnumbered run-in heads ("Datasets.") are paragraph heads and stay in their parent's
    content. A run-in title that fills its line goes on at the start of the next (`3.2 Training Objective with Load
    Balancing Across Experts and` / `Tokens. Long documents ...`): the next row's lead in the same emphasis, up to its
    period, completes it, and that row keeps the rest."""
    if not row.text[:1].isdigit():
        return None
    lead, emphasis = _lead(row)
    rest = None
    # the title must fill its line (as wide as the justified line under it): a heading on a line of its own is no
    # run-in head, and the next row's bold lead is a paragraph head of its own ("4.1 Benchmarks" / "Datasets. ...")
    if (len(lead.strip()) >= len(row.text) and nxt is not None and nxt.page == row.page and emphasis
            and row.x1 >= nxt.x1 - 2):
        more, _ = _lead(nxt, emphasis)
        if "." in more and len(more.strip()) < len(nxt.text):  # the paragraph goes on after it, in body type
            more = more[: more.index(".") + 1]
            lead, rest = f"{lead.strip()} {more.strip()}", nxt.text[len(more.strip()):].strip()
    m = RUN_IN.fullmatch(lead.strip())
    if not m or len(m.group("title").split()) > 12 or (rest is None and len(lead.strip()) >= len(row.text)):
        return None
    if rest is not None:
        row.tail, nxt.text = "", rest
    else:
        row.tail = row.text[len(lead.strip()):].strip()
    row.text = f"{m.group('num')}. {m.group('title')}"
    # the heading's weight, not the line's: a run-in head shares its line with body text (not bold by majority),
    # unless its title fills the line; one level's heads must read alike (_filter compares their styles)
    row.bold = emphasis == "bold"
    return row, m.group("num"), m.group("num").count(".") + 1


def _candidates(rows: list[Row], body: float) -> list[tuple[Row, str, int]]:
    """(row, number or '', level) for rows whose text and typography look like a heading."""
    out: list[tuple[Row, str, int]] = []
    centred = _ocr_centred(rows)
    for i, row in enumerate(rows):
        run_in = _run_in(row, rows[i + 1] if i + 1 < len(rows) else None)
        if run_in:
            out.append(run_in)
            continue
        if not _looks_like_heading(row, body, centred):
            continue
        appendix = APPENDIX.match(row.text)
        if appendix:  # "Appendix A. Proofs" numbers the appendix's subsections A.1, A.2, ...
            out.append((row, appendix.group(1), 1))
            continue
        m = NUMBERED.match(row.text)
        title = m.group("title") if m else ""
        if m and len(m.group("num")) == 1 and m.group("num").isalpha() and re.match(r"[A-Z]\.\s", title):
            m = None  # initials ("D. M. Kreps and E. L. Porteus", a running header): a name, not "D. Methods"
        if m and row.font == OCR_FONT and not _wordlike(title):
            m = None  # OCR of a formula or a figure's labels ("34 x4 (Cc) |"): a number its headings must not pass
        if m and "%" not in title and sum(c.isdigit() for c in title) <= 0.2 * len(title):
            num = m.group("num")
            if num in ROMAN and m.group("dot") and (len(num) > 1 or num == "I" or title.isupper()):
                num += "."  # roman ("IV. RESULTS"); _filter decides whether the paper numbers that way
            elif num in ROMAN and len(num) > 1:
                num = ""  # "II Results" without a dot is too ambiguous
            # a letter before a lower-case word is a list item or prose ("a. the ..."); an acronym that starts in
            # lower case is a title ("D. kNN-Based Methods")
            lower_word = title[:1].islower() and not any(c.isupper() for c in title.split()[0])
            if num and not (num[0].isalpha() and len(num) == 1 and lower_word):
                level = 1 if num.endswith(".") else num.count(".") + 1
                out.append((row, num, level))
                continue
        if UNNUMBERED.fullmatch(row.text):
            out.append((row, "", 1))
    return out


def _style(row: Row) -> tuple[float, bool]:
    return (-1.0 if _ocr_bold(row) else round(row.size), row.bold)  # OCR_BOLD_SLACK: a bold OCR'd line's size is noise


def _level_style(row: Row) -> tuple[float, bool]:
    """What the headings of one level share: size and weight; nothing to compare on OCR'd lines (OCR_BOLD_SLACK)."""
    return (-1.0, False) if row.font == OCR_FONT else _style(row)


def _filter(cands: list[tuple[Row, str, int]]) -> list[tuple[Row, str, int]]:
    """Keep numbered headings that share their level's dominant style and whose numbers increase; this drops
    bold table cells, list items and stray numbers that happen to look like '2 Results'."""
    nums = {num for _, num, _ in cands}
    roman = {"I.", "II."} <= nums  # IEEE style: "I. INTRODUCTION", subsections "A. ..."
    fixed = []
    for row, num, level in cands:
        if row.italic and not row.bold and not roman and level < 2:
            continue  # italic "A. ..." lines are subsections only under IEEE's roman numbering ("2.1." may be)
        if num.endswith(".") and not roman:
            if len(num) > 2:
                continue
            num = num[:-1]  # appendix "I. Proofs" in a paper numbered 1, 2, 3
        elif roman and num.isdigit():
            level = 3  # "1. Relaxed Selection" under "II." and "A.": AIAA's third level (IEEE's is a run-in "1)")
        elif roman and len(num) == 1 and num.isalpha() and not APPENDIX.match(row.text):  # ("Appendix I. Data")
            if f"{ROMAN_BEFORE.get(num)}." in nums and NUMBERED.match(row.text).group("dot"):
                num += "."  # "V. Results" after "IV. Data": the roman five, not the letter of a subsection
            else:
                level = 2
        fixed.append((row, num, level))
    cands = fixed
    styles: dict[int, Counter] = {}
    for row, num, level in cands:
        if num:
            styles.setdefault(level, Counter())[_level_style(row)] += 1
    dominant = {lvl: c.most_common(1)[0][0] for lvl, c in styles.items()}
    heading_sizes = {s for s, _ in dominant.values()}
    # top-level numbers that exist, compared without regard to order so that a column read out of order
    # does not cost its subsections
    tops = {_key(num)[0] for row, num, level in cands if num and level == 1 and _level_style(row) == dominant.get(1)}
    out: list[tuple[Row, str, int]] = []
    last: dict[int, tuple] = {}
    for k, (row, num, level) in enumerate(cands):
        if not num:
            # unnumbered names must look like some numbered heading when the paper has numbered ones
            if heading_sizes and round(row.size) < min(heading_sizes) and not row.bold:
                continue
            out.append((row, num, level))
            continue
        if _level_style(row) != dominant[level]:
            continue
        key = _key(num)
        prev = last.get(level)
        if prev is not None and key <= prev:
            continue
        if row.font == OCR_FONT and num[0].isdigit() and (
                (level > 1 and key[:-1] != last.get(level - 1, key[:-1]))
                or (key[-1] > OCR_NUMBER_STEP + prev[-1] if prev is not None and prev[:-1] == key[:-1]
                    else any(n and lvl == level and n[0].isdigit() and _key(n)[:-1] == key[:-1] and _key(n) < key
                             for _, n, lvl in cands[k + 1 :]))):
            # on OCR'd lines: a subsection number under its own section only ("3.1. We start by ..." opening a
            # paragraph of section 7); a figure's "10 stores" after "5 EXPERIMENTS": a number skips at most one
            # heading; the first one ("34 x4" before "1. MATHEMATICAL ...") must not be followed by a lower one
            continue
        if level > 1 and tops and key[0] not in tops and not roman:
            continue  # "5.1" in a paper without a section 5: a table row or a list, not a heading
        last[level] = key
        for deeper in [k for k in last if k > level]:
            del last[deeper]
        out.append((row, num, level))
    return out


def _matches(row: Row, title: str) -> bool:
    """The row prints the outline title, possibly behind its number ("3.1 Encoder" for 'Encoder')."""
    want, text = _norm(title), _norm(row.text)
    if not want or len(row.text) > len(title) + 12:
        return False
    if text == want:
        return True
    return text.endswith(want) and bool(NUMBERED.match(row.text) or UNNUMBERED.match(row.text))


def _from_outline(analysis: DocumentAnalysis, rows: list[Row], heads: dict[int, int], toc: set[int]) -> dict[int, int]:
    """Row index -> outline level for outline entries located in the text. Typographic headings are tried
    first (a figure may repeat a heading's words), then heading-styled rows on the entry's page, then any
    row after the previous match (some outlines carry wrong page numbers)."""
    styled = {r.index for r in rows if r.index in heads or _looks_like_heading(r, analysis.body_size)}
    found: dict[int, int] = {}
    after = -1
    for level, title, page in analysis.doc.get_toc():
        near = [r for r in rows[after + 1 :] if abs(r.page - page) <= 1 and r.index not in toc]
        scopes = (
            [r for r in near if r.index in heads],
            [r for r in near if r.index in styled],
            [rows[i] for i in sorted(styled) if i > after and i not in toc],
            near,
        )
        hit = next((r for scope in scopes for r in scope if _matches(r, title)), None)
        if hit:
            found[hit.index] = level
            after = hit.index
    return found


def _right_edge(rows: list[Row], head: Row) -> float:
    """Right margin of the head's column on its page: justified body lines all end there."""
    ends = Counter(round(r.x1) for r in rows if r.page == head.page and r.column == head.column and r.x0 < head.x0 + 20)
    return ends.most_common(1)[0][0] if ends else head.x1


# a title that stops on one of these words goes on on the next line ("B. Consequences on Learning Requirements and")
# ("B. Storage of Scalable VBR Video Using"); a word set off by a hyphen ("Model-Based") is another matter
OPEN_END = re.compile(r"(?<![-\w])(and|or|of|for|in|on|with|to|the|a|an|via|from|by|at|as|its|their|under|between|versus|"
                      r"vs\.|using|into|through|towards?|without|within|across|against|among|upon|than|per)$", re.I)
# a run-in sub-heading or list item under the heading ("1) MIT CMU Test Set: In Fig. 16 ...") is no continuation
ITEM = re.compile(r"(\(?\d{1,2}\)|\(?[a-z]\)|[A-Z]\.\s|\d{1,2}(\.\d{1,2})*\.?\s)")


def _continues(rows: list[Row], head: Row, last: Row, nxt: Row, heads: dict[int, int]) -> bool:
    """nxt carries on the heading whose first row is `head` and whose last row so far is `last`."""
    h = last.y1 - last.y0
    return (
        nxt.index not in heads and not head.tail and nxt.page == head.page and nxt.column == head.column
        and _style(nxt) == _style(head) and nxt.italic == head.italic and nxt.font == head.font
        and (nxt.text.isupper() or not head.text.isupper()) and not ITEM.match(nxt.text)
        and -0.4 * h <= nxt.y0 - last.y1 < 0.8 * h
        and len(nxt.text) < 80 and not nxt.text.endswith((".", ":"))
        # the continuation hangs under the title after the number, the next word would not have fit, or the
        # title stopped on a word that cannot end it
        and (nxt.x0 > head.x0 + 4 or last.x1 + 0.5 * head.size * len(nxt.text.split()[0]) > _right_edge(rows, head)
             or bool(OPEN_END.search(last.text)) or nxt.text[:1].islower())
    )


def _join_wrapped(rows: list[Row], heads: dict[int, int]) -> None:
    """A heading wrapped over up to four printed lines: fold the lines below it (same style and font, capitals
    where the heading is in capitals, right below) into it; rows without text in between are skipped."""
    for index in sorted(heads):
        head = rows[index]
        if not head.text:
            continue
        last, k, joined = head, index + 1, 0
        while k < len(rows) and joined < 3:
            nxt = rows[k]
            if not nxt.text and nxt.page == head.page:
                k += 1
                continue
            if not _continues(rows, head, last, nxt, heads):
                break
            head.text = f"{head.text} {nxt.text}"
            head.lines = head.lines + nxt.lines
            nxt.text = ""  # consumed: contributes nothing to the content
            last, k, joined = nxt, k + 1, joined + 1


CONTENTS = re.compile(r"(table of )?contents|inhalt(sverzeichnis)?|sommaire|table des mati[eè]res", re.I)
LEADERS = re.compile(r"(\.\s?){4,}\s*\d*\s*$|\s\d{1,3}$")  # ". . . . 12" or a trailing page number


def _toc_rows(rows: list[Row]) -> set[int]:
    """Rows of a printed table of contents: the page holding a "Contents" heading and the pages after it whose
    rows end in dotted leaders or page numbers (bare page numbers on rows of their own count too). Their entries
    repeat the headings and are never headings themselves."""
    by_page: dict[int, list[Row]] = {}
    for r in rows:
        if r.text:
            by_page.setdefault(r.page, []).append(r)

    def hit(r: Row) -> bool:
        return bool(LEADERS.search(r.text) or r.text.isdigit())

    def listing(rs: list[Row]) -> bool:
        return len(rs) >= 5 and sum(map(hit, rs)) >= 0.4 * len(rs)

    def until_text(rs: list[Row]) -> list[Row]:
        """The rows down to the listing's last entry: a short paper's text starts on the page its contents end
        (`1` / `Introduction` and the first paragraph under the last entry), and three rows in a row without a
        leader or page number are text (an entry wrapped over two rows has its number on the second)."""
        first = next((i for i, r in enumerate(rs) if hit(r)), None)
        if first is None:
            return []
        last, misses = first, 0
        for i in range(first + 1, len(rs)):
            if hit(rs[i]):
                last, misses = i, 0
            else:
                misses += 1
                if misses == 3:
                    break
        return rs[: last + 1]

    out: set[int] = set()
    pages = sorted(by_page)
    for k, page in enumerate(pages):
        rs = by_page[page]
        head = next((i for i, r in enumerate(rs) if CONTENTS.fullmatch(r.text.strip(" .:"))), None)
        if head is None or not listing(rs[head + 1 :]):
            continue
        out.update(r.index for r in rs[head : head + 1] + until_text(rs[head + 1 :]))
        for nxt in pages[k + 1 :]:
            if not listing(by_page[nxt]):
                break
            out.update(r.index for r in until_text(by_page[nxt]))
    return out


def _layout_vote(analysis: DocumentAnalysis) -> Callable[[list[Row]], float]:
    """The share of rows that PyMuPDF's layout model covers (half a row's area or more) with a section-header or
    title region; it runs on those rows' pages only (~0.45 s a page, once per page)."""
    def vote(rs: list[Row]) -> float:
        hits = 0
        for r in rs:
            if r.font == OCR_FONT:
                continue
            area = max((r.x1 - r.x0) * (r.y1 - r.y0), 1e-6)
            for (x0, y0, x1, y1), cls in analysis.pages[r.page - 1].layout:
                w, h = min(x1, r.x1) - max(x0, r.x0), min(y1, r.y1) - max(y0, r.y0)
                if cls in ("section-header", "title") and w > 0 and h > 0 and w * h >= 0.5 * area:
                    hits += 1
                    break
        return hits / len(rs)
    return vote


BIB_NAME = re.compile(r"(?:(?:\d+|[IVX]+)\.?\s+)?(references|bibliography|literature cited|works cited)\s*(:?)", re.I)
YEAR = re.compile(r"\b(1[89]|20)\d\d\b")  # (as references.YEAR; importing it from there would be circular)


def _colon_bibliography(rows: list[Row], heads: dict[int, int], start: int) -> None:
    """`References:` run in small type on a line of its own (Res Philosophica and other humanities journals set the
    list's label so), or a plain `References` in the text's own face (an APA manuscript centres it so): a level-1
    heading when no heading names the bibliography and entries with years follow."""
    if any(BIB_NAME.fullmatch(rows[i].text.strip()) for i in heads):
        return  # a heading names it already
    for r in rows[start:]:
        m = BIB_NAME.fullmatch(r.text.strip())
        if r.index not in heads and m:
            after = [q for q in rows[r.index + 1 : r.index + 16] if q.text]
            if len(after) >= 3 and sum(1 for q in after if YEAR.search(q.text)) >= 0.2 * len(after):
                heads[r.index] = 1
                return


def detect_headings(analysis: DocumentAnalysis, use_layout: bool = True) -> tuple[list[Row], dict[int, int]]:
    """Rows of the document and {row index: level} of its headings (DocumentFacts.headings caches them: the
    reference view needs the same headings, to find where the bibliography starts and ends). `use_layout`: the
    layout model may vote on italic heading styles (`_heading_styles._italic_styles`)."""
    rows = build_rows(analysis)
    # nothing above the first heading of page 1 (Abstract, Introduction) is a heading: title, authors
    start = title_block_end(rows)
    toc = _toc_rows(rows)
    heads: dict[int, int] = {}
    styles: dict[int, Counter[Style]] = {}
    for row, num, level in _filter(_candidates([r for r in rows[start:] if r.index not in toc], analysis.body_size)):
        heads[row.index] = level
        if num:
            styles.setdefault(level, Counter())[style_of(row)] += 1
    numbered = {lvl: c.most_common(1)[0][0] for lvl, c in styles.items()}
    vote = _layout_vote(analysis) if use_layout else None
    for index, level in styled_headings(rows, analysis.body_size, numbered, vote).items():
        if index in toc:
            continue
        if numbered and rows[index].font == OCR_FONT:
            continue  # typography alone is too noisy on OCR'd lines to add headings to a numbered paper's
        if index not in heads or not numbered:  # an unnumbered paper: the style's rank beats the name's level 1
            heads[index] = level
    _colon_bibliography(rows, heads, start)
    outline = _from_outline(analysis, rows, heads, toc) if analysis.doc.get_toc() else {}
    for index, level in outline.items():
        # printed numbering beats the outline's nesting (some outlines flatten or over-nest appendices)
        m = NUMBERED.match(rows[index].text)
        if index not in heads and m and not m.group("num").isalpha():
            level = m.group("num").count(".") + 1
        heads[index] = heads.get(index, level)
    _join_wrapped(rows, heads)
    return rows, heads
