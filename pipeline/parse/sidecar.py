"""Metadata completion (core, backend-neutral): venue detection, sidecar JSON, overrides, bibtex.

A backend supplies title, authors and abstract plus the raw text where a venue may be printed; `finish_metadata`
does the rest the same way for every backend. Precedence: detected < sidecar `<stem>.json` (upstream format)
< `options.metadata_overrides`. A malformed sidecar or override raises ValueError naming its source.
"""
from __future__ import annotations

import json
import re
from dataclasses import fields
from pathlib import Path

from pipeline.document import Metadata
from pipeline.parse.options import ParseOptions
from pipeline.parse.venue import (FULL_NAMES, UNCATEGORIZED, Venue, detect_arxiv, detect_doi_venue, detect_printed_venue,
                                  detect_venue, make_bibtex, printed_year)

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


def overrides(options: ParseOptions) -> dict:
    out = {}
    for name, value in (options.metadata_overrides or {}).items():
        if name not in _FIELDS:
            raise ValueError(f"metadata_overrides: unknown Metadata field {name!r} (known: {', '.join(sorted(_FIELDS))})")
        out[name] = _checked(name, value, "metadata_overrides")
    return out


def _document_info(path: Path) -> tuple[str, dict]:
    """(XMP packet, document info dict) of the PDF, from the parse's open document when there is one; ("", {}) for
    a file that cannot be read (the parse reports the file itself)."""
    from pipeline.parse.preflight import document

    try:
        with document(path) as doc:
            return doc.get_xml_metadata() or "", doc.metadata or {}
    except Exception:
        return "", {}


def document_year(path: Path) -> int | None:
    """The year the PDF's metadata gives: XMP publication dates (prism:coverDate, prism:publicationDate, dc:date),
    a year in the Subject ("Pattern Recognition, 155 (2024) 110732"), else the creation date. None if unreadable."""
    xmp, info = _document_info(path)
    m = re.search(r"<(?:prism:coverDate|prism:publicationDate|dc:date)>\s*(?:<rdf:Seq>\s*<rdf:li>)?\s*((?:19|20)\d{2})", xmp)
    if m:
        return int(m[1])
    m = re.search(r"\((?:19|20)\d{2}\)", info.get("subject") or "")
    if m:
        return int(m[0][1:-1])
    m = re.match(r"D:((?:19|20)\d{2})", info.get("creationDate") or "")
    return int(m[1]) if m else None


def document_doi(path: Path) -> str:
    """The DOI the PDF's metadata gives (XMP prism:doi / dc:identifier, or a `doi:` in Subject or Keywords), or ""."""
    xmp, info = _document_info(path)
    m = re.search(r"<(?:prism:doi|dc:identifier|pdfx:doi)>\s*(?:<rdf:\w+>\s*<rdf:li>)?\s*(?:doi:|https?://doi\.org/)?(10\.[^<\s]+)", xmp)
    if m:
        return m[1]
    m = re.search(r"\b10\.\d{4,9}/\S+", f"{info.get('subject') or ''} {info.get('keywords') or ''}")
    return m[0] if m else ""


def finish_metadata(md: Metadata, path: Path, options: ParseOptions, *, first_page_text: str, venue_text: str) -> None:
    """Fill venue, year, volume and bibtex of `md` (title/authors/abstract already set by the backend), then apply
    the sidecar and the overrides. `first_page_text`: all text of page 1 (for the arXiv stamp); `venue_text`:
    running headers, footers, footnotes and margin stamps (where venues are printed)."""
    path = Path(path)
    if not md.title:
        md.title = path.stem
    arxiv = detect_arxiv(first_page_text)
    # a venue the pages print (upstream's list, then any journal or conference masthead) beats the arXiv stamp
    venue = (detect_venue(venue_text) or detect_printed_venue(venue_text)
             or detect_printed_venue(first_page_text, whole_page=True)
             or detect_doi_venue(venue_text) or detect_doi_venue(first_page_text) or detect_doi_venue(document_doi(path)))
    if venue is None and arxiv is not None:
        venue = Venue("arxiv", FULL_NAMES["arxiv"], arxiv.year)
    if venue is None:
        venue = Venue(UNCATEGORIZED, UNCATEGORIZED, None)
    md.conference_abbreviation, md.conference_full = venue.abbreviation, venue.full
    # the year: the venue's, else what page 1 prints (copyright, publication date, masthead), else the arXiv
    # stamp, else the PDF's own publication metadata (XMP prism dates, then its creation date)
    md.pub_year = (venue.year or printed_year(venue_text, dates=False) or (arxiv.year if arxiv else None)
                   or printed_year(first_page_text) or document_year(path))
    md.volume = venue.volume
    md.bibtex, md.tldr, md.tags = None, None, None

    provided = read_sidecar(path) if options.sidecar_metadata else {}
    provided.update(overrides(options))
    for name, value in provided.items():
        setattr(md, name, value)
    if not md.bibtex:
        md.bibtex = make_bibtex(md, arxiv)
