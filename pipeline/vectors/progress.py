"""Encode progress: a callback `(collection, cells_done, cells_total)`; `encode_papers(progress=...)` takes it
directly, other callers install it with `reporting(callback)` (rules in `pipeline.progress`)."""
from __future__ import annotations

import logging
from collections.abc import Callable

from pipeline.progress import Channel

Progress = Callable[[str, int, int], None]  # (collection, cells done, cells total)
_channel = Channel("paperbase_encode_progress", logging.getLogger("paperbase.vectors"))
reporting = _channel.reporting
current = _channel.current
