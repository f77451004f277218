"""How search, deletes and the DuckDB side grow with the library: a synthetic library shaped like the corpus, grown to
given sizes, measured beside a numpy brute-force baseline over the same vectors in the same run.

    nice .venv/bin/python bench/scale.py vectors --sizes 100000,300000,1000000 [--index HNSW|FLAT] [--shards 0] [--no-copies] [--json out.json]
    nice .venv/bin/python bench/scale.py cli --sizes 300000 --source DATA_DIR/paperbase.duckdb
    nice .venv/bin/python bench/scale.py server --sizes 300000 [--milvus-uri http://host:19530]   (bench/scale_server.py)
    nice .venv/bin/python bench/scale.py duckdb --papers 1000,10000 --source /path/to/paperbase.duckdb
    nice .venv/bin/python bench/scale.py ledger --papers 1000,10000,50000

Rules:
- `vectors`: one Milvus Lite store per size (embedded, in this process, as `paperbase` opens it), both collections
  created by `pipeline.vectors.milvus.create_collection` from `schemas/vectorstore.json` (the dense one with --index
  instead of its schema index, to compare). 228 vectors per paper, as in the corpus. BM25 vectors come from the
  project's analyzer over real chunk texts (the source DuckDB's `chunks.text_content`, or the corpus PDFs' text blocks):
  each synthetic chunk is a real chunk's term counts with about a fifth of its terms swapped for terms drawn from the
  corpus' own term distribution, so papers differ while df and lengths stay corpus-like. Dense vectors are random unit
  vectors (384-d, MiniLM's width): latency only (an ANN index's recall needs real embeddings: bench/ann.py).
  --shards 0 builds the layout from before shards (one collection holding the --buckets partitions; --buckets 0: none).
- Per size: build (insert vectors/s), store on disk; then a fresh client, as a new process sees the store: open, first
  per-paper dense and BM25 search (each loads only its shard), loading every shard, first library-wide BM25 search
  (builds every segment's sparse index); p50/p95 over the questions of per-paper search (the production path:
  `pipeline.vectors.milvus.search` with the pinned paper: its shard and bucket), the same `pdf_id` filter with nothing
  pinned (every shard and partition, the path before buckets), library-wide search, hybrid (BM25 + dense + RRF, per
  paper and library-wide); delete of one 4-paper batch (the encode stage's replace) and re-insert + flush; RSS; numpy
  baseline = exact top-5 over the same matrices (dense matmul, BM25 scipy csc). With search copies (the default;
  --no-copies: none) the build syncs them as the encode stage does, the production searches use them, and the same
  searches with the copies set aside (`*_milvus`: Milvus Lite alone, the path before copies) run in the same process;
  the "first" rows then say what a new process pays: the first library-wide search from the copies (memory-mapped),
  and Milvus Lite's loading and first searches beside it. The batch delete + re-insert is followed by a copy sync per
  batch (the encode stage syncs once per run: this is its worst case).
- `cli`: a data dir holding a copy of an ingested DuckDB (--source) and a synthetic store of each size; `paperbase
  search` timed end to end in a new process (per paper three times, library-wide twice), the search copies' content
  check (every shard: by file identity, as each search does, and hashed in full, as `check` and the first process
  after a copy of the data dir do) as a share of the cold library-wide search, one cold library-wide search right
  after the copies' ctimes moved (it hashes them), then one long-lived `Reader`
  (what MCP keeps): warm-up, and the default hybrid search p50/p95 per paper and library-wide (query encoder, BM25
  statistics, fusion and text join included).
- `duckdb`: the source database's paper rows replicated under new ids up to each size (text varied by a row-number
  suffix so nothing deduplicates), the BM25 ledger grown to corpus-like term rows per paper; per size: file size, the
  agent's per-paper queries through one connection (p50/p95), a LIKE over all chunks, storing one more paper, and the
  BM25 document-frequency lookup on the ledger (aggregate table) beside the per-paper-row scan it replaced.
- Load average is printed beside the figures: the machine is shared, so compare ratios within a run.
"""
from __future__ import annotations

import argparse
import json
import os
import random
import resource
import shutil
import statistics
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from pipeline.vectors import bm25, fusion, milvus  # noqa: E402
from pipeline.vectors.search import Hit  # noqa: E402
from schemas.vectorstore import VectorIndex, collection  # noqa: E402

DENSE = "text_sentence_transformers_all_minilm_l6_v2"
SPARSE = "text_bm25_en"
PER_PAPER = 228
DIM = 384
FIELDS = milvus.META_FIELDS


def load_avg() -> str:
    return "/".join(f"{x:.1f}" for x in os.getloadavg())


def rss_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def du_mb(path: Path) -> float:
    return sum(p.stat().st_size for p in path.rglob("*") if p.is_file()) / 2**20


def pct(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(q * (len(xs) - 1))))] * 1000


def source_texts(source: Path | None, shared: Path) -> list[str]:
    if source and source.exists():
        import duckdb

        con = duckdb.connect(str(source), read_only=True)
        rows = [r[0] for r in con.execute("SELECT text_content FROM chunks WHERE length(text_content) > 40").fetchall()]
        con.close()
        if rows:
            return rows
    import fitz  # PyMuPDF: the corpus' text blocks when no ingested database is at hand

    out = []
    for pdf in sorted((shared / "corpus").glob("*.pdf")):
        with fitz.open(pdf) as doc:
            out += [b[4] for page in doc for b in page.get_text("blocks") if len(b[4]) > 40]
    if not out:
        sys.exit("no source texts: pass --source DB or have ../shared/corpus")
    return out


class Synth:
    """Corpus-like BM25 term counts: real chunks' counts with ~20% of terms swapped for corpus-distributed terms."""

    def __init__(self, texts: list[str], seed: int = 0):
        self.base = [c for c in (bm25.term_counts(t) for t in texts) if c]
        pool: list[int] = []
        for c in self.base:
            pool += list(c.elements())
        self.pool = np.array(pool, dtype=np.int64)
        self.rng = np.random.default_rng(seed)

    def doc(self) -> Counter[int]:
        src = self.base[int(self.rng.integers(len(self.base)))]
        keys = list(src)
        keep = self.rng.random(len(keys)) > 0.2
        out = Counter({k: src[k] for k, kp in zip(keys, keep) if kp})
        for t in self.pool[self.rng.integers(len(self.pool), size=max(1, len(keys) - int(keep.sum())))]:
            out[int(t)] += 1
        return out


def dense_index(kind: str) -> VectorIndex:
    """The schema's HNSW index of the dense collection (what ships), or FLAT to compare."""
    shipped = next(i for i in collection(DENSE).indexes if i.field_name == "vector")
    return shipped if kind == shipped.index_type else VectorIndex("vector", kind, "COSINE", None)


def build(path: Path, n: int, synth: Synth, index: str, buckets: int, shards: int, copies: bool = True) -> dict:
    """Create the store with n vectors per collection; returns what the baseline needs (dense matrix, sparse CSR rows)
    and the vectors of the first papers (re-inserted by the delete test). Vectors are made batch by batch, so the bench
    holds one copy of the data, not the Python objects of every vector."""
    from dataclasses import replace

    from pymilvus import MilvusClient

    rng = np.random.default_rng(1)
    papers = max(1, n // PER_PAPER)
    client = MilvusClient(uri=str(path))
    client.paperbase_store = path if copies else None  # search copies kept as paperbase keeps them (copies.py)
    dcoll = collection(DENSE)
    dcoll = replace(dcoll, indexes=(dense_index(index),) + tuple(i for i in dcoll.indexes if i.field_name != "vector"))
    milvus.create_collection(client, dcoll, DIM, buckets, shards)
    milvus.create_collection(client, collection(SPARSE), None, buckets, shards)
    avgdl = float(np.mean([sum(synth.doc().values()) for _ in range(2000)]))  # synthetic docs: a sample fixes it
    dense = np.empty((n, DIM), dtype=np.float32)
    df: Counter[int] = Counter()
    s_rows, s_cols, s_vals = [], [], []
    kept: dict[int, dict] = {}
    keep_below = 12 * PER_PAPER  # the delete test's papers
    t_dense = t_sparse = 0.0
    step = 5000
    for a in range(0, n, step):
        m = min(step, n - a)
        block = rng.standard_normal((m, DIM), dtype=np.float32)
        block /= np.linalg.norm(block, axis=1, keepdims=True)
        dense[a:a + m] = block
        docs = [synth.doc() for _ in range(m)]
        for c in docs:
            df.update(c.keys())
        sparse = [bm25.doc_vector(c, avgdl) for c in docs]
        for j, d in enumerate(sparse):
            s_rows.append(np.full(len(d), a + j, dtype=np.int32))
            s_cols.append(np.fromiter(d.keys(), dtype=np.int64, count=len(d)))
            s_vals.append(np.fromiter(d.values(), dtype=np.float32, count=len(d)))
            if a + j < keep_below:
                kept[a + j] = d
        rows = [meta_row(a + j, papers) for j in range(m)]
        t0 = time.perf_counter()
        milvus.insert(client, DENSE, [dict(r, vector=block[j].tolist()) for j, r in enumerate(rows)])
        t1 = time.perf_counter()
        milvus.insert(client, SPARSE, [dict(r, vector=sparse[j]) for j, r in enumerate(rows)])
        t_sparse += time.perf_counter() - t1
        t_dense += t1 - t0
        del docs, sparse, rows
    t0 = time.perf_counter()
    milvus.flush(client, DENSE)
    milvus.flush(client, SPARSE)
    t_flush = time.perf_counter() - t0
    t0 = time.perf_counter()
    milvus.sync_copies(client, DENSE)
    milvus.sync_copies(client, SPARSE)
    t_copies = time.perf_counter() - t0
    client.close()
    _release(path)
    rows_, cols_, vals_ = np.concatenate(s_rows), np.concatenate(s_cols), np.concatenate(s_vals)
    return {"dense": dense, "sparse_coo": (rows_, cols_, vals_), "kept": kept, "df": df, "n_docs": n,
            "papers": papers, "insert_dense_vps": n / t_dense, "insert_bm25_vps": n / t_sparse, "flush_s": t_flush,
            "copies_sync_s": t_copies, "copies_mb": du_mb(Path(f"{path}-copies")), "rss_build_mb": rss_mb()}


def meta_row(i: int, papers: int) -> dict:
    p = paper_id(min(i // PER_PAPER, papers - 1))
    return {"id": i + 1, "pdf_id": p, "page_number": 1 + (i % PER_PAPER) // 20, "table_name": "chunks",
            "column_name": "text_content", "primary_key": f"{p}-c{i:08d}"}


def paper_id(k: int) -> str:
    return f"paper{k:06d}"


def _release(path: Path) -> None:
    from milvus_lite.server_manager import server_manager_instance

    server_manager_instance.release_server(str(path))


def timed(fn, reps: list) -> list[float]:
    out = []
    for args in reps:
        t0 = time.perf_counter()
        fn(*args)
        out.append(time.perf_counter() - t0)
    return out


def measure(path: Path, data: dict, questions: list[str], index: str, copies: bool = True) -> dict:
    from pymilvus import MilvusClient
    from scipy import sparse as sp

    n, papers = data["n_docs"], data["papers"]
    rng = random.Random(7)
    res: dict = {"vectors": n, "papers": papers, "index": index, "load": load_avg()}
    res.update({k: data[k] for k in ("insert_dense_vps", "insert_bm25_vps", "flush_s", "copies_sync_s", "copies_mb",
                                     "rss_build_mb")})
    res["copies"] = copies
    res["disk_mb"] = du_mb(path)
    qs = [q for q in questions if q][:20]
    qsparse = [bm25.query_vector(q, data["df"], n) for q in qs]
    qsparse = [q for q in qsparse if q]
    qdense = np.random.default_rng(3).standard_normal((len(qsparse), DIM), dtype=np.float32)
    qdense /= np.linalg.norm(qdense, axis=1, keepdims=True)
    pids = [paper_id(rng.randrange(papers)) for _ in qsparse]
    dparams, sparams = {"metric_type": "COSINE"}, collection(SPARSE).search_params
    if index == "HNSW":
        dparams = collection(DENSE).search_params  # the schema's ef

    def per_paper(name, vec, pid):  # what pipeline.vectors.search does for a pdf_id filter: the paper's shard + bucket
        return milvus.search(client, name, vec, limit=5, expr=f"pdf_id == {milvus.quote(pid)}", fields=FIELDS,
                             params=dparams if name == DENSE else sparams, pdf_ids=[pid])

    def scan(name, vec, pid, params):  # the same filter over every shard and partition (nothing pinned)
        return milvus.search(client, name, vec, limit=5, expr=f"pdf_id == {milvus.quote(pid)}", fields=FIELDS,
                             params=params)

    def lib(name, vec, params):
        return milvus.search(client, name, vec, limit=5, expr="", fields=FIELDS, params=params)

    def milvus_only(fn):  # the same search with the copies set aside: Milvus Lite alone, the path before copies
        def run(*a):
            client.paperbase_store = None
            try:
                return fn(*a)
            finally:
                client.paperbase_store = path if copies else None
        return run

    # a fresh process's view: open the store, then the first searches (copies: memory-mapped; Milvus: loads shards)
    t0 = time.perf_counter()
    client = MilvusClient(uri=str(path))
    client.paperbase_store = path if copies else None
    res["open_s"] = time.perf_counter() - t0
    if copies:
        t0 = time.perf_counter()
        lib(DENSE, qdense[1].tolist(), dparams)
        res["first_dense_library_copies_s"] = time.perf_counter() - t0
        t0 = time.perf_counter()
        lib(SPARSE, qsparse[1], sparams)
        res["first_bm25_library_copies_s"] = time.perf_counter() - t0
    t0 = time.perf_counter()
    milvus_only(per_paper)(DENSE, qdense[0].tolist(), pids[0])
    res["first_dense_paper_s"] = time.perf_counter() - t0
    t0 = time.perf_counter()
    milvus_only(per_paper)(SPARSE, qsparse[0], pids[0])
    res["first_bm25_paper_s"] = time.perf_counter() - t0
    t0 = time.perf_counter()
    milvus.load(client, DENSE)
    milvus.load(client, SPARSE)
    res["load_all_s"] = time.perf_counter() - t0
    t0 = time.perf_counter()
    milvus_only(lib)(SPARSE, qsparse[0], sparams)
    res["first_bm25_library_s"] = time.perf_counter() - t0
    res["rss_after_first_mb"] = rss_mb()

    m = len(qsparse)
    runs = {
        "dense_paper": timed(lambda i: per_paper(DENSE, qdense[i].tolist(), pids[i]), [(i,) for i in range(m)]),
        "bm25_paper": timed(lambda i: per_paper(SPARSE, qsparse[i], pids[i]), [(i,) for i in range(m)]),
        "dense_paper_scan": timed(lambda i: scan(DENSE, qdense[i].tolist(), pids[i], dparams), [(i,) for i in range(m)]),
        "bm25_paper_scan": timed(lambda i: scan(SPARSE, qsparse[i], pids[i], sparams), [(i,) for i in range(m)]),
        "dense_library": timed(lambda i: lib(DENSE, qdense[i].tolist(), dparams), [(i,) for i in range(m)]),
        "bm25_library": timed(lambda i: lib(SPARSE, qsparse[i], sparams), [(i,) for i in range(m)]),
    }
    if copies:
        runs["dense_paper_milvus"] = timed(milvus_only(lambda i: per_paper(DENSE, qdense[i].tolist(), pids[i])),
                                           [(i,) for i in range(m)])
        runs["bm25_paper_milvus"] = timed(milvus_only(lambda i: per_paper(SPARSE, qsparse[i], pids[i])), [(i,) for i in range(m)])
        runs["dense_library_milvus"] = timed(milvus_only(lambda i: lib(DENSE, qdense[i].tolist(), dparams)),
                                             [(i,) for i in range(m)])
        runs["bm25_library_milvus"] = timed(milvus_only(lambda i: lib(SPARSE, qsparse[i], sparams)), [(i,) for i in range(m)])

    def hybrid(i, paper=True):
        if paper:
            lists = {DENSE: _hits(per_paper(DENSE, qdense[i].tolist(), pids[i])),
                     SPARSE: _hits(per_paper(SPARSE, qsparse[i], pids[i]))}
        else:
            lists = {DENSE: _hits(lib(DENSE, qdense[i].tolist(), dparams)), SPARSE: _hits(lib(SPARSE, qsparse[i], sparams))}
        return fusion.fuse(lists, {DENSE: 1.0, SPARSE: 1.0}, method="rrf", k=60)[:5]

    runs["hybrid_paper"] = timed(hybrid, [(i,) for i in range(m)])
    runs["hybrid_library"] = timed(lambda i: hybrid(i, False), [(i,) for i in range(m)])
    if copies:
        runs["hybrid_library_milvus"] = timed(milvus_only(lambda i: hybrid(i, False)), [(i,) for i in range(m)])
    for k, v in runs.items():
        res[f"{k}_p50_ms"], res[f"{k}_p95_ms"] = pct(v, 0.5), pct(v, 0.95)

    # numpy / scipy exact baseline over the same vectors
    dense = data["dense"]
    rows, cols, vals = data["sparse_coo"]
    vocab, cols = np.unique(cols, return_inverse=True)  # compact term ids (hashes are 32-bit)
    vocab_ix = {int(t): i for i, t in enumerate(vocab)}
    csc = sp.csc_matrix((vals, (rows, cols)), shape=(n, max(1, len(vocab))), dtype=np.float32)

    def np_dense_lib(i):
        s = dense @ qdense[i]
        np.argpartition(-s, 5)[:5]

    def np_dense_paper(i):
        a = int(pids[i][5:]) * PER_PAPER
        s = dense[a:a + PER_PAPER] @ qdense[i]
        np.argsort(-s)[:5]

    def np_bm25_lib(i):
        q = qsparse[i]
        s = np.zeros(n, dtype=np.float32)
        for t, w in q.items():
            c = vocab_ix.get(t)
            if c is None:
                continue
            lo, hi = csc.indptr[c], csc.indptr[c + 1]
            s[csc.indices[lo:hi]] += w * csc.data[lo:hi]
        np.argpartition(-s, 5)[:5]

    for k, fn in (("np_dense_library", np_dense_lib), ("np_dense_paper", np_dense_paper), ("np_bm25_library", np_bm25_lib)):
        v = timed(fn, [(i,) for i in range(m)])
        res[f"{k}_p50_ms"] = pct(v, 0.5)

    # delete one encode batch (4 papers) by pdf_id and put it back, as the encode stage's replace does
    dels, puts, syncs = [], [], []
    for rep in range(3):
        batch = [paper_id((rep * 4 + j) % papers) for j in range(4)]
        idx = [i for i in range(min(n, 12 * PER_PAPER)) if meta_row(i, papers)["pdf_id"] in set(batch)]
        t0 = time.perf_counter()
        milvus.delete_papers(client, DENSE, batch)
        milvus.delete_papers(client, SPARSE, batch)
        dels.append(time.perf_counter() - t0)
        t0 = time.perf_counter()
        milvus.insert(client, DENSE, [dict(meta_row(i, papers), vector=dense[i].tolist()) for i in idx])
        milvus.insert(client, SPARSE, [dict(meta_row(i, papers), vector=data["kept"][i]) for i in idx])
        milvus.flush(client, DENSE, batch)
        milvus.flush(client, SPARSE, batch)
        puts.append(time.perf_counter() - t0)
        t0 = time.perf_counter()  # the encode stage syncs once per run; here once per batch: the worst case
        milvus.sync_copies(client, DENSE)
        milvus.sync_copies(client, SPARSE)
        syncs.append(time.perf_counter() - t0)
    res["copies_sync_batch_p50_s"] = statistics.median(syncs)
    res["delete_batch_p50_s"] = statistics.median(dels)
    res["reinsert_batch_p50_s"] = statistics.median(puts)
    res["rss_end_mb"] = rss_mb()
    client.close()
    _release(path)
    return res


def _hits(raw) -> list[Hit]:
    return [Hit(float(r["distance"]), *(r["entity"][f] for f in FIELDS)) for r in raw]


def run_vectors(args) -> list[dict]:
    texts = source_texts(args.source, args.shared)
    synth = Synth(texts)
    questions = [json.loads(line)["question"] for line in Path(args.questions).read_text().splitlines() if line.strip()]
    out = []
    for n in args.sizes:
        work = Path(tempfile.mkdtemp(prefix="pbscale-", dir=args.workdir))
        try:
            t0 = time.perf_counter()
            copies = not args.no_copies and args.shards > 1
            data = build(work / "milvus.db", n, synth, args.index, args.buckets, args.shards, copies)
            build_s = time.perf_counter() - t0
            res = measure(work / "milvus.db", data, questions, args.index, copies)
            res["build_s"], res["buckets"], res["shards"] = build_s, args.buckets, args.shards
            del data
            out.append(res)
            print(json.dumps(res), flush=True)
        finally:
            shutil.rmtree(work, ignore_errors=True)
    return out


def _verification_cost(store: Path, cold_library_search) -> dict:
    """What checking the search copies' content costs (copies.py): in a cold process every shard's files are checked
    against the identities TRUSTED recorded (a few `stat`s per shard: what every search pays), and hashed in full
    when those changed (the first process after a copy of the data dir, and `paperbase check` every time). Timed here
    over every shard of both collections, and one cold library-wide `paperbase search` right after the files' ctimes
    moved (as after `cp -a`), beside the ordinary cold ones in `cli_library_s`."""
    from pipeline.vectors import copies

    roots = [d for d in copies.copies_dir(store).iterdir() if (d / copies.CURRENT).exists()]
    t0 = time.perf_counter()
    problems = [copies.verify(root) for root in roots]
    trusted = time.perf_counter() - t0
    t0 = time.perf_counter()
    problems += [copies.verify(root, full=True) for root in roots]
    full = time.perf_counter() - t0
    if any(problems):
        raise RuntimeError(f"copies failed verification: {[p for p in problems if p][:3]}")
    size = sum(f.stat().st_size for root in roots for f in root.rglob("*") if f.is_file())
    for root in roots:  # a ctime change, as a copy of the data dir makes: the next process hashes every file once
        for f in root.rglob("*.npy"):
            os.chmod(f, f.stat().st_mode)
    after_copy = cold_library_search()
    return {"copies_checked": len(roots), "copies_mb": round(size / 1e6, 1), "verify_trusted_s": round(trusted, 4),
            "verify_full_s": round(full, 3), "cli_library_after_copy_s": round(after_copy, 3)}


def _check_catches_corruption(store: Path, work: Path, exe: Path, env: dict) -> dict:
    """`paperbase check` (cold, the dense collection) before and after the biggest dense shard's copy had its vector
    rows reversed in place (same shape, same size: the reported attack), and one cold library-wide search between the
    two (the damaged shard refused, so it answers from Milvus Lite there). The bench's DuckDB holds other papers than
    its synthetic store, so `check` also lists those papers; only its search-copy lines are counted here."""
    import subprocess

    from pipeline.vectors import copies

    def check() -> tuple[float, int, list[str]]:
        cmd = [str(exe), "check", "--data-dir", str(work), "-c", DENSE, "--json"]
        t0 = time.perf_counter()
        done = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=1800)
        dt = time.perf_counter() - t0
        if done.returncode not in (0, 1):
            raise RuntimeError(f"check exited {done.returncode}: {done.stderr[-2000:]}")
        lines = [json.loads(line) for line in done.stdout.splitlines() if line.startswith("{")]
        return dt, done.returncode, [m["problem"] for m in lines if m["problem"].startswith("search copy of")]

    clean_s, _rc, clean_found = check()
    roots = [d for d in copies.copies_dir(store).iterdir() if d.name.startswith(DENSE) and (d / copies.CURRENT).exists()]
    root = max(roots, key=lambda d: sum(f.stat().st_size for f in d.rglob("dense.npy")))
    array = root / json.loads((root / copies.CURRENT).read_text())["version"] / "dense.npy"
    rows = np.load(array)
    np.save(array, rows[::-1].copy())  # np.save truncates and rewrites the same file: same inode, shape and size
    cmd = [str(exe), "search", "attention mechanism", "--data-dir", str(work), "--json"]
    t0 = time.perf_counter()
    after = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=1800)
    search_s = time.perf_counter() - t0
    damaged_s, rc, found = check()
    return {"check_clean_s": round(clean_s, 2), "check_clean_copy_problems": len(clean_found),
            "corrupted_shard": root.name, "corrupted_rows": int(rows.shape[0]),
            "cli_library_after_corruption_s": round(search_s, 3), "cli_library_after_corruption_rc": after.returncode,
            "check_corrupted_s": round(damaged_s, 2), "check_corrupted_rc": rc, "check_corrupted_found": found,
            "check_detects_corruption": rc == 1 and len(found) == 1 and root.name in found[0] and not clean_found}


def run_cli(args) -> list[dict]:
    """`paperbase search` end to end on a grown store: a data dir holding a copy of an ingested DuckDB (texts, BM25
    statistics) and a synthetic Milvus store of N vectors under the schema's names; the CLI cold (interpreter start,
    imports, opening the store, the query encoder, search, text join), then one long-lived `Reader` (what MCP and the
    agent keep) searching the default hybrid way, per paper and library-wide."""
    import subprocess

    from pipeline.config import load_settings
    from pipeline.read import Reader

    if not args.source or not args.source.exists():
        sys.exit("cli needs --source: an ingested and encoded paperbase.duckdb")
    synth = Synth(source_texts(args.source, args.shared))
    questions = [json.loads(line)["question"] for line in Path(args.questions).read_text().splitlines() if line.strip()]
    exe = Path(__file__).resolve().parents[1] / ".venv" / "bin" / "paperbase"
    env = dict(os.environ, PAPERBASE_VECTORS__BM25_IDF="library")  # the synthetic papers have no statistics of their own
    out = []
    for n in args.sizes:
        work = Path(tempfile.mkdtemp(prefix="pbcli-", dir=args.workdir))
        try:
            shutil.copy(args.source, work / "paperbase.duckdb")
            os.environ["PAPERBASE_VECTORS__BM25_IDF"] = "library"
            settings = load_settings(data_dir=work)
            data = build(milvus.lite_path(settings), n, synth, "HNSW", milvus.PAPER_BUCKETS, args.shards)
            papers = data["papers"]
            del data
            res: dict = {"vectors": n, "papers": papers, "shards": args.shards, "load": load_avg()}
            rng = random.Random(11)

            def cli(query: str, flt: str | None) -> float:
                cmd = [str(exe), "search", query, "--data-dir", str(work), "--json"] + (["--filter", flt] if flt else [])
                t0 = time.perf_counter()
                done = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=900)
                dt = time.perf_counter() - t0
                if done.returncode != 0:
                    raise RuntimeError(done.stderr[-2000:])
                return dt

            paper_runs = [cli(questions[i], f'pdf_id == "{paper_id(rng.randrange(papers))}"') for i in range(3)]
            res["cli_paper_s"] = paper_runs
            res["cli_library_s"] = [cli(questions[3], None), cli(questions[4], None)]
            res.update(_verification_cost(milvus.lite_path(settings), lambda: cli(questions[5], None)))
            base = statistics.median(res["cli_library_s"])
            res["verify_trusted_share"] = round(res["verify_trusted_s"] / base, 4)
            res["verify_full_share"] = round(res["verify_full_s"] / base, 4)
            with Reader(settings) as reader:
                t0 = time.perf_counter()
                reader.warm()
                res["reader_warm_s"] = time.perf_counter() - t0
                qs = questions[:20]
                reader.search(qs[0])  # first search: the query encoder loads
                per = timed(lambda q: reader.search(q, filter=f'pdf_id == "{paper_id(rng.randrange(papers))}"'), [(q,) for q in qs])
                lib = timed(lambda q: reader.search(q), [(q,) for q in qs])
                res["reader_hybrid_paper_p50_ms"], res["reader_hybrid_paper_p95_ms"] = pct(per, 0.5), pct(per, 0.95)
                res["reader_hybrid_library_p50_ms"], res["reader_hybrid_library_p95_ms"] = pct(lib, 0.5), pct(lib, 0.95)
            res["rss_mb"] = rss_mb()
            res.update(_check_catches_corruption(milvus.lite_path(settings), work, exe, env))
            res["load_end"] = load_avg()
            out.append(res)
            print(json.dumps(res), flush=True)
        finally:
            shutil.rmtree(work, ignore_errors=True)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    v = sub.add_parser("vectors")
    v.add_argument("--sizes", type=lambda s: [int(x) for x in s.split(",")], default=[10_000, 100_000, 300_000])
    v.add_argument("--index", default="HNSW", choices=["FLAT", "HNSW"], help="dense index (HNSW: what ships)")
    v.add_argument("--buckets", type=int, default=milvus.PAPER_BUCKETS, help="paper partitions (0: none)")
    v.add_argument("--shards", type=int, default=milvus.SHARDS, help="physical collections (0: one, the old layout)")
    v.add_argument("--no-copies", action="store_true", help="no search copies (copies.py): Milvus Lite alone")
    d = sub.add_parser("duckdb")
    d.add_argument("--papers", type=lambda s: [int(x) for x in s.split(",")], default=[1_000, 10_000])
    c = sub.add_parser("cli", help="`paperbase search` end to end and a long-lived Reader on a grown store (--source)")
    c.add_argument("--sizes", type=lambda s: [int(x) for x in s.split(",")], default=[300_000])
    c.add_argument("--shards", type=int, default=milvus.SHARDS)
    sv = sub.add_parser("server", help="the same library on a real Milvus server (bench/scale_server.py)")
    sv.add_argument("--sizes", type=lambda s: [int(x) for x in s.split(",")], default=[300_000])
    sv.add_argument("--milvus-uri", default=None, help="a running server; default: start the embedded `milvus` one")
    sv.add_argument("--server-pid", type=int, default=None, help="with --milvus-uri: the server process, for its RSS")
    g = sub.add_parser("ledger", help="the BM25 ledger alone (df lookup, storing a paper's statistics)")
    g.add_argument("--papers", type=lambda s: [int(x) for x in s.split(",")], default=[1_000, 10_000, 50_000])
    for p in (v, c, d, g, sv):
        p.add_argument("--source", type=Path, default=None, help="an ingested paperbase.duckdb (texts, rows to replicate)")
        p.add_argument("--shared", type=Path, default=Path(__file__).resolve().parents[2] / "shared")
        p.add_argument("--questions", default=str(Path(__file__).resolve().parents[1] / "tests/data/corpus_questions.jsonl"))
        p.add_argument("--workdir", default=None, help="where the stores are built (deleted after each size)")
        p.add_argument("--json", type=Path, default=None)
    args = ap.parse_args()
    if args.cmd == "vectors":
        out = run_vectors(args)
    elif args.cmd == "cli":
        out = run_cli(args)
    elif args.cmd == "server":
        from scale_server import run_server  # bench/ is on sys.path when this script runs

        out = run_server(args)
    elif args.cmd == "ledger":
        from scale_duckdb import run_ledger  # bench/ is on sys.path when this script runs

        out = run_ledger(args)
    else:
        from scale_duckdb import run_duckdb

        out = run_duckdb(args)
    if args.json:
        args.json.write_text(json.dumps(out, indent=2))


if __name__ == "__main__":
    main()
