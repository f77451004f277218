"""pipeline.parse: PDF -> ParsedPaper. The package face; backends are never imported here.

    from pipeline.parse import ParseOptions, parse_pdf
    paper = parse_pdf(path, ParseOptions())

`parse_pdf` (core.py) is loaded on first use because it pulls in the PyMuPDF library (~0.5 s to import), which
commands that only read settings should not pay for. Backends are found by name through the registry.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from pipeline.parse.errors import BackendFailed, BackendUnavailable, CorruptPDF, EmptyPDF, EncryptedPDF, NotAPDF, NoTextLayer, ParseError
from pipeline.parse.interface import ParseBackend
from pipeline.parse.options import ParseOptions
from pipeline.parse.registry import available_backends, get_backend, register_backend

if TYPE_CHECKING:
    from pipeline.parse.core import parse_pdf

__all__ = [
    "ParseOptions", "parse_pdf", "ParseBackend", "register_backend", "get_backend", "available_backends",
    "ParseError", "BackendUnavailable", "BackendFailed", "NotAPDF", "CorruptPDF", "EncryptedPDF", "EmptyPDF", "NoTextLayer",
]


def __getattr__(name: str):
    if name == "parse_pdf":
        from pipeline.parse.core import parse_pdf  # deferred for import time (PyMuPDF), not for a cycle

        return parse_pdf
    raise AttributeError(f"module 'pipeline.parse' has no attribute {name!r}")
