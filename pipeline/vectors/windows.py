"""Windows: a long text cut into spans that each fit the encoder, so every dense vector sees all of its text, cut so
that the same paper text seen by several cells (a page, its chunks, the sections over it) gives the same windows,
which are then encoded once.

Rules:
- A window is a substring of the cell's text, cut at the model tokenizer's token boundaries: at most `size` word
  pieces (`vectors.window_tokens`, 128 by default, never more than the model's max sequence length minus its special
  tokens). A text that fits is one window (the text itself, window 0): short cells are encoded exactly as before.
- Where a long text is cut depends only on the text around the cut, never on where the cell starts (content-defined
  chunking, as deduplicating backup tools cut files): a word start whose hash over the few word pieces around it
  hits, at least `min_segment` pieces after the previous cut (line starts are preferred: they hit more often). Where
  no such point comes within `size - overlap` pieces the cut is forced at the last line start (else word start) in
  reach; the cuts after it fall back into step at the next content-defined one.
- Hard cuts: a line of the text that is the first line of another cell of the same paper (`anchors`) always starts a
  new segment, and windows never reach back over it. A page is cut where each of its chunks starts (chunks are cut
  from page text at line ends), so a page's windows are exactly its chunks' windows; a section is cut where the
  pages and chunks inside it start, and content-defined cuts bring its windows back into step after a page break.
- Each segment becomes one window reaching back up to `overlap` pieces (to a word start) into the text before it,
  but not over a hard cut, so a sentence cut at a boundary is whole in one window.
- Every window's vector points back to the same cell (same table, column, primary key; the window index only enters
  the Milvus entity id), and every search lists a cell once, scored by its best window.

Why by hand: no library cuts token sequences for embedding at content-defined points; the rolling-hash idea is the
one rsync/restic use for files, applied to word pieces. Measured on the corpus (25 papers, 5,702 text cells): the
MiniLM collection's windows went from 1.62 M word pieces to encode (fixed 128-piece windows overlapping by 32,
duplicate texts once) to 1.08 M with the same settings, chunks costing almost nothing after their pages
(docs/vectors.md).
"""
from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np

MIN_SEGMENT = 48  # word pieces before a content-defined cut may fall (a window shorter than this carries little)
LINE_ODDS = 4  # a line start is a content-defined cut one time in LINE_ODDS (lines are ~10 pieces in PDF text)
WORD_ODDS = 40  # any other word start one time in WORD_ODDS (text without line breaks still gets cut points)
ANCHOR_CHARS = 12  # a first line shorter than this ("1", "Abstract") is too common to mark a cell start
_ALNUM = np.array([chr(c).isalnum() for c in range(128)] + [True])  # by code point; 128 = any non-ASCII
_MIX = np.array([0x9E3779B97F4A7C15, 0xC2B2AE3D27D4EB4F, 0x165667B19E3779F9, 0x27D4EB2F165667C5], dtype=np.uint64)


@dataclass(frozen=True, eq=False)
class Window:
    """One window of a cell: its text and its word pieces (special tokens excluded)."""

    text: str
    ids: np.ndarray  # int32

    @property
    def key(self) -> bytes:
        """Equal word pieces, equal vector: windows are encoded once per key."""
        return self.ids.tobytes()


def first_line(text: str) -> str:
    for line in text.split("\n"):
        if line.strip():
            return line.strip()
    return ""


def anchors(texts: Iterable[str]) -> frozenset[str]:
    """The first lines of a paper's cells: where any of them appears as a line of another cell, that cell is cut."""
    return frozenset(f for f in map(first_line, texts) if len(f) >= ANCHOR_CHARS)


def spans(offsets: Sequence[tuple[int, int]], size: int, overlap: int) -> list[tuple[int, int]]:
    """Character spans of fixed windows over a text whose tokens have these (start, end) offsets (the cut used before
    content-defined windows; kept for comparisons in bench/retrieval.py)."""
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


def token_cuts(text: str, ids: Sequence[int], offsets: Sequence[tuple[int, int]], size: int, overlap: int,
               anchor_lines: frozenset[str] = frozenset(), min_segment: int = MIN_SEGMENT) -> list[tuple[int, int]]:
    """Token spans [start, end) of the windows of one text (see the module rules)."""
    n = len(ids)
    if n <= size:
        return [(0, n)]
    overlap = max(0, min(overlap, size // 2))
    reach = size - overlap  # new pieces per window at most
    min_segment = max(1, min(min_segment, reach))
    offs = np.asarray(offsets, dtype=np.int64).reshape(n, 2)
    starts, ends = offs[:, 0], offs[:, 1]
    word = np.ones(n, dtype=bool)
    word[1:] = starts[1:] > ends[:-1]  # whitespace before the piece: it starts a word
    codes = np.frombuffer(text.encode("utf-32-le"), dtype=np.uint32)  # one per character, offsets index it
    # where a word-piece tokenizer's pre-tokenizer splits without whitespace (punctuation, markup: "</td><td>16"):
    # an ASCII non-alphanumeric on either side (other characters count as letters: fewer split points, never wrong)
    bound = word.copy()
    inner = np.flatnonzero(~word & (starts > 0))
    bound[inner] = ~(_ALNUM[np.minimum(codes[starts[inner] - 1], 128)] & _ALNUM[np.minimum(codes[starts[inner]], 128)])
    newlines = np.flatnonzero(codes == 10)
    line = np.zeros(n, dtype=bool)
    line[0] = True
    if len(newlines):  # a newline between the previous piece's end and this piece's start
        line[1:] = np.searchsorted(newlines, starts[1:]) > np.searchsorted(newlines, ends[:-1])
    line &= word
    hard = [0]
    if anchor_lines:
        for i in np.flatnonzero(line[1:]) + 1:
            stop = text.find("\n", int(starts[i]))
            if text[starts[i] : stop if stop >= 0 else len(text)].strip() in anchor_lines:
                hard.append(int(i))
    hard.append(n)
    natural = np.flatnonzero((line & (_hash(ids) % LINE_ODDS == 0)) | (word & (_hash(ids) % WORD_ODDS == 0)))
    line_at, word_at, bound_at = np.flatnonzero(line), np.flatnonzero(word), np.flatnonzero(bound)
    out: list[tuple[int, int]] = []
    for lo, hi in zip(hard[:-1], hard[1:]):
        if lo == hi:
            continue
        cuts, last = [], lo
        while hi - last > reach:
            cut = _first_in(natural, last + min_segment, last + reach)
            if cut is None:  # forced: the last line start, else word start, else split point, in reach
                for positions in (line_at, word_at, bound_at):
                    cut = _last_in(positions, last + min_segment, last + reach)
                    if cut is not None:
                        break
                else:
                    cut = last + reach
            cuts.append(cut)
            last = cut
        bounds = [lo, *cuts, hi]
        for a, b in zip(bounds[:-1], bounds[1:]):
            back = max(lo, a - overlap)
            if back < a:  # start the overlap at a word start (else a split point)
                start = _first_in(word_at, back, a)
                start = _first_in(bound_at, back, a) if start is None else start
                back = a if start is None else start
            out.append((back, b))
    return out


def _hash(ids: Sequence[int]) -> np.ndarray:
    """A hash per piece over the pieces around it (two before, itself, one after): equal text, equal hash."""
    a = np.asarray(ids, dtype=np.uint64)
    n = len(a)
    pad = np.concatenate([np.zeros(2, np.uint64), a, np.zeros(1, np.uint64)])
    h = pad[0:n] * _MIX[0] + pad[1 : n + 1] * _MIX[1] + pad[2 : n + 2] * _MIX[2] + pad[3 : n + 3] * _MIX[3]
    h ^= h >> np.uint64(31)
    h *= np.uint64(0xBF58476D1CE4E5B9)
    return h >> np.uint64(33)


def _first_in(sorted_positions: np.ndarray, lo: int, hi: int) -> int | None:
    """The first position in [lo, hi] (None when there is none)."""
    k = int(np.searchsorted(sorted_positions, lo))
    return int(sorted_positions[k]) if k < len(sorted_positions) and sorted_positions[k] <= hi else None


def _last_in(sorted_positions: np.ndarray, lo: int, hi: int) -> int | None:
    """The last position in [lo, hi] (None when there is none)."""
    k = int(np.searchsorted(sorted_positions, hi, side="right")) - 1
    return int(sorted_positions[k]) if k >= 0 and sorted_positions[k] >= lo else None


def cut(tokenizer, texts: Sequence[str], size: int, overlap: int,
        anchor_lines: frozenset[str] = frozenset()) -> list[list[Window]]:
    """The windows of each text, with their word pieces (a fast tokenizer with offset mapping; special tokens are not
    counted). A text that fits is one window holding the text itself."""
    if not texts:
        return []
    enc = tokenizer(list(texts), add_special_tokens=False, return_offsets_mapping=True, truncation=False, verbose=False)
    out = []
    for text, ids, offs in zip(texts, enc["input_ids"], enc["offset_mapping"]):
        ids = np.asarray(ids, dtype=np.int32)
        spans_ = token_cuts(text, ids, offs, size, overlap, anchor_lines)
        if len(spans_) == 1:
            out.append([Window(text, ids)])
        else:
            out.append([Window(text[offs[a][0] : offs[b - 1][1]], ids[a:b]) for a, b in spans_])
    return out


def split(tokenizer, texts: Sequence[str], size: int, overlap: int,
          anchor_lines: frozenset[str] = frozenset()) -> list[list[str]]:
    """The window texts of each text (see `cut`)."""
    return [[w.text for w in ws] for ws in cut(tokenizer, texts, size, overlap, anchor_lines)]
