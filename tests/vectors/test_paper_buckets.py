"""Shards and paper buckets (pipeline/vectors/milvus.py, paper_search.py) on a real Milvus Lite store, and the BM25 df sums
(ledger.bm25_df) against the per-paper rows they summarise, on a real DuckDB. Small sizes only: the speed is bench/scale.py's."""
from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace

import duckdb
import numpy as np
import pytest

from pipeline.vectors import bm25, ledger, milvus
from pipeline.vectors.errors import CollectionGone
from pipeline.vectors.paper_search import pinned_papers
from schemas.vectorstore import collection

from tests.vectors.vechelpers import BM25, MINILM

PAPERS = [f"paper-{i}" for i in range(7)]
DIM = 8


@pytest.fixture
def client(tmp_path):
    from milvus_lite.server_manager import server_manager_instance
    from pymilvus import MilvusClient

    path = str(tmp_path / "milvus.db")
    c = MilvusClient(uri=path)
    yield c
    c.close()
    server_manager_instance.release_server(path)


def _rows(pdf_id: str, n: int, rng: random.Random, sparse: bool) -> list[dict]:
    out = []
    for j in range(n):
        key = f"{pdf_id}-{j}"
        if sparse:
            vec = bm25.doc_vector(bm25.term_counts(" ".join(rng.choice(WORDS) for _ in range(12))), 12.0)
        else:
            v = np.array([rng.gauss(0, 1) for _ in range(DIM)], dtype=np.float32)
            vec = (v / np.linalg.norm(v)).tolist()
        out.append({"id": milvus.entity_id("c", "chunks", "text_content", key), "vector": vec, "pdf_id": pdf_id,
                    "page_number": 1 + j % 4, "table_name": "chunks", "column_name": "text_content", "primary_key": key})
    return out


WORDS = "attention transformer retrieval sparse dense vector paper model training corpus query encoder".split()


def _filled(client, name: str, buckets: int, sparse: bool, shards: int = milvus.SHARDS, as_name: str | None = None) -> None:
    coll = collection(name)
    if as_name:
        coll = replace(coll, name=as_name)
    milvus.create_collection(client, coll, None if sparse else DIM, buckets, shards)
    rng = random.Random(5)
    milvus.insert(client, coll.name, [r for p in PAPERS for r in _rows(p, 20, rng, sparse)])
    milvus.flush(client, coll.name)


def _query(name: str, sparse: bool):
    if sparse:
        return bm25.query_vector("sparse retrieval transformer", {bm25.term_id(bm25.analyze(w)[0]): 3 for w in WORDS}, 100)
    v = np.linspace(-1, 1, DIM, dtype=np.float32)
    return (v / np.linalg.norm(v)).tolist()


def _same_hits(a: list[dict], b: list[dict]) -> bool:
    """Same scores in order, and the same ids above the last score (ties at the cut may come from either shard)."""
    da, db = [round(h["distance"], 4) for h in a], [round(h["distance"], 4) for h in b]
    return da == db and {h["id"] for h in a if round(h["distance"], 4) != da[-1]} == \
        {h["id"] for h in b if round(h["distance"], 4) != db[-1]}


@pytest.mark.parametrize("name,sparse", [(BM25, True), (MINILM, False)])
def test_sharded_search_matches_one_plain_collection(client, name, sparse):
    """Same rows in 16 shards x 128 buckets and in one collection without buckets: pinned searches (their shards and
    buckets only), an unpinned filter and a library-wide search (every shard, merged) give the same hits."""
    _filled(client, name, milvus.PAPER_BUCKETS, sparse)
    _filled(client, name, 0, sparse, shards=0, as_name="reference")
    lay = milvus.layout(client, name)
    assert lay.buckets == 128 and lay.shards == tuple(f"{name}__s{s:02d}of16" for s in range(16))
    assert milvus.existing(client, [name, "reference", "absent"]) == {name, "reference"}
    assert len({lay.place(p)[0] for p in PAPERS}) > 1  # the papers are spread over several shards
    params = {"metric_type": "IP" if sparse else "COSINE"}
    q = _query(name, sparse)
    for expr in ['pdf_id == "paper-3"', 'pdf_id in ["paper-1", "paper-5"] and page_number >= 2',
                 'page_number >= 2', '']:
        pins = pinned_papers(expr)
        if pins:
            assert len(lay.targets(pins)) <= len(pins)
        got = milvus.search(client, name, q, limit=10, expr=expr, fields=["pdf_id"], params=params, pdf_ids=pins)
        ref = milvus.search(client, "reference", q, limit=10, expr=expr, fields=["pdf_id"], params=params)
        assert got and _same_hits(got, ref)


def test_rows_land_in_their_papers_shard_and_bucket_and_deletes_take_exactly_those_papers(client):
    _filled(client, MINILM, milvus.PAPER_BUCKETS, False)
    lay = milvus.layout(client, MINILM)
    for p in PAPERS:
        shard, part = lay.place(p)
        assert part == milvus.bucket_of(p) and shard == f"{MINILM}__s{int(part[-3:]) % 16:02d}of16"
        rows = client.query(shard, filter=f'pdf_id == "{p}"', output_fields=["id"], partition_names=[part])
        assert len(rows) == 20
    assert milvus.count(client, MINILM) == 20 * len(PAPERS)
    milvus.delete_papers(client, MINILM, ["paper-2", "paper-4"])
    milvus.flush(client, MINILM, ["paper-2", "paper-4"])
    left = Counter(r["pdf_id"] for s in lay.shards for r in client.query(s, filter="", output_fields=["pdf_id"], limit=1000))
    assert left == {p: 20 for p in PAPERS if p not in ("paper-2", "paper-4")}
    assert len(milvus.entities(client, MINILM, "paper-2")) == 0
    assert len(milvus.entities(client, MINILM, "paper-3")) == 20
    milvus.drop(client, MINILM)
    assert MINILM not in milvus.existing(client) and not [c for c in client.list_collections() if c.startswith(MINILM)]
    assert not client.has_collection(MINILM)  # the alias went with it


@pytest.mark.parametrize("buckets", [0, 8])
def test_a_collection_from_before_shards_is_searched_and_deleted_as_before(client, buckets):
    _filled(client, MINILM, buckets, False, shards=0)
    lay = milvus.layout(client, MINILM)
    assert lay.shards == (MINILM,) and lay.buckets == buckets
    assert lay.targets(["paper-1"]) == [(MINILM, [milvus.bucket_of("paper-1", 8)] if buckets else None)]
    milvus.delete_papers(client, MINILM, ["paper-1"])
    left = Counter(r["pdf_id"] for r in client.query(MINILM, filter="", output_fields=["pdf_id"], limit=1000))
    assert "paper-1" not in left and left["paper-0"] == 20
    assert milvus.count(client, MINILM) == 20 * (len(PAPERS) - 1)


def test_a_create_stopped_half_way_is_not_a_collection_until_completed(client):
    """Only the first shards were made (a process killed while creating): the collection does not exist for
    search or encode, and the next create completes the missing shards and partitions without losing any."""
    coll = collection(MINILM)
    milvus.create_collection(client, coll, DIM)
    client.drop_alias(MINILM)  # the last step, never reached
    client.drop_collection(f"{MINILM}__s15of16")
    client.drop_collection(f"{MINILM}__s02of16")
    schema, _index = milvus._schema(client, coll, DIM)
    client.create_collection(f"{MINILM}__s02of16", schema=schema)  # killed before its partitions and index were made
    assert MINILM not in milvus.existing(client)
    with pytest.raises(CollectionGone):  # said as such, not a bare KeyError (issue 28)
        milvus.layout(client, MINILM)
    milvus.create_collection(client, coll, DIM)
    assert MINILM in milvus.existing(client)
    lay = milvus.layout(client, MINILM)
    assert lay.buckets == 128 and len(lay.shards) == 16
    assert client.list_indexes(f"{MINILM}__s02of16")
    rng = random.Random(1)
    milvus.insert(client, MINILM, [r for p in PAPERS for r in _rows(p, 3, rng, False)])
    milvus.flush(client, MINILM)
    assert milvus.count(client, MINILM) == 3 * len(PAPERS)


COSINE = {"metric_type": "COSINE"}


def _made_partitions(client, name: str) -> set[str]:
    return {p for s in milvus.layout(client, name).shards for p in client.list_partitions(s) if p.startswith("papers_")}


def test_partitions_are_made_when_their_first_paper_lands(client, tmp_path):
    """A new collection has no paper partitions; each insert makes its papers' own. A search, delete or entity read
    about a paper whose partition was never made finds nothing (no error), also from a second client that listed the
    shard's partitions before another client made the paper's."""
    coll = collection(MINILM)
    milvus.create_collection(client, coll, DIM)
    assert _made_partitions(client, MINILM) == set()
    rng = random.Random(2)
    probe = [0.0] * DIM
    probe[0] = 1.0
    assert milvus.search(client, MINILM, probe, limit=3, expr='pdf_id == "paper-0"', fields=["pdf_id"], params=COSINE,
                         pdf_ids=["paper-0"]) == []
    assert milvus.entities(client, MINILM, "paper-0") == []
    milvus.delete_papers(client, MINILM, ["paper-0"])  # nothing to delete, nothing made
    milvus.insert(client, MINILM, _rows("paper-1", 4, rng, False))
    milvus.flush(client, MINILM)
    assert _made_partitions(client, MINILM) == {milvus.bucket_of("paper-1")}
    # a second client of the same store lists paper-1's shard now, then this client adds paper-0's partition there
    # or elsewhere: the second client still finds paper-0's rows
    from pymilvus import MilvusClient

    other = MilvusClient(uri=str(tmp_path / "milvus.db"))
    try:
        shard0 = milvus.layout(other, MINILM).place("paper-0")[0]
        milvus._partitions(other, shard0)  # noqa: SLF001 - its listing, taken before paper-0 lands
        milvus.insert(client, MINILM, _rows("paper-0", 5, rng, False))
        milvus.flush(client, MINILM)
        assert len(milvus.entities(other, MINILM, "paper-0")) == 5
        hits = milvus.search(other, MINILM, probe, limit=10, expr='pdf_id == "paper-0"', fields=["pdf_id"], params=COSINE,
                             pdf_ids=["paper-0"])
        assert len(hits) == 5 and {h["entity"]["pdf_id"] for h in hits} == {"paper-0"}
    finally:
        other.close()
    assert _made_partitions(client, MINILM) == {milvus.bucket_of("paper-0"), milvus.bucket_of("paper-1")}
    milvus.delete_papers(client, MINILM, ["paper-0"])
    milvus.flush(client, MINILM)
    assert milvus.entities(client, MINILM, "paper-0") == [] and len(milvus.entities(client, MINILM, "paper-1")) == 4


@pytest.mark.parametrize("expr,pinned", [
    ('pdf_id == "a"', ["a"]),
    ("pdf_id in ['a', 'b'] and page_number > 2", ["a", "b"]),
    ('(pdf_id == "a") and table_name == "chunks"', ["a"]),
    ('pdf_id == "a" or page_number == 1', None),
    ('not pdf_id == "a"', None),
    ('pdf_id != "a"', None),
    ('pdf_id not in ["a"]', None),
    ('table_name == \'pdf_id == "a"\'', None),
    ('pdf_id == "x or y"', ["x or y"]),
    ("page_number == 3", None),
    ("", None),
])
def test_which_filters_pin_their_papers(expr, pinned):
    assert pinned_papers(expr) == pinned


def _sums(con) -> dict[int, int]:
    return dict(con.execute("SELECT term, df FROM ledger.bm25_df").fetchall())


def _aggregate(con) -> dict[int, int]:
    return dict(con.execute("SELECT term, sum(df)::BIGINT FROM ledger.bm25_terms GROUP BY term").fetchall())


def _stats(text: str, docs: int) -> tuple[int, int, Counter[int]]:
    counts = [bm25.term_counts(f"{text} {i}") for i in range(docs)]
    return bm25.corpus_stats(counts)


def test_df_sums_follow_add_reencode_and_remove():
    con = duckdb.connect()
    ledger.ensure(con)
    ledger.set_bm25_stats(con, {"p1": _stats("sparse retrieval model", 3), "p2": _stats("dense retrieval paper", 2)})
    assert _sums(con) == _aggregate(con) and _sums(con)
    retrieval = bm25.term_id("retriev")
    assert ledger.bm25_df(con, [retrieval]) == ({retrieval: 5}, 5)
    ledger.set_bm25_stats(con, {"p1": _stats("sparse encoder", 4)})  # re-encode p1 with other text
    assert _sums(con) == _aggregate(con)
    assert ledger.bm25_df(con, [retrieval])[0] == {retrieval: 2}
    ledger.set_bm25_stats(con, {"p2": (0, 0, Counter())})  # remove p2
    assert _sums(con) == _aggregate(con)
    assert ledger.bm25_df(con, [retrieval]) == ({}, 4)
    ledger.forget_collection(con, BM25, bm25=True)
    assert _sums(con) == {} and ledger.bm25_df(con, [retrieval]) == ({}, 0)


def test_df_sums_are_built_for_a_ledger_from_before_them(tmp_path):
    path = tmp_path / "old.duckdb"
    con = duckdb.connect(str(path))
    ledger.ensure(con)
    ledger.set_bm25_stats(con, {"p1": _stats("sparse retrieval model", 3)})
    con.execute("DROP TABLE ledger.bm25_df")  # the ledger as an older paperbase left it
    con.close()
    ro = duckdb.connect(str(path), read_only=True)
    term = bm25.term_id("spars")
    assert ledger.bm25_df(ro, [term]) == ({term: 3}, 3)  # a reader aggregates until a writer builds the sums
    ro.close()
    con = duckdb.connect(str(path))
    ledger.ensure(con)
    assert _sums(con) == _aggregate(con) and ledger.bm25_df(con, [term]) == ({term: 3}, 3)



def test_encoded_papers_sit_in_their_buckets_and_a_pinned_search_equals_the_unpinned_one(base_db, tmp_path):
    """Through the production path: encode (BM25, no model needed), then the Reader's search with a filter that pins
    the paper (searches its shard and bucket) and with an equivalent one that does not (an `or`: every partition)."""
    from pipeline.read import Reader
    from pipeline.vectors import encode_papers
    from tests.vectors.vechelpers import fresh_dir, make_settings

    # IDF from the library either way: a pinning filter would otherwise weigh terms by the paper (test_bm25_idf.py)
    settings = make_settings(fresh_dir(base_db, tmp_path / "data"), [BM25], bm25_idf="library")
    assert encode_papers(settings).status == "ok"
    with Reader(settings) as reader:
        assert reader.warm() == [BM25]
        client = reader.client
        milvus.load(client, BM25)  # the raw queries below need the shards loaded (searches answer from the copies)
        assert milvus.buckets(client, BM25) == milvus.PAPER_BUCKETS
        paper = reader.papers()[0]["paper_id"]
        shard, part = milvus.layout(client, BM25).place(paper)
        assert shard.startswith(f"{BM25}__s") and part == milvus.bucket_of(paper)
        rows = client.query(shard, filter=f'pdf_id == "{paper}"', output_fields=["id"], limit=10000,
                            partition_names=[part])
        assert rows and len(rows) == len(milvus.entities(client, BM25, paper))
        pinned = reader.search("retrieval augmented generation", BM25, filter=f'pdf_id == "{paper}"', limit=5)
        wide = reader.search("retrieval augmented generation", BM25,
                             filter=f'pdf_id == "{paper}" or pdf_id == "{paper}"', limit=5)
        assert pinned and [(h.primary_key, round(h.score, 5)) for h in pinned] == \
            [(h.primary_key, round(h.score, 5)) for h in wide]
        assert {h.pdf_id for h in pinned} == {paper}


def test_a_store_from_before_shards_is_encoded_searched_and_reshaped_by_rebuild(base_db, tmp_path):
    """A BM25 collection in the layout before shards (one Milvus collection under the schema name, no buckets):
    encode fills it, search answers from it, and `rebuild` replaces it with the sharded layout, same hits."""
    from pipeline.read import Reader
    from pipeline.vectors import encode_papers, rebuild
    from tests.vectors.vechelpers import fresh_dir, make_settings

    settings = make_settings(fresh_dir(base_db, tmp_path / "data"), [BM25], bm25_idf="library")
    with milvus.connect(settings) as client:
        milvus.create_collection(client, collection(BM25), None, buckets=0, shards=0)
    assert encode_papers(settings).status == "ok"

    def hits() -> tuple[tuple, list]:
        with Reader(settings) as reader:
            lay = milvus.layout(reader.client, BM25)
            paper = reader.papers()[0]["paper_id"]
            found = [(h.primary_key, round(h.score, 4)) for q in ("retrieval augmented generation", "attention heads")
                     for flt in (None, f'pdf_id == "{paper}"') for h in reader.search(q, BM25, filter=flt, limit=5)]
            return lay.shards, found

    shards, before = hits()
    assert shards == (BM25,) and before
    assert rebuild(settings, BM25).status == "ok"
    shards, after = hits()
    assert len(shards) == milvus.SHARDS and after == before
