"""BM25 IDF from the documents a search ranks (pipeline/vectors/search.py, ledger.bm25_paper_df): a search whose
filter pins papers weighs its terms by those papers' statistics; one that pins none, or `bm25_idf = "library"`,
by the whole library. Statistics are the chunks' (bm25.STATS_FIELD). Real DuckDB and Milvus Lite over two corpus
papers."""
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


def test_statistics_count_the_chunks_alone(store):
    """Document count, mean length and document frequencies come from chunks.text_content (bm25.STATS_FIELD): pages
    and sections repeat the chunks' text and would count every term about three times."""
    settings, papers = store
    term = bm25.term_id(bm25.analyze(WORD)[0])
    with duckdb.connect(str(settings.duckdb_path), read_only=True) as con:
        for pid in papers:
            texts = [t for (t,) in con.execute("SELECT text_content FROM chunks WHERE CAST(ref_paper_id AS VARCHAR) = ? "
                                               "AND trim(coalesce(text_content, '')) <> ''", [pid]).fetchall()]
            n, total = con.execute("SELECT n_docs, total_len FROM ledger.bm25_papers WHERE pdf_id = ?", [pid]).fetchone()
            assert n == len(texts) and total == sum(len(bm25.terms(t)) for t in texts)
            df, _ = ledger.bm25_paper_df(con, [pid], [term])
            assert df.get(term, 0) == sum(1 for t in texts if term in bm25.term_counts(t))
            assert con.execute("SELECT count(*) FROM pages WHERE CAST(ref_paper_id AS VARCHAR) = ?", [pid]).fetchone()[0]
        avgdl = {a for (a,) in con.execute("SELECT DISTINCT avgdl FROM ledger.vector_papers WHERE collection = ?",
                                           [BM25]).fetchall()}
        lengths = [len(bm25.terms(t)) for (t,) in con.execute(
            "SELECT text_content FROM chunks WHERE trim(coalesce(text_content, '')) <> ''").fetchall()]
    assert len(avgdl) == 1 and avgdl.pop() == pytest.approx(sum(lengths) / len(lengths))


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


def test_a_pinned_search_leaves_its_papers_author_names_out(store):
    """Author names name the paper the filter already chose: a pinned search scores as if they were not asked; an
    unpinned one still counts them."""
    settings, papers = store
    with duckdb.connect(str(settings.duckdb_path), read_only=True) as con:
        rows = con.execute("SELECT CAST(paper_id AS VARCHAR), authors FROM metadata ORDER BY 1").fetchall()
        for pid, authors in rows:
            text = " ".join(t for (t,) in con.execute("SELECT text_content FROM chunks WHERE CAST(ref_paper_id AS "
                                                      "VARCHAR) = ?", [pid]).fetchall())
            words = set(bm25.analyze(text))
            if not set(bm25.analyze(WORD)) <= words:
                continue  # the plain search must find something in this paper
            names = [w for w in bm25.name_words(authors or []) if w in words and w not in bm25.analyze(WORD)]
            if names:
                break
        else:
            pytest.fail("no paper whose chunks carry an author's name")
    surname = names[0]
    flt = f"pdf_id == '{pid}'"
    plain = search(settings, WORD, BM25, "chunks", "text_content", flt, 5)
    named = search(settings, f"{surname} {WORD}", BM25, "chunks", "text_content", flt, 5)
    assert plain and [(h.primary_key, round(h.score, 6)) for h in named] == [(h.primary_key, round(h.score, 6)) for h in plain]
    unpinned = search(settings, f"{surname} {WORD}", BM25, "chunks", "text_content", "", 5)
    assert [(h.primary_key, round(h.score, 6)) for h in unpinned] != [
        (h.primary_key, round(h.score, 6)) for h in search(settings, WORD, BM25, "chunks", "text_content", "", 5)]


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


def _old_ledger(path) -> None:
    """A ledger as paperbase wrote it before seq: two papers' statistics, no seq columns."""
    with duckdb.connect(str(path)) as con:
        con.execute("CREATE SCHEMA ledger")
        con.execute("CREATE TABLE ledger.bm25_papers (pdf_id VARCHAR PRIMARY KEY, n_docs INTEGER, total_len BIGINT)")
        con.execute("CREATE TABLE ledger.bm25_terms (pdf_id VARCHAR, term UBIGINT, df INTEGER)")
        con.execute("INSERT INTO ledger.bm25_papers VALUES ('b', 4, 40), ('a', 3, 30)")
        con.execute("INSERT INTO ledger.bm25_terms VALUES ('b', 1, 4), ('b', 2, 1), ('a', 1, 2), ('a', 3, 3)")


def test_an_old_ledger_is_read_by_pdf_id_then_numbered_in_storage_order_by_the_first_writer(tmp_path):
    path = tmp_path / "old.duckdb"
    _old_ledger(path)
    with duckdb.connect(str(path), read_only=True) as con:  # a reader before any writer: no seq column
        assert ledger.bm25_paper_df(con, ["a"], [1, 2, 3]) == ({1: 2, 3: 3}, 3)
    with duckdb.connect(str(path)) as con:
        ledger.ensure(con)
        assert con.execute("SELECT pdf_id, seq FROM ledger.bm25_papers ORDER BY seq").fetchall() == [("b", 1), ("a", 2)]
        assert con.execute("SELECT count(*) FROM ledger.bm25_terms WHERE seq IS NULL").fetchone()[0] == 0
        assert ledger.bm25_paper_df(con, ["a"], [1, 2, 3]) == ({1: 2, 3: 3}, 3)
        assert ledger.bm25_paper_df(con, ["a", "b"], [1, 2]) == ({1: 6, 2: 1}, 7)
        assert ledger.bm25_df(con, [1, 2, 3]) == ({1: 6, 2: 1, 3: 3}, 7)


def test_rewriting_a_paper_gives_it_a_new_seq_and_takes_its_old_rows_back(tmp_path):
    from collections import Counter

    path = tmp_path / "old.duckdb"
    _old_ledger(path)
    with duckdb.connect(str(path)) as con:
        ledger.ensure(con)
        ledger.set_bm25_stats(con, {"b": (2, 10, Counter({2: 2, 5: 1}))})
        assert con.execute("SELECT seq FROM ledger.bm25_papers WHERE pdf_id = 'b'").fetchone()[0] == 3
        assert con.execute("SELECT DISTINCT seq FROM ledger.bm25_terms WHERE pdf_id = 'b'").fetchall() == [(3,)]
        assert ledger.bm25_paper_df(con, ["b"], [1, 2, 5]) == ({2: 2, 5: 1}, 2)
        assert ledger.bm25_df(con, [1, 2, 3, 5]) == ({1: 2, 2: 2, 3: 3, 5: 1}, 5)
        ledger.set_bm25_stats(con, {"a": (0, 0, Counter())})  # a paper whose text is gone
        assert ledger.bm25_paper_df(con, ["a"], [1, 3]) == ({}, 0)
        assert ledger.bm25_df(con, [1, 2, 3, 5]) == ({2: 2, 5: 1}, 2)


@pytest.mark.parametrize("query, title, expected", [
    ("What minibatch size was used in the auto-encoding variational Bayes experiments?",
     "Auto-Encoding Variational Bayes", "What minibatch size was used in the experiments?"),
    ("In 'Why Do the Rich Save So Much?', what share of wealth is annuitized?", "Why Do the Rich Save So Much?",
     "In 'Why Do the ?', what share of wealth is annuitized?"),
    # one title word alone may be the very term asked about: kept
    ("How is the novelty proportion estimated?", "Semi-Supervised Novelty Detection",
     "How is the novelty proportion estimated?"),
    # words of the title out of the title's order are no title phrase
    ("Which detection finds novelty?", "Semi-Supervised Novelty Detection", "Which detection finds novelty?"),
    # a query that is nothing but the title is left whole (nothing would be left to search)
    ("Semi-supervised novelty detection", "Semi-Supervised Novelty Detection", "Semi-supervised novelty detection"),
    ("What is TAPAS pre-trained on?", None, "What is TAPAS pre-trained on?"),
])
def test_without_title_takes_out_runs_of_the_titles_words(query, title, expected):
    assert bm25.without_title(query, title) == expected


def test_a_search_pinned_to_one_paper_leaves_its_title_out(store):
    """A question names its paper by title; the filter already chose the paper, so a search pinned to one paper scores
    as if the title phrase were not asked (every collection: here BM25). Pinned to several papers, the title tells
    them apart and counts; unpinned, it counts."""
    settings, papers = store
    with duckdb.connect(str(settings.duckdb_path), read_only=True) as con:
        titles = dict(con.execute("SELECT CAST(paper_id AS VARCHAR), title FROM metadata").fetchall())
    pid = next(p for p in papers if len(bm25.analyze(titles[p])) >= 2
               and search(settings, WORD, BM25, "chunks", "text_content", f"pdf_id == '{p}'", 1))
    asked = f"{WORD} in {titles[pid]}"
    assert bm25.without_title(asked, titles[pid]) == f"{WORD} in"

    def ranked(query: str, flt: str) -> list[tuple[str, float]]:
        return [(h.primary_key, round(h.score, 6)) for h in search(settings, query, BM25, "chunks", "text_content", flt, 5)]

    one = f"pdf_id == '{pid}'"
    assert ranked(asked, one) == ranked(WORD, one)
    both = f"pdf_id in {[pid] + [p for p in papers if p != pid][:1]}".replace('"', "'")
    assert ranked(asked, both) != ranked(WORD, both)
    assert ranked(asked, "") != ranked(WORD, "")
