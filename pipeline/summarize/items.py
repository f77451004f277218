"""What needs a summary: one `Item` per NULL cell, read from DuckDB in one read-only connection.

Each item carries the inputs its prompt needs (text, caption, HTML, sentences that mention it, where the figure
lies) so backends never touch the database.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

import duckdb

from pipeline.summarize import text as T

# column -> (table, id column); the report is keyed by column name.
COLUMNS: dict[str, tuple[str, str]] = {
    "page_summary": ("pages", "page_id"),
    "section_summary": ("sections", "section_id"),
    "table_summary": ("tables", "table_id"),
    "image_summary": ("images", "image_id"),
    "tldr": ("metadata", "paper_id"),
    "tags": ("metadata", "paper_id"),
}


@dataclass
class Item:
    column: str
    row_id: str
    paper_id: str
    text: str = ""  # page/section text, or the abstract for tldr/tags
    title: str = ""  # section title or paper title
    caption: str = ""
    html: str = ""
    mentions: list[str] = field(default_factory=list)  # sentences in the paper that cite this table/figure
    pdf_path: str | None = None
    page_number: int | None = None
    bbox: list[float] | None = None
    current: Any = None  # the stored value (only set when overwriting)

    @property
    def table(self) -> str:
        return COLUMNS[self.column][0]

    @property
    def id_column(self) -> str:
        return COLUMNS[self.column][1]


def _rows(con: duckdb.DuckDBPyConnection, sql: str, params: list) -> list[dict]:
    cur = con.execute(sql, params)
    names = [d[0] for d in cur.description]
    return [dict(zip(names, r)) for r in cur.fetchall()]


def _filter(column: str, paper_col: str, paper_ids: list[str] | None, overwrite: bool) -> tuple[str, list]:
    where = [] if overwrite else [f"{column} IS NULL"]
    params: list = []
    if paper_ids is not None:
        where.append(f"{paper_col}::VARCHAR IN (SELECT unnest(?))")
        params.append(list(paper_ids))
    return (" WHERE " + " AND ".join(where)) if where else "", params


def _abstract_source(con: duckdb.DuckDBPyConnection, paper_id: str, abstract: str) -> str:
    """The abstract, else the section titled Abstract, else the start of page 1 (parsers may miss the abstract)."""
    if abstract and abstract.strip():
        return abstract
    rows = _rows(con, "SELECT section_title, section_content FROM sections WHERE ref_paper_id = ? ORDER BY ordinal", [paper_id])
    for r in rows:
        if re.sub(r"\W", "", (r["section_title"] or "")).lower() == "abstract" and (r["section_content"] or "").strip():
            return r["section_content"]
    page = _rows(con, "SELECT page_content FROM pages WHERE ref_paper_id = ? AND page_number = 1", [paper_id])
    first = T.clean(page[0]["page_content"] or "") if page else ""
    return " ".join(first.split()[:250])


def load_items(con: duckdb.DuckDBPyConnection, paper_ids: list[str] | None = None, *, overwrite: bool = False,
               columns: list[str] | None = None) -> list[Item]:
    """Items for every NULL cell (every cell with overwrite) of the selected papers and columns."""
    wanted = columns or list(COLUMNS)
    items: list[Item] = []
    if "page_summary" in wanted:
        where, params = _filter("page_summary", "ref_paper_id", paper_ids, overwrite)
        for r in _rows(con, f"SELECT page_id::VARCHAR id, ref_paper_id::VARCHAR pid, page_content, page_summary FROM pages{where} ORDER BY ref_paper_id, page_number", params):
            items.append(Item("page_summary", r["id"], r["pid"], text=r["page_content"] or "", current=r["page_summary"]))
    if "section_summary" in wanted:
        where, params = _filter("section_summary", "ref_paper_id", paper_ids, overwrite)
        for r in _rows(con, f"SELECT section_id::VARCHAR id, ref_paper_id::VARCHAR pid, section_title, section_content, section_summary FROM sections{where} ORDER BY ref_paper_id, ordinal", params):
            items.append(Item("section_summary", r["id"], r["pid"], text=r["section_content"] or "", title=r["section_title"] or "", current=r["section_summary"]))
    mentions = _MentionIndex(con)
    if "table_summary" in wanted:
        where, params = _filter("table_summary", "t.ref_paper_id", paper_ids, overwrite)
        for r in _rows(con, f"SELECT t.table_id::VARCHAR id, t.ref_paper_id::VARCHAR pid, t.table_caption, t.table_content, t.table_summary FROM tables t{where} ORDER BY t.ref_paper_id, t.ordinal", params):
            caption = r["table_caption"] or ""
            items.append(Item("table_summary", r["id"], r["pid"], caption=caption, html=r["table_content"] or "",
                              mentions=mentions.find(r["pid"], "table", caption), current=r["table_summary"]))
    if "image_summary" in wanted:
        where, params = _filter("image_summary", "i.ref_paper_id", paper_ids, overwrite)
        sql = ("SELECT i.image_id::VARCHAR id, i.ref_paper_id::VARCHAR pid, i.image_caption, i.bounding_box, i.image_summary, "
               "p.page_number, m.pdf_path FROM images i LEFT JOIN pages p ON p.page_id = i.ref_page_id "
               f"LEFT JOIN metadata m ON m.paper_id = i.ref_paper_id{where} ORDER BY i.ref_paper_id, p.page_number, i.ordinal")
        for r in _rows(con, sql, params):
            caption = r["image_caption"] or ""
            items.append(Item("image_summary", r["id"], r["pid"], caption=caption, mentions=mentions.find(r["pid"], "figure", caption),
                              pdf_path=r["pdf_path"], page_number=r["page_number"],
                              bbox=list(r["bounding_box"]) if r["bounding_box"] is not None else None, current=r["image_summary"]))
    for column in ("tldr", "tags"):
        if column not in wanted:
            continue
        where, params = _filter(column, "paper_id", paper_ids, overwrite)
        for r in _rows(con, f"SELECT paper_id::VARCHAR id, title, abstract, {column} AS cur FROM metadata{where} ORDER BY paper_id", params):
            items.append(Item(column, r["id"], r["id"], title=r["title"] or "", text=_abstract_source(con, r["id"], r["abstract"] or ""),
                              current=r["cur"]))
    return items


class _MentionIndex:
    """Sentences of each paper's page text, split once per paper (never across a section heading), to find the ones
    that cite "Table 3" / "Figure 2"."""

    def __init__(self, con: duckdb.DuckDBPyConnection):
        self.con = con
        self.cache: dict[str, list[str]] = {}

    def find(self, paper_id: str, kind: str, caption: str) -> list[str]:
        label = T.element_label(caption, kind)
        if label is None:
            return []
        if paper_id not in self.cache:
            pages = _rows(self.con, "SELECT page_content FROM pages WHERE ref_paper_id = ? ORDER BY page_number", [paper_id])
            headings = _rows(self.con, "SELECT section_title FROM sections WHERE ref_paper_id = ?", [paper_id])
            pieces = T.split_at_headings("\n".join(p["page_content"] or "" for p in pages),
                                         [h["section_title"] or "" for h in headings])
            self.cache[paper_id] = [s for piece in pieces for s in T.sentences(T.clean(piece))]
        return T.mentions(self.cache[paper_id], kind, label)
