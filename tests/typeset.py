"""What the typesetting matrices share (tests/mathfonts, bibstyles, headings, authors: generate.py in each): one
LaTeX paper compiled in a scratch folder with a fixed date (so a rerun gives the same PDF), and a matrix's truth file
rewritten for the entries named. Only their generators use it; the tests read the PDFs and truth kept in the
repository and need no TeX."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

FIXED_DATE = {"SOURCE_DATE_EPOCH": "1764000000", "FORCE_SOURCE_DATE": "1"}


def _run(cmd: list[str], folder: Path, check: bool = True) -> None:
    done = subprocess.run(cmd, cwd=folder, capture_output=True, text=True, errors="replace",
                          env={**os.environ, **FIXED_DATE})
    if check and done.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)} failed:\n{done.stdout[-1500:]}")


@contextmanager
def typeset(tex: str, engine: str = "pdflatex", bib: str | None = None, runs: int = 2,
            halt: bool = True) -> Iterator[Path]:
    """The scratch folder holding paper.pdf (and the engine's other outputs) typeset from `tex`; with `bib`, one run,
    BibTeX, then `runs` more. `halt`: stop at the first error (off for BibTeX styles whose macros only warn)."""
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        (folder / "paper.tex").write_text(tex)
        cmd = [engine, "-interaction=nonstopmode", *(["-halt-on-error"] if halt else []), "paper.tex"]
        if bib is not None:
            (folder / "paper.bib").write_text(bib)
            _run(cmd, folder)
            _run(["bibtex", "paper"], folder, check=False)
        for _ in range(runs):
            _run(cmd, folder)
        yield folder


def keep(folder: Path, dest: Path) -> None:
    dest.parent.mkdir(parents=True, exist_ok=True)
    shutil.copy(folder / "paper.pdf", dest)


def regenerate(here: Path, everything: list[str], generate: Callable[[str], dict]) -> None:
    """Typeset the entries named on the command line (all when none) and rewrite their truth in here/truth.json."""
    names = sys.argv[1:] or everything
    truth_path = here / "truth.json"
    truth = json.loads(truth_path.read_text()) if truth_path.exists() else {}
    for name in names:
        try:
            truth[name] = generate(name)
            print(name, "ok")
        except RuntimeError as exc:
            print(name, "FAILED", str(exc)[:300])
    truth_path.write_text(json.dumps(dict(sorted(truth.items())), indent=1, ensure_ascii=False) + "\n")
