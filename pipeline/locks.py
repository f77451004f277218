"""Every cross-process file lock of paperbase, in one place (POSIX `flock`).

DuckDB admits one writer process (which also shuts out readers) and Milvus Lite one process per store. Two
paperbase processes (a scheduled flow run and a manual `ingest`) serialize their writes on these locks instead
of racing on the database's own lock: `writer_lock` around each short DuckDB write (and the re-check of the
ledger just before it), `milvus_lock` around a whole Milvus Lite session.

`flock` locks belong to an open file description, so a second `open()` in the same process would block on
itself; the lock is therefore re-entrant per process (one descriptor per path, a thread lock and a depth count).
The kernel drops the lock when the process dies, so a crash never leaves a stale lock behind.
"""
from __future__ import annotations

import fcntl
import os
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from pipeline.store.errors import StoreBusy

WRITER_LOCK = ".paperbase.lock"
MILVUS_LOCK = ".milvus.lock"


class _Held:
    def __init__(self) -> None:
        self.thread_lock = threading.RLock()
        self.depth = 0
        self.fd: int | None = None


_registry: dict[str, _Held] = {}
_registry_guard = threading.Lock()


def _held(path: Path) -> _Held:
    key = str(path.resolve())
    with _registry_guard:
        return _registry.setdefault(key, _Held())


@contextmanager
def file_lock(path: Path | str, timeout: float = 300.0, *, what: str = "lock") -> Iterator[None]:
    """Hold an exclusive lock on `path` (created if missing); raise StoreBusy after `timeout` seconds."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    held = _held(path)
    deadline = time.monotonic() + timeout
    if not held.thread_lock.acquire(timeout=max(timeout, 0.0)):
        raise StoreBusy(f"{what} {path} stayed busy in this process for {timeout:.0f}s")
    try:
        if held.depth == 0:
            fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
            delay = 0.01
            while True:
                try:
                    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                    break
                except BlockingIOError:
                    if time.monotonic() >= deadline:
                        os.close(fd)
                        raise StoreBusy(f"{what} {path} stayed held by another process for {timeout:.0f}s") from None
                    time.sleep(delay)
                    delay = min(delay * 2, 0.25)
            held.fd = fd
        held.depth += 1
        try:
            yield
        finally:
            held.depth -= 1
            if held.depth == 0 and held.fd is not None:
                fcntl.flock(held.fd, fcntl.LOCK_UN)
                os.close(held.fd)
                held.fd = None
    finally:
        held.thread_lock.release()


def writer_lock(data_dir: Path | str, timeout: float = 300.0):
    """The DuckDB writer lock of a data dir: hold it around each write transaction (and the checks it depends on)."""
    return file_lock(Path(data_dir) / WRITER_LOCK, timeout, what="writer lock")


def milvus_lock(data_dir: Path | str, timeout: float = 1800.0):
    """The Milvus Lite lock of a data dir: hold it for a whole Milvus Lite session (one process per store)."""
    return file_lock(Path(data_dir) / MILVUS_LOCK, timeout, what="Milvus Lite lock")


def held_elsewhere(path: Path | str) -> bool:
    """Whether another process holds an flock on `path` right now (e.g. Milvus Lite's own LOCK file)."""
    path = Path(path)
    if not path.exists():
        return False
    fd = os.open(path, os.O_RDWR)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        fcntl.flock(fd, fcntl.LOCK_UN)
        return False
    except BlockingIOError:
        return True
    finally:
        os.close(fd)


def uses_milvus_lite(milvus_uri: str | None) -> bool:
    """Milvus Lite is the embedded default (no URI) or a local file path; a server URI needs no lock."""
    return not milvus_uri or "://" not in milvus_uri


__all__ = ["file_lock", "writer_lock", "milvus_lock", "held_elsewhere", "uses_milvus_lite", "WRITER_LOCK", "MILVUS_LOCK"]
