"""Encode throughput per collection versus bare `model.encode` on the same texts, and search latency p50.

    .venv/bin/python bench/encode.py --data-dir /tmp/pbvec [--papers 6] [--collection text_bm25_en ...]

Works on a copy of the ingested DuckDB (the data dir is not touched) with a fresh Milvus Lite store. "bare" is the
model alone on the same texts with the same batch size: sentence-transformers' encode for dense models, analysis
plus BM25 weighting for BM25. Target: pipeline time <= 1.25x bare.
"""
from __future__ import annotations

import argparse
import json
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from pipeline.config import load_settings  # noqa: E402
from pipeline.vectors import bm25  # noqa: E402
from pipeline.vectors.encoders import load_encoder  # noqa: E402
from pipeline.vectors import cells, encode_papers, milvus, search  # noqa: E402
from pipeline.vectors.config import CollectionSettings  # noqa: E402
from pipeline.vectors.stage import model_label  # noqa: E402
from pipeline.store import Store  # noqa: E402
from schemas.vectorstore import collection as schema_collection  # noqa: E402


def _bare(settings, name: str, texts: list[str]) -> float:
    coll = schema_collection(name)
    if coll.embed_type == "bm25":
        bm25._stem.cache_clear()  # the pipeline ran first with a cold stem cache; so does bare
        t0 = time.perf_counter()
        counts = [bm25.term_counts(t) for t in texts]
        avgdl = sum(sum(c.values()) for c in counts) / max(1, len(counts))
        [bm25.doc_vector(c, avgdl) for c in counts]
        return time.perf_counter() - t0
    enc = load_encoder(coll, model_label(coll, settings), batch_size=settings.vectors.batch_size)
    t0 = time.perf_counter()
    enc.model.encode(texts, batch_size=settings.vectors.batch_size, normalize_embeddings=True, show_progress_bar=False)
    return time.perf_counter() - t0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data-dir", type=Path, required=True)
    ap.add_argument("--papers", type=int, default=0, help="only the first N papers (0 = all)")
    ap.add_argument("--collection", action="append", default=None)
    ap.add_argument("--queries", type=int, default=20)
    ap.add_argument("--group", type=int, default=5, help="papers per alternation of pipeline and bare runs")
    args = ap.parse_args()
    names = args.collection or ["text_bm25_en", "text_sentence_transformers_all_minilm_l6_v2"]

    work = Path(tempfile.mkdtemp(prefix="pbbench-"))
    shutil.copy(args.data_dir / "paperbase.duckdb", work / "paperbase.duckdb")
    settings = load_settings(data_dir=work)
    settings.vectors.collections = {n: CollectionSettings(enabled=n in names) for n in settings.vectors.collections}
    store = Store(settings.duckdb_path)
    with store.reading() as con:
        papers = cells.papers(con)[: args.papers or None]
        texts = [c.text for c in cells.load(con, "text", papers)]
        probes = con.execute("SELECT text_content, CAST(ref_paper_id AS VARCHAR) FROM chunks WHERE length(text_content) > 400 "
                             "AND CAST(ref_paper_id AS VARCHAR) IN (SELECT unnest(?)) ORDER BY chunk_id LIMIT ?",
                             [papers, args.queries]).fetchall()
    for name in names:  # load models once so neither side pays the load
        coll = schema_collection(name)
        load_encoder(coll, model_label(coll, settings)) if coll.embed_type != "bm25" else None

    results = {"papers": len(papers), "texts": len(texts), "chars": sum(len(t) for t in texts), "collections": {}}
    # Other processes share the CPU, so the two sides alternate over groups of papers (and alternate which goes
    # first): a burst of load then hits both about equally.
    groups = [papers[i : i + args.group] for i in range(0, len(papers), args.group)]
    with store.reading() as con:
        group_texts = [[c.text for c in cells.load(con, "text", g)] for g in groups]
    for name in names:
        pipe = model = bare = 0.0
        vectors = 0
        status = "ok"
        for i, (group, gtexts) in enumerate(zip(groups, group_texts)):
            def run_pipeline():
                return encode_papers(settings, group, collections=[name], force=True).collections[0]
            if i % 2:
                report = run_pipeline()
                bare += _bare(settings, name, gtexts)
            else:
                bare += _bare(settings, name, gtexts)
                report = run_pipeline()
            pipe += report.seconds
            model += report.model_seconds
            vectors += report.vectors_inserted
            status = status if report.status == "ok" else report.status
        results["collections"][name] = {
            "status": status, "vectors": vectors, "pipeline_s": round(pipe, 2), "model_s_inside_pipeline": round(model, 2),
            "bare_s": round(bare, 2), "ratio": round(pipe / bare, 3) if bare else None,
            "texts_per_s": round(vectors / pipe, 1) if pipe else None,
        }
    with milvus.connect(settings) as client:
        for name in names:
            lat = {"no_filter": [], "pdf_filter": []}
            for text, pdf in probes:
                q = " ".join(text.split()[10:30])
                for key, flt in (("no_filter", None), ("pdf_filter", f"pdf_id == '{pdf}'")):
                    t0 = time.perf_counter()
                    search(settings, q, name, filter=flt, limit=5, client=client)
                    lat[key].append(time.perf_counter() - t0)
            results["collections"][name]["search_p50_ms"] = {k: round(1000 * statistics.median(v), 1) for k, v in lat.items() if v}
    shutil.rmtree(work, ignore_errors=True)
    print(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()
