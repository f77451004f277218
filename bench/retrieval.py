"""Retrieval quality per search mode on questions with evidence pages, tuned and held-out apart, with each mode's latency.

    .venv/bin/python bench/retrieval.py --data-dir DATA [--questions FILE ...] [--grid] [--variants]
        [--tail-probes 200] [--json out.json]

Rules:
- Questions: tests/data/corpus_questions.jsonl (198, "original": the fusion weights and window size of earlier issues
  were chosen on them) and tests/data/paraphrase_questions.jsonl (written in other words than the papers', over
  corpus, corpus2 and corpus3; split into `tune` and a held-out third of each folder's papers that no choice was
  made on). Questions whose paper is not in the store are skipped.
- Every question is searched with a per-paper filter (`pdf_id == <the paper's id>`, ids from the ingested
  metadata, matched by PDF path), over `chunks.text_content` (what the agent's RetrieveFromVectorstore and
  ClassicRetrieve search); a hit counts when its page is the question's evidence page. Recall@1/5/10 and MRR@10,
  by question set, by folder (tuned = original + tune, held-out apart) and by kind of question.
- Production modes go through one long-lived `pipeline.read.Reader` on the data dir as built (BM25, MiniLM as
  stored, hybrid = the default `paperbase search`, hybrid over every text cell; BM25 also with
  `bm25_idf = "library"`), warmed first; each search is timed (p50 / p95 / mean, the DuckDB text join included).
  The naive baseline (distinct query words found in the chunk) runs in process; `--variants` adds MiniLM in torch
  fp32, truncated (as stored before windows) and windowed.
- Tail probe: long chunks (> 254 word pieces), queries = their first 40 and their last 40 words, searched with the
  paper filter; reports how often the chunk comes first.
"""
from __future__ import annotations

import argparse
import json
import re
import sys
import time
from collections import defaultdict
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from pipeline.config import load_settings  # noqa: E402
from pipeline.read import Reader  # noqa: E402
from pipeline.vectors import windows  # noqa: E402
from pipeline.vectors.search import search as vector_search  # noqa: E402
from pipeline.vectors.bm25 import STOP_WORDS  # noqa: E402
from bench.retrieval_report import (K, SETS, by_folder, by_kind, by_set, folder, group, kind_table,  # noqa: E402
                                    latency_table, rank_of, summarize, table)

MINILM = "text_sentence_transformers_all_minilm_l6_v2"
BM25 = "text_bm25_en"
DEFAULT = "hybrid (default `paperbase search`)"
DATA = Path(__file__).resolve().parents[1] / "tests/data"
QUESTION_FILES = [DATA / "corpus_questions.jsonl", DATA / "paraphrase_questions.jsonl"]


def load_questions(path: Path, paper_ids: dict[str, str]) -> list[dict]:
    """The questions of one file whose paper is in the store; `set` is the file's split (`tune` / `heldout`) or
    `original`, `kind` what is asked (the original questions: their evidence type)."""
    out = []
    for line in path.read_text().splitlines():
        if line.strip():
            q = json.loads(line)
            q["paper_id"] = paper_ids.get(q["pdf_file"])
            q["set"] = q.get("split", "original")
            q.setdefault("kind", "original: " + next((t for t in q["tags"] if t not in ("single", "objective")), "text"))
            if q["paper_id"]:
                out.append(q)
    return out


def paper_ids(reader: Reader, shared: Path) -> dict[str, str]:
    rows = reader.sql("SELECT CAST(paper_id AS VARCHAR), pdf_path FROM metadata").rows
    out = {}
    for pid, path in rows:
        p = Path(path)
        out[f"{p.parent.name}/{p.name}"] = pid
    return out


def _words(text: str) -> set[str]:
    return {w for w in re.findall(r"[a-z0-9]+", text.lower()) if len(w) > 2 and w not in STOP_WORDS}


class Chunks:
    """The chunks of the papers asked about, in memory, for the in-process variants."""

    def __init__(self, reader: Reader, pids: list[str]):
        rows = reader.sql("SELECT CAST(c.ref_paper_id AS VARCHAR), CAST(c.chunk_id AS VARCHAR), p.page_number, "
                          "c.text_content FROM chunks c JOIN pages p ON p.page_id = c.ref_page_id "
                          "WHERE CAST(c.ref_paper_id AS VARCHAR) IN (SELECT unnest(?)) ORDER BY 1, 2", [pids],
                          max_rows=10**6).rows
        self.by_paper: dict[str, list[tuple[str, int, str]]] = defaultdict(list)
        for pid, cid, page, text in rows:
            self.by_paper[pid].append((cid, page, text or ""))

    def naive(self, pid: str, question: str) -> list[int]:
        q = _words(question)
        scored = sorted(self.by_paper[pid], key=lambda c: -len(q & _words(c[2])))
        return [page for _, page, _ in scored]


class DenseVariant:
    """Chunks encoded in process: `windowed` = max over windows, else one truncated vector per chunk."""

    def __init__(self, model, chunks: Chunks, windowed: bool):
        self.model, self.vecs, self.owner = model, {}, {}
        tok, size = model.tokenizer, model.max_seq_length - 2
        for pid, items in chunks.by_paper.items():
            texts = [t for _, _, t in items]
            parts = windows.split(tok, texts, size, 32) if windowed else [[t] for t in texts]
            flat = [w for ws in parts for w in ws]
            self.owner[pid] = np.array([i for i, ws in enumerate(parts) for _ in ws])
            self.vecs[pid] = model.encode(flat, batch_size=32, normalize_embeddings=True, show_progress_bar=False)
        self.chunks = chunks

    def ranked(self, pid: str, query: str) -> list[tuple[str, int]]:
        q = self.model.encode([query], normalize_embeddings=True, show_progress_bar=False)[0]
        sims = self.vecs[pid] @ q
        best: dict[int, float] = {}
        for i, s in zip(self.owner[pid], sims):
            best[int(i)] = max(best.get(int(i), -1e9), float(s))
        order = sorted(best, key=lambda i: -best[i])
        items = self.chunks.by_paper[pid]
        return [(items[i][0], items[i][1]) for i in order]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data-dir", type=Path, required=True)
    ap.add_argument("--questions", type=Path, action="append", default=None,
                    help="question files (repeatable; default: the original 198 and the paraphrased set)")
    ap.add_argument("--variants", action="store_true", help="also the in-process torch variants (slow)")
    ap.add_argument("--no-variants", action="store_true", help=argparse.SUPPRESS)  # the default now; kept for old scripts
    ap.add_argument("--tail-probes", type=int, default=200, help="long chunks probed by first/last 40 words (0 = skip)")
    ap.add_argument("--json", type=Path, default=None)
    ap.add_argument("--grid", action="store_true", help="also print fusion settings side by side (method, k, weights)")
    args = ap.parse_args()
    settings = load_settings(data_dir=args.data_dir)
    results: dict = {"modes": {}, "tail": {}}
    library = settings.model_copy(update={"vectors": settings.vectors.model_copy(update={"bm25_idf": "library"})})
    with Reader(settings) as reader:
        ids = paper_ids(reader, Path())
        questions = [q for path in (args.questions or QUESTION_FILES) for q in load_questions(path, ids)]
        pids = sorted({q["paper_id"] for q in questions})
        chunks = Chunks(reader, pids)
        existing = reader.collections()
        reader.warm()
        modes: dict[str, object] = {"naive: query words in chunk": None}
        if BM25 in existing:
            modes["BM25"] = BM25
            modes["BM25, IDF from the whole library"] = "bm25-library"
        if MINILM in existing:
            modes["MiniLM (stored: windowed)"] = MINILM
        modes[DEFAULT] = "hybrid"
        modes["hybrid, every text cell (--table all)"] = "hybrid-all"
        variants = {}
        if args.variants:
            from sentence_transformers import SentenceTransformer

            from pipeline.models import resolve_model

            st = SentenceTransformer(resolve_model("all-MiniLM-L6-v2"), device="cpu")
            variants["MiniLM torch fp32, truncated (as before windows)"] = DenseVariant(st, chunks, windowed=False)
            variants["MiniLM torch fp32, 254-piece windows"] = DenseVariant(st, chunks, windowed=True)
        ranks: dict[str, list] = defaultdict(list)
        times: dict[str, list[float]] = defaultdict(list)
        for q in questions:
            pid, ev = q["paper_id"], q["evidence_page"]
            flt = f'pdf_id == "{pid}"'
            for mode, coll in modes.items():
                t0 = time.perf_counter()
                if coll is None:
                    pages = chunks.naive(pid, q["question"])
                elif coll == "bm25-library":
                    pages = [h.page_number for h in vector_search(library, q["question"], BM25, "chunks", "text_content",
                                                                  flt, K, client=reader.client, reading=reader._reading)]
                elif coll == "hybrid-all":
                    pages = [h.page_number for h in reader.search(q["question"], None, None, None, flt, K)]
                else:
                    hits = reader.search(q["question"], None if coll == "hybrid" else coll, "chunks", "text_content",
                                         flt, K)
                    pages = [h.page_number for h in hits]
                times[mode].append(time.perf_counter() - t0)
                ranks[mode].append(rank_of(pages, ev))
            for mode, var in variants.items():
                ranks[mode].append(rank_of([p for _, p in var.ranked(pid, q["question"])], ev))
        results["questions"] = {s: sum(1 for q in questions if q["set"] == s) for s in SETS}
        results["modes"] = {m: group(questions, r, by_set) for m, r in ranks.items()}
        results["folders"] = {m: group(questions, r, by_folder) for m, r in ranks.items()}
        results["kinds"] = {m: group(questions, r, by_kind) for m, r in ranks.items() if m in (DEFAULT, "BM25")}
        results["latency_ms"] = {m: latency(ts) for m, ts in times.items()}
        n = results["questions"]
        print(f"{len(questions)} questions over {len(pids)} papers: {n['original']} original (the weights and window "
              f"size of earlier issues were chosen on them), {n['tune']} paraphrased for tuning, {n['heldout']} "
              f"paraphrased and held out. Per-paper filter, chunks; evidence page first (r@1), in the top 5, MRR@10.")
        print(table("By question set", results["modes"], list(SETS) + ["all"]))
        folders = sorted({folder(q) for q in questions})
        print(table("By folder (tuned = original + tune; held-out apart)", results["folders"],
                    [f"{f} {s}" for f in folders for s in ("tuned", "held-out")] + ["all tuned", "all held-out"]))
        print(kind_table(f"By kind of question ({DEFAULT}; original questions by evidence type)",
                         results["kinds"].get(DEFAULT, {}), results["kinds"].get("BM25")))
        print(latency_table("Latency per search (one long-lived Reader, warm, same run; includes the DuckDB text join)",
                            times))
        if args.grid and BM25 in existing and MINILM in existing:
            results["grid"] = grid(reader, questions)
        if args.tail_probes and MINILM in existing:
            results["tail"] = tail_probe(reader, chunks, variants, args.tail_probes)
            print("\nFirst hit is the chunk itself (long chunks; query = 40 words from its start / its end)")
            print("| mode | start | end |\n|---|---|---|")
            for mode, r in results["tail"].items():
                print(f"| {mode} | {r['start']:.2f} | {r['end']:.2f} |")
    if args.json:
        args.json.write_text(json.dumps(results, indent=2))


def latency(ts: list[float]) -> dict[str, float]:
    s = sorted(ts)
    if not s:
        return {}
    return {"n": len(s), "p50": round(s[len(s) // 2] * 1e3, 2), "p95": round(s[min(len(s) - 1, int(0.95 * len(s)))] * 1e3, 2),
            "mean": round(sum(s) / len(s) * 1e3, 2)}


def grid(reader: Reader, questions: list[dict]) -> dict:
    """Fusion settings compared on the same candidate lists (50 distinct cells per collection)."""
    from pipeline.vectors import fusion

    lists = []
    for q in questions:
        flt = f'pdf_id == "{q["paper_id"]}"'
        lists.append({c: reader.search(q["question"], c, "chunks", "text_content", flt, 50) for c in (BM25, MINILM)})
    settings = [("rrf", k, w) for k in (10, 30, 60) for w in (1.0, 1.5, 2.0, 3.0)] + \
               [("convex", 0, w) for w in (0.5, 1.0, 1.5, 2.0, 3.0)]
    rows = {}
    for method, k, w in settings:
        by: dict[str, list] = defaultdict(list)
        for q, ls in zip(questions, lists):
            fused = fusion.fuse(ls, {BM25: w, MINILM: 1.0}, method=method, k=k or 60)
            r = rank_of([h.page_number for _, h in fused], q["evidence_page"])
            for g in by_set(q):
                by[g].append(r)
        rows[f"{method} k={k} w_bm25={w}"] = {g: summarize(r) for g, r in by.items()}
    print(table("Fusion settings (BM25 weight w, MiniLM weight 1)", rows, list(SETS) + ["all"]))
    return rows


def tail_probe(reader: Reader, chunks: Chunks, variants: dict, n: int) -> dict[str, dict[str, float]]:
    from transformers import AutoTokenizer

    from pipeline.models import resolve_model

    tok = AutoTokenizer.from_pretrained(resolve_model("all-MiniLM-L6-v2"))
    long = [(pid, cid, text) for pid, items in sorted(chunks.by_paper.items()) for cid, _, text in items
            if len(tok(text, add_special_tokens=False, verbose=False)["input_ids"]) > 254 and len(text.split()) >= 120]
    step = max(1, len(long) // n)
    probes = long[::step][:n]
    out: dict[str, dict[str, list[bool]]] = defaultdict(lambda: {"start": [], "end": []})
    for pid, cid, text in probes:
        words = text.split()
        for side, query in (("start", " ".join(words[:40])), ("end", " ".join(words[-40:]))):
            flt = f'pdf_id == "{pid}"'
            for mode, coll in (("MiniLM (stored)", MINILM), ("BM25", BM25), ("hybrid", None)):
                hits = reader.search(query, coll, "chunks", "text_content", flt, 1)
                out[mode][side].append(bool(hits) and hits[0].primary_key == cid)
            for mode, var in variants.items():
                out[mode][side].append(var.ranked(pid, query)[0][0] == cid)
    print(f"\n({len(probes)} long chunks probed of {len(long)})")
    return {m: {s: round(sum(v) / max(1, len(v)), 3) for s, v in sides.items()} for m, sides in out.items()}


if __name__ == "__main__":
    main()
