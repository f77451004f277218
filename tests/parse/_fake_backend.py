"""A stand-in second backend for the registry and merge tests: fills only the tables view, with one table."""
from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from pipeline.document import Metadata, ParsedPaper, Table
from pipeline.parse.options import VIEWS, ParseOptions
from pipeline.parse.preflight import open_pdf


class FakeBackend:
    name = "fake"

    def parse(self, path: Path, options: ParseOptions, views: Sequence[str] | None = None) -> ParsedPaper:
        with open_pdf(Path(path)) as doc:
            pages = doc.page_count
        paper = ParsedPaper(pdf_path=str(path), metadata=Metadata(title="Fake", num_pages=pages, pdf_path=str(path)))
        for view in VIEWS if views is None else views:
            paper.timings[view] = 0.0
            if view == "tables":
                paper.tables = [Table(1, 0, "Table 9: from the fake backend", "<table></table>", (10, 10, 50, 20))]
            elif view == "images":
                paper.errors.append("images: RuntimeError: the fake backend draws no figures")
        paper.timings["analyze"] = 0.0
        return paper
