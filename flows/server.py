"""A Prefect API for scheduled runs. Prefect's ephemeral mode cannot schedule (it has no scheduler service), so
`paperbase serve` without PREFECT_API_URL starts a local `prefect server start` on PREFECT_HOME's database for as
long as it serves, and stops it (its whole process group) on exit."""
from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx

from flows.env import SERVED_API_FILE, prefect_home
from pipeline.locks import file_lock


def free_port(preferred: int = 4200) -> int:
    for port in (preferred, 0):
        with socket.socket() as sock:
            try:
                sock.bind(("127.0.0.1", port))
            except OSError:
                continue
            return sock.getsockname()[1]
    raise RuntimeError("no free TCP port")


def wait_healthy(url: str, proc: subprocess.Popen | None, timeout: float, log: Path | None = None) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc is not None and proc.poll() is not None:
            tail = log.read_text()[-2000:] if log and log.exists() else ""
            raise RuntimeError(f"prefect server exited with {proc.returncode}:\n{tail}")
        try:
            if httpx.get(f"{url}/health", timeout=2).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.5)
    raise TimeoutError(f"Prefect API {url} not healthy after {timeout:.0f}s")


def _stop(proc: subprocess.Popen) -> None:
    if proc.poll() is not None:
        return
    os.killpg(proc.pid, signal.SIGTERM)  # the server starts its own children (uvicorn, services)
    try:
        proc.wait(30)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()


@contextmanager
def prefect_api(log_dir: Path, port: int | None = None, timeout: float = 300.0) -> Iterator[str]:
    """Yield a Prefect API URL: PREFECT_API_URL when set, else a local server started for the duration."""
    from prefect.settings import PREFECT_API_URL, temporary_settings

    url = PREFECT_API_URL.value()
    if url:
        yield url
        return
    port = port or free_port()
    url = f"http://127.0.0.1:{port}/api"
    log_dir.mkdir(parents=True, exist_ok=True)
    log = log_dir / "prefect-server.log"
    cmd = [sys.executable, "-m", "prefect", "server", "start", "--host", "127.0.0.1", "--port", str(port)]
    # Same start lock as the ephemeral servers of `paperbase ingest`: they share the SQLite database and must not
    # run its migrations at the same time.
    with file_lock(prefect_home() / ".paperbase-ephemeral.lock", timeout=600, what="Prefect start lock"):
        with open(log, "ab") as out:
            proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
        try:
            wait_healthy(url, proc, timeout, log)
        except BaseException:
            _stop(proc)
            raise
    os.environ["PREFECT_API_URL"] = url  # flow-run subprocesses started by the runner inherit it
    served = log_dir / SERVED_API_FILE  # a one-off `paperbase ingest` of this data dir records its run here too
    try:
        served.write_text(url)
        with temporary_settings({PREFECT_API_URL: url}):
            yield url
    finally:
        os.environ.pop("PREFECT_API_URL", None)
        served.unlink(missing_ok=True)
        _stop(proc)
