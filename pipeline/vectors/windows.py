"""Windows: a long text cut into spans that each fit the encoder, so every dense vector sees all of its text.

Rules:
- A window is a substring of the cell's text, cut at the model tokenizer's token boundaries: at most `size` word
  pieces (`vectors.window_tokens`, 128 by default, never more than the model's max sequence length minus its special
  tokens), consecutive windows overlapping by `overlap` pieces so a sentence cut at a boundary is whole in one.
- A text that fits is one window (the text itself, window 0): short cells are encoded exactly as before.
- Every window's vector points back to the same cell (same table, column, primary key; the window index only enters
  the Milvus entity id), and every search lists a cell once, scored by its best window.
"""
from __future__ import annotations

from collections.abc import Sequence


def spans(offsets: Sequence[tuple[int, int]], size: int, overlap: int) -> list[tuple[int, int]]:
    """Character spans of the windows over a text whose tokens have these (start, end) offsets."""
    n = len(offsets)
    if n <= size:
        return [(0, -1)]  # the whole text
    step = max(1, size - max(0, min(overlap, size - 1)))
    out, start = [], 0
    while True:
        end = min(start + size, n)
        out.append((offsets[start][0], offsets[end - 1][1]))
        if end == n:
            return out
        start += step


def split(tokenizer, texts: Sequence[str], size: int, overlap: int) -> list[list[str]]:
    """The windows of each text (a fast tokenizer with offset mapping; special tokens are not counted)."""
    if not texts:
        return []
    enc = tokenizer(list(texts), add_special_tokens=False, return_offsets_mapping=True, truncation=False, verbose=False)
    out = []
    for text, offs in zip(texts, enc["offset_mapping"]):
        cut = spans(offs, size, overlap)
        out.append([text] if cut == [(0, -1)] else [text[a:b] for a, b in cut])
    return out
