"""Dense encoding at the machine's limit, in one run: full `ingest` of a corpus (pages/s), `paperbase rebuild` of the
MiniLM collection per runtime beside bare sentence-transformers fp32 on the same cells' text in the model's own
254-piece windows, the CPU's fp32 and bf16 matrix-product peak and the share of it each path reaches, and the
cosine of the chosen runtime's vectors to fp32 over every window the stage encodes.

    .venv/bin/python bench/encode.py [--corpus ../shared/corpus] [--papers N] [--data-dir STORE] [--backend onnx ...]
        [--no-ingest] [--cosine-windows 0] [--cosine-backend torch-bf16 ...] [--json out.json]

Rules:
- Everything runs on copies under a temporary folder; `--data-dir` (an ingested store) is copied, never written.
  Without it the corpus is ingested fresh (that run is the ingest figure); `--papers N` takes its first N PDFs
  (by name) only, for a shorter run on a busy machine (start-up weighs more in a short ingest: a lower bound). The ONNX export and OpenVINO compile are
  one-offs made before any timing and reported apart.
- rebuild = wall time of the `paperbase rebuild -c <MiniLM>` command (start-up, DuckDB reads, tokenising, the model,
  Milvus inserts and flushes, search-copy syncs), one subprocess per backend: `auto` (what this machine chooses) and
  `onnx` (ONNX Runtime fp32: the path of a CPU without bf16 units; run once where `auto` is `onnx`), plus any
  `--backend`.
- bare = `SentenceTransformer.encode` (torch fp32, batch 32, no de-duplication) on every 254-piece window of every
  encodable text cell, model already loaded; it runs first and last, and ratios use the mean of the two (other work
  shares the CPU: read the load averages printed beside each figure).
- CPU seconds (user + system, the command's processes; the bare runs' own process) are printed beside wall time: on
  a machine shared with other work they are the steadier measure, and `ingest` pages per CPU second x 2 is what the
  ingest would do with both cores to itself (an upper bound: it assumes both stay busy).
- GFLOP counts the encoder's matrix products per window (6 layers of MiniLM: 2·L·(4h² + 2hf) + 4·L²·h, L with the
  special tokens); achieved = GFLOP / seconds, as a share of the CPU's peak (torch matmul 2048², best of 5) in the
  precision the path runs in.
- cosine: the chosen runtime's vector against ONNX Runtime fp32's (itself checked against torch fp32 on a sample)
  for every distinct window of the stage (`--cosine-windows N` samples N), min / 0.1% / 1% / median / mean.
"""
from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from pipeline.config import load_settings  # noqa: E402
from pipeline.models import resolve_model  # noqa: E402
from pipeline.store import Store  # noqa: E402
from pipeline.vectors import cells, runtime, windows  # noqa: E402
from pipeline.vectors.encoders import clear_cache, encoder_for  # noqa: E402
from schemas.vectorstore import collection as schema_collection  # noqa: E402

MINILM = "text_sentence_transformers_all_minilm_l6_v2"
CLI = [str(REPO / ".venv" / "bin" / "paperbase")]


def load() -> str:
    return "/".join(f"{x:.1f}" for x in os.getloadavg())


def children_cpu() -> float:
    ru = resource.getrusage(resource.RUSAGE_CHILDREN)
    return ru.ru_utime + ru.ru_stime


CPU_S: dict[str, float] = {}  # CPU seconds of the last run_cli, by its command


def run_cli(args: list[str], env: dict[str, str] | None = None) -> tuple[float, list[dict], str]:
    t0, c0 = time.perf_counter(), children_cpu()
    proc = subprocess.run(CLI + args + ["--json"], capture_output=True, text=True, cwd=REPO,
                          env={**os.environ, **(env or {})})
    seconds = time.perf_counter() - t0
    CPU_S[args[0]] = children_cpu() - c0
    rows = []
    for line in proc.stdout.splitlines():
        try:
            rows.append(json.loads(line))
        except ValueError:
            pass
    if proc.returncode:
        print(f"  ! {' '.join(args[:2])} exit {proc.returncode}: {proc.stderr[-600:]}", file=sys.stderr)
    return seconds, rows, proc.stderr


def model_shape(path: str) -> tuple[int, int, int]:
    cfg = json.loads((Path(path) / "config.json").read_text())
    return int(cfg["num_hidden_layers"]), int(cfg["hidden_size"]), int(cfg["intermediate_size"])


def gflop(lengths, shape: tuple[int, int, int]) -> float:
    layers, h, f = shape
    L = np.asarray(lengths, dtype=np.float64)
    return float((layers * (2 * L * (4 * h * h + 2 * h * f) + 4 * L * L * h)).sum() / 1e9)


def matmul_peak(dtype_name: str, n: int = 2048, reps: int = 5) -> float:
    import torch

    dtype = getattr(torch, dtype_name)
    a, b = torch.randn(n, n).to(dtype), torch.randn(n, n).to(dtype)
    torch.mm(a, b)
    best = 0.0
    for _ in range(reps):
        t0 = time.perf_counter()
        torch.mm(a, b)
        best = max(best, 2 * n**3 / (time.perf_counter() - t0) / 1e9)
    return best


def stage_windows(store: Path, enc, size: int, overlap: int, papers: list[str]) -> dict[bytes, np.ndarray]:
    """Every distinct window the encode stage cuts from these papers (windowed.py does the same per paper)."""
    with Store(store).reading() as con:
        all_cells = cells.load(con, "text", papers)
    by_paper: dict[str, list[str]] = {}
    for c in all_cells:
        by_paper.setdefault(c.pdf_id, []).append(c.text or "")
    out: dict[bytes, np.ndarray] = {}
    for texts in by_paper.values():
        for ws in windows.cut(enc.tokenizer, texts, size, overlap, windows.anchors(texts)):
            for w in ws:
                out.setdefault(w.key, w.ids)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--corpus", type=Path, default=REPO.parent / "shared" / "corpus")
    ap.add_argument("--papers", type=int, default=0, help="ingest only the corpus's first N PDFs (0 = all)")
    ap.add_argument("--data-dir", type=Path, default=None, help="an ingested store to copy instead of ingesting")
    ap.add_argument("--backend", action="append", default=[], help="more backends to rebuild with (auto, onnx always)")
    ap.add_argument("--no-ingest", action="store_true", help="skip the full ingest figure (needs --data-dir)")
    ap.add_argument("--cosine-windows", type=int, default=0, help="sample this many windows for the cosine (0 = all)")
    ap.add_argument("--cosine-backend", action="append", default=[],
                    help="more backends to compare with fp32 without timing a rebuild (e.g. torch-bf16: bf16 "
                         "arithmetic, emulated on CPUs without bf16 units)")
    ap.add_argument("--json", type=Path, default=None)
    args = ap.parse_args()
    choice = runtime.choose("auto")
    print(f"CPU: {runtime.describe()}\nauto chooses: {choice.backend} ({choice.why})\nload at start: {load()}")
    out: dict = {"cpu": runtime.describe(), "auto": choice.backend, "why": choice.why, "load_start": load()}
    work = Path(tempfile.mkdtemp(prefix="pbenc-"))
    try:
        base = work / "base"
        base.mkdir()
        backends = list(dict.fromkeys(["auto", *(["onnx"] if choice.backend != "onnx" else []), *args.backend]))
        t0 = time.perf_counter()  # one-offs: export the ONNX graph, compile OpenVINO, into the copies' models dir
        models = work / "models"
        for b in backends:
            s = load_settings(data_dir=base)
            s.vectors.backend, s.vectors.model_cache = b, models
            encoder_for(schema_collection(MINILM), s, "all-MiniLM-L6-v2")
        clear_cache()
        out["one_off_export_s"] = round(time.perf_counter() - t0, 1)
        env = {"PAPERBASE_VECTORS__MODEL_CACHE": str(models)}
        if args.data_dir:
            shutil.copy(load_settings(data_dir=args.data_dir).duckdb_path, base / "paperbase.duckdb")
        if not args.no_ingest:
            fresh, corpus = work / "ingest", args.corpus
            if args.papers:  # the first N PDFs, copied into a folder of their own
                corpus = work / "corpus"
                corpus.mkdir()
                for pdf in sorted(args.corpus.glob("*.pdf"))[: args.papers]:
                    shutil.copy(pdf, corpus / pdf.name)
            seconds, rows, _ = run_cli(["ingest", str(corpus), "--data-dir", str(fresh)], env)
            with Store(fresh / "paperbase.duckdb").reading() as con:
                pages = con.execute("SELECT count(*) FROM pages").fetchone()[0]
            cpu = CPU_S["ingest"]
            out["ingest"] = {"pages": pages, "seconds": round(seconds, 1), "pages_per_s": round(pages / seconds, 2),
                             "cpu_s": round(cpu, 1), "pages_per_s_2_cores_alone": round(2 * pages / cpu, 2),
                             "load": load()}
            subset = f" (first {args.papers} PDFs)" if args.papers else ""
            print(f"full ingest of {args.corpus}{subset}: {pages} pages in {seconds:.1f} s = {pages / seconds:.2f} pages/s "
                  f"(load {load()}); {cpu:.0f} CPU s: {2 * pages / cpu:.2f} pages/s with 2 cores to itself")
            if not args.data_dir:
                shutil.copy(fresh / "paperbase.duckdb", base / "paperbase.duckdb")
            shutil.rmtree(fresh, ignore_errors=True)
        if not (base / "paperbase.duckdb").exists():
            sys.exit("no store: give --data-dir or let the bench ingest --corpus")
        settings = load_settings(data_dir=base)
        with Store(settings.duckdb_path).reading() as con:
            papers = cells.papers(con)
            texts = [c.text or "" for c in cells.load(con, "text", papers)]
        path = resolve_model("all-MiniLM-L6-v2")
        shape = model_shape(path)
        from sentence_transformers import SentenceTransformer

        st = SentenceTransformer(path, device="cpu")
        bare_windows = [w for ws in windows.split(st.tokenizer, texts, st.max_seq_length - 2, 0) for w in ws]
        bare_lengths = [len(x) for x in st.tokenizer(bare_windows, verbose=False)["input_ids"]]
        bare_gflop = gflop(bare_lengths, shape)

        bare_cpu: list[float] = []

        def bare() -> float:
            t, c = time.perf_counter(), time.process_time()
            st.encode(bare_windows, batch_size=32, normalize_embeddings=True, show_progress_bar=False)
            bare_cpu.append(time.process_time() - c)
            return time.perf_counter() - t

        bare_s = [bare()]
        out["bare"] = {"cells": len(texts), "windows": len(bare_windows), "pieces": sum(bare_lengths),
                       "gflop": round(bare_gflop), "loads": [load()]}
        print(f"bare sentence-transformers fp32: {len(texts)} cells, {len(bare_windows)} windows of <=254 pieces, "
              f"{bare_s[0]:.1f} s, {bare_cpu[0]:.0f} CPU s (load {load()})")
        rebuilds = {}
        for b in backends:
            data = work / f"rebuild-{b}"
            data.mkdir()
            shutil.copy(base / "paperbase.duckdb", data / "paperbase.duckdb")
            seconds, rows, _ = run_cli(["rebuild", "--data-dir", str(data), "-c", MINILM],
                                       {**env, "PAPERBASE_VECTORS__BACKEND": b})
            rep = next((c for r in rows for c in r.get("collections", []) if c.get("collection") == MINILM), {})
            rebuilds[b] = {"seconds": round(seconds, 1), "status": rep.get("status"), "runtime": rep.get("runtime"),
                           "vectors": rep.get("vectors_inserted"), "windows_encoded": rep.get("windows_encoded"),
                           "pieces_encoded": rep.get("pieces_encoded"), "model_s": rep.get("model_seconds"),
                           "stage_s": rep.get("seconds"), "cpu_s": round(CPU_S["rebuild"], 1), "load": load()}
            print(f"rebuild [{b}] {rep.get('runtime')}: {seconds:.1f} s wall, model {rep.get('model_seconds')} s, "
                  f"{rep.get('vectors_inserted')} vectors, {rep.get('windows_encoded')} windows encoded "
                  f"({rep.get('pieces_encoded')} pieces), {CPU_S['rebuild']:.0f} CPU s (load {load()})")
            shutil.rmtree(data, ignore_errors=True)
        bare_s.append(bare())
        out["bare"]["seconds"] = [round(x, 1) for x in bare_s]
        out["bare"]["cpu_s"] = [round(x, 1) for x in bare_cpu]
        out["bare"]["loads"].append(load())
        print(f"bare again: {bare_s[1]:.1f} s, {bare_cpu[1]:.0f} CPU s (load {load()})")
        bare_mean, bare_cpu_mean = sum(bare_s) / 2, sum(bare_cpu) / 2

        # the stage's windows: FLOPs of what it encodes, and the cosine of each runtime to fp32
        enc32 = _encoder(base, "onnx", models)
        size = min(enc32.max_tokens, settings.vectors.window_tokens)
        distinct = stage_windows(settings.duckdb_path, enc32, size, settings.vectors.window_overlap, papers)
        stage_gflop = gflop([len(v) + 2 for v in distinct.values()], shape)
        peaks = {"fp32": matmul_peak("float32"), "bf16": matmul_peak("bfloat16")}
        out["peak_gflops"] = {k: round(v, 1) for k, v in peaks.items()}
        out["peak_note"] = "" if runtime.has_bf16() else "no native bf16 on this CPU: the bf16 peak is emulated"
        compared = [b for b in dict.fromkeys(backends + args.cosine_backend) if b != "onnx"]
        out["cosine"] = cosines(distinct, enc32, compared, base, models, args.cosine_windows)
        out["stage_gflop"] = round(stage_gflop)
        for b, r in rebuilds.items():
            prec = "bf16" if "bf16" in (r["runtime"] or "") and runtime.has_bf16() else "fp32"
            r["x_bare"] = round(bare_mean / r["seconds"], 2)
            r["x_bare_cpu"] = round(bare_cpu_mean / r["cpu_s"], 2) if r["cpu_s"] else None
            r["gflops_model"] = round(stage_gflop / r["model_s"], 1) if r.get("model_s") else None
            r["gflops_wall"] = round(stage_gflop / r["seconds"], 1)
            r["peak_share_model"] = round(r["gflops_model"] / peaks[prec], 3) if r["gflops_model"] else None
            r["precision"] = prec
        out["rebuild"] = rebuilds
        bare_gflops = bare_gflop / bare_mean
        out["bare"]["gflops"] = round(bare_gflops, 1)
        out["load_end"] = load()
        report(out, bare_mean, bare_gflops, peaks)
        if args.json:
            args.json.write_text(json.dumps(out, indent=2))
    finally:
        shutil.rmtree(work, ignore_errors=True)


def _encoder(data: Path, backend: str, models: Path):
    s = load_settings(data_dir=data)
    s.vectors.backend, s.vectors.model_cache = backend, models
    return encoder_for(schema_collection(MINILM), s, "all-MiniLM-L6-v2")


def cosines(distinct: dict[bytes, np.ndarray], enc32, backends: list[str], data: Path, models: Path,
            sample: int) -> dict:
    keys = list(distinct)
    if sample and sample < len(keys):
        keys = keys[:: max(1, len(keys) // sample)][:sample]
    ids = [distinct[k] for k in keys]
    reference = enc32.encode_ids(ids)
    out = {}
    check = ids[:: max(1, len(ids) // 200)][:200]  # ONNX fp32 is the fp32 reference: against torch fp32 here
    torch32 = _encoder(data, "torch", models).encode_ids(check)
    out["onnx fp32 vs torch fp32 (sample)"] = _dist((enc32.encode_ids(check) * torch32).sum(1))
    for b in backends:
        enc = _encoder(data, b, models)
        if enc.label == enc32.label:
            continue
        out[f"{b} ({enc.label})"] = _dist((enc.encode_ids(ids) * reference).sum(1))
    return out


def _dist(cos: np.ndarray) -> dict:
    q = np.quantile(cos, [0.0, 0.001, 0.01, 0.5])
    return {"windows": int(len(cos)), "min": round(float(q[0]), 6), "p0.1": round(float(q[1]), 6),
            "p1": round(float(q[2]), 6), "median": round(float(q[3]), 6), "mean": round(float(cos.mean()), 6)}


def report(out: dict, bare_mean: float, bare_gflops: float, peaks: dict) -> None:
    b = out["bare"]
    print(f"\nMiniLM over {b['cells']} text cells; bare {b['windows']} windows of <=254 pieces ({b['gflop']} GFLOP), "
          f"the stage {out['stage_gflop']} GFLOP of distinct windows. Loads (1/5/15 min): start {out['load_start']}, "
          f"end {out['load_end']}")
    print(f"peak matmul (torch 2048^2): fp32 {peaks['fp32']:.0f} GFLOP/s, bf16 {peaks['bf16']:.0f} GFLOP/s "
          f"{out['peak_note']}")
    print("| path | seconds | x bare | CPU s | x bare (CPU s) | GFLOP/s (model time) | share of peak | vectors | "
          "windows encoded |\n|---|---|---|---|---|---|---|---|---|")
    print(f"| bare sentence-transformers fp32, 254-piece windows | {' / '.join(map(str, b['seconds']))} (first / last) "
          f"| 1.00 | {' / '.join(map(str, b['cpu_s']))} | 1.00 | {bare_gflops:.1f} | {bare_gflops / peaks['fp32']:.2f} "
          f"(fp32) | {b['windows']} | {b['windows']} |")
    for name, r in out["rebuild"].items():
        print(f"| `paperbase rebuild` [{name}: {r['runtime']}] | {r['seconds']} (model {r['model_s']}) | "
              f"**{r['x_bare']:.2f}** | {r['cpu_s']} | **{r['x_bare_cpu']}** | {r['gflops_model']} | "
              f"{r['peak_share_model']} ({r['precision']}) | {r['vectors']} | {r['windows_encoded']} |")
    if "ingest" in out:
        i = out["ingest"]
        print(f"\nfull ingest: {i['pages']} pages in {i['seconds']} s = **{i['pages_per_s']} pages/s** (load {i['load']}); "
              f"{i['cpu_s']} CPU s = {i['pages_per_s_2_cores_alone']} pages/s with 2 cores to itself")
    print("\ncosine to fp32 over the stage's distinct windows:")
    for name, d in out["cosine"].items():
        print(f"  {name}: {d}")


if __name__ == "__main__":
    main()
