"""sections view: the heading hierarchy and the text under each heading.

Headings are detected in `_headings.py` (typography, numbering and the PDF outline) and shared through
DocumentFacts.headings. Every body line belongs to exactly one section; text before the first heading (title,
authors, affiliations) forms no section: it belongs to the metadata view. A numbered run-in heading ("5.1. Planar
algebras. The ...", amsart) is titled by its bold lead and the rest of its line starts its content.

Content is the section's prose, paragraph by paragraph (_paragraphs.py, blank lines between them): running text,
captions, and a placeholder paragraph (`[Equation (3)]`) where a display equation stands; the rows of a table (its
cells are the tables view), figure-internal text and margin stamps are left out.
"""
from __future__ import annotations

from pipeline.document import Section
from pipeline.parse.pymupdf.facts import DocumentFacts, as_facts
from pipeline.parse.pymupdf.page import DocumentAnalysis


def extract_sections(facts: DocumentFacts | DocumentAnalysis) -> list[Section]:
    facts = as_facts(facts)
    rows, heads = facts.headings
    order = sorted(heads)
    row_of = {id(ln): r.index for r in rows for ln in r.lines}
    # each paragraph goes to the section whose heading row precedes its first line
    paragraphs = [(row_of.get(id(q.lines[0])), q) for page in sorted(facts.paragraphs)
                  for q in facts.paragraphs[page]]
    sections: list[Section] = []
    k = 0
    for i, start in enumerate(order):
        end = order[i + 1] if i + 1 < len(order) else len(rows)
        body = [r for r in rows[start + 1 : end] if r.text]
        pages = sorted({rows[start].page, *(r.page for r in body)})
        parts = [rows[start].tail] if rows[start].tail else []
        while k < len(paragraphs) and (paragraphs[k][0] is None or paragraphs[k][0] < end):
            index, q = paragraphs[k]
            k += 1
            if index is None or index < start or q.role in ("table", "figure", "margin"):
                continue
            if index == start:  # the heading's own row; a run-in heading's paragraph goes on after its tail
                rest = "\n".join(ln.text for ln in q.lines if row_of.get(id(ln)) != start and ln.text)
                if rest and q.role != "heading":
                    parts[-1:] = ["\n".join([*parts[-1:], rest])]
                continue
            text = q.prose
            if text:
                parts.append(text)
        sections.append(Section(len(sections), rows[start].text, heads[start], "\n\n".join(parts), pages))
    return sections
