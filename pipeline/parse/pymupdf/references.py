"""reference view: one row per bibliography entry.

The bibliography runs from the References/Bibliography heading to the next heading (an appendix) or the end of
the document; without a heading (revtex, Nature) it is the last run of labels counting up from [1] / 1.
Running headers inside it (the same text near the top or bottom edge of three pages) are dropped. How entries start
is decided per bibliography by evidence, in this order:
1. labels ("[12]", "12.", "(12)", a bare "12", "[KS05]") when the list begins with one and they recur (numbered
   labels must count up);
2. a hanging indent (first line at the column's left edge, the rest indented), per page and column;
3. without indent: a row that looks like the start of an author list ("Surname, I.", "Surname AB,",
   "I. Surname", "Surname I. J.,", particles like "van der") right after a row that ended an entry (a period,
   a closing parenthesis, a page range, a year, a DOI or URL); only where that finds nothing, a wider-than-usual
   line gap (never at the top of a column, where an entry may continue).
Entry text: lines joined with URLs kept intact; hyperref back-reference page lists ("... 2019. 1, 3, 6",
"Cited on pages 2 and 5", "↑ 3") are stripped when the paper's entries show them.
"""
from __future__ import annotations

import re
from statistics import median

from pipeline.parse.ocr import CODE_FONT, OCR_FONT
from pipeline.document import Reference
from pipeline.parse.pymupdf._geometry import hrules
from pipeline.parse.pymupdf._sections_rows import MARGIN, Row
from pipeline.parse.pymupdf.facts import DocumentFacts, as_facts
from pipeline.parse.pymupdf.page import DocumentAnalysis

HEADING = re.compile(r"((\d+|[IVX]+)\.?\s*)?(references?|bibliography|literature cited|works cited)\s*:?", re.I)
# [1] 1. (1) 1) or a bare 1 (OCR may lose the "["); `1)` is the Japanese physics journals' label (JPSJ, PTEP)
LABEL = re.compile(r"(\[?\d{1,3}\]|\d{1,3}\.|\(?\d{1,3}\)|\d{1,3}(?=\s+[A-Z\u00C0-\u024F]))\s")
HEAD_LABEL = re.compile(r"(\[1\]|1\.|1\)|1(?=\s+[A-Z\u00C0-\u024F]))\s")  # how an unheaded list begins
YEAR = re.compile(r"\b(1[89]|20)\d\d\b")
ALPHA_LABEL = re.compile(r"\[[A-Za-z][^\]\s]{1,12}\]\s")
URLISH = re.compile(r"(https?://|www\.|doi\.org|arxiv\.org)\S*$", re.I)


def _unheaded_start(rows: list[Row]) -> int | None:
    """Index of the row starting the last run of labels that counts up from 1 ([1] [2] [3] [4] ...)."""
    found = None
    for i, r in enumerate(rows):
        if not HEAD_LABEL.match(_label_text(r) + " "):
            continue
        expected = 2
        for q in rows[i + 1 : i + 80]:
            if _label_number(q) == expected:
                expected += 1
        if expected >= 5 and sum(1 for q in rows[i : i + 40] if YEAR.search(q.text)) >= 0.2 * len(rows[i : i + 40]):
            found = i
    return found


def _is_list(rows: list[Row], heads: dict[int, int], at: int) -> bool:
    """Whether a References heading is followed by entries (a table of contents names "References" too, with
    no years under it): at least three rows before the next heading, a fifth of them with a year."""
    end = min((i for i in heads if i > at), default=len(rows))
    body = [r for r in rows[at + 1 : end] if r.text]
    return len(body) >= 3 and sum(1 for r in body if YEAR.search(r.text)) >= 0.2 * len(body)


def _main_list(rows: list[Row], heads: dict[int, int], starts: list[int]) -> int:
    """The heading of the paper's own bibliography: the first References heading followed by entries. A later
    one belongs to a supplement appended after the main references, whose own short list is kept out of the
    reference view (it stays in that supplement's section content)."""
    return next((i for i in starts if _is_list(rows, heads, i)), starts[-1])


def _label_number(row: Row) -> int | None:
    text = _label_text(row)
    m = LABEL.match(text + " ")
    n = m and re.match(r"[\[(]?(\d+)", text)
    return int(n.group(1)) if n else None


def _label_run(rows: list[Row], start: int, heads: dict[int, int]) -> list[Row]:
    """An unheaded numbered list from `start`: it ends at a heading, unless the labels go on counting after the
    heading's few rows (revtex sets the acknowledgments between the entries of a two-column list), which are
    skipped then."""
    out: list[Row] = []
    expected, i = 1, start
    while i < len(rows):
        if i in heads and i != start:
            nxt = next((k for k in range(i + 1, min(len(rows), i + 40)) if _label_number(rows[k]) == expected), None)
            if nxt is None:
                break
            i = nxt
            continue
        if _label_number(rows[i]) == expected:
            expected += 1
        out.append(rows[i])
        i += 1
    return out


def _bibliography(rows: list[Row], heads: dict[int, int], body: float, heights: dict[int, float]) -> list[Row]:
    starts = [i for i in heads if HEADING.fullmatch(rows[i].text)]
    if not starts:  # a References heading set in a style no other heading shares, or run in small type with a colon,
        # or in the text's own face over entries with years (APA manuscripts centre a plain `References`)
        starts = [r.index for r in rows if HEADING.fullmatch(rows[r.index].text)
                  and (r.bold or r.size > body or r.text.isupper() or r.text.rstrip().endswith(":")
                       or _is_list(rows, heads, r.index))]
    if starts:
        start = _main_list(rows, heads, sorted(starts)) + 1
    else:
        first = _unheaded_start(rows)
        if first is None:
            return []
        start = first
    if starts:
        end = min((i for i in heads if i >= start), default=len(rows))
        bib = [r for r in rows[start:end] if r.text]
    else:
        bib = [r for r in _label_run(rows, start, heads) if r.text]
    if not bib:
        return bib
    # a code listing after the list ends it (an appendix whose heading is run in: pinp's `Appendix 2: A Minimal
    # src/Makevars.` over a Makevars file): three rows in a row set in a typewriter face are no entries, where an
    # entry's URL may fill one line
    for k in range(len(bib) - 2):
        if all(CODE_FONT.search(r.font) for r in bib[k:k + 3]):
            bib = bib[:k]
            break
    if not bib:
        return bib
    # running headers the rows builder kept (set just below its margin): the same text near the top or
    # bottom edge of three pages or more
    edge = 1.4 * MARGIN
    pages: dict[str, set[int]] = {}
    for r in rows:
        if r.y0 < edge * heights[r.page] or r.y1 > (1 - edge) * heights[r.page]:
            pages.setdefault(re.sub(r"\d+", "#", r.text.lower()), set()).add(r.page)
    bib = [r for r in bib if len(pages.get(re.sub(r"\d+", "#", r.text.lower()), ())) < 3]
    # the entries' size, from rows of words: figures set after the list (a vignette's pages of plots, whose axis
    # labels are rows of one or two small words) would otherwise make the median theirs, and cut every entry
    size = median(r.size for r in ([r for r in bib if len(r.text.split()) >= 4] or bib))
    # an unnumbered title (ICML's "Supplementary Material for ...") ends the list as well
    for k, r in enumerate(bib):
        if r.size > size + 1.5 and len(r.text) > 3 and r.font != OCR_FONT:
            bib = bib[:k]
            break
    # footnotes set at the bottom of a bibliography column are smaller than the entries. Neither rule applies to
    # OCR'd lines: their sizes come from Tesseract's line heights, which move by 1-3 points from line to line of
    # one list (a line with no descender reads small, one with a tall bracket large)
    bib = [r for r in bib if r.size >= size - 0.5 or r.font == OCR_FONT]
    # a page number the rows builder kept: a bare number ending its page
    bib = [r for k, r in enumerate(bib) if not (r.text.isdigit() and (k + 1 == len(bib) or bib[k + 1].page != r.page))]
    # two-column pages: left column, then right (a last left-column row may have been read as a footer)
    out: list[Row] = []
    for page in dict.fromkeys(r.page for r in bib):
        on = [r for r in bib if r.page == page]
        out += sorted(on, key=lambda r: (r.column, r.y0)) if all(r.column for r in on) else on
    return out


def _superscript_label(row: Row) -> str | None:
    """The number of an entry labelled by a raised numeral set against its first word (AIAA, AIP, some ACS and
    Nature lists: `¹Wang, U. and Quinn, B., ...`), which the text layer joins to the name as `1Wang`."""
    spans = [s for s in row.lines[0].spans if s.text.strip()] if row.lines else []
    if len(spans) < 2 or not re.fullmatch(r"\d{1,3}", spans[0].text.strip()):
        return None
    label, first = spans[0], spans[1]
    raised = label.superscript or (label.size <= 0.85 * first.size and label.bbox[1] < first.bbox[1] - 0.1 * first.size)
    return label.text.strip() if raised and first.text.strip()[:1].isupper() else None


def _label_text(row: Row) -> str:
    """The row's text with a raised label set apart (`1 Wang, U.`), as a printed `1.` or `[1]` label is."""
    label = _superscript_label(row)
    return f"{label} {row.text[len(label):].lstrip()}" if label and row.text.startswith(label) else row.text


def _numbered_starts(rows: list[Row]) -> list[bool | None] | None:
    """Entry starts for labelled lists ([1], 1., [BCV13], a raised 1); None when the list is not labelled."""
    texts = [_label_text(r) for r in rows]
    for pattern in (LABEL, ALPHA_LABEL):
        hits = [bool(pattern.match(t + " ")) for t in texts]
        if rows and hits[0] and sum(hits) >= 2 and sum(hits) >= 0.15 * len(rows):
            starts = _increasing(rows, hits, texts) if pattern is LABEL else hits
            return _cut_trailer(rows, starts)
    return None


def _cut_trailer(rows: list[Row], starts: list[bool]) -> list[bool | None]:
    """After the last label, continuation lines stay indented past the label; anything back at (or left of)
    the label's x is a figure page or other matter after the list, marked None to be dropped."""
    last = max(i for i, s in enumerate(starts) if s)
    label_x = {rows[i].column: rows[i].x0 for i, s in enumerate(starts) if s}
    # a list whose entries indent their first line (AIAA: the raised label indented, the rest flush left) has its
    # continuation lines left of the labels: there the last entry runs on for as many lines as the longest before it
    runs, run = [], 0
    for k in range(last):
        run = 0 if starts[k] else run + 1
        if k + 1 == last or starts[k + 1]:
            runs.append(run)
    flush = [rows[k].x0 for k in range(last) if not starts[k]
             and rows[k].x0 < label_x.get(rows[k].column, rows[last].x0) - 2]
    if flush and len(flush) >= 0.5 * sum(1 for k in range(last) if not starts[k]):
        edge = min(flush)
        for k in range(last + 1, len(rows)):
            if k - last > max(runs, default=0) + 1 or rows[k].x0 < edge - 2:
                return starts[:k] + [None] * (len(rows) - k)
        return starts
    for k in range(last + 1, len(rows)):
        if rows[k].x0 < label_x.get(rows[k].column, rows[last].x0) + 2:
            return starts[:k] + [None] * (len(rows) - k)
    return starts


# OCR may garble a label or two beyond reading ("(a kon bips//" for "[6]"): on an OCR'd line, a number up to this
# many past the expected one still starts an entry when it sits where the column's labels sit
OCR_LOST_LABELS = 2


def _increasing(rows: list[Row], hits: list[bool], texts: list[str]) -> list[bool]:
    """Only labels that continue the count start an entry: a continuation line may begin with '2019.'."""
    expected = None
    label_x: dict[int, float] = {}
    out = []
    for row, hit, text in zip(rows, hits, texts):
        n = int(re.match(r"[\[(]?(\d+)", text).group(1)) if hit else None
        ok = hit and (expected is None or n == expected)
        if hit and not ok and expected is not None and row.font == OCR_FONT and expected < n <= expected + OCR_LOST_LABELS:
            ok = row.column in label_x and abs(row.x0 - label_x[row.column]) <= 3.5
        if ok:
            expected = n + 1
            label_x.setdefault(row.column, row.x0)
        out.append(ok)
    return out


# The first words of an entry: "Surname, I.", "Surname, Firstname", "Surname AB,", "Surname I. J.,", "I. J. Surname",
# with particles and hyphenated or accented names; "Surname, I.;" AAAI, "Surname, I., &" APA.
_NAME = r"(?:(?:van|von|de|der|den|del|della|da|di|du|la|le|ten|ter|dos|das|al|el|bin|St\.)\s+)*[A-Z\u00C0-\u024F][\w\u00C0-\u024F'’`´¨-]+"
AUTHOR_START = re.compile(
    rf"^(?:{_NAME}(?:\s{_NAME}){{0,2}},\s+(?:[A-Z\u00C0-\u024F]\.[\s-]?)+"  # Surname, I. J. (Tjong Kim Sang, E.)
    rf"|{_NAME}(?:\s{_NAME})?,\s+[A-Z][a-z]+[\s,]"  # Surname, Firstname
    rf"|{_NAME}(?:\s{_NAME})?\s+[A-Z]{{1,3}}(?:,|\.|\s+[A-Z][\w'’-]+\s+[A-Z]{{1,3}}[,.])"  # Surname AB, (Vancouver)
    rf"|{_NAME}\s+(?:[A-Z]\.\s?-?)+,"  # Surname I. J., (MNRAS)
    rf"|(?:[A-Z]\.\s?-?)+\s?{_NAME}[,.\s])"  # I. J. Surname
)
ENTRY_END = re.compile(r"([.)\]]|\d{4}[a-z]?|\d+\s*[-–]\s*\d+|\b\d+|https?://\S+|doi:\S+)\s*$")


def _groups(rows: list[Row]) -> list[list[int]]:
    groups: dict[tuple[int, int], list[int]] = {}
    for i, r in enumerate(rows):
        groups.setdefault((r.page, r.column), []).append(i)
    return list(groups.values())


def _lost_ditto(prev: Row, row: Row, indent: float) -> bool:
    """An entry whose ditto rule ("———, “Title,” ..." for the author above it) OCR did not read: the OCR'd line
    starts with the title's opening quote, past the continuation indent (where the rule ended), right after a line
    that ended an entry. A text layer keeps the rule as characters, so such an entry starts at the left edge."""
    return (row.font == OCR_FONT and row.text[:1] in "“‘\"'" and row.x0 >= indent + 2.5
            and bool(ENTRY_END.search(prev.text)))


def _ditto_rule(row: Row, left: float, rules: dict[int, list[tuple[float, float, float, float]]]) -> bool:
    """An entry whose author repeats the one above, printed as a drawn rule (`\\bysame`: aer, econ, amsplain and
    other styles draw it, IEEEtran types it as dashes): the row starts past the column's edge, right after a
    horizontal rule drawn from that edge on the row's own band, at most four font sizes before it (a justified
    line stretches the space after the rule: 18-43 pt in corpus3's Palgrave entries). The first row of a page or
    column may be one."""
    return any(left - 3 <= r[0] <= left + 6 and row.x0 - 4 * row.size <= r[2] <= row.x0 + 1
               and row.y0 - 1 <= r[1] <= row.y1 + 1 for r in rules.get(row.page, ()))


def _indent_starts(rows: list[Row], rules: dict[int, list[tuple[float, float, float, float]]] | None = None
                   ) -> list[bool | None]:
    """Hanging indent per page and column; where a column shows no indent, an author-list start after a row
    that ended an entry, and only where that finds nothing, a larger line gap, starts an entry. `rules`: the
    horizontal rules of the bibliography's pages, where a drawn ditto rule starts an entry (_ditto_rule)."""
    rules = rules or {}
    starts: list[bool | None] = [False] * len(rows)
    # the left edge of a column is shared by the pages of one parity (mirrored margins), so a column holding
    # only the continuation of an entry is seen as indented
    edges: dict[tuple[int, int], float] = {}
    for r in rows:
        key = (r.column, r.page % 2)
        edges[key] = min(edges.get(key, r.x0), r.x0)
    for idx in _groups(rows):
        left = min(rows[i].x0 for i in idx)
        edge = edges[(rows[idx[0]].column, rows[idx[0]].page % 2)]
        if left > edge + 4 and left - edge < 40:
            left = edge
        indented = [i for i in idx if rows[i].x0 > left + 4]
        if indented and len(indented) < len(idx):
            indent = median(rows[i].x0 for i in indented)
            for k, i in enumerate(idx):
                starts[i] = (rows[i].x0 <= left + 2.5 or _ditto_rule(rows[i], left, rules)
                             or (k > 0 and _lost_ditto(rows[idx[k - 1]], rows[i], indent)))
            continue
        ended = [i == 0 or bool(ENTRY_END.search(rows[i - 1].text)) for i in idx]
        by_author = [e and bool(AUTHOR_START.match(rows[i].text)) for i, e in zip(idx, ended)]
        if sum(by_author[1:]) >= max(1, len(idx) // 8):
            for i, s in zip(idx, by_author):
                starts[i] = s
            continue
        gaps = [rows[b].y0 - rows[a].y1 for a, b in zip(idx, idx[1:]) if rows[b].y0 > rows[a].y0]
        usual = median(gaps) if gaps else 0.0
        starts[idx[0]] = ended[0]
        for (a, b), e in zip(zip(idx, idx[1:]), ended[1:]):
            starts[b] = e and rows[b].y0 - rows[a].y1 > usual + 2.0
    if starts:
        starts[0] = True
    return starts


_BACKREF = [
    re.compile(r"\s*\(?\b(?:cited|Cited)\s+on\s+pages?\s+[\d,\s–-]+(?:\s*and\s*\d+)?\.?\)?\s*$"),
    re.compile(r"\s*↑\s*\d+(?:\s*,\s*\d+)*\s*$"),
]
_PAGE_LIST = re.compile(r"(?<=\.)\s+\d{1,3}(?:\s*,\s*\d{1,3})*\s*$")


def _strip_backrefs(texts: list[str]) -> list[str]:
    """Drop hyperref back-reference lists. The bare form ("... 2019. 1, 3, 6") is stripped only when most
    entries end that way, so a real entry ending in "Stat. 35" is kept in papers without back-references."""
    out = [t for t in texts]
    for pattern in _BACKREF:
        out = [pattern.sub("", t) for t in out]
    bare = sum(1 for t in out if _PAGE_LIST.search(t))
    if bare >= max(3, 0.4 * len(out)):
        out = [_PAGE_LIST.sub("", t) for t in out]
    return out


def _vocabulary(rows: list[Row]) -> set[str]:
    return {w.lower() for r in rows for w in re.findall(r"[\w-]+", r.text)}


def _join(lines: list[str], vocab: set[str]) -> str:
    """Join an entry's lines: keep URLs unbroken; a line-end hyphen is dropped ("Glob-" "ally") unless the
    paper itself spells the hyphenated form ("transformer-based") and not the closed one."""
    out = ""
    for line in lines:
        if not out:
            out = line
        elif URLISH.search(out) and (not out.endswith((".", ",")) or re.match(r"[\w%#?=&~-]+[/.]\w", line)):
            out += line
        elif out.endswith("-") and len(out) > 1 and out[-2].islower() and line[:1].islower():
            head = re.search(r"[\w-]*$", out[:-1]).group(0).lower()
            tail = re.match(r"[\w-]*", line).group(0).lower()
            keep = f"{head}-{tail}" in vocab and f"{head}{tail}" not in vocab
            out = out + line if keep else out[:-1] + line
        elif out.endswith("-") and len(out) > 1 and out[-2].isalpha():
            out += line  # "Lee-" + "Thorp": a real hyphen, no space
        elif re.search(r"\d[–-]$", out) and line[:1].isdigit():
            out += line  # a page range broken at its dash: "379–" + "423"
        else:
            out += " " + line
    return re.sub(r"\s+", " ", out).strip()


def _without_floats(facts: DocumentFacts, bib: list[Row]) -> list[Row]:
    """The bibliography's rows less those of a table or figure the class floated onto its pages (a caption, a
    table's cells, a figure's labels: AASTeX and other two-column classes put a paper's last floats among the
    references). Only pages that hold a caption are looked at, so a bibliography without floats costs nothing."""
    pages = {r.page for r in bib}
    if not any(c.page in pages for c in facts.captions):
        return bib
    boxes: dict[int, list[tuple[float, float, float, float]]] = {}
    for cap in facts.captions:
        if cap.page in pages:
            boxes.setdefault(cap.page, []).append(cap.bbox)
    for cap, rect in facts.table_regions:
        if cap.page in pages:
            boxes[cap.page].append(rect)
    for page, rect, _ in facts.figures:
        if page in pages:
            boxes.setdefault(page, []).append(rect)

    def inside(r: Row) -> bool:
        cx, cy = (r.x0 + r.x1) / 2, (r.y0 + r.y1) / 2
        return any(b[0] - 1 <= cx <= b[2] + 1 and b[1] - 1 <= cy <= b[3] + 1 for b in boxes.get(r.page, ()))

    return [r for r in bib if not inside(r)]


def extract_references(facts: DocumentFacts | DocumentAnalysis) -> list[Reference]:
    facts = as_facts(facts)
    rows, heads = facts.headings
    bib = _bibliography(rows, heads, facts.body_size, {p.number: p.height for p in facts.pages})
    if not bib:
        return []
    bib = _without_floats(facts, bib)
    if not bib:
        return []
    rules = {n: hrules(facts.pages[n - 1], 3.0) for n in {r.page for r in bib}}
    starts = _numbered_starts(bib) or _indent_starts(bib, rules)
    entries: list[list[Row]] = []
    for row, start in zip(bib, starts):
        if start is None:
            break
        if start or not entries:
            entries.append([row])
        else:
            entries[-1].append(row)
    # floats set after the list (an algorithm box before the appendix heading) are not entries: no year
    while entries and not re.search(r"\b(1[89]|20)\d\d", " ".join(r.text for r in entries[-1])):
        entries.pop()
    vocab = _vocabulary(rows)
    texts = _strip_backrefs([_join([_label_text(e[0])] + [r.text for r in e[1:]], vocab) for e in entries])
    return [Reference(i, t, e[0].page) for i, (t, e) in enumerate(zip(texts, entries))]
