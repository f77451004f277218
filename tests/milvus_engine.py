"""Start a real Milvus standalone server (PyPI `milvus`: the C++ engine, embedded etcd and local storage) on loopback
for the test session, and stop it when the test run's process ends.

    python tests/milvus_engine.py DATA_DIR READY_FILE WATCH_PID

Writes `http://127.0.0.1:PORT` (or `error: ...`) to READY_FILE once the server answers, then stays until WATCH_PID (the
pytest process, or pytest-xdist's controller, so every worker shares one server) is gone or it is told to stop, and
stops the server. A separate process so that xdist workers share one server and none of them owns it.
"""
from __future__ import annotations

import os
import shutil
import signal
import sys
import time
from pathlib import Path


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def main() -> int:
    data, ready, watch = Path(sys.argv[1]), Path(sys.argv[2]), int(sys.argv[3])
    stop = []
    signal.signal(signal.SIGTERM, lambda *_: stop.append(1))
    try:
        from milvus import MilvusServer

        server = MilvusServer()
        server.set_base_dir(str(data))
        started = time.monotonic()
        server.start()
        uri = f"http://127.0.0.1:{server.listen_port}"
    except Exception as exc:  # noqa: BLE001 - the fixture skips with this line
        ready.write_text(f"error: {type(exc).__name__}: {exc}")
        return 1
    tmp = ready.with_suffix(".tmp")
    tmp.write_text(f"{uri}\n{time.monotonic() - started:.1f}")
    tmp.replace(ready)
    try:
        while not stop and _alive(watch):
            time.sleep(1)
    finally:
        server.stop()
        shutil.rmtree(data, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
