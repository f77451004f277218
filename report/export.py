"""`paperbase export PAPER`: one paper as Markdown in reading order, or as JSON with all eight views.

Markdown: the title (`#`), the authors, then each section as a heading at its level (from its numbering: "3" is
`##`, "3.1" is `###`; unnumbered headings are `##`) with its text, and after a section's text the tables, figure
captions and display equations (`$$...$$`) of the pages that section ends on and that no earlier section took (the
stored rows keep pages, not positions within the text); then the references as a numbered list. Tables become pipe
tables: a spanning cell is written in its first column and left empty in the others, the first row is the header.
JSON: {"paper_id", "metadata": row, "<view>": [rows]} for the other seven views, UUIDs as strings.
"""
from __future__ import annotations

import json
import re
from html.parser import HTMLParser

from report.load import VIEWS, PaperRows

_NUMBER = re.compile(r"^(?:[A-Z]|\d+)((?:\.\d+)*)\.?\s")


def heading_level(title: str) -> int:
    """Markdown heading level of a section title: 2 for "3 Method" or "Abstract", 3 for "3.1 ...", and so on."""
    m = _NUMBER.match(title.strip())
    return min(6, 2 + (m[1].count(".") if m else 0))


class _Grid(HTMLParser):
    """Rows of cell texts from table HTML, spans expanded (the text in the first cell of the span)."""

    def __init__(self) -> None:
        super().__init__()
        self.rows: list[list[str]] = []
        self._spans: dict[tuple[int, int], str] = {}  # (row, col) cells covered by a rowspan above
        self._cell: list[str] | None = None
        self._attrs: dict[str, str] = {}

    def handle_starttag(self, tag, attrs):
        if tag == "tr":
            self.rows.append([])
        elif tag in ("td", "th") and self.rows:
            self._cell, self._attrs = [], {k: v or "" for k, v in attrs}
        elif tag in ("sup", "sub") and self._cell is not None:
            self._cell.append(f"<{tag}>")  # Markdown keeps inline HTML: 10<sup>20</sup> stays a power

    def handle_data(self, data):
        if self._cell is not None:
            self._cell.append(data)

    def handle_endtag(self, tag):
        if tag in ("sup", "sub") and self._cell is not None:
            self._cell.append(f"</{tag}>")
            return
        if tag not in ("td", "th") or self._cell is None:
            return
        row, r = self.rows[-1], len(self.rows) - 1
        while (r, len(row)) in self._spans:
            row.append(self._spans.pop((r, len(row))))
        text = " ".join("".join(self._cell).split())
        cols, rows = (max(1, min(50, int(self._attrs.get(k) or 1))) for k in ("colspan", "rowspan"))
        for dr in range(1, rows):
            for dc in range(cols):
                self._spans[(r + dr, len(row) + dc)] = ""
        row += [text] + [""] * (cols - 1)
        self._cell = None


def table_markdown(table_html: str) -> str:
    parser = _Grid()
    parser.feed(table_html or "")
    rows = [r for r in parser.rows if any(c for c in r)]
    if not rows:
        return ""
    width = max(len(r) for r in rows)

    def line(cells: list[str]) -> str:
        cells = [c.replace("|", "\\|") for c in cells] + [""] * (width - len(cells))
        return "| " + " | ".join(cells) + " |"

    return "\n".join([line(rows[0]), "|" + " --- |" * width, *(line(r) for r in rows[1:])])


def _floats(paper: PaperRows) -> dict[int, list[str]]:
    """Markdown blocks of the tables, figures and equations, by page, in page order."""
    numbers = paper.page_numbers()
    items: list[tuple[int, int, int, str]] = []
    for kind, view in enumerate(("tables", "images", "equations")):
        for r in paper.rows[view]:
            page = numbers.get(r["ref_page_id"], 0)
            if view == "tables":
                block = "\n\n".join(x for x in (f"**{r['table_caption']}**" if r["table_caption"] else "",
                                               table_markdown(r["table_content"])) if x)
            elif view == "images":
                block = f"*{r['image_caption']}*" if r["image_caption"] else ""
            else:
                block = f"$$\n{r['equation_content']}\n$$" if r["equation_content"] else ""
            if block:
                items.append((page, r["ordinal"], kind, block))
    out: dict[int, list[str]] = {}
    for page, _, _, block in sorted(items, key=lambda i: (i[0], i[2], i[1])):
        out.setdefault(page, []).append(block)
    return out


def to_markdown(paper: PaperRows) -> str:
    md = paper.metadata
    parts = [f"# {md.get('title') or paper.paper_id}"]
    if md.get("authors"):
        parts.append(", ".join(md["authors"]))
    floats = _floats(paper)
    taken = 0  # floats of pages up to here are written
    for s in paper.rows["sections"]:
        parts.append(f"{'#' * heading_level(s['section_title'] or '')} {s['section_title']}")
        if s.get("section_content"):
            parts += [p.strip() for p in s["section_content"].split("\n\n") if p.strip()]
        last = max(s.get("page_numbers") or [0])
        for page in sorted(p for p in floats if taken < p <= last):
            parts += floats[page]
        taken = max(taken, last)
    for page in sorted(p for p in floats if p > taken):  # floats after the last section (appendix pages, no sections)
        parts += floats[page]
    if paper.rows["reference"]:
        parts.append("## References")
        parts.append("\n".join(f"{i}. {r['reference_content']}" for i, r in enumerate(paper.rows["reference"], 1)))
    return "\n\n".join(parts) + "\n"


def to_json(paper: PaperRows) -> str:
    data = {"paper_id": paper.paper_id, "metadata": paper.metadata,
            **{v: paper.rows[v] for v in VIEWS if v != "metadata"}}
    return json.dumps(data, ensure_ascii=False, indent=1, default=str) + "\n"
