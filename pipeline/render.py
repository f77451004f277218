"""Render a region of a PDF page to PNG (CLIP encoding and vision summaries crop figures/tables this way)."""
from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path


def crop_png(pdf_path: str | Path, page_number: int, bbox: Sequence[float], dpi: int = 144) -> bytes:
    """PNG bytes of `bbox` ([x0, y0, w, h] in PDF points, top-left origin) on 1-based `page_number`."""
    import pymupdf

    x0, y0, w, h = (float(v) for v in bbox)
    with pymupdf.open(pdf_path) as doc:
        page = doc[page_number - 1]
        clip = pymupdf.Rect(x0, y0, x0 + w, y0 + h) & page.rect
        if clip.is_empty:
            raise ValueError(f"bbox {list(bbox)} lies outside page {page_number} of {pdf_path}")
        return page.get_pixmap(dpi=dpi, clip=clip).tobytes("png")
