"""The encode progress bar: one rich bar per collection (cells done/total, rate, ETA), on stderr.

Quiet under --json and when stderr is not a terminal (logs, pipes, CI). The pipeline only calls a callback
(`pipeline.vectors.progress`); this module turns it into a bar and installs it for the command's duration.
"""
from __future__ import annotations

import logging
import sys
from collections.abc import Iterator
from contextlib import contextmanager

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, ProgressColumn, TextColumn, TimeRemainingColumn
from rich.text import Text


class _Rate(ProgressColumn):
    def render(self, task) -> Text:
        speed = task.finished_speed or task.speed
        return Text(f"{speed:,.1f} cells/s" if speed else "- cells/s", style="progress.data.speed")


def _into(bar: Progress):
    """A callback adding one row per collection to a bar that is already live (rich allows one live display)."""
    tasks: dict[str, int] = {}

    def update(collection: str, done: int, total: int) -> None:
        if collection not in tasks:
            tasks[collection] = bar.add_task("", total=total or None, stage="encoding")
        bar.update(tasks[collection], completed=done, total=total or None)
        task = bar.tasks[tasks[collection]]
        speed, left = task.speed, task.time_remaining
        bar.update(tasks[collection], description=f"{collection}: {speed or 0:,.1f} cells/s, ETA "
                                                  f"{'-' if left is None else f'{int(left) // 60}:{int(left) % 60:02d}'}")

    return update


@contextmanager
def encode_progress(quiet: bool = False, stream=None, into: Progress | None = None) -> Iterator[None]:
    """Show encode progress for the body's duration unless quiet or `stream` (stderr) is not a terminal; `into` adds
    the rows to a live bar (the ingest command's) instead of opening a second display."""
    from pipeline.vectors.progress import reporting

    stream = stream or sys.stderr
    if quiet or not stream.isatty():
        yield
        return
    if into is not None:
        with reporting(_into(into)):
            yield
        return
    bar = Progress(TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(), _Rate(),
                   TextColumn("ETA"), TimeRemainingColumn(), console=Console(file=stream), transient=False)
    tasks: dict[str, int] = {}

    def update(collection: str, done: int, total: int) -> None:
        if collection not in tasks:
            tasks[collection] = bar.add_task(collection, total=total or None)
        bar.update(tasks[collection], completed=done, total=total or None)

    logger = logging.getLogger("paperbase.vectors")
    level = logger.level
    logger.setLevel(max(level, logging.WARNING))  # the bar replaces the per-batch info lines
    try:
        with bar, reporting(update):
            yield
    finally:
        logger.setLevel(level)
