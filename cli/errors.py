"""One line per failure: what happened and what to do, for every error a user can cause or meet.

The full traceback goes to a log file (`<data dir>/paperbase.log`, or the temp dir when the data dir cannot be
written), or to the screen with `--debug` (anywhere on the command line) or PAPERBASE_DEBUG=1.

Exit codes (README): 0 everything asked for succeeded; 1 some files or stages failed (the summary says which and
why), or the command could not do its work (no database, store busy, bad query); 2 usage or configuration error;
130 interrupted (Ctrl-C); 143 terminated (SIGTERM: `kill`, `docker stop`), handled like Ctrl-C.
"""
from __future__ import annotations

import datetime
import errno
import os
import sys
import tempfile
import traceback
from pathlib import Path

OK, FAILED, USAGE, INTERRUPTED, TERMINATED = 0, 1, 2, 130, 143


def classify(exc: BaseException) -> tuple[int, str]:
    """(exit code, one-line message) for an exception that escaped a command."""
    from pipeline.config import ConfigError
    from pipeline.read import ReadError
    from pipeline.store.errors import StoreBusy, StoreMissing
    from pipeline.vectors.errors import StoreLocked, VectorError

    text = " ".join(str(exc).split())
    if isinstance(exc, ConfigError):
        return USAGE, f"configuration error: {text}"
    if isinstance(exc, (StoreBusy, StoreLocked)):
        return FAILED, f"{text} (another paperbase process is writing; try again when it has finished)"
    if isinstance(exc, (StoreMissing, ReadError, VectorError)):
        return FAILED, text
    if isinstance(exc, OSError) and exc.errno == errno.EROFS:
        return FAILED, (f"read-only file system: {exc.filename or text} (this command writes to the data dir; give a "
                        "writable one with --data-dir)")
    if isinstance(exc, OSError) and exc.errno in (errno.ENOSPC, errno.EDQUOT):
        return FAILED, f"no space left on device: {exc.filename or text} (free some space, then run the command again)"
    if isinstance(exc, PermissionError):
        return FAILED, f"permission denied: {exc.filename or text} (check the data dir's owner and mode, or pass --data-dir)"
    if isinstance(exc, NotADirectoryError):
        return FAILED, f"not a directory: {exc.filename or text} (--data-dir must name a directory)"
    if isinstance(exc, OSError) and exc.strerror:
        return FAILED, f"{exc.strerror}: {exc.filename or text}"
    milvus = _milvus_message(exc)
    if milvus:
        return FAILED, milvus
    database = _duckdb_message(exc)
    if database:
        return FAILED, database
    return FAILED, f"internal error: {type(exc).__name__}: {text}"


def _milvus_message(exc: BaseException) -> str | None:
    try:
        from pymilvus.exceptions import MilvusException
    except ImportError:  # pragma: no cover
        return None
    if not isinstance(exc, MilvusException):
        return None
    from pymilvus.exceptions import ConnectError, ConnectionNotExistException, MilvusUnavailableException

    message = " ".join(str(getattr(exc, "message", exc)).split())
    if "No space left on device" in message:
        return f"Milvus: {message} (free some space, then run the command again: it completes what was left)"
    if any(mark in message.lower() for mark in _DAMAGE):
        return (f"Milvus: {message} (a file of the vector store is damaged; `paperbase rebuild` re-creates the "
                "collections from DuckDB, no PDF is parsed again)")
    unreachable = isinstance(exc, (ConnectError, ConnectionNotExistException, MilvusUnavailableException)) or any(
        word in message.lower() for word in ("connect", "unavailable", "deadline exceeded", "timed out"))
    if unreachable:  # only then is the server the likely cause; a refused expression or field is named as it is
        return f"Milvus: {message} (is the server at --milvus-uri running and reachable?)"
    return f"Milvus refused the request: {message}"


_DAMAGE = ("corrupt", "magic bytes", "could not open parquet", "file is too small", "invalid ipc", "not a parquet")


def _duckdb_message(exc: BaseException) -> str | None:
    """DuckDB's own errors that a user can meet (a damaged or foreign database file, a full disk) in one line."""
    import duckdb

    if not isinstance(exc, duckdb.Error):
        return None
    text = " ".join(str(exc).split())
    if "not a valid DuckDB database file" in text or "Corrupt" in text or "checksum" in text.lower():
        return (f"DuckDB: {text} (the database file is damaged or not paperbase's: restore it from a backup, or move it "
                "aside and run `paperbase ingest` again)")
    if "No space left on device" in text:
        return f"DuckDB: {text} (free some space, then run the command again)"
    if isinstance(exc, (duckdb.IOException, duckdb.PermissionException)):
        return f"DuckDB: {text}"
    return None


def debug_requested(argv: list[str]) -> bool:
    """`--debug` anywhere on the command line (removed from argv) or PAPERBASE_DEBUG=1."""
    found = "--debug" in argv
    while "--debug" in argv:
        argv.remove("--debug")
    return found or os.environ.get("PAPERBASE_DEBUG", "") not in ("", "0")


def data_dir_of(argv: list[str]) -> Path:
    for i, arg in enumerate(argv):
        if arg == "--data-dir" and i + 1 < len(argv):
            return Path(argv[i + 1])
        if arg.startswith("--data-dir="):
            return Path(arg.split("=", 1)[1])
    return Path(os.environ.get("PAPERBASE_DATA_DIR", "data"))


def write_log(exc: BaseException, data_dir: Path) -> Path | None:
    """Append the traceback to the first writable log location; None when none is."""
    text = "".join(traceback.format_exception(exc))
    stamp = datetime.datetime.now().isoformat(timespec="seconds")
    for folder in (data_dir, Path(tempfile.gettempdir()) / "paperbase"):
        path = folder / "paperbase.log"
        try:
            if not folder.is_dir():
                if folder != data_dir:
                    folder.mkdir(parents=True, exist_ok=True)
                else:
                    continue
            with open(path, "a", encoding="utf-8") as fh:
                fh.write(f"--- {stamp} paperbase {' '.join(sys.argv[1:])}\n{text}\n")
            return path
        except OSError:
            continue
    return None
