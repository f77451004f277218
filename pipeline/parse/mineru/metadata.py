"""metadata view from MinerU blocks: title, authors and abstract; venue, year and bibtex come from the shared
`sidecar.finish_metadata` (the same code as the PyMuPDF backend), fed the running text where venues are printed.

- title: the page-1 `doc_title` block(s) (consecutive ones joined); else the first title block on page 1.
- authors: page-1 blocks below the title and above the Abstract (by position: reading order may put them after). Names are the bold spans when the block has any
  (affiliations and e-mails are set in roman); otherwise the text split on commas/"and"; either way only items
  that look like a name (2-5 words, capitalised, no digits or @) are kept.
- abstract: text after an "Abstract" title up to the next title, or a text block opening with "Abstract".
- venue text: furniture (headers, footers, footnotes, margin stamps) on every page plus page-1 text in its
  bottom fifth (where "Published as a conference paper at ..." and proceedings footers sit).
"""
from __future__ import annotations

import re
from pathlib import Path

from pipeline.document import Metadata
from pipeline.parse.cleanup import spell_ligatures
from pipeline.parse.mineru.blocks import FURNITURE, TITLES, Block
from pipeline.parse.options import ParseOptions
from pipeline.parse.sidecar import finish_metadata

ABSTRACT = re.compile(r"^\s*abstract\b[\s.:—–-]*", re.I)
NAME = re.compile(r"^[A-ZÀ-ÖØ-Þ][\w'’.-]*(?:\s+[A-ZÀ-ÖØ-Þa-z][\w'’.-]*){1,4}$")


def _clean(text: str) -> str:
    return " ".join(spell_ligatures(text).split())


def _names(block: Block) -> list[str]:
    spans = [s for s in block.raw.get("content") or [] if isinstance(s, dict) and s.get("type") == "text"]
    bold = [str(s.get("content") or "") for s in spans if "bold" in (s.get("styles") or [])]
    pieces = bold or [block.text]
    out = []
    for piece in pieces:
        for item in re.split(r",|\band\b|&|\n", piece):
            item = _clean(item).strip(" *†‡∗§¶")
            if NAME.match(item) and not re.search(r"[\d@]", item) and item.lower() != "abstract":
                out.append(item)
    return out


def extract_metadata(blocks: list[list[Block]], path: Path, options: ParseOptions, md: Metadata,
                     first_page_text: str) -> None:
    first = blocks[0] if blocks else []
    titles = [i for i, b in enumerate(first) if b.kind == "doc_title"] or \
             [i for i, b in enumerate(first) if b.kind in TITLES][:1]
    if titles:
        run = [titles[0]]
        while run[-1] + 1 < len(first) and first[run[-1] + 1].kind == "doc_title":
            run.append(run[-1] + 1)
        md.title = _clean(" ".join(first[i].text for i in run))
    top = first[titles[-1]].bbox[1] if titles else -1.0
    abstract_at = next((i for i, b in enumerate(first) if ABSTRACT.match(b.text)), None)
    bottom = first[abstract_at].bbox[1] if abstract_at is not None else first[0].size[1] if first else 0.0
    between = [b for b in first if top < b.bbox[1] < bottom and b.kind not in FURNITURE and b.kind != "doc_title"]
    md.authors = list(dict.fromkeys(n for b in between for n in _names(b)))
    md.abstract = _abstract(blocks, abstract_at)
    height = first[0].size[1] if first else 0.0
    venue = [b.text for page in blocks for b in page if b.kind in FURNITURE and b.kind != "page_number"]
    venue += [b.text for b in first if b.kind == "text" and b.bbox[1] > 0.8 * height]
    finish_metadata(md, path, options, first_page_text=first_page_text, venue_text="\n".join(venue))


def _abstract(blocks: list[list[Block]], abstract_at: int | None) -> str:
    """A text block opening with "Abstract" is the abstract; an "Abstract" title is followed by it (pages 1-2)."""
    if abstract_at is None:
        return ""
    head = blocks[0][abstract_at]
    if head.kind not in TITLES:
        return _clean(ABSTRACT.sub("", head.text, count=1))
    flat = [b for page in blocks[:2] for b in page]
    parts = []
    for b in flat[flat.index(head) + 1:]:
        if b.kind in TITLES:
            break
        if b.kind == "text":
            parts.append(b.text)
    return _clean(" ".join(parts))
