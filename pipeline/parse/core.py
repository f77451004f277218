"""parse_pdf: the one entry point that turns a PDF into a ParsedPaper, whatever backends produce the views.

Steps: preflight (reject what no backend can parse), run each needed backend for the views options.views sends
to it (default: every view from options.backend), merge the views, put back superscripts/subscripts in
table cells that lack them (table_scripts.py), screen the equation rows (each repaired if it can be, dropped when it is
still not a plausible formula: quality.py), normalise every text view (normalize.py: whole words, composed accents,
plain letters, paragraphs), then cut chunks from the merged pages' prose (their text without figure text, margin
stamps and display equations, where the backend tells them apart). The
core never imports a backend: registry.py resolves them by name. Per-view timings and failures are recorded by
steps.run_view, so they read the same as before the split (metadata/pages failures are fatal).
"""
from __future__ import annotations

import time
from pathlib import Path

from pipeline.document import ParsedPaper
from pipeline.parse import _mupdf  # noqa: F401  (first: pymupdf without its layout model, see _mupdf.py)
from pipeline.parse.chunking import extract_chunks
from pipeline.parse.cleanup import spell_paper_ligatures
from pipeline.parse.merge import merge
from pipeline.parse.normalize import normalize_paper
from pipeline.parse.options import ParseOptions
from pipeline.parse.preflight import opened
from pipeline.parse.quality import screen_equations
from pipeline.parse.registry import get_backend
from pipeline.parse.steps import run_view
from pipeline.parse.table_scripts import mark_table_scripts


def parse_pdf(path: Path | str, options: ParseOptions | None = None) -> ParsedPaper:
    """Parse one PDF. Raises a pipeline.parse.errors.ParseError for a file that cannot be parsed at all;
    recoverable per-view failures are listed in ParsedPaper.errors."""
    options = options or ParseOptions()
    path = Path(path)
    plan = options.plan()
    backends = {name: get_backend(name) for name in plan}  # unknown names fail before any work
    with opened(path):  # validated once, then shared by the backends and the table-scripts step
        papers = {name: backends[name].parse(path, options, views) for name, views in plan.items()}
        paper = merge(papers, options)
        if paper.tables:  # before the ligatures are spelled out: it matches cell words with the text layer's
            run_view(paper, "table_scripts", lambda: mark_table_scripts(paper, path), path)
    t0 = time.perf_counter()
    screen_equations(paper)
    normalize_paper(paper)  # every view's text, whichever backend made it (table cells too)
    paper.timings["normalize"] = time.perf_counter() - t0
    spell_paper_ligatures(paper)  # what normalisation leaves alone (figure rows' captions are done; LaTeX, bibtex)
    run_view(paper, "chunks", lambda: setattr(paper, "chunks", extract_chunks(paper.pages, options)), path)
    return paper
