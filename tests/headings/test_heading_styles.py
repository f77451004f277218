"""Section headings in 17 typographies (tests/headings, generate.py: numbers with a period or a section sign, Roman
numerals with lettered subsections, centred small capitals, sans-serif, capitals, a rule under the heading, the
number on a line of its own above the title, run-in subsections, unnumbered, body-size bold with italic
subsections, bold italic, underlined, an old journal's centred capitals in two columns, KOMA-Script, memoir; one
subsection title wraps; the PDFs and their truth are kept here, so no TeX is needed): every
heading of levels 1-2 is found at its level, and nothing else is (section F1 as the zoo scores it)."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from pipeline.parse import ParseOptions, parse_pdf
from tests.zoo.scoring import sections_score

HERE = Path(__file__).resolve().parent
TRUTH = json.loads((HERE / "truth.json").read_text())


@pytest.mark.parametrize("style", sorted(TRUTH))
def test_headings_found_at_their_levels(style):
    paper = parse_pdf(HERE / "papers" / f"{style}.pdf", ParseOptions())
    parsed = [(s.level, s.title) for s in paper.sections]
    f1, _ = sections_score(parsed, TRUTH[style]["sections"])
    assert f1 == 1.0, (style, parsed)
