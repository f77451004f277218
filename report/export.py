"""`paperbase export PAPER`: one paper as Markdown in reading order, or as JSON with all eight views.

Markdown: the title (`#`), the authors, the abstract (`## Abstract`, from the metadata row), then each section as a
heading at its level (from its numbering: "3" is `##`, "3.1" is `###`; unnumbered headings are `##`) with its
paragraphs (the stored content keeps one paragraph per blank-line-separated block). Display equations stand where the
parser left their placeholder paragraph (`[Equation (3)]`, schemas/content_marks.py) as `$$...$$`; a table follows
the paragraph that is its caption (a table printed as an image says so instead of its cells), a figure's caption is
set in italics; tables, figures and equations that no paragraph places go after the text of the section that ends on
their page, as before. The references are one numbered list under one `## References` heading: a section that is
the bibliography itself (References, Bibliography, Literature Cited) is not repeated. Text that would read as
Markdown syntax (`#Edges` at a line start, `*`, `_`, backticks, brackets, `$`, `<`, a leading `1.` or `-`) is
escaped, so the rendered page shows what the paper printed. Tables become pipe tables: a spanning cell is written in
its first column and left empty in the others, the first row is the header.
JSON: {"paper_id", "metadata": row, "<view>": [rows]} for the other seven views, UUIDs as strings.
"""
from __future__ import annotations

import json
import re
from html.parser import HTMLParser

from report.load import VIEWS, PaperRows
from schemas.content_marks import EQUATION_PLACEHOLDER, is_raster_table, ocr_note, raster_cells_read

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
            self._cell.append(escape_inline(data))  # cell text escaped; our <sup>/<sub> tags stay

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
        cells = cells + [""] * (width - len(cells))
        return "| " + " | ".join(cells) + " |"

    return "\n".join([line(rows[0]), "|" + " --- |" * width, *(line(r) for r in rows[1:])])


_INLINE = re.compile(r"([\\`*_\[\]<>$|~])")
_LINE_START = re.compile(r"^(\s*)(#|[-+*](?=\s)|\d{1,9}[.)](?=\s|$)|=+\s*$|-{3,}\s*$)")
_BIBLIOGRAPHY = re.compile(r"^(?:[\dIVX]+\.?\s*)?(references|bibliography|literature cited|works cited|"
                           r"references and notes)\s*$", re.I)
_ABSTRACT = re.compile(r"^(?:[\dIVX]+\.?\s*)?abstract\s*$", re.I)


def escape_inline(text: str) -> str:
    """Inline Markdown syntax characters escaped (table cells, where no line start can open a block)."""
    return _INLINE.sub(r"\\\1", text or "")


def escape(text: str) -> str:
    """Text as Markdown that renders as itself: inline syntax characters escaped, and a line start that would
    open a heading, a list, a rule or a setext underline escaped."""
    out = []
    for line in (text or "").split("\n"):
        line = _INLINE.sub(r"\\\1", line)
        m = _LINE_START.match(line)
        if m:
            lead, mark = m.group(1), m.group(2)
            if mark[0].isdigit():  # "1." -> "1\."
                mark = re.sub(r"([.)])", r"\\\1", mark, count=1)
            else:
                mark = "\\" + mark
            line = lead + mark + line[m.end():]
        out.append(line)
    return "\n".join(out)


def _key(text: str) -> str:
    return re.sub(r"\W+", "", (text or "").casefold())


def _table_block(row: dict) -> str:
    caption = f"**{escape(row['table_caption'])}**" if row["table_caption"] else ""
    if raster_cells_read(row["table_content"]):
        body = (table_markdown(row["table_content"])
                + "\n\n*(this table is printed as an image: its cells were read by OCR and may hold recognition errors)*")
    elif is_raster_table(row["table_content"]):
        body = "*(this table is printed as an image: its cells are not extracted)*"
    else:
        body = table_markdown(row["table_content"])
    return "\n\n".join(x for x in (caption, body) if x)


def _equation_block(row: dict) -> str:
    """`$$...$$` on one line: a LaTeX line starting with `*`, `-` or `1.` cannot open a Markdown list there."""
    latex = " ".join((row["equation_content"] or "").split())
    return f"$${latex}$$" if latex else ""


def _figure_block(row: dict) -> str:
    return f"*{escape(row['image_caption'])}*" if row["image_caption"] else ""


class _Floats:
    """The paper's tables, figures and equations, each written once: in place when a paragraph names it, else
    after the section that ends on its page."""

    def __init__(self, paper: PaperRows):
        numbers = paper.page_numbers()
        self.items: list[tuple[int, int, int, str, dict]] = []  # (page, kind, ordinal, view, row)
        for kind, view in enumerate(("tables", "images", "equations")):
            for r in paper.rows[view]:
                self.items.append((numbers.get(r["ref_page_id"], 0), kind, r["ordinal"], view, r))
        self.items.sort(key=lambda i: (i[0], i[1], i[2]))
        self.done: set[int] = set()

    def _block(self, index: int) -> str:
        self.done.add(index)
        _, _, _, view, row = self.items[index]
        return {"tables": _table_block, "images": _figure_block, "equations": _equation_block}[view](row)

    def equation(self, tag: str | None) -> str | None:
        """The next unwritten equation (the one numbered `tag` when there is one)."""
        free = [i for i, it in enumerate(self.items) if it[3] == "equations" and i not in self.done]
        if tag:
            tagged = [i for i in free if re.search(r"\\tag\{" + re.escape(tag) + r"\}", self.items[i][4]["equation_content"] or "")]
            free = tagged or free
        return self._block(free[0]) if free else None

    def caption(self, paragraph: str) -> str | None:
        """The table or figure whose caption this paragraph is."""
        key = _key(paragraph)
        if len(key) < 8:
            return None
        for i, (_, _, _, view, row) in enumerate(self.items):
            if i in self.done or view == "equations":
                continue
            cap = _key(row["table_caption"] if view == "tables" else row["image_caption"])
            if cap and (key.startswith(cap[:60]) or cap.startswith(key[:60])):
                return self._block(i)
        return None

    def pages(self, first: int, last: int) -> list[str]:
        return [self._block(i) for i, it in enumerate(self.items) if i not in self.done and first < it[0] <= last]


def _paragraphs(content: str, floats: _Floats) -> list[str]:
    out = []
    for par in (p.strip() for p in (content or "").split("\n\n")):
        if not par:
            continue
        m = EQUATION_PLACEHOLDER.match(par)
        if m:
            block = floats.equation(m.group(1))
            if block:
                out.append(block)
            continue
        block = floats.caption(par)
        out.append(block if block else escape(par))
    return out


def to_markdown(paper: PaperRows) -> str:
    md = paper.metadata
    parts = [f"# {escape(md.get('title') or paper.paper_id)}"]
    if md.get("authors"):
        parts.append(escape(", ".join(md["authors"])))
    if paper.ocr_pages:
        parts.append(f"*{escape(ocr_note(paper.ocr_pages))}: its text may hold recognition errors.*")
    abstract = (md.get("abstract") or "").strip()
    if abstract:
        parts += ["## Abstract", *(escape(p.strip()) for p in abstract.split("\n\n") if p.strip())]
    floats = _Floats(paper)
    references = paper.rows["reference"]
    sections = [s for s in paper.rows["sections"]
                if not (_ABSTRACT.match(s["section_title"] or "") and abstract)  # written from the metadata row
                and not (_BIBLIOGRAPHY.match(s["section_title"] or "") and references)]  # the one list below
    # first every float a paragraph places, then the others after the section that ends on their page
    bodies = [_paragraphs(s.get("section_content") or "", floats) for s in sections]
    taken = 0  # floats of pages up to here are written
    for s, body in zip(sections, bodies):
        title = s["section_title"] or ""
        last = max(s.get("page_numbers") or [0])
        parts.append(f"{'#' * heading_level(title)} {escape(title)}")
        parts += body
        parts += floats.pages(taken, last)
        taken = max(taken, last)
    parts += floats.pages(taken, 10**9)  # floats after the last section (appendix pages, no sections)
    if references:
        parts.append("## References")
        parts.append("\n".join(f"{i}. {escape(r['reference_content'])}" for i, r in enumerate(references, 1)))
    return "\n\n".join(p for p in parts if p) + "\n"


def to_json(paper: PaperRows) -> str:
    data = {"paper_id": paper.paper_id, "metadata": paper.metadata,
            **{v: paper.rows[v] for v in VIEWS if v != "metadata"}}
    if paper.ocr_pages:  # page number -> why its text was read by OCR
        data["ocr_pages"] = {str(k): v for k, v in sorted(paper.ocr_pages.items())}
    return json.dumps(data, ensure_ascii=False, indent=1, default=str) + "\n"
