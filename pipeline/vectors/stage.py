"""The encode stage: DuckDB cells -> vectors -> Milvus, incrementally and crash-consistently.

Per collection and batch of papers: forget the papers in the ledger, delete their vectors by pdf_id, insert, flush,
then record the fingerprints. A run killed anywhere leaves those papers unrecorded, so the next run deletes by pdf_id
and inserts again: never duplicates, never silently missing. DuckDB is only opened for short reads and writes; model
inference runs with no DuckDB connection held.
"""
from __future__ import annotations

import logging
import time
from collections import Counter
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field

from pipeline.vectors import bm25
from pipeline.vectors.encoders import availability, encoder_for, model_ref
from pipeline.vectors import cells, ledger, milvus, windowed
from pipeline.vectors.progress import Progress, current as current_progress
from pipeline.vectors.errors import ModelUnavailable, UnknownCollection, VectorError, is_transient, one_line
from pipeline.results import StageResult, Status, combine
from pipeline.store import Store
from schemas.vectorstore import Collection, collection, collections

log = logging.getLogger("paperbase.vectors")
EMPTY = "empty"  # fingerprint of a paper with no encodable cells of a modality
_INSERT_ROWS = 512


@dataclass(kw_only=True)
class CollectionReport(StageResult):
    collection: str
    status: Status = Status.OK  # ok | unchanged | skipped | failed | partial
    model: str | None = None
    papers_encoded: int = 0
    papers_removed: int = 0
    vectors_inserted: int = 0
    model_seconds: float = 0.0  # time inside model.encode / BM25 analysis (bench compares the rest against it)
    runtime: str | None = None  # dense text: the encoder's runtime and precision (runtime.py), e.g. "onnx on cpu"
    windows: int = 0  # dense text: window vectors written
    windows_encoded: int = 0  # distinct windows the model ran on (windowed.py)
    pieces_encoded: int = 0  # their word pieces, special tokens excluded
    message: str = ""
    retryable: bool = False  # failed on transient trouble (store busy, Milvus unreachable): worth another attempt


@dataclass(kw_only=True)
class EncodeReport(StageResult):
    collections: list[CollectionReport] = field(default_factory=list)
    unreachable: bool = False  # the vector store could not be opened (locked, down): worth another attempt

    @property
    def retryable(self) -> bool:
        return self.unreachable or any(c.retryable for c in self.collections)

    def all_errors(self) -> list[str]:
        return self.errors + [f"{c.collection}: {e}" for c in self.collections for e in c.errors]

    @property
    def status(self) -> Status:
        parts = [c.status for c in self.collections if c.status is not Status.SKIPPED]
        if self.errors:
            parts.append(Status.FAILED)
        status = combine(parts)
        return Status.OK if status is Status.UNCHANGED else status

    @property
    def inserted(self) -> int:
        return sum(c.vectors_inserted for c in self.collections)


def target_collections(settings, names: list[str] | None) -> list[Collection]:
    """The requested collections (schema order), or every collection enabled in settings."""
    if names:
        unknown = [n for n in names if n not in {c.name for c in collections()}]
        if unknown:
            raise UnknownCollection(f"unknown collection(s) {unknown}; known: {[c.name for c in collections()]}")
        return [c for c in collections() if c.name in names]
    return [c for c in collections() if settings.vectors.collection(c.name).enabled]


def model_label(coll: Collection, settings) -> str:
    return model_ref(coll, settings.vectors.collection(coll.name).model) or coll.embed_model


def encode_papers(settings, paper_ids: list[str] | None = None, *, collections: list[str] | None = None,
                  force: bool = False, after_batch: Callable[[], None] | None = None,
                  progress: Progress | None = None) -> EncodeReport:
    """Encode papers whose encodable cells changed since they were last encoded (or `paper_ids`; `force` re-encodes
    them even if unchanged). Papers gone from DuckDB lose their vectors. Returns a report; never raises per paper.
    `progress(collection, cells_done, cells_total)` is called as batches finish (the CLI draws its bar from it)."""
    report = EncodeReport()
    progress = current_progress(progress)
    store = Store(settings.duckdb_path)
    if not store.exists():
        report.errors.append(f"no database at {settings.duckdb_path}; run `paperbase ingest DIR` first")
        return report
    try:
        targets = target_collections(settings, collections)
    except UnknownCollection as exc:
        report.errors.append(str(exc))
        return report
    with store.writing() as con:
        ledger.ensure(con)
    with store.reading() as con:
        state = _State(papers=cells.papers(con), fingerprints={m: cells.fingerprints(con, m) for m in ("text", "image")},
                       known=ledger.collections(con), done={c.name: ledger.papers(con, c.name) for c in targets},
                       bm25=ledger.bm25_papers(con), cell_counts={m: _per_paper(cells.counts(con, m)) for m in ("text", "image")})
    loaded = []
    for coll in targets:
        rep = CollectionReport(collection=coll.name, model=model_label(coll, settings))
        report.collections.append(rep)
        if not cells.columns(coll.modality):
            rep.status, rep.message = Status.SKIPPED, f"no encodable {coll.modality} columns in the schema"
            continue
        try:
            ref = rep.model if coll.embed_type != "bm25" else None
            ok, why = availability(coll, ref, settings.vectors.download)
            if not ok:
                raise ModelUnavailable(f"{coll.name}: model {ref!r} unavailable: {why}")
            enc = _LazyEncoder(lambda coll=coll, ref=ref: encoder_for(coll, settings, ref)) if ref else None
        except ModelUnavailable as exc:
            rep.status, rep.message = Status.SKIPPED, str(exc)
            log.warning("skipping %s", exc)
            continue
        except Exception as exc:  # a broken model must not stop the other collections
            rep.status, rep.message = Status.FAILED, f"loading {rep.model!r} failed: {type(exc).__name__}: {exc}"
            continue
        loaded.append((coll, enc, rep))
    if not loaded:
        return report
    try:
        with milvus.connect(settings) as client:
            loaded = _refuse_unsupported(client, loaded)
            for coll, enc, rep in loaded:
                started = time.perf_counter()
                try:
                    _encode_collection(settings, store, client, coll, enc, rep, state, paper_ids, force, after_batch,
                                       progress)
                except Exception as exc:  # Milvus or DuckDB trouble: report it, keep going with other collections
                    rep.status, rep.retryable = Status.FAILED, is_transient(exc)
                    rep.errors.append(one_line(exc))
                _refresh_copies(client, coll.name)
                rep.seconds = round(time.perf_counter() - started, 3)
    except Exception as exc:  # the store could not be opened at all (locked, unreachable)
        if not isinstance(exc, VectorError) and not is_transient(exc):
            raise
        report.errors.append(str(exc))
        report.unreachable = is_transient(exc)
    return report


def _refuse_unsupported(client, loaded: list) -> list:
    """On a Milvus server, skip (before any work, with one line naming the minimum version) the collections the
    server cannot hold (server.py); the others go on."""
    from pipeline.vectors import server

    if not server.is_server(client):
        return loaded
    feats = server.features(client)
    kept = []
    for coll, enc, rep in loaded:
        why = feats.refusal(coll)
        if why:
            rep.status, rep.message = Status.SKIPPED, why
            log.warning("skipping %s", why)
        else:
            kept.append((coll, enc, rep))
    return kept


def refusals(settings, names: list[str] | None = None) -> dict[str, str]:
    """Collections (default: the enabled ones) the configured Milvus server cannot hold, each with its one-line reason
    (server.py); empty on the embedded default. One version RPC: what `ingest` asks before parsing."""
    if not settings.vectors.milvus_uri:
        return {}
    from pipeline.vectors import server

    with milvus.connect(settings) as client:
        feats = server.features(client)
        return {c.name: why for c in target_collections(settings, names) if (why := feats.refusal(c))}


def _refresh_copies(client, name: str) -> None:
    """Read back the search copies a collection lacks (copies.py); a failure costs speed, not answers."""
    try:
        if name in milvus.existing(client, [name]):
            n = milvus.sync_copies(client, name)
            if n:
                log.info("%s: search copies of %d shard(s) read back from Milvus", name, n)
    except Exception as exc:  # noqa: BLE001 - the shards stay searched in Milvus
        log.warning("%s: search copies not refreshed: %s: %s", name, type(exc).__name__, exc)


class _LazyEncoder:
    """Loads the model on first use, so a run where nothing changed never pays for loading weights."""

    def __init__(self, load):
        self._load, self._enc = load, None

    def __getattr__(self, name: str):
        if self._enc is None:
            self._enc = self._load()
        return getattr(self._enc, name)


@dataclass
class _State:
    papers: list[str]
    fingerprints: dict[str, dict[str, str]]
    known: dict[str, tuple[str, int]]
    done: dict[str, dict[str, ledger.PaperRow]]
    bm25: dict[str, tuple[int, int]]
    cell_counts: dict[str, dict[str, int]] = field(default_factory=dict)  # modality -> pdf_id -> cells


def _per_paper(counts: dict[tuple[str, str, str], int]) -> dict[str, int]:
    out: dict[str, int] = {}
    for (pdf_id, _table, _column), n in counts.items():
        out[pdf_id] = out.get(pdf_id, 0) + n
    return out


def paper_fingerprint(coll: Collection, settings, fingerprints: dict[str, dict[str, str]], pdf_id: str) -> str:
    """What the vector ledger records for a paper encoded with its current cells (images: at the current dpi)."""
    fp = fingerprints[coll.modality].get(pdf_id, EMPTY)
    if fp == EMPTY:
        return fp
    if coll.modality == "image":
        return f"{fp}@{settings.vectors.image_dpi}dpi"
    if coll.embed_type == "bm25":  # the analyzer and its constants shape every vector: a change re-encodes
        return (f"{fp}@{bm25.ANALYZER}:k1={settings.vectors.bm25_k1}:b={settings.vectors.bm25_b}"
                f":stats={bm25.STATISTICS}")
    return fp


def _fingerprint(coll: Collection, settings, state: _State, pdf_id: str) -> str:
    return paper_fingerprint(coll, settings, state.fingerprints, pdf_id)


def _encode_collection(settings, store: Store, client, coll: Collection, enc, rep: CollectionReport, state: _State,
                       paper_ids: list[str] | None, force: bool, after_batch: Callable[[], None] | None,
                       progress: Progress | None = None) -> None:
    dim = lambda: getattr(enc, "dim", None)  # noqa: E731  (asking loads the model: only when creating)
    done = state.done[coll.name]
    if coll.name not in milvus.existing(client):
        milvus.create_collection(client, coll, dim())
        with store.writing() as con:  # a new (or lost) collection: nothing in the ledger is true for it any more
            ledger.forget_collection(con, coll.name, bm25=coll.is_sparse)
            ledger.set_collection(con, coll.name, rep.model, dim())
        done = {}
        if coll.is_sparse:
            state.bm25 = {}
    else:
        recorded = state.known.get(coll.name)
        if recorded and recorded[0] != rep.model:
            rep.status = Status.FAILED
            rep.message = (f"built with {recorded[0]!r} but configured model is {rep.model!r}; "
                           f"run `paperbase rebuild --collection {coll.name}`")
            return
        if not recorded:
            with store.writing() as con:
                ledger.set_collection(con, coll.name, rep.model, dim())
    # nothing is loaded up front: deletes load the shards of the papers they touch (milvus.py)

    present = set(state.papers)
    wanted = [p for p in (paper_ids if paper_ids is not None else state.papers) if p in present]
    scope = set(paper_ids) if paper_ids is not None else None
    orphans = [p for p in done if p not in present and (scope is None or p in scope)]
    stale = [p for p in wanted if force or p not in done or done[p].fingerprint != _fingerprint(coll, settings, state, p)]

    if orphans:
        with store.writing() as con:
            ledger.invalidate(con, coll.name, orphans)
            if coll.is_sparse:
                ledger.set_bm25_stats(con, {p: (0, 0, Counter()) for p in orphans})
        milvus.delete_papers(client, coll.name, orphans)
        milvus.flush(client, coll.name, orphans)
        rep.papers_removed = len(orphans)

    avgdl, new_stats = None, {}
    if coll.is_sparse:
        avgdl, new_stats = _bm25_plan(store, settings, state, stale, orphans, rep)
        tol = settings.vectors.bm25_avgdl_tolerance
        drifted = [p for p in wanted if p not in stale and done[p].avgdl and abs(done[p].avgdl - avgdl) / avgdl > tol]
        stale += drifted
        if drifted:
            log.info("%s: corpus mean length moved to %.1f; re-encoding %d paper(s)", coll.name, avgdl, len(drifted))

    if not stale:
        rep.status = Status.UNCHANGED if not orphans else Status.OK
        return
    step = max(1, settings.vectors.papers_per_batch)
    total = sum(state.cell_counts.get(coll.modality, {}).get(p, 0) for p in stale)
    done_cells = 0

    def advance(n: int) -> None:
        nonlocal done_cells
        done_cells += n
        if progress:
            progress(coll.name, min(done_cells, total), total)

    advance(0)
    cache = windowed.WindowCache()  # windows already encoded in this run (windowed.py)
    if enc is not None and coll.modality == "text":
        rep.runtime = enc.label
    store_text = coll.is_sparse and milvus.stores_text(client, coll.name)

    def write(batch: list[str], rows: list[dict]) -> None:
        _replace(store, client, coll, batch, rows)
        if after_batch:  # e.g. a test that kills the process at the worst moment: vectors written, ledger not yet
            after_batch()
        records = {p: ledger.PaperRow(_fingerprint(coll, settings, state, p), sum(1 for r in rows if r["pdf_id"] == p), avgdl)
                   for p in batch}
        with store.writing() as con:
            ledger.record(con, coll.name, records)
            if coll.is_sparse:
                ledger.set_bm25_stats(con, {p: new_stats[p] for p in batch if p in new_stats})
        rep.papers_encoded += len(batch)
        rep.vectors_inserted += len(rows)
        log.info("%s: %d/%d paper(s) encoded", coll.name, rep.papers_encoded, len(stale))

    # One batch is written (Milvus insert + flush, ledger) in a second thread while the next is encoded: the writes
    # are single-threaded Python that left a core idle beside them (14 s of a 128 s corpus ingest on 2 cores). The
    # batches still land in order, each recorded only after its vectors; DuckDB is read only while no write runs
    # (one process cannot hold a read-only and a writing connection to one file at once).
    batches = [stale[i : i + step] for i in range(0, len(stale), step)]
    with store.reading() as con:
        batch_cells = cells.load(con, coll.modality, batches[0])
    writing: Future | None = None
    with ThreadPoolExecutor(1, thread_name_prefix="paperbase-write") as writer:
        try:
            for k, batch in enumerate(batches):
                rows = _vectors(settings, coll, enc, batch_cells, avgdl, rep, advance, store_text=store_text,
                                cache=cache)
                if writing is not None:
                    writing.result()
                    writing = None
                if k + 1 < len(batches):
                    with store.reading() as con:
                        batch_cells = cells.load(con, coll.modality, batches[k + 1])
                writing = writer.submit(write, batch, rows)
        finally:
            if writing is not None:  # the last batch's write, or the one running when encoding failed
                writing.result()
    rep.model_seconds = round(rep.model_seconds, 3)
    if rep.errors:
        rep.status = Status.PARTIAL


def _bm25_plan(store: Store, settings, state: _State, stale: list[str], orphans: list[str], rep: CollectionReport):
    """Statistics of the stale papers' new chunks (bm25.STATS_FIELD), and the corpus mean chunk length all of this
    run's vectors use."""
    new_stats: dict[str, tuple[int, int, Counter[int]]] = {}
    step = max(1, settings.vectors.papers_per_batch)
    for i in range(0, len(stale), step):
        with store.reading() as con:
            batch_cells = cells.load(con, "text", stale[i : i + step])
        t0 = time.perf_counter()
        by_paper: dict[str, list[Counter[int]]] = {}
        for c in batch_cells:
            if (c.table, c.column) == bm25.STATS_FIELD:
                by_paper.setdefault(c.pdf_id, []).append(bm25.term_counts(c.text or ""))
        rep.model_seconds += time.perf_counter() - t0
        for p in stale[i : i + step]:
            new_stats[p] = bm25.corpus_stats(by_paper.get(p, []))
    kept = {p: s for p, s in state.bm25.items() if p not in new_stats and p not in orphans}
    n = sum(s[0] for s in kept.values()) + sum(s[0] for s in new_stats.values())
    total = sum(s[1] for s in kept.values()) + sum(s[1] for s in new_stats.values())
    return (total / n if n else 1.0), new_stats


def _vectors(settings, coll: Collection, enc, batch_cells: list[cells.Cell], avgdl: float | None,
             rep: CollectionReport, progress: Callable[[int], None] | None = None, store_text: bool = False,
             cache: windowed.WindowCache | None = None) -> list[dict]:
    t0 = time.perf_counter()
    good = batch_cells
    if coll.embed_type == "bm25":
        k1, b = settings.vectors.bm25_k1, settings.vectors.bm25_b
        vecs = [bm25.doc_vector(bm25.term_counts(c.text or ""), avgdl or 1.0, k1, b) for c in batch_cells]
    elif coll.modality == "image":
        from pipeline.render import crop_png

        pngs, good = [], []
        for c in batch_cells:
            try:
                pngs.append(crop_png(c.pdf_path, c.page_number, c.bbox, settings.vectors.image_dpi))
                good.append(c)
            except Exception as exc:  # a missing PDF or a bad box loses one cell, not the batch; check shows it
                rep.errors.append(f"{c.table}.{c.column} {c.primary_key}: {type(exc).__name__}: {exc}")
        vecs = list(enc.encode_images(pngs)) if pngs else []
    else:  # dense text: every window of every cell, each distinct window encoded once (windowed.py)
        counts = windowed.Counts()
        good, vecs = windowed.encode(enc, batch_cells, min(enc.max_tokens, settings.vectors.window_tokens),
                                     settings.vectors.window_overlap, cache, progress, counts)
        rep.windows += counts.windows
        rep.windows_encoded += counts.encoded
        rep.pieces_encoded += counts.pieces
    rep.model_seconds += time.perf_counter() - t0
    if progress and (coll.embed_type == "bm25" or coll.modality == "image"):  # dense text reported per group
        progress(len(batch_cells))
    rows = []
    text_bytes = int(coll.field(milvus.TEXT_FIELD).raw["max_length"]) if store_text else 0
    for item, v in zip(good, vecs):
        c, window = item if isinstance(item, tuple) else (item, 0)
        row = {"id": milvus.entity_id(coll.name, c.table, c.column, c.primary_key, window),
               "vector": v if isinstance(v, dict) else v.tolist(), "pdf_id": c.pdf_id,
               "page_number": max(-1, min(c.page_number, 32767)), "table_name": c.table, "column_name": c.column,
               "primary_key": c.primary_key}
        if coll.modality == "image":
            row["bbox"] = list(c.bbox)  # type: ignore[arg-type]
        if store_text:  # one vector per cell here (BM25): the hit's text comes back with the search
            row[milvus.TEXT_FIELD] = milvus.text_to_store(c.text, text_bytes)
        rows.append(row)
    return rows


def _replace(store: Store, client, coll: Collection, batch: list[str], rows: list[dict]) -> None:
    """Forget, delete, insert, flush: after this the batch's vectors are exactly `rows`."""
    with store.writing() as con:
        ledger.invalidate(con, coll.name, batch)
    milvus.delete_papers(client, coll.name, batch)
    milvus.insert(client, coll.name, rows, _INSERT_ROWS)
    milvus.flush(client, coll.name, batch)


def rebuild(settings, collection: str | None = None) -> EncodeReport:
    """Drop and re-encode one collection (or every enabled one) from DuckDB, e.g. after a model change. A collection
    whose model is unavailable is left untouched."""
    report = EncodeReport()
    try:
        targets = target_collections(settings, [collection] if collection else None)
    except UnknownCollection as exc:
        report.errors.append(str(exc))
        return report
    store = Store(settings.duckdb_path)
    if not store.exists():
        report.errors.append(f"no database at {settings.duckdb_path}; run `paperbase ingest DIR` first")
        return report
    ready = []
    for coll in targets:
        ok, why = availability(coll, model_label(coll, settings), settings.vectors.download)
        if ok:
            ready.append(coll.name)
        else:
            report.collections.append(CollectionReport(collection=coll.name, status=Status.SKIPPED,
                                                         model=model_label(coll, settings), message=why))
    if not ready:
        return report
    from pipeline.vectors.rebuilding import marking

    with marking(settings, ready):  # readers meanwhile say "being rebuilt" (rebuilding.py)
        with milvus.connect(settings) as client:
            for name in ready:
                milvus.drop(client, name)  # every shard, complete or not, or an older store's single collection
        with store.writing() as con:
            ledger.ensure(con)
            for name in ready:
                ledger.forget_collection(con, name, bm25=collection_is_sparse(name))
        sub = encode_papers(settings, None, collections=ready, force=True)
    report.collections += sub.collections
    report.errors += sub.errors
    return report


def collection_is_sparse(name: str) -> bool:
    return collection(name).is_sparse


def remove_papers(settings, paper_ids: list[str]) -> int:
    """Delete the vectors of these papers from every collection that exists, and their vector ledger rows (prune).
    Ledger first, then Milvus: a crash in between leaves orphans that the next encode removes."""
    if not paper_ids:
        return 0
    store = Store(settings.duckdb_path)
    with store.writing() as con:
        ledger.ensure(con)
        for coll in collections():
            ledger.invalidate(con, coll.name, paper_ids)
        ledger.set_bm25_stats(con, {p: (0, 0, Counter()) for p in paper_ids})
    removed = 0
    with milvus.connect(settings) as client:
        for name in milvus.existing(client):
            milvus.load(client, name)
            before = milvus.count(client, name)
            milvus.delete_papers(client, name, paper_ids)
            milvus.flush(client, name, paper_ids)
            removed += before - milvus.count(client, name)
            _refresh_copies(client, name)
    return removed
