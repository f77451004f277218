"""Encode progress reporting: a callback `(collection, cells_done, cells_total)` the caller supplies.

Rules:
- `encode_papers(progress=...)` takes the callback directly; callers that reach the stage through layers that know
  nothing of it (the ingest runner, the stage loop) install it for the current context with `reporting(callback)`,
  and the stage falls back to that. The pipeline never draws anything itself: the CLI passes a rich progress bar.
- A callback that raises must not break encoding: its errors are logged once and it is dropped.
"""
from __future__ import annotations

import logging
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar

Progress = Callable[[str, int, int], None]  # (collection, cells done, cells total)
_current: ContextVar[Progress | None] = ContextVar("paperbase_encode_progress", default=None)
log = logging.getLogger("paperbase.vectors")


@contextmanager
def reporting(callback: Progress | None) -> Iterator[None]:
    token = _current.set(callback)
    try:
        yield
    finally:
        _current.reset(token)


def current(explicit: Progress | None = None) -> Progress | None:
    """The explicit callback, else the one installed with `reporting`, wrapped so its failures stay its own."""
    cb = explicit or _current.get()
    if cb is None:
        return None
    broken = False

    def safe(name: str, done: int, total: int) -> None:
        nonlocal broken
        if broken:
            return
        try:
            cb(name, done, total)
        except Exception as exc:  # a display problem never costs vectors
            broken = True
            log.warning("progress display failed (%s: %s); continuing without it", type(exc).__name__, exc)

    return safe
