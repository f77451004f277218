"""Display equations across maths fonts: the same ten displays typeset in 22 maths-font set-ups (tests/mathfonts,
generate.py; the PDFs and their truth are kept here, so no TeX is needed) are all found, on the pages TeX shipped
them on, and nothing on the page of prose with inline maths only is taken for a display."""
from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path

import pytest

from pipeline.parse import ParseOptions, parse_pdf

HERE = Path(__file__).resolve().parent
TRUTH = json.loads((HERE / "truth.json").read_text())
# equation numbers printed: (1) the attention sum, (2)-(3) an align's two rows (read as one display or two), (4)
# cases, (5) a matrix, (6) words in a display, (7) an integral, (8) Greek letters only, (9) an expectation
TAGS = {"1", "2", "4", "5", "6", "7", "8", "9"}


@pytest.mark.parametrize("setup", sorted(TRUTH))
def test_displays_found_on_their_pages(setup):
    truth = TRUTH[setup]
    paper = parse_pdf(HERE / "papers" / f"{setup}.pdf", ParseOptions())
    pages = Counter(eq.page_number for eq in paper.equations)
    want = Counter(truth["display_pages"])
    assert sorted(pages) == truth["equation_pages"], (setup, dict(pages), dict(want))
    for page, n in want.items():  # the align may come back as its two numbered rows
        assert n <= pages[page] <= n + 1, (setup, page, dict(pages), dict(want))
    tags = {t for eq in paper.equations for t in re.findall(r"\\tag\{([^{}]*)\}", eq.latex)}
    assert TAGS <= tags, (setup, sorted(tags))
    assert any(r"\alpha=\beta" in eq.latex.replace(" ", "") for eq in paper.equations), setup
