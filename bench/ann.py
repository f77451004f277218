"""An ANN index against FLAT on real embeddings: recall@5 and latency, library-wide and per paper, same store, same run.

    nice .venv/bin/python bench/ann.py --data-dir DATA_DIR [--questions tests/data/corpus_questions.jsonl] [--json out.json]

Rules:
- DATA_DIR is an ingested and encoded paperbase data dir (`paperbase ingest ../shared/corpus --data-dir DATA_DIR`).
  Its MiniLM collection's stored vectors (windowed chunk vectors as production built them) are copied into a scratch
  Milvus Lite store twice: with FLAT and with the schema's HNSW index (searched with ef 64, the schema's, and ef
  128), both in paperbase's layout (shards and paper buckets, `pipeline.vectors.milvus.create_collection`).
- Queries: the corpus questions, encoded with the production query encoder. Library-wide: top 5 over every paper.
  Per paper: top 5 with `pdf_id == <the question's paper>` (the agent's usual search), the question's paper found by
  PDF file name in `metadata.pdf_path`.
- recall@5, averaged over the questions: tie-aware (ANN hits scoring at least FLAT's 5th score, over 5: the corpus
  has identical texts in several cells, whose vectors tie, and which of them a search lists is arbitrary) and, beside
  it, by entity id (|ANN top 5 ∩ FLAT top 5| / 5). Latency p50 of the same
  searches through `pipeline.vectors.milvus.search`; numpy brute force over the same matrix as the baseline.
"""
from __future__ import annotations

import argparse
import json
import shutil
import statistics
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from pipeline.config import load_settings  # noqa: E402
from pipeline.read import Reader  # noqa: E402
from pipeline.vectors import milvus  # noqa: E402
from pipeline.vectors.encoders import encoder_for  # noqa: E402
from pipeline.vectors.stage import model_label  # noqa: E402
from schemas.vectorstore import VectorIndex, collection  # noqa: E402

MINILM = "text_sentence_transformers_all_minilm_l6_v2"
FIELDS = milvus.META_FIELDS


def stored_vectors(reader: Reader) -> list[dict]:
    client = reader.client
    milvus.load(client, MINILM)
    out = []
    for shard in milvus.layout(client, MINILM).shards:
        out += client.query(shard, filter="", output_fields=["id", "vector", *FIELDS], limit=milvus.MAX_QUERY)
    return out


def timed_search(client, name, vec, expr, pins, params) -> tuple[list[tuple[int, float]], float]:
    t0 = time.perf_counter()
    hits = milvus.search(client, name, vec, limit=5, expr=expr, fields=["pdf_id"], params=params, pdf_ids=pins)
    return [(h["id"], h["distance"]) for h in hits], time.perf_counter() - t0


def recall(got: list[tuple[int, float]], want: list[tuple[int, float]]) -> tuple[float, float]:
    """(by id, tie-aware): the share of FLAT's top 5 ids the ANN found; and the share of ANN hits scoring at least
    FLAT's 5th score (a hit tied with a FLAT hit, e.g. the same text in another chunk, is as good an answer)."""
    if not want:
        return 1.0, 1.0
    ids = len({i for i, _ in got} & {i for i, _ in want}) / len(want)
    kth = min(d for _, d in want)
    return ids, min(1.0, sum(1 for _, d in got if d >= kth - 1e-5) / len(want))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data-dir", type=Path, required=True)
    ap.add_argument("--questions", default=str(Path(__file__).resolve().parents[1] / "tests/data/corpus_questions.jsonl"))
    ap.add_argument("--json", type=Path, default=None)
    args = ap.parse_args()
    settings = load_settings(data_dir=args.data_dir)
    questions = [json.loads(line) for line in Path(args.questions).read_text().splitlines() if line.strip()]
    with Reader(settings) as reader:
        rows = stored_vectors(reader)
        by_file = {Path(p).name: pid for pid, p in reader.sql("SELECT CAST(paper_id AS VARCHAR), pdf_path FROM metadata").rows}
    questions = [q for q in questions if Path(q["pdf_file"]).name in by_file]
    coll = collection(MINILM)
    enc = encoder_for(coll, settings, model_label(coll, settings))
    qvecs = [enc.encode_query(q["question"]).tolist() for q in questions]
    pins = [by_file[Path(q["pdf_file"]).name] for q in questions]
    matrix = np.array([r["vector"] for r in rows], dtype=np.float32)
    ids = np.array([r["id"] for r in rows])
    papers = np.array([r["pdf_id"] for r in rows])
    print(f"{len(rows)} vectors of {len(by_file)} papers, {len(questions)} questions", flush=True)

    from pymilvus import MilvusClient

    work = Path(tempfile.mkdtemp(prefix="pbann-"))
    client = MilvusClient(uri=str(work / "milvus.db"))
    shipped = next(i for i in coll.indexes if i.field_name == "vector")  # the schema's HNSW (what ships)
    variants = {"FLAT": VectorIndex("vector", "FLAT", "COSINE", None), "HNSW": shipped}
    for kind, index in variants.items():
        c = replace(coll, name=f"ann_{kind.lower()}", indexes=(index,) + tuple(i for i in coll.indexes if i.field_name != "vector"))
        milvus.create_collection(client, c, matrix.shape[1])
        milvus.insert(client, c.name, [{k: r[k] for k in ("id", "vector", *FIELDS)} for r in rows])
        milvus.flush(client, c.name)
        milvus.load(client, c.name)
    out: dict = {"vectors": len(rows), "papers": len(by_file), "questions": len(questions)}
    for scope in ("library", "paper"):
        truth, flat_t = [], []
        for v, p in zip(qvecs, pins):
            expr, pin = (f"pdf_id == {milvus.quote(p)}", [p]) if scope == "paper" else ("", None)
            got, t = timed_search(client, "ann_flat", v, expr, pin, {"metric_type": "COSINE"})
            truth.append(got)
            flat_t.append(t)
        out[f"{scope}_flat_p50_ms"] = statistics.median(flat_t) * 1000
        for ef in (64, 128):
            rec, tt = [], []
            for v, p, want in zip(qvecs, pins, truth):
                expr, pin = (f"pdf_id == {milvus.quote(p)}", [p]) if scope == "paper" else ("", None)
                got, t = timed_search(client, "ann_hnsw", v, expr, pin, {"metric_type": "COSINE", "params": {"ef": ef}})
                rec.append(recall(got, want))
                tt.append(t)
            out[f"{scope}_hnsw_ef{ef}_recall5_ids"] = float(np.mean([r[0] for r in rec]))
            out[f"{scope}_hnsw_ef{ef}_recall5"] = float(np.mean([r[1] for r in rec]))
            out[f"{scope}_hnsw_ef{ef}_p50_ms"] = statistics.median(tt) * 1000
        np_t, np_agree = [], []
        for v, p, want in zip(qvecs, pins, truth):
            t0 = time.perf_counter()
            mask = papers == p if scope == "paper" else slice(None)
            s = matrix[mask] @ np.asarray(v, dtype=np.float32)
            order = np.argsort(-s)[:5]
            np_t.append(time.perf_counter() - t0)
            np_agree.append(recall(list(zip(ids[mask][order].tolist(), s[order].tolist())), want)[1])
        out[f"{scope}_numpy_p50_ms"] = statistics.median(np_t) * 1000
        out[f"{scope}_numpy_vs_flat_recall5"] = float(np.mean(np_agree))
    client.close()
    from milvus_lite.server_manager import server_manager_instance

    server_manager_instance.release_server(str(work / "milvus.db"))
    shutil.rmtree(work, ignore_errors=True)
    print(json.dumps(out, indent=1))
    if args.json:
        args.json.write_text(json.dumps(out, indent=2))


if __name__ == "__main__":
    main()
