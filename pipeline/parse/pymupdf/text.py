"""pages view: page text in reading order (see page.py), ligatures spelled out. Chunks are cut by the core
(pipeline/parse/chunking.py) after the per-view merge."""
from __future__ import annotations

from pipeline.document import Page
from pipeline.parse.cleanup import spell_ligatures
from pipeline.parse.pymupdf.facts import DocumentFacts, as_facts
from pipeline.parse.pymupdf.page import DocumentAnalysis


def extract_pages(facts: DocumentFacts | DocumentAnalysis) -> list[Page]:
    """Page text in reading order; typographic ligatures are spelled out so text search finds 'significant'
    in a PDF that draws 'signiﬁcant'."""
    return [Page(p.number, p.width, p.height, spell_ligatures(p.text)) for p in as_facts(facts).pages]
