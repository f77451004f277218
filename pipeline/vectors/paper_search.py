"""Per-paper search that costs one paper's bucket, not the library.

Milvus Lite scores a filtered search by walking every row of the partitions it covers in Python (dedup, tombstone and
filter masks), so a `pdf_id == ...` search grew linearly with the library (bench/scale.py). Vectors live in paper
buckets spread over shards (milvus.py); a search whose filter pins its papers visits their shards and names their
buckets as partitions, and Milvus walks ~1/PAPER_BUCKETS of the library (BM25: ~1/SHARDS). Milvus still applies the whole filter and scores as before: same hits as the search
over every partition (tests/vectors/test_paper_buckets.py).

Rules:
- The filter pins its papers when it has a `pdf_id == "..."` or `pdf_id in [...]` with literal strings, outside any
  string literal, and no `or` / `not` / `||` / `!` outside string literals (otherwise matching rows could lie in any
  bucket). Several pins: the union of their shards and buckets (a superset; the filter still decides).
- A collection without buckets (created before them) is searched over every partition, as before.
"""
from __future__ import annotations

import re

_STRINGS = re.compile(r'"(?:[^"\\]|\\.)*"|\'(?:[^\'\\]|\\.)*\'')
_STRING = r'"(?:[^"\\]|\\.)*"|\'(?:[^\'\\]|\\.)*\''
_EQ = re.compile(rf"(?<![\w.])pdf_id\s*==\s*({_STRING})")
_IN = re.compile(rf"(?<![\w.])pdf_id\s+in\s*\[\s*((?:{_STRING})(?:\s*,\s*(?:{_STRING}))*)\s*,?\s*\]", re.IGNORECASE)
_WIDENING = re.compile(r"(?<![\w.])(or|not)(?![\w.])|\|\||!(?!=)", re.IGNORECASE)


def pinned_papers(expr: str | None) -> list[str] | None:
    """The papers every row the filter admits belongs to (see module rules), or None when it does not pin them."""
    if not expr or _WIDENING.search(_STRINGS.sub('""', expr)):
        return None
    inside = [m.span() for m in _STRINGS.finditer(expr)]

    def outside(m: re.Match) -> bool:  # `pdf_id == ...` written inside another literal is text, not a condition
        return not any(a <= m.start() < b for a, b in inside)

    found = [m.group(1) for m in _EQ.finditer(expr) if outside(m)]
    for m in _IN.finditer(expr):
        if outside(m):
            found += _STRINGS.findall(m.group(1))
    return sorted({_unquote(s) for s in found}) or None


def _unquote(literal: str) -> str:
    return re.sub(r"\\(.)", r"\1", literal[1:-1])


__all__ = ["pinned_papers"]
