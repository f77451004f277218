"""Reads never fail because a write is running: a search answers while another process holds the Milvus Lite store
(an encode), an encode writes while a long-lived reader holds it, a writer waits for an outside DuckDB reader and
says so, and a read-only data dir serves every read command."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time

import pytest

from tests.state.helpers import REPO, env, run, snapshot

HOLD = """
import pathlib, sys, time
from pipeline.config import load_settings
from pipeline.read import Reader
reader = Reader(load_settings(data_dir=sys.argv[1]))
reader.warm()  # opens (and so holds) the store, as a long-lived reader (MCP) does: a search alone may not (copies)
reader.search("privacy masking", "text_bm25_en", limit=1)
print("holding", flush=True)
end, done = time.monotonic() + float(sys.argv[2]), pathlib.Path(sys.argv[3])
while not done.exists() and time.monotonic() < end:  # held until the test is done with its writers
    time.sleep(0.1)
print(len(reader.search("language models", "text_bm25_en", limit=3)), flush=True)  # still works afterwards
reader.close()
"""


@pytest.fixture(scope="module")
def ingested(small_ingested):
    return small_ingested  # copied by each test (_copy), never written


def _copy(ingested, tmp_path):
    shutil.copytree(ingested / "data", tmp_path / "data")
    shutil.copytree(ingested / "pdfs", tmp_path / "pdfs")
    return tmp_path / "data"


def _holder(data, seconds: float, done) -> subprocess.Popen:
    """A long-lived reader holding the store until the file `done` appears (at most `seconds`)."""
    proc = subprocess.Popen([sys.executable, "-c", HOLD, str(data), str(seconds), str(done)], cwd=REPO, env=env(),
                            stdout=subprocess.PIPE, text=True)
    assert proc.stdout.readline().strip() == "holding"
    return proc


def test_search_and_encode_share_the_store_with_a_long_lived_reader(ingested, tmp_path):
    data = _copy(ingested, tmp_path)
    done = tmp_path / "writers-done"
    holder = _holder(data, 120, done)
    try:
        t0 = time.monotonic()
        hits = run("search", "token masking", "--data-dir", "data", "--json", cwd=tmp_path, timeout=120)
        assert hits.returncode == 0 and hits.stdout.strip(), hits.stderr[-2000:]  # used to wait 60 s, then a traceback
        assert time.monotonic() - t0 < 20
        rebuilt = run("rebuild", "--data-dir", "data", "-c", "text_bm25_en", cwd=tmp_path, timeout=300)
        assert rebuilt.returncode == 0, rebuilt.stderr[-2000:]  # the writer goes through the reader's server
        # the reader keeps its DuckDB connection between queries but lets go as soon as a writer waits: no wait shown
        assert "waiting up to" not in rebuilt.stderr
        (tmp_path / "pdfs" / "copy.pdf").write_bytes((tmp_path / "pdfs" / "neurips2020_rag_excerpt.pdf").read_bytes())
        t0 = time.monotonic()
        stored = run("ingest", "pdfs", "--data-dir", "data", "--stages", "none", cwd=tmp_path, timeout=300)
        assert stored.returncode == 0 and "waiting up to" not in stored.stderr, stored.stderr[-2000:]
        assert time.monotonic() - t0 < 30
    finally:
        done.touch()
        out, _ = holder.communicate(timeout=180)
    assert holder.returncode == 0 and int(out.split()[-1]) == 3
    assert run("check", "--data-dir", "data", cwd=tmp_path).returncode == 0


def test_a_writer_waits_for_an_outside_duckdb_reader_and_says_so(ingested, tmp_path):
    _copy(ingested, tmp_path)
    (tmp_path / "pdfs" / "again.pdf").write_bytes((tmp_path / "pdfs" / "neurips2020_rag_excerpt.pdf").read_bytes())
    # The outside reader (not paperbase's: it never looks at the marker itself) holds the file until the writer has
    # waited long enough to say so, however long the ingest takes to get there on a loaded machine.
    db = tmp_path / "data" / "paperbase.duckdb"
    holder = ("import duckdb, sys, time, pathlib; c = duckdb.connect(sys.argv[1], read_only=True); print('open', flush=True)\n"
              "marker = pathlib.Path(sys.argv[1] + '.writer-waiting'); end = time.monotonic() + 240\n"
              "while not marker.exists() and time.monotonic() < end: time.sleep(0.1)\n"
              "time.sleep(4)")
    reader = subprocess.Popen([sys.executable, "-c", holder, str(db)], cwd=REPO, env=env(), stdout=subprocess.PIPE, text=True)
    assert reader.stdout.readline().strip() == "open"
    done = run("ingest", "pdfs", "--data-dir", "data", "--stages", "none", cwd=tmp_path, timeout=300)
    reader.wait(300)
    assert "waiting up to" in done.stderr and "has it open" in done.stderr  # used to wait silently
    assert done.returncode == 0, done.stderr[-2000:]  # a duplicate is not a failure


def test_a_read_only_data_dir_serves_every_read_command(ingested, tmp_path):
    src = _copy(ingested, tmp_path)
    ro = tmp_path / "ro"
    ro.mkdir()
    mounted = subprocess.run(["mount", "--bind", str(src), str(ro)], capture_output=True)
    if mounted.returncode != 0:
        pytest.skip(f"cannot bind-mount here: {mounted.stderr.decode()[:200]}")
    try:
        if subprocess.run(["mount", "-o", "remount,ro,bind", str(ro)], capture_output=True).returncode != 0:
            pytest.skip("cannot remount read-only here")
        for args in (["status"], ["check"], ["search", "masking"], ["search", "masking", "-c",
                                                                        "text_sentence_transformers_all_minilm_l6_v2"]):
            done = run(*args, "--data-dir", str(ro), cwd=tmp_path, timeout=300)
            assert done.returncode == 0, (args, done.stderr[-2000:])
        from pipeline.config import load_settings
        from pipeline.read import Reader

        with Reader(load_settings(data_dir=ro)) as reader:
            assert reader.sql("SELECT count(*) FROM metadata").rows == [(2,)]
            assert reader.search("masking", "text_bm25_en", limit=2)
    finally:  # this process still maps search copies under `ro` (copies are memory-mapped and cached per process):
        # a plain umount is refused as busy and left the mount behind for pytest's clean-up to trip on; detach lazily
        if subprocess.run(["umount", str(ro)], capture_output=True).returncode != 0:
            subprocess.run(["umount", "-l", str(ro)], capture_output=True)
    assert not os.path.ismount(ro)
    assert snapshot(src)["rows"] == snapshot(ingested / "data")["rows"]
