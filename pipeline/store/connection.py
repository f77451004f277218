"""DuckDB connections that respect the one-writer-process rule.

DuckDB locks the file for the whole life of a read-write connection and refuses every other process meanwhile
(readers included). So writers connect, commit one short transaction and disconnect; readers and writers both
retry for a while when the file is locked by another process.
"""
from __future__ import annotations

import random
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import duckdb

from pipeline.store.errors import StoreBusy

LOCK_MARKERS = ("Could not set lock", "Conflicting lock")


def _is_lock_error(exc: Exception) -> bool:
    return any(marker in str(exc) for marker in LOCK_MARKERS)


def connect(path: Path, *, read_only: bool, timeout: float = 60.0, config: dict | None = None) -> duckdb.DuckDBPyConnection:
    """Open the database, retrying with jittered backoff while another process holds the lock."""
    deadline = time.monotonic() + timeout
    delay = 0.02
    while True:
        try:
            return duckdb.connect(str(path), read_only=read_only, config=config or {})
        except duckdb.IOException as exc:
            if not _is_lock_error(exc) or time.monotonic() >= deadline:
                if _is_lock_error(exc):
                    raise StoreBusy(f"{path} stayed locked by another process for {timeout:.0f}s") from exc
                raise
            time.sleep(delay + random.random() * delay)
            delay = min(delay * 2, 0.5)


@contextmanager
def reading(path: Path, timeout: float = 60.0, config: dict | None = None) -> Iterator[duckdb.DuckDBPyConnection]:
    con = connect(path, read_only=True, timeout=timeout, config=config)
    try:
        yield con
    finally:
        con.close()


@contextmanager
def writing(path: Path, timeout: float = 60.0) -> Iterator[duckdb.DuckDBPyConnection]:
    """One transaction: committed when the block exits normally, rolled back on any exception."""
    path.parent.mkdir(parents=True, exist_ok=True)
    con = connect(path, read_only=False, timeout=timeout)
    try:
        con.execute("BEGIN TRANSACTION")
        try:
            yield con
        except BaseException:
            con.execute("ROLLBACK")
            raise
        con.execute("COMMIT")
    finally:
        con.close()
