"""Encode -> check -> search on two short corpus papers, with BM25 and the bundled MiniLM (offline), on Milvus Lite
and on the real Milvus server (tests/vectors/conftest.py `server_minilm`; a server without sparse vectors refuses BM25 and holds MiniLM)."""
from __future__ import annotations

import pytest

from tests.vectors.vechelpers import BM25, MINILM, Engine, fresh_dir, lite_minilm_copy, make_settings

from pipeline.vectors import check, encode_papers, render_vectorstore_prompt, search
from pipeline.vectors.cells import counts
from pipeline.store import Store


@pytest.fixture(scope="module", params=["lite", "server"])
def encoded(request, base_db, tmp_path_factory):
    if request.param == "server":  # encoded once per test process, shared with test_milvus_engine
        return request.getfixturevalue("server_minilm")[:3]
    settings, report, _ = lite_minilm_copy(request.getfixturevalue("lite_minilm_built"), tmp_path_factory.mktemp("enc"))
    return settings, report, Engine("lite")


def _cells(settings) -> int:
    with Store(settings.duckdb_path).reading() as con:
        return sum(counts(con, "text").values())


def _known_chunk(settings):
    rows = Store(settings.duckdb_path).query(
        "SELECT CAST(chunk_id AS VARCHAR) AS pk, CAST(ref_paper_id AS VARCHAR) AS pdf, text_content FROM chunks "
        "WHERE length(text_content) > 600 ORDER BY chunk_id LIMIT 1")
    return rows[0]


def test_encode_fills_bm25_and_minilm_and_check_is_clean(encoded):
    settings, report, engine = encoded
    assert report.status == "ok", report.to_json()
    by_name = {c.collection: c for c in report.collections}
    n = _cells(settings)
    assert n > 50
    # BM25 reads whole cells; MiniLM stores one vector per <=256-piece window, so long cells have several
    assert by_name[MINILM].vectors_inserted > n
    if engine.sparse:
        assert by_name[BM25].vectors_inserted == n
    else:  # refused before any work, with the minimum version; check leaves it out with that line, owes nothing
        assert by_name[BM25].status == "skipped" and "need Milvus >= 2.4" in by_name[BM25].message
    notes: list[str] = []
    assert check(settings, notes=notes) == []
    assert any("need Milvus >= 2.4" in n and "not checked" in n for n in notes) == (not engine.sparse), notes


def test_encoding_again_inserts_nothing(encoded):
    settings, _, engine = encoded
    again = encode_papers(settings)
    assert again.inserted == 0
    assert {c.collection: c.status for c in again.collections} == \
        {BM25: "unchanged" if engine.sparse else "skipped", MINILM: "unchanged"}


@pytest.mark.parametrize("collection", [BM25, MINILM])
def test_phrase_from_a_chunk_finds_that_chunk_first(encoded, collection):
    settings, _, engine = encoded
    if collection == BM25:
        engine.needs_sparse()
    chunk = _known_chunk(settings)
    words = chunk["text_content"].split()
    phrase = " ".join(words[len(words) // 3 : len(words) // 3 + 25])
    hits = search(settings, phrase, collection, table_name="chunks", column_name="text_content", limit=3)
    assert hits and hits[0].primary_key == chunk["pk"]
    assert hits[0].text == chunk["text_content"] and hits[0].pdf_id == chunk["pdf"] and hits[0].page_number >= 1


def test_pdf_id_filter_restricts_results(encoded):
    settings, _, engine = encoded
    papers = [r["p"] for r in Store(settings.duckdb_path).query("SELECT CAST(paper_id AS VARCHAR) p FROM metadata")]
    for pdf in papers:
        hits = search(settings, "language models privacy retrieval", engine.text(MINILM), filter=f"pdf_id == '{pdf}'",
                      limit=10)
        assert hits and {h.pdf_id for h in hits} == {pdf}


def test_prompt_lists_the_collections_that_exist(encoded):
    settings, _, engine = encoded
    text = render_vectorstore_prompt(settings)
    assert (BM25 in text) == engine.sparse and MINILM in text and "image_clip" not in text and "bounding_box" not in text
