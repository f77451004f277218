"""One paper's stored rows, all eight views, read through `pipeline.read.Reader`; and papers named by a user.

A paper is named by its id, by a path of its PDF, or by (part of) its title (case-insensitive); a name that matches
several papers by title selects all of them. UUIDs come back as strings, so rows serialise to JSON as they are.
"""
from __future__ import annotations

import uuid
from dataclasses import dataclass, field
from typing import Any

from pipeline.read import NotFound, Reader

VIEWS = ("metadata", "pages", "sections", "chunks", "tables", "images", "equations", "reference")
_KEY = {"metadata": "paper_id"}  # every other table points at its paper with ref_paper_id
_ORDER = {"metadata": "", "pages": "page_number", "sections": "ordinal", "reference": "ordinal"}


@dataclass
class PaperRows:
    paper_id: str
    rows: dict[str, list[dict[str, Any]]] = field(default_factory=dict)  # view -> rows, reading order
    ocr_pages: dict[int, str] = field(default_factory=dict)  # page number -> why OCR read it (the ledger's record)

    @property
    def metadata(self) -> dict[str, Any]:
        return self.rows["metadata"][0]

    def page_numbers(self) -> dict[str, int]:
        """page_id -> page number."""
        return {r["page_id"]: r["page_number"] for r in self.rows["pages"]}

    def on_page(self, view: str) -> dict[int, list[dict[str, Any]]]:
        """A page-bound view's rows by page number (sections by their first page)."""
        numbers = self.page_numbers()
        out: dict[int, list[dict[str, Any]]] = {}
        for r in self.rows[view]:
            n = (r.get("page_numbers") or [None])[0] if view == "sections" else numbers.get(r.get("ref_page_id"))
            if n is not None:
                out.setdefault(n, []).append(r)
        return out


def _plain(value: Any) -> Any:
    if isinstance(value, uuid.UUID):
        return str(value)
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    return value


def load_paper(reader: Reader, paper_id: str) -> PaperRows:
    """Every row of one paper, each view in reading order (page, then ordinal)."""
    paper = PaperRows(paper_id)
    for view in VIEWS:
        key = _KEY.get(view, "ref_paper_id")
        order = _ORDER.get(view)
        if order is None:  # page elements: by page, then ordinal
            join = " LEFT JOIN pages p ON p.page_id = t.ref_page_id"
            order_by = " ORDER BY p.page_number, t.ordinal"
        else:
            join, order_by = "", (f" ORDER BY t.{order}" if order else "")
        result = reader.sql(f'SELECT t.* FROM "{view}" t{join} WHERE CAST(t.{key} AS VARCHAR) = ?{order_by}',
                            [paper_id], max_rows=100_000)
        paper.rows[view] = [{k: _plain(v) for k, v in r.items()} for r in result.records()]
    if not paper.rows["metadata"]:
        raise NotFound(f"no paper with id {paper_id} in the database")
    paper.ocr_pages = ocr_pages(reader, paper_id)
    return paper


def ocr_pages(reader: Reader, paper_id: str) -> dict[int, str]:
    """Which pages of the paper were read by OCR and why, from the ledger of the file that stored it (empty for a
    store without a ledger, or one made before the ledger recorded it)."""
    import json

    from pipeline.read import ReadError

    try:
        rows = reader.sql("SELECT ocr_pages FROM ledger.files WHERE CAST(paper_id AS VARCHAR) = ? AND status IN "
                          "('ok', 'partial') AND ocr_pages IS NOT NULL ORDER BY updated_at DESC LIMIT 1",
                          [paper_id]).rows
    except ReadError:
        return {}
    return {int(k): v for k, v in json.loads(rows[0][0]).items()} if rows else {}


def resolve(reader: Reader, names: list[str], *, one_each: bool = False) -> list[str]:
    """Paper ids for ids, PDF paths or title fragments (every paper when `names` is empty), in title order: the read
    API's one resolver, shared with `ask --pdf` and `search --paper`."""
    return reader.resolve_papers(names, one_each=one_each)


def view_counts(reader: Reader) -> dict[str, dict[str, int]]:
    """paper id -> {view: rows} for every page-level view."""
    out: dict[str, dict[str, int]] = {}
    for view in VIEWS[1:]:
        for pid, n in reader.sql(f'SELECT CAST(ref_paper_id AS VARCHAR), count(*) FROM "{view}" GROUP BY 1').rows:
            out.setdefault(pid, {})[view] = n
    return out
