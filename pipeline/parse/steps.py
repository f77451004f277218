"""Running one view: its wall time goes to ParsedPaper.timings, its failure to ParsedPaper.errors.

Shared by the core (chunks) and every backend, so timings and error strings look the same whichever backend
produced a view: a failed metadata or pages view is fatal (CorruptPDF), any other view appends
"view: Type: message" and the paper is stored as partial.
"""
from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

from pipeline.document import ParsedPaper
from pipeline.parse.errors import CorruptPDF

FATAL = ("metadata", "pages")


def run_view(paper: ParsedPaper, name: str, run: Callable[[], object], path: Path) -> None:
    t0 = time.perf_counter()
    try:
        run()
    except Exception as exc:
        if name in FATAL:
            raise CorruptPDF(f"{name} extraction failed for {path.name}: {type(exc).__name__}: {exc}") from exc
        paper.errors.append(f"{name}: {type(exc).__name__}: {exc}")
    finally:
        paper.timings[name] = time.perf_counter() - t0
