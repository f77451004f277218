"""Page progress of a parse that takes a while per page (OCR: seconds a page): a callback `(path, pages_done,
pages_total)`, installed with `reporting(callback)` (rules in `pipeline.progress`).

Parser processes (pipeline.workers) cannot see the caller's callback. When one is installed as the pool starts, the
pool gives each process a queue (`install_sink`) and forwards what comes through it to the callback from a thread
of its own, so a scanned paper shows its pages being read wherever it is parsed.
"""
from __future__ import annotations

import logging
from collections.abc import Callable

from pipeline.progress import Channel

Progress = Callable[[str, int, int], None]  # (PDF path, pages done, pages to do)
_channel = Channel("paperbase_parse_progress", logging.getLogger("paperbase.parse"))
reporting = _channel.reporting
_sink: Progress | None = None  # a parser process's queue writer (install_sink)


def current() -> Progress | None:
    """The callback installed in this context, else this parser process's sink, else None."""
    return _channel.current() or _sink


def install_sink(queue) -> None:
    """Parser-process initializer: page progress goes to the parent through `queue` (a multiprocessing queue)."""
    global _sink
    queue.cancel_join_thread()  # a process exits without waiting for the parent to read its last messages

    def put(path: str, done: int, total: int) -> None:
        try:
            queue.put((path, done, total))
        except Exception:  # the parent has gone or closed the queue: progress is never worth an error
            pass

    _sink = put
