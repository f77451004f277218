"""Chunking (core, backend-neutral): tokenizer loading, token counts, and chunks cut from page text.

Chunks are cut by the core after the per-view merge and the normalisation, from whatever `pages` view won: from each
page's prose (`Page.prose`: the text without figure text, margin stamps and display equations) when the backend gives
it, else its text; ~chunk_tokens tokens per chunk, no overlap, never across pages, at paragraph ends where possible
(an over-long paragraph is cut at token boundaries).
"""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from tokenizers import Tokenizer

from pipeline.document import Chunk, Page
from pipeline.models import resolve_model
from pipeline.parse.options import ParseOptions


@lru_cache(maxsize=4)
def load_tokenizer(ref: str) -> Tokenizer:
    path = Path(resolve_model(ref))
    tok = Tokenizer.from_file(str(path / "tokenizer.json")) if (path / "tokenizer.json").exists() else Tokenizer.from_pretrained(ref)
    # Shipped tokenizer.json files often pad/truncate to the model's window; we want raw counts.
    tok.no_padding()
    tok.no_truncation()
    return tok


def count_tokens(tok: Tokenizer, text: str) -> int:
    return len(tok.encode(text, add_special_tokens=False).ids)


def split_long(tok: Tokenizer, line: str, limit: int) -> list[str]:
    """Cut one over-long line into pieces of at most `limit` tokens, at whitespace between tokens where
    possible (a cut inside a word can re-tokenize into more pieces). Pieces concatenate back to the line."""
    offsets = tok.encode(line, add_special_tokens=False).offsets
    pieces, start_tok, start_chr = [], 0, 0
    while len(offsets) - start_tok > limit:
        end = start_tok + limit
        while True:
            cut = end
            # back off to a token preceded by whitespace, unless that would leave almost nothing
            while cut > start_tok + limit // 2 and offsets[cut][0] == offsets[cut - 1][1]:
                cut -= 1
            if cut <= start_tok + limit // 2:
                cut = end
            piece = line[start_chr:offsets[cut][0]]
            if count_tokens(tok, piece) <= limit or end <= start_tok + 1:
                break
            end -= 1
        pieces.append(piece)
        start_tok, start_chr = cut, offsets[cut][0]
    pieces.append(line[start_chr:])
    return pieces


def extract_chunks(pages: list[Page], options: ParseOptions) -> list[Chunk]:
    """~options.chunk_tokens tokens per chunk, no overlap, never across pages. Cuts fall on line ends where
    possible, so a chunk holds whole lines of the page text; a single line over the limit is cut by tokens."""
    tok = load_tokenizer(options.tokenizer)
    limit = options.chunk_tokens
    chunks: list[Chunk] = []
    for page in pages:
        source = page.prose if page.prose is not None else page.text
        if not source.strip():
            continue
        lines = source.split("\n")
        counts = [len(e.ids) for e in tok.encode_batch(lines, add_special_tokens=False)]
        # items: (text, tokens, joiner before it); pieces of one long line rejoin without a newline
        items: list[tuple[str, int, str]] = []
        for line, n in zip(lines, counts):
            if n <= limit:
                items.append((line, n, "\n"))
            else:
                for i, piece in enumerate(split_long(tok, line, limit)):
                    items.append((piece, count_tokens(tok, piece), "\n" if i == 0 else ""))
        current, size, ordinal = "", 0, 0
        for text, n, joiner in items:
            if current and size + n > limit:
                if current.strip():
                    chunks.append(Chunk(page.number, ordinal, current.strip()))
                    ordinal += 1
                current, size = "", 0
            current = f"{current}{joiner}{text}" if current else text
            size += n
        if current.strip():
            chunks.append(Chunk(page.number, ordinal, current.strip()))
    return chunks
