"""Summarizer errors. Inside a run they become per-item statuses; only configuration errors raise."""
from __future__ import annotations


class SummarizeError(Exception):
    """Base class."""


class ConfigError(SummarizeError):
    """The backend cannot run with these settings (raised before any request is sent)."""


class RequestFailed(SummarizeError):
    """One request failed. `retryable` marks 429/5xx/timeouts/malformed bodies; `fatal` stops the run (401/403/404)."""

    def __init__(self, message: str, *, retryable: bool = False, fatal: bool = False, retry_after: float | None = None):
        super().__init__(message)
        self.retryable = retryable
        self.fatal = fatal
        self.retry_after = retry_after
