"""Similarity search for the agent runtime: a query, a collection and an optional filter -> scored hits with the
DuckDB text joined back (or the bbox, for image hits).

Rules:
- A cell is listed once: a long cell has one vector per window, so Milvus is asked for more than `limit` hits and the
  hits are de-duplicated by (table, column, primary key), keeping the best-scoring window, until `limit` distinct
  cells are found or the collection has no more.
- A filter that pins papers (`pdf_id == ...`, `pdf_id in [...]`) searches only those papers' shards and
  buckets (paper_search.py, milvus.py): the cost of a per-paper search grows with the bucket, not the library.
- A BM25 query's IDF comes from the documents it ranks: the statistics of the chunks of the papers its filter pins (a
  term every chunk of the paper carries weighs little there, however rare in the library), else of the whole
  library's chunks (`vectors.bm25_idf = "library"` always uses the library; pinned papers without chunks do too).
- A BM25 search whose filter pins papers leaves the names of those papers' authors out of the query
  (metadata.authors): they name the paper, which the filter already chose, and point at its title block and the
  citations of their other work rather than at the passage asked about ("What minibatch size did Kingma and Welling
  use?"). Measured (issue 31, per-paper chunk search, BM25 alone, evidence page first): 198 project questions 0.859 ->
  0.859, 189 paraphrased tuning questions 0.704 -> 0.730 (docs/vectors.md).
- A search whose filter pins one paper takes that paper's title phrases out of the query, for every collection
  (`bm25.without_title`: runs of two or more words that follow each other in the title). A question names its
  paper by title because it was written about that paper, not because the passage repeats the title; kept, the
  title's words pull the first hit to the title block and to passages that restate the title. With several papers
  pinned the title tells them apart and stays. Measured (issue 31, per-paper chunk search, default hybrid, evidence
  page first, 387 tuned questions; the held-out third only afterwards): 0.786 -> 0.824 (docs/vectors.md).
- Hit texts: the BM25 collection stores each cell's text (a storage-only field; one vector per cell there), so its
  hits come back with their texts; the other collections' hits (several window vectors per cell: storing the text
  would repeat it per window) and BM25 cells too long to store, or collections created before the field, are joined
  from DuckDB, one query per (table, column), through the per-connection text cache.
- `hybrid_search` fuses BM25 with every dense text collection that exists and whose model loads (fusion.py), weights
  and method from `vectors.hybrid`; a dense collection that cannot be searched is left out, not fatal.
"""
from __future__ import annotations

from collections import OrderedDict
from concurrent.futures import ThreadPoolExecutor
from collections.abc import Callable
from contextlib import AbstractContextManager
from dataclasses import dataclass

import duckdb

from pipeline.vectors import bm25
from pipeline.vectors.encoders import encoder_for
from pipeline.vectors import cells, ledger, milvus, rebuilding
from pipeline.vectors.stage import model_label
from pipeline.vectors import fusion
from pipeline.vectors.paper_search import pinned_papers
from pipeline.vectors.errors import ModelUnavailable, UnknownCollection
from pipeline.store import Store, StoreMissing
from schemas.vectorstore import collection as schema_collection, collections as schema_collections


OVERFETCH = 4  # Milvus hits asked per wanted cell (a 512-piece chunk has 2-3 MiniLM windows)


@dataclass
class Hit:
    score: float
    pdf_id: str
    page_number: int
    table_name: str
    column_name: str
    primary_key: str
    text: str | None = None
    bbox: list[int] | None = None


def build_filter(table_name: str | None, column_name: str | None, expr: str | None) -> str:
    parts = []
    if table_name:
        parts.append(f"table_name == {milvus.quote(table_name)}")
    if column_name:
        parts.append(f"column_name == {milvus.quote(column_name)}")
    if expr and expr.strip():
        parts.append(f"({expr})")
    return " and ".join(parts)


def search(settings, query: str, collection: str, table_name: str | None = None, column_name: str | None = None,
           filter: str | None = None, limit: int = 5, *, client=None,  # noqa: A002 (the agent's word)
           reading: Callable[[], AbstractContextManager] | None = None, ready: set[str] | None = None,
           cache: dict | None = None, join_text: bool = True, author_words: frozenset[str] | None = None) -> list[Hit]:
    """Top `limit` hits. Raises UnknownCollection / ModelUnavailable / pymilvus errors (a bad filter) to the caller.
    Pass an open `client` (from `pipeline.vectors.milvus.connect`) to reuse one connection across searches, and
    `reading` (a context manager factory yielding a DuckDB connection) to reuse a long-lived reader's connection, and
    `ready` (collections already seen loaded on that client) to skip re-checking them on every search, and
    `cache` (a dict the caller empties whenever its DuckDB connection is reopened: nothing can change while a read-only
    connection is open) to keep BM25 document frequencies and the texts of cells already joined between searches.
    `author_words` (the pinned papers' author words, from `_unnamed`) is passed by a caller that has already taken
    the pinned paper's title out of `query` (hybrid_search: its dense legs then read nothing from DuckDB)."""
    try:
        coll = schema_collection(collection)
    except KeyError as exc:
        raise UnknownCollection(str(exc)) from None
    store = Store(settings.duckdb_path)
    if not store.exists():
        raise StoreMissing(f"no database at {settings.duckdb_path}; run `paperbase ingest DIR` first")
    reading = reading or store.reading
    pinned = pinned_papers(filter)
    if author_words is None:
        query, author_words = _unnamed(query, pinned, reading, cache)
    if coll.embed_type == "bm25":
        papers = pinned if settings.vectors.bm25_idf == "searched" else None
        with reading() as con:
            terms = list(bm25.term_counts(query, author_words))
            # IDF from the documents this search ranks: those of the papers its filter pins (see bm25_idf)
            df, n_docs = _bm25_stats(con, terms, cache, papers)
            if papers and not n_docs:  # the pinned papers have no chunks (statistics come from chunks, bm25.py;
                df, n_docs = _bm25_stats(con, terms, cache)  # e.g. a scan without text): weigh by the library
        if not n_docs:
            raise UnknownCollection(f"collection {coll.name} has no vectors yet; run `paperbase encode`")
        vector = bm25.query_vector(query, df, n_docs, author_words)
        if not vector:
            return []  # no query term occurs in the corpus
        params = coll.search_params
    else:
        enc = encoder_for(coll, settings, model_label(coll, settings))
        vector = enc.encode_query(query).tolist()
        params = coll.search_params
    fields = milvus.META_FIELDS + (["bbox"] if coll.modality == "image" else [])
    windowed = coll.modality == "text" and not coll.is_sparse
    expr = build_filter(table_name, column_name, filter)
    if client is None:
        with milvus.connect(settings) as own:
            hits = _distinct_hits(own, coll, vector, expr, limit, fields, params, None, windowed)
    else:
        hits = _distinct_hits(client, coll, vector, expr, limit, fields, params, ready, windowed)
    if join_text:
        _join_text(reading, hits, cache)
    return hits


def _unnamed(query: str, pinned: list[str] | None, reading: Callable[[], AbstractContextManager],
             cache: dict | None) -> tuple[str, frozenset[str]]:
    """The query with the pinned paper's title phrases taken out, and the pinned papers' author words (module
    rules); the query as it is and no words when the filter pins no paper."""
    if not pinned:
        return query, frozenset()
    with reading() as con:
        authors, title = pinned_names(con, pinned, cache)
    return bm25.without_title(query, title), authors


def pinned_names(con, papers: list[str], cache: dict | None) -> tuple[frozenset[str], str | None]:
    """What names the pinned papers (metadata): the analysed words of their authors' names, and the title when one
    paper is pinned (with several, the title tells them apart: it stays in the query). From the cache where it has
    them."""
    key = ("names", tuple(papers))
    if cache is not None and key in cache:
        return cache[key]
    authors: list[str] = []
    titles: list[str | None] = []
    for pid in papers:  # usually one; an id that is no UUID names no paper
        try:
            row = con.execute("SELECT authors, title FROM metadata WHERE paper_id = TRY_CAST(? AS UUID)",
                              [pid]).fetchone()
        except duckdb.Error:  # no metadata table (a store of vectors alone): nothing to leave out
            row = None
        authors += list(row[0] or []) if row else []
        titles.append(row[1] if row else None)
    out = bm25.name_words(authors), (titles[0] if len(titles) == 1 else None)
    if cache is not None:
        cache[key] = out
    return out


def _bm25_stats(con, terms: list[int], cache: dict | None,
                papers: list[str] | None = None) -> tuple[dict[int, int], int]:
    """Document frequencies of the query terms and the number of documents, over the library or within `papers`,
    from the cache where it has them."""
    def lookup(wanted: list[int]) -> tuple[dict[int, int], int]:
        return ledger.bm25_paper_df(con, papers, wanted) if papers else ledger.bm25_df(con, wanted)

    if cache is None:
        return lookup(terms)
    slot = cache.setdefault(("bm25", tuple(papers or ())), {"df": {}})
    df_cache: dict[int, int] = slot["df"]
    missing = [t for t in terms if t not in df_cache]
    if missing or "n_docs" not in slot:
        df, n_docs = lookup(missing or terms[:1])
        df_cache.update({t: df.get(t, 0) for t in missing})
        slot["n_docs"] = n_docs
    return {t: df_cache[t] for t in terms if df_cache.get(t)}, slot["n_docs"]


def _distinct_hits(client, coll, vector, expr: str, limit: int, fields: list[str], params: dict,
                   ready: set[str] | None, windowed: bool) -> list[Hit]:
    """Top `limit` distinct cells: over-fetch where cells have several windows (dense text), widen until enough or
    exhausted; a collection with one vector per cell (BM25, CLIP) is asked for exactly `limit`."""
    fetch = limit * OVERFETCH + 10 if windowed else limit
    while True:
        raw = _run(client, coll, vector, expr, min(fetch, milvus.MAX_QUERY), fields, params, ready)
        hits = [Hit(float(r["distance"]), *(r["entity"][f] for f in milvus.META_FIELDS), bbox=r["entity"].get("bbox"),
                    text=r["entity"].get(milvus.TEXT_FIELD) or None)  # '' = not stored (too long): joined later
                for r in raw]
        if windowed:  # equal scores (cells with the same text) in one order on every engine: Lite, copies, server
            sign = -1.0 if milvus._larger_is_better(params) else 1.0
            hits.sort(key=lambda h: (sign * round(h.score, 6), h.table_name, h.column_name, h.primary_key))
        out = fusion.distinct(hits)
        if len(out) >= limit or len(raw) < min(fetch, milvus.MAX_QUERY) or fetch >= milvus.MAX_QUERY:
            return out[:limit]
        fetch *= 4


def _run(client, coll, vector, expr: str, limit: int, fields: list[str], params: dict,
         ready: set[str] | None) -> list[dict]:
    name = coll.name
    if ready is None or name not in ready:
        if name not in milvus.existing(client, [name]):  # this one only: asking about others may open the store
            raise UnknownCollection(rebuilding.unless_rebuilding(
                getattr(client, "paperbase_settings", None), [name],
                f"collection {name} does not exist yet (no vectors were built); run `paperbase encode`"))
        if ready is not None:
            ready.add(name)
    return milvus.search(client, name, vector, limit=limit, expr=expr, fields=fields, params=params,
                         pdf_ids=pinned_papers(expr), text=coll.is_sparse)


def hybrid_collections(settings, client) -> list[str]:
    """BM25 plus the dense text collections that exist, are enabled and whose model is available (schema order)."""
    from pipeline.vectors.encoders import availability
    from schemas.vectorstore import collections

    wanted = [c for c in collections() if c.modality == "text" and settings.vectors.collection(c.name).enabled]
    # the model first (a few file lookups): asking Milvus about a collection whose model is missing would open the
    # embedded store for nothing, where the search copies answer the rest (milvus.LazyLiteClient)
    usable = [c.name for c in wanted if availability(
        c, None if c.embed_type == "bm25" else model_label(c, settings), settings.vectors.download)[0]]
    names = milvus.existing(client, usable)  # runs on every hybrid search: ask about these only
    return [n for n in usable if n in names]


def hybrid_search(settings, query: str, table_name: str | None = None, column_name: str | None = None,
                  filter: str | None = None, limit: int = 5, *, client, collections: list[str] | None = None,
                  reading: Callable[[], AbstractContextManager] | None = None, ready: set[str] | None = None,
                  cache: dict | None = None) -> list[Hit]:  # noqa: A002
    """Top `limit` cells fused over BM25 and the dense text collections (see module rules); `score` is the fused one."""
    cfg = settings.vectors.hybrid
    names = collections or hybrid_collections(settings, client)
    if not names:
        wanted = [c.name for c in schema_collections() if c.modality == "text"]
        raise UnknownCollection(rebuilding.unless_rebuilding(
            settings, wanted, "no text collection has vectors yet; run `paperbase encode`"))
    # read here, once, so that only the BM25 leg touches DuckDB below
    query, authors = _unnamed(query, pinned_papers(filter), reading or Store(settings.duckdb_path).reading, cache)

    def leg(name: str) -> list[Hit] | None:
        try:
            return search(settings, query, name, table_name, column_name, filter, max(limit, cfg.candidates),
                          client=client, reading=reading, ready=ready, cache=cache, join_text=False, author_words=authors)
        except (UnknownCollection, ModelUnavailable):
            return None  # e.g. BM25 with no corpus statistics yet, or a model that vanished: fuse the others

    # the lists are searched at once: the query encoder and numpy's products release the GIL (2 cores: ~20% off a
    # library-wide hybrid search, docs/scale.md); only the BM25 leg reads DuckDB (its statistics), so the reader's
    # one connection is never used by two threads
    if len(names) > 1:
        with ThreadPoolExecutor(max_workers=len(names)) as pool:
            found = dict(zip(names, pool.map(leg, names)))
    else:
        found = {names[0]: leg(names[0])}
    lists: dict[str, list[Hit]] = {n: hits for n, hits in found.items() if hits is not None}
    fused = fusion.fuse(lists, {n: cfg.weight(n) for n in lists}, method=cfg.method, k=cfg.rrf_k)[:limit]
    hits = [Hit(round(score, 6), h.pdf_id, h.page_number, h.table_name, h.column_name, h.primary_key,
                text=_stored_text(lists, h)) for score, h in fused]
    _join_text(reading or Store(settings.duckdb_path).reading, hits, cache)
    return hits


def _stored_text(lists: dict[str, list[Hit]], hit: Hit) -> str | None:
    """The cell's text if any fused list's hit carried it (the BM25 collection stores texts)."""
    if hit.text is not None:
        return hit.text
    key = fusion.cell_key(hit)
    return next((h.text for hits in lists.values() for h in hits if h.text is not None and fusion.cell_key(h) == key), None)


TEXT_CACHE_CELLS = 4096  # texts kept per reader connection: an agent's searches over one paper keep meeting the same cells


def _join_text(reading: Callable[[], AbstractContextManager], hits: list[Hit], cache: dict | None = None) -> None:
    """Fill `text` of the hits from DuckDB, one query per (table, column); with a `cache`, texts already read on the
    same connection are reused (least recently used dropped beyond TEXT_CACHE_CELLS)."""
    texts: OrderedDict = cache.setdefault("texts", OrderedDict()) if cache is not None else OrderedDict()
    groups: dict[tuple[str, str], list[Hit]] = {}
    for h in hits:
        if h.bbox is not None or h.text is not None:  # an image hit, or a text the collection stored
            continue
        key = (h.table_name, h.column_name, h.primary_key)
        if key in texts:
            texts.move_to_end(key)
            h.text = texts[key]
        else:
            groups.setdefault((h.table_name, h.column_name), []).append(h)
    if not groups:
        return
    with reading() as con:
        for (table, column), group in groups.items():
            values = cells.texts_for(con, table, column, [h.primary_key for h in group])
            for h in group:
                v = values.get(h.primary_key)
                h.text = None if v is None else str(v)
                texts[(table, column, h.primary_key)] = h.text
    while len(texts) > TEXT_CACHE_CELLS:
        texts.popitem(last=False)
