"""Caption detection ("Table 2: ...", "Fig. 3.") shared by the tables, figures and equations views.

Pure functions of the DocumentAnalysis (a few milliseconds per page, no layout model); DocumentFacts computes
them once per document (`facts.captions`).
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from pipeline.parse.cleanup import join_lines
from pipeline.parse.pymupdf._geometry import union
from pipeline.parse.pymupdf.page import DocumentAnalysis, Rect

# "Table 2:", "Figure 3.", "Fig. 3:", "Table A1 |" at the very start of a block.
_LABEL = re.compile(r"^(Table|Tab\.|Figure|Fig\.)\s*([A-Z]?\d+(?:\.\d+)?)\s*([:.|]|$)")


@dataclass
class Caption:
    kind: str  # "table" | "figure"
    number: str
    sep: str  # the character after the number; ':' is the strong signal
    text: str
    bbox: Rect
    page: int
    size: float


def _candidates(analysis: DocumentAnalysis) -> list[Caption]:
    body = analysis.body_size
    found: list[Caption] = []
    for p in analysis.pages:
        for b in p.blocks:
            first = b.lines[0]
            m = _LABEL.match(first.text)
            if not m or first.size < 0.7 * body:
                continue
            kind = "table" if m.group(1).startswith("Tab") else "figure"
            # A caption ends at the block end or at a clear vertical gap.
            lines = [first]
            for ln in b.lines[1:]:
                if ln.bbox[1] - lines[-1].bbox[3] > 0.8 * first.size:
                    break
                lines.append(ln)
            found.append(Caption(kind, m.group(2), m.group(3), join_lines([ln.text for ln in lines]),
                                 union([ln.bbox for ln in lines]), p.number, first.size))
    return found


def find_captions(analysis: DocumentAnalysis) -> list[Caption]:
    """Table and figure captions of the document, one per label.

    Running text that starts a paragraph with "Table 4. On average ..." looks like a caption; when the document's
    captions use ':' a '.' label is rejected, and among duplicates of one label the smaller font (captions are
    usually set smaller than the body) wins."""
    cands = _candidates(analysis)
    colon = sum(1 for c in cands if c.sep == ":")
    if colon >= 0.6 * max(1, len(cands)):
        cands = [c for c in cands if c.sep == ":"]
    best: dict[tuple[str, str], Caption] = {}
    for c in cands:
        key = (c.kind, c.number)
        if key not in best or c.size < best[key].size - 0.3:
            best[key] = c
    return [c for c in cands if best[(c.kind, c.number)] is c]
