"""Backend comparison: PyMuPDF vs MinerU 4 (flash tier) vs the merged paper (tables from MinerU, the rest from
PyMuPDF), per corpus PDF, measured in the same run.

    .venv/bin/python bench/compare_backends.py [FOLDER] [--limit N] [--json OUT]

Each (backend, PDF) parse runs in a fresh spawned process (so peak RSS is that parse's own, imports included)
one at a time. The merged row is what `parse_pdf` does with `views = {tables = "mineru"}`: both backends run in
one process and `merge` combines them, so its seconds are the sum of the two and its RSS the larger of the two
(the merge itself takes milliseconds). Columns: pages, seconds, pages/s, peak RSS (MiB), rows per view (sections,
tables, figures, equations, references), tables whose HTML has <sup>/<sub>, and on the mineru row the agreement
with PyMuPDF: table captions (same "Table n" labels / all labels), section titles (same normalised titles / all),
references (counts). Totals close the table.
"""
from __future__ import annotations

import argparse
import json
import multiprocessing
import re
import resource
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

BACKENDS = ("pymupdf", "mineru")


def _parse(backend: str, path: str):
    """In a fresh process: parse every view with one backend; the paper, seconds and this process's peak RSS."""
    from pipeline.parse import ParseOptions, parse_pdf

    t0 = time.perf_counter()
    try:
        paper, error = parse_pdf(path, ParseOptions(backend=backend)), None
    except Exception as exc:  # a failed file is a row too
        paper, error = None, f"{type(exc).__name__}: {exc}"
    return paper, error, time.perf_counter() - t0, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def _labels(paper, pattern: str = r"^(Table\s*\d+)") -> set[str]:
    return {m.group(1).replace(" ", "") for t in paper.tables if (m := re.match(pattern, t.caption))}


def _norm(title: str) -> str:
    return re.sub(r"[^a-z0-9]+", " ", title.lower()).strip()


def _agree(a: set, b: set) -> str:
    return f"{len(a & b)}/{len(a | b)}" if a | b else "-"


def _row(name: str, label: str, paper, seconds: float, rss: float, extra: str = "") -> dict:
    sup = sum(1 for t in paper.tables if "<sup>" in t.html or "<sub>" in t.html)
    pages = len(paper.pages)
    return {"pdf": name, "backend": label, "pages": pages, "s": seconds, "pps": pages / seconds if seconds else 0,
            "rss": rss, "sect": len(paper.sections), "tabs": len(paper.tables), "figs": len(paper.figures),
            "eqs": len(paper.equations), "refs": len(paper.references), "supsub": sup, "agree": extra}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("folder", nargs="?", default=str(REPO.parent / "shared" / "corpus"))
    ap.add_argument("--limit", type=int, default=0, help="only the first N PDFs")
    ap.add_argument("--json", type=Path, help="also write the rows as JSON here")
    args = ap.parse_args()
    paths = sorted(Path(args.folder).glob("*.pdf"))[: args.limit or None]
    if not paths:
        sys.exit(f"no PDFs under {args.folder}")

    from pipeline.parse import ParseOptions
    from pipeline.parse.chunking import extract_chunks
    from pipeline.parse.merge import merge

    rows: list[dict] = []
    failures: list[str] = []
    merged_opts = ParseOptions(views={"tables": "mineru"})
    ctx = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(1, mp_context=ctx, max_tasks_per_child=1) as pool:
        for path in paths:
            got = {b: pool.submit(_parse, b, str(path)).result() for b in BACKENDS}
            if any(g[0] is None for g in got.values()):
                failures += [f"{path.name} [{b}]: {g[1]}" for b, g in got.items() if g[0] is None]
                continue
            (pm, _, pm_s, pm_rss), (mu, _, mu_s, mu_rss) = got["pymupdf"], got["mineru"]
            caps = _agree(_labels(pm), _labels(mu))
            secs = _agree({_norm(s.title) for s in pm.sections}, {_norm(s.title) for s in mu.sections})
            rows.append(_row(path.name, "pymupdf", pm, pm_s, pm_rss))
            rows.append(_row(path.name, "mineru-flash", mu, mu_s, mu_rss,
                             f"captions {caps}, sections {secs}, refs {len(pm.references)}/{len(mu.references)}"))
            t0 = time.perf_counter()
            both = merge({"pymupdf": pm, "mineru": mu}, merged_opts)
            both.chunks = extract_chunks(both.pages, merged_opts)
            rows.append(_row(path.name, "merged", both, pm_s + mu_s + time.perf_counter() - t0, max(pm_rss, mu_rss)))
            print(f"{path.name}: done", file=sys.stderr, flush=True)

    head = f"| {'pdf':34} | {'backend':12} | pages | {'s':>6} | pages/s | RSS MiB | sect | tabs | figs | eqs | refs | sup/sub tabs | agreement with pymupdf |"
    print(head)
    print("|" + "|".join("-" * (len(c)) for c in head.split("|")[1:-1]) + "|")
    for r in rows:
        print(f"| {r['pdf'][:34]:34} | {r['backend']:12} | {r['pages']:5} | {r['s']:6.1f} | {r['pps']:7.2f} | "
              f"{r['rss']:7.0f} | {r['sect']:4} | {r['tabs']:4} | {r['figs']:4} | {r['eqs']:3} | {r['refs']:4} | "
              f"{r['supsub']:12} | {r['agree']} |")
    for label in ("pymupdf", "mineru-flash", "merged"):
        sel = [r for r in rows if r["backend"] == label]
        if not sel:
            continue
        pages, secs = sum(r["pages"] for r in sel), sum(r["s"] for r in sel)
        sums = {k: sum(r[k] for r in sel) for k in ("sect", "tabs", "figs", "eqs", "refs", "supsub")}
        print(f"| {'TOTAL (' + str(len(sel)) + ' PDFs)':34} | {label:12} | {pages:5} | {secs:6.1f} | {pages / secs:7.2f} | "
              f"{max(r['rss'] for r in sel):7.0f} | {sums['sect']:4} | {sums['tabs']:4} | {sums['figs']:4} | "
              f"{sums['eqs']:3} | {sums['refs']:4} | {sums['supsub']:12} | |")
    if failures:
        print("failures:\n  " + "\n  ".join(failures))
    if args.json:
        args.json.write_text(json.dumps({"rows": rows, "failures": failures}, indent=1))


if __name__ == "__main__":
    main()
