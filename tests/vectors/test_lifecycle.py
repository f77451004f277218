"""Incremental encoding, crash consistency, rebuild and model changes (BM25 and tiny models: fast), on Milvus Lite and
on the real Milvus server (`engine`; a server without sparse vectors runs them with the tiny BGE in place of BM25)."""
from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from tests.vectors.vechelpers import BGE, BM25, REPO, fresh_dir, make_settings

from pipeline.vectors import check, encode_papers, milvus, rebuild, search
from pipeline.vectors.cells import counts, papers
from pipeline.store import Store


def _n_cells(settings) -> int:
    with Store(settings.duckdb_path).reading() as con:
        return sum(counts(con, "text").values())


def _n_vectors(settings, name: str) -> int:
    with milvus.connect(settings) as client:
        milvus.load(client, name)
        return milvus.count(client, name)


def _vectors_match_cells(settings, name: str) -> bool:
    """Every DuckDB cell has its vectors and nothing else has any: the collection holds exactly the stored papers'
    entities, one id each, and they cover every cell (BM25: one vector per cell; dense: one per window)."""
    with Store(settings.duckdb_path).reading() as con:
        present = papers(con)
    with milvus.connect(settings) as client:
        milvus.load(client, name)
        total = milvus.count(client, name)
        ents = [e for p in present for e in milvus.entities(client, name, p)]
    cells = {(e["table_name"], e["column_name"], e["primary_key"]) for e in ents}
    return total == len(ents) == len({e["id"] for e in ents}) and len(cells) == _n_cells(settings)


def test_changed_paper_is_reencoded_alone_and_removed_paper_loses_vectors(base_db, tmp_path, engine, tiny_models):
    coll = engine.text()
    settings = engine.settings(fresh_dir(base_db, tmp_path), [coll], tiny_models)
    assert encode_papers(settings).status == "ok"
    store = Store(settings.duckdb_path)
    pdf, chunk = store.query("SELECT CAST(ref_paper_id AS VARCHAR) p, CAST(chunk_id AS VARCHAR) c FROM chunks LIMIT 1")[0].values()
    with store.writing() as con:  # what a later stage (e.g. summaries) does to a paper
        con.execute("UPDATE chunks SET text_content = 'zebrafish xylophone quokka' WHERE CAST(chunk_id AS VARCHAR) = ?", [chunk])
        con.execute("UPDATE pages SET page_summary = 'a summary about quokkas' WHERE CAST(ref_paper_id AS VARCHAR) = ?", [pdf])
    report = encode_papers(settings)
    rep = report.collections[0]
    assert rep.papers_encoded == 1 and rep.status == "ok"
    assert check(settings) == [] and _vectors_match_cells(settings, coll)
    # BM25 ranks by the words; the tiny dense model scores every text alike (cosine 1.0): pinned to the cell there
    pinned = None if coll == BM25 else f"primary_key == '{chunk}'"
    hits = search(settings, "quokka xylophone", coll, table_name="chunks", filter=pinned, limit=1)
    assert hits[0].primary_key == chunk and hits[0].text == "zebrafish xylophone quokka"

    with store.writing() as con:  # the paper disappears from DuckDB
        for table in ("chunks", "pages", "sections", "tables", "images", "equations", "reference"):
            con.execute(f"DELETE FROM {table} WHERE CAST(ref_paper_id AS VARCHAR) = ?", [pdf])
        con.execute("DELETE FROM metadata WHERE CAST(paper_id AS VARCHAR) = ?", [pdf])
    rep = encode_papers(settings).collections[0]
    assert rep.papers_removed == 1 and rep.vectors_inserted == 0
    assert check(settings) == [] and _vectors_match_cells(settings, coll)


def _encode_in_subprocess(data_dir, crash_after: int | None, engine, coll: str, models) -> subprocess.CompletedProcess:
    # the kill is injected through encode_papers' after_batch callback: SIGKILL after N inserted + flushed batches
    code = (
        "import os, signal, sys, json; sys.path.insert(0, '.');"
        "from tests.vectors.vechelpers import Engine;"
        "from pipeline.vectors import encode_papers;"
        f"n = [0]; limit = {crash_after or 0};"
        "hook = lambda: (n.__setitem__(0, n[0] + 1), n[0] >= limit and os.kill(os.getpid(), signal.SIGKILL));"
        f"engine = Engine({engine.name!r}, {engine.uri!r}, {engine.sparse!r});"
        f"r = encode_papers(engine.settings(__import__('pathlib').Path({str(data_dir)!r}), [{coll!r}], {models!r},"
        " papers_per_batch=1), after_batch=hook if limit else None);"
        "print(json.dumps(r.to_json()))"
    )
    return subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, timeout=300)


@pytest.mark.slow_variant("two encode processes with the tiny BGE, about a minute; the changed-paper test covers "
                           "a paper's delete and insert on the server")
def test_killed_encode_leaves_no_duplicates_after_rerun(base_db, tmp_path, engine, tiny_models):
    data = fresh_dir(base_db, tmp_path)
    coll = engine.text()
    # SIGKILL right after the first paper's insert + flush
    killed = _encode_in_subprocess(data, 1, engine, coll, tiny_models)
    assert killed.returncode == -9, killed.stderr[-2000:]
    settings = engine.settings(data, [coll], tiny_models)
    assert check(settings) != []  # the half-done paper is visible to check
    done = _encode_in_subprocess(data, None, engine, coll, tiny_models)
    assert done.returncode == 0, done.stderr[-2000:]
    rep = json.loads(done.stdout.strip().splitlines()[-1])["collections"][0]
    assert rep["papers_encoded"] == 2  # the killed paper was never recorded, so it is redone (delete + insert)
    assert check(settings) == []
    assert _vectors_match_cells(settings, coll)


def test_rebuild_and_model_change(base_db, tmp_path, tiny_models, engine):
    data = fresh_dir(base_db, tmp_path)
    settings = engine.settings(data, [BM25, BGE], {BGE: tiny_models[BGE]})
    assert encode_papers(settings).status == "ok"
    n = _n_cells(settings)
    other = engine.settings(data, [BM25, BGE], {BGE: tiny_models[BGE] + "/"})  # a different model reference
    rep = {c.collection: c for c in encode_papers(other).collections}
    assert rep[BGE].status == "failed" and "paperbase rebuild --collection" in rep[BGE].message
    rebuilt = rebuild(other, BGE)
    windows = rebuilt.collections[0].vectors_inserted  # the tiny model reads 64 pieces: long cells have several
    assert rebuilt.status == "ok" and windows > n
    assert encode_papers(other).inserted == 0
    bm25 = rebuild(settings, BM25).collections[0]
    if engine.sparse:
        assert bm25.vectors_inserted == n and _n_vectors(settings, BM25) == n
    else:  # refused with the line encode gives, nothing dropped or written
        assert bm25.vectors_inserted == 0 and "need Milvus >= 2.4" in bm25.message, bm25
    assert check(other) == [] and _n_vectors(settings, BGE) == windows


def _sidecars(settings, name: str) -> list:
    # every shard's folder (collections/<name>__sNNofMM)
    return sorted(f for d in (milvus.lite_path(settings) / "collections").glob(f"{name}__s*") for f in d.rglob("indexes/*idx"))


@pytest.mark.lite_only("index files beside the shards, written in place by the embedded engine")
def test_index_files_left_broken_by_a_killed_writer_are_rebuilt(base_db, tmp_path, caplog, engine):
    # Milvus Lite writes index sidecars in place; a SIGKILL mid-write leaves e.g. a 0-byte file ("File is too small")
    settings = make_settings(fresh_dir(base_db, tmp_path), [BM25])
    assert encode_papers(settings).status == "ok"
    n = _n_cells(settings)
    files = _sidecars(settings, BM25)
    assert files, "the BM25 collection has scalar index files on disk"
    for f in files:
        f.write_bytes(f.read_bytes()[: f.stat().st_size // 2] if f.suffix == ".idx" else b"")
    caplog.clear()
    assert check(settings) == [] and _n_vectors(settings, BM25) == n
    assert "index files were unreadable" in caplog.text
    assert all(f.stat().st_size > 0 for f in _sidecars(settings, BM25))  # rebuilt on load

    # a file whose size looks right but whose content does not load is handled the same way
    broken = _sidecars(settings, BM25)[0]
    broken.write_bytes(b"\0" * broken.stat().st_size)
    caplog.clear()
    assert check(settings) == [] and _n_vectors(settings, BM25) == n
    assert "index files were unreadable" in caplog.text
    assert search(settings, "transformer", BM25, limit=1)  # and the store stays searchable
