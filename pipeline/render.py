"""Render a PDF page, or a region of it, to PNG (CLIP crops, vision summaries, the agent's page images)."""
from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from pipeline.paths import from_db, undecodable


def open_pdf(pdf_path: str | Path):
    """A PDF by its stored path (metadata.pdf_path) or a file path, whatever its name (pipeline/paths.py)."""
    import pymupdf

    path = from_db(str(pdf_path))
    if undecodable(path):  # MuPDF takes UTF-8 names only
        return pymupdf.open(stream=Path(path).read_bytes(), filetype="pdf")
    return pymupdf.open(path)


def crop_png(pdf_path: str | Path, page_number: int, bbox: Sequence[float], dpi: int = 144) -> bytes:
    """PNG bytes of `bbox` ([x0, y0, w, h] in PDF points, top-left origin) on 1-based `page_number`."""
    import pymupdf

    pdf_path = from_db(str(pdf_path))  # as stored in metadata.pdf_path (pipeline/paths.py)
    x0, y0, w, h = (float(v) for v in bbox)
    with open_pdf(pdf_path) as doc:
        page = doc[page_number - 1]
        clip = pymupdf.Rect(x0, y0, x0 + w, y0 + h) & page.rect
        if clip.is_empty:
            raise ValueError(f"bbox {list(bbox)} lies outside page {page_number} of {pdf_path}")
        return page.get_pixmap(dpi=dpi, clip=clip).tobytes("png")


def page_png(pdf_path: str | Path, page_number: int, bbox: Sequence[float] | None = None, dpi: int = 144) -> bytes:
    """PNG bytes of a whole 1-based page, or of `bbox` on it when one is given (an empty bbox means the page)."""
    if bbox:
        return crop_png(pdf_path, page_number, bbox, dpi)
    pdf_path = from_db(str(pdf_path))
    if not Path(pdf_path).exists():
        raise FileNotFoundError(str(pdf_path))
    with open_pdf(pdf_path) as doc:
        return doc[page_number - 1].get_pixmap(dpi=dpi).tobytes("png")
