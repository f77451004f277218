"""Milvus access: Milvus Lite under the data dir by default, a server when a URI is configured; same code path.

Only features a Milvus server accepts are used: explicit INT64 ids, partitions, deletes by id, flush, FLAT /
SPARSE_INVERTED_INDEX / INVERTED indexes.

Paper buckets: a collection is created with PAPER_BUCKETS partitions (`papers_000` ...) and every vector goes to the
partition its `pdf_id` hashes to (blake2b, stable across processes). Milvus Lite visits every row of every partition a
search, query or filter delete covers, in Python (bench/scale.py: per-paper search and deletes grew linearly with the
library); naming the paper's partition bounds that to ~1/PAPER_BUCKETS of the library. A collection created before
buckets (everything in `_default`) keeps working the old way; `paperbase rebuild` recreates it with buckets.
"""
from __future__ import annotations

import logging
import os
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
    for name in ("pymilvus", "pymilvus.milvus_client"):
        logging.getLogger(name).setLevel(logging.CRITICAL)

log = logging.getLogger(__name__)

_DTYPES = {"INT64", "INT16", "VARCHAR", "FLOAT_VECTOR", "SPARSE_FLOAT_VECTOR", "ARRAY"}
META_FIELDS = ["pdf_id", "page_number", "table_name", "column_name", "primary_key"]


def lite_path(settings) -> Path:
    return settings.data_dir / settings.vectors.lite_dirname


def uri_for(settings) -> str:
    return settings.vectors.milvus_uri or str(lite_path(settings))


@contextmanager
def connect(settings) -> Iterator:
    """A MilvusClient, closed on exit. On the embedded default the store is shared between processes (see lite.py):
    this process opens it, or connects to the process that holds it."""
    from pymilvus import MilvusClient

    from pipeline.vectors import lite

    _quiet_pymilvus()
    if settings.vectors.milvus_uri:
        client = MilvusClient(uri=settings.vectors.milvus_uri)
        client.paperbase_lite_path = None
        client.paperbase_lite_opened = False
        try:
            yield client
        finally:
            client.close()
        return
    store = lite_path(settings)
    uri, held = lite.acquire(store, settings.vectors.lock_timeout)
    try:
        client = MilvusClient(uri=uri)
        client.paperbase_lite_path = store if held else None  # only the holder may repair index files (load())
        client.paperbase_lite_opened = held  # False: answered by another process's loaded store (lite.py)
        try:
            yield client
        finally:
            client.close()
    finally:
        lite.release(store, held)


def entity_id(collection: str, table: str, column: str, primary_key: str, window: int = 0) -> int:
    """Deterministic positive INT64 id for a cell's window in a collection (same cell and window, same id, on every
    run). Window 0 (every short cell) keeps the id a cell had before cells were windowed."""
    parts = (collection, table, column, primary_key) + ((str(window),) if window else ())
    key = "\x1f".join(parts).encode("utf-8")
    return int.from_bytes(blake2b(key, digest_size=8).digest(), "big") & (2**63 - 1)


PAPER_BUCKETS = 128  # 300k vectors -> ~2.3k per partition; well under a Milvus server's default 1,024 per collection
BUCKET_PREFIX = "papers_"


def bucket_of(pdf_id: str, n: int = PAPER_BUCKETS) -> str:
    return f"{BUCKET_PREFIX}{int.from_bytes(blake2b(pdf_id.encode('utf-8'), digest_size=8).digest(), 'big') % n:03d}"


def buckets(client, name: str) -> int:
    """How many paper buckets `name` has (0: created before buckets); asked once per client and collection."""
    known: dict[str, int] = client.__dict__.setdefault("paperbase_buckets", {})
    if name not in known:
        known[name] = sum(1 for p in client.list_partitions(name) if p.startswith(BUCKET_PREFIX))
    return known[name]


TEXT_FIELD = "text"  # storage_only VARCHAR of the BM25 collection (schemas/vectorstore.json): hit texts without DuckDB


def stores_text(client, name: str) -> bool:
    """Whether `name` has the stored-text field (collections created before it have not); asked once per client."""
    known: dict[str, bool] = client.__dict__.setdefault("paperbase_text", {})
    if name not in known:
        known[name] = any(f["name"] == TEXT_FIELD for f in client.describe_collection(name)["fields"])
    return known[name]


def text_to_store(text: str | None, max_bytes: int) -> str:
    """The cell's text as stored, or '' when its UTF-8 form does not fit (the search then reads it from DuckDB)."""
    text = "" if text is None else str(text)
    return text if len(text.encode("utf-8")) <= max_bytes else ""


def partitions_for(client, name: str, pdf_ids: list[str]) -> list[str] | None:
    """The partitions holding these papers' vectors, or None when the collection has no buckets (search them all)."""
    n = buckets(client, name)
    return sorted({bucket_of(p, n) for p in pdf_ids}) if n else None


def insert(client, name: str, rows: list[dict], chunk: int = 2000) -> None:
    """Insert rows, each into its paper's bucket where the collection has buckets."""
    n = buckets(client, name)
    groups: dict[str | None, list[dict]] = {}
    for r in rows:
        groups.setdefault(bucket_of(r["pdf_id"], n) if n else None, []).append(r)
    for part, group in groups.items():
        for i in range(0, len(group), chunk):
            if part is None:
                client.insert(name, group[i:i + chunk])
            else:
                client.insert(name, group[i:i + chunk], partition_name=part)


def delete_papers(client, name: str, pdf_ids: list[str]) -> None:
    """Delete every vector of these papers. With buckets: the ids are found in the papers' partitions only and deleted
    by id (a filter delete makes Milvus Lite query every partition); without, a filter delete as before."""
    if not pdf_ids:
        return
    parts = partitions_for(client, name, pdf_ids)
    if parts is None:
        client.delete(name, filter=in_filter("pdf_id", pdf_ids))
        return
    while True:
        ids = [r["id"] for r in client.query(name, filter=in_filter("pdf_id", pdf_ids), output_fields=["id"],
                                             partition_names=parts, limit=MAX_QUERY, consistency_level="Strong")]
        if ids:
            client.delete(name, ids=ids)
        if len(ids) < MAX_QUERY:
            return


def create_collection(client, coll: Collection, dim: int | None, buckets: int = PAPER_BUCKETS) -> None:
    """Create `coll` from its schema data; `dim` is the loaded model's (may differ from the documented default);
    `buckets` paper partitions (0: none, the layout before buckets, kept for comparison in bench/scale.py)."""
    from pymilvus import DataType, MilvusClient

    schema = MilvusClient.create_schema(auto_id=False, enable_dynamic_field=False, description=coll.description[:255])
    for f in coll.fields:
        if f.dtype not in _DTYPES:
            raise ValueError(f"unsupported dtype {f.dtype} in {coll.name}.{f.name}")
        kw: dict = {}
        if f.is_primary:
            kw["is_primary"] = True
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
    for i in coll.indexes:
        kw = {"index_type": i.index_type}
        if i.metric_type:
            kw["metric_type"] = i.metric_type
        if i.params:
            kw["params"] = dict(i.params)
        index.add_index(field_name=i.field_name, **kw)
    # Indexes are created without waiting: pymilvus' synchronous wait asks for a server timestamp that Milvus Lite
    # does not implement (an error log and a 3 s retry per index); load_collection waits for them anyway.
    client.create_collection(coll.name, schema=schema)
    for i in range(buckets):
        client.create_partition(coll.name, f"{BUCKET_PREFIX}{i:03d}")
    client.__dict__.setdefault("paperbase_buckets", {})[coll.name] = buckets
    client.__dict__.setdefault("paperbase_text", {})[coll.name] = any(f.name == TEXT_FIELD for f in coll.fields)
    client.create_index(coll.name, index, sync=False)
    client.load_collection(coll.name)


def collection_dim(client, name: str) -> int | None:
    for f in client.describe_collection(name)["fields"]:
        if f["name"] == "vector":
            return (f.get("params") or {}).get("dim")
    return None


def quote(value: str) -> str:
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'


def in_filter(field: str, values: list[str]) -> str:
    return f"{field} in [{', '.join(quote(v) for v in values)}]"


def count(client, name: str, expr: str = "") -> int:
    res = client.query(name, filter=expr, output_fields=["count(*)"], consistency_level="Strong")
    return int(res[0]["count(*)"]) if res else 0


MAX_QUERY = 16384  # Milvus caps offset + limit of one query


def entities(client, name: str, pdf_id: str, fields: list[str] | None = None) -> list[dict]:
    """The entities of one paper (a paper stays far below MAX_QUERY cells; more raises rather than undercounts)."""
    # Strong: on a Milvus server, a check right after encode must see the rows just inserted
    rows = client.query(name, filter=f"pdf_id == {quote(pdf_id)}", output_fields=["id", *(fields or META_FIELDS)],
                        limit=MAX_QUERY, consistency_level="Strong", partition_names=partitions_for(client, name, [pdf_id]))
    if len(rows) >= MAX_QUERY:
        raise RuntimeError(f"{name}: paper {pdf_id} has {MAX_QUERY}+ entities; check cannot page further")
    return list(rows)


def existing(client) -> set[str]:
    return set(client.list_collections())


def load(client, name: str) -> None:
    """Collections come back released after a restart; search and query need them loaded."""
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
