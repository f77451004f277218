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


def test_terms_are_words_and_pairs_of_consecutive_words():
    assert bm25.terms("The training records of WMT") == ["train", "record", "wmt", "train record", "record wmt"]
    # a phrase shared with the query outranks the same words apart
    docs = {"phrase": "we count the training records twice", "apart": "records of the training were reviewed"}
    counts = {k: bm25.term_counts(v) for k, v in docs.items()}
    n, _, df = bm25.corpus_stats(counts.values())
    q = bm25.query_vector("training records", df, n)
    score = {k: sum(w * bm25.doc_vector(c, 6.0).get(t, 0.0) for t, w in q.items()) for k, c in counts.items()}
    assert score["phrase"] > score["apart"] > 0


def test_the_analyzer_and_its_constants_are_part_of_the_bm25_fingerprint():
    from pipeline.config import load_settings
    from pipeline.vectors.stage import paper_fingerprint
    from schemas.vectorstore import collection

    coll = collection("text_bm25_en")
    prints = {"text": {"p": "abc"}, "image": {}}
    base = paper_fingerprint(coll, load_settings(), prints, "p")
    other = paper_fingerprint(coll, load_settings(vectors={"bm25_k1": 1.7}), prints, "p")
    assert base != other and bm25.ANALYZER in base
    assert paper_fingerprint(coll, load_settings(), {"text": {}, "image": {}}, "p") == "empty"
