"""A full disk (a real tmpfs filled to the byte under the Milvus Lite store) while collections are created and
written: the command fails in one line with exit 1, and once space is back the next `encode` / `rebuild` completes
what was left, with `check` clean, and nobody deletes anything by hand (issue 28: a 0-byte `schema.json.tmp` used
to wedge the collection for good, `[Errno 17] File exists`, exit 0)."""
from __future__ import annotations

import os
import shutil
import subprocess

import pytest

from tests.smallfs import fill, small_fs
from tests.vectors.vechelpers import BGE, BM25, REPO, fresh_dir

BIN = str(REPO / ".venv" / "bin" / "paperbase")


def _run(*args: str, env: dict | None = None) -> subprocess.CompletedProcess:
    done = subprocess.run([BIN, *args], cwd=REPO, capture_output=True, text=True, timeout=600,
                          env={**os.environ, "PAPERBASE_RUNNER": "library", **(env or {})})
    assert "Traceback" not in done.stderr, done.stderr[-3000:]
    return done


def _shard_dirs(data, name):
    return sorted((data / "milvus.db" / "collections").glob(f"{name}__s*"))


@pytest.mark.parametrize("leave_kb", [0, 200])
def test_a_create_stopped_by_a_full_disk_is_completed_by_the_next_encode(base_db, tmp_path, leave_kb):
    """0 KB: the first shard's schema file is left empty (the reported wedge);
    200 KB: the collection exists, the first insert fails."""
    data = fresh_dir(base_db, tmp_path / "data")
    with small_fs(data / "milvus.db", 8):
        filler = fill(data / "milvus.db", leave_kb)
        first = _run("encode", "--data-dir", str(data), "-c", BM25)
        assert first.returncode == 1, first.stderr[-2000:]
        assert "no space left on device" in first.stderr.lower(), first.stderr[-2000:]
        if leave_kb == 0:  # reproduced: a shard directory that is no collection
            assert any(not (d / "schema.json").exists() for d in _shard_dirs(data, BM25))
        filler.unlink()
        second = _run("encode", "--data-dir", str(data), "-c", BM25)
        assert second.returncode == 0, second.stderr[-2000:]
        assert all((d / "schema.json").exists() for d in _shard_dirs(data, BM25))
        checked = _run("check", "--data-dir", str(data), "-c", BM25)
        assert checked.returncode == 0, checked.stderr[-2000:]
        assert "0 mismatch(es)" in checked.stderr


def test_rebuild_after_a_failed_create_completes_it(base_db, tmp_path):
    data = fresh_dir(base_db, tmp_path / "data")
    with small_fs(data / "milvus.db", 8):
        assert _run("encode", "--data-dir", str(data), "-c", BM25).returncode == 0
        filler = fill(data / "milvus.db")
        failed = _run("rebuild", "--data-dir", str(data), "-c", BM25)
        assert failed.returncode == 1 and "no space left" in failed.stderr.lower(), failed.stderr[-2000:]
        filler.unlink()
        again = _run("rebuild", "--data-dir", str(data), "-c", BM25)
        assert again.returncode == 0, again.stderr[-2000:]
        assert _run("check", "--data-dir", str(data), "-c", BM25).returncode == 0


def test_any_failed_collection_makes_encode_exit_1(base_db, tmp_path, tiny_models):
    """BM25 fine, the tiny BGE collection refused (built with another model): the run is partial, the exit 1."""
    data = fresh_dir(base_db, tmp_path / "data")
    other = tmp_path / "other-bge"
    shutil.copytree(tiny_models[BGE], other)
    model = {f"PAPERBASE_VECTORS__COLLECTIONS__{BGE}__MODEL": tiny_models[BGE],
             f"PAPERBASE_VECTORS__COLLECTIONS__{BGE}__ENABLED": "true", "PAPERBASE_VECTORS__BACKEND": "torch"}
    built = _run("encode", "--data-dir", str(data), "-c", BM25, "-c", BGE, env=model)
    assert built.returncode == 0, built.stderr[-2000:]
    changed = {**model, f"PAPERBASE_VECTORS__COLLECTIONS__{BGE}__MODEL": str(other)}
    done = _run("encode", "--data-dir", str(data), "-c", BM25, "-c", BGE, "--json", env=changed)
    assert '"status": "partial"' in done.stdout and "rebuild" in done.stdout
    assert done.returncode == 1
