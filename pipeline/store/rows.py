"""Turn a ParsedPaper into rows of the eight agent-visible tables, assigning NeuSym-RAG ids."""
from __future__ import annotations

from pipeline import ids
from pipeline.document import BBox, ParsedPaper
from pipeline.paths import shown, to_db, undecodable


def _bbox(b: BBox) -> list[int]:
    return [int(round(v)) for v in b]


def paper_rows(paper: ParsedPaper) -> dict[str, list[dict]]:
    """{table: [row dicts keyed by column name]}; summary columns start NULL (the summarize stage fills them)."""
    md = paper.metadata
    pid = paper.paper_id
    page_ids = {p.number: ids.page_id(pid, p.number) for p in paper.pages}
    rows: dict[str, list[dict]] = {
        "metadata": [
            {
                "paper_id": pid, "title": md.title, "abstract": md.abstract, "num_pages": md.num_pages,
                "conference_full": md.conference_full, "conference_abbreviation": md.conference_abbreviation,
                "pub_year": md.pub_year, "volume": md.volume, "download_url": md.download_url, "bibtex": md.bibtex,
                "authors": md.authors, "pdf_path": to_db(md.pdf_path), "tldr": md.tldr, "tags": md.tags,
            }
        ],
        "pages": [
            {
                "page_id": page_ids[p.number], "page_number": p.number, "page_width": int(round(p.width)),
                "page_height": int(round(p.height)), "page_content": p.text, "page_summary": None, "ref_paper_id": pid,
            }
            for p in paper.pages
        ],
        "chunks": [
            {
                "chunk_id": ids.page_element_id(pid, c.page_number, "chunk", c.ordinal + 1), "text_content": c.text,
                "ordinal": c.ordinal, "ref_paper_id": pid, "ref_page_id": page_ids[c.page_number],
            }
            for c in paper.chunks
        ],
        "sections": [
            {
                "section_id": ids.section_id(pid, s.ordinal), "section_title": s.title, "section_content": s.content,
                "section_summary": None, "ordinal": s.ordinal, "page_numbers": s.page_numbers, "ref_paper_id": pid,
            }
            for s in paper.sections
        ],
        "tables": [
            {
                "table_id": ids.page_element_id(pid, t.page_number, "table", t.ordinal + 1), "table_caption": t.caption,
                "table_content": t.html, "table_summary": None, "bounding_box": _bbox(t.bbox), "ordinal": t.ordinal,
                "ref_paper_id": pid, "ref_page_id": page_ids[t.page_number],
            }
            for t in paper.tables
        ],
        "images": [
            {
                "image_id": ids.page_element_id(pid, f.page_number, "image", f.ordinal + 1), "image_caption": f.caption,
                "image_summary": None, "bounding_box": _bbox(f.bbox), "ordinal": f.ordinal, "ref_paper_id": pid,
                "ref_page_id": page_ids[f.page_number],
            }
            for f in paper.figures
        ],
        "equations": [
            {
                "equation_id": ids.page_element_id(pid, e.page_number, "equation", e.ordinal + 1),
                "equation_content": e.latex, "ordinal": e.ordinal, "ref_paper_id": pid,
                "ref_page_id": page_ids[e.page_number],
            }
            for e in paper.equations
        ],
        "reference": [
            {
                "reference_id": ids.reference_id(pid, r.ordinal + 1), "reference_content": r.text, "ordinal": r.ordinal,
                "ref_paper_id": pid, "ref_page_id": page_ids[r.page_number],
            }
            for r in paper.references
        ],
    }
    for table in rows.values():  # a title or text taken from an undecodable file name: readable, storable
        for row in table:
            for key, value in row.items():
                if isinstance(value, str) and not value.isascii() and undecodable(value):
                    row[key] = shown(value)
    return rows
