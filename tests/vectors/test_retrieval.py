"""Windows (every word reaches a dense vector), one hit per cell, hybrid search, check on windowed collections and
the encode progress callback: real DuckDB, real Milvus Lite and the real Milvus server (tests/vectors/conftest.py
`server_minilm`: a server without sparse vectors holds MiniLM alone), the bundled MiniLM, two short corpus papers."""
from __future__ import annotations

import json
import os
import subprocess

import pytest

from tests.vectors.vechelpers import BM25, MINILM, REPO, Engine, fresh_dir, lite_minilm_copy, make_settings

from pipeline.read import Reader
from pipeline.store import Store
from pipeline.vectors import check, encode_papers, fusion, milvus, search, windows
from pipeline.vectors.search import Hit

HIT_FIELDS = {"score", "pdf_id", "page_number", "table_name", "column_name", "primary_key", "text"}


@pytest.fixture(scope="module", params=["lite", "server"])
def encoded(request, base_db, tmp_path_factory):
    if request.param == "server":  # encoded once per test process, shared with test_index and test_milvus_engine
        settings, report, engine, calls = request.getfixturevalue("server_minilm")
        assert report.status == "ok", report.to_json()
        return settings, calls, engine
    settings, _, calls = lite_minilm_copy(request.getfixturevalue("lite_minilm_built"), tmp_path_factory.mktemp("ret"))
    return settings, calls, Engine("lite")


def _long_chunks(settings, n: int = 5) -> list[dict]:
    from transformers import AutoTokenizer

    from pipeline.models import resolve_model

    tok = AutoTokenizer.from_pretrained(resolve_model("all-MiniLM-L6-v2"))
    rows = Store(settings.duckdb_path).query(
        "SELECT CAST(chunk_id AS VARCHAR) AS pk, CAST(ref_paper_id AS VARCHAR) AS pdf, text_content FROM chunks "
        "ORDER BY chunk_id")
    long = [r for r in rows if len(tok(r["text_content"], add_special_tokens=False, verbose=False)["input_ids"]) > 300]
    assert long, "the test papers have no chunk longer than one MiniLM window"
    return long[:n]


def test_spans_cover_every_token_with_overlap():
    offsets = [(i * 2, i * 2 + 1) for i in range(600)]
    cut = windows.spans(offsets, 254, 32)
    assert cut[0][0] == 0 and cut[-1][1] == offsets[-1][1]
    assert all(b > a for a, b in cut) and len(cut) == 3
    assert cut[1][0] < cut[0][1]  # consecutive windows overlap
    assert windows.spans(offsets[:254], 254, 32) == [(0, -1)]  # a text that fits stays whole


def test_split_keeps_short_texts_whole_and_cuts_long_ones():
    from transformers import AutoTokenizer

    from pipeline.models import resolve_model

    tok = AutoTokenizer.from_pretrained(resolve_model("all-MiniLM-L6-v2"))
    text = " ".join(f"word{i}" for i in range(400))
    short, long = windows.split(tok, ["a short cell", text], 254, 32)
    assert short == ["a short cell"]
    assert len(long) >= 2 and long[0].startswith("word0") and long[-1].endswith("word399")
    assert all(len(tok(w, add_special_tokens=False)["input_ids"]) <= 254 for w in long)


def test_end_of_a_long_chunk_is_as_findable_as_its_start(encoded):
    settings, _, engine = encoded
    found = {"start": 0, "end": 0}
    chunks = _long_chunks(settings)
    for c in chunks:
        words = c["text_content"].split()
        for side, q in (("start", words[:40]), ("end", words[-40:])):
            hits = search(settings, " ".join(q), MINILM, "chunks", "text_content", f"pdf_id == '{c['pdf']}'", 1)
            found[side] += bool(hits) and hits[0].primary_key == c["pk"]
    assert found["end"] >= found["start"] - 1 and found["end"] >= len(chunks) - 1, found


def test_a_cell_with_several_windows_is_listed_once_and_check_counts_cells(encoded):
    settings, _, engine = encoded
    chunk = _long_chunks(settings, 1)[0]
    with milvus.connect(settings) as client:
        milvus.load(client, MINILM)
        ents = milvus.entities(client, MINILM, chunk["pdf"])
    mine = [e for e in ents if e["primary_key"] == chunk["pk"] and e["table_name"] == "chunks"]
    assert len(mine) >= 2 and len({e["id"] for e in mine}) == len(mine)  # one entity per window
    assert mine and min(e["id"] for e in mine) >= 0
    assert milvus.entity_id(MINILM, "chunks", "text_content", chunk["pk"]) in {e["id"] for e in mine}  # window 0
    hits = search(settings, chunk["text_content"][:300], MINILM, limit=20)
    keys = [fusion.cell_key(h) for h in hits]
    assert len(hits) == 20 and len(keys) == len(set(keys))
    assert check(settings) == []


def test_hybrid_search_through_the_reader(encoded):
    settings, _, engine = encoded
    chunk = _long_chunks(settings, 1)[0]
    words = chunk["text_content"].split()
    with Reader(settings) as reader:
        hits = reader.search(" ".join(words[-30:]), None, "chunks", "text_content", f"pdf_id == '{chunk['pdf']}'", 5)
        assert hits[0].primary_key == chunk["pk"] and hits[0].text == chunk["text_content"]
        assert len({fusion.cell_key(h) for h in hits}) == len(hits) == 5
        assert [h.score for h in hits] == sorted((h.score for h in hits), reverse=True)
        one = reader.search(" ".join(words[:30]), engine.text(MINILM), limit=3)  # a named collection stays a single search
        assert len(one) == 3


def test_cli_search_defaults_to_hybrid_with_the_same_json_fields(encoded):
    if encoded[2].server and os.environ.get("PAPERBASE_TEST_SERVER") != "all":
        pytest.skip("server variant left out of the default subset (two CLI processes loading MiniLM; "
                    "test_readers_meet_odd_states covers the CLI on the server); PAPERBASE_TEST_SERVER=all runs it")
    settings, _, engine = encoded
    cmd = [str(REPO / ".venv" / "bin" / "paperbase"), "search", "privacy masking of language models", "--data-dir",
           str(settings.data_dir), "--limit", "4", "--json"]
    env = {**os.environ, "PAPERBASE_VECTORS__BACKEND": "torch", **engine.env()}
    out = subprocess.run(cmd, cwd=REPO, env=env, capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr[-2000:]
    hits = [json.loads(line) for line in out.stdout.splitlines() if line.strip()]
    assert len(hits) == 4 and all(HIT_FIELDS <= set(h) for h in hits)
    # with no --table/--column the search covers the chunks (cells with a page, one granularity)
    assert {(h["table_name"], h["column_name"]) for h in hits} == {("chunks", "text_content")}
    everything = subprocess.run(cmd[:-3] + ["--table", "all", "--limit", "30", "--json"], cwd=REPO, env=env,
                                capture_output=True, text=True, timeout=300)
    assert everything.returncode == 0, everything.stderr[-2000:]
    assert len({json.loads(line)["table_name"] for line in everything.stdout.splitlines() if line.strip()}) > 1


def test_progress_reports_cells_done_up_to_the_total(encoded):
    _, calls, engine = encoded
    for name in (BM25, MINILM) if engine.sparse else (MINILM,):
        mine = [c for c in calls if c[0] == name]
        assert mine and mine[-1][1] == mine[-1][2] > 0
        assert [d for _, d, _ in mine] == sorted(d for _, d, _ in mine)


def _hit(pk: str, score: float) -> Hit:
    return Hit(score, "p", 1, "chunks", "text_content", pk)


def test_fusion_lists_each_cell_once_and_weights_count():
    a = [_hit("1", 9.0), _hit("2", 5.0), _hit("3", 1.0)]
    b = [_hit("3", 0.9), _hit("1", 0.8), _hit("4", 0.1)]
    fused = fusion.fuse({"a": a, "b": b}, {"a": 1.0, "b": 1.0})
    assert [h.primary_key for _, h in fused][:1] == ["1"] and len(fused) == 4
    heavy_b = fusion.fuse({"a": a, "b": b}, {"a": 0.1, "b": 1.0})
    assert heavy_b[0][1].primary_key == "3"
    convex = fusion.fuse({"a": a, "b": b}, {"a": 1.0, "b": 1.0}, method="convex")
    assert {h.primary_key for _, h in convex} == {"1", "2", "3", "4"} and convex[0][1].primary_key == "1"
    assert fusion.distinct([_hit("1", 3), _hit("1", 2), _hit("2", 1)]) == [_hit("1", 3), _hit("2", 1)]


def test_progress_bar_draws_on_a_terminal_and_stays_quiet_otherwise(monkeypatch):
    import io

    monkeypatch.setenv("COLUMNS", "120")  # the row (stage, bar, done/total, rate, ETA, collection) of a usual terminal

    from cli.progress import encode_progress
    from pipeline.vectors.progress import current

    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    screen = Terminal()
    with encode_progress(False, stream=screen):
        cb = current()
        assert cb is not None
        cb(MINILM, 5, 10)
        cb(MINILM, 10, 10)
    assert MINILM in screen.getvalue() and "10/10" in screen.getvalue() and "cells/s" in screen.getvalue()
    with encode_progress(False, stream=io.StringIO()):  # stderr not a terminal
        assert current() is None
    with encode_progress(True, stream=Terminal()):  # --json
        assert current() is None
