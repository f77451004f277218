"""Dense text encoders through sentence-transformers (MiniLM, BGE, or any model given by HF id or local path).

Long texts are truncated at the model's max sequence length (256 word pieces for all-MiniLM-L6-v2, 512 for BGE).
"""
from __future__ import annotations

from collections.abc import Sequence

import numpy as np


class SentenceEncoder:
    def __init__(self, path: str, *, device: str | None = None, batch_size: int = 32):
        from sentence_transformers import SentenceTransformer

        self.model = SentenceTransformer(path, device=device)
        self.batch_size = batch_size

    @property
    def dim(self) -> int:
        get = getattr(self.model, "get_embedding_dimension", None) or self.model.get_sentence_embedding_dimension
        return int(get())

    def encode_texts(self, texts: Sequence[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        # Normalised, so COSINE and IP agree; sentence-transformers sorts by length internally to limit padding.
        return self.model.encode(list(texts), batch_size=self.batch_size, normalize_embeddings=True,
                                 convert_to_numpy=True, show_progress_bar=False).astype(np.float32)

    def encode_query(self, text: str) -> np.ndarray:
        return self.encode_texts([text])[0]
