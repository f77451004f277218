"""Typed view of `vectorstore.json` (Milvus collections) and `filter_rules.json` (the filter grammar shown to the agent).

The `[Vectorstore Schema]` prompt block is rendered here from data, for whichever collections actually exist.
"""
from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from schemas import database_schema, load_json


@dataclass(frozen=True)
class VectorField:
    name: str
    dtype: str
    raw: dict[str, Any]  # every key as written (description, max_length, dim, etype, ...)

    @property
    def is_primary(self) -> bool:
        return bool(self.raw.get("is_primary"))

    @property
    def storage_only(self) -> bool:
        """Stored for paperbase's own use (e.g. BM25 hit texts); not in the agent's schema text nor in filters."""
        return bool(self.raw.get("storage_only"))


@dataclass(frozen=True)
class VectorIndex:
    field_name: str
    index_type: str
    metric_type: str | None = None
    params: dict[str, Any] | None = None  # build parameters (HNSW: M, efConstruction)
    search_params: dict[str, Any] | None = None  # what every search passes (HNSW: ef)


@dataclass(frozen=True)
class Collection:
    name: str
    modality: str  # "text" | "image"
    embed_type: str  # "bm25" | "sentence_transformers" | "clip"
    embed_model: str  # the short name shown to the agent
    default_model: str | None  # HF id or path paperbase loads (None for BM25)
    description: str
    fields: tuple[VectorField, ...]
    indexes: tuple[VectorIndex, ...]
    raw: dict[str, Any]

    def field(self, name: str) -> VectorField:
        for f in self.fields:
            if f.name == name:
                return f
        raise KeyError(f"{self.name}.{name}")

    @property
    def metric(self) -> str:
        return next(i.metric_type for i in self.indexes if i.field_name == "vector" and i.metric_type)

    @property
    def search_params(self) -> dict[str, Any]:
        """Search parameters of the vector index: the metric, plus the index's own (e.g. HNSW's ef) if any."""
        index = next(i for i in self.indexes if i.field_name == "vector" and i.metric_type)
        return {"metric_type": index.metric_type, **({"params": dict(index.search_params)} if index.search_params else {})}

    @property
    def is_sparse(self) -> bool:
        return self.field("vector").dtype == "SPARSE_FLOAT_VECTOR"


@lru_cache(maxsize=None)
def _raw() -> dict[str, Any]:
    return load_json("vectorstore.json")  # type: ignore[return-value]


@lru_cache(maxsize=None)
def collections() -> tuple[Collection, ...]:
    out = []
    for c in _raw()["collections"]:
        out.append(
            Collection(
                name=c["collection_name"],
                modality=c["modality"],
                embed_type=c["embed_type"],
                embed_model=c["embed_model"],
                default_model=c.get("default_model"),
                description=c["description"],
                fields=tuple(VectorField(f["name"], f["dtype"], f) for f in c["fields"]),
                indexes=tuple(VectorIndex(i["field_name"], i["index_type"], i.get("metric_type"), i.get("params"),
                                            i.get("search_params")) for i in c["indexes"]),
                raw=c,
            )
        )
    return tuple(out)


def collection(name: str) -> Collection:
    for c in collections():
        if c.name == name:
            return c
    raise KeyError(f"unknown collection {name!r}; known: {[c.name for c in collections()]}")


@lru_cache(maxsize=None)
def filter_rules() -> dict[str, Any]:
    return load_json("filter_rules.json")  # type: ignore[return-value]


def render_prompt(names: Iterable[str]) -> str:
    """The `[Vectorstore Schema]` block for the given collections (schema order kept, unknown names ignored).

    The first collection of each modality lists its fields; later ones point back to it, as the seeds do.
    Image columns appear in the encodable list only when an image collection is present."""
    wanted = set(names)
    chosen = [c for c in collections() if c.name in wanted]
    texts = _raw()["prompt"]
    hidden = set(texts["hidden_field_keys"])
    first_of: dict[str, str] = {}
    entries = []
    for c in chosen:
        entry = {k: c.raw[k] for k in ("collection_name", "modality", "embed_type", "embed_model", "description")}
        if c.modality in first_of:
            entry["fields"] = texts["similar_fields"].format(name=first_of[c.modality])
        else:
            first_of[c.modality] = c.name
            entry["fields"] = [{k: v for k, v in f.raw.items() if k not in hidden} for f in c.fields if not f.storage_only]
        entries.append(entry)
    modalities = {c.modality for c in chosen}
    db = database_schema()
    encodable = [list(t) for t in db.encodable_columns() if t[2] in modalities]
    return (
        texts["header"].format(database=db.name)
        + json.dumps(entries, indent=4, ensure_ascii=False)
        + texts["encodable_intro"]
        + json.dumps(encodable, indent=4, ensure_ascii=False)
        + texts["filter_intro"]
        + json.dumps(filter_rules(), indent=4, ensure_ascii=False)
    )
