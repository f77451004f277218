"""Dense text encoders for sentence-transformers models (MiniLM, BGE, or any model given by HF id or local path).

Rules:
- Several runtimes behind one interface (`encode_texts`, `encode_ids`, `encode_query`, `dim`, `tokenizer`,
  `max_tokens`, `label`): `torch` (sentence-transformers, fp32, or bf16 under autocast), `onnx` / `onnx-int8` (ONNX
  Runtime) and `openvino` / `openvino-bf16` (OpenVINO), both on a graph exported from the same local files
  (`onnxenc.py`). Which one runs is chosen per machine (`runtime.py`). Vectors are L2-normalised, so COSINE and IP agree.
- `encode_texts`: identical texts are encoded once; texts are sorted by length before batching (least padding);
  results come back in input order. Texts longer than the model's window are truncated here; callers that must see
  every word cut them first (`windows.py`).
- `encode_ids`: windows already cut into word pieces (the encode stage's path: no second tokenisation, and windows
  with equal pieces but different whitespace are one), sorted by length and batched by padded word pieces
  (`batch_tokens`: `batch_size` x 128) rather than by count, so short windows share a forward pass and long ones do
  not overflow the caches.
- The device is chosen automatically (CUDA when present) unless settings name one.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from contextlib import nullcontext

import numpy as np

PIECES_PER_ITEM = 128  # `encode_ids` batches batch_size x this many padded word pieces (32 x 128 by default)


def auto_device(device: str | None) -> str:
    if device:
        return device
    try:
        import torch

        return "cuda" if torch.cuda.is_available() else "cpu"
    except Exception:  # pragma: no cover - torch missing
        return "cpu"


class TextEncoder:
    """Common batching: de-duplicate, sort by length, call `_encode_sorted` / `_encode_batch`, restore order."""

    batch_size: int = 32
    dim: int
    tokenizer: object
    max_tokens: int  # word pieces per window, special tokens excluded
    backend: str = "?"  # the settings name of this runtime (onnx, openvino-bf16, torch, ...)
    device_name: str = "cpu"

    @property
    def batch_tokens(self) -> int:
        """Padded word pieces per forward pass of `encode_ids`: `batch_size` windows of 128 pieces, or more of shorter."""
        return self.batch_size * PIECES_PER_ITEM

    @property
    def label(self) -> str:
        return f"{self.backend} on {self.device_name}"

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

    def encode_ids(self, windows: Sequence[np.ndarray], progress: Callable[[int], None] | None = None) -> np.ndarray:
        """Vectors of pre-tokenised windows (word pieces without special tokens, at most `max_tokens` each), in input
        order. `progress(pieces)` is called after each forward pass with the word pieces it encoded."""
        if not len(windows):
            return np.zeros((0, self.dim), dtype=np.float32)
        out = np.zeros((len(windows), self.dim), dtype=np.float32)
        for rows, ids, mask in self._padded_batches(windows):
            out[rows] = self._encode_batch(ids, mask)
            if progress:
                progress(int(mask.sum()) - len(rows) * self._special_count)
        return out

    def _padded_batches(self, windows: Sequence[np.ndarray]):
        """(rows, input ids, attention mask) per forward pass: windows sorted by length, each batch grown while its
        padded size stays within `batch_tokens`, special tokens added."""
        prefix, suffix = self.specials
        order = sorted(range(len(windows)), key=lambda i: len(windows[i]))
        k = 0
        while k < len(order):
            j = k + 1
            while j < len(order) and (j + 1 - k) * (len(windows[order[j]]) + 2) <= self.batch_tokens:
                j += 1
            batch = order[k:j]
            width = len(prefix) + min(len(windows[batch[-1]]), self.max_tokens) + len(suffix)
            ids = np.full((len(batch), width), self.pad_id, dtype=np.int64)
            mask = np.zeros((len(batch), width), dtype=np.int64)
            for row, i in enumerate(batch):
                seq = np.concatenate([prefix, np.asarray(windows[i], dtype=np.int64)[: self.max_tokens], suffix])
                ids[row, : len(seq)] = seq
                mask[row, : len(seq)] = 1
            yield batch, ids, mask
            k = j

    @property
    def _special_count(self) -> int:
        prefix, suffix = self.specials
        return len(prefix) + len(suffix)

    @property
    def specials(self) -> tuple[np.ndarray, np.ndarray]:
        """The special pieces the tokenizer puts before and after a text ([CLS] and [SEP] for BERT models)."""
        if getattr(self, "_specials", None) is None:
            probe = "paperbase windows"
            plain = list(self.tokenizer([probe], add_special_tokens=False)["input_ids"][0])
            full = list(self.tokenizer([probe], add_special_tokens=True)["input_ids"][0])
            at = next((k for k in range(len(full) - len(plain) + 1) if full[k : k + len(plain)] == plain), None)
            if at is None:
                raise ValueError("the tokenizer does not wrap a text in fixed special tokens; encode_ids cannot be used")
            self._specials = (np.array(full[:at], dtype=np.int64), np.array(full[at + len(plain) :], dtype=np.int64))
        return self._specials

    @property
    def pad_id(self) -> int:
        return int(getattr(self.tokenizer, "pad_token_id", 0) or 0)

    def _encode_sorted(self, texts: list[str]) -> np.ndarray:  # pragma: no cover - abstract
        raise NotImplementedError

    def _encode_batch(self, ids: np.ndarray, mask: np.ndarray) -> np.ndarray:  # pragma: no cover - abstract
        """Unit vectors of one padded batch (input ids with special tokens, attention mask)."""
        raise NotImplementedError


class SentenceEncoder(TextEncoder):
    """sentence-transformers in torch: fp32, or bf16 matrix products under `torch.autocast` (`bf16`)."""

    def __init__(self, path: str, *, device: str | None = None, batch_size: int = 32, bf16: bool = False):
        from sentence_transformers import SentenceTransformer

        self.model = SentenceTransformer(path, device=auto_device(device))
        self.batch_size = batch_size
        self.tokenizer = self.model.tokenizer
        self.max_tokens = int(self.model.max_seq_length) - 2
        self.bf16 = bf16
        self.backend = "torch-bf16" if bf16 else "torch"
        self.device_name = str(self.model.device)

    @property
    def dim(self) -> int:  # type: ignore[override]
        get = getattr(self.model, "get_embedding_dimension", None) or self.model.get_sentence_embedding_dimension
        return int(get())

    def _autocast(self):
        import torch

        return torch.autocast(self.model.device.type, dtype=torch.bfloat16) if self.bf16 else nullcontext()

    def _encode_sorted(self, texts: list[str]) -> np.ndarray:
        with self._autocast():
            return self.model.encode(texts, batch_size=self.batch_size, normalize_embeddings=True,
                                     convert_to_numpy=True, show_progress_bar=False).astype(np.float32)

    def _encode_batch(self, ids: np.ndarray, mask: np.ndarray) -> np.ndarray:
        import torch

        device = self.model.device
        features = {"input_ids": torch.from_numpy(ids).to(device), "attention_mask": torch.from_numpy(mask).to(device),
                    "token_type_ids": torch.zeros_like(torch.from_numpy(ids)).to(device)}
        with torch.inference_mode(), self._autocast():
            vec = self.model(features)["sentence_embedding"].float()
        vec = torch.nn.functional.normalize(vec, dim=-1)
        return vec.cpu().numpy()
