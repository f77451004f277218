"""Fusing ranked hit lists of several collections into one ranking (hybrid search).

Rules:
- Inputs are per-collection lists already de-duplicated to one hit per cell (table, column, primary key), best first;
  the output lists each cell once, carrying the best-ranked input hit's fields and the fused score.
- `rrf`: weighted reciprocal-rank fusion, score = sum over lists of weight / (k + rank), rank from 1. `convex`: sum of
  weight * min-max normalised score within each list (a list of one hit normalises to 1).
- Ties break by the earliest rank in the heaviest list, then by key, so a ranking is reproducible.
Hand-written (a few lines) rather than Milvus' own hybrid_search with RRFRanker/WeightedRanker: those fuse per
entity, and one cell's several window vectors are several entities, so a cell would be counted once per window.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Protocol


class _Hit(Protocol):
    score: float
    table_name: str
    column_name: str
    primary_key: str


def cell_key(hit: _Hit) -> tuple[str, str, str]:
    return hit.table_name, hit.column_name, hit.primary_key


def distinct(hits: Sequence[_Hit]) -> list[_Hit]:
    """One hit per cell, keeping the first (best) one; order kept."""
    seen: set[tuple[str, str, str]] = set()
    out = []
    for h in hits:
        k = cell_key(h)
        if k not in seen:
            seen.add(k)
            out.append(h)
    return out


def _normalised(hits: Sequence[_Hit]) -> list[float]:
    if not hits:
        return []
    hi, lo = max(h.score for h in hits), min(h.score for h in hits)
    return [1.0 if hi == lo else (h.score - lo) / (hi - lo) for h in hits]


def fuse(lists: Mapping[str, Sequence[_Hit]], weights: Mapping[str, float], *, method: str = "rrf",
         k: float = 60.0) -> list[tuple[float, _Hit]]:
    """(fused score, representative hit) per distinct cell, best first."""
    scores: dict[tuple[str, str, str], float] = {}
    best: dict[tuple[str, str, str], tuple[float, int, _Hit]] = {}
    for name, hits in lists.items():
        w = weights.get(name, 1.0)
        parts = ([1.0 / (k + r) for r in range(1, len(hits) + 1)] if method == "rrf" else _normalised(hits))
        for rank, (h, part) in enumerate(zip(hits, parts)):
            key = cell_key(h)
            scores[key] = scores.get(key, 0.0) + w * part
            if key not in best or (-w, rank) < (-best[key][0], best[key][1]):
                best[key] = (w, rank, h)
    order = sorted(scores, key=lambda c: (-scores[c], best[c][1], -best[c][0], c))
    return [(scores[c], best[c][2]) for c in order]
