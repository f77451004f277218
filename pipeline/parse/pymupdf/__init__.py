"""The PyMuPDF backend: PyMuPDF 2.x, fully offline. One module per view; each reads the shared DocumentAnalysis
(page.py) through DocumentFacts (facts.py), so views can run in any order. Imports only the parse core, its own
modules and pipeline.document. A view that fails is recorded in ParsedPaper.errors (status partial) instead of
failing the file; chunks are cut by the core, not here.
"""
from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from pathlib import Path

from pipeline.document import Metadata, ParsedPaper
from pipeline.parse import _mupdf  # noqa: F401  (first: pymupdf without its layout model, see _mupdf.py)
from pipeline.parse.errors import CorruptPDF, ParseError
from pipeline.parse.options import ParseOptions, wanted_views
from pipeline.parse.preflight import document, require_text_layer
from pipeline.parse.pymupdf import equations, figures, metadata, references, sections, tables, text
from pipeline.parse.pymupdf.facts import DocumentFacts
from pipeline.parse.pymupdf.page import DocumentAnalysis, analyze_document
from pipeline.parse.steps import run_view


class PyMuPDFBackend:
    name = "pymupdf"

    def parse(self, path: Path, options: ParseOptions, views: Sequence[str] | None = None) -> ParsedPaper:
        path = Path(path)
        wanted = wanted_views(views)
        with document(path) as doc:  # the parse's open document (preflight.opened)
            t0 = time.perf_counter()
            try:
                analysis = analyze_document(doc, options.ocr)
            except ParseError:
                raise  # OCR unavailable or failed: its own kind and message
            except Exception as exc:  # damaged content streams surface here, not at open
                raise CorruptPDF(f"cannot read the pages of {path.name}: {exc}") from exc
            analyze_s = time.perf_counter() - t0
            require_text_layer(sum(len(p.text) for p in analysis.pages), path,
                               ocr_tried=any(p.ocr for p in analysis.pages))

            facts = DocumentFacts(analysis, options.pymupdf)
            paper = ParsedPaper(pdf_path=str(path), metadata=Metadata(pdf_path=str(path), num_pages=doc.page_count))
            paper.timings["analyze"] = analyze_s
            steps: dict[str, Callable[[], object]] = {
                "metadata": lambda: metadata.extract_metadata(facts, path, options, paper.metadata),
                "pages": lambda: setattr(paper, "pages", text.extract_pages(facts)),
                "sections": lambda: setattr(paper, "sections", sections.extract_sections(facts)),
                "tables": lambda: setattr(paper, "tables", tables.extract_tables(facts)),
                "images": lambda: setattr(paper, "figures", figures.extract_figures(facts)),
                "equations": lambda: setattr(paper, "equations", equations.extract_equations(facts)),
                "reference": lambda: setattr(paper, "references", references.extract_references(facts)),
            }
            for name in wanted:
                run_view(paper, name, steps[name], path)
            return paper


__all__ = ["PyMuPDFBackend", "DocumentAnalysis", "DocumentFacts"]
