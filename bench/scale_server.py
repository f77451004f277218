"""`bench/scale.py server`: the same synthetic library as `scale.py vectors`, written to a real Milvus server through
`pipeline.vectors.milvus` (the server layout: one collection per schema collection, `pdf_id` the partition key,
server-built HNSW; docs/scale.md), and measured beside numpy's exact search over the same vectors in the same run.

    nice .venv/bin/python bench/scale.py server --sizes 300000 [--milvus-uri http://host:19530] [--json out.json]

Without --milvus-uri an embedded Milvus standalone (PyPI `milvus`, the package the tests use) is started under
--workdir for the run and stopped after; its process tree's RSS is the memory figure (with a URI: that of
--server-pid, when given).
Per size, in a database of its own (dropped after): insert rate (dense; BM25 too where the server holds sparse
vectors, >= 2.4), flush + index build + load, per-paper dense search (`pdf_id ==`, partition-key pruning) and
library-wide dense search p50/p95 over the corpus questions' count (random unit query vectors: latency only; hits of
the server's HNSW compared with numpy's exact top 5 as recall@5), one 4-paper batch deleted by expression and
re-inserted + flushed (the encode stage's replace), server RSS. Load average printed beside the figures.
"""
from __future__ import annotations

import json
import random
import statistics
import tempfile
import time
import uuid
from pathlib import Path

import numpy as np

from pipeline.vectors import bm25, milvus, server
from schemas.vectorstore import collection

from scale import DENSE, DIM, FIELDS, PER_PAPER, SPARSE, Synth, load_avg, meta_row, paper_id, pct, source_texts


def _tree_rss_mb(pid: int) -> float:
    """RSS of a process and its children (the embedded server is `milvus run standalone` under the Python launcher)."""
    try:
        import psutil
    except ImportError:
        return float("nan")
    try:
        proc = psutil.Process(pid)
        return sum(p.memory_info().rss for p in [proc, *proc.children(recursive=True)]) / 2**20
    except psutil.Error:
        return float("nan")


def _client(uri: str):
    from pymilvus import MilvusClient

    milvus._quiet_pymilvus()  # as milvus.connect() does: a missing alias is an expected lookup, not an error
    client = MilvusClient(uri=uri)
    client.paperbase_remote = True  # what milvus.connect() marks a server client with
    client.paperbase_lite_dir = client.paperbase_lite_path = client.paperbase_store = None
    return client


def run_server(args) -> list[dict]:
    started = None
    uri = args.milvus_uri
    if not uri:
        from milvus import MilvusServer

        started = MilvusServer(wait_for_started=False)
        started.set_base_dir(tempfile.mkdtemp(prefix="pbmilvus-", dir=args.workdir))
        from tests.milvus_engine import _own_etcd_ports  # a free etcd peer port: other embedded servers may run

        _own_etcd_ports(started)
        t0 = time.perf_counter()
        started.start()
        started.wait_started(timeout=600_000)  # its own default gives up after 180 s (a loaded machine needs more)
        print(json.dumps({"server_start_s": round(time.perf_counter() - t0, 1), "load": load_avg()}), flush=True)
        uri = f"http://127.0.0.1:{started.listen_port}"
    try:
        synth = Synth(source_texts(args.source, args.shared))
        questions = [json.loads(line)["question"] for line in Path(args.questions).read_text().splitlines() if line.strip()]
        out = []
        for n in args.sizes:
            res = measure_one(uri, n, synth, questions, started.server_proc.pid if started else args.server_pid)
            out.append(res)
            print(json.dumps(res), flush=True)
        return out
    finally:
        if started is not None:
            started.stop()


def measure_one(root: str, n: int, synth: Synth, questions: list[str], pid: int | None) -> dict:
    admin = _client(root)
    db = "pbscale_" + uuid.uuid4().hex[:8]
    admin.create_database(db)
    client = _client(f"{root}/{db}")
    feats = server.features(client)
    res: dict = {"vectors": n, "papers": max(1, n // PER_PAPER), "server": feats.version, "load": load_avg()}
    try:
        _measure(client, n, synth, questions, feats, res, pid)
    finally:
        client.close()
        cleanup = _client(f"{root}/{db}")
        for name in cleanup.list_collections():
            cleanup.drop_collection(name)
        cleanup.close()
        admin.drop_database(db)
        admin.close()
    return res


def _measure(client, n: int, synth: Synth, questions: list[str], feats, res: dict, pid: int | None) -> None:
    rng = np.random.default_rng(1)
    papers = res["papers"]
    with_sparse = feats.sparse
    milvus.create_collection(client, collection(DENSE), DIM)
    if with_sparse:
        milvus.create_collection(client, collection(SPARSE), None)
    avgdl = float(np.mean([sum(synth.doc().values()) for _ in range(2000)]))
    dense = np.empty((n, DIM), dtype=np.float32)
    kept_sparse: dict[int, dict] = {}
    t_dense = t_sparse = 0.0
    for a in range(0, n, 5000):
        m = min(5000, n - a)
        block = rng.standard_normal((m, DIM), dtype=np.float32)
        block /= np.linalg.norm(block, axis=1, keepdims=True)
        dense[a:a + m] = block
        rows = [meta_row(a + j, papers) for j in range(m)]
        t0 = time.perf_counter()
        milvus.insert(client, DENSE, [dict(r, vector=block[j].tolist()) for j, r in enumerate(rows)])
        t_dense += time.perf_counter() - t0
        if with_sparse:
            sparse = [bm25.doc_vector(synth.doc(), avgdl) for _ in range(m)]
            for j, d in enumerate(sparse):
                if a + j < 12 * PER_PAPER:
                    kept_sparse[a + j] = d
            t0 = time.perf_counter()
            milvus.insert(client, SPARSE, [dict(r, vector=sparse[j]) for j, r in enumerate(rows)])
            t_sparse += time.perf_counter() - t0
    res["insert_dense_vps"] = round(n / t_dense)
    if with_sparse:
        res["insert_bm25_vps"] = round(n / t_sparse)
    t0 = time.perf_counter()
    milvus.flush(client, DENSE)
    if with_sparse:
        milvus.flush(client, SPARSE)
    res["flush_s"] = round(time.perf_counter() - t0, 2)
    t0 = time.perf_counter()  # sealed segments get their HNSW built by the server; wait for it, then load
    for name in [DENSE] + ([SPARSE] if with_sparse else []):
        _wait_indexed(client, name, n)
        client.release_collection(name)
        client.load_collection(name)
    res["index_and_load_s"] = round(time.perf_counter() - t0, 2)
    res["rss_server_after_load_mb"] = round(_tree_rss_mb(pid), 1) if pid else None

    qn = max(20, min(len(questions), 60))
    qdense = np.random.default_rng(3).standard_normal((qn, DIM), dtype=np.float32)
    qdense /= np.linalg.norm(qdense, axis=1, keepdims=True)
    prng = random.Random(7)
    pids = [paper_id(prng.randrange(papers)) for _ in range(qn)]
    params = collection(DENSE).search_params

    def per_paper(i):
        return milvus.search(client, DENSE, qdense[i].tolist(), limit=5, expr=f"pdf_id == {milvus.quote(pids[i])}",
                             fields=FIELDS, params=params, pdf_ids=[pids[i]])

    def library(i):
        return milvus.search(client, DENSE, qdense[i].tolist(), limit=5, expr="", fields=FIELDS, params=params)

    per_paper(0), library(0)  # first calls: connection warm-up
    for key, fn in (("dense_paper", per_paper), ("dense_library", library)):
        times, recall = [], []
        for i in range(qn):
            t0 = time.perf_counter()
            hits = fn(i)
            times.append(time.perf_counter() - t0)
            if key == "dense_library":
                exact = set((np.argpartition(-(dense @ qdense[i]), 5)[:5] + 1).tolist())
            else:
                a = int(pids[i][5:]) * PER_PAPER
                b = n if int(pids[i][5:]) == papers - 1 else a + PER_PAPER
                exact = set((a + np.argsort(-(dense[a:b] @ qdense[i]))[:5] + 1).tolist())
            recall.append(len(exact & {int(h["id"]) for h in hits}) / 5)
        res[f"{key}_p50_ms"], res[f"{key}_p95_ms"] = round(pct(times, 0.5), 2), round(pct(times, 0.95), 2)
        res[f"{key}_recall5"] = round(float(np.mean(recall)), 3)
    t = []
    for i in range(qn):
        t0 = time.perf_counter()
        s = dense @ qdense[i]
        np.argpartition(-s, 5)[:5]
        t.append(time.perf_counter() - t0)
    res["np_dense_library_p50_ms"] = round(pct(t, 0.5), 2)

    dels, puts = [], []
    for rep in range(3):
        batch = [paper_id((rep * 4 + j) % papers) for j in range(4)]
        idx = [i for i in range(min(n, 12 * PER_PAPER)) if meta_row(i, papers)["pdf_id"] in set(batch)]
        t0 = time.perf_counter()
        milvus.delete_papers(client, DENSE, batch)
        if with_sparse:
            milvus.delete_papers(client, SPARSE, batch)
        dels.append(time.perf_counter() - t0)
        t0 = time.perf_counter()
        milvus.insert(client, DENSE, [dict(meta_row(i, papers), vector=dense[i].tolist()) for i in idx])
        if with_sparse:
            milvus.insert(client, SPARSE, [dict(meta_row(i, papers), vector=kept_sparse[i]) for i in idx])
        milvus.flush(client, DENSE, batch)
        if with_sparse:
            milvus.flush(client, SPARSE, batch)
        puts.append(time.perf_counter() - t0)
    res["delete_batch_p50_s"] = round(statistics.median(dels), 3)
    res["reinsert_batch_p50_s"] = round(statistics.median(puts), 3)
    res["count_after"] = milvus.count(client, DENSE)
    res["rss_server_end_mb"] = round(_tree_rss_mb(pid), 1) if pid else None
    res["load_end"] = load_avg()


def _wait_indexed(client, name: str, n: int, timeout: float = 3600.0) -> None:
    """Until the server reports the vector index built over every sealed row (or the time runs out)."""
    deadline = time.monotonic() + timeout
    index = next(i for i in client.list_indexes(name) if client.describe_index(name, i).get("field_name") == "vector")
    while time.monotonic() < deadline:
        info = client.describe_index(name, index)
        if int(info.get("indexed_rows", 0)) >= int(info.get("total_rows", n)) and int(info.get("pending_index_rows", 0)) == 0:
            return
        time.sleep(1)
