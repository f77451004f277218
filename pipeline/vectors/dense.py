"""Dense text encoders for sentence-transformers models (MiniLM, BGE, or any model given by HF id or local path).

Rules:
- Two backends behind one interface (`encode_texts`, `encode_query`, `dim`, `tokenizer`, `max_tokens`): `torch`
  (sentence-transformers, fp32) and `onnx` / `onnx-int8` (ONNX Runtime on a graph exported from the same local
  files, see `onnxenc.py`). Vectors are L2-normalised, so COSINE and IP agree.
- Identical texts are encoded once; texts are sorted by length before batching (least padding); results come back
  in input order.
- The device is chosen automatically (CUDA when present) unless settings name one.
- Texts longer than the model's window are truncated here; callers that must see every word cut them first
  (`windows.py`).
"""
from __future__ import annotations

from collections.abc import Sequence

import numpy as np


def auto_device(device: str | None) -> str:
    if device:
        return device
    try:
        import torch

        return "cuda" if torch.cuda.is_available() else "cpu"
    except Exception:  # pragma: no cover - torch missing
        return "cpu"


class TextEncoder:
    """Common batching: de-duplicate, sort by length, call `_encode_sorted`, restore order."""

    batch_size: int = 32
    dim: int
    tokenizer: object
    max_tokens: int  # word pieces per window, special tokens excluded

    def encode_texts(self, texts: Sequence[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        unique = list(dict.fromkeys(texts))
        order = sorted(range(len(unique)), key=lambda i: len(unique[i]))
        vecs = self._encode_sorted([unique[i] for i in order])
        by_text = {unique[i]: vecs[k] for k, i in enumerate(order)}
        return np.stack([by_text[t] for t in texts]).astype(np.float32)

    def encode_query(self, text: str) -> np.ndarray:
        return self.encode_texts([text])[0]

    def _encode_sorted(self, texts: list[str]) -> np.ndarray:  # pragma: no cover - abstract
        raise NotImplementedError


class SentenceEncoder(TextEncoder):
    """sentence-transformers in torch (fp32)."""

    backend = "torch"

    def __init__(self, path: str, *, device: str | None = None, batch_size: int = 32):
        from sentence_transformers import SentenceTransformer

        self.model = SentenceTransformer(path, device=auto_device(device))
        self.batch_size = batch_size
        self.tokenizer = self.model.tokenizer
        self.max_tokens = int(self.model.max_seq_length) - 2

    @property
    def dim(self) -> int:  # type: ignore[override]
        get = getattr(self.model, "get_embedding_dimension", None) or self.model.get_sentence_embedding_dimension
        return int(get())

    def _encode_sorted(self, texts: list[str]) -> np.ndarray:
        return self.model.encode(texts, batch_size=self.batch_size, normalize_embeddings=True,
                                 convert_to_numpy=True, show_progress_bar=False)
