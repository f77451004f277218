"""metadata view: title, authors and abstract from the paper's own first page, plus the text where a venue may be
printed (running headers, footers, footnotes, margin stamps). Venue, arXiv stamp, sidecar, overrides and bibtex
are the core's (pipeline/parse/sidecar.py `finish_metadata`), the same for every backend.
"""
from __future__ import annotations

import re
from pathlib import Path

from pipeline.document import Metadata
from pipeline.parse.cleanup import SMALL_WORDS, clean_text, join_lines
from pipeline.parse.options import ParseOptions
from pipeline.parse.pymupdf.facts import DocumentFacts, as_facts
from pipeline.parse.pymupdf.page import DocumentAnalysis, Line, PageAnalysis
from pipeline.parse.sidecar import finish_metadata


# ---- title / authors / abstract ------------------------------------------------------------------------

_NOT_TITLE = re.compile(
    r"^(arXiv:|Published as|Under review|Accepted |Preprint|Proceedings of|Findings of|Workshop|Copyright|"
    r"Provided proper attribution|Technical Report|\d+(st|nd|rd|th) Conference)", re.I)
_ABSTRACT = re.compile(r"^\s*(abstract|a\s?b\s?s\s?t\s?r\s?a\s?c\s?t)\s*([.:—–-]\s*|$)(.*)$", re.I)
_SECTION = re.compile(r"^(\d+(\.\d+)*\.?|[IVX]+\.)(\s+[A-Z].*)?$|^(Introduction|INTRODUCTION|Index Terms|Keywords|"
                      r"Key words|CCS Concepts)\b")
_MARKS = re.compile(r"[\d∗*†‡§¶♠♢♡♣♦♥♤♧⋆#✉✝⊥⊤⋄◦•]+")
_AFFILIATION = re.compile(r"\b(Universit|Institut|Research|Laborator|Lab\b|Labs\b|Inc\b|Corp|Department|School|"
                          r"College|Academy|Center|Centre|Google|Microsoft|Facebook|Meta\b|Amazon|ByteDance|"
                          r"Alibaba|Tencent|Group\b|Team\b|Company|Foundation|Equal contribution)", re.I)


def _title_lines(page: PageAnalysis) -> list[Line]:
    """The largest-font lines at the top of page 1, plus the lines that continue them."""
    cands = [l for l in page.lines if l.horizontal and re.search(r"[A-Za-z]{2}", l.text)
             and not _NOT_TITLE.match(l.text)]
    top = [l for l in cands if l.bbox[1] < 0.3 * page.height] or [l for l in cands if l.bbox[1] < 0.5 * page.height]
    if not top:
        return []
    first = min(top, key=lambda l: (-l.max_size, l.bbox[1]))
    size = first.max_size
    group = [first]
    for line in sorted((l for l in cands if l.bbox[1] > first.bbox[1]), key=lambda l: (l.bbox[1], l.bbox[0])):
        prev = group[-1]
        if line.max_size < 0.92 * size or line.bold != first.bold:
            break
        if line.bbox[1] - prev.bbox[3] > 0.8 * size and not (abs(line.bbox[1] - prev.bbox[1]) < 2):
            break
        group.append(line)
    return group


def _case_fixed(line: Line) -> str:
    """Line text with small caps undone: capitals set smaller than the line's largest size are lowercase."""
    top = line.max_size
    parts = []
    for s in line.spans:
        small = s.size < 0.9 * top and s.text.isupper()
        parts.append(s.text.lower() if small else s.text)
    return "".join(parts).strip()


def _title_case(title: str) -> str:
    """An all-capitals title in headline case (acronyms cannot be recovered; the paper id ignores case)."""
    words = title.lower().split(" ")
    out = []
    for i, w in enumerate(words):
        out.append(w if i and w in SMALL_WORDS else "-".join(p[:1].upper() + p[1:] for p in w.split("-")))
    return " ".join(out)


def extract_title(page: PageAnalysis) -> tuple[str, list[Line]]:
    lines = _title_lines(page)
    title = join_lines([_case_fixed(l) for l in lines])
    letters = [c for c in title if c.isalpha()]
    if letters and all(c.isupper() for c in letters) and len(letters) > 12:
        title = _title_case(title)
    return title, lines


def _names(line: Line) -> list[str]:
    """Author names of one line: superscript marks, commas and 'and' separate names."""
    top = line.max_size
    text = "".join("|" if (s.superscript or s.size < 0.8 * top) else s.text for s in line.spans)
    names = []
    for part in re.split(r"\||,|;|&|\band\b", text):
        name = clean_text(_MARKS.sub(" ", part)).strip(" .")
        if (name and "@" not in name and "http" not in name and not _AFFILIATION.search(name)
                and re.search(r"[A-Za-z]", name) and len(name.split()) <= 6 and name[0].isupper()):
            names.append(name)
    return names


def _rows(lines: list[Line]) -> list[Line]:
    """Lines top to bottom, left to right within a row (baselines of one row differ by a point or two)."""
    rows: list[list[Line]] = []
    for line in sorted(lines, key=lambda l: l.bbox[1]):
        if rows and line.bbox[1] - rows[-1][0].bbox[1] < 3:
            rows[-1].append(line)
        else:
            rows.append([line])
    return [l for row in rows for l in sorted(row, key=lambda l: l.bbox[0])]


def extract_authors(page: PageAnalysis, title: list[Line], abstract_y: float | None, body_size: float) -> list[str]:
    if not title:
        return []
    top = max(l.bbox[3] for l in title)
    bottom = abstract_y if abstract_y is not None else top + 0.25 * page.height
    in_title = {id(l) for l in title}
    region = _rows([l for l in page.lines if l.horizontal and top < l.bbox[1] < bottom and id(l) not in in_title
                    and not _ABSTRACT.match(l.text) and "@" not in l.text])
    if not region:
        return []
    for i in range(1, len(region)):  # a wide gap ends the author block (a teaser figure may follow)
        if region[i].bbox[1] - region[i - 1].bbox[3] > 60:
            region = region[:i]
            break
    region = [l for l in region if l.size >= body_size - 0.5]  # figure labels are small print
    def italic(l: Line) -> bool:
        chars = [(bool(s.flags & 2), len(s.text.strip())) for s in l.spans if not s.superscript]
        return sum(n for i, n in chars if i) > 0.5 * sum(n for _, n in chars)

    italic_lines = [l for l in region if italic(l)]
    picked = [l for l in region if l.bold] or italic_lines  # IEEE sets names in italics
    if not picked and region:  # else the names are the largest text under the title
        size = max(l.size for l in region)
        picked = [l for l in region if l.size >= size - 0.5]
    authors: list[str] = []
    for line in picked:
        authors += [n for n in _names(line) if n not in authors]
    return authors


def _plain(line: Line) -> str:
    """Line text without footnote marks: superscript digits/symbols right after punctuation ("corpus,1")."""
    out = ""
    for s in line.spans:
        if s.superscript and re.fullmatch(r"[\d,∗*†‡§¶]+", s.text.strip()) and re.search(r"[.,;:)]$", out):
            continue
        out += s.text
    return out.strip()


def extract_abstract(page: PageAnalysis) -> tuple[str, float | None]:
    """(abstract text, y of the 'Abstract' heading); the text runs in reading order up to the first heading
    or the first smaller-print line (footnotes)."""
    lines = [l for l in page.lines if l.horizontal]
    for i, line in enumerate(lines):
        m = _ABSTRACT.match(line.text)
        if m and (len(line.text) <= 12 or m[2].strip()):
            body = [m[3]] if m[3] else []
            size = 0.0
            prev = None
            for nxt in lines[i + 1:]:
                t = nxt.text
                if _SECTION.match(t) or (nxt.bold and not line.bold and len(t) < 60 and body) or len(body) > 80:
                    break
                size = size or nxt.max_size
                # footnotes: smaller print (often only ~10% smaller), or set apart by a wide gap in the same column
                if nxt.max_size < 0.93 * size:
                    break
                if prev is not None and abs(nxt.bbox[0] - prev.bbox[0]) < 20 and nxt.bbox[1] - prev.bbox[3] > 2.5 * size:
                    break
                body.append(_plain(nxt))
                prev = nxt
            return join_lines(body), line.bbox[1]
    return "", None


# ---- where venues are printed -------------------------------------------------------------------------

def _venue_text(page: PageAnalysis, body_size: float) -> str:
    """Running headers, footers, first-page footnotes and margin stamps: where venues are printed."""
    parts = []
    for b in page.blocks:
        edge = b.bbox[1] >= 0.6 * page.height or b.bbox[3] <= 0.12 * page.height
        small = all(l.size <= body_size + 0.6 for l in b.lines)
        if b.margin or (edge and small):
            parts.append(" ".join(l.text for l in b.lines))
    return " ".join(parts)


# ---- entry point ---------------------------------------------------------------------------------------

def extract_metadata(facts: DocumentFacts | DocumentAnalysis, path: Path, options: ParseOptions, md: Metadata) -> None:
    facts = as_facts(facts, options.pymupdf)
    path = Path(path)
    first = facts.pages[0]
    md.pdf_path = str(path)
    md.num_pages = len(facts.pages)
    md.title, title_lines = extract_title(first)
    md.abstract, abstract_y = extract_abstract(first)
    md.authors = extract_authors(first, title_lines, abstract_y, facts.body_size)
    finish_metadata(md, path, options, first_page_text=" ".join(l.text for l in first.lines),
                    venue_text=_venue_text(first, facts.body_size))
