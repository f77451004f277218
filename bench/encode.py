"""Encode throughput of each dense backend (torch fp32, ONNX fp32, ONNX int8) through the real encode stage, beside
bare sentence-transformers (torch fp32) reading the same cells' full text (every <=256-token window), same run.

    .venv/bin/python bench/encode.py --data-dir /tmp/pbvec [--papers 6] [--backend torch --backend onnx-int8 ...]

Rules:
- Works on a copy of the ingested DuckDB (the data dir is not touched) with a fresh Milvus Lite store per backend;
  the ONNX files are exported into the copy's models/ before timing (export is a one-off, reported apart).
- cells/s = encodable text cells / seconds of the whole stage (windows, model, Milvus insert and flush, ledger).
- "bare" = `SentenceTransformer.encode` on every window of the same cells with the same batch size, no Milvus; it
  runs first and last and the two are averaged, because other processes share the CPU.
- cosine = per-window cosine of each backend's vector to bare torch fp32's, on up to 400 windows (min and mean).
"""
from __future__ import annotations

import argparse
import json
import shutil
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from pipeline.config import load_settings  # noqa: E402
from pipeline.models import resolve_model  # noqa: E402
from pipeline.store import Store  # noqa: E402
from pipeline.vectors import cells, encode_papers, windows  # noqa: E402
from pipeline.vectors.config import CollectionSettings  # noqa: E402
from pipeline.vectors.encoders import encoder_for  # noqa: E402
from schemas.vectorstore import collection as schema_collection  # noqa: E402

MINILM = "text_sentence_transformers_all_minilm_l6_v2"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data-dir", type=Path, required=True)
    ap.add_argument("--papers", type=int, default=6, help="the first N papers (0 = all)")
    ap.add_argument("--backend", action="append", default=None)
    ap.add_argument("--json", type=Path, default=None)
    args = ap.parse_args()
    backends = args.backend or ["torch", "onnx", "onnx-int8"]
    from sentence_transformers import SentenceTransformer

    work = Path(tempfile.mkdtemp(prefix="pbbench-"))
    try:
        src = load_settings(data_dir=args.data_dir)
        with Store(src.duckdb_path).reading() as con:
            papers = cells.papers(con)[: args.papers or None]
            texts = [c.text or "" for c in cells.load(con, "text", papers)]
        st = SentenceTransformer(resolve_model("all-MiniLM-L6-v2"), device="cpu")
        parts = windows.split(st.tokenizer, texts, st.max_seq_length - 2, src.vectors.window_overlap)
        flat = [w for ws in parts for w in ws]
        sample = flat[:: max(1, len(flat) // 400)][:400]

        def bare() -> float:
            t0 = time.perf_counter()
            st.encode(flat, batch_size=src.vectors.batch_size, normalize_embeddings=True, show_progress_bar=False)
            return time.perf_counter() - t0

        reference = st.encode(sample, batch_size=32, normalize_embeddings=True, show_progress_bar=False)
        bare_s = [bare()]
        rows = {}
        for backend in backends:
            data = work / backend
            data.mkdir()
            shutil.copy(src.duckdb_path, data / "paperbase.duckdb")
            settings = load_settings(data_dir=data)
            settings.vectors.collections = {n: CollectionSettings(enabled=n == MINILM) for n in settings.vectors.collections}
            settings.vectors.backend = backend
            t0 = time.perf_counter()
            enc = encoder_for(schema_collection(MINILM), settings, "all-MiniLM-L6-v2")
            prepare = time.perf_counter() - t0
            vecs = enc.encode_texts(sample)
            cos = (vecs * reference).sum(1)
            rep = encode_papers(settings, papers, collections=[MINILM], force=True).collections[0]
            rows[backend] = {"status": str(rep.status), "cells": len(texts), "vectors": rep.vectors_inserted,
                             "stage_s": rep.seconds, "model_s": rep.model_seconds,
                             "cells_per_s": round(len(texts) / rep.seconds, 1) if rep.seconds else None,
                             "cos_min": round(float(cos.min()), 4), "cos_mean": round(float(cos.mean()), 4),
                             "load_or_export_s": round(prepare, 1)}
        bare_s.append(bare())
        b = sum(bare_s) / len(bare_s)
        out = {"papers": len(papers), "cells": len(texts), "windows": len(flat), "bare_s": [round(x, 2) for x in bare_s],
               "bare_cells_per_s": round(len(texts) / b, 1), "backends": rows}
        for r in rows.values():
            r["x_bare"] = round(r["cells_per_s"] / out["bare_cells_per_s"], 2) if r["cells_per_s"] else None
        print(f"\n{len(papers)} papers, {len(texts)} text cells, {len(flat)} windows of <=256 word pieces")
        print("| path | cells/s | x bare | cosine to fp32 min / mean | model s / stage s |\n|---|---|---|---|---|")
        print(f"| bare sentence-transformers, torch fp32, every window | {out['bare_cells_per_s']} | 1.00 | 1 / 1 | "
              f"{' / '.join(f'{x:.1f}' for x in bare_s)} (first / last run) |")
        for name, r in rows.items():
            print(f"| encode stage, {name} | {r['cells_per_s']} | {r['x_bare']:.2f} | {r['cos_min']:.4f} / "
                  f"{r['cos_mean']:.4f} | {r['model_s']:.1f} / {r['stage_s']:.1f} |")
        if args.json:
            args.json.write_text(json.dumps(out, indent=2))
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
