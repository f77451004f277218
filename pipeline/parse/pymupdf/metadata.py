"""metadata view: title, authors and abstract from the paper's own first page, plus the text where a venue may be
printed (running headers, footers, footnotes, margin stamps). Venue, arXiv stamp, sidecar, overrides and bibtex
are the core's (pipeline/parse/sidecar.py `finish_metadata`), the same for every backend.

Rules (typography and geometry first; wording classes live in _frontmatter.py):
- Front page: page 1, or page 2 when page 1 is a publisher cover sheet ("To cite this article", "View the
  article online", download notices; little text and no abstract heading).
- Title: the largest-print multi-word line in the upper part of the page, with the lines that continue it
  (same size and weight, same horizontal band), skipping masthead furniture: stamps and permission notes,
  lines with ISSN/volume/doi/URL/"journal homepage"/licence/history wording, journal and series names
  ("Journal of ...", a name a running header or footer prints followed by volume/year numbers, a name set
  between two masthead lines), category labels ("Article", "ORIGINAL RESEARCH", "PAPER • OPEN ACCESS",
  one-word capitals) and lower-case logotypes. Titles are followed by their authors: when the largest
  candidate's next two lines hold no names but a smaller candidate's do (≥ 60 % of its size, larger than body
  text, not set right under it like a subtitle), the smaller one is the title. Footnote marks are dropped.
- Sidebar: when the title is left-aligned and indented (not centred), a line ending left of where it starts
  is in a left sidebar (Received/Accepted/Citation/Edited by/Correspondence) and is neither authors nor abstract.
- Abstract: text after an `Abstract` heading in any printed form — a line of its own (`Abstract`, `ABSTRACT`,
  letter-spaced `A B S T R A C T`, small caps), run-in with punctuation (`Abstract.`, `Abstract:`,
  `Abstract—`) or run-in in its own font (`Abstract` bold or larger, then the text). Only lines overlapping the
  abstract's column (the heading's extent, widened by the lines taken) are read, so the article-info box beside
  Elsevier's abstract is skipped; the text ends at the next heading, a keywords/history/licence line, smaller
  print (footnotes) or a wide gap below. A standalone `Summary` heading counts when no `Abstract` is printed.
  FALLBACK when no heading is printed (Nature, Frontiers, revtex): the first substantial prose paragraph
  (≥ 3 lines, ≥ 200 characters) below the title, outside any sidebar and the footnote zone, that is not names,
  affiliations or masthead text, above the first section heading — with the paragraphs continuing it (same
  left edge and size, small gap).
- Authors: the lines between the title and the abstract (or 25 % of the page when there is none), without
  sidebar, masthead, affiliation/address/e-mail/date lines, title-size lines and small print, and holding
  names; of those, the bold lines, else the italic ones when they hold more names than the upright largest
  ones (IEEE sets either the names or the departments in italics), else the largest. Names are split on commas,
  `and`, `&`, middle dots, vertical bars and superscript marks; membership grades (`Senior Member, IEEE`),
  footnote and affiliation marks (`Bronik a`) are removed; only name-shaped parts are kept (2–6 capitalised
  tokens); capitals and small capitals are re-cased; accents drawn after their letter (some producers) are put
  back on it from the glyph boxes.
Known limits: a masthead journal name with no wording cue, no running-header repeat and no masthead neighbours,
printed larger than the title and directly followed by names, is taken as the title; one-word titles are
skipped; single-token names (mononyms) are dropped; the no-heading fallback takes the opening paragraph of a
paper that prints no abstract at all.
"""
from __future__ import annotations

import dataclasses
import re
from pathlib import Path

from pipeline.parse.ocr import OCR_FONT
from pipeline.document import Metadata
from pipeline.parse.cleanup import SMALL_WORDS
from pipeline.parse.normalize import join_lines
from pipeline.parse.options import ParseOptions
from pipeline.parse.pymupdf._frontmatter import (AFFILIATION, BRACKETED_EMAIL, LABEL, MASTHEAD, _institution, _name_ok,
                                                 _plain_name, is_address, is_label, is_logo, is_masthead, name_like,
                                                 names, norm)
from pipeline.parse.pymupdf._headings import CONTENTS
from pipeline.parse.pymupdf.facts import DocumentFacts, as_facts
from pipeline.parse.pymupdf.page import Block, DocumentAnalysis, Line, PageAnalysis, Span, line_spacing
from pipeline.parse.sidecar import finish_metadata

# ---- title ---------------------------------------------------------------------------------------------

_NOT_TITLE = re.compile(
    r"^(arXiv:|Published as|Under review|Accepted |Preprint|Proceedings of|Findings of|Workshop|Copyright|"
    r"Provided proper attribution|Technical Report|\d+(st|nd|rd|th) Conference)", re.I)
_TITLE_MARKS = re.compile(r"[\s∗*†‡§¶⋆✩]+$")


def _edge_lines(pages: list[PageAnalysis]) -> list[str]:
    """Running header/footer lines of the first pages (normalised): where a journal repeats its name."""
    out = []
    for p in pages[:5]:
        h = p.height
        out += [norm(l.text) for l in p.lines if l.horizontal and (l.bbox[3] <= 0.1 * h or l.bbox[1] >= 0.9 * h)]
    return out


_VOLUME_AFTER = re.compile(r"[\s,]*(vol\.?\s*)?\(?\d")


def _journal_in_edges(text: str, edges: list[str]) -> bool:
    """The line is a journal name: a running header/footer prints it followed by volume/year numbers."""
    t = norm(text)
    if len(t) < 4:
        return False
    for e in edges:
        at = e.find(t)
        if at >= 0 and _VOLUME_AFTER.match(e, at + len(t)):
            return True
    return False


def _sandwiched(line: Line, lines: list[Line]) -> bool:
    """Set between masthead lines (Elsevier: 'Contents lists available at ...' / name / 'journal homepage: ...')."""
    def near(below: bool) -> Line | None:
        cands = [l for l in lines if l is not line and l.bbox[0] < line.bbox[2]
                 and l.bbox[2] > line.bbox[0] and ((l.bbox[1] >= line.bbox[3] - 1) if below
                                                   else (l.bbox[3] <= line.bbox[1] + 1))]
        if not cands:
            return None
        return min(cands, key=lambda l: l.bbox[1] - line.bbox[3]) if below else max(cands, key=lambda l: l.bbox[3])

    above, below = near(False), near(True)
    return bool(above and below and MASTHEAD.search(above.text) and MASTHEAD.search(below.text))


def _candidates(page: PageAnalysis, edges: list[str], body_size: float) -> list[Line]:
    h = page.height
    lines = [l for l in page.lines if l.horizontal and l.bbox[1] < 0.6 * h]  # titles sit in the upper half
    out = []
    for l in lines:
        if l.bbox[1] >= 0.5 * h:
            continue
        t = l.text
        if not (l.horizontal and re.search(r"[A-Za-z]{2}", t)) or _NOT_TITLE.match(t):
            continue
        if len(t.split()) < 2 and not (l.max_size >= 1.5 * body_size and _names_under(l, page)):
            continue  # one word: a journal logotype ("Sustainability") or a label, unless names follow right under
            # it (a vignette titled `Concordance` over `Terry Therneau, Elizabeth Atkinson`)
        if is_masthead(t) or is_label(t) or is_logo(t):
            continue
        if l.max_size > body_size and (_journal_in_edges(t, edges) or _sandwiched(l, lines)):
            continue  # a journal name (set larger than body text, like every masthead name)
        out.append(l)
    return out


def _heavy(line: Line) -> bool:
    """Bold, counting a demibold face as bold: a software paper's title sets its package names in one (JSS's
    `\\pkg{}` is Latin Modern Demi: `the RcppEigen Package`, bold around a demibold name). Letters are weighed, not
    marks: a bold title's maths (`Accurately Computing log(1 − exp(−|a|))`) sets its brackets, digits and operators
    in regular weight."""
    chars = [(s.bold or "demi" in s.font.lower(), sum(c.isalpha() for c in s.text)) for s in line.spans]
    total = sum(n for _, n in chars)
    if not total:  # no letters at all: the marks decide
        chars = [(s.bold or "demi" in s.font.lower(), len(s.text.strip())) for s in line.spans]
        total = sum(n for _, n in chars)
    return total > 0 and sum(n for b, n in chars if b) >= 0.6 * total


def _same_band(a: Line, b: Line) -> bool:
    """`b` goes on `a`'s printed line: PyMuPDF cuts a title's line at a wide space (a centred `Extending R` /
    `with C++:`), so a piece level with it, at its size, less than a size to its right, is the same line."""
    return (abs(a.bbox[1] - b.bbox[1]) < 0.2 * a.max_size and abs(a.max_size - b.max_size) <= 0.3
            and 0 <= b.bbox[0] - a.bbox[2] < a.max_size)


def _group(first: Line, cands: list[Line], spacing: float = 1.0) -> list[Line]:
    """The title's first line and the lines that continue it: same size and weight, overlapping band, no gap wider
    than 0.8 of the size (times the paper's `page.line_spacing`)."""
    size = first.max_size
    gap = 0.8 * size * spacing
    group = [first]
    heavy = _heavy(first)
    for line in sorted((l for l in cands if l.bbox[3] <= first.bbox[1] + 1), key=lambda l: -l.bbox[1]):
        if line.bbox[0] > first.bbox[2] or line.bbox[2] < first.bbox[0]:
            continue  # beside it (a logo, a sidebar)
        # a one-word first line ("Nyströmformer:") is no candidate itself: take it back from above
        if abs(line.max_size - size) > 0.3 or _heavy(line) != heavy or len(line.text.split()) > 1 \
                or group[0].bbox[1] - line.bbox[3] > gap:
            break
        group.insert(0, line)
    for line in sorted((l for l in cands if l.bbox[1] > first.bbox[1] - 0.2 * size and l is not first),
                       key=lambda l: (l.bbox[1], l.bbox[0])):
        prev = group[-1]
        if abs(line.bbox[1] - first.bbox[1]) < 0.2 * size:  # level with the first line: only its own pieces
            if _same_band(prev, line) and _heavy(line) == heavy:
                group.append(line)
            continue
        if line.bbox[0] > first.bbox[2] or line.bbox[2] < first.bbox[0]:  # beside it (a sidebar, a logo)
            continue
        if line.max_size < 0.92 * size or _heavy(line) != heavy:
            break
        if line.bbox[1] - prev.bbox[3] > gap and not (abs(line.bbox[1] - prev.bbox[1]) < 2):
            break
        group.append(line)
    return group


def _followed_by_names(group: list[Line], page: PageAnalysis) -> bool:
    bottom = max(l.bbox[3] for l in group)
    size = group[0].max_size
    below = sorted((l for l in page.lines if l.horizontal and bottom - 1 < l.bbox[1] < bottom + 4 * size),
                   key=lambda l: l.bbox[1])
    return any(name_like(l) for l in below[:2])  # directly below: a label or another title line is not names


def _names_under(line: Line, page: PageAnalysis) -> bool:
    """Mixed-case names in smaller type right under `line` (a capitals title under a journal's name is no names)."""
    bottom, size = line.bbox[3], line.max_size
    below = sorted((l for l in page.lines if l.horizontal and bottom - 1 < l.bbox[1] < bottom + 4 * size),
                   key=lambda l: l.bbox[1])
    return bool(below) and name_like(below[0]) and below[0].max_size <= 0.8 * size and not _caps(below[0].text)


def _title_lines(page: PageAnalysis, edges: list[str], body_size: float, spacing: float = 1.0) -> list[Line]:
    cands = _candidates(page, edges, body_size)
    top = [l for l in cands if l.bbox[1] < 0.3 * page.height] or [l for l in cands if l.bbox[1] < 0.5 * page.height]
    if all(l.max_size <= 1.15 * body_size for l in top):
        # nothing larger than the text up there: a notice set above the title (a vignette's `Disclaimer: ...`
        # paragraph) pushed a title-sized line (1.5 times the text: article's \LARGE, not its \Large section
        # headings) below the top 30 %
        top = [l for l in cands if l.bbox[1] < 0.5 * page.height and l.max_size >= 1.5 * body_size] or top
    if not top:
        return []
    # largest first (to a tenth of a point: text at one size reads 9.9626 or 10.0 by font); among equals bold first,
    # then the highest: TUGboat sets its title in bold at the size of its text
    ranked = sorted(top, key=lambda l: (-round(l.max_size, 1), not _heavy(l), l.bbox[1]))
    # a title's later lines may be short ("network", "gold stripes"): continue over every line but stamps
    rest = [l for l in page.lines if l.horizontal and not _NOT_TITLE.match(l.text) and not is_masthead(l.text)]
    best = _group(ranked[0], rest, spacing)
    if _followed_by_names(best, page):
        return best
    seen = {id(l) for l in best}
    for line in ranked[1:]:
        if line.max_size < 0.6 * ranked[0].max_size or line.max_size < 1.15 * body_size:
            break
        if id(line) in seen:
            continue
        group = _group(line, rest, spacing)
        seen |= {id(l) for l in group}
        subtitle = 0 <= line.bbox[1] - max(l.bbox[3] for l in best) < line.max_size  # set right under it
        if not subtitle and _followed_by_names(group, page):
            return group
    return best


def _case_fixed(line: Line) -> str:
    """Line text with small caps undone (capitals set smaller than the line's largest size are lowercase) and
    footnote marks (superscripts after the last word) dropped."""
    top = line.max_size
    parts = []
    last = max((i for i, s in enumerate(line.spans) if s.text.strip()), default=-1)
    for i, s in enumerate(line.spans):
        # footnote marks: symbols anywhere, digits only at the end of the line ("10^9 Tokens" keeps its 9)
        if s.superscript and (re.fullmatch(r"[,∗*†‡§¶⋆✩\s]+", s.text)
                              or (i == last and re.fullmatch(r"[\d,∗*†‡§¶⋆✩\s]+", s.text))):
            continue
        small = s.size < 0.9 * top and s.text.isupper()
        parts.append(s.text.lower() if small else s.text)
    return "".join(parts).strip()


def _title_case(title: str, acronyms: frozenset[str] = frozenset()) -> str:
    """An all-capitals title in headline case; a word the page's mixed-case text also prints in capitals is an
    acronym and stays so ("KIC 4862625" in an AAS abstract); others cannot be told (the paper id ignores case)."""
    words = title.split(" ")
    out: list[str] = []
    for i, word in enumerate(words):
        w = word.lower()
        if word.strip("()[],.:;") in acronyms:
            out.append(word)
            continue
        opens = not i or out[-1].endswith((":", "—", "–"))  # a subtitle's first word is capitalised ("Study: A ...")
        # each part of a hyphenated or dashed compound: "Non-Linear", "Savings—A Panel Study"
        out.append(w if not opens and w in SMALL_WORDS else re.sub(r"(^|[-—–])(\w)", lambda m: m[1] + m[2].upper(), w))
    return " ".join(out)


def _acronyms(page: PageAnalysis, title: list[Line]) -> frozenset[str]:
    """Words of two or more capitals (digits and hyphens allowed) in the page's lines of mixed case, the title's
    own lines left out: what the paper itself writes in capitals inside its prose."""
    found: set[str] = set()
    for line in page.lines:
        text = line.text
        if line in title or sum(c.islower() for c in text) < 0.3 * sum(c.isalpha() for c in text):
            continue
        found.update(w for w in re.findall(r"(?<![\w-])[A-Z][A-Z0-9-]*[A-Z0-9](?![\w-])", text)
                     if sum(c.isupper() for c in w) >= 2 and w.lower() not in SMALL_WORDS)
    return frozenset(found)


def extract_title(page: PageAnalysis, pages: list[PageAnalysis] | None = None,
                  body_size: float = 10.0, spacing: float | None = None) -> tuple[str, list[Line]]:
    """`spacing`: the document's `line_spacing` when the caller has it (measured here otherwise)."""
    if spacing is None:
        spacing = line_spacing(pages or [page], body_size)
    lines = _title_lines(page, _edge_lines(pages or [page]), body_size, spacing)
    title = _TITLE_MARKS.sub("", join_lines([_case_fixed(l) for l in lines]))
    letters = [c for c in title if c.isalpha()]
    if letters and all(c.isupper() for c in letters) and len(letters) > 12:
        title = _title_case(title, _acronyms(page, lines))
    return title, lines


# ---- sidebar -------------------------------------------------------------------------------------------

def _in_sidebar(line: Line | Block, title: list[Line], width: float) -> bool:
    """Ends left of where a left-aligned, indented title starts: a left sidebar beside the title column.
    (A centred title says nothing: names and text are often set left of where it starts.)"""
    if not title:
        return False
    x0, x1 = min(l.bbox[0] for l in title), max(l.bbox[2] for l in title)
    centred = abs((x0 + x1) / 2 - width / 2) < 0.04 * width
    return not centred and x0 > 0.2 * width and line.bbox[2] < x0 - 2


# ---- authors -------------------------------------------------------------------------------------------

def _rows(lines: list[Line]) -> list[Line]:
    """Lines top to bottom, left to right within a row (baselines of one row differ by a point or two)."""
    rows: list[list[Line]] = []
    for line in sorted(lines, key=lambda l: l.bbox[1]):
        if rows and line.bbox[1] - rows[-1][0].bbox[1] < 3:
            rows[-1].append(line)
        else:
            rows.append([line])
    return [l for row in rows for l in sorted(row, key=lambda l: l.bbox[0])]


def _italic(l: Line) -> bool:
    chars = [(bool(s.flags & 2), len(s.text.strip())) for s in l.spans if not s.superscript]
    return sum(n for i, n in chars if i) > 0.5 * sum(n for _, n in chars)


def _caps(text: str) -> bool:
    """Set in capitals (a stray lower-case letter allowed: "HAT-P-14b")."""
    letters = [c for c in text if c.isalpha()]
    return bool(letters) and sum(c.isupper() for c in letters) >= 0.85 * len(letters)


OCR_NAME_SLACK = 4.0


def _ocr(line: Line) -> bool:
    return bool(line.spans) and all(sp.font == OCR_FONT for sp in line.spans)


_UNFINISHED = re.compile(r"(?:,|\b(?:of|and|for|the|de|des|du|der|für|di|da|do|del|la|le|et|und|y|e)|[-–&])\s*$")


# a name as initials and a surname ("L. Moreau", "D. K. Okafor", "J.-P. van der Berg")
_UP = "A-ZÀ-ÖØ-ÞĀ-Ž"
_INITIALS_NAME = re.compile(rf"(?:[{_UP}]\.\s?(?:-?[{_UP}]\.\s?)*)(?:[a-z]+\s){{0,2}}[{_UP}][\w'’-]+(?:[\s-][{_UP}][\w'’-]+)?")


def _lead_names(line: Line) -> list[str]:
    """Names before the affiliation on one line, one author (or one group sharing an affiliation) per line:
    ACM's journal formats (acmsmall, acmlarge) print them in capitals before the first comma (`LÉA MOREAU, Inria
    Saclay, France`, `A AND B, Institution, Country`); JACoW's proceedings (IPAC, LINAC, ...) as initials and surnames,
    comma-separated, before the institution (`L. Moreau, P. Raghunathan, Inria Saclay, Palaiseau, France`). Empty for
    any other line."""
    head, comma, rest = line.text.partition(",")
    if comma and _caps(head) and is_address(rest):
        parts = [p for p in re.split(r"\b(?:and|AND)\b|&", head) if p.strip()]
        out = [n for n in (_plain_name(p) for p in parts) if n and _name_ok(n) and not _institution(n)]
        return out if len(out) == len(parts) else []
    items = line.text.split(",")
    out: list[str] = []
    for k, item in enumerate(items):
        got = [_plain_name(p) for p in re.split(r"\band\b|&", item) if p.strip()]
        if not got or not all(_INITIALS_NAME.fullmatch(n) and _name_ok(n) for n in got):
            return out if out and is_address(",".join(items[k:])) else []
        out += got
    return []


def _name_org_pairs(region: list[Line], body_size: float) -> list[str]:
    """`Name, Organisation; Name, Organisation; ...` run over the lines of one block, as SAS users' conference papers
    and some industry reports print their authors: every `;`-separated part a plain name before its first comma and
    an organisation after it (at least half of them reading as an institution or address). Empty unless at least two
    parts read so and no part fails."""
    lines = [l for l in region if l.size >= 0.8 * body_size]
    if not lines or ";" not in " ".join(l.text for l in lines):
        return []
    text = join_lines([l.text for l in lines])
    parts = [p.strip() for p in text.split(";") if p.strip()]
    out: list[str] = []
    known = 0  # parts whose organisation reads as one (a short company or lab name may not: "Inria Saclay")
    for part in parts:
        head, comma, rest = part.partition(",")
        name = _plain_name(head) if comma else None
        if not (name and _name_ok(name) and not _institution(name) and rest.strip()[:1].isupper()):
            return []
        known += bool(is_address(rest) or _institution(rest))
        out.append(name)
    return out if len(out) >= 2 and known >= len(out) / 2 else []


def extract_authors(page: PageAnalysis, title: list[Line], abstract_y: float | None, body_size: float) -> list[str]:
    if not title:
        return []
    top = max(l.bbox[3] for l in title)
    # an abstract above the title's foot stands in another column (a cover page beside the abstract, Philosophers'
    # Imprint): it bounds nothing under the title
    bottom = abstract_y if abstract_y is not None and abstract_y > top else top + 0.25 * page.height
    # a table of contents under the title block (a report, a package vignette): its entries are no names; without
    # an abstract, the text starts under the names (article's `\maketitle`: title, author, date, then `1 Simple
    # Examples` and its paragraph), and its headings are no names either
    ends = [l.bbox[1] for l in page.lines if top < l.bbox[1] < bottom
            and (CONTENTS.fullmatch(l.text.strip(" .:"))
                 or (abstract_y is None and (_prose_line(l, body_size) or _first_section(l, body_size))))]
    bottom = min([bottom, *ends])
    in_title = {id(l) for l in title}
    # e-mail lines are no author lines; a name followed by its address in brackets is
    usable = lambda l: (l.horizontal and id(l) not in in_title and not _ABSTRACT.match(l.text)  # noqa: E731
                        and "@" not in BRACKETED_EMAIL.sub("", l.text))
    region = _rows([l for l in page.lines if usable(l) and top < l.bbox[1] < bottom
                    and not _in_sidebar(l, title, page.width)])
    return _authors_in(page, region, title, body_size) or _authors_in(page, _beside(page, title, usable), title,
                                                                      body_size)


def _prose_line(line: Line, body_size: float) -> bool:
    """A line of running text: eight words or more in the body's size, most of them in lower case (an affiliation
    line as long has mostly capitalised words: `Department of Computer Science and Engineering, University of ...`)."""
    words = line.text.split()
    return (len(words) >= 8 and line.size <= body_size + 0.3
            and sum(w[0].islower() for w in words) >= 0.5 * len(words))


_FIRST_SECTION = re.compile(r"1(?:\.1)?\.?(?:\s+[A-Z]\S*(?:\s+\S+){0,8})?")


def _first_section(line: Line, body_size: float) -> bool:
    """The first section's heading (`1 The Problem`, its number alone on a line, `1.1 Bayes Factors`), in bold or
    larger than the text: the names are above it."""
    return bool(_FIRST_SECTION.fullmatch(line.text.strip())) and (line.bold or line.size > body_size + 1)


def _beside(page: PageAnalysis, title: list[Line], usable) -> list[Line]:
    """A column of author blocks beside the title and abstract (ASME's journals: each name over its affiliation, left
    of the title): lines clear of the title's horizontal extent in the top half of the page, in one block that starts
    beside the title."""
    x0, x1 = min(l.bbox[0] for l in title), max(l.bbox[2] for l in title)
    t0, t1 = min(l.bbox[1] for l in title), max(l.bbox[3] for l in title)
    side = [l for l in page.lines if usable(l) and l.bbox[1] < 0.5 * page.height
            and (l.bbox[2] < x0 - 6 or l.bbox[0] > x1 + 6)]
    for left in (True, False):
        col = _first_block(_rows([l for l in side if (l.bbox[2] < x0 - 6) == left]))
        if col and col[0].bbox[1] < t1 and col[-1].bbox[3] > t0:
            return col
    return []


def _first_block(lines: list[Line]) -> list[Line]:
    """Lines down to the first wide gap: an author block ends there (a teaser figure or the body may follow)."""
    for i in range(1, len(lines)):
        if lines[i].bbox[1] - lines[i - 1].bbox[3] > 60:
            return lines[:i]
    return lines


def _name_size(line: Line) -> float:
    """The size a line's names are set in: a long e-mail address in brackets after a short name, in smaller type,
    would otherwise be the line's size."""
    return line.max_size if BRACKETED_EMAIL.search(line.text) else line.size


def _authors_in(page: PageAnalysis, region: list[Line], title: list[Line], body_size: float) -> list[str]:
    region = _first_block(region)
    if not region:
        return []
    # ACM journals: one `NAME, Affiliation` line per author, nothing else name-like
    lead = [l for l in region if l.size >= 0.8 * body_size and _lead_names(l)]
    if lead and not any(name_like(l) for l in region if l not in lead):
        return list(dict.fromkeys(n for l in lead for n in _lead_names(l)))
    paired = _name_org_pairs(region, body_size)
    if paired:
        return paired
    # an affiliation broken over lines: the line under one that ends unfinished ("..., Technical University of",
    # "Inria Saclay,") goes on with it ("Kongens Lyngby, Denmark" is no author)
    continued = {id(b) for a, b in zip(region, region[1:])
                 if is_address(a.text) and _UNFINISHED.search(a.text) and abs(a.size - b.size) <= 0.3
                 and _italic(a) == _italic(b) and b.bbox[1] - a.bbox[3] < 2 * a.size}  # double spacing: 1.5 sizes
    region = _hyphen_joined([l for l in region if id(l) not in continued])
    # figure labels and footnotes are small print; furniture and affiliations are never names
    tsize, tbold = title[0].max_size, title[0].bold
    tcaps = all(_caps(l.text) for l in title)  # AASTeX/revtex: a capitals title over mixed-case names of similar size
    region = [l for l in region if l.size >= 0.8 * body_size and not is_masthead(l.text)
              # "Technical Report", "Working Paper", "(Extended Abstract)" under the title (OCR: "(Extended Abstract!)")
              and not LABEL.match(l.text.strip(" ()[]!*†‡.,;:"))
              and not (is_address(l.text) and not name_like(l))
              and not (l.max_size >= 0.9 * tsize and l.bold == tbold and _caps(l.text) == tcaps)]  # title print
    region = [l for l in region if name_like(l)]
    if not region:
        return []
    size = max(_name_size(l) for l in region)
    # OCR'd lines: a name's size comes from Tesseract's line height, which a dagger or a descender-free line moves by
    # 3 pt or more (FOCS 1990: "Baruch Awerbuch *" 9.0 pt beside "David Peleg †" 12.5), so only the name test decides
    largest = [l for l in region if _name_size(l) >= size - (OCR_NAME_SLACK if _ocr(l) else 0.5)]
    # some IEEE styles set the names in italics, others the departments: italics when they hold more names
    italic = [l for l in region if _italic(l)]
    upright = [l for l in largest if not _italic(l)]
    count = lambda ls: sum(len(names(l)) for l in ls)  # noqa: E731
    picked = [l for l in region if l.bold] or (italic if count(italic) > count(upright) else largest)
    authors: list[str] = []
    for line in _wrapped(picked):
        authors += [n for n in names(line, page.page) if n not in authors]
    return authors


_LIST_END = re.compile(r"(,|;|&|\band)\s*$")
_BROKEN_WORD = re.compile(r"[^\W\d_]-\s*$")


def _under(prev: Line, line: Line) -> bool:
    """`line` is set in `prev`'s size and slant, right under it."""
    return (abs(prev.size - line.size) <= 0.3 and _italic(prev) == _italic(line)
            and 0 <= line.bbox[1] - prev.bbox[3] < prev.size)


def _joined(lines: list[Line], goes_on, hyphen: bool) -> list[Line]:
    """Consecutive lines joined where `goes_on(prev, line)` and the line stands right under its predecessor in the
    same size and slant; at a `hyphen` the word goes on without a space, elsewhere with one."""
    out: list[Line] = []
    for line in lines:
        prev = out[-1] if out else None
        if prev is not None and prev.spans and goes_on(prev, line) and _under(prev, line):
            last = prev.spans[-1]
            glue = ([dataclasses.replace(last, text=last.text.rstrip())] if hyphen
                    else [last, Span(" ", last.bbox, last.size, last.font, last.flags)])
            out[-1] = Line((min(prev.bbox[0], line.bbox[0]), prev.bbox[1], max(prev.bbox[2], line.bbox[2]),
                            line.bbox[3]), [*prev.spans[:-1], *glue, *line.spans], prev.block, prev.dir)
        else:
            out.append(line)
    return out


def _hyphen_joined(lines: list[Line]) -> list[Line]:
    """A line that ends on a hyphen after a letter, over a line of its size and slant right under it that starts
    with a capital, is one line: a double surname broken at its hyphen (`... and Klaus Schmidt-` / `Hebbel`). The
    second line holds one word, no name on its own, so this is done before lines are tested for names."""
    return _joined(lines, lambda prev, line: bool(_BROKEN_WORD.search(prev.text)) and line.text.strip()[:1].isupper(),
                   hyphen=True)


def _wrapped(lines: list[Line]) -> list[Line]:
    """Lines of one list of names broken between a first name and a surname (`Léa Moreau, Jonas Østergaard, Priya` /
    `Raghunathan and Daniel K. Okafor`) joined into one: a line that lists names (a comma or `and` in it) and ends
    without a separator goes on in the next line of its size and slant, right under it. Lines that hold one name
    each are left apart."""
    def lists_on(prev: Line, line: Line) -> bool:
        return bool(re.search(r",|\band\b", prev.text)) and not _LIST_END.search(prev.text)

    return _joined(lines, lists_on, hyphen=False)


# ---- abstract ------------------------------------------------------------------------------------------

_ABSTRACT = re.compile(r"^\s*(abstract|a\s?b\s?s\s?t\s?r\s?a\s?c\s?t)\s*([.:—–-]\s*|$)(.*)$", re.I)
_SPACED = re.compile(r"^\s*a\s+b\s+s\s+t\s+r\s+a\s+c\s+t\s*[.:]?\s*$", re.I)
_SUMMARY = re.compile(r"^\s*summary\s*[.:]?\s*$", re.I)
_SECTION = re.compile(r"^(\d{1,2}(\.\d{1,2})*\.?|[IVX]+\.)(\s+[A-Z].*)?$|"
                      r"^(Introduction|INTRODUCTION|Index Terms|Keywords|"
                      r"Key words|KEYWORDS|CCS Concepts|CCS CONCEPTS|JEL|PACS|MSC|Mathematics Subject|DOI:|"
                      r"Citation:|Highlights|HIGHLIGHTS|Article history|Abbreviations)\b")


# what follows an abstract: history, licence, keywords, correspondence (a URL in the last sentence does not stop it),
# or the same abstract in another language, run in or headed (Canadian, Latin American, European journals print both:
# "Résumé. Les ...", "Resumen:", "Zusammenfassung")
_STOP = re.compile(r"^\*?\s*(received|revised|accepted|published|citation|edited by|reviewed by|academic editor|"
                   r"editor|correspondence|specialty section|keywords|key words|article history|available online|"
                   r"doi)\s*:|^(©|copyright\b)|^(r[ée]sum[ée]|resumen|resumo|zusammenfassung|kurzfassung|riassunto|"
                   r"sommario|samenvatting|sammanfattning|streszczenie|аннотация|абстракт)\s*([.:—–-]|$)", re.I)


def _heading(line: Line) -> str | None:
    """The text after an abstract heading on this line ('' for a heading alone), None when it is none."""
    text = line.text
    if _SPACED.match(text):
        return ""
    m = _ABSTRACT.match(text)
    if m and (len(text) <= 12 or m[2].strip()):
        return m[3]
    # run-in in its own font: "Abstract" bold or larger, then the text in the body font
    spans = [s for s in line.spans if s.text.strip()]
    if len(spans) >= 2 and spans[0].text.strip().lower() == "abstract":
        a, b = spans[0], spans[1]
        if a.bold != b.bold or abs(a.size - b.size) > 0.5 or a.font != b.font:
            return "".join(s.text for s in line.spans[line.spans.index(a) + 1:]).strip()
    return None


def _plain(line: Line) -> str:
    """Line text without footnote marks: superscript digits/symbols right after punctuation ("corpus,1")."""
    out = ""
    for s in line.spans:
        if s.superscript and re.fullmatch(r"[\d,∗*†‡§¶]+", s.text.strip()) and re.search(r"[.,;:)]$", out):
            continue
        out += s.text
    return out.strip()


def _read_after(lines: list[Line], i: int, rest: str, title: list[Line], width: float) -> str:
    """The abstract body after heading line i: lines that overlap the heading horizontally, in reading order."""
    line = lines[i]
    body = [rest] if rest else []
    size = 0.0
    prev = None
    lo, hi = line.bbox[0], line.bbox[2]  # the abstract's column: the heading's extent, widened by its lines
    if not rest:  # a run-in heading the text layer keeps as a line of its own ("Abstract", a quad, the text)
        beside = [l for l in lines if l is not line and abs(l.bbox[1] - line.bbox[1]) < 0.5 * line.max_size
                  and 0 <= l.bbox[0] - line.bbox[2] < 3 * line.max_size]
        if beside:
            body, hi, prev = [_plain(beside[0])], beside[0].bbox[2], beside[0]
    for nxt in lines[i + 1:]:
        if nxt is prev:
            continue
        if nxt.bbox[0] >= hi or nxt.bbox[2] <= lo or _in_sidebar(nxt, title, width):
            continue  # another box or column (Elsevier's article-info box beside the abstract)
        t = nxt.text
        if _SECTION.match(t) or _STOP.match(t) or (nxt.bold and not line.bold and len(t) < 60 and body) \
                or len(body) > 80:
            break
        size = size or nxt.max_size
        # footnotes: smaller print (often only ~10% smaller), or set apart by a wide gap below (a rule, a heading
        # outside the abstract's column)
        if nxt.max_size < 0.93 * size:
            break
        if prev is not None and nxt.bbox[1] - prev.bbox[3] > 2.5 * size:  # (a next column starts higher up)
            break
        body.append(_plain(nxt))
        prev = nxt
        lo, hi = min(lo, nxt.bbox[0]), max(hi, nxt.bbox[2])
    return join_lines(body)


def _prose(block: Block) -> bool:
    text = " ".join(l.text for l in block.lines)
    words = text.split()
    return (len(block.lines) >= 3 and len(text) >= 200 and sum(w.islower() for w in words) >= 0.4 * len(words)
            and len(AFFILIATION.findall(text)) < 2 and not MASTHEAD.search(block.lines[0].text))


def _spaced_lines(blocks: list[Block], spacing: float) -> list[Block]:
    """On a page set at one and a half or double spacing the text layer makes a block of every line: consecutive
    one-line blocks of one column, size and weight whose gaps stay within the line pitch are one paragraph again."""
    if spacing < 1.3:
        return blocks
    out: list[Block] = []
    for b in blocks:
        prev = out[-1] if out else None
        size = b.lines[0].size
        # same left edge, or the paragraph's indented first line above its second (jpsj2's abstract)
        aligned = prev is not None and (abs(prev.bbox[0] - b.bbox[0]) <= 3
                                        or (len(prev.lines) == 1 and 0 < prev.bbox[0] - b.bbox[0] <= 2.5 * size))
        if prev is not None and len(b.lines) == 1 and aligned \
                and abs(prev.lines[-1].size - size) <= 0.3 and prev.lines[-1].bold == b.lines[0].bold \
                and 0 <= b.bbox[1] - prev.bbox[3] <= 1.25 * spacing * size - 0.5 * size:
            out[-1] = dataclasses.replace(prev, lines=prev.lines + b.lines, bbox=(
                min(prev.bbox[0], b.bbox[0]), prev.bbox[1], max(prev.bbox[2], b.bbox[2]), b.bbox[3]))
        else:
            out.append(b)
    return out


def _unheaded(page: PageAnalysis, title: list[Line], spacing: float = 1.0) -> tuple[str, float | None]:
    """No heading printed: the first substantial prose paragraph below the title block (see the docstring)."""
    if not title:
        return "", None
    top = max(l.bbox[3] for l in title)
    blocks = _spaced_lines([b for b in page.blocks if not b.margin and b.lines and b.lines[0].horizontal], spacing)
    for k, b in enumerate(blocks):
        if b.bbox[1] < top or _in_sidebar(b, title, page.width) or b.bbox[1] > 0.85 * page.height:
            continue
        first = b.lines[0].text
        if _SECTION.match(first) and len(first) <= 80 and not is_address(first):
            return "", None  # a section starts before any abstract-like paragraph (not "1 Institute of ...")
        if not _prose(b) or any(name_like(l) for l in b.lines[:1]):
            continue
        size, x0 = b.lines[0].size, b.bbox[0]
        parts, last = [b], b
        for nxt in blocks[k + 1:]:  # paragraphs continuing it: same column, size and left edge, small gap
            if abs(nxt.bbox[0] - x0) > 3 or abs(nxt.lines[0].size - size) > 0.3 \
                    or nxt.bbox[1] - last.bbox[3] > 2 * size or _SECTION.match(nxt.lines[0].text):
                break
            parts.append(nxt)
            last = nxt
        return join_lines([_plain(l) for p in parts for l in p.lines]), b.bbox[1]
    return "", None


def extract_abstract(page: PageAnalysis, title: list[Line] | None = None, spacing: float = 1.0
                     ) -> tuple[str, float | None]:
    """(abstract text, y where it starts: the heading's, or the paragraph's when no heading is printed); `spacing`:
    the paper's `line_spacing`."""
    title = title or []
    lines = [l for l in page.lines if l.horizontal]
    for pattern_pass in (0, 1):
        for i, line in enumerate(lines):
            if _in_sidebar(line, title, page.width):
                continue
            rest = _heading(line) if pattern_pass == 0 else ("" if _SUMMARY.match(line.text) else None)
            if rest is not None:
                return _read_after(lines, i, rest, title, page.width), line.bbox[1]
    return _unheaded(page, title, spacing)


# ---- where venues are printed -------------------------------------------------------------------------

def _venue_text(page: PageAnalysis, body_size: float, above: float = 0.0) -> str:
    """Running headers, footers, first-page footnotes and margin stamps: where venues are printed. `above`: the
    title's top on the front page; what stands over the title there is its masthead, however low a logo pushes it
    (Electronic Journal of Probability: `Electron. J. Probab. 31 (2026), article no. 14` a fifth of the way down)."""
    parts = []
    for b in page.blocks:
        edge = b.bbox[1] >= 0.6 * page.height or b.bbox[3] <= max(0.12 * page.height, above)
        small = all(l.size <= body_size + 0.6 for l in b.lines)
        if b.margin or (edge and small):
            parts.append(" ".join(l.text for l in b.lines))
    return " ".join(parts)


# ---- publisher cover sheets ----------------------------------------------------------------------------

_COVER = re.compile(r"to cite this article|view the article online|this content was downloaded from|"
                    r"full terms (&|and) conditions of access|submit your article to this journal|"
                    r"your use of the jstor archive|you may also like", re.I)


def front_page(pages: list[PageAnalysis]) -> PageAnalysis:
    """The page holding the paper's own front matter: page 1, or page 2 when page 1 is a publisher's cover
    sheet ("To cite this article: ...", "View the article online ...", download notices) with less than 60 %
    of page 2's text and no abstract heading."""
    first = pages[0]
    if len(pages) > 1 and _COVER.search(first.text) and len(first.text) < 0.6 * len(pages[1].text) \
            and not any(_heading(l) is not None for l in first.lines if l.horizontal):
        return pages[1]  # a cover: the notice, little text, no abstract ("How to cite" footnotes stay on page 1)
    return first


def _abstract_overleaf(pages: list[PageAnalysis], first: PageAnalysis, spacing: float) -> str:
    """A title page of its own (revtex `preprint`, APA manuscripts, theses, reports, many submissions): the abstract
    heads the next page. Read from there when the front page holds no abstract and either under half the next page's
    text or no paragraph of prose, and an abstract heading stands in the next page's top half."""
    k = pages.index(first)
    if k + 1 >= len(pages):
        return ""
    # a title page: little text, or no paragraph of prose (APA's author note is two lines)
    if len(first.text) >= 0.5 * len(pages[k + 1].text) and any(_prose(b) for b in first.blocks if not b.margin):
        return ""
    nxt = pages[k + 1]
    lines = sorted((l for l in nxt.lines if l.horizontal and not l.running), key=lambda l: l.bbox[1])
    # the heading among the first lines, or in the top half (a working paper's second title page: series,
    # department, title, `Prepared by`, `Authorized for distribution by`, date, a boxed disclaimer, `Abstract`)
    if not any(l.bbox[1] < 0.5 * nxt.height and _heading(l) is not None for l in lines):
        return ""
    return extract_abstract(nxt, [], spacing)[0]


_CONTINUED_NEXT = re.compile(r"^\(?\s*continued on (the )?next page\s*\)?\.?$", re.I)
_CONTINUED_FROM = re.compile(r"^\(?\s*continued from (the )?previous page\s*\)?\.?$", re.I)


def _abstract_continued(pages: list[PageAnalysis], first: PageAnalysis) -> str:
    """The rest of an abstract the front page breaks off with `(Continued on next page)` (BMC and SpringerOpen set
    a long structured abstract in a box that goes on at the top of the next page, under `(Continued from previous
    page)`): read from the next page's marker as from a heading, to the keywords or the first heading."""
    k = pages.index(first)
    if k + 1 >= len(pages) or not any(_CONTINUED_NEXT.match(l.text.strip()) for l in first.lines):
        return ""
    nxt = pages[k + 1]
    lines = sorted((l for l in nxt.lines if l.horizontal and not l.running), key=lambda l: l.bbox[1])
    for i, line in enumerate(lines[:4]):
        if _CONTINUED_FROM.match(line.text.strip()):
            return _read_after(lines, i, "", [], nxt.width)
    return ""


# ---- entry point ---------------------------------------------------------------------------------------

def extract_metadata(facts: DocumentFacts | DocumentAnalysis, path: Path, options: ParseOptions, md: Metadata) -> None:
    facts = as_facts(facts, options.pymupdf)
    path = Path(path)
    first = front_page(facts.pages)
    md.pdf_path = str(path)
    md.num_pages = len(facts.pages)
    md.title, title_lines = extract_title(first, facts.pages, facts.body_size, facts.analysis.line_spacing)
    md.abstract, abstract_y = extract_abstract(first, title_lines, facts.analysis.line_spacing)
    md.authors = extract_authors(first, title_lines, abstract_y, facts.body_size)
    if not md.abstract:
        md.abstract = _abstract_overleaf(facts.pages, first, facts.analysis.line_spacing)
    elif rest := _abstract_continued(facts.pages, first):
        md.abstract = join_lines([md.abstract, rest])
    pages = {facts.pages[0].number: facts.pages[0], first.number: first}.values()
    # the title block and what follows before the running lines and what stands above the title: a date line under
    # the title is read before a build stamp over it ("October 27, 2019, PalgravePrecautionary" / title / authors /
    # "June 12, 2007")
    top = min((l.bbox[1] for l in title_lines), default=0.0)
    finish_metadata(md, path, options, first_page_text=" ".join(
                        l.text for p in pages for l in sorted(p.lines, key=lambda l: l.running or (
                            p is first and l.bbox[3] <= top))),
                    venue_text=" ".join(_venue_text(p, facts.body_size, above=min(
                        (l.bbox[1] for l in title_lines), default=0.0) if p is first else 0.0) for p in pages))
