"""Dense text cells to window vectors, each distinct window encoded once.

Rules:
- A paper's text cells are cut together (`windows.cut` with the paper's anchors: the first lines of its cells), so
  its pages, chunks and sections share windows wherever they hold the same text.
- Windows are keyed by their word pieces: a window already encoded in this run (same batch of papers, an earlier
  batch, another paper with the same boilerplate) is not encoded again. The run cache is bounded (`CACHE_WINDOWS`);
  past it the oldest windows are forgotten, which costs speed, never a wrong vector.
- The distinct new windows go to the encoder in one call, sorted by length and batched by word pieces
  (`TextEncoder.encode_ids`); the progress callback moves with the word pieces encoded, in cells.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from pipeline.vectors.cells import Cell

CACHE_WINDOWS = 100_000  # ~150 MB of 384-d vectors; a paper has a few hundred windows


@dataclass
class Counts:
    windows: int = 0  # windows of the cells (what Milvus stores)
    encoded: int = 0  # distinct windows the model ran on
    pieces: int = 0  # word pieces the model ran on (special tokens excluded)


@dataclass
class WindowCache:
    """Vectors by window key for one run of one collection."""

    limit: int = CACHE_WINDOWS
    vectors: dict[bytes, np.ndarray] = field(default_factory=dict)

    def add(self, keys: Sequence[bytes], vecs: np.ndarray) -> None:
        for key, vec in zip(keys, vecs):
            self.vectors[key] = vec
        while len(self.vectors) > self.limit:  # dicts keep insertion order: drop the oldest
            del self.vectors[next(iter(self.vectors))]


def encode(enc, batch_cells: Sequence[Cell], size: int, overlap: int, cache: WindowCache,
           progress: Callable[[int], None] | None = None, counts: Counts | None = None
           ) -> tuple[list[tuple[Cell, int]], np.ndarray]:
    """(cell, window index) per vector, and the vectors (one row each), for these text cells."""
    import numpy as np  # here: importing the vector stage (a no-op ingest, status) needs no numpy

    from pipeline.vectors import windows

    counts = counts if counts is not None else Counts()
    by_paper: dict[str, list[Cell]] = {}
    for c in batch_cells:
        by_paper.setdefault(c.pdf_id, []).append(c)
    items: list[tuple[Cell, int]] = []
    keys: list[bytes] = []
    todo: dict[bytes, np.ndarray] = {}
    for paper_cells in by_paper.values():
        texts = [c.text or "" for c in paper_cells]
        for c, ws in zip(paper_cells, windows.cut(enc.tokenizer, texts, size, overlap, windows.anchors(texts))):
            for k, w in enumerate(ws):
                items.append((c, k))
                keys.append(w.key)
                if w.key not in cache.vectors:
                    todo.setdefault(w.key, w.ids)
    counts.windows += len(items)
    counts.encoded += len(todo)
    pieces = sum(len(ids) for ids in todo.values())
    counts.pieces += pieces
    tick = _cell_ticks(len(batch_cells), pieces, progress)
    new = list(todo)
    fresh = dict(zip(new, enc.encode_ids([todo[k] for k in new], progress=tick)))
    if tick:
        tick(0, final=True)
    vecs = np.stack([fresh[k] if k in fresh else cache.vectors[k] for k in keys]) if keys else np.zeros((0, enc.dim), np.float32)
    cache.add(new, np.stack(list(fresh.values())) if fresh else np.zeros((0, 1), np.float32))
    return items, vecs


def _cell_ticks(cells: int, pieces: int, progress: Callable[[int], None] | None):
    """A callback taking word pieces encoded and reporting cells to `progress` in proportion."""
    if not progress:
        return None
    state = {"pieces": 0, "cells": 0}

    def tick(n: int, final: bool = False) -> None:
        state["pieces"] += n
        now = cells if final or not pieces else min(cells, cells * state["pieces"] // pieces)
        if now > state["cells"]:
            progress(now - state["cells"])
            state["cells"] = now

    return tick
