"""Content-defined windows (windows.py) and encoding each distinct window once (windowed.py): the bundled MiniLM's
tokenizer on real corpus text; the encode path against the text path on the test papers."""
from __future__ import annotations

import numpy as np
import pytest
from tests.vectors.vechelpers import MINILM, fresh_dir, make_settings

from pipeline.models import resolve_model
from pipeline.store import Store
from pipeline.vectors import windowed, windows
from pipeline.vectors.cells import load, papers
from pipeline.vectors.fasttok import FastTokenizer

SIZE, OVERLAP = 128, 32


@pytest.fixture(scope="module")
def tok():
    return FastTokenizer(resolve_model("all-MiniLM-L6-v2"))


@pytest.fixture(scope="module")
def paper(base_db):
    """The text cells of one test paper: (cells, texts)."""
    with Store(base_db).reading() as con:
        cs = load(con, "text", papers(con)[:1])
    return cs, [c.text or "" for c in cs]


def _pieces(tok, text: str) -> list[int]:
    return list(tok([text], add_special_tokens=False)["input_ids"][0])


def test_windows_cover_the_text_fit_the_model_and_reach_back_over_cuts(tok, paper):
    _, texts = paper
    page = max(texts, key=len)
    ids = _pieces(tok, page)
    offs = tok([page], add_special_tokens=False, return_offsets_mapping=True)["offset_mapping"][0]
    spans = windows.token_cuts(page, ids, offs, SIZE, OVERLAP)
    assert len(spans) >= 3 and spans[0][0] == 0 and spans[-1][1] == len(ids)
    assert all(0 < b - a <= SIZE for a, b in spans)
    assert all(a2 <= b1 for (_, b1), (a2, _) in zip(spans, spans[1:]))  # no piece is left out
    assert sum(1 for (_, b1), (a2, _) in zip(spans, spans[1:]) if a2 < b1) >= len(spans) - 2  # they overlap
    assert windows.token_cuts("a short cell", [1037, 2460, 3526], [(0, 1), (2, 7), (8, 12)], SIZE, OVERLAP) == [(0, 3)]


def test_a_window_is_its_text_and_its_pieces_are_the_texts_own(tok, paper):
    _, texts = paper
    cut = windows.cut(tok, texts, SIZE, OVERLAP, windows.anchors(texts))
    short = next(i for i, t in enumerate(texts) if len(_pieces(tok, t)) <= SIZE)
    assert [w.text for w in cut[short]] == [texts[short]]  # a cell that fits is encoded whole, as before
    every = [w for ws in cut for w in ws]
    for w in every[:: max(1, len(every) // 300)]:
        assert list(w.ids) == _pieces(tok, w.text) and len(w.ids) <= SIZE
        assert w.text.strip() == w.text


def test_cuts_depend_on_the_text_not_on_where_the_cell_starts(tok, paper):
    """The same text behind another start falls into the same windows after a cut or two (no anchors at all)."""
    _, texts = paper
    page = max(texts, key=len)
    lines = page.split("\n")
    later = "\n".join(lines[len(lines) // 5 :])  # the page from a line a fifth of the way in
    whole, tail = (set(w.key for w in ws) for ws in windows.cut(tok, [page, later], SIZE, OVERLAP))
    tail_windows = windows.cut(tok, [later], SIZE, OVERLAP)[0]
    shared = [w for w in tail_windows if w.key in whole]
    assert len(shared) >= len(tail_windows) - 3, (len(shared), len(tail_windows))


def test_a_page_is_cut_where_its_chunks_start_so_chunks_cost_nothing_more(tok, base_db):
    with Store(base_db).reading() as con:
        cs = load(con, "text", papers(con))
    by_paper: dict[str, list] = {}
    for c in cs:
        by_paper.setdefault(c.pdf_id, []).append(c)
    page_keys, chunk_keys = set(), set()
    for paper_cells in by_paper.values():
        texts = [c.text or "" for c in paper_cells]
        for c, ws in zip(paper_cells, windows.cut(tok, texts, SIZE, OVERLAP, windows.anchors(texts))):
            if c.table == "pages":
                page_keys |= {w.key for w in ws}
            elif c.table == "chunks":
                chunk_keys |= {w.key for w in ws}
    assert chunk_keys and len(chunk_keys - page_keys) <= 0.05 * len(chunk_keys), len(chunk_keys - page_keys)


def test_the_stage_encodes_each_distinct_window_once_with_the_vectors_of_the_text_path(base_db, tmp_path_factory):
    from pipeline.vectors.encoders import encoder_for
    from schemas.vectorstore import collection

    settings = make_settings(fresh_dir(base_db, tmp_path_factory.mktemp("win")), [MINILM], backend="onnx")
    enc = encoder_for(collection(MINILM), settings, "all-MiniLM-L6-v2")
    with Store(settings.duckdb_path).reading() as con:
        cs = load(con, "text", papers(con))
    counts, cache, ticks = windowed.Counts(), windowed.WindowCache(), []
    items, vecs = windowed.encode(enc, cs, SIZE, OVERLAP, cache, ticks.append, counts)
    assert len(items) == len(vecs) == counts.windows and {c for c, _ in items} == set(cs)
    assert counts.encoded < 0.75 * counts.windows  # pages, chunks and sections share most windows
    assert sum(ticks) == len(cs)  # progress moves in cells, to the last one
    assert np.allclose((vecs**2).sum(1), 1.0, atol=1e-4)
    window_text = {}  # (cell, window index) -> window text, cut per paper as the stage does
    for pdf_id in {c.pdf_id for c in cs}:
        paper_cells = [c for c in cs if c.pdf_id == pdf_id]
        texts = [c.text or "" for c in paper_cells]
        for c, ws in zip(paper_cells, windows.split(enc.tokenizer, texts, SIZE, OVERLAP, windows.anchors(texts))):
            window_text.update({(c, k): w for k, w in enumerate(ws)})
    picked = list(range(0, len(items), 40))
    ref = enc.encode_texts([window_text[items[i]] for i in picked])  # the text path: the window text tokenised again
    assert float((ref * vecs[picked]).sum(1).min()) >= 0.9999
    again = windowed.Counts()
    windowed.encode(enc, cs, SIZE, OVERLAP, cache, None, again)  # a second pass finds every window in the cache
    assert again.windows == counts.windows and again.encoded == 0

