"""metadata view: title, authors, abstract, venue and year from the paper's own first page.

Venue names follow the upstream (NeuSym-RAG) metadata files, because `paper_id` hashes the title with
`conference_abbreviation + pub_year` and must match AirQA ids: ACL-family papers keep the printed proceedings
title as `volume`, findings papers belong to the conference named in the findings volume, arXiv-only papers
are `arxiv`/`ArXiv`, and a paper with nothing printed is `uncategorized`.
Precedence: detected < sidecar `<stem>.json` (upstream format) < `options.metadata_overrides`.
"""
from __future__ import annotations

import json
import re
import unicodedata
from dataclasses import dataclass, fields
from pathlib import Path

from pipeline.document import Metadata
from pipeline.parse.base import ParseOptions
from pipeline.parse.pymupdf.page import DocumentAnalysis, Line, PageAnalysis

UNCATEGORIZED = "uncategorized"

# ---- text clean-up -------------------------------------------------------------------------------------

from pipeline.parse.pymupdf._joining import clean_text, join_lines  # noqa: E402,F401  (shared with captions)


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


_SMALL_WORDS = {"a", "an", "and", "as", "at", "by", "for", "from", "in", "into", "of", "on", "or", "the", "to",
                "via", "vs", "with"}


def _title_case(title: str) -> str:
    """An all-capitals title in headline case (acronyms cannot be recovered; the paper id ignores case)."""
    words = title.lower().split(" ")
    out = []
    for i, w in enumerate(words):
        out.append(w if i and w in _SMALL_WORDS else "-".join(p[:1].upper() + p[1:] for p in w.split("-")))
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


# ---- venue ---------------------------------------------------------------------------------------------

FULL_NAMES = {
    "ACL": "Annual Meeting of the Association for Computational Linguistics",
    "NAACL": "Annual Conference of the North American Chapter of the Association for Computational Linguistics",
    "EACL": "Conference of the European Chapter of the Association for Computational Linguistics",
    "AACL": "Conference of the Asia-Pacific Chapter of the Association for Computational Linguistics",
    "COLING": "International Conference on Computational Linguistics",
    "CoNLL": "Conference on Computational Natural Language Learning",
    "LREC": "International Conference on Language Resources and Evaluation",
    "TACL": "Transactions of the Association for Computational Linguistics",
    "ICLR": "International Conference on Learning Representations",
    "NeurIPS": "Conference on Neural Information Processing Systems",
    "ICML": "International Conference on Machine Learning",
    "icassp": "IEEE International Conference on Acoustics, Speech, and Signal Processing (ICASSP)",
    "arxiv": "ArXiv",
}
# Which conference a printed ACL Anthology proceedings title belongs to (workshops default to ACL upstream).
_PROCEEDINGS = [
    (r"International Conference on Machine Learning", "ICML"),
    (r"Empirical Methods in Natural Language Processing", "EMNLP"),
    (r"North American Chapter of the Association for Computational Linguistics", "NAACL"),
    (r"European Chapter of the Association for Computational Linguistics", "EACL"),
    (r"Asia-Pacific Chapter of the Association for Computational Linguistics", "AACL"),
    (r"International Conference on Computational Linguistics", "COLING"),
    (r"Annual Meeting of the Association for Computational Linguistics", "ACL"),
    (r"Computational Natural Language Learning", "CoNLL"),
    (r"Language Resources and Evaluation", "LREC"),
    (r"Workshop|Shared Task|SemEval", "ACL"),
    # older short forms: "Proceedings of NAACL-HLT 2019"
    (r"\bNAACL", "NAACL"), (r"\bEACL", "EACL"), (r"\bEMNLP", "EMNLP"), (r"\bAACL", "AACL"), (r"\bCOLING", "COLING"),
    (r"\bACL\b", "ACL"),
]


@dataclass
class Venue:
    abbreviation: str
    full: str
    year: int | None
    volume: str | None = None


@dataclass
class ArxivStamp:
    id: str  # without version
    version: str
    category: str
    year: int


def _full_name(abbr: str, year: int | None) -> str:
    if abbr == "EMNLP":
        return f"The {year} Conference on Empirical Methods in Natural Language Processing" if year else \
            "Conference on Empirical Methods in Natural Language Processing"
    return FULL_NAMES.get(abbr, abbr)


def detect_venue(text: str) -> Venue | None:
    """The venue printed in a page header/footer/footnote text (whitespace-normalised), or None."""
    text = re.sub(r"\s+", " ", clean_text(text))
    year_mark = re.search(r"(?:©|c⃝|\(c\)|Copyright)\s*(\d{4})", text)
    m = re.search(r"Findings of the Association for Computational Linguistics:?\s*"
                  r"((?:AACL-)?(?:ACL|EMNLP|NAACL|EACL|AACL)(?:-IJCNLP)?)\s*(\d{4})", text)
    if m:
        abbr, year = re.sub(r"-?IJCNLP", "", m[1]), int(m[2])  # "ACL-IJCNLP 2021" is ACL
        volume = f"Findings of the Association for Computational Linguistics: {m[1]} {year}"
        return Venue(abbr, _full_name(abbr, year), year, volume)
    m = re.search(r"Proceedings of (the )?(.+?)"
                  r"(?=,? pages \d|, PMLR|\. Copyright|,? [A-Z][a-z]+ \d{1,2}\s?[-–]|$)", text)
    if m:
        title = m[2].strip(" ,.")
        for pattern, abbr in _PROCEEDINGS:
            if re.search(pattern, title):
                years = re.findall(r"\b((?:19|20)\d{2})\b", title + " " + text[m.end():m.end() + 120])
                year = int(year_mark[1]) if year_mark else int(years[-1]) if years else None
                if abbr == "ICML":
                    pmlr = re.search(r"PMLR \d+", text)
                    return Venue(abbr, _full_name(abbr, year), year, pmlr[0] if pmlr else None)
                return Venue(abbr, _full_name(abbr, year), year, f"Proceedings of {m[1] or ''}{title}")
    m = re.search(r"(?:Published|Accepted) as an? (?:conference|workshop) paper at ICLR (\d{4})", text)
    if m:
        return Venue("ICLR", FULL_NAMES["ICLR"], int(m[1]))
    m = re.search(r"(Submitted to )?\d*\s*\w*\s*Conference on Neural Information Processing Systems "
                  r"\((?:NeurIPS|NIPS) (\d{4})\)", text)
    if m and not m[1]:  # "Submitted to ..." is the anonymous-review footer
        return Venue("NeurIPS", FULL_NAMES["NeurIPS"], int(m[2]))
    m = re.search(r"Workshop.{0,150}?\b(?:at|@) (?:NeurIPS|NIPS) (\d{4})", text)
    if m:
        return Venue("NeurIPS", FULL_NAMES["NeurIPS"], int(m[1]))
    # IEEE prints "ICASSP 2024 - 2024 IEEE International Conference on Acoustics, ... | ©2024 IEEE"; a bare
    # "ICASSP 2020" far from "IEEE" is a citation in the text
    m = re.search(r"\bICASSP[\s-]*((?:19|20)\d{2})\b", text)
    if m and "IEEE" in text[max(0, m.start() - 100):m.end() + 100]:
        return Venue("icassp", FULL_NAMES["icassp"], int(m[1]))
    m = re.search(r"IEEE International Conference on Acoustics,? Speech,? and Signal Processing.{0,80}?"
                  r"\b((?:19|20)\d{2})\b", text)
    if m:
        return Venue("icassp", FULL_NAMES["icassp"], int(m[1]))
    m = re.search(r"Transactions of the Association for Computational Linguistics,? (?:vol\. )?\d+.{0,60}?"
                  r"\b((?:19|20)\d{2})\b", text)
    if m:
        return Venue("TACL", FULL_NAMES["TACL"], int(m[1]))
    return None


def detect_arxiv(text: str) -> ArxivStamp | None:
    m = re.search(r"arXiv:\s?(\d{4}\.\d{4,5}|[a-z\-]+(?:\.[A-Z]{2})?/\d{7})(v\d+)?\s*\[([\w.\-]+)\]\s*"
                  r"\d{1,2}\s+[A-Z][a-z]{2}\s+(\d{4})", text)
    return ArxivStamp(m[1], m[2] or "", m[3], int(m[4])) if m else None


def _venue_text(page: PageAnalysis, body_size: float) -> str:
    """Running headers, footers, first-page footnotes and margin stamps: where venues are printed."""
    parts = []
    for b in page.blocks:
        edge = b.bbox[1] >= 0.6 * page.height or b.bbox[3] <= 0.12 * page.height
        small = all(l.size <= body_size + 0.6 for l in b.lines)
        if b.margin or (edge and small):
            parts.append(" ".join(l.text for l in b.lines))
    return " ".join(parts)


# ---- bibtex --------------------------------------------------------------------------------------------

def _ascii(s: str) -> str:
    return unicodedata.normalize("NFKD", s).encode("ascii", "ignore").decode()


def make_bibtex(md: Metadata, arxiv: ArxivStamp | None = None) -> str:
    last = re.sub(r"[^a-z]", "", _ascii(md.authors[0].split()[-1]).lower()) if md.authors else "anonymous"
    words = [w for w in re.findall(r"[a-z0-9]+", _ascii(md.title).lower()) if w not in _SMALL_WORDS]
    key = f"{last}{md.pub_year or ''}{words[0] if words else ''}"
    entry = [f"title = {{{md.title}}}", f"author = {{{' and '.join(md.authors)}}}"]
    abbr = md.conference_abbreviation
    if abbr and abbr not in (UNCATEGORIZED, "arxiv"):
        kind = "inproceedings"
        volume = md.volume or ""
        entry.append(f"booktitle = {{{volume if volume.startswith(('Proceedings', 'Findings')) else md.conference_full}}}")
    else:
        kind = "misc"
    if md.pub_year:
        entry.append(f"year = {{{md.pub_year}}}")
    if arxiv and kind == "misc":
        entry += [f"eprint = {{{arxiv.id}}}", "archivePrefix = {arXiv}", f"primaryClass = {{{arxiv.category}}}"]
    return "@" + kind + "{" + key + ",\n" + ",\n".join("    " + e for e in entry) + "\n}"


# ---- overrides -----------------------------------------------------------------------------------------

# upstream metadata JSON key -> Metadata field (num_pages and pdf_path always come from the real file)
SIDECAR_KEYS = {"title": "title", "conference_full": "conference_full", "conference": "conference_abbreviation",
                "year": "pub_year", "volume": "volume", "bibtex": "bibtex", "authors": "authors",
                "pdf_url": "download_url", "abstract": "abstract", "tldr": "tldr", "tags": "tags"}
_FIELDS = {f.name for f in fields(Metadata)}
_REQUIRED_STR = {"title", "abstract", "pdf_path"}


def _checked(name: str, value, source: str):
    """Validate one field value; raise ValueError naming the source on a wrong type."""
    def bad(expected: str) -> ValueError:
        return ValueError(f"{source}: field {name!r} must be {expected}, got {type(value).__name__} {value!r:.60}")

    if name in ("authors", "tags"):
        if value is None and name == "tags":
            return None
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise bad("a list of strings")
        return list(value)
    if name in ("pub_year", "num_pages"):
        if value is None and name == "pub_year":
            return None
        if isinstance(value, bool) or not (isinstance(value, int) or (isinstance(value, str) and value.strip().isdigit())):
            raise bad("an integer")
        return int(value)
    if value is None and name not in _REQUIRED_STR:
        return None
    if not isinstance(value, str):
        raise bad("a string")
    return value


def read_sidecar(pdf: Path) -> dict:
    """Metadata fields from `<stem>.json` beside the PDF ({} when there is none)."""
    path = pdf.with_suffix(".json")
    if not path.is_file():
        return {}
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise ValueError(f"malformed sidecar metadata {path.name}: {exc}") from exc
    if not isinstance(data, dict):
        raise ValueError(f"malformed sidecar metadata {path.name}: expected a JSON object, got {type(data).__name__}")
    out = {}
    for key, value in data.items():
        name = SIDECAR_KEYS.get(key, key if key in _FIELDS - {"num_pages", "pdf_path"} else None)
        if name is None or (value is None and name in ("title", "abstract", "authors")):
            continue
        out[name] = _checked(name, value, f"sidecar metadata {path.name}")
    return out


def _overrides(options: ParseOptions) -> dict:
    out = {}
    for name, value in (options.metadata_overrides or {}).items():
        if name not in _FIELDS:
            raise ValueError(f"metadata_overrides: unknown Metadata field {name!r} (known: {', '.join(sorted(_FIELDS))})")
        out[name] = _checked(name, value, "metadata_overrides")
    return out


# ---- entry point ---------------------------------------------------------------------------------------

def extract_metadata(analysis: DocumentAnalysis, path: Path, options: ParseOptions, md: Metadata) -> None:
    path = Path(path)
    first = analysis.pages[0]
    md.pdf_path = str(path)
    md.num_pages = len(analysis.pages)
    md.title, title_lines = extract_title(first)
    md.abstract, abstract_y = extract_abstract(first)
    md.authors = extract_authors(first, title_lines, abstract_y, analysis.body_size)
    if not md.title:
        md.title = path.stem

    arxiv = detect_arxiv(" ".join(l.text for l in first.lines))
    venue = detect_venue(_venue_text(first, analysis.body_size))
    if venue is None and arxiv is not None:
        venue = Venue("arxiv", FULL_NAMES["arxiv"], arxiv.year)
    if venue is None:
        venue = Venue(UNCATEGORIZED, UNCATEGORIZED, None)
    md.conference_abbreviation, md.conference_full = venue.abbreviation, venue.full
    md.pub_year = venue.year or (arxiv.year if arxiv else None)
    md.volume = venue.volume
    md.bibtex, md.tldr, md.tags = None, None, None

    provided = read_sidecar(path) if options.sidecar_metadata else {}
    provided.update(_overrides(options))
    for name, value in provided.items():
        setattr(md, name, value)
    if not md.bibtex:
        md.bibtex = make_bibtex(md, arxiv)
