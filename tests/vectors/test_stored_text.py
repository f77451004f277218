"""Hit texts stored in the BM25 collection (schemas/vectorstore.json `text`, storage_only): a BM25 search returns
them without reading DuckDB; cells too long to store, dense hits and collections from before the field are joined
from DuckDB. Real DuckDB and Milvus Lite over two corpus papers."""
from __future__ import annotations

import dataclasses
import subprocess

import duckdb
import pytest

from pipeline.vectors import cells, check, encode_papers, milvus, rebuild, search
from pipeline.vectors.search import hybrid_search
from schemas.vectorstore import collection


from tests.vectors.vechelpers import BM25, MINILM, REPO, fresh_dir, lite_minilm_copy, make_settings

QUERY = "retrieval augmented generation"
QUERIES = [QUERY, "privacy of masked language models", "Table 1 results accuracy", "we thank the anonymous reviewers",
           "Figure 2 shows the architecture"]


def _db_texts(settings, hits) -> list[str]:
    with duckdb.connect(str(settings.duckdb_path), read_only=True) as con:
        return [cells.texts_for(con, h.table_name, h.column_name, [h.primary_key])[h.primary_key] for h in hits]


@pytest.fixture(scope="module")
def store(lite_minilm_built, tmp_path_factory):
    return lite_minilm_copy(lite_minilm_built, tmp_path_factory.mktemp("text"))[0]


def test_bm25_hits_carry_the_cells_text_without_a_database_read(store):
    cache: dict = {}
    hits = search(store, QUERY, BM25, limit=8, cache=cache)
    assert len(hits) == 8 and {h.table_name for h in hits} >= {"chunks"}
    assert [h.text for h in hits] == _db_texts(store, hits)
    assert not cache.get("texts")  # nothing was joined: the texts came with the hits


def test_every_bm25_hit_of_several_queries_carries_exactly_the_cell_the_join_returns(store):
    seen_tables = set()
    with duckdb.connect(str(store.duckdb_path), read_only=True) as con:
        pdf_ids = cells.papers(con)
    for query in QUERIES:
        for flt in (None, f"pdf_id == '{pdf_ids[1]}'"):  # every table's cells; one paper's bucket
            cache: dict = {}
            hits = search(store, query, BM25, filter=flt, limit=30, cache=cache)
            assert hits and not cache.get("texts")
            assert all(h.text for h in hits)
            assert [h.text for h in hits] == _db_texts(store, hits)
            assert flt is None or {h.pdf_id for h in hits} == {pdf_ids[1]}
            seen_tables |= {h.table_name for h in hits}
    assert {"chunks", "pages", "sections"} <= seen_tables  # not only one kind of cell


def test_hybrid_joins_only_the_cells_no_bm25_hit_brought(store):
    query = "wikipedia"  # 2 of the 24 chunks hold the word: BM25 finds few, the dense collection fills the rest
    with milvus.connect(store) as client:
        bm25_hits = search(store, query, BM25, "chunks", "text_content", limit=50, client=client, join_text=False)
        assert 0 < len(bm25_hits) < 10 and all(h.text for h in bm25_hits)
        cache: dict = {}
        hits = hybrid_search(store, query, "chunks", "text_content", limit=10, client=client,
                             collections=[BM25, MINILM], cache=cache)
    assert len(hits) == 10 and [h.text for h in hits] == _db_texts(store, hits)
    from_bm25 = {h.primary_key for h in bm25_hits}
    dense_only = {h.primary_key for h in hits} - from_bm25
    assert dense_only and from_bm25 & {h.primary_key for h in hits}
    assert {k[2] for k in cache["texts"]} == dense_only  # BM25 cells came with their text, the others were joined


def test_the_agent_schema_and_filters_do_not_know_the_stored_field():
    from schemas.filters import FilterError, validate_filter
    from schemas.vectorstore import render_prompt

    assert collection(BM25).field("text").storage_only
    assert '"name": "text"' not in render_prompt([BM25])
    with pytest.raises(FilterError):
        validate_filter(BM25, "text == 'x'")


def test_a_cell_too_long_to_store_is_joined_and_a_changed_cell_is_searched_with_its_new_text(base_db, tmp_path):
    settings = make_settings(fresh_dir(base_db, tmp_path), [BM25])
    long_text = "zyxwvuword " + "é" * 40_000  # 80k UTF-8 bytes: over the field's 65,535
    assert milvus.text_to_store(long_text, 65535) == "" and milvus.text_to_store("é" * 10, 65535) == "é" * 10
    with duckdb.connect(str(settings.duckdb_path)) as con:
        short_id, long_id = [r[0] for r in con.execute(
            "SELECT CAST(chunk_id AS VARCHAR) FROM chunks ORDER BY chunk_id LIMIT 2").fetchall()]
        con.execute("UPDATE chunks SET text_content = 'quvtsrword in a changed chunk' WHERE chunk_id = ?::UUID", [short_id])
        con.execute("UPDATE chunks SET text_content = ? WHERE chunk_id = ?::UUID", [long_text, long_id])
    assert encode_papers(settings).status == "ok"
    cache: dict = {}
    changed = search(settings, "quvtsrword", BM25, "chunks", "text_content", limit=1, cache=cache)
    assert [(h.primary_key, h.text) for h in changed] == [(short_id, "quvtsrword in a changed chunk")]
    assert not cache.get("texts")
    long = search(settings, "zyxwvuword", BM25, "chunks", "text_content", limit=1, cache=cache)
    assert [(h.primary_key, h.text) for h in long] == [(long_id, long_text)]
    assert list(cache["texts"]) == [("chunks", "text_content", long_id)]  # read from DuckDB


def test_a_collection_from_before_the_field_keeps_working_through_the_join(base_db, tmp_path):
    settings = make_settings(fresh_dir(base_db, tmp_path), [BM25])
    coll = collection(BM25)
    old = dataclasses.replace(coll, fields=tuple(f for f in coll.fields if f.name != milvus.TEXT_FIELD))
    with milvus.connect(settings) as client:
        milvus.create_collection(client, old, None)
        assert not milvus.stores_text(client, BM25)
    assert encode_papers(settings).status == "ok"  # writes rows without the field
    cache: dict = {}
    hits = search(settings, QUERY, BM25, limit=5, cache=cache)
    assert len(hits) == 5 and [h.text for h in hits] == _db_texts(settings, hits)
    assert len(cache["texts"]) == 5
    notes: list[str] = []
    assert check(settings, [BM25], notes) == []  # a hint, not a mismatch
    hints = [n for n in notes if "stored hit texts" in n]  # besides the copies' sample line
    assert len(hints) == 1 and "rebuild -c text_bm25_en" in hints[0]
    cli = subprocess.run([str(REPO / ".venv" / "bin" / "paperbase"), "check", "--data-dir", str(settings.data_dir),
                          "-c", BM25, "--json"], cwd=REPO, capture_output=True, text=True, timeout=300)
    assert cli.returncode == 0, cli.stderr[-2000:]  # the note does not fail `check`
    assert "note:" in cli.stderr and "rebuild -c text_bm25_en" in cli.stderr and cli.stdout.strip() == ""
    assert rebuild(settings, BM25).status == "ok"  # what the hint and docs/vectors.md advise
    with milvus.connect(settings) as client:
        assert milvus.stores_text(client, BM25)
    notes.clear()
    assert check(settings, [BM25], notes) == [] and not [n for n in notes if "stored hit texts" in n]
    cache.clear()
    again = search(settings, QUERY, BM25, limit=5, cache=cache)
    assert [h.text for h in again] == _db_texts(settings, again) and not cache.get("texts")
