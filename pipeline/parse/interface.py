"""The parse-backend interface. Imports no implementation: backends are found through registry.py.

A backend turns one PDF into a ParsedPaper, filling the views it is asked for (all of VIEWS when `views` is None),
in the order given. It never cuts chunks (the core does, after merging views from several backends). It raises a
pipeline.parse.errors.ParseError for a file it cannot parse at all, and records recoverable per-view failures
with `steps.run_view` (which keeps the error strings and timings every backend reports in one format).
"""
from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Protocol, runtime_checkable

from pipeline.document import ParsedPaper
from pipeline.parse.options import ParseOptions


@runtime_checkable
class ParseBackend(Protocol):
    name: str

    def parse(self, path: Path, options: ParseOptions, views: Sequence[str] | None = None) -> ParsedPaper:
        """Parse one PDF, filling `views` (None: every view in options.VIEWS) in the order given."""
        ...
