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
CORPUS3 = SHARED / "corpus3"

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
needs_corpus3 = pytest.mark.skipif(
    not CORPUS3.is_dir(), reason=f"corpus3 folder {CORPUS3} is absent (it sits beside the repo in CI, not in a fresh clone)"
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


def corpus3_pdf(name: str) -> Path:
    path = CORPUS3 / name
    if not path.exists():
        pytest.skip(f"corpus3 PDF {path} is absent")
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
