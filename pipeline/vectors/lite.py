"""One Milvus Lite store, shared by every paperbase process that needs it at the same time.

Milvus Lite admits one process per store: the process that opens it runs the engine behind a gRPC server on a free
loopback port, inside that process (this is how pymilvus' embedded mode works). So the first process to open a store
publishes that port in `<store>.port` (pid + port), and every other process that finds the store held connects to the
holder's server over loopback instead of waiting for it: a `search` or the agent answers while an `ingest` encodes,
and an encode writes while a long-lived reader holds the store. Within one process, opens are reference-counted so
a nested `connect` never stops the server under another user of it.

When the holder exits, its clients see the connection drop; `pipeline.read.Reader` reconnects once (and then opens
the store itself). A process that finds the store held but nothing published (a holder starting up, or one of an
older paperbase) waits up to `vectors.lock_timeout`, then says so in one line.
"""
from __future__ import annotations

import json
import logging
import os
import socket
import threading
import time
from pathlib import Path

from pipeline.locks import held_elsewhere
from pipeline.vectors.errors import StoreLocked

_refs: dict[str, int] = {}
_guard = threading.Lock()


def _port_file(store: Path) -> Path:
    return store.with_name(store.name + ".port")


def _publish(store: Path, port: int) -> None:
    tmp = _port_file(store).with_suffix(f".{os.getpid()}.tmp")
    tmp.write_text(json.dumps({"pid": os.getpid(), "port": port, "store": os.path.realpath(store)}))
    os.replace(tmp, _port_file(store))


def _published(store: Path) -> int | None:
    """The port of a live holder's server, or None."""
    try:
        info = json.loads(_port_file(store).read_text())
        pid, port = int(info["pid"]), int(info["port"])
    except (OSError, ValueError, KeyError, TypeError):
        return None
    if pid == os.getpid():
        return None
    if info.get("store", os.path.realpath(store)) != os.path.realpath(store):
        return None  # a port file copied with the data dir (`cp -a` while a holder ran): that server serves the original
    try:
        os.kill(pid, 0)
    except OSError:
        return None
    try:
        socket.create_connection(("127.0.0.1", port), timeout=1.0).close()
    except OSError:
        return None
    return port


def _local_port(store: Path) -> int | None:
    from milvus_lite.server_manager import server_manager_instance

    entry = server_manager_instance._servers.get(os.path.abspath(store))  # noqa: SLF001 (no public accessor)
    return entry[2] if entry else None


def _writable(store: Path) -> bool:
    folder = store if store.exists() else store.parent
    return os.access(folder, os.W_OK) and not _read_only_mount(folder)


def _read_only_mount(folder: Path) -> bool:
    try:
        return bool(os.statvfs(folder).f_flag & os.ST_RDONLY)
    except OSError:
        return False


def _snapshot(store: Path) -> Path:
    """A private copy of a store that cannot be written (a read-only data dir): readers search the last committed
    state. Copied once per process (the copy is as large as the store)."""
    import hashlib
    import shutil
    import tempfile

    digest = hashlib.sha256(f"{store.resolve()}:{os.getpid()}".encode()).hexdigest()[:16]
    copy = Path(tempfile.gettempdir()) / f"paperbase-readonly-{digest}" / store.name
    if not copy.exists():
        import atexit

        shutil.copytree(store, copy, ignore=shutil.ignore_patterns("LOCK"))
        atexit.register(shutil.rmtree, copy.parent, True)
    return copy


class _EngineLog(logging.Handler):
    """Milvus Lite's engine runs in this process and logs every failed request with a traceback (a full disk, a
    corrupt segment); the client gets the same error as an exception, which paperbase reports in one line. So the
    engine's records go to `<data dir>/paperbase.log` (beside the CLI's own tracebacks), never to the screen; a log
    that cannot be written (the full disk itself) is skipped without a word."""

    def __init__(self, path: Path):
        super().__init__(logging.WARNING)
        self.path = path
        self.setFormatter(logging.Formatter("%(asctime)s milvus-lite %(levelname)s %(name)s: %(message)s"))

    def emit(self, record: logging.LogRecord) -> None:
        try:
            with open(self.path, "a", encoding="utf-8") as fh:
                fh.write(self.format(record) + "\n")
        except Exception:  # noqa: BLE001 - logging must never add a failure of its own
            pass


def _route_engine_logs(store: Path) -> None:
    engine = logging.getLogger("milvus_lite")
    engine.propagate = False
    engine.handlers = [h for h in engine.handlers if not isinstance(h, _EngineLog)]
    engine.addHandler(_EngineLog(store.parent / "paperbase.log"))


def acquire(store: Path, timeout: float) -> tuple[str, bool]:
    """(URI to connect to, whether this process holds the store). Raises StoreLocked after `timeout` seconds when
    the store is held by a process that serves nothing. A store on a read-only data dir is read from a private copy."""
    from milvus_lite.server_manager import server_manager_instance

    if store.exists() and not _writable(store):
        port = _published(store)
        if port is not None:
            return f"http://127.0.0.1:{port}", False
        store = _snapshot(store)
    key = os.path.abspath(store)
    with _guard:
        if _refs.get(key):
            port = _local_port(store)
            if port is not None:
                _refs[key] += 1
                return f"http://127.0.0.1:{port}", True
    store.parent.mkdir(parents=True, exist_ok=True)
    deadline = time.monotonic() + timeout
    while True:
        if not held_elsewhere(store / "LOCK"):
            _route_engine_logs(store)
            with _guard:
                uri = server_manager_instance.start_and_get_uri(str(store))
                if uri:
                    _refs[key] = _refs.get(key, 0) + 1
                    if _refs[key] == 1:
                        _publish(store, int(uri.rsplit(":", 1)[1]))
                    return uri, True
        port = _published(store)
        if port is not None:
            return f"http://127.0.0.1:{port}", False
        if time.monotonic() > deadline:
            raise StoreLocked(f"Milvus Lite store {store} is held by another process that does not share it; wait "
                              "for it to finish, or run `milvus-lite server` and pass --milvus-uri")
        time.sleep(0.2)


def release(store: Path, held: bool) -> None:
    """Drop one reference; the last one stops this process's server, which lets go of the store."""
    if not held:
        return
    from milvus_lite.server_manager import server_manager_instance

    if store.exists() and not _writable(store):
        store = _snapshot(store)
    key = os.path.abspath(store)
    with _guard:
        _refs[key] = _refs.get(key, 1) - 1
        if _refs[key] > 0:
            return
        _refs.pop(key, None)
        try:
            info = json.loads(_port_file(store).read_text())
            if int(info.get("pid", -1)) == os.getpid():
                _port_file(store).unlink()
        except (OSError, ValueError):
            pass
        server_manager_instance.release_server(str(store))


__all__ = ["acquire", "release"]
