"""Search copies are trusted by their content, not their identity (issue 28): a copy whose files changed after they
were written is refused (searches go to Milvus, `check` reports and removes it), a copy that is wrong although its
files are intact is caught by `check` comparing vectors, a copy of the data dir keeps its copies in use, copies written
before digests are upgraded in place, and what a stopped save leaves is cleared."""
from __future__ import annotations

import json
import os
import shutil

import numpy as np
import pytest

from pipeline.vectors import copies, milvus

from tests.vectors.test_copies import PAPERS, _both, _fill, _fresh_shards, _query, _same_hits, store  # noqa: F401
from tests.vectors.vechelpers import BM25, MINILM


def _ids(client, name):
    return {p: {int(e["id"]) for e in milvus.entities(client, name, p)} for p in PAPERS}


def _biggest_shard(path, client, name) -> str:
    return max(milvus.layout(client, name).shards, key=lambda s: len(copies.fresh(path, s)))


def _current(path, shard):
    root = copies.copies_dir(path) / shard
    head = json.loads((root / copies.CURRENT).read_text())
    return root, root / head["version"]


@pytest.mark.parametrize("name,sparse,array", [(MINILM, False, "dense.npy"), (BM25, True, "t_weights.npy")])
def test_a_copy_whose_files_changed_is_refused_and_check_removes_it(store, name, sparse, array):
    """The reported attack: the rows of a copy's arrays shuffled in place, same shape. Searches answer as Milvus does,
    and `check` names the damage and removes the copy."""
    client, path = store
    _fill(client, name, sparse)
    shard = _biggest_shard(path, client, name)
    _root, version = _current(path, shard)
    a = np.load(version / array)
    np.save(version / array, a[::-1].copy())  # same shape, rows reversed
    copies._loaded.clear()  # a new process
    assert copies.fresh(path, shard) is None
    assert _fresh_shards(path, name, client) == 15
    q = _query(name, sparse)
    for expr in ("", f'pdf_id == "{PAPERS[0]}"'):
        got, ref = _both(client, path, name, q, expr)
        assert got and _same_hits(got, ref), expr
    found = milvus.check_copies(client, name, _ids(client, name))
    assert [s for s, _ in found.removed] == [shard] and "digest" in found.removed[0][1]
    assert not (copies.copies_dir(path) / shard).exists()


def test_a_wrong_copy_with_intact_files_is_caught_by_its_vectors(store):
    """A copy saved (digests and all) with its vectors in the wrong rows: the files check out, the ids match, only the
    vectors differ; `check` compares them (every one with sample 0, a random 64 per shard by default) and removes it."""
    client, path = store
    _fill(client, MINILM, False)
    shard = _biggest_shard(path, client, MINILM)
    good = copies.fresh(path, shard)
    wrong = copies.Copy(good.fingerprint, good.metric, good.meta, dense=np.asarray(good.dense)[::-1].copy())
    wrong.save(copies.copies_dir(path) / shard)
    assert copies.fresh(path, shard) is not None  # it claims the shard's state and its files are whole
    found = milvus.check_copies(client, MINILM, _ids(client, MINILM), sample=0)
    assert [s for s, _ in found.removed] == [shard] and "vector" in found.removed[0][1]
    assert found.compared == found.rows and not found.sampled
    assert milvus.sync_copies(client, MINILM) == 1
    again = milvus.check_copies(client, MINILM, _ids(client, MINILM))
    assert again.removed == [] and again.compared == again.rows  # 20 rows per paper: fewer than 64 per shard


def test_copies_stay_in_use_in_a_copy_of_the_data_dir(store, tmp_path):
    """`cp -a` (or a backup restored): new inodes, same contents; every shard's copy is still current there."""
    client, path = store
    _fill(client, MINILM, False)
    client.flush(milvus.layout(client, MINILM).shards[0])
    other = tmp_path / "restored" / "milvus.db"
    other.parent.mkdir()
    shutil.copytree(path, other, ignore=shutil.ignore_patterns("LOCK"))
    shutil.copytree(copies.copies_dir(path), copies.copies_dir(other))
    assert all(copies.fresh(other, s) is not None for s in milvus.layout(client, MINILM).shards)
    # and the first open of the moved files hashed them once, then trusts them by their new identity
    root, version = _current(other, milvus.layout(client, MINILM).shards[0])
    trusted = json.loads((version / copies.TRUSTED).read_text())
    assert trusted["meta.arrow"][1] == os.stat(version / "meta.arrow").st_ino


def test_copies_written_before_digests_are_upgraded_without_reading_them_back(store):
    client, path = store
    _fill(client, BM25, True)
    for shard in milvus.layout(client, BM25).shards:  # as an older paperbase wrote them
        root, version = _current(path, shard)
        head = json.loads((root / copies.CURRENT).read_text())
        head.pop(copies.DIGESTS)
        head["fingerprint"] = copies.legacy_fingerprint(path, shard)
        (root / copies.CURRENT).write_text(json.dumps(head))
        (version / copies.TRUSTED).unlink()
    copies._loaded.clear()
    assert _fresh_shards(path, BM25, client) == 0
    assert milvus.sync_copies(client, BM25) == 0  # upgraded in place: nothing read back from Milvus
    assert _fresh_shards(path, BM25, client) == 16
    got, ref = _both(client, path, BM25, _query(BM25, True), "")
    assert got and _same_hits(got, ref)


def test_what_a_stopped_save_left_is_cleared(store):
    client, path = store
    _fill(client, MINILM, False)
    shard = milvus.layout(client, MINILM).shards[0]
    root, version = _current(path, shard)
    dead = 2 ** 22 + 17  # no such process
    (root / f"v{dead}_1_3_42").mkdir()  # a version a killed writer was filling
    (root / f"v{dead}_1_3_42" / "dense.npy").write_bytes(b"\0" * 100)
    (root / f"{copies.CURRENT}.v{dead}_1_3_42.tmp").write_text("{")
    copies._loaded.clear()
    assert copies.fresh(path, shard) is not None  # the leftovers never mislead a reader
    milvus.sync_copies(client, MINILM)
    assert sorted(p.name for p in root.iterdir()) == sorted([copies.CURRENT, version.name])
