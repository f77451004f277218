"""Search copies: each shard of an embedded (Milvus Lite) collection mirrored as numpy arrays, searched without Milvus.

Why: Milvus Lite is pure Python. Every search walks every row of the shards it covers in a Python loop (version
dedup, tombstones, filter mask) before any index is consulted, its sparse postings are rebuilt per segment in every
new process, and a shard is read whole into memory the first time a process touches it (docs/scale.md: 1 s for a
library-wide hybrid search at 300k vectors in a warm process, minutes from a cold one). The same arrays scored by
numpy take milliseconds and open by memory-mapping. No library offers "Milvus Lite's rows as arrays, kept in step with
it"; faiss (installed with Milvus Lite) would add nothing over one numpy product at these sizes and exact scores.

Rules:
- Milvus stays the store of record. A copy belongs to one shard and records that shard's *fingerprint*: the identity
  of its schema file and the manifest's write sequence number (every insert and delete takes one; background
  compaction takes none), taken only while the shard has no unflushed writes (no write-ahead log file). A search uses
  a shard's copy only while the shard is flushed and its fingerprint is the one the copy recorded (three `stat`s per
  shard); any other state, whoever caused it, sends that shard's search to Milvus as before. So a copy is either
  exactly the shard or unused: never a wrong answer.
- Copies follow writes: `milvus.insert` / `delete_papers` note what they did per shard, in order (with the shard's
  fingerprint before the first of them), and `milvus.sync_copies`, run by the encode stage and prune once per collection
  at the end of their run, applies it to a copy that was the shard before those writes and records the shard's new
  fingerprint. The same view (copy plus noted writes) names the ids `delete_papers` deletes, so a delete needs neither a
  query nor a loaded shard. A shard created by paperbase starts with an empty copy. A store from before copies, or a
  shard whose copy fell behind (a run killed before its sync, a write from elsewhere), has its copy read back from
  Milvus by the next sync: about 0.2 s (BM25) to 0.4 s (384-d) per 1,000 vectors, once. Until then that shard is
  searched in Milvus.
- Scores are Milvus's: COSINE on vectors normalised when copied (the dot product), IP on float32 sparse weights; exact
  search (an HNSW collection's approximate hits become exact ones). Filters are compiled and evaluated by Milvus
  Lite's own filter engine over the copy's scalar columns, so they mean what they mean to Milvus; a filter it cannot
  compile there goes to Milvus, which reports the error. One kind is evaluated here instead: `field == "text"` terms
  joined by `and` over the VARCHAR fields (every search's own scope filter), whose meaning is plain equality, because
  importing that engine costs a cold search more than the search (see _equalities_mask).
- Files: `<store>-copies/<shard>/CURRENT` names the version directory and its fingerprint; a writer fills a new
  version directory and replaces CURRENT atomically, so readers (which memory-map) never see a half-written copy.
"""
from __future__ import annotations

import json
import logging
import os
import re
import shutil
import threading
from dataclasses import dataclass
from pathlib import Path

import numpy as np

log = logging.getLogger(__name__)

SUFFIX = "-copies"
CURRENT = "CURRENT"
_META = "meta.arrow"
_VECTOR = "vector"
_SKIP = {"vector"}  # stored as arrays, not in the scalar table


def copies_dir(store: Path) -> Path:
    return Path(f"{store}{SUFFIX}")


# --------------------------------------------------------------------------- fingerprints

_seen: dict[str, tuple[tuple, tuple[str, str]]] = {}  # shard dir -> (the stats it was read at, its fingerprints)


def fingerprint(store: Path, shard: str) -> str | None:
    """The shard's state as far as its rows go (see module rules), or None when it has none that a copy may stand
    for: no files (not Milvus Lite, not created yet), or unflushed writes (write-ahead log files present: a copy is
    only ever recorded for, and used on, a flushed shard, so appends to a log need not be watched).

    Content, not identity: a digest of the shard's `schema.json` (which carries the nonce `create_collection` gives
    each shard, so a shard dropped and made again never matches a copy of the old one) and the manifest's write
    sequence number. A copy of the data dir (`cp -a`, a backup restored) keeps both, so its search copies stay in
    use. Three `stat`s per call; the two files are read again only when their stats change."""
    state = _state(store, shard)
    return state[0] if state else None


def legacy_fingerprint(store: Path, shard: str) -> str | None:
    """The fingerprint copies recorded before it was content-based (the schema file's inode and mtime): a copy that
    records it for the shard as it is now is the shard (upgrade())."""
    state = _state(store, shard)
    return state[1] if state else None


def _state(store: Path, shard: str) -> tuple[str, str] | None:
    d = os.path.join(store, "collections", shard)
    try:
        schema = os.stat(os.path.join(d, "schema.json"))
        man = os.stat(os.path.join(d, "manifest.json"))
        try:
            wal = os.stat(os.path.join(d, "wal"))
            wal_key = (wal.st_ino, wal.st_mtime_ns)
        except FileNotFoundError:
            wal_key = None
        key = (schema.st_ino, schema.st_mtime_ns, schema.st_size, man.st_ino, man.st_mtime_ns, man.st_size, wal_key)
        seen = _seen.get(d)
        if seen and seen[0] == key:
            return seen[1] if seen[1][0] else None
        if wal_key and any(os.scandir(os.path.join(d, "wal"))):
            fps = ("", "")
        else:
            from hashlib import blake2b

            seq = int(json.loads(Path(d, "manifest.json").read_text())["current_seq"])
            digest = blake2b(Path(d, "schema.json").read_bytes(), digest_size=8).hexdigest()
            fps = (f"{digest}:{seq}", f"{schema.st_ino}.{schema.st_mtime_ns}:{seq}")
    except (FileNotFoundError, KeyError, ValueError):
        return None
    _seen[d] = (key, fps)
    return fps if fps[0] else None


# --------------------------------------------------------------------------- content digests

# Every file of a copy version has its CRC-32 recorded in CURRENT when it is written, and a copy is used only while
# its files still have those digests. Hashing the files costs more than the search (0.6 s per 460 MB here), so it is
# done when a file's identity says it may have changed: the version keeps, in TRUSTED, each file's (size, inode,
# mtime, ctime) as they were when its digest was last confirmed. The kernel sets ctime on every change of a file's
# content or metadata and no call can set it back, so a file whose four values are unchanged holds the bytes that were
# hashed; any write to it (a shuffle in place, a bit flipped with dd, a truncation), a copy of the data dir or a
# restore changes them and the next process to open it hashes it again (and records the result when it may write).
# `check` hashes every file whatever TRUSTED says. A cold search thus pays a few `stat`s per shard.
DIGESTS = "files"
TRUSTED = "TRUSTED"
_CHUNK = 16 << 20


def file_digest(path: Path) -> str:
    """CRC-32 of a file's bytes (zlib: about 1 GB/s here, no extra dependency; it guards against damage, not an
    adversary who can also rewrite CURRENT)."""
    import zlib

    crc = 0
    with open(path, "rb") as fh:
        while block := fh.read(_CHUNK):
            crc = zlib.crc32(block, crc)
    return f"{crc:08x}"


def _identity(path: Path) -> list[int]:
    st = os.stat(path)
    return [st.st_size, st.st_ino, st.st_mtime_ns, st.st_ctime_ns]


def _write_trusted(folder: Path, identities: dict[str, list[int]]) -> None:
    tmp = folder / f"{TRUSTED}.{os.getpid()}_{threading.get_ident()}.tmp"
    try:
        tmp.write_text(json.dumps(identities))
        os.replace(tmp, folder / TRUSTED)
    except OSError:  # a read-only data dir, a full disk: the next process hashes again
        try:
            tmp.unlink(missing_ok=True)
        except OSError:
            pass


def verify(root: Path, head: dict | None = None, *, full: bool = False) -> str | None:
    """Why the copy's current version does not hold the bytes it was written with, or None when it does. `full`
    hashes every file (check); otherwise only files whose identity changed since they were last confirmed."""
    try:
        head = head or json.loads((root / CURRENT).read_text())
        folder = root / head["version"]
        digests: dict[str, str] = head.get(DIGESTS) or {}
        if not digests:
            return "it records no digests (written before copies were verified)"
        try:
            trusted = json.loads((folder / TRUSTED).read_text())
        except (OSError, ValueError):
            trusted = {}
        now = {name: _identity(folder / name) for name in digests}
        stale = [name for name in digests if full or trusted.get(name) != now[name]]
        for name in stale:
            if file_digest(folder / name) != digests[name]:
                return f"{name} does not match its digest (the file changed after it was written)"
        if stale and any(trusted.get(name) != now[name] for name in stale):
            _write_trusted(folder, {**trusted, **now})
    except FileNotFoundError as exc:
        return f"{Path(exc.filename or '?').name} is missing"
    except (OSError, KeyError, ValueError) as exc:
        return f"unreadable: {exc}"
    return None


# --------------------------------------------------------------------------- the arrays of one shard


@dataclass
class Copy:
    """One shard's rows: scalar columns (`meta`, a pyarrow table with `id`), and either dense rows (`dense`, n x dim,
    normalised when the metric is COSINE) or sparse ones, row-major (`indptr`, `terms`, `weights`) for updates and
    term-major (`t_terms`, `t_starts`, `t_rows`, `t_weights`) for search."""

    fingerprint: str
    metric: str
    meta: object
    dense: np.ndarray | None = None
    indptr: np.ndarray | None = None
    terms: np.ndarray | None = None
    weights: np.ndarray | None = None
    t_terms: np.ndarray | None = None
    t_starts: np.ndarray | None = None
    t_rows: np.ndarray | None = None
    t_weights: np.ndarray | None = None

    @property
    def sparse(self) -> bool:
        return self.dense is None

    def __len__(self) -> int:
        return self.meta.num_rows

    def touch(self) -> None:
        """Read every page of the memory-mapped arrays (a long-lived reader warms up)."""
        for arr in (self.dense, self.t_rows, self.t_weights, self.t_terms, self.t_starts):
            if arr is not None and len(arr):
                np.asarray(arr).sum()

    # ---- search

    def top(self, vector, limit: int, mask: np.ndarray | None) -> tuple[np.ndarray, np.ndarray]:
        """(rows, scores) of the best `limit` rows the mask admits, best first (Milvus's order: larger is better
        for COSINE and IP)."""
        n = len(self)
        none = np.zeros(0, dtype=np.int64), np.zeros(0)
        if not n or limit <= 0:
            return none
        if self.sparse:
            scores, candidates = self._sparse_scores(vector, n)
        else:
            q = np.asarray(vector, dtype=np.float32)
            if self.metric == "COSINE":
                norm = float(np.linalg.norm(q))
                q = q / norm if norm else q
            scores = np.asarray(self.dense) @ q
            candidates = None
        if mask is not None:
            candidates = mask if candidates is None else candidates & mask
        idx = np.flatnonzero(candidates) if candidates is not None else None
        sub = scores[idx] if idx is not None else scores
        if not len(sub):
            return none
        k = min(limit, len(sub))
        top = np.argpartition(-sub, k - 1)[:k] if k < len(sub) else np.arange(len(sub))
        top = top[np.argsort(-sub[top], kind="stable")]
        return (idx[top] if idx is not None else top), sub[top]

    def hits(self, rows: np.ndarray, scores: np.ndarray, fields: list[str]) -> list[dict]:
        """Milvus hit dicts ({"id", "distance", "entity"}) of these rows."""
        # row by row, not `take`: pyarrow's take imports pandas (0.9 s of a cold search) for a few dozen rows
        picked = [self.meta.slice(int(r), 1).to_pylist()[0] for r in rows]
        return [{"id": int(ent["id"]), "distance": float(sc), "entity": {f: ent[f] for f in fields if f in ent}}
                for sc, ent in zip(scores, picked)]

    def _sparse_scores(self, vector: dict, n: int) -> tuple[np.ndarray, np.ndarray]:
        terms = np.fromiter(vector.keys(), dtype=np.int64, count=len(vector))
        qw = np.fromiter(vector.values(), dtype=np.float32, count=len(vector)).astype(np.float64)
        at = np.searchsorted(self.t_terms, terms)
        found = at < len(self.t_terms)
        found[found] = self.t_terms[at[found]] == terms[found]
        if not found.any():
            return np.zeros(n), np.zeros(n, dtype=bool)
        starts, ends = self.t_starts[at[found]], self.t_starts[at[found] + 1]
        rows = np.concatenate([self.t_rows[a:b] for a, b in zip(starts, ends)])
        weights = np.concatenate([self.t_weights[a:b].astype(np.float64) * w for a, b, w in zip(starts, ends, qw[found])])
        return np.bincount(rows, weights, minlength=n), np.bincount(rows, minlength=n) > 0

    # ---- build

    @classmethod
    def _dense(cls, fingerprint: str, metric: str, meta, dense: np.ndarray) -> "Copy":
        if metric == "COSINE" and len(dense):
            norms = np.linalg.norm(dense, axis=1, keepdims=True)
            dense = dense / np.where(norms == 0, 1, norms)
        return cls(fingerprint, metric, meta, dense=np.ascontiguousarray(dense, dtype=np.float32))

    @classmethod
    def _sparse(cls, fingerprint: str, metric: str, meta, indptr, terms, weights) -> "Copy":
        keep = weights != 0  # Milvus drops zero weights
        if not keep.all():
            row_of = np.repeat(np.arange(len(indptr) - 1), np.diff(indptr))[keep]
            terms, weights = terms[keep], weights[keep]
            indptr = np.concatenate([[0], np.cumsum(np.bincount(row_of, minlength=len(indptr) - 1))]).astype(np.int64)
        row_of = np.repeat(np.arange(len(indptr) - 1, dtype=np.int32), np.diff(indptr))
        order = np.argsort(terms)  # order within a term's postings does not matter: scores are sums
        return cls._with_postings(fingerprint, metric, meta, indptr, terms, weights, terms[order], row_of[order],
                                  weights[order])

    @classmethod
    def _with_postings(cls, fingerprint: str, metric: str, meta, indptr, terms, weights, t_sorted, t_rows,
                       t_weights) -> "Copy":
        """From row-major arrays and the postings sorted by term (`t_sorted`: each posting's term)."""
        first = np.flatnonzero(np.concatenate([[True], t_sorted[1:] != t_sorted[:-1]])) if len(t_sorted) \
            else np.zeros(0, dtype=np.int64)
        t_starts = np.concatenate([first, [len(t_sorted)]]).astype(np.int64)
        return cls(fingerprint, metric, meta, indptr=indptr, terms=terms, weights=weights, t_terms=t_sorted[first],
                   t_starts=t_starts, t_rows=t_rows, t_weights=t_weights)

    def ids_of(self, papers: set[str], deleted_papers: set[str] = frozenset()) -> list:
        """The ids of these papers' rows, leaving out papers in `deleted_papers` (deleted since the copy was made)."""
        import pyarrow as pa
        import pyarrow.compute as pc

        wanted = sorted(set(papers) - set(deleted_papers))
        if not wanted or not len(self) or "pdf_id" not in self.meta.column_names:
            return []
        hit = pc.is_in(self.meta["pdf_id"], pa.array(wanted, pa.string()))
        return self.meta["id"].filter(hit).to_pylist()

    def updated(self, fingerprint: str, deleted_papers: set[str], batch: "Batch") -> "Copy":
        """This copy after deleting these papers' rows and inserting the batch (an id inserted again replaces its
        row)."""
        import pyarrow as pa
        import pyarrow.compute as pc

        added = batch.copy(fingerprint, self.metric)
        drop = np.zeros(len(self), dtype=bool)
        if deleted_papers and "pdf_id" in self.meta.column_names:
            drop |= pc.is_in(self.meta["pdf_id"], pa.array(sorted(deleted_papers), pa.string())).to_numpy(zero_copy_only=False)
        if len(added):
            drop |= pc.is_in(self.meta["id"], added.meta["id"]).to_numpy(zero_copy_only=False)
        keep = np.flatnonzero(~drop)
        old_meta = self.meta.take(keep)
        if not len(added):
            meta = old_meta
        elif not len(old_meta):
            meta = added.meta
        else:
            meta = pa.concat_tables([old_meta, added.meta.select(old_meta.column_names).cast(old_meta.schema)])
        if not self.sparse:
            dense = np.concatenate([self.dense[keep], added.dense]) if len(added) else self.dense[keep]
            return Copy(fingerprint, self.metric, meta, dense=np.ascontiguousarray(dense))
        lengths = np.diff(self.indptr)[keep]
        sel = np.flatnonzero(np.repeat(~drop, np.diff(self.indptr)))
        indptr = np.concatenate([[0], np.cumsum(np.concatenate([lengths, np.diff(added.indptr)]))]).astype(np.int64)
        # term-major: the kept postings stay in term order (rows renumbered), the batch's are merged in by term, so a
        # shard's postings are not sorted again (0.35-0.7 s per 19k-row shard here, against tens of ms)
        row_kept = ~drop[self.t_rows] if drop.any() else slice(None)
        renumber = (np.cumsum(~drop) - 1).astype(np.int32)
        old_terms = np.repeat(self.t_terms, np.diff(self.t_starts))[row_kept]
        old_rows = renumber[self.t_rows[row_kept]]
        add_terms = np.repeat(added.t_terms, np.diff(added.t_starts))
        at = np.searchsorted(old_terms, add_terms, side="right")
        t_sorted = np.insert(old_terms, at, add_terms)
        return Copy._with_postings(
            fingerprint, self.metric, meta, indptr, np.concatenate([self.terms[sel], added.terms]),
            np.concatenate([self.weights[sel], added.weights]), t_sorted,
            np.insert(old_rows, at, (added.t_rows + len(keep)).astype(np.int32)),
            np.insert(np.asarray(self.t_weights)[row_kept], at, added.t_weights))

    # ---- files

    def save(self, root: Path) -> None:
        """Write as a new version directory under `root` and switch CURRENT to it; older versions are removed."""
        import pyarrow as pa

        root.mkdir(parents=True, exist_ok=True)
        version = f"v{os.getpid()}_{threading.get_ident()}_{len(list(root.iterdir()))}_{np.random.randint(1 << 30)}"
        target = root / version
        tmp = root / f"{CURRENT}.{version}.tmp"
        try:
            target.mkdir()
            with pa.OSFile(str(target / _META), "wb") as sink, pa.ipc.new_file(sink, self.meta.schema) as writer:
                writer.write_table(self.meta)
            arrays = {"dense": self.dense} if not self.sparse else {
                k: getattr(self, k) for k in ("indptr", "terms", "weights", "t_terms", "t_starts", "t_rows", "t_weights")}
            for k, arr in arrays.items():
                np.save(target / f"{k}.npy", arr)
            names = [_META, *(f"{k}.npy" for k in arrays)]
            digests = {name: file_digest(target / name) for name in names}
            _write_trusted(target, {name: _identity(target / name) for name in names})
            tmp.write_text(json.dumps({"version": version, "fingerprint": self.fingerprint, "metric": self.metric,
                                       DIGESTS: digests}))
            os.replace(tmp, root / CURRENT)
        except BaseException:  # a full disk, a kill: CURRENT still names the last whole version
            shutil.rmtree(target, ignore_errors=True)
            tmp.unlink(missing_ok=True)
            raise
        for old in root.iterdir():
            if old.name != version and old.name != CURRENT:
                _remove(old)
        _loaded.pop(str(root), None)

    @classmethod
    def load(cls, root: Path) -> "Copy | None":
        import pyarrow as pa

        try:
            head = json.loads((root / CURRENT).read_text())
            d = root / head["version"]
            names = sorted(head.get(DIGESTS) or {})
            seen = (head["version"], [_identity(d / n) for n in names])
            if _refused.get(str(root)) == seen:  # refused before, and not touched since: not hashed again
                return None
            problem = verify(root, head)
            if problem is not None:
                if recorded_version(root) != head["version"]:
                    return None  # a writer replaced this version meanwhile (and removed its files): not damage
                _refused[str(root)] = seen
                _report_damage(root, problem)
                return None
            meta = pa.ipc.open_file(pa.memory_map(str(d / _META))).read_all()
            if (d / "dense.npy").exists():
                return cls(head["fingerprint"], head["metric"], meta, dense=np.load(d / "dense.npy", mmap_mode="r"))
            arrays = {k: np.load(d / f"{k}.npy", mmap_mode="r")
                      for k in ("indptr", "terms", "weights", "t_terms", "t_starts", "t_rows", "t_weights")}
            return cls(head["fingerprint"], head["metric"], meta, **arrays)
        except (FileNotFoundError, KeyError, ValueError, OSError) as exc:
            if (root / CURRENT).exists():
                log.warning("search copy %s unreadable (%s); its shard is searched in Milvus", root, exc)
            return None


class Batch:
    """Rows written to a shard, held compactly until they are applied to its copy: scalar fields as dicts, vectors as
    numpy arrays (a run that encodes a whole library holds them all)."""

    def __init__(self, sparse: bool, dim: int | None = None):
        self.sparse, self.dim = sparse, dim
        self.meta: list[dict] = []
        self.blocks: list = []

    def __len__(self) -> int:
        return len(self.meta)

    def add(self, rows: list[dict]) -> None:
        if not rows:
            return
        self.meta += [{k: v for k, v in r.items() if k not in _SKIP} for r in rows]
        if self.sparse:
            lengths = np.fromiter((len(r[_VECTOR]) for r in rows), dtype=np.int64, count=len(rows))
            total = int(lengths.sum())
            terms = np.fromiter((t for r in rows for t in r[_VECTOR]), dtype=np.uint32, count=total)
            weights = np.fromiter((w for r in rows for w in r[_VECTOR].values()), dtype=np.float32, count=total)
            self.blocks.append((lengths, terms, weights))
        else:
            block = np.asarray([r[_VECTOR] for r in rows], dtype=np.float32)
            self.dim = block.shape[1]
            self.blocks.append(block)

    def ids_of(self, papers: set[str]) -> list:
        """The ids of these papers' rows held here."""
        return [m["id"] for m in self.meta if m.get("pdf_id") in papers]

    def forget(self, papers: set[str]) -> None:
        """Drop the rows of these papers (deleted after they were written: deletes and inserts apply in order)."""
        keep = np.fromiter((m.get("pdf_id") not in papers for m in self.meta), dtype=bool, count=len(self.meta))
        if keep.all():
            return
        self.meta = [m for m, k in zip(self.meta, keep) if k]
        if self.sparse:
            lengths = np.concatenate([b[0] for b in self.blocks])
            entries = np.repeat(keep, lengths)
            self.blocks = [(lengths[keep], np.concatenate([b[1] for b in self.blocks])[entries],
                            np.concatenate([b[2] for b in self.blocks])[entries])]
        else:
            self.blocks = [np.concatenate(self.blocks)[keep]]

    def copy(self, fingerprint: str, metric: str) -> "Copy":
        import pyarrow as pa

        meta = pa.Table.from_pylist(self.meta) if self.meta else pa.table({"id": pa.array([], pa.int64())})
        if self.sparse:
            lengths = np.concatenate([b[0] for b in self.blocks]) if self.blocks else np.zeros(0, np.int64)
            terms = np.concatenate([b[1] for b in self.blocks]) if self.blocks else np.zeros(0, np.uint32)
            weights = np.concatenate([b[2] for b in self.blocks]) if self.blocks else np.zeros(0, np.float32)
            indptr = np.concatenate([[0], np.cumsum(lengths)]).astype(np.int64)
            return Copy._sparse(fingerprint, metric, meta, indptr, terms, weights)
        dense = np.concatenate(self.blocks) if self.blocks else np.zeros((0, self.dim or 0), dtype=np.float32)
        return Copy._dense(fingerprint, metric, meta, dense)


# --------------------------------------------------------------------------- per-process access

_damaged: dict[str, str] = {}  # copy dir -> why its current version was refused (said once per process)
_refused: dict[str, tuple] = {}  # copy dir -> (version, file identities) it was refused at


def _report_damage(root: Path, problem: str) -> None:
    if _damaged.get(str(root)) != problem:
        log.warning("search copy %s refused: %s; its shard is searched in Milvus (`paperbase check` removes the copy, "
                    "the next `paperbase encode` reads it back)", root, problem)
    _damaged[str(root)] = problem


_loaded: dict[str, Copy] = {}  # copy dir -> the copy as last loaded (memory-mapped), reloaded when CURRENT changes
_lock = threading.Lock()


def recorded(root: Path) -> str | None:
    """The fingerprint a copy on disk records (None: no copy)."""
    try:
        return json.loads((root / CURRENT).read_text())["fingerprint"]
    except (FileNotFoundError, KeyError, ValueError):
        return None


def fresh(store: Path, shard: str) -> Copy | None:
    """The shard's copy if it holds exactly what the shard holds now, else None (see module rules)."""
    now = fingerprint(store, shard)
    return None if now is None else fresh_as(store, shard, now)


def fresh_as(store: Path, shard: str, state: str) -> Copy | None:
    """The shard's copy if it records the shard state `state`, else None."""
    root = copies_dir(store) / shard
    with _lock:
        copy = _loaded.get(str(root))
        if copy is None or copy.fingerprint != state:
            if recorded(root) != state:
                return None
            copy = Copy.load(root)
            if copy is None or copy.fingerprint != state:
                return None
            _loaded[str(root)] = copy
    return copy


def _remove(path: Path) -> None:
    if path.is_dir():
        shutil.rmtree(path, ignore_errors=True)
    else:
        path.unlink(missing_ok=True)


def _writer_alive(name: str) -> bool:
    """Whether the process named in a version directory or temporary file (`v<pid>_...`) still runs."""
    try:
        pid = int(name.removeprefix(f"{CURRENT}.").split("_", 1)[0].removeprefix("v"))
        os.kill(pid, 0)
    except (ValueError, ProcessLookupError):
        return False
    except PermissionError:  # someone else's live process
        return True
    return pid != os.getpid()


def tidy(store: Path, shard: str) -> int:
    """Remove what a save stopped by a kill or a full disk left beside a shard's copy: version directories CURRENT
    does not name and temporary CURRENT files, of writers that no longer run. Returns how many were removed."""
    root = copies_dir(store) / shard
    try:
        entries = list(root.iterdir())
    except OSError:
        return 0
    head = recorded_version(root)
    gone = [p for p in entries if p.name not in (CURRENT, head) and not _writer_alive(p.name)]
    for path in gone:
        _remove(path)
    return len(gone)


def recorded_version(root: Path) -> str | None:
    try:
        return json.loads((root / CURRENT).read_text())["version"]
    except (OSError, KeyError, ValueError):
        return None


def upgrade(store: Path, shard: str) -> bool:
    """Bring a copy written before fingerprints were content-based and copies carried digests up to date, without
    reading it back from Milvus: when it records the shard's state by the old formula (or by the new one, lacking
    only digests), its files are hashed once and CURRENT is rewritten with the new fingerprint and the digests."""
    root = copies_dir(store) / shard
    try:
        head = json.loads((root / CURRENT).read_text())
    except (OSError, ValueError):
        return False
    now, legacy = fingerprint(store, shard), legacy_fingerprint(store, shard)
    if now is None or head.get(DIGESTS) or head.get("fingerprint") not in (now, legacy):
        return False
    folder = root / head["version"]
    try:
        names = sorted(p.name for p in folder.iterdir() if p.name == _META or p.suffix == ".npy")
        digests = {name: file_digest(folder / name) for name in names}
        _write_trusted(folder, {name: _identity(folder / name) for name in names})
        tmp = root / f"{CURRENT}.{head['version']}.tmp"
        tmp.write_text(json.dumps({**head, "fingerprint": now, DIGESTS: digests}))
        os.replace(tmp, root / CURRENT)
    except OSError as exc:
        log.warning("search copy %s not upgraded: %s", root, exc)
        return False
    _loaded.pop(str(root), None)
    return True


def forget(store: Path, shards: list[str]) -> None:
    """Remove these shards' copies (the collection is dropped)."""
    for shard in shards:
        root = copies_dir(store) / shard
        _loaded.pop(str(root), None)
        shutil.rmtree(root, ignore_errors=True)


_compiled: dict[tuple[str, str], object] = {}
_engine: tuple | None = None
_engine_lock = threading.Lock()


def _filter_engine() -> tuple:
    """Milvus Lite's (load_schema, compile_filter, evaluate_mask), imported by one thread at a time. Why: a hybrid
    search's legs reach this at once; two threads importing the engine's package (whose modules import each other)
    can each be handed the other's half-initialised module, and a failed import here sends the search to Milvus."""
    global _engine
    with _engine_lock:
        if _engine is None:
            from milvus_lite.schema.persistence import load_schema
            from milvus_lite.search.filter import compile_filter, evaluate_mask

            _engine = (load_schema, compile_filter, evaluate_mask)
    return _engine


def mask(store: Path, shard: str, copy: Copy, expr: str | None) -> np.ndarray | None:
    """Rows of the copy the filter admits (None: no filter), by Milvus Lite's filter engine over the copy's columns;
    raises what that engine raises for a filter it cannot compile."""
    if not expr:
        return None
    simple = _equalities_mask(store, shard, copy, expr)
    if simple is not None:
        return simple
    key = (str(Path(store) / "collections" / shard), expr)
    compiled = _compiled.get(key)
    load_schema, compile_filter, evaluate_mask = _filter_engine()
    if compiled is None:
        compiled = compile_filter(expr, load_schema(str(Path(key[0]) / "schema.json"))[1])
        if len(_compiled) > 512:
            _compiled.clear()
        _compiled[key] = compiled
    return np.asarray(evaluate_mask(compiled, copy.meta), dtype=bool)


# `field == "text"` joined by `and`: what every search's own scope filter is (search.build_filter: table and column),
# with or without `pdf_id == ...`. Such a filter is evaluated here with numpy, because Milvus Lite's filter engine
# cannot be imported without the whole engine (its package imports faiss, pyarrow.compute and every storage module:
# 0.6-0.8 s of a cold search's 1.5 s). Equality of a VARCHAR with a literal means one thing in Milvus (exact, a null
# matches nothing); anything else goes to the engine.
# A literal in double or single quotes (Milvus takes both; the agent's documented filters use single: `pdf_id ==
# '...'`); one with an escape goes to the engine (`\n` is its business).
_TERM = r'([A-Za-z_]\w*)\s*==\s*(?:"([^"\\]*)"|\'([^\'\\]*)\')'
_EQUALITY = (re.compile(rf"\s*\(\s*{_TERM}\s*\)\s*"), re.compile(rf"\s*{_TERM}\s*"))
_AND = re.compile(r"(?:and(?=[\s(])|&&)", re.IGNORECASE)


def _equalities(expr: str) -> list[tuple[str, str]] | None:
    """[(field, value)] when `expr` is only `field == "value"` (or `'value'`) terms (each bare or in one pair of
    parentheses) joined by `and`, else None."""
    out, pos = [], 0
    while True:
        m = next((m for p in _EQUALITY if (m := p.match(expr, pos))), None)
        if m is None:
            return None
        out.append((m.group(1), m.group(2) if m.group(2) is not None else m.group(3)))
        pos = m.end()
        if pos == len(expr):
            return out
        joined = _AND.match(expr, pos)
        if joined is None:
            return None
        pos = joined.end()


_VARCHAR_FIELDS = frozenset({"pdf_id", "table_name", "column_name", "primary_key"})  # of every collection (schemas/)
_masks: dict[tuple, np.ndarray] = {}


def _equalities_mask(store: Path, shard: str, copy: "Copy", expr: str) -> np.ndarray | None:
    """The rows a filter of `field == "value"` terms admits, over the copy's own columns (None: not such a filter).
    Kept per copy version and filter, as compiled filters are: a long-lived reader repeats its scope filter."""
    terms = _equalities(expr)
    if terms is None or any(field not in _VARCHAR_FIELDS for field, _ in terms):
        return None
    key = (str(store), shard, copy.fingerprint, expr)
    found = _masks.get(key)
    if found is not None and len(found) == copy.meta.num_rows:
        return found
    out = np.ones(copy.meta.num_rows, dtype=bool)
    if copy.meta.num_rows:
        names = set(copy.meta.column_names)
        for field, value in terms:
            if field not in names or str(copy.meta.schema.field(field).type) not in ("string", "large_string"):
                return None
            # to_pylist, not to_numpy: pyarrow converts strings to numpy through pandas (0.9 s to import)
            out &= np.fromiter((v == value for v in copy.meta.column(field).to_pylist()), dtype=bool,
                               count=copy.meta.num_rows)
    if len(_masks) > 512:
        _masks.clear()
    _masks[key] = out
    return out
