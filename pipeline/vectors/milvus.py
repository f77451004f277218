"""Milvus access: Milvus Lite under the data dir by default, a server when a URI is configured; same code path.

Only features a Milvus server accepts are used: explicit INT64 ids, collections, partitions, deletes by id, flush,
HNSW / FLAT / SPARSE_INVERTED_INDEX / INVERTED indexes.

Shards and paper buckets: a collection is SHARDS physical Milvus collections (`<name>__s00of16` ...) holding
PAPER_BUCKETS partitions (`papers_000` ...) between them; a vector goes to the bucket its `pdf_id` hashes to (blake2b,
stable across processes), bucket b to shard b % SHARDS. Why: Milvus Lite is pure Python, and every search, query and
filter delete walks every row of the partitions it covers in a Python loop, while its sparse (BM25) search resolves
row versions over the *whole collection* and a collection is loaded whole, segment by segment, on first use in each
process (bench/scale.py: all of it grew linearly with the library). A search that pins its papers visits their shards
and buckets only: its loops cover ~1/PAPER_BUCKETS (dense) or ~1/SHARDS (BM25 version resolution) of the library, and a
fresh process loads only those shards. A library-wide search visits every shard and merges by distance. Partitions
alone (the layout before shards) bounded the dense loop but not the BM25 one nor loading. A shard's partitions are
made when a paper first lands in them (`insert`), not with the collection: a store's first encode made all 256 of its
two collections' partitions, one RPC and one manifest write each, though a small library fills a few. A search or
delete about papers whose partition was never made has nothing to visit there. Names everywhere outside this module
are the schema's (the `[Vectorstore Schema]` prompt is unchanged); a collection from an older store (one physical
collection under its own name, with or without buckets) keeps working; `paperbase rebuild` reshapes it.

Finding a collection never lists the store: Milvus Lite answers a listing by opening every collection in it (reading
every segment), which would undo the lazy loading. The schema name is an alias of shard 0, created after every shard,
so one alias lookup says whether the collection exists and is complete and, from shard 0's name, how many shards it
has (a set a killed process left half-made has no alias and is completed by the next create).

Search copies (copies.py): on the embedded default each shard is also mirrored as numpy arrays, followed through this
module's writes (`insert` / `delete_papers` note them, `sync_copies` applies them once the encode run or prune is done)
and searched instead of the shard while they hold exactly what it holds; a shard without a current copy is searched
here in Milvus as before.
"""
from __future__ import annotations

import functools
import logging
import os
import re
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from collections.abc import Iterator
from contextlib import contextmanager
from hashlib import blake2b
from pathlib import Path

from schemas.vectorstore import Collection

# pymilvus pings every 10 s; Milvus Lite's server answers "too_many_pings" and gRPC's C core logs each GOAWAY as
# an error although the client just backs off. Real failures still surface as Python exceptions.
os.environ.setdefault("GRPC_VERBOSITY", "NONE")


def _quiet_pymilvus() -> None:
    """pymilvus configures its own loggers when imported and logs every failed RPC with a traceback before raising
    it; the exception reaches the caller anyway (the CLI turns it into one line), so those logs stay quiet."""
    for name in ("pymilvus", "pymilvus.milvus_client", "pymilvus.decorators"):
        logging.getLogger(name).setLevel(logging.CRITICAL)
    _skip_scipy_probe()


def _skip_scipy_probe() -> None:
    """Tell pymilvus that no scipy sparse matrix will come its way (true: our sparse rows are dicts). Why: before
    packing the first sparse row of a process pymilvus asks whether the value is a scipy matrix, and to know whether
    scipy has such classes it executes `scipy.sparse` from its spec, outside sys.modules, then imports it properly
    (pymilvus/client/utils.py, SciPyHelper). That costs every encode process 0.2-1 s of CPU (scipy's array-API layer
    walks numpy's lazy submodules) for an answer that is always no here. Only once pymilvus is imported (this runs
    after every import of it); a pymilvus without the helper is left alone."""
    import sys

    utils = sys.modules.get("pymilvus.client.utils")
    helper = getattr(utils, "SciPyHelper", None)
    if helper is not None and not getattr(helper, "_checked", True):
        helper._matrix_available = helper._array_available = False  # noqa: SLF001 - pymilvus' own probe flags
        helper._checked = True  # noqa: SLF001

log = logging.getLogger(__name__)

_DTYPES = {"INT64", "INT16", "VARCHAR", "FLOAT_VECTOR", "SPARSE_FLOAT_VECTOR", "ARRAY"}
META_FIELDS = ["pdf_id", "page_number", "table_name", "column_name", "primary_key"]


def lite_path(settings) -> Path:
    return settings.data_dir / settings.vectors.lite_dirname


def uri_for(settings) -> str:
    return settings.vectors.milvus_uri or str(lite_path(settings))


@contextmanager
def connect(settings) -> Iterator:
    """A MilvusClient, closed on exit. On the embedded default the store is shared between processes (see lite.py),
    and opened lazily (`LazyLiteClient`): a search that its search copies answer never starts Milvus Lite nor imports
    pymilvus; the first call that needs Milvus opens the store, or connects to the process that holds it."""
    _quiet_pymilvus()
    if settings.vectors.milvus_uri:
        from pymilvus import MilvusClient

        _quiet_pymilvus()  # again: pymilvus sets its loggers up when first imported, which may be just now
        client = MilvusClient(uri=settings.vectors.milvus_uri)
        client.paperbase_remote = True
        client.paperbase_lite_dir = None
        client.paperbase_lite_path = None
        client.paperbase_lite_opened = False
        client.paperbase_store = None  # a server searches in C++: no search copies (copies.py)
        client.paperbase_settings = settings
        try:
            yield client
        finally:
            client.close()
        return
    client = LazyLiteClient(settings, lite_path(settings))
    try:
        yield client
    finally:
        client.close()


class LazyLiteClient:
    """The embedded store's client, opened on first use: any MilvusClient method or attribute asked for opens it
    (`lite.acquire`: this process starts Milvus Lite, or connects to the process holding the store) and is passed to
    the real client from then on. Until then only the `paperbase_*` facts are there, which is all a search answered
    by its search copies needs (existing() and layout() read the alias file and the copies' fingerprints, copies.py).

    Why: a cold `paperbase search` spent most of its CPU importing pymilvus (pandas, gRPC, and scipy on the first
    search call: 65 % of its samples under py-spy) and a further 13 % starting Milvus Lite and calling it
    (docs/architecture.md, "Start-up"), none of which a search with fresh copies uses."""

    paperbase_remote = False

    def __init__(self, settings, store: Path):
        import threading

        self.paperbase_settings = settings  # readers say "being rebuilt" (rebuilding.py)
        self.paperbase_lite_dir = store  # where its files are, held here or served by another process
        self.paperbase_store = store if settings.vectors.search_copies else None  # copies.py
        self._timeout = settings.vectors.lock_timeout
        self._real = None
        self._held = False
        self._closed = False
        self._lock = threading.RLock()

    @property
    def paperbase_lite_opened(self) -> bool:
        """Whether this process opened the store itself (False: not opened, or answered by another process's)."""
        return self._held

    @property
    def paperbase_lite_path(self) -> Path | None:
        """The store when this process holds it: only the holder may repair index files (load())."""
        return self.paperbase_lite_dir if self._held else None

    @property
    def opened(self) -> bool:
        return self._real is not None

    def open(self):
        """The real MilvusClient, opening the store on the first call."""
        with self._lock:
            if self._real is None:
                if self._closed:
                    raise RuntimeError("the Milvus client was closed")
                from pymilvus import MilvusClient

                from pipeline.vectors import lite

                _quiet_pymilvus()  # pymilvus sets its loggers up when imported
                deadline = time.monotonic() + self._timeout
                while True:
                    uri, held = lite.acquire(self.paperbase_lite_dir, self._timeout)
                    try:
                        self._real = MilvusClient(uri=uri)
                        break
                    except Exception as exc:
                        lite.release(self.paperbase_lite_dir, held)
                        # The process that published its server was exiting (measured: 2 cold searches in 287 met a
                        # port that no longer answered): once it is gone the store is free for this process to hold.
                        if held or time.monotonic() > deadline or not _unreachable(exc):
                            raise
                        time.sleep(0.2)
                self._held = held
            return self._real

    def __getattr__(self, name: str):
        if name.startswith(("paperbase_", "_")):  # facts this client does not have: never a reason to open the store
            raise AttributeError(name)
        attr = getattr(self.open(), name)
        if self._held or name not in _READS or not callable(attr):
            return attr
        return functools.partial(self._read_from_holder, name)

    def _read_from_holder(self, name: str, *args, **kwargs):
        """A read through another process's server, once more from the store's next holder (or this process) when
        that server went away under it. Why: a holder exiting between this process connecting and reading (a search
        beside a search that is ending) failed the read with "Fail connecting" (1 cold search in 73 under load in
        bench/search_crash_loop.py). Only reads are repeated: a write that may have landed is never sent twice."""
        real = self.open()
        try:
            return getattr(real, name)(*args, **kwargs)
        except Exception as exc:
            if not _holder_gone(exc):
                raise
            log.info("the process serving the Milvus Lite store went away during %s; reading again", name)
            with self._lock:
                if self._real is real:
                    self._real = None
                    try:
                        real.close()
                    except Exception:  # noqa: BLE001 - the connection is already dead
                        pass
            return getattr(self.open(), name)(*args, **kwargs)

    def close(self) -> None:
        with self._lock:
            self._closed = True
            real, self._real = self._real, None
            if real is None:
                return
            from pipeline.vectors import lite

            try:
                real.close()
            finally:
                lite.release(self.paperbase_lite_dir, self._held)


def _unreachable(exc: BaseException) -> bool:
    """A connection that never came up (the server behind a published port has gone), not a refused request."""
    text = str(exc).lower()
    return "fail connecting" in text or "unavailable" in text or "connection refused" in text


# MilvusClient calls that only read (or load, which a repeat leaves as it was): safe to send again to the next holder.
_READS = frozenset({"search", "query", "get", "list_collections", "has_collection", "describe_collection",
                    "get_collection_stats", "list_partitions", "has_partition", "get_load_state", "load_collection",
                    "load_partitions", "describe_alias", "list_aliases", "list_indexes", "describe_index",
                    "get_server_version"})


def _holder_gone(exc: BaseException) -> bool:
    """The holder's server stopped answering, or answered from an interpreter that is shutting down."""
    from pipeline.vectors.errors import is_transient

    return is_transient(exc) or _unreachable(exc) or "cannot schedule new futures" in str(exc).lower()


def entity_id(collection: str, table: str, column: str, primary_key: str, window: int = 0) -> int:
    """Deterministic positive INT64 id for a cell's window in a collection (same cell and window, same id, on every
    run). Window 0 (every short cell) keeps the id a cell had before cells were windowed."""
    parts = (collection, table, column, primary_key) + ((str(window),) if window else ())
    key = "\x1f".join(parts).encode("utf-8")
    return int.from_bytes(blake2b(key, digest_size=8).digest(), "big") & (2**63 - 1)


PAPER_BUCKETS = 128  # 1M vectors -> ~7.8k per bucket; a Milvus server allows 1,024 partitions per collection
BUCKET_PREFIX = "papers_"
SHARDS = 16  # physical collections per collection: 300k vectors -> ~19k per shard, 1M -> ~63k
SHARD_MARK = "__s"
_SHARD = re.compile(rf"(.+){SHARD_MARK}(\d\d)of(\d\d)")  # the count in every name: a half-made set is recognisable


def _bucket_index(pdf_id: str, n: int) -> int:
    return int.from_bytes(blake2b(pdf_id.encode("utf-8"), digest_size=8).digest(), "big") % n


def bucket_of(pdf_id: str, n: int = PAPER_BUCKETS) -> str:
    return f"{BUCKET_PREFIX}{_bucket_index(pdf_id, n):03d}"


def shard_name(name: str, shard: int, shards: int = SHARDS) -> str:
    return f"{name}{SHARD_MARK}{shard:02d}of{shards:02d}"


@dataclass(frozen=True)
class Layout:
    """Where a collection's vectors live: its physical collections (shards) and paper buckets (partitions).

    Bucket b of a paper lives in shard b % len(shards), partition `papers_<b>`. A collection from before shards is one
    physical collection under its own name (with buckets, or everything in `_default` when `buckets` is 0)."""

    name: str
    shards: tuple[str, ...]
    buckets: int

    def place(self, pdf_id: str) -> tuple[str, str | None]:
        """(shard, partition) of a paper's vectors; partition None: the collection has no buckets."""
        if not self.buckets:
            return self.shards[0], None
        b = _bucket_index(pdf_id, self.buckets)
        return self.shards[b % len(self.shards)], f"{BUCKET_PREFIX}{b:03d}"

    def targets(self, pdf_ids: list[str] | None) -> list[tuple[str, list[str] | None]]:
        """(shard, partitions) pairs a search or query about these papers visits; every shard when None."""
        if not pdf_ids:
            return [(s, None) for s in self.shards]
        found: dict[str, set[str]] = {}
        for p in pdf_ids:
            shard, part = self.place(p)
            found.setdefault(shard, set()).update([part] if part else [])
        return [(s, sorted(found[s]) or None) for s in self.shards if s in found]


def _physical(client, name: str) -> tuple[str, ...]:
    """Every physical collection of `name`, complete or not (drop only: Milvus Lite's listing opens every collection
    of the store, segments and all)."""
    found = []
    store = getattr(client, "paperbase_lite_dir", None)
    if store is not None and (Path(store) / "collections").is_dir():  # embedded: its folders, without opening any
        listed = [p.name for p in (Path(store) / "collections").iterdir() if (p / "schema.json").exists()]
    else:
        listed = client.list_collections()
    for p in listed:
        m = _SHARD.fullmatch(p)
        if p == name or (m and m.group(1) == name):
            found.append(p)
    return tuple(sorted(found))


def _describe(client, name: str) -> tuple[str, ...] | None:
    """The physical collections of a complete collection, or None. Cheap (no listing): the alias `name`, created last,
    names shard 0, whose name carries the shard count; without the alias, a collection under the name itself is one
    from an older store."""
    if not client.has_collection(name):  # true for an alias too; asked first: a missing alias is an error RPC
        return None
    try:
        target = client.describe_alias(name).get("collection_name")
    except Exception:  # noqa: BLE001 - not an alias: a collection of an older store (pymilvus' own error types)
        target = None
    m = _SHARD.fullmatch(target or "")
    if m and m.group(1) == name:
        n = int(m.group(3))
        return tuple(shard_name(name, s, n) for s in range(n))
    return (name,)


def _schema_names() -> list[str]:
    from schemas.vectorstore import collections

    return [c.name for c in collections()]


def existing(client, names: list[str] | None = None) -> set[str]:
    """Which of these collections (default: the schema's) exist and are complete; asked afresh every time, since
    another process may have created or dropped one, and the cached layout of one that changed is dropped. A known
    collection whose every shard has a current search copy counts as existing without asking Milvus (drop() removes
    the copies before anything else)."""
    cache: dict[str, Layout] = client.__dict__.setdefault("paperbase_layouts", {})
    out = set()
    for name in names if names is not None else _schema_names():
        if name not in cache:
            _copied_layout(client, name)
        if name in cache and _all_copied(client, cache[name]):
            out.add(name)  # every shard has a current copy, which drop() removes before anything else
            continue
        shards = _describe(client, name)
        if name in cache and cache[name].shards != shards:
            cache.pop(name)
        if shards:
            out.add(name)
    return out


def _all_copied(client, lay: Layout) -> bool:
    store = _copy_store(client, lay.name)
    if store is None:
        return False
    from pipeline.vectors import copies

    return all(copies.fresh(store, s) is not None for s in lay.shards)


def _copied_layout(client, name: str) -> Layout | None:
    """The layout of an embedded collection whose every shard has a current search copy, read from the store's files
    without opening it (and cached as layout() caches): the alias file that Milvus Lite keeps beside its collections
    names shard 0 (`<store>/aliases.json`, milvus_lite/db.py), whose name carries the shard count. None (and Milvus
    is asked) for anything else: a server, copies off, no alias yet (a set being made), a shard without a fresh copy
    (being written, dropped: drop() removes copies first)."""
    store = getattr(client, "paperbase_store", None)
    if store is None or _copy_metric(name) is None:
        return None
    import json

    try:
        target = json.loads((Path(store) / "aliases.json").read_text()).get(name)
    except (OSError, ValueError, AttributeError):
        return None
    m = _SHARD.fullmatch(target or "")
    if not m or m.group(1) != name or m.group(2) != "00":
        return None
    n = int(m.group(3))
    lay = Layout(name, tuple(shard_name(name, s, n) for s in range(n)), PAPER_BUCKETS)
    from pipeline.vectors import copies

    if n < 2 or any(copies.fresh(Path(store), s) is None for s in lay.shards):
        return None
    client.__dict__.setdefault("paperbase_layouts", {})[name] = lay
    return lay


def layout(client, name: str) -> Layout:
    """The layout of an existing collection; looked up once per client (existing() drops it when it changes)."""
    cache: dict[str, Layout] = client.__dict__.setdefault("paperbase_layouts", {})
    if name not in cache and _copied_layout(client, name) is None:
        shards = _describe(client, name)
        if not shards:
            from pipeline.vectors.errors import CollectionGone

            raise CollectionGone(f"collection {name} does not exist (dropped or being rebuilt by another process?)")
        if shards == (name,):  # an older store's single collection: its buckets, if any, are its partitions
            buckets = sum(1 for p in client.list_partitions(name) if p.startswith(BUCKET_PREFIX))
        else:
            buckets = PAPER_BUCKETS
        cache[name] = Layout(name, shards, buckets)
    return cache[name]


def buckets(client, name: str) -> int:
    """How many paper buckets `name` has over all its shards (0: created before buckets)."""
    return layout(client, name).buckets


TEXT_FIELD = "text"  # storage_only VARCHAR of the BM25 collection (schemas/vectorstore.json): hit texts without DuckDB


def stores_text(client, name: str, pdf_ids: list[str] | None = None) -> bool:
    """Whether `name` has the stored-text field (collections created before it have not); asked once per client, of
    the first shard these papers' search visits (describing a shard makes Milvus Lite open it: one it opens anyway)."""
    known: dict[str, bool] = client.__dict__.setdefault("paperbase_text", {})
    if name not in known:
        shard = layout(client, name).targets(pdf_ids)[0][0]
        known[name] = any(f["name"] == TEXT_FIELD for f in client.describe_collection(shard)["fields"])
    return known[name]


def text_to_store(text: str | None, max_bytes: int) -> str:
    """The cell's text as stored, or '' when its UTF-8 form does not fit (the search then reads it from DuckDB)."""
    text = "" if text is None else str(text)
    return text if len(text.encode("utf-8")) <= max_bytes else ""


def insert(client, name: str, rows: list[dict], chunk: int = 2000) -> None:
    """Insert rows, each into its paper's shard and bucket."""
    lay = layout(client, name)
    groups: dict[tuple[str, str | None], list[dict]] = {}
    for r in rows:
        groups.setdefault(lay.place(r["pdf_id"]), []).append(r)
    for (shard, part), group in groups.items():
        _note(client, name, shard, rows=group)
        if part is not None:
            _make_partition(client, shard, part)
        for i in range(0, len(group), chunk):
            if part is None:
                client.insert(shard, group[i:i + chunk])
            else:
                client.insert(shard, group[i:i + chunk], partition_name=part)


def delete_papers(client, name: str, pdf_ids: list[str]) -> None:
    """Delete every vector of these papers by id (a filter delete makes Milvus Lite query the whole collection). The
    ids come from the shard's search copy where it is exact (_ids_from_copy: one RPC per shard, no load, none at all
    for a paper the shard does not hold), else from a query of the papers' buckets; without buckets, a filter
    delete as before."""
    if not pdf_ids:
        return
    lay = layout(client, name)
    targets = lay.targets(pdf_ids)
    by_shard: dict[str, list[str]] = {}
    for p in pdf_ids:
        by_shard.setdefault(lay.place(p)[0], []).append(p)
    known = {shard: _ids_from_copy(client, name, shard, by_shard[shard]) for shard, parts in targets
             if parts is not None}
    _ensure_loaded(client, [s for s, _ in targets if known.get(s) is None])
    for shard, parts in targets:
        _note(client, name, shard, deleted=by_shard.get(shard, pdf_ids))
        if parts is None:
            client.delete(shard, filter=in_filter("pdf_id", pdf_ids))
            continue
        if known[shard] is not None:  # the copy (and this client's writes since) says which ids: no query, no load
            for i in range(0, len(known[shard]), MAX_QUERY):
                client.delete(shard, ids=known[shard][i:i + MAX_QUERY])
            continue
        mine, parts = by_shard[shard], _made(client, shard, parts)
        if not parts:  # none of these papers' partitions was ever made: they have no vectors in this shard
            continue
        while True:
            ids = [r["id"] for r in client.query(shard, filter=in_filter("pdf_id", mine), output_fields=["id"],
                                                 partition_names=parts, limit=MAX_QUERY, consistency_level="Strong")]
            if ids:
                client.delete(shard, ids=ids)
            if len(ids) < MAX_QUERY:
                break


def _ids_from_copy(client, name: str, shard: str, papers: list[str]) -> list | None:
    """The ids these papers have in `shard`, read from its search copy plus what this client wrote since the copy was
    the shard (the same view sync_copies will save), or None when that view is not exact (no copy, a copy behind the
    shard, writes too many to hold, unflushed writes from elsewhere): then Milvus is queried."""
    store = _copy_store(client, name)
    if store is None:
        return None
    from pipeline.vectors import copies

    wanted = set(papers)
    note = client.__dict__.get("paperbase_pending", {}).get(shard)
    if note is None:
        copy = copies.fresh(store, shard)
        return None if copy is None else copy.ids_of(wanted)
    if note["batch"] is None or note["before"] is None:
        return None
    copy = copies.fresh_as(store, shard, note["before"])
    return None if copy is None else copy.ids_of(wanted, note["deleted"]) + note["batch"].ids_of(wanted)


def _partitions(client, shard: str, refresh: bool = False) -> set[str]:
    """The partitions `shard` has, as this client last listed them (`refresh`: listed again)."""
    known: dict[str, set[str]] = client.__dict__.setdefault("paperbase_parts", {})
    if refresh or shard not in known:
        known[shard] = set(client.list_partitions(shard))
    return known[shard]


def _made(client, shard: str, parts: list[str]) -> list[str]:
    """Those of `parts` that exist in `shard`. Listed again when one is missing: another process (an encode beside a
    long-lived reader) may have made it since this client last looked; a partition is never removed but with its
    shard."""
    have = _partitions(client, shard)
    if not set(parts) <= have:
        have = _partitions(client, shard, refresh=True)
    return [p for p in parts if p in have]


def _make_partition(client, shard: str, part: str) -> None:
    """Make a paper bucket's partition before its first rows go in (once per shard and client)."""
    if part in client.__dict__.get("paperbase_parts", {}).get(shard, ()) or \
            part in _partitions(client, shard, refresh=True):  # one listing: another writer may have made it
        return
    try:
        client.create_partition(shard, part)
    except Exception:  # noqa: BLE001 - made meanwhile by another writer (pymilvus' error types): fine if it is there
        if part not in _partitions(client, shard, refresh=True):
            raise
    _partitions(client, shard).add(part)


def flush(client, name: str, pdf_ids: list[str] | None = None) -> None:
    """Flush the shards holding these papers (every shard when None)."""
    lay = layout(client, name)
    for shard, _parts in lay.targets(pdf_ids):
        client.flush(shard)


def drop(client, name: str) -> None:
    """Drop a collection: its search copies first (a complete set of copies is taken as proof that the collection
    exists: existing()), then its alias (it no longer exists from then on), then every shard, complete or not, or
    the one collection of an older store."""
    store = getattr(client, "paperbase_store", None)
    if store is not None:
        from pipeline.vectors import copies

        copies.forget(Path(store), [d.name for d in copies.copies_dir(Path(store)).glob(f"{name}{SHARD_MARK}*")])
    if _describe(client, name) not in (None, (name,)):
        client.drop_alias(name)  # a failure (a full disk) stops the drop here: the collection is still whole
    for shard in _physical(client, name):
        try:
            client.drop_collection(shard)
        except Exception as exc:  # noqa: BLE001 - Milvus Lite could not open a damaged shard to drop it
            if not _remove_damaged(client, shard):
                raise
            log.warning("%s: could not be dropped (%s); its files were removed", shard, exc)
        client.__dict__.get("paperbase_loaded", set()).discard(shard)
        client.__dict__.get("paperbase_pending", {}).pop(shard, None)
        client.__dict__.get("paperbase_parts", {}).pop(shard, None)
    for key in ("paperbase_layouts", "paperbase_text"):
        client.__dict__.get(key, {}).pop(name, None)


def _larger_is_better(params: dict) -> bool:
    return str(params.get("metric_type", "COSINE")).upper() not in ("L2", "HAMMING", "JACCARD")


def search(client, name: str, vector, *, limit: int, expr: str | None, fields: list[str], params: dict,
           pdf_ids: list[str] | None = None, text: bool = False) -> list[dict]:
    """Top `limit` hits of a collection: the shards and buckets of `pdf_ids` (the papers the filter pins) or every
    shard, each searched with the whole filter, merged by distance. Scores compare across shards: dense metrics are
    absolute and BM25 weights come from paperbase's own statistics (pipeline/vectors/bm25.py), not per shard.
    A shard with a fresh search copy is searched there (copies.py), the others in Milvus. `text`: return the stored
    text too where the collection keeps it."""
    targets = layout(client, name).targets(pdf_ids)
    copied, targets = _search_copies(client, name, targets, vector, limit, expr, fields, text)
    if not targets:
        copied.sort(key=lambda h: h["distance"], reverse=_larger_is_better(params))
        return copied[:limit]
    if text and stores_text(client, name, pdf_ids):
        fields = [*fields, TEXT_FIELD]
    _ensure_loaded(client, [s for s, _ in targets])

    def one(target: tuple[str, list[str] | None]) -> list[dict]:
        shard, parts = target
        if parts is not None:
            parts = _made(client, shard, parts)
            if not parts:  # no paper of the filter has vectors in this shard (their partitions were never made)
                return []
        res = client.search(shard, data=[vector], anns_field="vector", limit=limit, filter=expr or "",
                            output_fields=fields, search_params=params, partition_names=parts)
        return list(res[0]) if res else []

    if len(targets) == 1 and not copied:
        return one(targets[0])
    if getattr(client, "paperbase_remote", False):  # a Milvus server searches shards in parallel
        with ThreadPoolExecutor(max_workers=min(4, len(targets))) as pool:
            hits = [h for part in pool.map(one, targets) for h in part]
    else:  # Milvus Lite runs in one Python process: threads only contend for its GIL (measured: no gain)
        hits = [h for t in targets for h in one(t)]
    hits += copied
    hits.sort(key=lambda h: h["distance"], reverse=_larger_is_better(params))
    return hits[:limit]


# ----------------------------------------------------------------------------- search copies (copies.py)


def _copy_store(client, name: str) -> Path | None:
    """The Milvus Lite store whose shards of `name` have search copies, or None (a server, copies off, an older
    store's single collection, a collection the schema does not define)."""
    store = getattr(client, "paperbase_store", None)
    if store is None or _copy_metric(name) is None or len(layout(client, name).shards) < 2:
        return None
    return Path(store)


def _copy_metric(name: str) -> str | None:
    from schemas.vectorstore import collection

    try:
        metric = collection(name).metric
    except (KeyError, StopIteration):
        return None
    return metric if metric in ("COSINE", "IP") else None


PENDING_ROWS = 50_000  # rows held per shard for its copy; beyond, the copy is read back from Milvus instead


def _note(client, name: str, shard: str, rows: list[dict] | None = None, deleted: list[str] | None = None) -> None:
    """Remember what this client wrote to `shard` until sync_copies applies it to the shard's copy. Opened with the
    shard's fingerprint before the first write: the copy is updated only if it was the shard then."""
    store = _copy_store(client, name)
    if store is None:
        return
    from pipeline.vectors import copies

    pending: dict = client.__dict__.setdefault("paperbase_pending", {})
    if shard not in pending:
        pending[shard] = {"before": copies.fingerprint(store, shard), "deleted": set(),
                          "batch": copies.Batch(_is_sparse(name))}
    note = pending[shard]
    if note["batch"] is None:  # too many rows to hold: read back at sync
        return
    if deleted:
        note["deleted"].update(deleted)
        note["batch"].forget(set(deleted))  # rows this client wrote earlier for these papers are gone too
    note["batch"].add(rows or [])
    if len(note["batch"]) > PENDING_ROWS:
        note["batch"] = None


def sync_copies(client, name: str) -> int:
    """Bring the search copies of `name` up to date after writes (flushed first): apply what this client wrote to
    each shard whose copy was the shard before those writes, and read back from Milvus the copy of every other shard
    that has none or one that is behind (a store from before copies, a run killed before its sync). Returns how many
    shards were read back. The encode stage and prune run it once per collection at their end."""
    store = _copy_store(client, name)
    pending = client.__dict__.get("paperbase_pending", {})
    if store is None:
        return 0
    from pipeline.vectors import copies

    metric = _copy_metric(name)
    read_back = 0
    for shard in layout(client, name).shards:
        note = pending.pop(shard, None)
        copies.tidy(store, shard)
        copies.upgrade(store, shard)
        now = copies.fingerprint(store, shard)
        root = copies.copies_dir(store) / shard
        if now is None or copies.recorded(root) == now:
            continue
        if note is not None and note["batch"] is not None and note["before"] is not None:
            old = copies.fresh_as(store, shard, note["before"])
            if old is not None:
                old.updated(now, note["deleted"], note["batch"]).save(root)
                continue
        if _read_back(client, store, name, shard, metric):
            read_back += 1
    return read_back


def _read_back(client, store: Path, name: str, shard: str, metric: str) -> bool:
    from pipeline.vectors import copies

    _ensure_loaded(client, [shard])
    before = copies.fingerprint(store, shard)
    fields = [f["name"] for f in client.describe_collection(shard)["fields"]]  # the stored text too, where it is kept
    sparse = _is_sparse(name)
    batch = copies.Batch(sparse, None if sparse else _dim_of(client, shard))
    for part in client.list_partitions(shard):
        got = client.query(shard, filter="", output_fields=fields, partition_names=[part], limit=MAX_QUERY,
                           consistency_level="Strong")
        if len(got) >= MAX_QUERY:  # a bucket too large to read in one query: the shard stays with Milvus
            log.warning("%s: partition %s holds %d+ rows; no search copy", shard, part, MAX_QUERY)
            return False
        batch.add(got)
    if copies.fingerprint(store, shard) != before:
        return False
    batch.copy(before, metric).save(copies.copies_dir(store) / shard)
    return True


def _is_sparse(name: str) -> bool:
    from schemas.vectorstore import collection

    return collection(name).is_sparse


def _dim_of(client, shard: str) -> int:
    for f in client.describe_collection(shard)["fields"]:
        if f["name"] == "vector":
            return int(f.get("params", {}).get("dim", 0))
    return 0


def _empty_copies(client, name: str, shards: list[str], sparse: bool, dim: int | None) -> None:
    """Start new shards with empty copies, recorded at the shards' fingerprints after creation."""
    store = _copy_store(client, name)
    if store is None:
        return
    from pipeline.vectors import copies

    for shard in shards:
        fp = copies.fingerprint(store, shard)
        if fp is not None:
            copies.Batch(sparse, dim).copy(fp, _copy_metric(name)).save(copies.copies_dir(store) / shard)


def _search_copies(client, name: str, targets: list[tuple[str, list[str] | None]], vector, limit: int,
                   expr: str | None, fields: list[str],
                   text: bool = False) -> tuple[list[dict], list[tuple[str, list[str] | None]]]:
    """Hits from the targets whose copies are fresh (with the stored text when `text` and the copy has it), and the
    targets left for Milvus."""
    store = _copy_store(client, name)
    if store is None:
        return [], targets
    from pipeline.vectors import copies

    import numpy as np  # here: the modules that only plan, count or check state (a no-op ingest, status) need none

    found: list[tuple[object, np.ndarray, np.ndarray]] = []
    rest = []
    for target in targets:
        shard = target[0]
        copy = copies.fresh(store, shard)
        if copy is None:
            rest.append(target)
            continue
        if not len(copy):
            continue
        try:
            admitted = copies.mask(store, shard, copy, expr)
        except Exception as exc:  # noqa: BLE001 - a filter Milvus Lite's engine cannot compile: Milvus reports it
            log.debug("filter %r not evaluated over the search copies (%s); Milvus answers", expr, exc)
            return [], targets
        found.append((copy, *copy.top(vector, limit, admitted)))
    if not found:
        return [], rest
    # the best `limit` over all copies first, then only those rows become dicts (a dense search over-fetches)
    scores = np.concatenate([sc for _c, _r, sc in found])
    owner = np.concatenate([np.full(len(sc), i) for i, (_c, _r, sc) in enumerate(found)])
    rows = np.concatenate([r for _c, r, _sc in found])
    best = np.argsort(-scores, kind="stable")[:limit]
    hits: list[dict] = []
    for i, (copy, _r, _sc) in enumerate(found):
        mine = best[owner[best] == i]
        if len(mine):
            hits += copy.hits(rows[mine], scores[mine],
                              [*fields, TEXT_FIELD] if text and TEXT_FIELD in copy.meta.column_names else fields)
    return hits, rest


def create_collection(client, coll: Collection, dim: int | None, buckets: int = PAPER_BUCKETS,
                      shards: int = SHARDS) -> None:
    """Create `coll` from its schema data as `shards` physical collections holding `buckets` paper partitions between
    them (shards 0: one collection under the name itself, the layout before shards, kept for bench/scale.py; buckets 0:
    no partitions). `dim` is the loaded model's (may differ from the documented default). Shards that exist already
    (a create stopped half-way) are completed, not recreated; the alias `coll.name` -> shard 0 comes last, so the
    collection exists (existing(), layout()) only once every shard does."""
    if shards and buckets != PAPER_BUCKETS:
        raise ValueError(f"a sharded collection has {PAPER_BUCKETS} paper buckets")
    from pipeline.vectors import server

    if server.is_server(client) and shards == SHARDS and buckets == PAPER_BUCKETS \
            and not server.features(client).lite_engine:
        _create_on_server(client, coll, dim)
        return
    schema, index = _schema(client, coll, dim)
    names = [shard_name(coll.name, s, shards) for s in range(shards)] if shards else [coll.name]
    have = {n for n in names if client.has_collection(n)}
    _clear_leftovers(client, [n for n in names if n not in have])
    for s, shard in enumerate(names):
        parts = [f"{BUCKET_PREFIX}{b:03d}" for b in range(buckets) if not shards or b % shards == s]
        if shard not in have:
            if getattr(client, "paperbase_lite_dir", None) is not None:  # a nonce in schema.json: copies.fingerprint
                client.create_collection(shard, schema=schema, properties={"paperbase.created": os.urandom(8).hex()})
            else:
                client.create_collection(shard, schema=schema)
        if not shards:  # the layout before shards: its bucket count is read from its partitions (layout())
            present = set(client.list_partitions(shard))
            for p in parts:
                if p not in present:
                    client.create_partition(shard, p)
        client.__dict__.get("paperbase_parts", {}).pop(shard, None)
        # Indexes are created without waiting: pymilvus' synchronous wait asks for a server timestamp that Milvus
        # Lite does not implement (an error log and a 3 s retry per index); load_collection waits for them anyway.
        if shard not in have or not client.list_indexes(shard):
            client.create_index(shard, index, sync=False)
        client.load_collection(shard)
        client.__dict__.setdefault("paperbase_loaded", set()).add(shard)
    if shards:
        _point_alias(client, coll.name, names[0])
    for key in ("paperbase_layouts", "paperbase_text"):
        client.__dict__.get(key, {}).pop(coll.name, None)
    if shards:
        _empty_copies(client, coll.name, [n for n in names if n not in have], coll.is_sparse,
                      None if coll.is_sparse else int(dim or coll.field("vector").raw["dim"]))


def _create_on_server(client, coll: Collection, dim: int | None) -> None:
    """A server's layout (server.py): one collection under the schema name, `pdf_id` its partition key, the schema's
    indexes as the server can build them; refused with one line when the server cannot hold it at all."""
    from pipeline.vectors import server
    from pipeline.vectors.errors import ServerTooOld

    feats = server.features(client)
    why = feats.refusal(coll)
    if why:
        raise ServerTooOld(why)
    schema, index = _schema(client, coll, dim, feats)
    if not client.has_collection(coll.name):  # a create stopped before its indexes is completed, not recreated
        kw = {"num_partitions": server.PARTITIONS} if feats.partition_key else {}
        client.create_collection(coll.name, schema=schema, **kw)
    if not client.list_indexes(coll.name):
        client.create_index(coll.name, index, sync=False)
    client.load_collection(coll.name)
    client.__dict__.setdefault("paperbase_loaded", set()).add(coll.name)
    for key in ("paperbase_layouts", "paperbase_text"):
        client.__dict__.get(key, {}).pop(coll.name, None)


def _remove_damaged(client, shard: str) -> bool:
    """Remove an embedded shard's files directly (Milvus Lite opens a collection to drop it, and a damaged segment
    makes that fail): what `rebuild` needs to start the shard afresh. False on a server."""
    store = getattr(client, "paperbase_lite_dir", None)
    folder = Path(store) / "collections" / shard if store is not None else None
    if folder is None or not folder.is_dir():
        return False
    import shutil

    shutil.rmtree(folder)
    return True


def _point_alias(client, alias: str, target: str) -> None:
    """Make `alias` name `target`, whether it is missing (a fresh create), there already (an alias whose removal a
    full disk stopped half-way) or naming something else. Asked by listing `target`'s aliases: a lookup of a missing
    alias is an error RPC, which pymilvus logs."""
    found = client.list_aliases(target)
    names = found.get("aliases", []) if isinstance(found, dict) else list(found or [])
    if alias in names:
        return
    try:
        client.create_alias(target, alias)
    except Exception:  # noqa: BLE001 - it exists, naming another collection (pymilvus' own error types)
        client.alter_alias(target, alias)


def _clear_leftovers(client, shards: list[str]) -> None:
    """Remove what an interrupted create left of these shards on a Milvus Lite store: Milvus Lite makes the
    collection's directory, then writes `schema.json` through a temporary file, and only a directory with a
    `schema.json` is a collection to it. A create stopped in between (a full disk leaves a 0-byte
    `schema.json.tmp`, a kill leaves less) leaves a directory that is no collection yet blocks every later create of
    the name ("File exists") and that drop_collection ignores. Such a directory holds no rows (rows come after the
    schema), so removing it loses nothing; the create then starts that shard afresh."""
    store = getattr(client, "paperbase_lite_dir", None)
    if store is None:
        return
    import shutil

    for shard in shards:
        folder = Path(store) / "collections" / shard
        if folder.is_dir() and not (folder / "schema.json").exists():
            log.warning("%s: removing what an interrupted create left (%s)", shard,
                        ", ".join(sorted(p.name for p in folder.iterdir())) or "an empty directory")
            shutil.rmtree(folder)


def _schema(client, coll: Collection, dim: int | None, feats=None):
    """The pymilvus schema and index parameters of `coll`. `feats` (server.Features): a server's layout, `pdf_id` the
    partition key, scalar index types the server supports."""
    from pymilvus import DataType, MilvusClient

    schema = MilvusClient.create_schema(auto_id=False, enable_dynamic_field=False, description=coll.description[:255])
    for f in coll.fields:
        if f.dtype not in _DTYPES:
            raise ValueError(f"unsupported dtype {f.dtype} in {coll.name}.{f.name}")
        kw: dict = {}
        if f.is_primary:
            kw["is_primary"] = True
        if feats is not None and feats.partition_key and f.name == "pdf_id":
            kw["is_partition_key"] = True
        if f.dtype == "VARCHAR":
            kw["max_length"] = int(f.raw.get("max_length", 512))
        if "default_value" in f.raw:  # rows written without it (older writers, benchmarks) get this
            kw["default_value"] = f.raw["default_value"]
        if f.dtype == "FLOAT_VECTOR":
            kw["dim"] = int(dim or f.raw["dim"])
        if f.dtype == "ARRAY":
            kw["element_type"] = getattr(DataType, f.raw["etype"])
            kw["max_capacity"] = int(f.raw.get("max_capacity", 4))
        schema.add_field(f.name, getattr(DataType, f.dtype), **kw)
    index = client.prepare_index_params()
    dtypes = {f.name: f.dtype for f in coll.fields}
    for i in coll.indexes:
        kind = i.index_type if feats is None else feats.scalar_index(i.index_type, dtypes.get(i.field_name, ""))
        if kind is None:
            continue
        kw = {"index_type": kind}
        if i.metric_type:
            kw["metric_type"] = i.metric_type
        if i.params:
            kw["params"] = dict(i.params)
        index.add_index(field_name=i.field_name, **kw)
    return schema, index


def quote(value: str) -> str:
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'


def in_filter(field: str, values: list[str]) -> str:
    return f"{field} in [{', '.join(quote(v) for v in values)}]"


def count(client, name: str, expr: str = "") -> int:
    total = 0
    load(client, name)
    for shard in layout(client, name).shards:
        res = client.query(shard, filter=expr, output_fields=["count(*)"], consistency_level="Strong")
        total += int(res[0]["count(*)"]) if res else 0
    return total


def count_rows(client, name: str) -> int:
    """Vectors in a collection: from the search copies when every shard has a current one (no load), else counted in
    Milvus."""
    store = _copy_store(client, name)
    if store is not None:
        from pipeline.vectors import copies

        held = [copies.fresh(store, s) for s in layout(client, name).shards]
        if all(c is not None for c in held):
            return sum(len(c) for c in held)
    return count(client, name)


MAX_QUERY = 16384  # Milvus caps offset + limit of one query


def entities(client, name: str, pdf_id: str, fields: list[str] | None = None) -> list[dict]:
    """The entities of one paper (a paper stays far below MAX_QUERY cells; more raises rather than undercounts)."""
    shard, part = layout(client, name).place(pdf_id)
    if part is not None and not _made(client, shard, [part]):
        return []
    _ensure_loaded(client, [shard])
    # Strong: on a Milvus server, a check right after encode must see the rows just inserted
    rows = client.query(shard, filter=f"pdf_id == {quote(pdf_id)}", output_fields=["id", *(fields or META_FIELDS)],
                        limit=MAX_QUERY, consistency_level="Strong", partition_names=[part] if part else None)
    if len(rows) >= MAX_QUERY:
        raise RuntimeError(f"{name}: paper {pdf_id} has {MAX_QUERY}+ entities; check cannot page further")
    return list(rows)


def load(client, name: str) -> None:
    """Load every shard of a collection (collections come back released after a restart; search and query need them
    loaded). A search loads only the shards it visits (search())."""
    _ensure_loaded(client, list(layout(client, name).shards))


@dataclass
class CopyCheck:
    """What `check` found of a collection's search copies: shards whose copy it removed (and why), and how many
    vectors it compared with Milvus out of how many the copies hold."""

    removed: list[tuple[str, str]]
    compared: int = 0
    rows: int = 0
    sampled: bool = False


def check_copies(client, name: str, ids_by_paper: dict[str, set[int]], sample: int = 64) -> CopyCheck:
    """Every current search copy of `name` against Milvus (`check`): its files against their digests (all hashed,
    whatever the trust cache says), its ids against Milvus's for the same papers, and its vectors against Milvus's
    (`sample` rows per shard picked at random, every row when 0 or when the shard holds no more). A copy that fails
    any of these is removed, so searches go to Milvus until the next encode reads it back."""
    store = _copy_store(client, name)
    out = CopyCheck([])
    if store is None:
        return out
    import pyarrow as pa
    import pyarrow.compute as pc

    from pipeline.vectors import copies

    lay = layout(client, name)
    by_shard: dict[str, dict[str, set[int]]] = {}
    for pdf_id, ids in ids_by_paper.items():
        by_shard.setdefault(lay.place(pdf_id)[0], {})[pdf_id] = ids
    for shard in lay.shards:
        root = copies.copies_dir(store) / shard
        if copies.fingerprint(store, shard) is None or copies.recorded(root) != copies.fingerprint(store, shard):
            continue  # no current copy: searches use Milvus anyway
        damage = copies.verify(root, full=True)
        if damage is not None:
            out.removed.append((shard, f"its files are damaged: {damage}"))
            continue
        copy = copies.fresh(store, shard)
        if copy is None:
            out.removed.append((shard, "it could not be read"))
            continue
        mine = by_shard.get(shard, {})
        want = set().union(*mine.values()) if mine else set()
        got = set()
        if len(copy):
            rows = copy.meta.filter(pc.is_in(copy.meta["pdf_id"], pa.array(sorted(mine), pa.string())))
            got = set(rows["id"].to_pylist())
        if got != want:
            out.removed.append((shard, f"its ids differ from Milvus's ({len(got - want)} extra, {len(want - got)} missing)"))
            continue
        picked = _sample_rows(len(copy), sample)
        out.rows += len(copy)
        out.compared += len(picked)
        out.sampled |= len(picked) < len(copy)
        differ = _vectors_differ(client, shard, copy, picked)
        if differ:
            out.removed.append((shard, f"{differ} of {len(picked)} compared vector(s) differ from Milvus's"))
    if out.removed:
        copies.forget(store, [s for s, _ in out.removed])
    return out


def _sample_rows(n: int, sample: int) -> np.ndarray:
    import numpy as np

    if sample <= 0 or n <= sample:
        return np.arange(n)
    return np.sort(np.random.default_rng().choice(n, size=sample, replace=False))


def _vectors_differ(client, shard: str, copy, rows: np.ndarray) -> int:
    """How many of these copy rows hold a vector other than Milvus's for the same id (dense compared after the
    normalisation the copy applies for COSINE; sparse term by term)."""
    import numpy as np

    if not len(rows):
        return 0
    ids = [int(i) for i in copy.meta["id"].take(rows).to_pylist()]
    found: dict[int, object] = {}
    for i in range(0, len(ids), 1000):
        for r in client.get(shard, ids=ids[i:i + 1000], output_fields=["id", "vector"]):
            found[int(r["id"])] = r["vector"]
    differ = 0
    for row, id_ in zip(rows, ids):
        theirs = found.get(id_)
        if theirs is None:
            differ += 1
        elif copy.sparse:
            a, b = int(copy.indptr[row]), int(copy.indptr[row + 1])
            mine = dict(zip(np.asarray(copy.terms[a:b]).tolist(), np.asarray(copy.weights[a:b]).tolist()))
            theirs = {int(t): float(w) for t, w in dict(theirs).items() if w != 0}
            if mine.keys() != theirs.keys() or not np.allclose([mine[t] for t in theirs], list(theirs.values()),
                                                                rtol=1e-5, atol=1e-7):
                differ += 1
        else:
            v = np.asarray(theirs, dtype=np.float32)
            if copy.metric == "COSINE":
                norm = float(np.linalg.norm(v))
                v = v / norm if norm else v
            if v.shape != copy.dense[row].shape or not np.allclose(v, copy.dense[row], rtol=1e-4, atol=1e-5):
                differ += 1
    return differ


def warm(client, name: str) -> None:
    """Make a long-lived reader's first search of `name` cheap: a shard with a fresh search copy has its copy read
    into memory, any other shard is loaded into Milvus."""
    store = _copy_store(client, name)
    rest = []
    for shard in layout(client, name).shards:
        copy = None
        if store is not None:
            from pipeline.vectors import copies

            copy = copies.fresh(store, shard)
        if copy is None:
            rest.append(shard)
        else:
            copy.touch()
    _ensure_loaded(client, rest)


def _ensure_loaded(client, shards: list[str]) -> None:
    loaded: set[str] = client.__dict__.setdefault("paperbase_loaded", set())
    for shard in shards:
        if shard not in loaded:
            _load_one(client, shard)
            loaded.add(shard)


def _load_one(client, name: str) -> None:
    state = client.get_load_state(name)
    if "Loaded" in str(state.get("state", state)):
        return
    try:
        client.load_collection(name)
    except Exception as exc:
        store = getattr(client, "paperbase_lite_path", None)
        if store is None or not _drop_lite_indexes(store, name):
            raise
        log.warning("%s: index files were unreadable (%s); removed them, Milvus Lite rebuilds them", name, exc)
        client.load_collection(name)


# Milvus Lite writes its per-segment index files in place, so a process killed mid-write leaves a truncated one that
# fails every later load ("File is too small: 0"). They are derived from the segment data and rebuilt when missing, so
# after a failed load the collection's index files are removed and the load retried (nothing is checked up front:
# connect() runs for every search).
def _drop_lite_indexes(store: Path, collection: str) -> list[Path]:
    files = [p for p in (Path(store) / "collections" / collection).glob("partitions/*/indexes/*")
             if p.suffix in (".idx", ".sidx")]
    for path in files:
        path.unlink(missing_ok=True)
    return files
