"""Builds the typeset test PDFs of tests/parse/test_sections_styles.py (needs pdflatex; the PDFs are committed).

    python tests/data/headings/build.py

three_levels / unnumbered / running come from the .tex files beside this script; invisible.pdf is drawn with
PyMuPDF (visible text plus render-mode-3 text: a hidden LaTeX source over an equation and an OCR-like layer)."""
from __future__ import annotations

import subprocess
import tempfile
from pathlib import Path

import pymupdf

HERE = Path(__file__).resolve().parent


def latex(name: str) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        for _ in range(2):  # twice: \pageref{LastPage}
            subprocess.run(["pdflatex", "-interaction=nonstopmode", "-output-directory", tmp, str(HERE / f"{name}.tex")],
                           check=True, capture_output=True)
        (HERE / f"{name}.pdf").write_bytes((Path(tmp) / f"{name}.pdf").read_bytes())


def invisible() -> None:
    doc = pymupdf.open()
    for n in range(2):
        page = doc.new_page()
        page.insert_text((72, 80), "Introduction" if n == 0 else "Discussion", fontsize=14, fontname="hebo")
        y = 110
        for k in range(12):
            page.insert_text((72, y), f"This is visible body text, line {k} of a paragraph that runs on.", fontsize=10)
            y += 14
        page.insert_text((150, y + 20), "E = m c", fontsize=12, fontname="tiit")
        # hidden LaTeX source behind the equation, and an invisible OCR-like layer over the body
        page.insert_text((150, y + 20), "HIDDENSOURCE \\frac{hidden}{E} = mc^2", fontsize=12, render_mode=3)
        page.insert_text((72, 110), "HIDDENSOURCE ocr layer words", fontsize=10, render_mode=3)
    doc.save(HERE / "invisible.pdf", garbage=3, deflate=True)


if __name__ == "__main__":
    for name in ("three_levels", "unnumbered", "running"):
        latex(name)
    invisible()
