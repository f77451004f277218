"""Authors in 13 author-block typographies (tests/authors, generate.py: `\\and` with `\\thanks`, a tabular block per
author, superscript affiliation numbers, authblk, one line with `and`, equal-contribution marks, initials, capitals,
six authors in two rows, names followed by their e-mail addresses in brackets, names flush left under the title,
a `by` line, names broken at a hyphen; the PDFs and their truth are kept here, so no TeX is needed): every name is read as printed, no
affiliation is taken for a name, and the title is exact."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from pipeline.parse import ParseOptions, parse_pdf
from tests.zoo.scoring import authors_score, title_score

HERE = Path(__file__).resolve().parent
TRUTH = json.loads((HERE / "truth.json").read_text())


@pytest.mark.parametrize("style", sorted(TRUTH))
def test_author_names_as_printed(style):
    paper = parse_pdf(HERE / "papers" / f"{style}.pdf", ParseOptions())
    assert authors_score(paper.metadata.authors, TRUTH[style]["authors"]) == 1.0, (style, paper.metadata.authors)
    assert title_score(paper.metadata.title, TRUTH[style]["title"]) == 1.0, (style, paper.metadata.title)
