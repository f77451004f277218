"""Progress of every long stage in one live display on stderr, and the closing table of stage times.

`StageProgress` draws a row per stage: parse (files), ocr (pages, a row per scanned file while it is read),
summarize (items), encode (cells, one row per collection), each with done/total, rate and ETA; `times_table()` gives the time of each stage afterwards. Quiet under --json and when
stderr is not a terminal (logs, pipes, CI): nothing is drawn and no table is printed. The pipeline only calls
callbacks (`pipeline.vectors.progress`, `pipeline.summarize.progress`, `pipeline.parse.progress`, the ingest runner's
on_start/on_result); this
module turns them into rows and installs them for the command's duration.
"""
from __future__ import annotations

import logging
import sys
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from pathlib import Path

from rich import box
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, ProgressColumn, TextColumn
from rich.table import Column, Table
from rich.text import Text


class _Rate(ProgressColumn):
    def render(self, task) -> Text:
        speed = task.finished_speed or task.speed or task.fields.get("rate")  # the row's mean when rich has no samples
        unit = task.fields.get("unit", "cells")
        return Text(f"{speed:,.1f} {unit}/s" if speed else f"- {unit}/s", style="progress.data.speed")


class _Eta(ProgressColumn):
    """Time left from the row's mean rate since it started (known from the first batch on), counting down between
    updates: rich's own column needs two samples inside its 30 s window and showed -:--:-- through a long encode
    whose batches come minutes apart."""

    def render(self, task) -> Text:
        rate, at = task.fields.get("rate"), task.fields.get("at")
        if task.finished or not rate or task.total is None or at is None:
            return Text("-:--:--" if not task.finished else "0:00:00", style="progress.remaining")
        left = max(0.0, (task.total - task.completed) / rate - (time.perf_counter() - at))
        minutes, seconds = divmod(int(left + 0.5), 60)
        hours, minutes = divmod(minutes, 60)
        return Text(f"{hours}:{minutes:02d}:{seconds:02d}", style="progress.remaining")


class _Held(logging.Handler):
    """Keeps paperbase's warnings while the live rows are drawn (a long line printed under them was cut by the next
    redraw); they are printed once, in order and without repeats, after the rows."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.lines: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        line = record.getMessage()
        if line not in self.lines:
            self.lines.append(line)


@dataclass
class _Clock:
    stage: str
    unit: str
    started: float
    ended: float
    done: int = 0


class StageProgress:
    """One live display for a command's stages. Use as a context manager; `live` is False when quiet."""

    def __init__(self, quiet: bool = False, stream=None) -> None:
        stream = stream or sys.stderr
        self.live = not quiet and stream.isatty()
        fixed = lambda width: Column(no_wrap=True, min_width=width, max_width=width)  # noqa: E731  (never squeezed)
        self.bar = Progress(TextColumn("[bold]{task.fields[stage]}", table_column=fixed(9)), BarColumn(bar_width=12, table_column=fixed(12)),
                            MofNCompleteColumn(table_column=fixed(11)), _Rate(table_column=fixed(18)),
                            TextColumn("ETA", table_column=fixed(3)), _Eta(table_column=fixed(7)),
                            TextColumn("{task.description}", table_column=Column(no_wrap=True, overflow="ellipsis", min_width=8,
                                                                                ratio=1)),
                            # the last column takes what the terminal has left and cuts its text: a long file name
                            # used to squeeze the bar and drop the ETA instead (issue 32, a 100-column tmux pane)
                            console=Console(file=stream), disable=not self.live, transient=False, expand=True)
        self.clocks: dict[str, _Clock] = {}
        self._tasks: dict[str, int] = {}
        self._stack = ExitStack()

    def __enter__(self) -> StageProgress:
        from pipeline.parse.progress import reporting as parse_reporting
        from pipeline.summarize.progress import reporting as summarize_reporting
        from pipeline.vectors.progress import reporting as encode_reporting

        if self.live:
            self._hold_warnings()  # registered first, so it runs last: after the rows have stopped
            self._stack.enter_context(self.bar)
            self._stack.enter_context(encode_reporting(self.encode))
            self._stack.enter_context(parse_reporting(self.pages))
            self._stack.enter_context(summarize_reporting(self.summarize))
            logger = logging.getLogger("paperbase.vectors")
            level = logger.level
            logger.setLevel(max(level, logging.WARNING))  # the rows replace the per-batch info lines
            self._stack.callback(logger.setLevel, level)
        return self

    def _hold_warnings(self) -> None:
        """Route the "paperbase" logger's lines into a buffer for the display's duration, print them after it."""
        logger, held = logging.getLogger("paperbase"), _Held()
        handlers = list(logger.handlers)
        for h in handlers:
            logger.removeHandler(h)
        logger.addHandler(held)

        def release() -> None:
            logger.removeHandler(held)
            for h in handlers:
                logger.addHandler(h)
            for line in held.lines:
                self.bar.console.print(line, highlight=False, markup=False, soft_wrap=True)

        self._stack.callback(release)

    def __exit__(self, *exc) -> None:
        self._stack.close()

    def update(self, key: str, done: int, total: int | None, *, stage: str, unit: str, description: str = "") -> None:
        """Set row `key` to done/total (the row and its clock start on the first call)."""
        now = time.perf_counter()
        if key not in self._tasks:
            self._tasks[key] = self.bar.add_task(description, total=total or None, stage=stage, unit=unit)
            self.clocks[key] = _Clock(stage, unit, now, now)
        clock = self.clocks[key]
        clock.ended, clock.done = now, done
        rate = done / (now - clock.started) if now > clock.started else None
        self.bar.update(self._tasks[key], completed=done, total=total or None, description=description, rate=rate,
                        at=now)

    # the callbacks the pipeline calls
    def parse_start(self, total: int) -> None:
        self.update("parse", 0, total, stage="parse", unit="files")

    def parse_result(self, result) -> None:
        done = self.clocks["parse"].done + 1 if "parse" in self.clocks else 1
        self.update("parse", done, self.bar.tasks[self._tasks["parse"]].total if "parse" in self._tasks else None,
                    stage="parse", unit="files", description=f"{Path(result.path).name}: {result.status}")

    def pages(self, path: str, done: int, total: int) -> None:
        """Pages of one file read so far by a slow per-page step (OCR): a row of its own while the file is parsed."""
        self.update(f"ocr:{path}", done, total, stage="ocr", unit="pages", description=Path(path).name)

    def summarize(self, done: int, total: int) -> None:
        self.update("summarize", done, total, stage="summarize", unit="items")

    def encode(self, collection: str, done: int, total: int) -> None:
        self.update(f"encode:{collection}", done, total, stage="encode", unit="cells", description=collection)

    def times_table(self) -> Table | None:
        """Seconds per stage (encode: per collection and in all); None when quiet or nothing ran."""
        if not self.live or not self.clocks:
            return None
        table = Table(title="time per stage", box=box.SIMPLE_HEAD, pad_edge=False)
        for col in ("stage", "done", "seconds", "rate"):
            table.add_column(col, justify="left" if col == "stage" else "right")
        encode = [c for k, c in self.clocks.items() if k.startswith("encode:")]
        for key, c in self.clocks.items():
            name = f"  {key.split(':', 1)[1]}" if key.startswith("encode:") else \
                f"ocr {Path(key.split(':', 1)[1]).name}" if key.startswith("ocr:") else c.stage
            if key.startswith("encode:") and c is encode[0]:
                first, last = min(e.started for e in encode), max(e.ended for e in encode)
                table.add_row("encode", f"{sum(e.done for e in encode):,} cells", f"{last - first:.1f}", "")
            seconds = c.ended - c.started
            rate = f"{c.done / seconds:,.1f} {c.unit}/s" if seconds > 0 else ""
            table.add_row(name, f"{c.done:,} {c.unit}", f"{seconds:.1f}", rate)
        return table


@contextmanager
def encode_progress(quiet: bool = False, stream=None) -> Iterator[StageProgress]:
    """Encode progress (one row per collection) for the body's duration, unless quiet or stderr is not a terminal."""
    with StageProgress(quiet, stream) as progress:
        yield progress
