from collections import Counter

from pipeline.vectors import bm25


def test_analyzer_lowercases_drops_stopwords_and_punctuation_and_stems():
    assert bm25.analyze("The Models were LEARNING, robust-metrics!") == ["model", "learn", "robust", "metric"]
    assert bm25.analyze("— ; the of") == []


def test_term_ids_are_stable_and_below_the_reserved_dimension():
    assert bm25.term_id("model") == bm25.term_id("model")
    assert 0 <= bm25.term_id("model") < bm25.EMPTY_DIM < 2**32 - 1


def test_bm25_ranks_the_matching_document_first_and_idf_comes_from_stats():
    docs = ["retrieval augmented generation for question answering", "privacy masking in language models",
            "the cat sat on the mat"]
    counts = [bm25.term_counts(d) for d in docs]
    n, total, df = bm25.corpus_stats(counts)
    assert n == 3 and total == sum(sum(c.values()) for c in counts)
    vecs = [bm25.doc_vector(c, total / n) for c in counts]
    q = bm25.query_vector("masking privacy", df, n)
    scores = [sum(w * v.get(t, 0.0) for t, w in q.items()) for v in vecs]
    assert scores.index(max(scores)) == 1 and scores[0] == 0.0
    assert bm25.query_vector("unseen words only", df, n) == {}


def test_empty_document_gets_the_sentinel_so_every_cell_has_one_vector():
    assert bm25.doc_vector(Counter(), 10.0) == {bm25.EMPTY_DIM: 1e-6}
