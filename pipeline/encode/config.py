"""Encoder defaults. User-facing settings live in `pipeline.index.config.VectorSettings` (one [vectors] section);
these are the constants both that module and the encoders share."""
from __future__ import annotations

BM25_K1 = 1.5  # term-frequency saturation
BM25_B = 0.75  # length normalisation
DEFAULT_BATCH_SIZE = 32  # texts or images per forward pass
