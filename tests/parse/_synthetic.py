"""A small PDF drawn with PyMuPDF, so backend tests run without the corpus: a title, authors, an abstract, two
numbered headings, a table caption with a ruled table, a figure caption with a drawn rectangle, and a reference
list."""
from __future__ import annotations

from pathlib import Path

import pymupdf

TITLE = "Synthetic Papers for Testing Parse Backends"
BODY = ("This sentence is ordinary body text of the synthetic paper and it runs across the line.",
        "Another line of body text follows here so that the paragraph looks like running prose.",
        "A third line closes the paragraph with a few more words about the synthetic method.")


def build_pdf(path: Path) -> Path:
    doc = pymupdf.open()
    page = doc.new_page()  # 595 x 842 pt
    y = 90.0

    def line(text: str, size: float = 10, bold: bool = False, x: float = 72) -> None:
        nonlocal y
        page.insert_text((x, y), text, fontname="tibo" if bold else "tiro", fontsize=size)
        y += size * 1.4

    line(TITLE, 17, True)
    y += 6
    line("Ada Lovelace and Alan Turing", 11, True, 200)
    y += 12
    line("Abstract", 12, True)
    line("We describe a synthetic paper that exercises every view of a parse backend in a single page.")
    line("It has headings, a table, a figure and a short list of references for the contract test.")
    y += 10
    line("1 Introduction", 12, True)
    for text in BODY:
        line(text)
    y += 10
    line("2 Method", 12, True)
    for text in BODY:
        line(text)
    y += 12
    line("Table 1: Accuracy of the two synthetic systems.", 9, x=180)
    y -= 4
    top = y
    page.draw_line((120, y), (420, y), width=0.8)
    y += 12
    for cells in (("System", "Accuracy", "F1"), None, ("Baseline", "71.2", "68.0"), ("Ours", "80.5", "77.9")):
        if cells is None:
            page.draw_line((120, y - 8), (420, y - 8), width=0.5)
            y += 4
            continue
        for x, cell in zip((130, 250, 360), cells):
            page.insert_text((x, y), cell, fontname="tiro", fontsize=9)
        y += 13
    page.draw_line((120, y - 6), (420, y - 6), width=0.8)
    assert y > top
    y += 24
    page.draw_rect(pymupdf.Rect(160, y, 380, y + 90), color=(0, 0, 0.6), fill=(0.6, 0.7, 0.9))
    y += 106
    line("Figure 1: Overview of the synthetic pipeline.", 9, x=185)
    y += 14
    line("References", 12, True)
    for ref in ("[1] Ada Lovelace. 1843. Notes on the analytical engine. Scientific Memoirs, 3:666-731.",
                "[2] Alan Turing. 1950. Computing machinery and intelligence. Mind, 59(236):433-460.",
                "[3] Grace Hopper. 1952. The education of a computer. In Proceedings of the ACM, pages 243-249."):
        line(ref, 9)
    doc.save(path)
    doc.close()
    return path
