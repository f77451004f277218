"""Summaries for pages, sections, tables and figures, plus tldr and tags: offline (extractive) or any
OpenAI-compatible endpoint. Entry point: `summarize_papers(settings, paper_ids)`; see docs/summaries.md.

The stage is imported lazily: pipeline.config imports pipeline.summarize.config, and loading settings should not
pull in httpx and DuckDB.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pipeline.summarize.errors import ConfigError, RequestFailed, SummarizeError

if TYPE_CHECKING:
    from pipeline.summarize.report import SummarizeReport
    from pipeline.summarize.stage import summarize_papers


def __getattr__(name: str) -> Any:
    if name == "summarize_papers":
        from pipeline.summarize.stage import summarize_papers

        return summarize_papers
    if name == "SummarizeReport":
        from pipeline.summarize.report import SummarizeReport

        return SummarizeReport
    raise AttributeError(name)


__all__ = ["summarize_papers", "SummarizeReport", "SummarizeError", "ConfigError", "RequestFailed"]
