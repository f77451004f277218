"""The MinerU backend: MinerU 4 (`mineru==4.0.12`, engine `docvortex`) through its Python API, offline.

`parse.mineru.tier` picks MinerU's tier (tiers.py says which can run and why not). The file is validated and its
page sizes read with the PyMuPDF *library* (preflight, as every backend), MinerU's middle JSON is read once, and
each view is built from its blocks (views.py, metadata.py). Failures are per file and never partial rows: MinerU
missing or a tier without its models -> BackendUnavailable; MinerU raising, or output that is empty or does not
match the PDF's pages -> BackendFailed; a scanned PDF on a tier without OCR -> NoTextLayer naming what would
parse it. Per-view failures are recorded by steps.run_view like in every backend.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

import pymupdf

from pipeline.document import Metadata, ParsedPaper
from pipeline.parse.errors import BackendFailed, BackendUnavailable, NoTextLayer
from pipeline.parse.mineru import metadata
from pipeline.parse.mineru import views as mviews
from pipeline.parse.mineru.blocks import Block, page_blocks
from pipeline.parse.mineru.tiers import OCR_TIERS, configure_offline, tier_status
from pipeline.parse.options import ParseOptions, wanted_views
from pipeline.parse.preflight import MIN_TEXT_CHARS, OCR_HINT, open_pdf
from pipeline.parse.steps import run_view

def run_mineru(path: Path, tier: str, ocr_mode: str) -> dict:
    """MinerU's middle JSON for one PDF, as a dict. Any exception is the caller's to turn into a file error."""
    from mineru.parser import parse
    from mineru.utils.logger import configure_global_log_level

    configure_global_log_level("warning")  # its per-file INFO lines would flood the ingest progress display

    result = parse(path, tier=tier, ocr_mode=ocr_mode, image_analysis=False)
    return result.middle_json.model_dump()


class MinerUBackend:
    name = "mineru"

    def parse(self, path: Path, options: ParseOptions, views: Sequence[str] | None = None) -> ParsedPaper:
        path = Path(path)
        wanted = wanted_views(views)
        tier = options.mineru.tier
        status = tier_status(tier, options.mineru.models_dir)
        if not status.usable:
            raise BackendUnavailable(f"mineru tier {tier!r} cannot parse {path.name}: {status.why}")
        configure_offline(options.mineru.models_dir)

        doc = open_pdf(path)
        try:
            sizes = [(p.rect.width, p.rect.height) for p in doc]
            chars = sum(len(p.get_text("text").strip()) for p in doc)
            if chars < MIN_TEXT_CHARS and tier not in OCR_TIERS:
                raise NoTextLayer(f"{path.name} has no text layer (scanned or image-only); {OCR_HINT}")
            try:
                middle = run_mineru(path, tier, "txt" if tier == "flash" else "auto")
            except Exception as exc:
                raise BackendFailed(f"mineru {tier} failed on {path.name}: {type(exc).__name__}: {exc}") from exc
            blocks = _checked_blocks(middle, sizes, path)
            paper = ParsedPaper(pdf_path=str(path), metadata=Metadata(pdf_path=str(path), num_pages=len(sizes)))
            paper.pages = mviews.extract_pages(blocks, sizes)  # page text feeds metadata (arXiv stamp)

            def equation_text(b: Block) -> str:
                x0, y0, w, h = b.bbox
                return doc[b.page - 1].get_text("text", clip=pymupdf.Rect(x0, y0, x0 + w, y0 + h))

            steps: dict[str, Callable[[], object]] = {
                "metadata": lambda: metadata.extract_metadata(blocks, path, options, paper.metadata,
                                                              paper.pages[0].text if paper.pages else ""),
                "pages": lambda: None,
                "sections": lambda: setattr(paper, "sections", mviews.extract_sections(blocks)),
                "tables": lambda: setattr(paper, "tables", mviews.extract_tables(blocks)),
                "images": lambda: setattr(paper, "figures", mviews.extract_figures(blocks)),
                "equations": lambda: setattr(paper, "equations", mviews.extract_equations(blocks, equation_text)),
                "reference": lambda: setattr(paper, "references", mviews.extract_references(blocks)),
            }
            for name in wanted:
                run_view(paper, name, steps[name], path)
            if "pages" not in wanted:
                paper.pages = []
            return paper
        finally:
            doc.close()


def _checked_blocks(middle: dict, sizes: list[tuple[float, float]], path: Path) -> list[list[Block]]:
    """Blocks per page, or BackendFailed when MinerU's output is malformed, empty or misses pages."""
    try:
        blocks = page_blocks(middle, sizes)
    except (ValueError, TypeError, KeyError) as exc:
        raise BackendFailed(f"mineru output for {path.name} is malformed: {exc}") from exc
    got = len(middle.get("pages") or [])
    if got != len(sizes):
        raise BackendFailed(f"mineru returned {got} page(s) for {path.name}, which has {len(sizes)}")
    if not any(b.text.strip() for page in blocks for b in page):
        raise BackendFailed(f"mineru returned no text for {path.name} (empty output)")
    return blocks


__all__ = ["MinerUBackend", "run_mineru"]
