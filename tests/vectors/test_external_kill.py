"""`paperbase encode` killed from outside (SIGKILL) while it is midway through the papers: a rerun converges to
matching counts with no duplicates. Unlike test_lifecycle's crash hook, nothing inside the process chooses the
moment: the test kills it as soon as the ledger shows the first paper done and the second still in progress. On
Milvus Lite, and on the real Milvus server with PAPERBASE_TEST_SERVER=all (two MiniLM encodes: slow)."""
from __future__ import annotations

import os
import signal
import subprocess
import time

import pytest

from tests.vectors.vechelpers import MINILM, REPO, fresh_dir

from pipeline.vectors import check, milvus
from pipeline.vectors.cells import counts, papers
from pipeline.store import Store


def _papers(settings) -> list[str]:
    with Store(settings.duckdb_path).reading() as con:
        return papers(con)


def _papers_recorded(store: Store) -> int:
    return store.query("SELECT count(*) AS n FROM ledger.vector_papers WHERE collection = ?", [MINILM])[0]["n"]


@pytest.mark.slow_variant("two MiniLM encodes; test_lifecycle's killed encode covers the server path")
def test_encode_killed_from_outside_then_rerun_matches(base_db, tmp_path, engine):
    data = fresh_dir(base_db, tmp_path)
    env = {**os.environ, "PAPERBASE_VECTORS__PAPERS_PER_BATCH": "1", **engine.env()}
    cmd = [str(REPO / ".venv" / "bin" / "paperbase"), "encode", "--data-dir", str(data), "--collection", MINILM, "--json"]
    proc = subprocess.Popen(cmd, cwd=REPO, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    store = Store(data / "paperbase.duckdb", lock_timeout=30)
    deadline = time.monotonic() + 240
    try:
        while time.monotonic() < deadline and proc.poll() is None:
            try:
                if _papers_recorded(store) >= 1:
                    break
            except Exception:  # the ledger table does not exist yet
                pass
            time.sleep(0.05)
        assert proc.poll() is None, "encode finished before it could be killed midway"
        recorded_at_kill = _papers_recorded(store)
        proc.send_signal(signal.SIGKILL)
        proc.wait(30)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == -signal.SIGKILL
    assert recorded_at_kill == 1  # midway: one of the two papers done

    rerun = subprocess.run(cmd, cwd=REPO, env=env, capture_output=True, text=True, timeout=300)
    assert rerun.returncode == 0, rerun.stderr[-2000:]
    settings = engine.settings(data, [MINILM])
    assert check(settings) == []
    with Store(settings.duckdb_path).reading() as con:
        cells = sum(counts(con, "text").values())
    with milvus.connect(settings) as client:
        milvus.load(client, MINILM)
        ents = [e for p in _papers(settings) for e in milvus.entities(client, MINILM, p, ["table_name", "column_name", "primary_key"])]
    ids = [e["id"] for e in ents]
    assert len(ids) == len(set(ids))  # no entity twice (every window once)
    assert len({(e["table_name"], e["column_name"], e["primary_key"]) for e in ents}) == cells  # every cell, none missing
