"""tables view: every captioned table, with its caption, an HTML rendering with row/column spans, and a bbox.

Strategy (cheap first): the caption ("Table 2: ...", "TABLE IV" + small-caps title, "Table 3 |"; rules in
`_captions.py`) anchors the search; the table body is the run of
horizontal rules (booktabs top/mid/bottom rules or a full grid; an empty band ends it) and non-prose text lines
next to the caption,
on the side where this document puts its tables (captions above or below, decided by a vote over the
document). When that finds nothing: a grid of pictures next to the caption (a "table" of images), then the
layout model's 'table'/'picture' region nearest the caption (the only place this view pays for the model:
2 of the 390 corpus pages; skipped with layout_model="never"), then the tight block of text lines next to the
caption (text-only tables).
Cells come from word positions (`_tables_grid`). The bbox is the table body only (caption excluded), as
(x0, y0, w, h). `page.find_tables()` is not used: on these booktabs tables its 'lines' strategy finds no
grid and its 'text' strategy splits prose into cells, and it costs more than this whole view.
Regions are found in `_table_regions.py` and shared through DocumentFacts.table_regions.
"""
from __future__ import annotations

from pipeline.document import Table
from pipeline.parse.pymupdf._geometry import hrules, to_bbox, x_overlap
from pipeline.parse.pymupdf._tables_grid import build_html
from pipeline.parse.pymupdf.facts import DocumentFacts, as_facts
from pipeline.parse.pymupdf.page import DocumentAnalysis, Rect
from schemas.content_marks import RASTER_TABLE


def _table_rules(rules: list[Rect]) -> list[Rect]:
    """The table's own rules: those of the most common x-extent (a figure's frame drawn in the region is wider)."""
    groups: list[list[Rect]] = []
    for r in sorted(rules, key=lambda r: r[1]):
        g = next((g for g in groups if abs(g[0][0] - r[0]) <= 2 and abs(g[0][2] - r[2]) <= 2), None)
        if g is None:
            groups.append([r])
        else:
            g.append(r)
    return max(groups, key=len) if groups else []


def _ocr_ready() -> bool:
    """Tesseract is installed (a raster table without it stays flagged and empty, as before OCR existed: the paper
    itself has a text layer, so its parse never fails for want of OCR)."""
    import shutil

    return shutil.which("tesseract") is not None


def _read_rasters(jobs: list[tuple], ocr) -> dict[int, list[tuple]]:
    """Tables printed as pictures, their words read by OCR: `jobs` are (key, page, box); each region is rendered here
    (MuPDF stays in this thread) and read by Tesseract processes `ocr.workers` at a time (a scanned paper's tables
    were read one after the other, seconds each, after every page had been read in parallel). A region OCR reads
    nothing in, or fails on, is left out (its table stays flagged and empty)."""
    import os
    from concurrent.futures import ThreadPoolExecutor

    from pipeline.parse.ocr import OCRFailed, TesseractEngine, read_region, region_image

    engine = TesseractEngine(ocr.language)
    images = [(key, box, region_image(page, box, ocr.dpi)) for key, page, box in jobs]
    images = [(key, box, image) for key, box, image in images if image]

    def read(job: tuple) -> tuple[int, list[tuple]]:
        key, box, image = job
        try:
            return key, read_region(engine, image, box, ocr.dpi)
        except (OCRFailed, OSError, TimeoutError):  # Tesseract failed on it: the flagged empty table says enough
            return key, []

    workers = max(1, min(ocr.workers or os.cpu_count() or 1, len(images)))
    with ThreadPoolExecutor(max_workers=workers) as pool:
        return {key: words for key, words in pool.map(read, images) if words}


def extract_tables(facts: DocumentFacts | DocumentAnalysis) -> list[Table]:
    facts = as_facts(facts)
    analysis = facts.analysis
    found: list[tuple] = []  # (caption, region, page analysis, box, rule ys, html)
    per_page: dict[int, int] = {}
    for cap, region in sorted(facts.table_regions, key=lambda cr: (cr[0].page, facts.reading_key(analysis.pages[cr[0].page - 1], cr[1]))):
        p = analysis.pages[cap.page - 1]
        rules = [r for r in hrules(p, 20.0)
                 if x_overlap(r, region) > 0.8 * (region[2] - region[0]) and region[1] - 1 <= r[1] <= region[3] + 1]
        rule_ys = [(r[1] + r[3]) / 2 for r in _table_rules(rules)]
        box = (region[0] - 1, region[1] - 1, region[2] + 1, region[3] + 1)
        found.append((cap, region, p, box, rule_ys, build_html(p, box, rule_ys)))
    raster = [(i, f[2].page, f[3]) for i, f in enumerate(found) if f[5] == RASTER_TABLE]
    read = (_read_rasters(raster, analysis.ocr)
            if raster and analysis.ocr is not None and analysis.ocr.enabled and _ocr_ready() else {})
    tables: list[Table] = []
    for i, (cap, region, p, box, rule_ys, html) in enumerate(found):
        if i in read:
            html = build_html(p, box, rule_ys, words=read[i])
        ordinal = per_page.get(cap.page, 0)
        per_page[cap.page] = ordinal + 1
        tables.append(Table(cap.page, ordinal, cap.text, html, to_bbox(region)))
    return tables
