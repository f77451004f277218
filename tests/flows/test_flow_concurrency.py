"""Two real processes writing one data dir at once: a manual `paperbase ingest` and a scheduled-ingestion flow run
on overlapping folders, while this process keeps reading. No crash, nothing stored twice, readers never fail."""
from __future__ import annotations

import json
import shutil
import subprocess
import sys
import time

import pytest

from tests.flows.flowhelpers import BIN, REPO, SMALL, ledger, paper_ids, pdf_folder, subprocess_env


def test_manual_ingest_and_scheduled_run_at_the_same_time(prefect_api, tmp_path):
    from pipeline.store import Store
    from schemas import database_schema

    root = pdf_folder(tmp_path / "in", SMALL[:2])
    pdf_folder(root / "sub", SMALL[2:4])  # watched by both: the very same paths in the two processes
    other = tmp_path / "other"
    other.mkdir()
    shutil.copy(root / SMALL[0], other / "again.pdf")  # the same paper as in/SMALL[0], under another path
    data = tmp_path / "data"
    env = subprocess_env(prefect_api)
    manual = subprocess.Popen([str(BIN / "paperbase"), "ingest", str(root), "--data-dir", str(data), "--workers", "1", "--json"],
                              cwd=REPO, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    scheduled = subprocess.Popen(
        [sys.executable, "-c", "import json, sys; from flows.ingest import watch_folders; "
                               "out = watch_folders(sys.argv[1:3], data_dir=sys.argv[3], workers=1, stages=[]); "
                               "print(json.dumps(out['files']))", str(root / "sub"), str(other), str(data)],
        cwd=REPO, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    reads = 0
    while manual.poll() is None or scheduled.poll() is None:  # a third process-side reader, retrying on locks
        if (data / "paperbase.duckdb").exists():
            ledger(data)
            reads += 1
        time.sleep(0.2)
    m_out, m_err = manual.communicate()
    s_out, s_err = scheduled.communicate()
    assert manual.returncode == 0, m_err[-3000:]
    assert scheduled.returncode == 0, s_err[-3000:]
    assert reads > 0

    stored_by = {}  # path -> how many processes say they stored it
    for r in [json.loads(line) for line in m_out.splitlines() if line.strip()] + json.loads(s_out.strip().splitlines()[-1]):
        stored_by[r["path"]] = stored_by.get(r["path"], 0) + (r["status"] in ("ok", "partial"))
    assert all(n <= 1 for n in stored_by.values()), stored_by
    rows = ledger(data)
    assert len(rows) == 5  # one ledger row per path
    assert not [p for p, r in rows.items() if r["status"] == "failed"]
    assert sorted([rows[str(root / SMALL[0])]["status"], rows[str(other / "again.pdf")]["status"]]) == ["duplicate", "ok"]
    ids = paper_ids(data)
    assert len(ids) == len(set(ids)) == 4  # every paper stored exactly once
    store = Store(data / "paperbase.duckdb")
    for table in database_schema().table_names:
        key = database_schema().table(table).column_names[0]
        dup = store.query(f'SELECT {key}, count(*) AS n FROM "{table}" GROUP BY {key} HAVING count(*) > 1')
        assert dup == [], f"duplicate rows in {table}"


def test_writer_lock_is_reentrant_and_excludes_other_processes(tmp_path):
    from pipeline.store import StoreBusy
    from pipeline.locks import writer_lock

    with writer_lock(tmp_path, timeout=1):
        with writer_lock(tmp_path, timeout=1):  # nested in one process: no self-deadlock
            pass
        probe = subprocess.run(
            [sys.executable, "-c", "import sys; from pipeline.locks import writer_lock\n"
                                   "try:\n  with writer_lock(sys.argv[1], timeout=0.5): print('got')\n"
                                   "except Exception as e: print(type(e).__name__)", str(tmp_path)],
            capture_output=True, text=True, cwd=REPO, timeout=60)
        assert probe.stdout.strip() == "StoreBusy", probe.stderr
    with writer_lock(tmp_path, timeout=1):  # released: free again
        pass
    with pytest.raises(StoreBusy):
        holder = subprocess.Popen([sys.executable, "-c", "import sys, time; from pipeline.locks import writer_lock\n"
                                   "with writer_lock(sys.argv[1]):\n  print('held', flush=True); time.sleep(30)", str(tmp_path)],
                                  stdout=subprocess.PIPE, text=True, cwd=REPO)
        try:
            assert holder.stdout.readline().strip() == "held"
            with writer_lock(tmp_path, timeout=0.5):
                pass
        finally:
            holder.kill()
            holder.wait()
    with writer_lock(tmp_path, timeout=5):  # the kernel dropped the dead holder's lock
        pass
