"""pages view: each page's text in reading order (see page.py) as paragraphs with their roles (_paragraphs.py), and
its prose (`Page.prose`: no figure text, no margin stamps, a placeholder for each display equation), from which the
core cuts chunks after the per-view merge and its normalisation (pipeline/parse/chunking.py, normalize.py)."""
from __future__ import annotations

from pipeline.document import Page
from pipeline.parse.pymupdf._paragraphs import page_prose, page_text
from pipeline.parse.pymupdf.facts import DocumentFacts, as_facts
from pipeline.parse.pymupdf.page import DocumentAnalysis


def extract_pages(facts: DocumentFacts | DocumentAnalysis) -> list[Page]:
    facts = as_facts(facts)
    out = []
    for p in facts.pages:
        paragraphs = facts.paragraphs[p.number]
        out.append(Page(p.number, p.width, p.height, page_text(paragraphs), prose=page_prose(paragraphs), ocr=p.ocr))
    return out
