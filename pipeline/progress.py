"""Progress callbacks for stages that run under layers knowing nothing of them (the ingest runner, the stage loop,
a Prefect task).

Rules:
- A stage takes its callback directly where it can; otherwise a caller installs one for the current context with
  `channel.reporting(callback)` and the stage asks `channel.current()`. The pipeline never draws anything itself:
  the CLI passes a rich progress display.
- A callback that raises must not break the stage: its first error is logged once and it is dropped.
"""
from __future__ import annotations

import logging
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar

Callback = Callable[..., None]


class Channel:
    """One stage's progress callback slot (a context variable) and its failure-safe accessor."""

    def __init__(self, name: str, log: logging.Logger) -> None:
        self._current: ContextVar[Callback | None] = ContextVar(name, default=None)
        self._log = log

    @contextmanager
    def reporting(self, callback: Callback | None) -> Iterator[None]:
        token = self._current.set(callback)
        try:
            yield
        finally:
            self._current.reset(token)

    def current(self, explicit: Callback | None = None) -> Callback | None:
        """The explicit callback, else the installed one, wrapped so its failures stay its own; None when neither."""
        cb = explicit or self._current.get()
        if cb is None:
            return None
        broken = False
        log = self._log

        def safe(*args) -> None:
            nonlocal broken
            if broken:
                return
            try:
                cb(*args)
            except Exception as exc:  # a display problem never costs the stage's work
                broken = True
                log.warning("progress display failed (%s: %s); continuing without it", type(exc).__name__, exc)

        return safe
