"""Fixtures for the vector index: a small DuckDB (two short corpus papers, parsed once per session) copied into
fresh data dirs, settings with chosen collections, tiny models, and a `milvus-lite server` on loopback."""
from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from tests.vectors.vechelpers import BGE, CLIP, CORPUS, PAPERS, REPO, LITE_ONLY, Engine


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


def _engine(request, uri: str | None) -> Engine:
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
    """Each test once on Milvus Lite and once on the real Milvus server (a database of its own there)."""
    if request.param == "lite":
        yield _engine(request, None)
        return
    lite_only = request.node.get_closest_marker("lite_only")
    if lite_only:  # before the server is asked for anything
        pytest.skip(LITE_ONLY.format(what=lite_only.args[0]))
    yield _engine(request, request.getfixturevalue("milvus_engine"))


@pytest.fixture(scope="module", params=["lite", "server"])
def module_engine(request) -> Engine:
    """`engine` for module-scoped stores: one database per module on the server."""
    if request.param == "lite":
        yield _engine(request, None)
        return
    from tests.milvus_engine import database

    root = request.getfixturevalue("milvus_engine_root")
    with database(root, "m_" + request.module.__name__.rsplit(".", 1)[-1]) as uri:
        yield _engine(request, uri)
