"""The one parser worker pool: PDFs are parsed in spawned processes (not forked: torch and onnxruntime threads do not
survive fork) while the caller's threads store the results.

A PDF that kills its parser process (a MuPDF segfault) breaks the pool and every file in flight with it. Those files
are parsed again, each alone in a one-off process, so only the file that really crashes the parser fails, with a
final `parse_error` outcome; the pool is replaced for the others. Nothing here raises for bad input.
"""
from __future__ import annotations

import multiprocessing
import threading
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path

from pipeline.document import ParsedPaper
from pipeline.parse import ParseOptions
from pipeline.parse import progress as parse_progress

Outcome = tuple[ParsedPaper | None, str | None, float]  # (paper, error message, seconds)
CRASHED = "parse_error: the parser process crashed on this file"

# Set when the process is asked to stop (Ctrl-C, SIGTERM: the CLI sets it). Files not yet parsed are then not
# started: a runner whose tasks all wait for a parser slot (Prefect's task threads) finishes with the files in
# flight instead of parsing the rest of the folder first.
STOP = threading.Event()


class Interrupted(Exception):
    """The run was asked to stop before this file was parsed (not recorded: the next run parses it)."""


def parse_one(path: str, options: ParseOptions) -> Outcome:
    """Worker entry point: (paper, error message, seconds). Never raises for bad input."""
    from pipeline.parse import ParseError, parse_pdf

    t0 = time.perf_counter()
    try:
        paper = parse_pdf(Path(path), options)
        return paper, None, time.perf_counter() - t0
    except ParseError as exc:
        return None, str(exc), time.perf_counter() - t0
    except Exception as exc:  # a parser bug must not take the folder down either
        return None, f"parse_error: {type(exc).__name__}: {exc}", time.perf_counter() - t0


class ParserPool:
    """Parser processes shared by every file of one run; `parse(path)` is safe to call from several threads.
    workers <= 1 parses in the calling thread (no process at all)."""

    def __init__(self, options: ParseOptions, workers: int, parse: Callable[[str, ParseOptions], Outcome] = parse_one):
        self.options, self.workers, self._fn = options, workers, parse
        self._pool: ProcessPoolExecutor | None = None
        self._guard = threading.Lock()
        self._slots = threading.BoundedSemaphore(max(1, workers))  # bounds in-thread parsing too
        # page progress (OCR) from the parser processes, when the caller shows it: a queue they write to and a
        # thread here that hands each message to the caller's callback
        self._pages = parse_progress.current() if workers > 1 else None
        self._queue = None
        self._listener: threading.Thread | None = None

    def parse(self, path: str) -> Outcome:
        with self._slots:
            if STOP.is_set():
                raise Interrupted("the run was interrupted before this file was parsed; the next run parses it")
            if self.workers <= 1:
                return self._fn(path, self.options)
            pool = self._current()
            try:
                return pool.submit(self._fn, path, self.options).result()
            except BrokenProcessPool:
                self._discard(pool)
                return self._isolated(path)

    def _current(self) -> ProcessPoolExecutor:
        with self._guard:
            if self._pool is None:
                self._pool = _new(self.workers, self._progress_queue())
            return self._pool

    def _progress_queue(self):
        """The queue the parser processes report page progress to (None when nobody shows it); its reader thread
        starts with the first pool. Called under the guard."""
        if self._pages is None:
            return None
        if self._queue is None:
            # a Queue, not a SimpleQueue: its put() never blocks the parser (a feeder thread writes), so a process
            # killed while holding the queue's write lock can stall the progress, never a parse
            self._queue = multiprocessing.get_context("spawn").Queue()
            self._stop = threading.Event()
            self._listener = threading.Thread(target=self._forward, args=(self._queue, self._pages, self._stop),
                                              name="parse-progress", daemon=True)
            self._listener.start()
        return self._queue

    @staticmethod
    def _forward(queue, report, stop: threading.Event) -> None:
        import queue as queues

        while not stop.is_set():
            try:
                report(*queue.get(timeout=0.2))
            except queues.Empty:
                continue
            except Exception:  # the queue closed under us, or a message the parent cannot read: progress stops,
                return  # never the parse (each message is a few bytes, one atomic pipe write, so this is unlikely)

    def _discard(self, pool: ProcessPoolExecutor) -> None:
        with self._guard:
            if self._pool is pool:
                self._pool = None
        pool.shutdown(wait=False, cancel_futures=True)

    def _isolated(self, path: str) -> Outcome:
        """Parse alone in a one-off process: a second crash is this file's own, and final."""
        with self._guard:
            queue = self._progress_queue()
        pool = _new(1, queue)
        try:
            return pool.submit(self._fn, path, self.options).result()
        except BrokenProcessPool:
            return None, CRASHED, 0.0
        finally:
            pool.shutdown(wait=False, cancel_futures=True)

    def close(self) -> None:
        with self._guard:
            pool, self._pool = self._pool, None
            queue, listener, self._queue, self._listener = self._queue, self._listener, None, None
        if pool:
            pool.shutdown(wait=True, cancel_futures=True)
        if queue is not None:  # every process has exited: what they sent is in the pipe; the listener drains it
            deadline = time.monotonic() + 2
            while listener.is_alive() and not queue.empty() and time.monotonic() < deadline:
                time.sleep(0.05)
            self._stop.set()
            listener.join(timeout=5)
            queue.close()
            queue.cancel_join_thread()

    def __enter__(self) -> ParserPool:
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def _new(workers: int, progress_queue=None) -> ProcessPoolExecutor:
    if progress_queue is None:
        return ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("spawn"))
    return ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("spawn"),
                               initializer=parse_progress.install_sink, initargs=(progress_queue,))


__all__ = ["ParserPool", "parse_one", "Outcome", "CRASHED", "STOP", "Interrupted"]
