"""Summarize progress: a callback `(items_done, items_total)`; `summarize_papers(on_start=..., on_item=...)` take
callbacks directly, other callers install one with `reporting(callback)` (rules in `pipeline.progress`)."""
from __future__ import annotations

import logging
from collections.abc import Callable

from pipeline.progress import Channel

Progress = Callable[[int, int], None]  # (items done, items total)
_channel = Channel("paperbase_summarize_progress", logging.getLogger("paperbase.summarize"))
reporting = _channel.reporting
current = _channel.current
