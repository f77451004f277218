"""sections view: the heading hierarchy and the text under each heading.

Headings are detected in `_headings.py` (typography, numbering and the PDF outline) and shared through
DocumentFacts.headings. Every body line belongs to exactly one section; text before the first heading (title,
authors, affiliations) forms no section: it belongs to the metadata view. A numbered run-in heading ("5.1. Planar
algebras. The ...", amsart) is titled by its bold lead and the rest of its line starts its content.
"""
from __future__ import annotations

from pipeline.document import Section
from pipeline.parse.pymupdf.facts import DocumentFacts, as_facts
from pipeline.parse.pymupdf.page import DocumentAnalysis


def extract_sections(facts: DocumentFacts | DocumentAnalysis) -> list[Section]:
    rows, heads = as_facts(facts).headings
    order = sorted(heads)
    sections: list[Section] = []
    for i, start in enumerate(order):
        end = order[i + 1] if i + 1 < len(order) else len(rows)
        body = [r for r in rows[start + 1 : end] if r.text]
        pages = sorted({rows[start].page, *(r.page for r in body)})
        content = "\n".join([rows[start].tail] * bool(rows[start].tail) + [r.text for r in body])
        sections.append(Section(len(sections), rows[start].text, heads[start], content, pages))
    return sections
