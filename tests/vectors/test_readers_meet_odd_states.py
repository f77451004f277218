"""Read commands meet an index in odd states and say what they see (issue 28): `search` over collections that exist
but hold nothing said nothing and exited 0; `check` during a `rebuild` failed with `internal error: KeyError`. On Milvus Lite and on the real Milvus server
(`engine`; a server without sparse vectors uses MiniLM or the tiny BGE where BM25 is used here)."""
from __future__ import annotations

import os
import re
import subprocess
import time

import pytest

from pipeline.vectors import encode_papers
from pipeline.vectors.rebuilding import FILENAME

from tests.vectors.vechelpers import BGE, BM25, MINILM, REPO, fresh_dir, make_settings

BIN = str(REPO / ".venv" / "bin" / "paperbase")


def _only(coll: str, models: dict[str, str]) -> dict[str, str]:
    """Environment for a `paperbase` process with `coll` the one text collection (its model from `models`)."""
    env = {f"PAPERBASE_VECTORS__COLLECTIONS__{c}__ENABLED": str(c == coll).lower() for c in (BM25, MINILM, BGE)}
    if coll in models:
        env |= {f"PAPERBASE_VECTORS__COLLECTIONS__{coll}__MODEL": models[coll], "PAPERBASE_VECTORS__BACKEND": "torch"}
    return env


def _run(*args, env=None, **kw):
    done = subprocess.run([BIN, *args], cwd=REPO, capture_output=True, text=True, timeout=300,
                          env={**os.environ, "PAPERBASE_RUNNER": "library", **(env or {})}, **kw)
    assert "Traceback" not in done.stderr and "internal error" not in done.stderr, done.stderr[-3000:]
    return done


@pytest.mark.slow_variant("four CLI processes; the check-during-rebuild test covers the CLI on the server")
def test_search_says_when_the_index_it_searched_is_empty(tmp_path, engine):
    data = tmp_path / "data"
    (tmp_path / "none").mkdir()
    coll = engine.text(MINILM)  # no cells: nothing is encoded, the model is not even loaded
    env = engine.env() | _only(coll, {})
    assert _run("ingest", str(tmp_path / "none"), "--data-dir", str(data), "--stages", "none").returncode == 0
    assert _run("encode", "--data-dir", str(data), "-c", coll, env=env).returncode == 0  # the collection exists, empty
    hybrid = _run("search", "attention heads", "--data-dir", str(data), "--json", env=env)
    assert hybrid.returncode == 1 and hybrid.stdout == ""
    assert "the index searched is empty" in hybrid.stderr and coll in hybrid.stderr
    one = _run("search", "attention heads", "--data-dir", str(data), "-c", coll, env=env)
    # BM25 finds no statistics to weigh the query by; a dense collection is searched and holds nothing
    said = "has no vectors yet" if coll == BM25 else "the index searched is empty"
    assert one.returncode == 1 and said in one.stderr


def test_a_search_that_matches_nothing_says_how_much_it_searched(base_db, tmp_path, engine):
    engine.needs_sparse()  # a dense search always has nearest neighbours: only BM25 can match nothing
    settings = engine.settings(fresh_dir(base_db, tmp_path / "data"), [BM25])
    assert encode_papers(settings).status == "ok"
    done = _run("search", "zzzyqx qqqvvv", "--data-dir", str(settings.data_dir), "-c", BM25, env=engine.env())
    assert done.returncode == 0 and re.search(r"no hits; the index searched holds [1-9][\d,]* vectors", done.stderr)


def test_check_during_a_rebuild_answers(base_db, tmp_path, engine, tiny_models):
    coll = engine.text()
    settings = engine.settings(fresh_dir(base_db, tmp_path / "data"), [coll], tiny_models)
    assert encode_papers(settings).status == "ok"
    data = str(settings.data_dir)
    env = {**os.environ, "PAPERBASE_VECTORS__PAPERS_PER_BATCH": "1", **engine.env(), **_only(coll, tiny_models)}
    rebuild = subprocess.Popen([BIN, "rebuild", "--data-dir", data, "-c", coll], cwd=REPO, text=True,
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
    marker = settings.data_dir / FILENAME
    deadline = time.monotonic() + 120
    while not marker.exists() and rebuild.poll() is None and time.monotonic() < deadline:
        time.sleep(0.02)
    assert marker.exists(), "the rebuild ended before it could be watched"
    from pipeline.vectors import check

    notes: list[str] = []
    found = check(settings, [coll], notes)  # in this process: no start-up delay, it meets the rebuild mid-way
    _, err = rebuild.communicate(timeout=300)
    assert rebuild.returncode == 0, err[-2000:]
    assert any("is being rebuilt by process" in n and "not checked" in n for n in notes), (notes, found)
    assert found == []  # nothing claimed about a collection it did not check
    after = _run("check", "--data-dir", data, "-c", coll, env=engine.env() | _only(coll, tiny_models))
    assert after.returncode == 0 and "0 mismatch(es)" in after.stderr and not marker.exists()


@pytest.mark.lite_only("segment files of the embedded store in the data dir")
def test_a_damaged_segment_is_one_line_and_rebuild_recovers(base_db, tmp_path, engine):
    """A segment file of the embedded store overwritten with garbage: `check` says so in one line (no traceback,
    exit 1) and names the way out; `rebuild` drops the damaged shard (its files, when Milvus Lite cannot open it) and
    re-encodes; `check` is clean again."""
    settings = make_settings(fresh_dir(base_db, tmp_path / "data"), [BM25])
    assert encode_papers(settings).status == "ok"
    segment = next((settings.data_dir / "milvus.db" / "collections").glob(f"{BM25}__s*/partitions/*/data/*.parquet"))
    segment.write_bytes(os.urandom(100))
    data = str(settings.data_dir)
    broken = _run("check", "--data-dir", data, "-c", BM25)
    assert broken.returncode == 1
    errors = [line for line in broken.stderr.splitlines() if line.startswith("error:")]
    assert len(errors) == 1 and "damaged" in errors[0] and "paperbase rebuild" in errors[0], broken.stderr[-2000:]
    rebuilt = _run("rebuild", "--data-dir", data, "-c", BM25)
    assert rebuilt.returncode == 0, rebuilt.stderr[-2000:]
    again = _run("check", "--data-dir", data, "-c", BM25)
    assert again.returncode == 0 and "0 mismatch(es)" in again.stderr
