"""Cold `paperbase search` runs in a loop, under load, counting crashes (issue 28: one `paperbase search` in 80 died
with SIGSEGV, nothing on stderr, while another process built a large store).

    nice .venv/bin/python bench/search_crash_loop.py --data-dir DATA [--runs 500] [--parallel 2] [--burn 2]
                                                    [--out /tmp/crash-loop] [--json out.json] [--max-seconds S]

Each run is a new process (`paperbase search`, cold: nothing keeps the store loaded between runs), with
`PYTHONFAULTHANDLER=1` (a fatal signal prints every thread's Python stack to stderr: which native library was running)
and core dumps allowed (`ulimit -c unlimited`; the core lands in the run's own folder under --out when the kernel's
core_pattern is a plain file name). Questions alternate per paper (`--filter "pdf_id == ..."`, the hybrid default)
and library-wide, over the papers of the data dir. `--parallel N` runs N loops at once (so searches also meet a
store held by another search and reconnect when it exits), `--burn N` adds N CPU-bound processes for the whole run
(numpy products, like an encode beside it) on top of whatever else loads the machine.

A run counts as a crash when it ends by a signal (negative return code) or with a code paperbase never uses (not 0,
1, 2, 130, 143); its stderr (with the faulthandler stacks) is kept as crash-<n>.txt under --out. The summary prints
runs, crashes, return codes, p50/p95 seconds and the load average at start and end. `--max-seconds` stops starting runs after
that long (a run that must end by a deadline): the summary says how many of `--runs` ran.
"""
from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import resource
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
QUESTIONS = ["what dataset is used for evaluation", "how is the model trained", "main contribution of the paper",
             "limitations and future work", "which baselines are compared", "results on the benchmark",
             "attention mechanism", "privacy of the prompts"]
KNOWN_CODES = {0, 1, 2, 130, 143}


def _papers(data_dir: Path) -> list[str]:
    import duckdb

    con = duckdb.connect(str(data_dir / "paperbase.duckdb"), read_only=True)
    try:
        return [str(r[0]) for r in con.execute("SELECT paper_id FROM metadata ORDER BY paper_id").fetchall()]
    finally:
        con.close()


def _burn(stop) -> None:
    import numpy as np

    a = np.random.rand(600, 600)
    while not stop.is_set():
        a = a @ a
        a /= np.abs(a).max() or 1.0


def _allow_cores() -> None:
    resource.setrlimit(resource.RLIMIT_CORE, (resource.RLIM_INFINITY, resource.RLIM_INFINITY))


def _one(n: int, args, papers: list[str], out: Path) -> dict:
    q = QUESTIONS[n % len(QUESTIONS)]
    cmd = [str(REPO / ".venv" / "bin" / "paperbase"), "search", q, "--data-dir", str(args.data_dir), "--json", "-n", "5"]
    if papers and n % 4 != 3:  # three in four per paper, as the agent searches
        cmd += ["--filter", f"pdf_id == '{papers[n % len(papers)]}'"]
    folder = out / f"run-{n:04d}"
    folder.mkdir(parents=True, exist_ok=True)
    env = {**os.environ, "PYTHONFAULTHANDLER": "1"}
    t0 = time.perf_counter()
    done = subprocess.run(cmd, cwd=folder, env=env, capture_output=True, text=True, preexec_fn=_allow_cores,
                          timeout=args.timeout)
    seconds = time.perf_counter() - t0
    crashed = done.returncode < 0 or done.returncode not in KNOWN_CODES
    cores = [p.name for p in folder.iterdir() if p.name.startswith("core")]
    if crashed:
        (out / f"crash-{n:04d}.txt").write_text(f"$ {' '.join(cmd)}\nreturn code {done.returncode}\ncores: {cores}\n"
                                                f"--- stderr\n{done.stderr}\n--- stdout\n{done.stdout}\n")
    elif not cores:
        folder.rmdir()
    return {"n": n, "rc": done.returncode, "seconds": round(seconds, 2), "crashed": crashed,
            "hits": sum(1 for line in done.stdout.splitlines() if line.startswith("{")),
            "error": done.stderr.strip().splitlines()[-1][:200] if done.returncode not in (0,) and done.stderr.strip() else ""}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--data-dir", type=Path, required=True)
    ap.add_argument("--runs", type=int, default=500)
    ap.add_argument("--parallel", type=int, default=2)
    ap.add_argument("--burn", type=int, default=2)
    ap.add_argument("--timeout", type=float, default=300)
    ap.add_argument("--max-seconds", type=float, default=0,
                    help="start no new run after this long (0: none); the summary then says how many ran")
    ap.add_argument("--out", type=Path, default=Path("/tmp/paperbase-crash-loop"))
    ap.add_argument("--json", type=Path)
    args = ap.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    papers = _papers(args.data_dir)
    load_start = os.getloadavg()
    stop = multiprocessing.Event()
    burners = [multiprocessing.Process(target=_burn, args=(stop,), daemon=True) for _ in range(args.burn)]
    for b in burners:
        b.start()
    results: list[dict] = []
    lock = threading.Lock()
    counter = iter(range(args.runs))

    def loop() -> None:
        while True:
            with lock:
                n = None if deadline and time.perf_counter() > deadline else next(counter, None)
            if n is None:
                return
            r = _one(n, args, papers, args.out)
            with lock:
                results.append(r)
                if r["crashed"] or len(results) % 25 == 0:
                    crashes = sum(x["crashed"] for x in results)
                    print(f"{len(results)}/{args.runs} runs, {crashes} crash(es), load {os.getloadavg()[0]:.1f}"
                          + (f" — run {n} CRASHED rc {r['rc']}" if r["crashed"] else ""), flush=True)

    t0 = time.perf_counter()
    deadline = t0 + args.max_seconds if args.max_seconds > 0 else None
    threads = [threading.Thread(target=loop) for _ in range(max(1, args.parallel))]
    try:
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    finally:
        stop.set()
        for b in burners:
            b.join(5)
    secs = sorted(r["seconds"] for r in results)
    codes: dict[int, int] = {}
    for r in results:
        codes[r["rc"]] = codes.get(r["rc"], 0) + 1
    summary = {"runs": len(results), "runs_asked": args.runs, "crashes": sum(r["crashed"] for r in results), "return_codes": codes,
               "no_hits": sum(1 for r in results if r["rc"] == 0 and not r["hits"]),
               "p50_s": statistics.median(secs) if secs else None,
               "p95_s": secs[int(0.95 * (len(secs) - 1))] if secs else None, "wall_s": round(time.perf_counter() - t0, 1),
               "parallel": args.parallel, "burn": args.burn, "load_start": load_start, "load_end": os.getloadavg(),
               "errors": sorted({r["error"] for r in results if r["error"]})[:10]}
    print(json.dumps(summary, indent=1))
    if args.json:
        args.json.write_text(json.dumps({"summary": summary, "runs": results}, indent=1))
    sys.exit(1 if summary["crashes"] else 0)


if __name__ == "__main__":
    main()
