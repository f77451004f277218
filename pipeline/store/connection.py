"""DuckDB connections that respect the one-writer-process rule.

DuckDB locks the file for the whole life of a read-write connection and refuses every other process meanwhile
(readers included). So writers connect, commit one short transaction and disconnect; readers and writers both
retry for a while when the file is locked by another process.
"""
from __future__ import annotations

import logging
import random
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import duckdb

from pipeline.store.errors import StoreBusy

LOCK_MARKERS = ("Could not set lock", "Conflicting lock")
# Never resolve an unknown table name to a Python variable of the calling code (DuckDB's replacement scans): SQL
# names tables of the database, nothing else (a missing ledger table must be a CatalogException, and a model's SQL
# must not reach our objects).
BASE_CONFIG = {"python_enable_replacements": False}
WAIT_NOTICE_S = 2.0  # a lock wait longer than this is announced (the CLI shows paperbase warnings)
log = logging.getLogger("paperbase.store")


def _holder(exc: Exception) -> str:
    """Who holds the file, from DuckDB's message ("... Conflicting lock is held in /usr/bin/python3 (PID 123)")."""
    import re

    m = re.search(r"held in (.+?) \(PID (\d+)\)", str(exc))
    return f"process {m[2]} ({m[1]})" if m else "another process"


def _is_lock_error(exc: Exception) -> bool:
    return any(marker in str(exc) for marker in LOCK_MARKERS)


def writer_waiting(path: Path) -> Path:
    """The marker a writer keeps fresh while it waits for the file: long-lived readers (`pipeline.read.Reader`) let go
    of their connection when they see it, so a writer never waits for an idle reader."""
    return path.with_name(path.name + ".writer-waiting")


def connect(path: Path, *, read_only: bool, timeout: float = 60.0, config: dict | None = None) -> duckdb.DuckDBPyConnection:
    """Open the database, retrying with jittered backoff while another process holds the lock. A writer that has to
    wait raises the writer-waiting marker for the time it waits."""
    start = time.monotonic()
    deadline = start + timeout
    delay, said = 0.02, False
    marker = None if read_only else writer_waiting(path)
    while True:
        try:
            con = duckdb.connect(str(path), read_only=read_only, config={**BASE_CONFIG, **(config or {})})
            if marker is not None:
                marker.unlink(missing_ok=True)
            return con
        except duckdb.IOException as exc:
            if marker is not None and _is_lock_error(exc):
                try:
                    marker.touch()
                except OSError:  # a read-only place: nothing to signal
                    marker = None
            if not _is_lock_error(exc) or time.monotonic() >= deadline:
                if marker is not None:
                    marker.unlink(missing_ok=True)
                if _is_lock_error(exc):
                    raise StoreBusy(f"{path} stayed locked by another process for {timeout:.0f} s "
                                    f"({_holder(exc)}); close it or try again later") from exc
                raise
            if not said and time.monotonic() - start > WAIT_NOTICE_S:  # say what we wait for, once
                log.warning("waiting up to %.0f s for %s: %s has it open", timeout, path, _holder(exc))
                said = True
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
