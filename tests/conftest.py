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
needs_shared = pytest.mark.skipif(not SHARED.is_dir(), reason=f"{SHARED} is absent (seeds/reference live beside the repo)")


def corpus_pdf(name: str) -> Path:
    path = CORPUS / name
    if not path.exists():
        pytest.skip(f"corpus PDF {path} is absent")
    return path


@lru_cache(maxsize=None)
def _parse_cached(name: str):
    from pipeline.parse import ParseOptions, parse_pdf

    return parse_pdf(corpus_pdf(name), ParseOptions())


@pytest.fixture(scope="session")
def parsed():
    """parsed("acl2020_tapas.pdf") -> ParsedPaper, parsed once per test session."""
    return _parse_cached


@pytest.fixture
def milvus_server(tmp_path):
    """`milvus-lite server` on loopback: the Milvus server path, for real, over gRPC."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    proc = subprocess.Popen([str(REPO / ".venv" / "bin" / "milvus-lite"), "server", "--data-dir", str(tmp_path / "srv"),
                             "--host", "127.0.0.1", "--port", str(port)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            break
        except OSError:
            if proc.poll() is not None:
                pytest.fail("milvus-lite server exited at start")
            time.sleep(0.3)
    yield f"http://127.0.0.1:{port}"
    proc.terminate()
    try:
        proc.wait(10)
    except subprocess.TimeoutExpired:
        proc.kill()
