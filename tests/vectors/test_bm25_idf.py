"""BM25 IDF from the documents a search ranks (pipeline/vectors/search.py, ledger.bm25_paper_df): a search whose
filter pins papers weighs its terms by those papers' statistics; one that pins none, or `bm25_idf = "library"`,
by the whole library. Real DuckDB and Milvus Lite over two corpus papers."""
from __future__ import annotations

import duckdb
import pytest

from pipeline.vectors import bm25, encode_papers, ledger, search

from tests.vectors.vechelpers import BM25, fresh_dir, make_settings

WORD = "retrieval"  # frequent in the RAG excerpt, present in the library


@pytest.fixture(scope="module")
def store(base_db, tmp_path_factory):
    settings = make_settings(fresh_dir(base_db, tmp_path_factory.mktemp("idf")), [BM25])
    assert encode_papers(settings).status == "ok"
    with duckdb.connect(str(settings.duckdb_path), read_only=True) as con:
        papers = [r[0] for r in con.execute("SELECT CAST(paper_id AS VARCHAR) FROM metadata ORDER BY title").fetchall()]
    return settings, papers


def _stats(settings, papers: list[str] | None):
    term = bm25.term_id(bm25.analyze(WORD)[0])
    with duckdb.connect(str(settings.duckdb_path), read_only=True) as con:
        df, n = ledger.bm25_paper_df(con, papers, [term]) if papers else ledger.bm25_df(con, [term])
    return df.get(term, 0), n


def test_per_paper_statistics_sum_to_the_library(store):
    settings, papers = store
    per_paper = [_stats(settings, [p]) for p in papers]
    assert _stats(settings, papers) == _stats(settings, None)
    assert sum(d for d, _ in per_paper) == _stats(settings, None)[0]
    assert sum(n for _, n in per_paper) == _stats(settings, None)[1]
    assert all(n > 0 for _, n in per_paper)


def test_a_pinned_search_weighs_its_terms_by_the_pinned_papers(store):
    settings, papers = store
    library = make_settings(settings.data_dir, [BM25], bm25_idf="library")
    for pid in papers:
        df_paper, n_paper = _stats(settings, [pid])
        if not df_paper:
            continue
        df_lib, n_lib = _stats(settings, None)
        flt = f"pdf_id == '{pid}'"
        pinned = search(settings, WORD, BM25, "chunks", "text_content", flt, 3)
        lib = search(library, WORD, BM25, "chunks", "text_content", flt, 3)
        assert pinned and [h.primary_key for h in pinned] == [h.primary_key for h in lib]  # one term: same order
        expected = bm25.idf(df_paper, n_paper) / bm25.idf(df_lib, n_lib)
        assert pinned[0].score / lib[0].score == pytest.approx(expected, rel=1e-3)
        assert expected != pytest.approx(1.0, abs=1e-3)  # the two scopes really differ here
        return
    pytest.fail(f"no paper holds {WORD!r}")


def test_unpinned_and_widened_filters_use_the_library(store):
    settings, papers = store
    library = make_settings(settings.data_dir, [BM25], bm25_idf="library")
    widened = f"pdf_id == '{papers[0]}' or page_number == 1"
    for flt in ("", widened):
        a = search(settings, WORD + " generation", BM25, "chunks", "text_content", flt, 5)
        b = search(library, WORD + " generation", BM25, "chunks", "text_content", flt, 5)
        assert a and [(h.primary_key, round(h.score, 5)) for h in a] == [(h.primary_key, round(h.score, 5)) for h in b]


def test_a_pinned_paper_without_vectors_finds_nothing(store):
    settings, _ = store
    assert search(settings, WORD, BM25, "chunks", "text_content", "pdf_id == 'not-a-paper'", 5) == []
