"""Search copies (pipeline/vectors/copies.py) on a real Milvus Lite store: the same hits as Milvus for every kind of
filter, kept in step by writes, never used once the shard moved on without them, read back when missing."""
from __future__ import annotations

import random
import shutil
from pathlib import Path

import numpy as np
import pytest

from pipeline.vectors import copies, milvus
from pipeline.vectors.paper_search import pinned_papers
from schemas.vectorstore import collection

from tests.vectors.test_paper_buckets import PAPERS, _query, _rows, _same_hits
from tests.vectors.vechelpers import BM25, MINILM

DIM = 8
EXPRS = ['pdf_id == "paper-3"', 'pdf_id in ["paper-1", "paper-5"] and page_number >= 2', 'page_number >= 2',
         'table_name == "chunks" and column_name == "text_content"', 'primary_key like "paper-1%"', '']


@pytest.fixture
def store(tmp_path):
    from milvus_lite.server_manager import server_manager_instance
    from pymilvus import MilvusClient

    path = tmp_path / "milvus.db"
    c = MilvusClient(uri=str(path))
    c.paperbase_store = path  # what milvus.connect sets on the embedded default
    yield c, path
    c.close()
    server_manager_instance.release_server(str(path))


def _fill(client, name: str, sparse: bool, papers=PAPERS, seed: int = 5) -> None:
    if name not in milvus.existing(client, [name]):
        milvus.create_collection(client, collection(name), None if sparse else DIM)
    rng = random.Random(seed)
    rows = [r for p in papers for r in _rows(p, 20, rng, sparse)]
    milvus.delete_papers(client, name, list(papers))
    milvus.insert(client, name, rows)
    milvus.flush(client, name, list(papers))
    assert milvus.sync_copies(client, name) == 0  # followed, not read back


def _both(client, path: Path, name: str, q, expr: str, limit: int = 10) -> tuple[list[dict], list[dict]]:
    """(hits through the copies, hits from Milvus alone) for the same search."""
    params = collection(name).search_params
    pins = pinned_papers(expr)
    got = milvus.search(client, name, q, limit=limit, expr=expr, fields=["pdf_id", "page_number"], params=params,
                        pdf_ids=pins)
    client.paperbase_store = None
    try:
        ref = milvus.search(client, name, q, limit=limit, expr=expr, fields=["pdf_id", "page_number"], params=params,
                            pdf_ids=pins)
    finally:
        client.paperbase_store = path
    return got, ref


def _fresh_shards(path: Path, name: str, client) -> int:
    return sum(copies.fresh(path, s) is not None for s in milvus.layout(client, name).shards)


@pytest.mark.parametrize("name,sparse", [(BM25, True), (MINILM, False)])
def test_copies_give_milvus_hits_for_every_filter(store, name, sparse):
    client, path = store
    _fill(client, name, sparse)
    assert _fresh_shards(path, name, client) == 16  # created with the collection, followed through the writes
    q = _query(name, sparse)
    for expr in EXPRS:
        got, ref = _both(client, path, name, q, expr)
        assert got and _same_hits(got, ref), expr
        mine, theirs = {h["id"]: h["entity"] for h in got}, {h["id"]: h["entity"] for h in ref}
        assert all(mine[i] == theirs[i] for i in mine.keys() & theirs.keys())  # the same fields, typed alike


@pytest.mark.parametrize("name,sparse", [(BM25, True), (MINILM, False)])
def test_copies_follow_reencodes_and_deletes(store, name, sparse):
    client, path = store
    _fill(client, name, sparse)
    _fill(client, name, sparse, papers=["paper-2", "paper-4"], seed=9)  # re-encoded with other vectors
    milvus.delete_papers(client, name, ["paper-1"])
    milvus.flush(client, name, ["paper-1"])
    assert milvus.sync_copies(client, name) == 0
    assert _fresh_shards(path, name, client) == 16
    total = sum(len(copies.fresh(path, s)) for s in milvus.layout(client, name).shards)
    assert total == milvus.count(client, name) == 20 * (len(PAPERS) - 1)
    q = _query(name, sparse)
    for expr in EXPRS:
        got, ref = _both(client, path, name, q, expr)
        assert _same_hits(got, ref), expr
        assert "paper-1" not in {h["entity"]["pdf_id"] for h in got}


def _write_past_the_copy(client) -> tuple[str, np.ndarray]:
    """A row for paper-3 (id 1) written straight into its shard, as another writer would: the copy never sees it."""
    shard, part = milvus.layout(client, MINILM).place("paper-3")
    v = np.ones(DIM, dtype=np.float32) / np.sqrt(DIM)
    client.insert(shard, [{"id": 1, "vector": v.tolist(), "pdf_id": "paper-3", "page_number": 9, "table_name": "chunks",
                           "column_name": "text_content", "primary_key": "new"}], partition_name=part)
    return shard, v


def test_a_shard_that_moved_on_without_its_copy_is_searched_in_milvus(store):
    """Rows written past the copy (another writer, a write never flushed by paperbase): the shard's copy is no longer
    used, the new rows are found, and the next refresh reads the copy back."""
    client, path = store
    _fill(client, MINILM, False)
    shard, v = _write_past_the_copy(client)
    assert copies.fresh(path, shard) is None
    assert _fresh_shards(path, MINILM, client) == 15
    got, ref = _both(client, path, MINILM, v.tolist(), "")
    assert got[0]["id"] == 1 and _same_hits(got, ref)
    client.flush(shard)
    assert milvus.sync_copies(client, MINILM) == 1
    assert _fresh_shards(path, MINILM, client) == 16
    got, ref = _both(client, path, MINILM, v.tolist(), 'page_number == 9')
    assert [h["id"] for h in got] == [1] and _same_hits(got, ref)


@pytest.mark.parametrize("name,sparse", [(BM25, True), (MINILM, False)])
def test_missing_copies_are_read_back_from_milvus(store, name, sparse):
    client, path = store
    _fill(client, name, sparse)
    shutil.rmtree(copies.copies_dir(path))  # a store from before copies
    copies._loaded.clear()
    assert _fresh_shards(path, name, client) == 0
    assert milvus.sync_copies(client, name) == 16
    assert milvus.sync_copies(client, name) == 0  # nothing left behind
    q = _query(name, sparse)
    for expr in EXPRS:
        got, ref = _both(client, path, name, q, expr)
        assert _same_hits(got, ref), expr


def test_a_filter_milvus_rejects_is_still_milvus_error(store):
    client, path = store
    _fill(client, BM25, True)
    with pytest.raises(Exception, match="no_such_field|not exist|unknown|field"):
        milvus.search(client, BM25, _query(BM25, True), limit=5, expr="no_such_field == 1", fields=["pdf_id"],
                      params=collection(BM25).search_params)


def test_drop_removes_the_copies(store):
    client, path = store
    _fill(client, MINILM, False)
    assert (copies.copies_dir(path) / milvus.shard_name(MINILM, 0)).exists()
    milvus.drop(client, MINILM)
    assert not list(copies.copies_dir(path).glob(f"{MINILM}__*"))


def test_check_copies_reports_and_removes_a_copy_that_differs_from_milvus(store):
    """A copy that claims the shard's state but lacks a row (a bug, or a hand-edited file): `check`'s comparison finds
    it by id, removes it, and searches of that shard go to Milvus."""
    client, path = store
    _fill(client, MINILM, False)
    ids = {p: {int(e["id"]) for e in milvus.entities(client, MINILM, p)} for p in PAPERS}
    assert milvus.check_copies(client, MINILM, ids).removed == []
    shard = milvus.layout(client, MINILM).place("paper-3")[0]
    root = copies.copies_dir(path) / shard
    good = copies.fresh(path, shard)
    keep = np.flatnonzero(np.asarray(good.meta["primary_key"].to_pylist()) != "paper-3-0")
    copies.Copy(good.fingerprint, good.metric, good.meta.take(keep), dense=np.asarray(good.dense)[keep]).save(root)
    assert copies.fresh(path, shard) is not None  # it claims the shard's state
    assert [s for s, _why in milvus.check_copies(client, MINILM, ids).removed] == [shard]
    assert copies.fresh(path, shard) is None and not root.exists()
    assert milvus.sync_copies(client, MINILM) == 1 and milvus.check_copies(client, MINILM, ids).removed == []


def test_encode_keeps_copies_and_a_reader_searches_them_without_loading_milvus(base_db, tmp_path):
    """The production path: encode (BM25) leaves every shard with a current copy, `check` finds nothing, a warmed
    Reader loads no shard into Milvus, and its searches equal those of a Reader with copies off (Milvus alone)."""
    from pipeline.read import Reader
    from pipeline.vectors import check, encode_papers
    from tests.vectors.vechelpers import fresh_dir, make_settings

    settings = make_settings(fresh_dir(base_db, tmp_path / "data"), [BM25], bm25_idf="library")
    assert encode_papers(settings).status == "ok"
    store = milvus.lite_path(settings)
    with milvus.connect(settings) as client:
        assert _fresh_shards(store, BM25, client) == 16
    assert check(settings) == []
    queries = ["retrieval augmented generation", "privacy masking of prompts", "attention heads"]
    with Reader(settings) as reader:
        assert reader.warm() == [BM25]
        assert not reader.client.__dict__.get("paperbase_loaded")  # every shard answered from its copy
        paper = reader.papers()[0]["paper_id"]
        got = [[(h.primary_key, round(h.score, 4), h.text) for h in reader.search(q, BM25, filter=f)]
               for q in queries for f in (None, f'pdf_id == "{paper}"', 'table_name == "chunks"')]
        assert not reader.client.__dict__.get("paperbase_loaded")
    with Reader(settings) as reader:  # a one-shot reader (`paperbase search`): the copies answer, Milvus stays shut
        cold = [[(h.primary_key, round(h.score, 4), h.text) for h in reader.search(q, BM25, filter=f)]
                for q in queries for f in (None, f'pdf_id == "{paper}"', 'table_name == "chunks"')]
        assert reader.client.opened is False and not reader.client.paperbase_lite_opened
    assert cold == got
    off = settings.model_copy(update={"vectors": settings.vectors.model_copy(update={"search_copies": False})})
    with Reader(off) as reader:
        ref = [[(h.primary_key, round(h.score, 4), h.text) for h in reader.search(q, BM25, filter=f)]
               for q in queries for f in (None, f'pdf_id == "{paper}"', 'table_name == "chunks"')]
        assert reader.client.__dict__.get("paperbase_loaded")  # Milvus did the searching
    assert all(got) and got == ref


def test_writes_apply_to_the_copy_in_their_order(store):
    """Within one sync: a paper inserted, then deleted, then another written: the copy holds what Milvus holds."""
    client, path = store
    _fill(client, BM25, True, papers=PAPERS[:3])
    rng = random.Random(3)
    milvus.insert(client, BM25, _rows("late-paper", 5, rng, True))
    milvus.flush(client, BM25, ["late-paper"])
    milvus.delete_papers(client, BM25, ["late-paper", "paper-0"])
    milvus.insert(client, BM25, _rows("paper-0", 4, rng, True))
    milvus.flush(client, BM25, ["late-paper", "paper-0"])
    assert milvus.sync_copies(client, BM25) == 0  # applied, not read back
    held = {r for s in milvus.layout(client, BM25).shards if (c := copies.fresh(path, s)) is not None and len(c)
            for r in c.meta["id"].to_pylist()}
    assert held == {int(e["id"]) for p in [*PAPERS[:3], "late-paper"] for e in milvus.entities(client, BM25, p)}
    assert len(held) == 20 * 2 + 4


def test_a_delete_finds_its_ids_in_the_copy_without_loading_the_shards(store):
    """A fresh copy (and this client's writes since) names a paper's ids: the delete neither loads the shard nor
    queries it, and leaves nothing behind, including rows written since the copy was saved."""
    client, path = store
    _fill(client, MINILM, False)
    shards = milvus.layout(client, MINILM).shards
    for s in shards:
        client.release_collection(s)
    client.__dict__.pop("paperbase_loaded", None)
    milvus.delete_papers(client, MINILM, ["paper-1", "paper-4"])
    rng = random.Random(11)
    milvus.insert(client, MINILM, _rows("paper-4", 3, rng, False))  # pending: not in the copy yet
    milvus.delete_papers(client, MINILM, ["paper-4"])
    assert not client.__dict__.get("paperbase_loaded")
    assert all("NotLoad" in str(client.get_load_state(s)["state"]) for s in shards)
    milvus.flush(client, MINILM, ["paper-1", "paper-4"])
    assert milvus.sync_copies(client, MINILM) == 0
    assert milvus.entities(client, MINILM, "paper-1") == [] and milvus.entities(client, MINILM, "paper-4") == []
    assert milvus.count(client, MINILM) == 20 * (len(PAPERS) - 2)


def test_a_delete_on_a_shard_ahead_of_its_copy_asks_milvus(store):
    """A row the copy never saw (written from elsewhere) is found by querying Milvus, and deleted."""
    client, path = store
    _fill(client, MINILM, False)
    shard, v = _write_past_the_copy(client)
    client.flush(shard)
    milvus.delete_papers(client, MINILM, ["paper-3"])
    milvus.flush(client, MINILM, ["paper-3"])
    assert milvus.entities(client, MINILM, "paper-3") == []
    assert milvus.sync_copies(client, MINILM) == 1  # the copy was behind: read back, not followed
    assert sum(len(copies.fresh(path, s)) for s in milvus.layout(client, MINILM).shards) == 20 * (len(PAPERS) - 1)


def test_a_sparse_copy_updated_in_place_equals_one_built_from_its_rows():
    """The incremental update (kept postings renumbered, the batch's merged in by term) gives the postings a copy
    built from scratch over the same rows has, term by term, and the same scores."""
    rng = np.random.default_rng(4)

    def rows(papers, per, first_id):
        out = []
        for p in papers:
            for _ in range(per):
                terms = rng.choice(50, size=int(rng.integers(1, 9)), replace=False)
                out.append({"id": first_id + len(out), "pdf_id": p, "page_number": 1,
                            "vector": {int(t): float(rng.random()) for t in terms}})
        return out

    old_rows = rows([f"p{i}" for i in range(6)], 7, 0)
    base = copies.Batch(True)
    base.add(old_rows)
    old = base.copy("fp0", "IP")
    batch = copies.Batch(True)
    new_rows = rows(["p2", "p9"], 5, 1000) + [dict(old_rows[0], vector={3: 0.5, 7: 0.25})]  # an id written again
    batch.add(new_rows)
    got = old.updated("fp1", {"p2", "p4"}, batch)

    final = [r for r in old_rows if r["pdf_id"] not in {"p2", "p4"} and r["id"] != old_rows[0]["id"]] + new_rows
    ref_batch = copies.Batch(True)
    ref_batch.add(final)
    ref = ref_batch.copy("fp1", "IP")
    assert got.meta["id"].to_pylist() == ref.meta["id"].to_pylist()
    assert np.array_equal(got.t_terms, ref.t_terms) and np.array_equal(got.t_starts, ref.t_starts)
    for k in range(len(ref.t_terms)):
        a, b = ref.t_starts[k], ref.t_starts[k + 1]
        assert sorted(zip(got.t_rows[a:b], got.t_weights[a:b])) == sorted(zip(ref.t_rows[a:b], ref.t_weights[a:b]))
    q = {3: 1.0, 7: 0.5, 11: 2.0, 49: 0.1}
    assert np.allclose(got._sparse_scores(q, len(got))[0], ref._sparse_scores(q, len(ref))[0])
    assert [r.tolist() for r in got.top(q, 5, None)] == [r.tolist() for r in ref.top(q, 5, None)]


def test_equality_filters_are_evaluated_over_the_copy_as_milvus_evaluates_them(store):
    """`field == "text"` (or 'text') terms joined by `and` (every search's scope filter) are evaluated by copies.py itself, without
    importing Milvus Lite's engine: the same rows as the engine on a real copy; anything else is left to the engine."""
    from milvus_lite.schema.persistence import load_schema
    from milvus_lite.search.filter import compile_filter, evaluate_mask

    client, path = store
    _fill(client, MINILM, False)
    shard = milvus.layout(client, MINILM).place("paper-3")[0]
    copy = copies.fresh(path, shard)
    assert copy is not None and copy.meta.num_rows
    schema = load_schema(str(path / "collections" / shard / "schema.json"))[1]
    simple = ['pdf_id == "paper-3"', 'table_name == "chunks" and column_name == "text_content"',
              '(pdf_id == "paper-3") and primary_key == "paper-3-4"', 'table_name == "pages"',
              'table_name == "chunks" && pdf_id == "paper-3"', "pdf_id == 'paper-3'",  # the agent's quotes
              """table_name == "chunks" and (pdf_id == 'paper-3')"""]
    for expr in simple:
        mine = copies._equalities_mask(path, shard, copy, expr)
        assert mine is not None, expr
        assert mine.tolist() == np.asarray(evaluate_mask(compile_filter(expr, schema), copy.meta), dtype=bool).tolist()
    assert copies._equalities_mask(path, shard, copy, 'pdf_id == "paper-3"').sum() == 20
    for expr in ['page_number >= 2', 'pdf_id == "paper-3" or pdf_id == "paper-1"', "pdf_id == 'a\\'b'",
                 'pdf_id == "a\\"b"', 'not pdf_id == "paper-3"', '(pdf_id == "paper-3"', 'text == "x"']:
        assert copies._equalities_mask(path, shard, copy, expr) is None, expr
