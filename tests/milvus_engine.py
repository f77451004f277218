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
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

START_TIMEOUT_S = 420  # 21 s on an idle machine; a 2-core machine shared by several test runs needed over 180 s


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _own_etcd_ports(server) -> None:
    """Give the embedded etcd a free peer port: the package templates its client port only, so a second embedded
    server on the machine (another test run, a bench) fails on 127.0.0.1:2380. Milvus reads an etcd config file
    named by `etcd.config.path`; it is written next to milvus.yaml once the package has resolved its ports."""
    import socket

    config = server.config
    write = config.write_config

    def write_with_etcd_file() -> None:
        write()
        with socket.socket() as sock:
            sock.bind(("127.0.0.1", 0))
            peer = sock.getsockname()[1]
        client = f"http://127.0.0.1:{config.get('etcd_port')}"
        etcd_yaml = Path(config.base_data_dir) / "configs" / "etcd.yaml"
        etcd_yaml.write_text(
            f"name: default\ndata-dir: {config.get('etcd_data_dir')}\nlisten-client-urls: {client}\n"
            f"advertise-client-urls: {client}\nlisten-peer-urls: http://127.0.0.1:{peer}\n"
            f"initial-advertise-peer-urls: http://127.0.0.1:{peer}\n"
            f"initial-cluster: default=http://127.0.0.1:{peer}\n")
        milvus_yaml = Path(config.base_data_dir) / "configs" / "milvus.yaml"
        text = milvus_yaml.read_text()
        text = text.replace("  use:\n    embed: true", f"  config:\n    path: {etcd_yaml}\n  use:\n    embed: true", 1)
        milvus_yaml.write_text(text)

    config.write_config = write_with_etcd_file


@contextmanager
def database(root: str, label: str) -> Iterator[str]:
    """A database of its own on the shared server at `root` (Milvus 2.3 allows 64 at a time), dropped with everything
    in it afterwards; yields its URI. Tests and fixtures share one server this way without seeing each other."""
    import re
    import uuid

    from pymilvus import MilvusClient

    db = re.sub(r"\W", "_", label)[:40] + "_" + uuid.uuid4().hex[:6]
    admin = MilvusClient(uri=root)
    admin.create_database(db)
    try:
        yield f"{root}/{db}"
    finally:
        try:
            scoped = MilvusClient(uri=f"{root}/{db}")
            for name in scoped.list_collections():
                try:  # Milvus 2.3 looks aliases up in the default database whatever the URI names: may fail
                    aliases = scoped.list_aliases(name).get("aliases", [])
                except Exception:  # noqa: BLE001 - pymilvus' own error types
                    aliases = []
                for alias in aliases:
                    scoped.drop_alias(alias)
                scoped.drop_collection(name)
            scoped.close()
            admin.drop_database(db)
        finally:
            admin.close()


def main() -> int:
    data, ready, watch = Path(sys.argv[1]), Path(sys.argv[2]), int(sys.argv[3])
    stop = []
    signal.signal(signal.SIGTERM, lambda *_: stop.append(1))
    try:
        from milvus import MilvusServer

        server = MilvusServer(wait_for_started=False)
        server.set_base_dir(str(data))
        _own_etcd_ports(server)
        started = time.monotonic()
        server.start()
        server.wait_started(timeout=START_TIMEOUT_S * 1000)  # the package's own wait gives up after 180 s
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
