"""The parsed form of one paper: one small dataclass per view.

Parse backends fill a `ParsedPaper`; the store turns it into rows (ids are assigned there, from `pipeline.ids`).
Bounding boxes are always `(x0, y0, w, h)` in PDF points with a top-left origin.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from pipeline.ids import paper_id
from pipeline.results import Status

BBox = tuple[float, float, float, float]


@dataclass
class Metadata:
    title: str = ""
    abstract: str = ""
    authors: list[str] = field(default_factory=list)
    num_pages: int = 0
    conference_full: str | None = None
    conference_abbreviation: str | None = None
    pub_year: int | None = None
    volume: str | None = None
    download_url: str | None = None
    bibtex: str | None = None
    pdf_path: str = ""
    tldr: str | None = None
    tags: list[str] | None = None

    @property
    def venue_year(self) -> str | None:
        """e.g. 'acl2024'; None when the venue is unknown (the id then uses 'uncategorized')."""
        if self.conference_abbreviation and self.conference_abbreviation != "uncategorized" and self.pub_year:
            return f"{self.conference_abbreviation}{self.pub_year}"
        return None


@dataclass
class Page:
    number: int  # from 1
    width: float
    height: float
    text: str  # the page's text: paragraphs separated by a blank line (after the core's normalisation)
    # what chunks are cut from: the text without figure-internal text (tick labels, legends), margin stamps and
    # display equations (each replaced by a placeholder paragraph, see pipeline/parse/equation_marks.py); None
    # when the backend does not tell them apart (chunks are then cut from `text`). Not stored.
    prose: str | None = None
    # why the page's text was read by OCR (`no_text`, `ocr_layer`, `unmapped`, `unknown_words`:
    # pipeline/parse/ocr.py), None for a text layer taken as it is; recorded in the ledger (`ocr_pages`)
    ocr: str | None = None


@dataclass
class Chunk:
    page_number: int
    ordinal: int  # per page, from 0
    text: str


@dataclass
class Section:
    ordinal: int  # per paper, from 0
    title: str  # as printed, numbering included ("3.1 Encoder")
    level: int  # 1 = top level
    content: str
    page_numbers: list[int]


@dataclass
class Table:
    page_number: int
    ordinal: int  # per page, from 0
    caption: str  # with its label: "Table 2: ..."
    html: str
    bbox: BBox


@dataclass
class Figure:
    page_number: int
    ordinal: int  # per page, from 0
    caption: str  # "" when none
    bbox: BBox


@dataclass
class Equation:
    page_number: int
    ordinal: int  # per page, from 0
    latex: str
    bbox: BBox | None = None


@dataclass
class Reference:
    ordinal: int  # per paper, from 0
    text: str
    page_number: int


@dataclass
class ParsedPaper:
    pdf_path: str
    metadata: Metadata
    pages: list[Page] = field(default_factory=list)
    chunks: list[Chunk] = field(default_factory=list)
    sections: list[Section] = field(default_factory=list)
    tables: list[Table] = field(default_factory=list)
    figures: list[Figure] = field(default_factory=list)
    equations: list[Equation] = field(default_factory=list)
    references: list[Reference] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)  # per-view failures that did not stop the parse
    timings: dict[str, float] = field(default_factory=dict)  # seconds per view
    text_stats: Counter[str] = field(default_factory=Counter)  # rewrites of the core's normalisation (normalize.py)

    @property
    def paper_id(self) -> str:
        return paper_id(self.metadata.title, self.metadata.venue_year)

    @property
    def status(self) -> Status:
        return Status.PARTIAL if self.errors else Status.OK
