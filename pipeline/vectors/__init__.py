"""Vector index: encodable DuckDB cells -> Milvus collections (BM25, MiniLM, BGE, CLIP), search, check, prompt.

Public API (other stages and the agent runtime use only these):
  encode_papers(settings, paper_ids=None, *, collections=None, force=False) -> EncodeReport
  rebuild(settings, collection=None) -> EncodeReport
  check(settings) -> list[Mismatch]
  search(settings, query, collection, table_name=None, column_name=None, filter=None, limit=5) -> list[Hit]
  hybrid_search(settings, query, table_name=None, column_name=None, filter=None, limit=5, *, client) -> list[Hit]
  render_vectorstore_prompt(settings_or_collections) -> str
Dense text cells longer than the model's window are stored as several window vectors (windows.py); every search
lists a cell once. Milvus Lite (under the data dir) is the default; `vectors.milvus_uri` selects a Milvus server.
"""
from __future__ import annotations

from pipeline.vectors.check import Mismatch, check
from pipeline.vectors.config import CollectionSettings, VectorSettings
from pipeline.vectors.stage import CollectionReport, EncodeReport, encode_papers, rebuild
from pipeline.vectors.errors import ModelUnavailable, StoreLocked, UnknownCollection, VectorError
from pipeline.vectors.search import Hit, hybrid_search, search


def existing_collections(settings) -> list[str]:
    """Schema collections that exist in Milvus (schema order)."""
    from pipeline.vectors import milvus
    from schemas.vectorstore import collections

    with milvus.connect(settings) as client:
        names = milvus.existing(client)
    return [c.name for c in collections() if c.name in names]


def render_vectorstore_prompt(settings_or_collections) -> str:
    """The agent's `[Vectorstore Schema]` block for the collections that exist (Settings) or the names given."""
    from schemas.vectorstore import render_prompt

    if hasattr(settings_or_collections, "vectors"):  # Settings (pydantic models are iterable too: test this first)
        return render_prompt(existing_collections(settings_or_collections))
    return render_prompt(list(settings_or_collections))


__all__ = ["encode_papers", "rebuild", "check", "search", "hybrid_search", "render_vectorstore_prompt", "existing_collections",
           "EncodeReport", "CollectionReport", "Mismatch", "Hit", "VectorSettings", "CollectionSettings",
           "VectorError", "ModelUnavailable", "StoreLocked", "UnknownCollection"]
