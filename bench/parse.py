"""Parse throughput: the full multiview parse vs raw `page.get_text()` on the same files, in the same run.

    .venv/bin/python bench/parse.py [FOLDER] [--workers N]

Prints pages/s for both, their ratio, per-view seconds, peak RSS (main process and worker processes), and the CPU
seconds the parse used (this process and its workers, from getrusage). On a shared machine the wall-clock figures move
with the load; pages per CPU-second barely does, so `projected on N idle cores` (N x pages / CPU seconds) is the figure
to compare with a target stated for an idle machine.
"""
from __future__ import annotations

import argparse
import resource
import sys
import time
from collections import defaultdict
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

# The pipeline is imported inside the functions, not here: a spawned parser process runs this script's top level
# again (as `__mp_main__`), and the `paperbase` CLI, whose workers these stand for, imports next to nothing at its
# top level. Importing pipeline.ingest here cost every parser process ~1.4 s of CPU (DuckDB, pydantic-settings)
# that `paperbase ingest` does not pay.


def raw_get_text(paths: list[Path]) -> tuple[int, float]:
    import pymupdf

    t0 = time.perf_counter()
    pages = 0
    for path in paths:
        with pymupdf.open(path) as doc:
            for page in doc:
                page.get_text()
                pages += 1
    return pages, time.perf_counter() - t0


def multiview(paths: list[Path], workers: int) -> tuple[int, float, dict[str, float], list[str]]:
    from pipeline.ingest import threaded
    from pipeline.parse import ParseOptions
    from pipeline.workers import ParserPool

    views: dict[str, float] = defaultdict(float)
    failures: list[str] = []
    pages = 0

    t0 = time.perf_counter()
    cpu0, cpu_main0 = _cpu_seconds(), _cpu_seconds(children=False)
    # the runner's own pool and executor (what `ingest` uses), minus the DuckDB writes
    with ParserPool(ParseOptions(), workers) as pool:
        for path, outcome in threaded(workers)(lambda p: pool.parse(str(p)), paths):
            paper, error, _ = outcome
            if paper is None:
                failures.append(f"{Path(path).name}: {error}")
                continue
            pages += len(paper.pages)
            for name, seconds in paper.timings.items():
                views[name] += seconds
    views["__cpu__"] = _cpu_seconds() - cpu0  # the pool has exited, so its workers' CPU time is counted
    views["__cpu_main__"] = _cpu_seconds(children=False) - cpu_main0
    return pages, time.perf_counter() - t0, dict(views), failures


def _cpu_seconds(children: bool = True) -> float:
    """User + system CPU seconds of this process and (children=True) of its children that have ended (the pool's
    workers)."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    seconds = own.ru_utime + own.ru_stime
    if children:
        kids = resource.getrusage(resource.RUSAGE_CHILDREN)
        seconds += kids.ru_utime + kids.ru_stime
    return seconds


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("folder", nargs="?", default=str(REPO.parent / "shared" / "corpus"))
    ap.add_argument("--workers", type=int, default=2)
    args = ap.parse_args()
    from pipeline.ingest import scan

    paths = scan(Path(args.folder))
    if not paths:
        sys.exit(f"no PDFs under {args.folder}")
    paths.sort(key=lambda p: p.stat().st_size, reverse=True)  # the order `ingest` hands files to its parsers

    raw_pages, raw_s = raw_get_text(paths)
    mv_pages, mv_s, views, failures = multiview(paths, args.workers)
    cpu_s, cpu_main_s = views.pop("__cpu__"), views.pop("__cpu_main__")
    rss_main = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    rss_workers = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024

    print(f"corpus: {len(paths)} PDFs, {raw_pages} pages ({args.folder})")
    print(f"{'':28}{'seconds':>10}{'pages/s':>10}")
    print(f"{'raw page.get_text()':28}{raw_s:>10.2f}{raw_pages / raw_s:>10.1f}")
    print(f"{f'multiview parse ({args.workers} workers)':28}{mv_s:>10.2f}{mv_pages / mv_s:>10.1f}")
    print(f"ratio: multiview takes {mv_s / raw_s:.1f}x the time of raw text extraction "
          f"({(mv_pages / mv_s) / (raw_pages / raw_s):.3f} of its throughput)")
    print(f"CPU: {cpu_s:.1f} s for {mv_pages} pages ({mv_pages / cpu_s:.1f} pages per CPU-second); projected on "
          f"{args.workers} idle cores: {args.workers * mv_pages / cpu_s:.1f} pages/s (main process {cpu_main_s:.1f} s, "
          f"parser processes {cpu_s - cpu_main_s:.1f} s)")
    print("per-view wall seconds (summed over workers): " + ", ".join(f"{k} {v:.2f}" for k, v in sorted(views.items(), key=lambda kv: -kv[1])))
    print(f"peak RSS: main {rss_main:.0f} MiB, largest worker {rss_workers:.0f} MiB")
    if failures:
        print("failures:\n  " + "\n  ".join(failures))


if __name__ == "__main__":
    main()
