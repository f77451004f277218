"""Caption detection ("Table 2: ...", "TABLE IV", "Fig. 3.", "FIGURE 1 |", "FIG. 2:") shared by the tables,
figures and equations views.

Rules (house-style independent; a few milliseconds per page, no layout model):
- a caption is a line that STARTS a paragraph with a label: an optional "Supplementary"/"Extended Data", a float
  word (Table, TABLE, Tab., Figure, FIGURE, Fig., FIG.), a number (arabic, roman, letter-number "A1", "S2"), then
  ':', '.', '|', a dash, the end of the line (the title follows on the next line: IEEE, Elsevier) or, when the
  label is set apart typographically (bold, small caps, smaller than the text after it), a space;
- it starts a paragraph: the first line of a text block, or a line inside a block that is typographically unlike
  the line before it (a bold caption after regular table cells, a smaller legend after body text, or after a gap);
- it is not a body sentence: "Figure 2 shows ...", "Table 3 (top) lists ..." (lowercase after the label) are
  dropped, and a label in body font and size with only '.' after it ("Table 4. On average ...") counts only when
  graphics or rules lie next to it;
- its text runs to the end of its paragraph: a gap, a change of font size (a footnote or the body text below),
  another caption, or the end of a short last line of a justified paragraph (a centred caption stops at its
  centred lines) end it; a title on the next line in its own block (IEEE "TABLE I" / "SMALL CAPS TITLE") joins;
- "Figure 3. Continued" legends are not new captions; when one label appears twice the stronger candidate
  wins (a typographic label over a plain one, then the smaller font: captions are usually set smaller).

DocumentFacts computes them once per document (`facts.captions`).
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from pipeline.parse.normalize import join_lines
from pipeline.parse.pymupdf._geometry import union, x_overlap
from pipeline.parse.pymupdf.page import Block, DocumentAnalysis, Line, PageAnalysis, Rect

_LABEL = re.compile(
    r"^(?P<supp>(?:Supplementary|Suppl\.|Extended\s+Data|Supporting)\s+)?"
    r"(?P<word>Table|TABLE|Tab\.|Figure|FIGURE|Fig\.?|FIG\.?)\s*"
    r"(?P<num>[A-Z]?\.?\d+(?:\.\d+)?[a-z]?|S\d+|[IVXL]+)"
    r"(?P<sep>\s*[:.|—–]|\s*$|\s+)")
_CONTINUED = re.compile(r"^\(?(continued|cont\.|cont'd)", re.I)
_STRONG_SEPS = (":", "|", "—", "–")


@dataclass
class Caption:
    kind: str  # "table" | "figure"
    number: str  # "3", "IV", "A1", "S2"
    sep: str  # what follows the number: ':', '.', '|', '—', '' (end of line) or ' ' (typographic label)
    text: str
    bbox: Rect
    page: int
    size: float
    rank: int = 1  # 2: the label is set apart (colon, bar, bold, small caps, smaller type); 1: plain '.' label


def _label_distinct(line: Line, m: re.Match, body: float) -> bool:
    """The label is set apart from running text: smaller type, bold or a different font from the words after
    it, or an all-caps float word (TABLE, FIG.)."""
    if line.size < body - 0.4 or m.group("word").isupper():
        return True
    raw = "".join(s.text for s in line.spans)
    end = len(raw) - len(raw.lstrip()) + m.end("num")  # the label's end in the spans' text
    pos, label_spans, rest_spans = 0, [], []
    for s in line.spans:
        if s.text.strip():
            (label_spans if pos < end else rest_spans).append(s)
        pos += len(s.text)
    if not label_spans:
        return False
    if all(s.bold for s in label_spans) and not all(s.bold for s in rest_spans):
        return True
    fonts = {s.font for s in label_spans}
    return bool(rest_spans) and not fonts & {s.font for s in rest_spans} and "Math" not in "".join(fonts)


def _new_paragraph(prev: Line, line: Line) -> bool:
    """`line` is typographically unlike the block line before it, so it can start a caption inside a block."""
    if abs(prev.size - line.size) > 0.4 or prev.bold != line.bold:
        return True
    if line.bbox[1] - prev.bbox[3] > 0.5 * max(line.size, 1.0):
        return True
    return x_overlap(prev.bbox, line.bbox) < 0.3 * (line.bbox[2] - line.bbox[0])  # a table cell beside it


def _body_sentence(rest: str, sep: str) -> bool:
    """'Figure 3 shows', 'Table 2 (top) lists', 'Fig. 4b&c) are': running text that begins with a reference."""
    if sep != " ":
        return False  # after '.', ':' or a line end a caption title may start in lowercase ("pH dependence")
    rest = re.sub(r"^\s*\([^)]{0,30}\)\s*", "", rest).lstrip()
    return bool(re.match(r"[a-z&,;)]", rest))


def _near_float(p: PageAnalysis, r: Rect, reach: float = 40.0) -> bool:
    """Graphics or rules within `reach` points above or below `r`, overlapping it horizontally."""
    rects = list(p.image_rects) + p.drawing_rects
    return any(x_overlap(g, r) > 0 and g[3] > r[1] - reach and g[1] < r[3] + reach and (g[2] - g[0]) < 0.95 * p.width
               for g in rects)


def _rows(lines: list[Line]) -> list[list[Line]]:
    """Consecutive lines of a block that share a baseline ("FIG. 2:" and the text set beside it) as one row."""
    rows: list[list[Line]] = []
    for ln in lines:
        if rows:
            a = rows[-1][-1].bbox
            row = union([x.bbox for x in rows[-1]])
            overlap = min(row[3], ln.bbox[3]) - max(row[1], ln.bbox[1])
            if overlap > 0.5 * min(a[3] - a[1], ln.bbox[3] - ln.bbox[1]) and ln.bbox[0] >= a[2] - 2:
                rows[-1].append(ln)
                continue
            if overlap > 0.3 * (ln.bbox[3] - ln.bbox[1]) and ln.size < 0.85 * max(x.size for x in rows[-1]):
                # a sub- or superscript of inline maths, extracted as its own line (it overlaps the row by a good
                # part of its height: a table's smaller row that only touches the caption's last line does not)
                rows[-1].append(ln)
                continue
        rows.append([ln])
    return rows


def _sizes(row: list[Line]) -> tuple[float, float]:
    """Dominant and largest type size of a row (small caps set most letters smaller than the capitals)."""
    chars: dict[float, int] = {}
    for ln in row:
        for sp in ln.spans:
            chars[round(sp.size, 1)] = chars.get(round(sp.size, 1), 0) + len(sp.text.strip())
    return max(chars, key=lambda k: chars[k]), max(ln.max_size for ln in row)


def _tabular(row: list[Line], size: float) -> bool:
    """Three or more pieces side by side with at least two gaps wider than 1 em: table cells, not a caption line
    (inline maths splits a caption line with word-space gaps)."""
    if len(row) < 3:
        return False
    spans = sorted((ln.bbox[0], ln.bbox[2]) for ln in row)
    return sum(1 for a, b in zip(spans, spans[1:]) if b[0] - a[1] > size) >= 2


def _paragraph(lines: list[Line], width: tuple[float, float]) -> list[Line]:
    """The caption's lines (`lines` starts at the label) up to the end of its paragraph."""
    rows = _rows(lines)
    out = [rows[0]]
    ref = _sizes(rows[0][1:] or rows[0])  # the text beside a label set apart ("Table 1:" in larger type)
    left, right = width
    full = max(right - left, 1.0)
    for row in rows[1:]:
        prev = union([ln.bbox for ln in out[-1]])
        box = union([ln.bbox for ln in row])
        size = _sizes(row)
        if box[1] - prev[3] > 0.8 * ref[1] or box[1] < prev[1] - 2:
            break
        if abs(size[0] - ref[0]) > 0.6 and abs(size[1] - ref[1]) > 0.6:
            break  # a footnote under the caption, or the body text after it
        m = _LABEL.match(row[0].text)
        if m and _label_distinct(row[0], m, 99.0):
            break  # the next caption
        if _tabular(row, ref[0]):
            break  # a table's row set right under its caption (cells far apart on one line)
        centred = abs((prev[0] + prev[2]) / 2 - (left + right) / 2) < 0.06 * full and prev[0] > left + 0.05 * full
        ends = out[-1][-1].text.rstrip().endswith((".", ":", ")", "]"))
        if prev[2] < right - 0.15 * full and ends and not centred and len(out) > 1:
            break  # the short last line of a justified paragraph
        if centred and box[0] < prev[0] - 0.05 * full and (box[0] + box[2]) / 2 < (left + right) / 2 - 0.06 * full:
            break  # a centred caption followed by left-aligned text
        out.append(row)
    return [ln for row in out for ln in row]


def _caps(text: str) -> bool:
    letters = [c for c in text if c.isalpha()]
    return len(letters) >= 4 and all(c.isupper() for c in letters)


def _next_blocks(p: PageAnalysis, bi: int, lines: list[Line], label_only: bool) -> list[Line]:
    """A caption whose block ends mid-sentence (a hanging-indented caption split into two blocks, JMLR) or with
    its label alone ("TABLE II" over a small-caps title, APA's "Table 1" over an italic title) goes on in the block
    set right under it."""
    out: list[Line] = []
    for b in p.blocks[bi + 1: bi + 4]:
        last = (out or lines)[-1]
        if not label_only and last.text.rstrip().endswith((".", ":", ")", "]")):
            break
        ln = b.lines[0]
        alone = not any(o is not ln and min(o.bbox[3], ln.bbox[3]) - max(o.bbox[1], ln.bbox[1]) > 0 for o in b.lines)
        caps_title = (alone and _caps(last.text) and _caps(ln.text)
                      and abs((ln.bbox[0] + ln.bbox[2]) / 2 - (last.bbox[0] + last.bbox[2]) / 2) < 0.05 * p.width)
        if not label_only and not ln.text.lstrip()[:1].islower() and not caps_title:
            break  # a sentence goes on in lower case; a capital starts the float's own text (a table's header row),
            # except the next line of a small-caps title centred under the one before (IEEE "TABLE II" captions)
        # a label alone on its line may stand a blank line above its title (APA 7: "Table 1", then the title in
        # italics 1.5 lines lower); a caption going on from one block to the next stands no more than a line apart
        reach = (2.0 if label_only else 1.2) * last.size
        if -0.5 * last.size <= ln.bbox[1] - last.bbox[3] <= reach and x_overlap(ln.bbox, last.bbox) > 0 \
                and abs(ln.max_size - last.max_size) <= 0.6 and not _LABEL.match(ln.text):
            out += _paragraph(b.lines, (b.bbox[0], b.bbox[2]))
            label_only = False
    return out


def _side_pieces(p: PageAnalysis, block: Block, lines: list[Line]) -> list[Line]:
    """Pieces of the caption's last line that PyMuPDF put in blocks of their own (inline maths splits a
    full-width IEEE caption line into side-by-side blocks), with the lines under them, left to right."""
    last = lines[-1].bbox
    caps = max(ln.max_size for ln in lines)
    pieces = []
    for ob in p.blocks:
        if ob is block or not ob.lines or ob.lines[0].bbox[0] <= last[0] + 20:
            continue
        first = ob.lines[0].bbox
        overlap = min(first[3], last[3]) - max(first[1], last[1])
        if overlap < 0.5 * min(first[3] - first[1], last[3] - last[1]):
            continue
        if any(abs(ln.max_size - caps) > 0.6 and ln.size >= 0.85 * caps for ln in ob.lines):
            continue  # text in another type size: body text or a table beside the caption
        if any(_LABEL.match(ln.text) for ln in ob.lines):
            continue
        pieces.append(ob)
    out: list[Line] = []
    right = last[2]
    for ob in sorted(pieces, key=lambda ob: ob.lines[0].bbox[0]):
        if ob.lines[0].bbox[0] - right > 1.5 * caps:
            break  # the row's pieces must adjoin one another (a word space, not a column gutter)
        out += ob.lines
        right = max(right, max(ln.bbox[2] for ln in ob.lines if ln.bbox[1] < last[3]))
    return out


def _candidates(analysis: DocumentAnalysis) -> list[Caption]:
    body = analysis.body_size
    found: list[Caption] = []
    for p in analysis.pages:
        for bi, b in enumerate(p.blocks):
            for li, line in enumerate(b.lines):
                m = _LABEL.match(line.text)
                if not m or line.size < 0.6 * body:
                    continue
                rest = line.text[m.end():]
                sep = m.group("sep").strip() or ("" if not rest else " ")
                if _CONTINUED.match(rest.strip()) or _body_sentence(rest, sep):
                    continue
                distinct = _label_distinct(line, m, body)
                if sep == " " and not distinct:
                    continue  # "Table 2 The ..." only with a bold/small-caps label
                if li > 0 and not _new_paragraph(b.lines[li - 1], line):
                    continue  # a wrapped body line that happens to begin with "Table 4."
                rank = 2 if sep in _STRONG_SEPS or sep == "" or distinct else 1
                width = (min(ln.bbox[0] for ln in b.lines[li:]), max(ln.bbox[2] for ln in b.lines[li:]))
                lines = _paragraph(b.lines[li:], width)
                if lines[-1] is b.lines[-1]:
                    lines += _side_pieces(p, b, lines)
                if lines[-1] is b.lines[-1]:
                    lines += _next_blocks(p, bi, lines, len(lines) == 1 and not rest.strip())
                kind = "table" if m.group("word").lower().startswith("tab") else "figure"
                number = (m.group("supp") and "S" or "") + m.group("num").rstrip(".")
                found.append(Caption(kind, number, sep, join_lines([ln.text for ln in lines]),
                                     union([ln.bbox for ln in lines]), p.number, line.size, rank))
    return found


def find_captions(analysis: DocumentAnalysis) -> list[Caption]:
    """Table and figure captions of the document, one per label.

    When most of the document's captions use ':' a '.' label is running text ("Table 4. On average ...");
    a plain '.' label in body type counts only next to graphics or rules. Among duplicates of one label the
    higher rank wins, then the smaller font (captions are usually set smaller than the body)."""
    cands = _candidates(analysis)
    colon = sum(1 for c in cands if c.sep == ":")
    if colon >= 0.6 * max(1, len(cands)):
        cands = [c for c in cands if c.sep in (":", "")]
    cands = [c for c in cands if c.rank == 2 or _near_float(analysis.pages[c.page - 1], c.bbox)]
    best: dict[tuple[str, str], Caption] = {}
    for c in cands:
        key = (c.kind, c.number)
        old = best.get(key)
        if old is None or c.rank > old.rank or (c.rank == old.rank and c.size < old.size - 0.3):
            best[key] = c
    return [c for c in cands if best[(c.kind, c.number)] is c]
