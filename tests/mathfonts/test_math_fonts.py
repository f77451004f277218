"""Display equations across maths fonts: the same ten displays typeset in 22 maths-font set-ups, and ten others in
two columns with left numbers in seven of them (tests/mathfonts, generate.py; the PDFs and their truth are kept
here, so no TeX is needed), are found on the pages TeX shipped them on with their equation numbers, and nothing on
the page of prose with inline maths only is taken for a display."""
from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path

import pytest

from pipeline.parse import ParseOptions, parse_pdf

HERE = Path(__file__).resolve().parent
TRUTH = json.loads((HERE / "truth.json").read_text())


@pytest.mark.parametrize("setup", sorted(TRUTH))
def test_displays_found_on_their_pages(setup):
    truth = TRUTH[setup]
    paper = parse_pdf(HERE / "papers" / f"{setup}.pdf", ParseOptions())
    pages = Counter(eq.page_number for eq in paper.equations)
    want = Counter(truth["display_pages"])
    assert sorted(pages) == truth["equation_pages"], (setup, dict(pages), dict(want))
    for page, n in want.items():  # multi-row displays may come back as their rows (truth: split, missed)
        assert n - truth["missed"] <= pages[page] <= n + truth["split"], (setup, page, dict(pages), dict(want))
    tags = {t for eq in paper.equations for t in re.findall(r"\\tag\{([^{}]*)\}", eq.latex)}
    assert set(truth["tags"]) <= tags, (setup, sorted(tags))
