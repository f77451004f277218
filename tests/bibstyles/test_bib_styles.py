"""One reference per printed entry in 34 BibTeX styles (tests/bibstyles, generate.py: numbered, labelled and
author-year styles of computing, statistics, economics, physics, astronomy, chemistry and medicine, one or two
columns, six author-year styles in both; the PDFs and their truth are kept here, so no TeX is needed): the 24 entries of one hard list (twelve
authors, corporate authors, particles, accents, a thesis, a report, a web page, an arXiv preprint, a chapter with
editors, an entry in press, a long title, two works of one author in one year) come back as 24 references, and
every title the style prints lies in exactly one of them."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from pipeline.parse import ParseOptions, parse_pdf

HERE = Path(__file__).resolve().parent
TRUTH = json.loads((HERE / "truth.json").read_text())


def _key(text: str) -> str:
    return "".join(ch for ch in text.lower() if ch.isalnum())


@pytest.mark.parametrize("style", sorted(TRUTH))
def test_one_reference_per_entry(style):
    truth = TRUTH[style]
    paper = parse_pdf(HERE / "papers" / f"{style}.pdf", ParseOptions())
    refs = [_key(r.text) for r in paper.references]
    assert len(refs) == truth["references"], (style, len(refs))
    for title in truth["titles"]:
        holding = [i for i, r in enumerate(refs) if _key(title)[:28] in r]
        assert len(holding) == 1, (style, title, holding)
