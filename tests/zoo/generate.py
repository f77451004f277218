"""Typeset the layout zoo and write each paper's truth.

    .venv/bin/python tests/zoo/generate.py [STYLE ...]      # all styles when none is named

For every style in `styles.py`: writes `papers/<style>/paper.tex` (+ `paper.bib` for BibTeX styles), runs
pdflatex (or the style's `engine`) / bibtex / pdflatex x2 with a fixed SOURCE_DATE_EPOCH (same date on every run), and writes `truth.json` from
what the generator knows (content model + the style's printing conventions); the only facts taken from the TeX run are
the pages holding display equations (each `equation` writes the physical page it is shipped on to `paper.zoo`) and the
page count. A style with `invisible_source` also prints each equation's LaTeX source as invisible text (truth key
`invisible`). It then checks the truth against the PDF's text (every heading, caption and running string must be
printed) and fails loudly when one is not, so a wrong convention in `styles.py` cannot produce silent wrong truth.
Needs TeX Live (pdflatex, bibtex, the classes listed in styles.py; lualatex from `texlive-luatex` for the LuaLaTeX styles; apacite from `texlive-bibtex-extra` for the APA styles);
the tests only read the committed outputs.
"""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from content import ABSTRACT, AUTHORS, EQUATIONS, KEYWORDS, TITLE, appendix, body, references  # noqa: E402
from render import document  # noqa: E402
from scoring import key, line_starts, printed_at_line_start, printed_text  # noqa: E402
from styles import STYLES  # noqa: E402

PAPERS = HERE / "papers"
EPOCH = "1795521600"  # 2026-11-24 12:00 UTC: \today and the PDF dates are this on every run
KEEP = {"paper.tex", "paper.bib", "paper.bbl", "paper.pdf", "truth.json"}


def run(cmd: list[str], cwd: Path) -> None:
    env = {**os.environ, "SOURCE_DATE_EPOCH": EPOCH, "FORCE_SOURCE_DATE": "1"}
    done = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True, errors="replace", timeout=300)
    if done.returncode != 0 and cmd[0] != "bibtex":
        log = (cwd / "paper.log").read_text(errors="replace") if (cwd / "paper.log").exists() else done.stdout
        raise RuntimeError(f"{' '.join(cmd)} failed in {cwd}:\n" + log[-3000:])


def compile_pdf(folder: Path, bibtex: bool, engine: str = "pdflatex") -> None:
    run([engine, "-interaction=nonstopmode", "-halt-on-error", "paper.tex"], folder)
    if bibtex:
        run(["bibtex", "paper"], folder)
    for _ in range(2):
        run([engine, "-interaction=nonstopmode", "-halt-on-error", "paper.tex"], folder)


def pdf_text(path: Path) -> tuple[int, str]:
    import pymupdf

    with pymupdf.open(path) as doc:
        return doc.page_count, printed_text(doc)


def check(truth: dict, text: str) -> list[str]:
    """Strings the truth says are printed but the PDF does not print (compared as `scoring.key`): headings and
    captions must start a line (so a missing number prefix is caught), the rest may sit anywhere."""
    hay, starts = key(text), line_starts(text)
    anywhere = [truth["title"], *truth["authors"], *truth["running"], *truth.get("invisible", [])]
    at_start = [*(s["title"] for s in truth["sections"]), *(c["printed"] for c in truth["tables"] + truth["figures"])]
    return ([w for w in anywhere if key(w) not in hay]
            + [w for w in at_start if not printed_at_line_start(w, starts)])


def generate(make_style) -> dict:
    style = make_style()
    folder = PAPERS / style.name
    if folder.exists():
        shutil.rmtree(folder)
    folder.mkdir(parents=True)
    refs = references(style.refs)
    tex, bib, headings, captions = document(style, body([r["key"] for r in refs]), refs, appendix())
    (folder / "paper.tex").write_text(tex)
    if bib is not None:
        (folder / "paper.bib").write_text(bib)
    compile_pdf(folder, bib is not None, style.engine)
    eq_pages = sorted({int(line.split()[1]) for line in (folder / "paper.zoo").read_text().splitlines()
                       if line.startswith("eqpage")})
    pages, text = pdf_text(folder / "paper.pdf")
    truth = {
        "style": style.name,
        "description": style.description,
        "pdf": "paper.pdf",
        "pages": pages,
        "title": style.title or TITLE,
        "authors": style.authors or [a.name for a in AUTHORS],
        "abstract": ABSTRACT,
        "keywords": KEYWORDS,
        "sections": headings,
        "tables": captions["table"],
        "figures": captions["figure"],
        "references": len(refs),
        "equations": sum(1 for line in tex.splitlines() if line.startswith(r"\begin{equation}")),
        "equation_pages": eq_pages,
        "running": style.running,
        **({"invisible": [eq.latex for eq in EQUATIONS.values()]} if style.invisible_source else {}),
    }
    missing = check(truth, text)
    if missing:
        raise RuntimeError(f"{style.name}: truth strings not found in the PDF text: {missing}")
    (folder / "truth.json").write_text(json.dumps(truth, indent=1, ensure_ascii=False) + "\n")
    for path in folder.iterdir():
        if path.name not in KEEP:
            path.unlink()
    return truth


def main(names: list[str]) -> None:
    chosen = [s for s in STYLES if not names or s.__name__ in names]
    if names and len(chosen) != len(names):
        sys.exit(f"unknown style among {names}; known: {[s.__name__ for s in STYLES]}")
    for make_style in chosen:
        truth = generate(make_style)
        size = (PAPERS / truth["style"] / "paper.pdf").stat().st_size / 1024
        print(f"{truth['style']:18} {truth['pages']:2} pages {size:6.0f} KiB  {len(truth['sections'])} headings  "
              f"{len(truth['tables'])} tables  {len(truth['figures'])} figures  {truth['references']} refs  "
              f"equations on pages {truth['equation_pages']}")


if __name__ == "__main__":
    main(sys.argv[1:])
