"""Encode through the ingest flow and the rebuild flow, on Milvus Lite (under the Milvus lock) and on a Milvus
server (a real `milvus-lite server` process; no lock). Only the BM25 collection: no model download or load."""
from __future__ import annotations

import shutil

import pytest

from tests.flows.flowhelpers import SMALL, pdf_folder

BM25 = "text_bm25_en"
OTHERS = ["text_sentence_transformers_all_minilm_l6_v2", "text_sentence_transformers_bge_large_en_v1_5",
          "image_clip_clip_vit_base_patch32"]


@pytest.fixture
def bm25_only(monkeypatch):
    monkeypatch.setenv("PAPERBASE_SUMMARIZE__ENABLED", "false")  # vectors only: a paper is finished without summaries
    for name in OTHERS:
        monkeypatch.setenv(f"PAPERBASE_VECTORS__COLLECTIONS__{name}__ENABLED", "false")


def _inserted(out: dict) -> int:
    return sum(c["vectors_inserted"] for c in out["collections"] if c["collection"] == BM25)


def test_ingest_encodes_then_rebuild_reencodes_from_duckdb(prefect_api, tmp_path, bm25_only, milvus_server, monkeypatch):
    pytest.importorskip("pipeline.vectors")
    from pipeline import pending
    from flows.ingest import ingest_folder
    from flows.rebuild import rebuild_collections

    folder = pdf_folder(tmp_path / "in", SMALL[:1])
    data = tmp_path / "data"
    out = ingest_folder(str(folder), data_dir=str(data), workers=1, stages=["encode"])
    encoded = out["stages"]["encode"]
    assert encoded["status"] == "ok", encoded
    assert _inserted(encoded) > 0
    assert pending.load(data) == set()
    assert (data / ".milvus.lock").exists()  # Milvus Lite: the session ran under the data dir's lock

    rebuilt = rebuild_collections([BM25], data_dir=str(data))
    assert rebuilt["status"] == "ok", rebuilt
    assert _inserted(rebuilt) == _inserted(encoded)  # same rows in DuckDB -> same vectors

    server_data = tmp_path / "server-data"
    server_data.mkdir()
    shutil.copy(data / "paperbase.duckdb", server_data / "paperbase.duckdb")
    monkeypatch.setenv("PAPERBASE_VECTORS__MILVUS_URI", milvus_server)
    on_server = rebuild_collections([BM25], data_dir=str(server_data))
    assert on_server["status"] == "ok", on_server
    assert _inserted(on_server) == _inserted(encoded)
    assert not (server_data / ".milvus.lock").exists()  # a Milvus server needs no process lock
