"""Text quality of the parse: issue 27's defect table over corpus, corpus2 and the layout zoo, before and after.

    .venv/bin/python bench/text_quality.py [--sets corpus corpus2 zoo] [--workers 2] [--json OUT] [--before FILE]

Per set, per 100k characters of chunk text: words split by a line-break hyphen, detached spacing accents,
mathematical alphanumerics, U+FFFD and soft hyphens (definitions in pipeline/parse/quality.py); the share of
`equations` rows that are not plausible LaTeX (same module); on the zoo, table TEDS (tests/zoo/tables.py) against the
tables the generator typeset; tables stored as rasters; the Markdown export (report/export.py) of each paper's rows: papers without an abstract,
without exactly one references list, with a rendering accident (tests/report/roundtrip.py). `--before FILE` (a `--json` written by an earlier run, e.g.
`bench/results/text_quality_before.json`) prints both side by side. That file was measured on the parser before issue 27
(commit 5c1cde5) with this script and today's definitions: `git archive 5c1cde5 | tar -x -C /tmp/base`, copy this file,
pipeline/parse/quality.py, schemas/content_marks.py, tests/zoo/tables.py and tests/report/roundtrip.py into it, link
../shared beside it, and run it there with `--json`.
`--papers` lists every paper's figures too.
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

SETS = {"corpus": REPO.parent / "shared" / "corpus", "corpus2": REPO.parent / "shared" / "corpus2",
        "zoo": REPO / "tests" / "zoo" / "papers"}
PER = 100_000


def measure(path: str) -> dict:
    """Parse one PDF and count what the table reports (runs in a worker process)."""
    sys.path.insert(0, str(REPO))
    from pipeline.parse import ParseOptions, parse_pdf
    from pipeline.parse.quality import latex_problem, text_defects
    from tests.zoo.tables import is_raster_html, zoo_teds

    t0 = time.perf_counter()
    try:
        paper = parse_pdf(path, ParseOptions())
    except Exception as exc:  # reported, never stops the run
        return {"path": path, "error": f"{type(exc).__name__}: {exc}"}
    text = "\n".join(c.text for c in paper.chunks)
    problems = Counter(p for p in (latex_problem(e.latex) for e in paper.equations) if p)
    out = {"path": path, "pages": len(paper.pages), "seconds": time.perf_counter() - t0, "chars": len(text),
           "defects": dict(text_defects(text)), "equations": len(paper.equations),
           "implausible": sum(problems.values()), "problems": dict(problems), "tables": len(paper.tables),
           "raster_tables": sum(1 for t in paper.tables if is_raster_html(t.html)),
           "empty_unflagged": sum(1 for t in paper.tables if "<td" not in t.html and "<th" not in t.html
                                  and not is_raster_html(t.html))}
    out.update(export_check(paper))
    truth = Path(path).parent / "truth.json"
    if truth.exists():
        out["teds"] = zoo_teds(paper, json.loads(truth.read_text()))
    return out


def export_check(paper) -> dict:
    """The Markdown export of the paper's rows (as the store would hold them): abstract present, one references
    list, rendering accidents (tests/report/roundtrip.py)."""
    from pipeline.store.rows import paper_rows
    from report.export import to_markdown
    from report.load import PaperRows
    from tests.report.roundtrip import accidents

    rows = paper_rows(paper)
    markdown = to_markdown(PaperRows(paper.paper_id, rows))
    return {"export_abstract": "## Abstract" in markdown and bool(paper.metadata.abstract.strip()),
            "export_references": markdown.count("\n## References\n"), "references": len(paper.references),
            "export_accidents": accidents(markdown, rows)}


def summarise(rows: list[dict]) -> dict:
    ok = [r for r in rows if "error" not in r]
    chars = sum(r["chars"] for r in ok) or 1
    defects = Counter()
    for r in ok:
        defects.update(r["defects"])
    teds = [s for r in ok for s in r.get("teds", [])]
    eqs = sum(r["equations"] for r in ok)
    return {"papers": len(ok), "failed": len(rows) - len(ok), "pages": sum(r["pages"] for r in ok), "chars": chars,
            **{k: defects[k] * PER / chars for k in defects},
            "equations": eqs, "implausible_pct": 100 * sum(r["implausible"] for r in ok) / max(eqs, 1),
            "tables": sum(r["tables"] for r in ok), "raster_tables": sum(r["raster_tables"] for r in ok),
            "empty_unflagged": sum(r["empty_unflagged"] for r in ok),
            "teds": sum(teds) / len(teds) if teds else None, "teds_tables": len(teds),
            "export_no_abstract": sum(1 for r in ok if "export_abstract" in r and not r["export_abstract"]),
            "export_refs_not_one": sum(1 for r in ok if "export_references" in r
                                       and r["export_references"] != (1 if r["references"] else 0)),
            "export_accidents": sum(1 for r in ok if r.get("export_accidents"))}


COLUMNS = [("split", "split"), ("accent", "accent"), ("math_alnum", "mathAl"), ("fffd", "FFFD"),
           ("soft_hyphen", "shy"), ("implausible_pct", "badEq%"), ("teds", "TEDS"), ("raster_tables", "raster"),
           ("empty_unflagged", "emptyT"), ("export_no_abstract", "noAbs"), ("export_refs_not_one", "refs!=1"),
           ("export_accidents", "mdAcc")]


def fmt(v) -> str:
    if v is None:
        return "-"
    return f"{v:d}" if isinstance(v, int) else f"{v:.2f}"


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--sets", nargs="*", default=list(SETS))
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--json", help="write {set: {summary, papers}} here")
    ap.add_argument("--before", help="a --json of an earlier run to print beside this one")
    ap.add_argument("--papers", action="store_true", help="print every paper's row")
    args = ap.parse_args()

    results: dict[str, dict] = {}
    t0 = time.perf_counter()
    with ProcessPoolExecutor(max(1, args.workers)) as pool:
        for name in args.sets:
            folder = SETS[name]
            paths = sorted(str(p) for p in folder.rglob("*.pdf")) if folder.is_dir() else []
            if not paths:
                print(f"({name}: no PDFs under {folder}, skipped)")
                continue
            rows = list(pool.map(measure, paths))
            results[name] = {"summary": summarise(rows), "papers": rows}
    before = json.loads(Path(args.before).read_text()) if args.before else {}

    print(f"per {PER:,} characters of chunk text; badEq% = implausible equation rows; TEDS = zoo tables against the "
          "typeset truth; raster = tables flagged as images; emptyT = empty tables without the flag")
    print(f"{'set':18}{'papers':>7}{'chars':>10}" + "".join(f"{label:>9}" for _, label in COLUMNS))
    for name, res in results.items():
        for tag, summary in (("before", before.get(name, {}).get("summary")), ("now", res["summary"])):
            if summary is None:
                continue
            print(f"{name + ' ' + tag:18}{summary['papers']:>7}{summary['chars']:>10}"
                  + "".join(f"{fmt(summary.get(k)):>9}" for k, _ in COLUMNS))
        if args.papers:
            for r in res["papers"]:
                if "error" in r:
                    print(f"  {Path(r['path']).name}: {r['error']}")
                    continue
                per = {k: v * PER / max(r["chars"], 1) for k, v in r["defects"].items()}
                teds = r.get("teds")
                print(f"  {Path(r['path']).parent.name if name == 'zoo' else Path(r['path']).stem:40.40}"
                      + "".join(f"{fmt(per[k]):>8}" for k in ("split", "accent", "math_alnum", "fffd", "soft_hyphen"))
                      + f"  eq {r['implausible']}/{r['equations']} {r['problems'] or ''}"
                      + (f"  teds {', '.join(f'{t:.2f}' for t in teds)}" if teds else "")
                      + (f"  export: {'' if r.get('export_abstract') else 'no abstract; '}"
                         f"{r.get('export_references')} references lists; {r.get('export_accidents')}"
                         if r.get("export_accidents") or not r.get("export_abstract")
                         or r.get("export_references") != (1 if r.get("references") else 0)
                         else ""))
    print(f"({time.perf_counter() - t0:.0f} s, {args.workers} workers)")
    if args.json:
        Path(args.json).parent.mkdir(parents=True, exist_ok=True)
        Path(args.json).write_text(json.dumps(results, indent=1))


if __name__ == "__main__":
    main()
