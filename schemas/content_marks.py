"""Conventions in stored text beyond plain text and HTML, shared by the parser (which writes them) and the readers
(`status`, `inspect`, `export`, which show them).

Pages read by OCR. Which pages of a paper were read by OCR, and why (`OCR_REASONS`: pipeline/parse/ocr.py decides),
is recorded in the ledger (`ledger.files.ocr_pages`, JSON {page number: reason}), not in the agent-visible rows, whose
schema text the seed trajectories fix byte for byte; `ocr_note` is the one sentence the readers print for it.

Raster tables. A table printed as a picture (a raster image, or vector outlines with no text layer) has no cells to read: its row is
stored with `table_content` = `RASTER_TABLE`, an empty table marked `data-raster="true"`, so that nobody mistakes it
for a table that was read and found empty. The flag lives in the HTML rather than in a new column so the agent's schema
text (fixed byte for byte by the seed trajectories) does not change, and an agent reading the row sees it too. The
OCR stage fills such a table's cells later and keeps the attribute (`data-raster="true"` with rows = cells read by
OCR from the image).
"""
from __future__ import annotations

import re

RASTER_ATTR = 'data-raster="true"'
RASTER_TABLE = f"<table {RASTER_ATTR}></table>"
_RASTER = re.compile(r"<table\b[^>]*\bdata-raster=\"true\"")


def is_raster_table(html: str | None) -> bool:
    """Whether a stored `table_content` is a table printed as an image (see the module docstring)."""
    return bool(html) and bool(_RASTER.match(html.lstrip()))


def raster_cells_read(html: str | None) -> bool:
    """Whether a table printed as an image holds cells OCR read from it (else it is flagged and empty)."""
    return is_raster_table(html) and "<tr" in (html or "")


# Equation placeholders. Display equations are cut out of the prose of chunks and section content (their LaTeX is
# in the `equations` view); where one stood, the prose holds a paragraph of its own reading `[Equation (3)]` (with
# the printed number) or `[Equation]` (unnumbered), so a reader knows an equation was there and the Markdown export
# puts the equation row back in its place.
EQUATION_PLACEHOLDER = re.compile(r"^\[Equation(?: \(([^()\s]{1,12})\))?\]$")


def equation_placeholder(tag: str | None = None) -> str:
    """The paragraph that stands for a display equation in prose (`tag`: its printed number, if any)."""
    return f"[Equation ({tag})]" if tag else "[Equation]"


# why a page was read by OCR -> how readers say it
OCR_REASONS = {"no_text": "no text layer", "ocr_layer": "an invisible OCR layer replaced",
               "unmapped": "unmapped glyphs", "unknown_words": "a text layer that is not words"}


def ocr_note(pages: dict[int, str]) -> str:
    """`3 page(s) read by OCR (1-2: no text layer; 5: unmapped glyphs)`."""
    groups: dict[str, list[int]] = {}
    for number, reason in sorted((int(k), v) for k, v in pages.items()):  # keys may come back from JSON as strings
        groups.setdefault(reason, []).append(number)
    parts = [f"{_ranges(numbers)}: {OCR_REASONS.get(reason, reason)}" for reason, numbers in groups.items()]
    return f"{len(pages)} page(s) read by OCR ({'; '.join(parts)})"


def _ranges(numbers: list[int]) -> str:
    runs: list[list[int]] = []
    for n in numbers:
        if runs and n == runs[-1][-1] + 1:
            runs[-1].append(n)
        else:
            runs.append([n])
    return ", ".join(f"{r[0]}-{r[-1]}" if len(r) > 1 else str(r[0]) for r in runs)
