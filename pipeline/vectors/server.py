"""What a Milvus server offers, asked once per connection, and the layout paperbase uses there.

On a server (a URI in settings, other than `milvus-lite server`: the same pure-Python engine as the embedded
default, laid out as it is), a schema collection is one Milvus collection under the schema name with `pdf_id` as
its partition key: the server hashes papers into partitions itself, prunes them for a `pdf_id` filter, builds the
schema's indexes (HNSW, sparse inverted) in C++ and serves them from query nodes, so Milvus Lite's shards, paper
buckets and search copies (milvus.py, copies.py), which exist to bound Milvus Lite's Python row walks, are not used
there; deletes are by expression (`pdf_id in [...]`), which the server resolves with its own index.

Servers differ by version, and the schema asks for features a slightly older server lacks. They are detected at
connect time from `get_server_version()`: what can be built is built with what the server offers (a scalar index type
it supports in place of INVERTED), and a collection that cannot be built at all (sparse BM25 vectors before 2.4) is
refused before any work, with one line naming the minimum version.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

SPARSE_MIN = (2, 4)  # SPARSE_FLOAT_VECTOR and SPARSE_INVERTED_INDEX
INVERTED_MIN = (2, 4)  # the INVERTED scalar index; before it: Trie for strings, STL_SORT for numbers
PARTITION_KEY_MIN = (2, 2)
PARTITIONS = 64  # partition-key partitions per collection (Milvus' default; ~4.7k vectors each at 300k)
_NUMERIC = {"INT8", "INT16", "INT32", "INT64", "FLOAT", "DOUBLE"}


@dataclass(frozen=True)
class Features:
    """A server's version and what paperbase needs of it."""

    version: str
    release: tuple[int, int, int]

    @property
    def lite_engine(self) -> bool:
        """A `milvus-lite server`: Milvus Lite's pure-Python engine behind a URI, laid out as Milvus Lite (shards,
        buckets), since its costs are Milvus Lite's (docs/scale.md)."""
        return self.version.lower().startswith("milvus_lite")

    @property
    def sparse(self) -> bool:
        return self.release[:2] >= SPARSE_MIN

    @property
    def partition_key(self) -> bool:
        return self.release[:2] >= PARTITION_KEY_MIN

    def scalar_index(self, index_type: str, dtype: str) -> str | None:
        """The index type to build for a scalar field the schema indexes with `index_type` (None: none fits)."""
        if index_type != "INVERTED" or self.release[:2] >= INVERTED_MIN:
            return index_type
        if dtype == "VARCHAR":
            return "Trie"
        if dtype in _NUMERIC:
            return "STL_SORT"
        return None

    def refusal(self, coll) -> str | None:
        """One line saying why this server cannot hold `coll`, or None."""
        if coll.is_sparse and not self.sparse:
            need = ".".join(map(str, SPARSE_MIN))
            return (f"{coll.name}: sparse vectors (BM25) need Milvus >= {need}; this server runs {self.version} "
                    f"(upgrade the server, or disable the collection: [vectors.collections.{coll.name}] enabled = false)")
        return None


def parse_release(version: str) -> tuple[int, int, int]:
    """(major, minor, patch) of a server version string such as 'v2.3.5-lite' or '2.4.0-rc.1'; unknown: a large
    release (assume a current server rather than refuse one we cannot read)."""
    m = re.search(r"(\d+)\.(\d+)(?:\.(\d+))?", version or "")
    if not m:
        return (99, 0, 0)
    return int(m.group(1)), int(m.group(2)), int(m.group(3) or 0)


def features(client) -> Features:
    """The server's features, asked once per client (one RPC)."""
    known = client.__dict__.get("paperbase_features")
    if known is None:
        version = str(client.get_server_version())
        known = Features(version, parse_release(version))
        client.__dict__["paperbase_features"] = known
    return known


def is_server(client) -> bool:
    return bool(getattr(client, "paperbase_remote", False))
