"""Prefect tasks: thin wrappers over the runner's per-file step and the downstream stage functions.

Retries are for transient trouble only, decided by type (`pipeline.results.RetryableError`, connection failures,
retryable HTTP statuses); a PDF that cannot be parsed is a final, recorded result and never an exception. Results are
never cached or persisted by Prefect: the ledger (and the stages' own bookkeeping) decides what is still to do.
"""
from __future__ import annotations

from typing import Any

import httpx

from prefect import task
from prefect.cache_policies import NO_CACHE

from pipeline import stages
from pipeline.config import Settings
from pipeline.ingest import FileResult, Task, ingest_file
from pipeline.results import RetryableError
from pipeline.workers import ParserPool



def _import_pymilvus() -> None:
    """pymilvus configures logging (logging.config.dictConfig) when it is first imported. Imported inside a running
    task, that flushes Prefect's API log handler, whose worker thread can be waiting for the import lock the task
    holds: the run hangs (seen: an ingest stuck for 40 minutes in the encode stage). So it is imported with this
    module, before any flow runs. A Ctrl-C during that import is held and raised right after it, so the import
    machinery cannot absorb it (in the main thread only: elsewhere signals cannot be handled)."""
    import signal
    import threading

    if threading.current_thread() is not threading.main_thread():
        import pymilvus  # noqa: F401
        return
    pressed: list[int] = []
    previous = signal.signal(signal.SIGINT, lambda *_: pressed.append(1))
    try:
        import pymilvus  # noqa: F401
    finally:
        signal.signal(signal.SIGINT, previous)
    if pressed:
        raise KeyboardInterrupt


_import_pymilvus()

RETRIES = 2
RETRY_DELAYS = [2.0, 10.0]


def is_transient(exc: BaseException | None) -> bool:
    """Worth retrying: the same input may well succeed on the next attempt."""
    if exc is None:
        return False
    if isinstance(exc, (RetryableError, ConnectionError, TimeoutError, httpx.TransportError)):
        return True
    if isinstance(exc, httpx.HTTPStatusError):
        return exc.response.status_code in (408, 429) or exc.response.status_code >= 500
    return False


def retry_transient(task_: Any, task_run: Any, state: Any) -> bool:
    """Prefect retry_condition_fn: retry only transient errors."""
    exc = state.data if isinstance(state.data, BaseException) else state.result(raise_on_failure=False)
    return is_transient(exc if isinstance(exc, BaseException) else None)


_RETRYING = dict(retries=RETRIES, retry_delay_seconds=RETRY_DELAYS, retry_condition_fn=retry_transient,
                 cache_policy=NO_CACHE, persist_result=False)


@task(name="ingest-pdf", task_run_name="ingest {work.path.name}", **_RETRYING)
def ingest_pdf(work: Task, settings: Settings, parser: ParserPool) -> FileResult:
    """Parse one PDF and store it (the runner's per-file step)."""
    return ingest_file(work, settings, parser)


@task(name="summarize", **_RETRYING)
def summarize_stage(settings: Settings, paper_ids: list[str] | None = None) -> dict:
    """Fill missing summaries (None: of every paper, which also catches up after a crash)."""
    return stages.summarize(settings, paper_ids)


@task(name="encode", **_RETRYING)
def encode_stage(settings: Settings, paper_ids: list[str] | None = None, collections: list[str] | None = None,
                 rebuild: bool = False) -> dict:
    """Encode stale papers into Milvus (or drop and rebuild collections)."""
    return stages.encode(settings, paper_ids, collections, rebuild)
