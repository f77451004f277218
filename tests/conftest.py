"""Shared fixtures. Corpus tests read ../shared/corpus and skip with a clear reason when it is absent."""
from __future__ import annotations

import socket
import subprocess
import time
from functools import lru_cache
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
CORPUS = REPO.parent / "shared" / "corpus"
SHARED = REPO.parent / "shared"
CORPUS2 = SHARED / "corpus2"

@pytest.fixture(scope="session", autouse=True)
def shared_model_cache(tmp_path_factory):
    """Export the ONNX encoders once per test session, not once per data dir (subprocesses inherit the variable)."""
    import os

    path = tmp_path_factory.mktemp("onnx-models")
    os.environ["PAPERBASE_VECTORS__MODEL_CACHE"] = str(path)
    yield path
    os.environ.pop("PAPERBASE_VECTORS__MODEL_CACHE", None)


needs_corpus = pytest.mark.skipif(
    not CORPUS.is_dir(), reason=f"corpus folder {CORPUS} is absent (it sits beside the repo in CI, not in a fresh clone)"
)
needs_corpus2 = pytest.mark.skipif(
    not CORPUS2.is_dir(), reason=f"corpus2 folder {CORPUS2} is absent (it sits beside the repo in CI, not in a fresh clone)"
)
needs_shared = pytest.mark.skipif(not SHARED.is_dir(), reason=f"{SHARED} is absent (seeds/reference live beside the repo)")


def corpus_pdf(name: str) -> Path:
    path = CORPUS / name
    if not path.exists():
        pytest.skip(f"corpus PDF {path} is absent")
    return path


def corpus2_pdf(name: str) -> Path:
    path = CORPUS2 / name
    if not path.exists():
        pytest.skip(f"corpus2 PDF {path} is absent")
    return path


def any_pdf(name: str) -> Path:
    """A PDF of corpus/ or corpus2/ by file name."""
    return corpus2_pdf(name) if (CORPUS2 / name).exists() else corpus_pdf(name)


@lru_cache(maxsize=None)
def _parse_cached(name: str):
    from pipeline.parse import ParseOptions, parse_pdf

    return parse_pdf(any_pdf(name), ParseOptions())


@pytest.fixture(scope="session")
def parsed():
    """parsed("acl2020_tapas.pdf") -> ParsedPaper (corpus/ or corpus2/), parsed once per test session."""
    return _parse_cached


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def wait_for_port(port: int, proc: subprocess.Popen, what: str, timeout: float = 60.0) -> None:
    """Until something listens on 127.0.0.1:port; fails the test when `proc` exits first or time runs out."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return
        except OSError:
            if proc.poll() is not None:
                pytest.fail(f"{what} exited at start")
            time.sleep(0.2)
    pytest.fail(f"{what} did not listen on port {port} within {timeout:.0f} s")


@pytest.fixture
def milvus_server(tmp_path):
    """`milvus-lite server` on loopback: the Milvus server path, for real, over gRPC."""
    port = free_port()
    proc = subprocess.Popen([str(REPO / ".venv" / "bin" / "milvus-lite"), "server", "--data-dir", str(tmp_path / "srv"),
                             "--host", "127.0.0.1", "--port", str(port)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    wait_for_port(port, proc, "milvus-lite server")
    yield f"http://127.0.0.1:{port}"
    proc.terminate()
    try:
        proc.wait(10)
    except subprocess.TimeoutExpired:
        proc.kill()


MILVUS_ENGINE_TIMEOUT = 450.0  # seconds to wait for the real server (21 s idle; over 180 s on a loaded 2-core machine)


@pytest.fixture(scope="session")
def milvus_engine_root(tmp_path_factory) -> str:
    """A real Milvus standalone server (PyPI `milvus`, the C++ engine) on loopback, started once per test run and
    shared by pytest-xdist's workers (tests/milvus_engine.py); its base URI. PAPERBASE_TEST_MILVUS_URI names a server
    already running instead. Skips with the reason where none can start (the `milvus` package is not installed,
    a platform it has no binary for, no free port)."""
    import os
    import sys

    given = os.environ.get("PAPERBASE_TEST_MILVUS_URI")
    if given:
        return given.rstrip("/")
    try:
        import milvus  # noqa: F401
    except ImportError:
        pytest.skip("the `milvus` package (embedded Milvus server) is not installed: part of the [test] extra (./run-tests installs it)")
    from filelock import FileLock

    shared = tmp_path_factory.getbasetemp().parent if os.environ.get("PYTEST_XDIST_WORKER") else \
        tmp_path_factory.getbasetemp()
    ready = shared / "milvus-engine.uri"
    watch = os.getppid() if os.environ.get("PYTEST_XDIST_WORKER") else os.getpid()
    with FileLock(str(shared / "milvus-engine.lock")):
        if not ready.exists() and not (shared / "milvus-engine.started").exists():
            (shared / "milvus-engine.started").write_text(str(watch))
            subprocess.Popen([sys.executable, str(REPO / "tests" / "milvus_engine.py"), str(shared / "milvus-engine"),
                              str(ready), str(watch)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                             start_new_session=True)
    deadline = time.monotonic() + MILVUS_ENGINE_TIMEOUT
    while not ready.exists():
        if time.monotonic() > deadline:
            pytest.skip(f"the embedded Milvus server did not start within {MILVUS_ENGINE_TIMEOUT:.0f} s")
        time.sleep(0.5)
    line = ready.read_text().splitlines()[0]
    if line.startswith("error:"):
        pytest.skip(f"the embedded Milvus server could not start: {line[6:].strip()}")
    return line


@pytest.fixture
def milvus_engine(milvus_engine_root, request) -> str:
    """A URI on the real Milvus server naming a database of this test's own (the server is shared by the session;
    Milvus 2.3 allows 64 databases), dropped with everything in it afterwards."""
    import re
    import uuid

    from pymilvus import MilvusClient

    db = "t_" + re.sub(r"\W", "_", request.node.name)[:40] + "_" + uuid.uuid4().hex[:6]
    admin = MilvusClient(uri=milvus_engine_root)
    admin.create_database(db)
    yield f"{milvus_engine_root}/{db}"
    try:
        scoped = MilvusClient(uri=f"{milvus_engine_root}/{db}")
        for name in scoped.list_collections():
            for alias in scoped.list_aliases(name).get("aliases", []):
                scoped.drop_alias(alias)
            scoped.drop_collection(name)
        scoped.close()
        admin.drop_database(db)
    finally:
        admin.close()
