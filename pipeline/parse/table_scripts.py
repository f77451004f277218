"""Superscripts and subscripts in table cells (core, backend-neutral): `O(n2 · d)` -> `O(n<sup>2</sup> · d)`,
`1.0 · 1020` -> `1.0 · 10<sup>20</sup>`, `logk(n)` -> `log<sub>k</sub>(n)`.

A backend that builds table HTML from plain words (the PyMuPDF one) loses the raised and lowered glyphs; this
step puts them back from the text layer, for every table whose HTML has no <sup>/<sub> yet (MinerU's already has).
Evidence is typographic, not a list of strings: inside the table's box, a span set at most 85% of its line's
body size whose baseline sits above the body baseline (by > 10% of the body size, or flagged superscript by
MuPDF) is a superscript, one whose baseline sits below is a subscript. Each script is matched in the cell text
by its left context (the non-space run before it on its line, e.g. `O(n` + `2`); cells are visited in document
order and each script occurrence is used once, so a plain `1020` elsewhere in the table stays plain unless the
table also prints more `10^20` than it has scripts. Known limit: a script whose left context is split over
two cell lines is not marked.
"""
from __future__ import annotations

import html as htmllib
import re
from collections import Counter
from pathlib import Path

import pymupdf

from pipeline.document import ParsedPaper, Table
from pipeline.parse.preflight import document

CELL = re.compile(r"(<t[dh][^>]*>)(.*?)(</t[dh]>)", re.S)
SMALL = 0.85  # a script is at most this fraction of its line's body size
MAX_SCRIPT = 8  # characters; longer raised runs are not scripts
TEXT_ONLY = 0  # no images (their pixels would be decoded for nothing), ligatures spelled out as in our cells


def _scripts(page: pymupdf.Page, bbox) -> Counter:
    """(left context, script, "sup"|"sub") -> occurrences inside bbox."""
    x0, y0, w, h = bbox
    found: Counter = Counter()
    data = page.get_text("dict", clip=pymupdf.Rect(x0, y0, x0 + w, y0 + h), flags=TEXT_ONLY)
    for block in data.get("blocks", []):
        for line in block.get("lines", []):
            spans = [s for s in line.get("spans", []) if s.get("text")]
            if len(spans) < 2:
                continue
            body = max(s["size"] for s in spans)
            base = next(s["origin"][1] for s in spans if s["size"] == body)
            left = ""
            for s in spans:
                text = s["text"]
                script = s["size"] <= SMALL * body and text.strip() and len(text.strip()) <= MAX_SCRIPT
                rise = base - s["origin"][1]
                tag = None
                if script and (rise > 0.1 * body or (s["flags"] & 1 and rise > 0)):
                    tag = "sup"
                elif script and rise < -0.05 * body:
                    tag = "sub"
                context = left.split()[-1] if left.split() and not left.endswith(" ") else ""
                if tag and context:
                    found[(context, text.strip(), tag)] += 1
                left += text
    return found


def _mark(table_html: str, scripts: Counter) -> str:
    """Mark each script occurrence once, in the first cells (document order) whose text holds context+script."""
    budget = Counter(scripts)
    # each occurrence's escaped text before and after marking, once per table (not once per cell)
    forms = {(context, script, tag): (htmllib.escape(context + script, quote=False),
                                      htmllib.escape(context, quote=False) + f"<{tag}>{htmllib.escape(script, quote=False)}</{tag}>")
             for context, script, tag in budget}

    def cell(m: re.Match) -> str:
        text = m.group(2)
        for key, n in budget.items():
            plain, marked = forms[key]
            while n and plain in text:
                text = text.replace(plain, marked, 1)
                n -= 1
            budget[key] = n
        return m.group(1) + text + m.group(3)

    return CELL.sub(cell, table_html)


def mark_table_scripts(paper: ParsedPaper, path: Path) -> None:
    """Add <sup>/<sub> to the cells of `paper.tables` that have none, from the PDF's text layer."""
    todo: list[Table] = [t for t in paper.tables if "<sup>" not in t.html and "<sub>" not in t.html and t.bbox]
    if not todo:
        return
    with document(path) as doc:  # the parse's open document (preflight.opened)
        for table in todo:
            scripts = _scripts(doc[table.page_number - 1], table.bbox)
            if scripts:
                table.html = _mark(table.html, scripts)
