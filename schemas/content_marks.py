"""Conventions in stored text beyond plain text and HTML, shared by the parser (which writes them) and the readers
(`status`, `inspect`, `export`, which show them).

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


# Equation placeholders. Display equations are cut out of the prose of chunks and section content (their LaTeX is
# in the `equations` view); where one stood, the prose holds a paragraph of its own reading `[Equation (3)]` (with
# the printed number) or `[Equation]` (unnumbered), so a reader knows an equation was there and the Markdown export
# puts the equation row back in its place.
EQUATION_PLACEHOLDER = re.compile(r"^\[Equation(?: \(([^()\s]{1,12})\))?\]$")


def equation_placeholder(tag: str | None = None) -> str:
    """The paragraph that stands for a display equation in prose (`tag`: its printed number, if any)."""
    return f"[Equation ({tag})]" if tag else "[Equation]"
