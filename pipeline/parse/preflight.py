"""Preflight: is this file a PDF we can parse at all? Raises a ParseError subclass with a clear message.

Backend-neutral (it uses the PyMuPDF *library* to open the file, never the pymupdf backend): not a PDF, corrupt,
encrypted, truncated, zero pages; and `require_text_layer`, which a backend that reads the text layer calls with
the amount of text it found (scanned / image-only PDFs need OCR: the message says how to enable it).
"""
from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from pathlib import Path

import pymupdf

from pipeline.parse.errors import CorruptPDF, EmptyPDF, EncryptedPDF, NotAPDF, NoTextLayer

pymupdf.TOOLS.mupdf_display_errors(False)
pymupdf.TOOLS.mupdf_display_warnings(False)

# Fewer than this many characters of text layer over the whole document means a scanned / image-only PDF.
MIN_TEXT_CHARS = 50


def mupdf_open(path: Path, **kw) -> pymupdf.Document:
    """pymupdf.open for any file name: MuPDF takes names as UTF-8 only, so a file whose name is not valid UTF-8
    (Python holds its undecodable bytes as surrogates) is opened from its bytes instead."""
    try:
        str(path).encode("utf-8")
    except UnicodeEncodeError:
        return pymupdf.open(stream=Path(path).read_bytes(), filetype="pdf")
    return pymupdf.open(path, **kw)


def open_pdf(path: Path) -> pymupdf.Document:
    """Open and validate a PDF, raising a ParseError subclass with a clear message for bad input."""
    path = Path(path)
    with open(path, "rb") as fh:
        head = fh.read(1024)
    if b"%PDF-" not in head:
        raise NotAPDF(f"{path.name} is not a PDF (no %PDF- header)")
    try:
        doc = mupdf_open(path, filetype="pdf")
    except Exception as exc:  # MuPDF raises FileDataError and friends
        raise CorruptPDF(f"cannot open {path.name}: {exc}") from exc
    if doc.needs_pass:
        doc.close()
        raise EncryptedPDF(f"{path.name} is password-protected (encrypted); give an unencrypted copy")
    with open(path, "rb") as fh:
        fh.seek(max(0, path.stat().st_size - 2048))
        has_eof = b"%%EOF" in fh.read()
    if doc.is_repaired and not has_eof:
        pages = doc.page_count
        doc.close()
        # MuPDF can salvage some pages of a cut-off file; storing them would silently lose the rest.
        raise CorruptPDF(f"{path.name} is truncated (no %%EOF; {pages} page(s) salvageable); re-download it")
    if doc.page_count == 0:
        doc.close()
        raise EmptyPDF(f"{path.name} has no pages")
    return doc


_SHARED: ContextVar[tuple[str, pymupdf.Document] | None] = ContextVar("paperbase_shared_pdf", default=None)


@contextmanager
def opened(path: Path) -> Iterator[pymupdf.Document]:
    """`open_pdf` for one whole parse: while the block runs, every `document(path)` in this thread (the backend, the
    table-scripts step) gets this same open document instead of opening the file again. MuPDF keeps a document's
    loaded fonts and pages, so the table-scripts step reads its tables' text at 60 % of the cost of a fresh copy
    (0.44 s of CPU on the 25 corpus papers, 2 % of their parse)."""
    doc = open_pdf(path)
    token = _SHARED.set((str(path), doc))
    try:
        yield doc
    finally:
        _SHARED.reset(token)
        doc.close()


@contextmanager
def document(path: Path) -> Iterator[pymupdf.Document]:
    """The document `opened` shares for this path, or one opened (`open_pdf`) for this block alone."""
    shared = _SHARED.get()
    if shared is not None and shared[0] == str(path):
        yield shared[1]
        return
    doc = open_pdf(path)
    try:
        yield doc
    finally:
        doc.close()


# What would parse a scanned PDF: the default backend's OCR (parse.ocr, Tesseract: pipeline/parse/ocr.py), or the
# mineru backend's OCR tier (pipeline/parse/mineru/tiers.py).
OCR_HINT = ("turn OCR on (parse.ocr.enabled = true, the default; it needs Tesseract: `apt-get install -y "
            "tesseract-ocr`), or use the mineru backend's basic tier: install it (scripts/install-mineru.sh), run "
            "`mineru-models-download` once on a networked machine and copy the models into parse.mineru.models_dir, "
            "then set parse.backend = \"mineru\" and parse.mineru.tier = \"basic\" (`paperbase doctor` shows the tiers)")


def require_text_layer(chars: int, path: Path, ocr_tried: bool = False) -> None:
    if chars < MIN_TEXT_CHARS and ocr_tried:
        raise NoTextLayer(f"{Path(path).name} has no text layer and OCR found no text on its page images")
    if chars < MIN_TEXT_CHARS:
        raise NoTextLayer(f"{Path(path).name} has no text layer (scanned or image-only); {OCR_HINT}")
