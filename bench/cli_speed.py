"""Everyday command speed (issue 32): `paperbase --help`, a cold `paperbase search` and a no-op re-ingest of an
ingested folder, each beside baselines timed in the same run, as ratios.

    .venv/bin/python bench/cli_speed.py [--data-dir STORE] [--corpus ../shared/corpus] [--repeats 7]
        [--query "dense passage retrieval"] [--baseline-rev 5a2a454 | --baseline-bin OTHER/paperbase] [--json out.json]

Rules:
- Every figure is the wall time of a fresh process (what a user waits for), repeated `--repeats` times in turn with
  the baselines (round-robin, so a burst of other work hits them alike); median and min are printed, with the load
  average before and after. The first round is a warm-up (page cache), not counted.
- `--data-dir` is a store of `--corpus` (made by `paperbase ingest CORPUS --data-dir STORE`); it is copied to a
  temporary folder and only the copy is used. Without it the corpus is ingested into the temporary folder first (the
  no-op re-ingest needs the same paths, so the corpus folder itself is used, never copied).
- Baselines: `python -c pass` (the interpreter), `python -c "import pymilvus"` (the client library alone, which a
  search used to import before it did anything), and with `--baseline-rev REV` (that commit's code, extracted with
  `git archive`, on this environment) or `--baseline-bin` (another paperbase) the same three commands on the same
  store copy.
- A `--baseline-rev` command runs as `python -c "...from cli import main..."` with its tree first on sys.path; this
  checkout runs as users do, through the installed `paperbase` script, whose imports go through the editable
  install's finder: about 0.05 s more CPU per command here, so the ratios lean slightly towards the baseline.
- Targets (issue 32, quiet machine): --help <= 0.4 s, cold search <= 1.5 s, no-op re-ingest <= 1 s.
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
BIN = REPO / ".venv" / "bin"
TARGETS = {"help": 0.4, "search": 1.5, "noop_ingest": 1.0}


def load() -> str:
    return " ".join(Path("/proc/loadavg").read_text().split()[:3])


def timed(cmd: list[str], env: dict[str, str]) -> tuple[float, float]:
    """(wall seconds, CPU seconds: user + system of the process and its children) of one run."""
    t0 = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env, text=True)
    err = proc.stderr.read()
    _, status, usage = os.wait4(proc.pid, 0)
    seconds = time.perf_counter() - t0
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode != 0:
        raise SystemExit(f"{' '.join(cmd)} exited {proc.returncode}: {err.strip()[-2000:]}")
    return seconds, usage.ru_utime + usage.ru_stime


def commands(paperbase: list[str], store: Path, corpus: Path, query: str) -> dict[str, list[str]]:
    return {"help": [*paperbase, "--help"],
            "search": [*paperbase, "search", query, "--data-dir", str(store)],
            "noop_ingest": [*paperbase, "ingest", str(corpus), "--data-dir", str(store)]}


def checkout(rev: str, into: Path) -> list[str]:
    """The `paperbase` command of another commit of this repository, run on this checkout's environment."""
    into.mkdir(parents=True)
    archive = subprocess.run(["git", "-C", str(REPO), "archive", rev], check=True, capture_output=True).stdout
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive, check=True)
    return [str(BIN / "python"), "-c", f"import sys; sys.path.insert(0, {str(into)!r}); sys.argv[0] = 'paperbase'; "
            "from cli import main; main()"]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--data-dir", type=Path, help="an ingested store of --corpus (copied, never written)")
    ap.add_argument("--corpus", type=Path, default=REPO.parent / "shared" / "corpus")
    ap.add_argument("--repeats", type=int, default=7)
    ap.add_argument("--query", default="dense passage retrieval")
    ap.add_argument("--baseline-bin", help="another paperbase executable timed on the same store copy")
    ap.add_argument("--baseline-rev", help="a commit of this repository (e.g. 5a2a454, main before issue 32's start-up "
                    "changes) whose code is timed on the same store copy, on this environment")
    ap.add_argument("--json", type=Path, help="write the figures here too")
    args = ap.parse_args()
    corpus = args.corpus.resolve()
    env = {**os.environ, "PAPERBASE_RUNNER": os.environ.get("PAPERBASE_RUNNER", "")}
    env.pop("PAPERBASE_DATA_DIR", None)
    tmp = Path(tempfile.mkdtemp(prefix="cli-speed-"))
    try:
        store = tmp / "store"
        if args.data_dir:
            shutil.copytree(args.data_dir, store, symlinks=True,
                            ignore=shutil.ignore_patterns("*.port", "LOCK", ".paperbase.lock"))
        else:
            print(f"ingesting {corpus} (no --data-dir given) ...", flush=True)
            subprocess.run([str(BIN / "paperbase"), "ingest", str(corpus), "--data-dir", str(store)], check=True,
                           stdout=subprocess.DEVNULL, env=env)
        python = str(BIN / "python")
        runs: dict[str, list[str]] = {"python -c pass": [python, "-c", "pass"],
                                      "python -c 'import pymilvus'": [python, "-c", "import pymilvus"]}
        runs.update({f"paperbase {k}": v for k, v in commands([str(BIN / "paperbase")], store, corpus, args.query).items()})
        baseline = [args.baseline_bin] if args.baseline_bin else (
            checkout(args.baseline_rev, tmp / "baseline") if args.baseline_rev else None)
        if baseline:
            runs.update({f"baseline {k}": v for k, v in commands(baseline, store, corpus, args.query).items()})
        before = load()
        times: dict[str, list[float]] = {name: [] for name in runs}
        cpu: dict[str, list[float]] = {name: [] for name in runs}
        for round_ in range(args.repeats + 1):
            for name, cmd in runs.items():
                seconds, used = timed(cmd, env)
                if round_:  # round 0 warms the page cache
                    times[name].append(seconds)
                    cpu[name].append(used)
        after = load()
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    med = {name: statistics.median(ts) for name, ts in times.items()}
    med_cpu = {name: statistics.median(ts) for name, ts in cpu.items()}
    base, base_cpu = med["python -c 'import pymilvus'"], med_cpu["python -c 'import pymilvus'"]
    print(f"\nload average before {before}, after {after}; {args.repeats} repeats (+1 warm-up), "
          f"{os.cpu_count()} CPUs; CPU = user + system seconds (the steadier figure on a shared machine)")
    print(f"{'command':30} {'wall med':>8} {'min':>6} {'CPU med':>8} {'wall/pymilvus':>13} {'CPU/pymilvus':>12}  target")
    for name, ts in times.items():
        key = name.split(" ", 1)[1] if name.startswith(("paperbase ", "baseline ")) else None
        target = TARGETS.get(key or "")
        verdict = "" if target is None or name.startswith("baseline") else (
            f"{'met' if med[name] <= target else 'NOT met'} (<= {target:g} s wall)")
        print(f"{name:30} {med[name]:8.3f} {min(ts):6.3f} {med_cpu[name]:8.3f} {med[name] / base:13.2f} "
              f"{med_cpu[name] / base_cpu:12.2f}  {verdict}")
    if baseline:
        for key in TARGETS:
            print(f"{key}: the baseline takes {med[f'baseline {key}'] / med[f'paperbase {key}']:.2f}x this checkout's "
                  f"wall time, {med_cpu[f'baseline {key}'] / med_cpu[f'paperbase {key}']:.2f}x its CPU time")
    if args.json:
        args.json.write_text(json.dumps({"load_before": before, "load_after": after, "repeats": args.repeats,
                                         "seconds": times, "cpu_seconds": cpu, "median": med, "median_cpu": med_cpu,
                                         "targets": TARGETS}, indent=1))


if __name__ == "__main__":
    main()
