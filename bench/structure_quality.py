"""Structure quality over the shared corpora (issue 29): reference counts, section titles, year and venue.

    .venv/bin/python bench/structure_quality.py [--base DIR]

Truth: tests/data/parse_truth/references.json (corpus2) and references_corpus3.json (corpus3: counts read from the
printed lists), sections.json (corpus2 section titles, levels 1-2, scored like tests/parse/test_sections_styles.py),
and the year in each file name (`venue2014_name.pdf`). `--base DIR` also runs the same measures with the code of
another checkout (e.g. `git archive main | tar -x -C /tmp/base`) in a subprocess, so before/after print side by side.
Scanned papers (no text layer) are skipped: they need OCR.
"""
from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
import unicodedata
from collections import Counter
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
SHARED = REPO.parent / "shared"
TRUTH = REPO / "tests" / "data" / "parse_truth"


def _norm(title: str) -> str:
    title = "".join(c for c in unicodedata.normalize("NFKD", title) if not unicodedata.combining(c)).replace("\u00a8", "")
    title = re.sub(r"^\s*(appendix\s+)?([0-9]+(\.[0-9]+)*|[A-Z](\.[0-9]+)*|[IVX]+)\.?\s+(?=\S)", "", title.strip())
    return re.sub(r"[^a-z0-9]+", "", title.lower())


def _f1(pred, truth) -> float:
    p = Counter(_norm(t) for lvl, t in pred if lvl <= 2)
    g = Counter(_norm(t) for lvl, t in truth if lvl <= 2)
    if not p and not g:
        return 1.0
    return 2 * sum((p & g).values()) / (sum(p.values()) + sum(g.values()))


def measure(code: Path) -> dict:
    sys.path.insert(0, str(code))
    from pipeline.parse.options import ParseOptions
    from pipeline.parse.pymupdf import PyMuPDFBackend

    refs = json.loads((TRUTH / "references.json").read_text())
    refs.update(json.loads((TRUTH / "references_corpus3.json").read_text()))
    sections = json.loads((TRUTH / "sections.json").read_text())
    out = {}
    for folder in ("corpus", "corpus2", "corpus3"):
        for pdf in sorted((SHARED / folder).glob("*.pdf")):
            if pdf.name.startswith("scanned"):
                continue
            views = ["metadata"] + (["reference"] if pdf.name in refs else []) + (["sections"] if pdf.name in sections else [])
            paper = PyMuPDFBackend().parse(pdf, ParseOptions(), views=views)
            row = {"year_ok": paper.metadata.pub_year == int(re.search(r"(19|20)\d\d", pdf.stem)[0]),
                   "venue": paper.metadata.conference_abbreviation}
            if pdf.name in refs:
                row["ref_err"] = abs(len(paper.references) - refs[pdf.name]) / refs[pdf.name]
            if pdf.name in sections:
                row["sect_f1"] = _f1([(s.level, s.title) for s in paper.sections], sections[pdf.name])
            out[f"{folder}/{pdf.name}"] = row
    return out


def summary(rows: dict) -> dict:
    errs = [r["ref_err"] for r in rows.values() if "ref_err" in r]
    f1s = [r["sect_f1"] for r in rows.values() if "sect_f1" in r]
    c12 = [r for k, r in rows.items() if not k.startswith("corpus3/")]
    return {"ref_err_mean": sum(errs) / len(errs), "ref_err_max": max(errs), "ref_papers_over_10pct": sum(e > 0.10 for e in errs),
            "sect_f1_mean": sum(f1s) / len(f1s), "year_ok_corpus12": sum(r["year_ok"] for r in c12) / len(c12),
            "year_ok_all": sum(r["year_ok"] for r in rows.values()) / len(rows),
            "venue_arxiv_or_uncategorized": sum(r["venue"] in ("arxiv", "uncategorized") for r in rows.values())}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--base", help="another checkout's root, measured the same way in a subprocess")
    ap.add_argument("--json-only", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.json_only:
        print(json.dumps(measure(Path(args.base) if args.base else REPO)))
        return
    rows = measure(REPO)
    base = None
    if args.base:
        res = subprocess.run([sys.executable, __file__, "--json-only", "--base", args.base], capture_output=True, text=True, check=True)
        base = json.loads(res.stdout.strip().splitlines()[-1])
    print(f"{'paper':58}{'refErr':>8}{'sectF1':>8}{'year':>6}  venue" + ("   (base: refErr sectF1 year venue)" if base else ""))
    for name, r in rows.items():
        line = f"{name[:57]:58}{r.get('ref_err', float('nan')):8.2f}{r.get('sect_f1', float('nan')):8.2f}{'ok' if r['year_ok'] else 'XX':>6}  {r['venue'][:28]:28}"
        if base and name in base:
            b = base[name]
            line += f" | {b.get('ref_err', float('nan')):.2f} {b.get('sect_f1', float('nan')):.2f} {'ok' if b['year_ok'] else 'XX'} {b['venue'][:20]}"
        print(line)
    print("after:", json.dumps(summary(rows)))
    if base:
        print("base: ", json.dumps(summary(base)))


if __name__ == "__main__":
    main()
