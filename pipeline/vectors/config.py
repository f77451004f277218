"""Vector stage settings: where Milvus lives, which collections are encoded with which model (one [vectors] section),
and the encoder constants the settings default to."""
from __future__ import annotations

from pydantic import BaseModel, Field

BM25_K1 = 1.5  # term-frequency saturation
BM25_B = 0.75  # length normalisation
DEFAULT_BATCH_SIZE = 32  # texts or images per forward pass


class CollectionSettings(BaseModel):
    enabled: bool = Field(True, description="Encode this collection (skipped with a message when its model is unavailable).")
    model: str | None = Field(None, description="HF id or local path; None = the default in schemas/vectorstore.json.")


def _default_collections() -> dict[str, CollectionSettings]:
    from schemas.vectorstore import collections

    return {c.name: CollectionSettings() for c in collections()}


class VectorSettings(BaseModel):
    milvus_uri: str | None = Field(None, description="Milvus server URI; default: Milvus Lite under the data dir.")
    lite_dirname: str = Field("milvus.db", description="Milvus Lite store (a directory) under the data dir.")
    collections: dict[str, CollectionSettings] = Field(default_factory=_default_collections)
    download: bool = Field(False, description="Let transformers fetch models that are not available offline.")
    image_dpi: int = Field(144, description="Render DPI for the page regions that CLIP encodes.")
    batch_size: int = Field(DEFAULT_BATCH_SIZE, description="Texts/images per model forward pass.")
    papers_per_batch: int = Field(8, description="Papers encoded, inserted and recorded together (the crash-redo unit).")
    device: str | None = Field(None, description="torch device for dense models; None = sentence-transformers' choice.")
    bm25_k1: float = BM25_K1
    bm25_b: float = BM25_B
    bm25_avgdl_tolerance: float = Field(
        0.1, description="Re-encode a paper's BM25 vectors when the corpus mean length moved more than this fraction."
    )
    lock_timeout: float = Field(60.0, description="Seconds to wait for a Milvus Lite store another process holds.")

    def collection(self, name: str) -> CollectionSettings:
        return self.collections.get(name) or CollectionSettings()
