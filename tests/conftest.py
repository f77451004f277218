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

# Modules that take longest (seconds of a serial run, tests/durations in the README's test note), collected first so
# that under pytest-xdist (./run-tests runs one worker more than the cores, --dist loadscope) the long ones start at
# once and the short ones fill the gaps at the end: longest-first keeps the last worker from finishing minutes after
# the others.
SLOW_FIRST = [
    "tests/state/test_kill_and_interrupt.py", "tests/state/test_finished_means_finished.py",
    "tests/state/test_vanished_files.py", "tests/state/test_readers_and_writers.py", "tests/vectors/test_onnx.py",
    "tests/flows/test_flow_concurrency.py", "tests/vectors/test_retrieval.py", "tests/vectors/test_bm25_idf.py",
    "tests/vectors/test_stored_text.py", "tests/vectors/test_index.py", "tests/agent/test_cli.py",
    "tests/vectors/test_external_kill.py", "tests/flows/test_flow_cli.py", "tests/vectors/test_lifecycle.py",
    "tests/flows/test_flow_schedule.py", "tests/evaluate/test_mcp.py", "tests/flows/test_flow_ingest.py",
    "tests/zoo/test_zoo.py",
]


def pytest_collection_modifyitems(config, items):
    """Slowest modules first (a stable sort: the order inside a module, and of the other modules, is unchanged)."""
    rank = {name: i for i, name in enumerate(SLOW_FIRST)}
    items.sort(key=lambda item: rank.get(item.nodeid.split("::", 1)[0], len(rank)))


# Modules that share a session fixture that is slow to build and cannot be copied: each group is one unit of work
# under `--dist loadscope` (one worker runs its modules, in order), instead of each worker that gets one of them
# building it again. tests/flows: the Prefect test server (about 30 s to start). The server MiniLM group:
# `server_minilm` (tests/vectors/conftest.py), the two papers encoded into a database on the real Milvus server
# (35 s; it was built twice when these modules landed on different workers).
ONE_WORKER = (("tests/flows/",),
              ("tests/vectors/test_index.py", "tests/vectors/test_retrieval.py", "tests/vectors/test_milvus_engine.py"))


def pytest_xdist_make_scheduler(config, log):
    if config.getoption("dist", None) != "loadscope":
        return None
    from xdist.scheduler import LoadScopeScheduling

    class GroupScopes(LoadScopeScheduling):
        def _split_scope(self, nodeid: str) -> str:
            group = next((g for g in ONE_WORKER if nodeid.startswith(g)), None)
            return group[0] if group else super()._split_scope(nodeid)

    return GroupScopes(config, log)


@pytest.fixture(scope="session", autouse=True)
def shared_model_cache(tmp_path_factory):
    """Export the ONNX encoders once per test run, not once per data dir (subprocesses inherit the variable). Under
    pytest-xdist the workers share one folder beside their own temp roots: files are written under a per-process
    temporary name and renamed (pipeline/vectors/onnxenc.py), so two workers exporting at once cannot tear a file."""
    import os

    if not os.environ.get("PYTEST_XDIST_WORKER"):
        path = tmp_path_factory.mktemp("onnx-models")
    else:
        path = tmp_path_factory.getbasetemp().parent / "onnx-models"
        path.mkdir(exist_ok=True)
    os.environ["PAPERBASE_VECTORS__MODEL_CACHE"] = str(path)
    yield path
    os.environ.pop("PAPERBASE_VECTORS__MODEL_CACHE", None)


def built_once(tmp_path_factory, name: str, build) -> Path:
    """A folder `build(folder)` fills, built once per test run and shared by the pytest-xdist workers (a lock, then a
    folder beside their temp roots, like the ONNX cache above); each worker gets its own copy, so no two processes
    ever open one DuckDB file or Milvus Lite store. Why: a session fixture is otherwise built once per worker, and
    the agent tests' corpus store took 45-60 s per build. A copy changes paths: a store whose ledger paths a test
    relies on (the state tests' small store) is not for this. Without xdist it is simply built in a temp folder.
    A build that fails (or skips) leaves nothing marked done: the next worker tries again and fails alike."""
    import os
    import shutil

    if not os.environ.get("PYTEST_XDIST_WORKER"):
        folder = tmp_path_factory.mktemp(name)
        build(folder)
        return folder
    from filelock import FileLock

    shared = tmp_path_factory.getbasetemp().parent / "built-once" / name
    shared.parent.mkdir(exist_ok=True)
    with FileLock(str(shared) + ".lock"):
        if not (shared / ".built").exists():
            shutil.rmtree(shared, ignore_errors=True)
            shared.mkdir()
            build(shared)
            (shared / ".built").touch()
    mine = tmp_path_factory.mktemp(name)
    shutil.copytree(shared, mine, symlinks=True, dirs_exist_ok=True)
    return mine


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
    from tests.milvus_engine import database

    with database(milvus_engine_root, "t_" + request.node.name) as uri:
        yield uri
