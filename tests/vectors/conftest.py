"""Fixtures for the vector index: a small DuckDB (two short corpus papers, parsed once per session) copied into
fresh data dirs, settings with chosen collections, tiny models, and the engine a test runs on: Milvus Lite or the real
Milvus server (`engine`, `server_minilm`)."""
from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.vectors.vechelpers import (BGE, BM25, CLIP, CORPUS, MINILM, PAPERS, REPO, LITE_ONLY, Engine, fresh_dir,
                                     make_settings)


@pytest.fixture(scope="session")
def base_db(tmp_path_factory) -> Path:
    if not all((CORPUS / p).exists() for p in PAPERS):
        pytest.skip(f"corpus papers {PAPERS} are absent from {CORPUS}")
    pdfs = tmp_path_factory.mktemp("pdfs")
    for p in PAPERS:
        shutil.copy(CORPUS / p, pdfs / p)
    data = tmp_path_factory.mktemp("ingested")
    subprocess.run([str(REPO / ".venv" / "bin" / "paperbase"), "ingest", str(pdfs), "--data-dir", str(data), "--stages", "none"],
                   check=True, capture_output=True, cwd=REPO)
    return data / "paperbase.duckdb"


@pytest.fixture(scope="session")
def tiny_models(tmp_path_factory) -> dict[str, str]:
    from tests.vectors.tinymodels import build_tiny_bert, build_tiny_clip

    root = tmp_path_factory.mktemp("tiny")
    return {BGE: str(build_tiny_bert(root)), CLIP: str(build_tiny_clip(root))}


def _engine(uri: str | None) -> Engine:
    if uri is None:
        return Engine("lite")
    from pymilvus import MilvusClient

    from pipeline.vectors import server

    client = MilvusClient(uri=uri)
    try:
        client.paperbase_remote = True
        sparse = server.features(client).sparse
    finally:
        client.close()
    return Engine("server", uri, sparse)


@pytest.fixture(params=["lite", "server"])
def engine(request) -> Engine:
    """Each test once on Milvus Lite and once on the real Milvus server (a database of its own there). A test marked
    `lite_only` (a behaviour only the embedded engine has) skips its server variant with the reason; one marked
    `slow_variant` (slow, and its server path is covered by a cheaper test) runs it only with
    PAPERBASE_TEST_SERVER=all, so that the server variants add little to ./run-tests (docs/vectors.md)."""
    if request.param == "lite":
        yield _engine(None)
        return
    lite_only = request.node.get_closest_marker("lite_only")
    if lite_only:  # before the server is asked for anything
        pytest.skip(LITE_ONLY.format(what=lite_only.args[0]))
    extra = request.node.get_closest_marker("slow_variant")
    if extra and os.environ.get("PAPERBASE_TEST_SERVER") != "all":
        pytest.skip(f"server variant left out of the default subset ({extra.args[0]}); PAPERBASE_TEST_SERVER=all runs it")
    yield _engine(request.getfixturevalue("milvus_engine"))


@pytest.fixture(scope="session")
def server_minilm(base_db, tmp_path_factory, milvus_engine_root):
    """The two papers encoded with BM25 and MiniLM on the real server (BM25 refused there before 2.4), once per test
    process: MiniLM's encode is the slow part, and the server variants of test_index and test_retrieval and
    test_milvus_engine's Lite/server comparison only read it. (settings, report, engine, progress calls)."""
    from tests.milvus_engine import database

    from pipeline.vectors import encode_papers

    with database(milvus_engine_root, "s_minilm") as uri:
        engine = _engine(uri)
        settings = engine.settings(fresh_dir(base_db, tmp_path_factory.mktemp("server-minilm")), [BM25, MINILM],
                                   papers_per_batch=1)
        calls: list[tuple[str, int, int]] = []
        yield settings, encode_papers(settings, progress=lambda c, d, t: calls.append((c, d, t))), engine, calls


@pytest.fixture(scope="session")
def lite_minilm_built(base_db, tmp_path_factory) -> Path:
    """The two papers encoded with BM25 and MiniLM on Milvus Lite (one paper per batch, progress recorded), once per
    test run (tests.conftest.built_once): the lite variants of test_index and test_retrieval and test_stored_text
    each took their own copy of this encode (about 20 s each on 2 cores). A folder with `data/` and `encode.pickle`
    (the EncodeReport and the progress calls); `vechelpers.lite_minilm_copy` gives a module its own copy of it."""
    import pickle

    from tests.conftest import built_once

    from pipeline.vectors import encode_papers

    def build(folder: Path) -> None:
        settings = make_settings(fresh_dir(base_db, folder / "data"), [BM25, MINILM], papers_per_batch=1)
        calls: list[tuple[str, int, int]] = []
        report = encode_papers(settings, progress=lambda c, d, t: calls.append((c, d, t)))
        assert report.status == "ok", report.to_json()
        (folder / "encode.pickle").write_bytes(pickle.dumps((report, calls)))

    return built_once(tmp_path_factory, "lite-minilm", build)

