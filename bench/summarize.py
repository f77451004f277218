"""Summarizer throughput against the fake OpenAI-compatible server with a fixed per-request latency.

    .venv/bin/python bench/summarize.py [--items 48] [--latency 0.2] [--concurrency 1 4 16]

Prints items/s at each concurrency (fresh cache each), the same with a warm cache (zero requests), the offline
backend, and a baseline from the same run: upstream's pattern (sequential calls with a 1 s sleep between them).
"""
from __future__ import annotations

import argparse
import sys
import tempfile
import time
import uuid
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from pipeline.config import Settings  # noqa: E402
from pipeline.store import Store  # noqa: E402
from pipeline.summarize import summarize_papers  # noqa: E402
from pipeline.summarize.testing import FakeOpenAI  # noqa: E402

TEXT = ("We study retrieval over scientific papers with item {i}. The method indexes pages, sections, tables and figures "
        "and answers questions by combining SQL filters with vector search. Results on item {i} improve recall. ")


def make_db(data_dir: Path, n: int) -> Settings:
    """One paper with n pages of distinct text (distinct cache keys): n page summaries to fill."""
    store = Store(data_dir / "paperbase.duckdb")
    store.init()
    paper = str(uuid.uuid4())
    with store.writing() as con:
        con.execute("INSERT INTO metadata (paper_id, title, abstract, tldr, tags) VALUES (?, 'Bench', 'x', 'x', ['x'])", [paper])
        con.executemany("INSERT INTO pages (page_id, page_number, page_content, ref_paper_id) VALUES (?, ?, ?, ?)",
                        [[str(uuid.uuid4()), i + 1, TEXT.format(i=i) * 3, paper] for i in range(n)])
    return Settings(data_dir=data_dir)


def run(settings: Settings, **summarize) -> tuple[float, int, int]:
    settings.summarize = settings.summarize.model_validate({**settings.summarize.model_dump(), **summarize})
    t0 = time.perf_counter()
    report = summarize_papers(settings)
    seconds = time.perf_counter() - t0
    done = report.total("filled") + report.total("cached")
    return seconds, done, report.requests


def upstream_baseline(base_url: str, n: int) -> tuple[float, int]:
    """Upstream's loop: one blocking request per item, then time.sleep(1)."""
    import httpx

    body = {"model": "gpt-4o-mini", "messages": [{"role": "user", "content": "Summarize: x"}]}
    t0 = time.perf_counter()
    with httpx.Client(base_url=base_url + "/") as client:
        for _ in range(n):
            client.post("chat/completions", json=body).raise_for_status()
            time.sleep(1.0)
    return time.perf_counter() - t0, n


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--items", type=int, default=48)
    ap.add_argument("--latency", type=float, default=0.2)
    ap.add_argument("--concurrency", type=int, nargs="+", default=[1, 4, 16])
    ap.add_argument("--baseline-items", type=int, default=5)
    args = ap.parse_args()
    rows: list[tuple[str, int, int, float]] = []
    with FakeOpenAI(latency=args.latency) as fake, tempfile.TemporaryDirectory() as tmp:
        common = {"backend": "openai", "base_url": fake.base_url, "model": "fake"}
        s, n = upstream_baseline(fake.base_url, args.baseline_items)
        rows.append(("upstream: sequential + 1 s sleep", n, n, s))
        for c in args.concurrency:
            settings = make_db(Path(tmp) / f"c{c}", args.items)
            s, n, req = run(settings, concurrency=c, **common)
            rows.append((f"openai backend, concurrency {c}", n, req, s))
            if c == args.concurrency[-1]:
                with Store(settings.duckdb_path).writing() as con:
                    con.execute("UPDATE pages SET page_summary = NULL")
                s, n, req = run(settings, concurrency=c, **common)
                rows.append((f"rerun, warm cache (concurrency {c})", n, req, s))
        settings = make_db(Path(tmp) / "offline", args.items)
        s, n, req = run(settings, backend="offline")
        rows.append(("offline backend", n, req, s))
    print(f"fake server latency {args.latency * 1000:.0f} ms, {args.items} items per run")
    print(f"{'run':<40} {'items':>6} {'requests':>9} {'seconds':>8} {'items/s':>8}")
    for name, n, req, s in rows:
        print(f"{name:<40} {n:>6} {req:>9} {s:>8.2f} {n / s:>8.1f}")


if __name__ == "__main__":
    main()
