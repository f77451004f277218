"""Summarize progress reporting: a callback `(items_done, items_total)` the caller supplies.

Like `pipeline.vectors.progress`: `summarize_papers(on_start=..., on_item=...)` take callbacks directly; callers that
reach the stage through layers that know nothing of it (the ingest runner, the stage loop, a Prefect task) install one
for the current context with `reporting(callback)`. The pipeline draws nothing; a callback that raises is dropped
after one logged warning, so a display problem never costs summaries.
"""
from __future__ import annotations

import logging
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar

Progress = Callable[[int, int], None]  # (items done, items total)
_current: ContextVar[Progress | None] = ContextVar("paperbase_summarize_progress", default=None)
log = logging.getLogger("paperbase.summarize")


@contextmanager
def reporting(callback: Progress | None) -> Iterator[None]:
    token = _current.set(callback)
    try:
        yield
    finally:
        _current.reset(token)


def current() -> Progress | None:
    """The installed callback, wrapped so its failures stay its own; None when none is installed."""
    cb = _current.get()
    if cb is None:
        return None
    broken = False

    def safe(done: int, total: int) -> None:
        nonlocal broken
        if broken:
            return
        try:
            cb(done, total)
        except Exception as exc:
            broken = True
            log.warning("progress display failed (%s: %s); continuing without it", type(exc).__name__, exc)

    return safe
