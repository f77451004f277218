"""The parse-backend interface. Backends (PyMuPDF now, MinerU later) turn one PDF into a ParsedPaper."""
from __future__ import annotations

from pathlib import Path
from typing import Protocol

from pydantic import BaseModel, ConfigDict, Field

from pipeline.document import ParsedPaper


class ParseOptions(BaseModel):
    model_config = ConfigDict(extra="forbid")

    backend: str = "pymupdf"
    chunk_tokens: int = Field(512, ge=16, le=8192, description="Chunk size in tokenizer tokens, no overlap.")
    tokenizer: str = Field("all-MiniLM-L6-v2", description="HF id or local path of the chunking tokenizer.")
    layout_model: str = Field("auto", description="auto: only on pages that need it; always; never.")
    metadata_overrides: dict = Field(default_factory=dict, description="Fields that replace detected metadata.")
    sidecar_metadata: bool = Field(True, description="Read <name>.json next to the PDF (upstream metadata format).")


class ParseBackend(Protocol):
    name: str

    def parse(self, path: Path, options: ParseOptions) -> ParsedPaper:
        """Parse one PDF. Raise pipeline.parse.errors.ParseError for a file that cannot be parsed at all;
        record recoverable per-view failures in ParsedPaper.errors."""
        ...


def get_backend(options: ParseOptions) -> ParseBackend:
    if options.backend == "pymupdf":
        from pipeline.parse.pymupdf import PyMuPDFBackend

        return PyMuPDFBackend()
    raise ValueError(f"unknown parse backend {options.backend!r} (available: pymupdf)")
