"""Vector stage settings: where Milvus lives, which collections are encoded with which model (one [vectors] section),
and the encoder constants the settings default to."""
from __future__ import annotations

from pathlib import Path
from urllib.parse import urlparse

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

BM25_K1 = 0.9  # term-frequency saturation (measured with word pairs: 0.9 / 0.4 beat 1.2 / 0.75 and 1.5 / 0.75)
BM25_B = 0.4  # length normalisation (chunks are of similar length; the short ones end a page)
DEFAULT_BATCH_SIZE = 32  # texts or images per forward pass


class CollectionSettings(BaseModel):
    model_config = ConfigDict(extra="forbid")

    enabled: bool = Field(True, description="Encode this collection (skipped with a message when its model is unavailable).")
    model: str | None = Field(None, description="HF id or local path; None = the default in schemas/vectorstore.json.")


class HybridSettings(BaseModel):
    """How `paperbase search` without --collection fuses BM25 with the dense text collections (see fusion.py)."""

    model_config = ConfigDict(extra="forbid")

    method: Literal["rrf", "convex"] = Field("convex", description="Convex combination of per-list min-max "
                                             "normalised scores, or weighted reciprocal-rank fusion.")
    rrf_k: float = Field(60.0, gt=0, description="RRF constant: larger flattens the rank curve.")
    # measured on 198 questions (docs/vectors.md): equal weights lose to BM25 alone on the first hit (0.80 vs 0.85);
    # BM25 at 4x the dense lists beats BM25 alone on first hit, top 5 and MRR (0.86 / 0.98 / 0.91 vs 0.85 / 0.97 / 0.91)
    weights: dict[str, float] = Field(default_factory=lambda: {"text_bm25_en": 4.0},
                                      description="Weight per collection; collections not listed weigh `default_weight`.")
    default_weight: float = Field(1.0, ge=0)
    candidates: int = Field(50, ge=1, description="Distinct cells taken from each collection before fusing.")

    def weight(self, name: str) -> float:
        return self.weights.get(name, self.default_weight)


def _default_collections() -> dict[str, CollectionSettings]:
    from schemas.vectorstore import collections

    return {c.name: CollectionSettings() for c in collections()}


class VectorSettings(BaseModel):
    model_config = ConfigDict(extra="forbid")

    milvus_uri: str | None = Field(None, description="Milvus server URI; default: Milvus Lite under the data dir.")
    lite_dirname: str = Field("milvus.db", description="Milvus Lite store (a directory) under the data dir.")
    collections: dict[str, CollectionSettings] = Field(default_factory=_default_collections)
    download: bool = Field(False, description="Let transformers fetch models that are not available offline.")
    image_dpi: int = Field(144, ge=36, le=600, description="Render DPI for the page regions that CLIP encodes.")
    batch_size: int = Field(DEFAULT_BATCH_SIZE, ge=1, description="Texts/images per model forward pass.")
    papers_per_batch: int = Field(8, ge=1, description="Papers encoded, inserted and recorded together (the crash-redo unit).")
    device: str | None = Field(None, description="Device for dense models; None = CUDA when present, else the CPU.")
    backend: Literal["auto", "onnx", "onnx-int8", "openvino", "openvino-bf16", "torch", "torch-bf16"] = Field(
        "auto", description="Dense text encoder runtime. auto (default): chosen from the machine (pipeline/vectors/"
        "runtime.py): OpenVINO with bf16 matrix products on CPUs with AMX or AVX512-BF16, ONNX Runtime fp32 on other "
        "CPUs, CUDA when present. Or name one: onnx (ONNX Runtime fp32), onnx-int8 (ONNX Runtime int8: cosine to fp32 "
        "down to 0.988), openvino (fp32), openvino-bf16, torch (sentence-transformers fp32), torch-bf16 (autocast). "
        "The ONNX files are exported and cached under <data_dir>/models. `paperbase doctor` shows the choice.")
    window_tokens: int = Field(128, ge=16, description="Word pieces per dense window (capped at the model's length): "
                               "128 found the evidence page more often than 254 (MiniLM top 5 0.89 vs 0.86).")
    model_cache: Path | None = Field(None, description="Where exported ONNX models are cached; None = <data_dir>/models. "
                                     "Several data dirs may share one (files are named by a digest of the model).")
    window_overlap: int = Field(32, ge=0, description="Word pieces shared by consecutive windows of a long cell.")
    hybrid: HybridSettings = Field(default_factory=lambda: HybridSettings())
    bm25_k1: float = Field(BM25_K1, gt=0)
    bm25_b: float = Field(BM25_B, ge=0, le=1)
    # measured on 198 questions (docs/vectors.md): per-paper search, evidence page first 0.80 -> 0.85 (unseen house
    # styles 0.74 -> 0.82): a term every chunk of the paper carries (its name, its topic) no longer outweighs the rest
    bm25_idf: Literal["searched", "library"] = Field(
        "searched", description="IDF of a BM25 query: from the statistics of the papers its filter pins (the documents "
        "it ranks), or always from the whole library. A search that pins no paper uses the library either way.")
    bm25_avgdl_tolerance: float = Field(
        0.1, description="Re-encode a paper's BM25 vectors when the corpus mean length moved more than this fraction."
    )
    search_copies: bool = Field(
        True, description="Keep each Milvus Lite shard mirrored as numpy arrays and search those while they match the "
        "shard (pipeline/vectors/copies.py): milliseconds instead of Milvus Lite's Python row walk. No effect on a "
        "Milvus server.")
    lock_timeout: float = Field(60.0, ge=0, description="Seconds to wait for a Milvus Lite store another process holds.")

    def collection(self, name: str) -> CollectionSettings:
        return self.collections.get(name) or CollectionSettings()

    @field_validator("milvus_uri")
    @classmethod
    def _server_uri(cls, value: str | None) -> str | None:
        """A server URI must parse (scheme and host); a bare path means a Milvus Lite store there."""
        if value and "://" in value:
            url = urlparse(value)
            if url.scheme not in ("http", "https", "tcp", "grpc", "unix") or not (url.hostname or url.path):
                raise ValueError(f"not a Milvus server URI (expected e.g. http://host:19530): {value!r}")
            try:
                url.port  # noqa: B018  (raises on a malformed port)
            except ValueError as exc:
                raise ValueError(f"bad port in {value!r}: {exc}") from None
        return value

    @field_validator("collections")
    @classmethod
    def _known_collections(cls, value: dict[str, CollectionSettings]) -> dict[str, CollectionSettings]:
        import difflib

        from schemas.vectorstore import collections

        known = [c.name for c in collections()]
        for name in value:
            if name not in known:
                near = difflib.get_close_matches(name, known, n=1, cutoff=0.5)
                raise ValueError(f"unknown collection {name!r}" + (f"; did you mean {near[0]!r}?" if near else f"; known: {known}"))
        return {**{n: CollectionSettings() for n in known}, **value}

