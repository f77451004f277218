"""The default parse backend: PyMuPDF 2.x, fully offline. One module per view; each reads the shared
DocumentAnalysis. A view that fails is recorded in ParsedPaper.errors (status partial) instead of failing the file."""
from __future__ import annotations

import time
from pathlib import Path

import pymupdf

from pipeline.document import Metadata, ParsedPaper
from pipeline.parse.base import ParseOptions
from pipeline.parse.errors import CorruptPDF, EmptyPDF, EncryptedPDF, NotAPDF, NoTextLayer
from pipeline.parse.pymupdf.page import DocumentAnalysis, analyze_document

pymupdf.TOOLS.mupdf_display_errors(False)
pymupdf.TOOLS.mupdf_display_warnings(False)

# Fewer than this many characters of text layer over the whole document means a scanned / image-only PDF.
MIN_TEXT_CHARS = 50


def open_pdf(path: Path) -> pymupdf.Document:
    """Open and validate a PDF, raising a ParseError subclass with a clear message for bad input."""
    with open(path, "rb") as fh:
        head = fh.read(1024)
    if b"%PDF-" not in head:
        raise NotAPDF(f"{path.name} is not a PDF (no %PDF- header)")
    try:
        doc = pymupdf.open(path, filetype="pdf")
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


class PyMuPDFBackend:
    name = "pymupdf"

    def parse(self, path: Path, options: ParseOptions) -> ParsedPaper:
        from pipeline.parse.pymupdf import equations, figures, metadata, references, sections, tables, text

        path = Path(path)
        doc = open_pdf(path)
        try:
            timings: dict[str, float] = {}
            t0 = time.perf_counter()
            try:
                analysis = analyze_document(doc)
            except Exception as exc:  # damaged content streams surface here, not at open
                raise CorruptPDF(f"cannot read the pages of {path.name}: {exc}") from exc
            timings["analyze"] = time.perf_counter() - t0
            if sum(len(p.text) for p in analysis.pages) < MIN_TEXT_CHARS:
                raise NoTextLayer(f"{path.name} has no text layer (scanned or image-only); OCR is not enabled")

            paper = ParsedPaper(pdf_path=str(path), metadata=Metadata(pdf_path=str(path), num_pages=doc.page_count))
            views = [
                ("metadata", lambda: metadata.extract_metadata(analysis, path, options, paper.metadata)),
                ("pages", lambda: setattr(paper, "pages", text.extract_pages(analysis))),
                ("chunks", lambda: setattr(paper, "chunks", text.extract_chunks(paper.pages, options))),
                ("sections", lambda: setattr(paper, "sections", sections.extract_sections(analysis))),
                ("tables", lambda: setattr(paper, "tables", tables.extract_tables(analysis))),
                ("images", lambda: setattr(paper, "figures", figures.extract_figures(analysis))),
                ("equations", lambda: setattr(paper, "equations", equations.extract_equations(analysis))),
                ("reference", lambda: setattr(paper, "references", references.extract_references(analysis))),
            ]
            for name, run in views:
                t0 = time.perf_counter()
                try:
                    run()
                except Exception as exc:
                    if name in ("metadata", "pages"):
                        raise CorruptPDF(f"{name} extraction failed for {path.name}: {type(exc).__name__}: {exc}") from exc
                    paper.errors.append(f"{name}: {type(exc).__name__}: {exc}")
                timings[name] = time.perf_counter() - t0
            paper.timings = timings
            return paper
        finally:
            doc.close()


__all__ = ["PyMuPDFBackend", "open_pdf", "DocumentAnalysis"]
