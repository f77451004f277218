"""Prefect tasks: thin wrappers over the plain pipeline stages.

Retries are for transient trouble only (a busy store, a crashed parser process, an HTTP/Milvus hiccup); a PDF
that cannot be parsed is a final, recorded result and never an exception. Results are never cached or persisted
by Prefect: the ledger (and the vector/summary stages' own bookkeeping) decides what is still to do.
"""
from __future__ import annotations

import multiprocessing
import threading
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

import httpx
from prefect import task
from prefect.cache_policies import NO_CACHE

from pipeline import pending, stages
from pipeline.config import Settings
from pipeline.document import Status
from pipeline.ingest import FileResult, Task, parse_one, still_needed, store_result
from pipeline.parse.base import ParseOptions
from pipeline.store import Store, StoreBusy

RETRIES = 2
RETRY_DELAYS = [2.0, 10.0]
_TRANSIENT_NAMES = {"StoreLocked", "MilvusUnavailableException"}  # matched by name: no heavy imports here


class TransientError(RuntimeError):
    """Worth retrying: the same input may well succeed on the next attempt."""


class ParserCrashed(TransientError):
    """A parser process died (e.g. a MuPDF segfault); retried on a fresh pool, then recorded as failed."""


def is_transient(exc: BaseException | None) -> bool:
    if exc is None:
        return False
    if isinstance(exc, (TransientError, StoreBusy, ConnectionError, TimeoutError, httpx.TransportError)):
        return True
    if isinstance(exc, httpx.HTTPStatusError):
        return exc.response.status_code in (408, 429) or exc.response.status_code >= 500
    return type(exc).__name__ in _TRANSIENT_NAMES or bool(getattr(exc, "retryable", False))


def retry_transient(task_: Any, task_run: Any, state: Any) -> bool:
    """Prefect retry_condition_fn: retry only transient errors."""
    exc = state.data if isinstance(state.data, BaseException) else state.result(raise_on_failure=False)
    return is_transient(exc if isinstance(exc, BaseException) else None)


class ParserPool:
    """Parser processes shared by the concurrent ingest tasks of one flow run (spawned, not forked: torch and
    onnxruntime threads do not survive fork). A crashed process breaks the pool and every file in flight with it;
    those files see ParserCrashed, the pool is replaced, and their retries parse alone in a one-off process, so
    only the file that really crashes the parser fails again. workers <= 1 parses in the task's thread."""

    def __init__(self, options: ParseOptions, workers: int, parse: Callable[[str, ParseOptions], tuple] = parse_one):
        self.options, self.workers, self._fn = options, workers, parse
        self._pool: ProcessPoolExecutor | None = None
        self._guard = threading.Lock()
        self._slots = threading.BoundedSemaphore(max(1, workers))  # bounds in-thread parsing too
        self._suspects: set[str] = set()  # files in flight when a pool broke

    def _current(self) -> ProcessPoolExecutor:
        with self._guard:
            if self._pool is None:
                self._pool = self._new(self.workers)
            return self._pool

    @staticmethod
    def _new(workers: int) -> ProcessPoolExecutor:
        return ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("spawn"))

    def parse(self, path: str) -> tuple:
        with self._slots:
            if self.workers <= 1:
                return self._fn(path, self.options)
            if path in self._suspects:
                return self._isolated(path)
            return self._pooled(path)

    def _pooled(self, path: str) -> tuple:
        pool = self._current()
        try:
            return pool.submit(self._fn, path, self.options).result()
        except BrokenProcessPool as exc:
            with self._guard:
                self._suspects.add(path)
                if self._pool is pool:
                    self._pool = None
            pool.shutdown(wait=False, cancel_futures=True)
            raise ParserCrashed(f"a parser process crashed while {path} was being parsed") from exc

    def _isolated(self, path: str) -> tuple:
        pool = self._new(1)
        try:
            return pool.submit(self._fn, path, self.options).result()
        except BrokenProcessPool as exc:
            raise ParserCrashed(f"the parser process crashed on {path} (parsed alone)") from exc
        finally:
            pool.shutdown(wait=False, cancel_futures=True)

    def close(self) -> None:
        with self._guard:
            pool, self._pool = self._pool, None
        if pool:
            pool.shutdown(wait=True, cancel_futures=True)


@task(name="ingest-pdf", task_run_name="ingest {work.path.name}", retries=RETRIES, retry_delay_seconds=RETRY_DELAYS,
      retry_condition_fn=retry_transient, cache_policy=NO_CACHE, persist_result=False)
def ingest_pdf(work: Task, settings: Settings, parser: ParserPool) -> FileResult:
    """Parse one PDF and store it (one short locked transaction). Skips work another process finished meanwhile."""
    store = Store(settings.duckdb_path)
    if not still_needed(store, work):
        return FileResult(str(work.path), Status.SKIPPED, work.previous.paper_id if work.previous else None)
    outcome = parser.parse(str(work.path))
    if outcome[0] is not None:  # marked before the write: a crash right after it still leaves the paper pending
        pending.add(settings.data_dir, [outcome[0].paper_id])
    return store_result(store, work, outcome, backend=settings.parse.backend)


def record_failure(work: Task, settings: Settings, error: str) -> FileResult:
    """A final failure (e.g. a file that kept crashing the parser): record it so later runs do not loop on it."""
    return store_result(Store(settings.duckdb_path), work, (None, error, 0.0), backend=settings.parse.backend)


@task(name="summarize", retries=RETRIES, retry_delay_seconds=RETRY_DELAYS, retry_condition_fn=retry_transient,
      cache_policy=NO_CACHE, persist_result=False)
def summarize_stage(settings: Settings, paper_ids: list[str] | None = None) -> dict:
    """Fill missing summaries (None: of every paper, which also catches up after a crash)."""
    out = stages.summarize(settings, paper_ids)
    if out.get("aborted"):
        raise TransientError(f"summaries: {out['aborted']}")
    if out.get("status") == "failed" and out.get("errors"):
        raise TransientError(f"summaries failed: {out['errors'][0]}")
    return out


@task(name="encode", retries=RETRIES, retry_delay_seconds=RETRY_DELAYS, retry_condition_fn=retry_transient,
      cache_policy=NO_CACHE, persist_result=False)
def encode_stage(settings: Settings, paper_ids: list[str] | None = None, collections: list[str] | None = None,
                 rebuild: bool = False) -> dict:
    """Encode stale papers into Milvus (or drop and rebuild collections)."""
    out = stages.encode(settings, paper_ids, collections, rebuild)
    transient = [e for e in out["errors"] if _looks_transient(e)]
    if transient:
        raise TransientError(f"vectors: {transient[0]}")
    return out


def _looks_transient(message: str) -> bool:
    return any(m in message for m in ("held by another process", "UNAVAILABLE", "Connection refused", "timed out"))
