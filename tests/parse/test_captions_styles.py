"""Table and figure captions across house styles.

corpus2 (20 real papers in IEEE, ACM, AAAI, CVF, LNCS, Elsevier, JMLR, revtex, amsart, Nature, PLOS, eLife, MNRAS
and working-paper styles) is scored against tests/data/parse_truth/captions.json, written by hand from the printed
PDFs; tests/data/floats/ holds PDFs typeset here (sources beside them, `build.sh` rebuilds them) whose captions are
known exactly: IEEE "TABLE I" + small-caps title above the table, a table printed above the one with the lower
number, a full-width table*, body paragraphs that begin "Table II lists" / "Fig. 2 shows" / "Table I. On average";
Frontiers-like "FIGURE 1 |" legends and a figure* across both columns.
"""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import pytest

from tests.conftest import corpus2_pdf, needs_corpus2
from tests.parse._caption_truth import caption_truth, f1

FLOATS = Path(__file__).resolve().parents[1] / "data" / "floats"


@lru_cache(maxsize=None)
def _floats_views(path: Path):
    from pipeline.parse.options import ParseOptions
    from pipeline.parse.pymupdf import PyMuPDFBackend

    return PyMuPDFBackend().parse(path, ParseOptions(), views=["tables", "images"])


@needs_corpus2
@pytest.mark.parametrize("name", sorted(caption_truth()))
def test_corpus2_captions(name):
    truth = caption_truth()[name]
    paper = _floats_views(corpus2_pdf(name))
    for kind, found in (("tables", [t.caption for t in paper.tables]), ("figures", [f.caption for f in paper.figures])):
        score, missed, extra = f1(truth[kind], found)
        assert score >= 0.95, (kind, missed, extra)


def test_ieee_tables_above_and_roman_labels():
    paper = _floats_views(FLOATS / "ieee_tables.pdf")
    caps = [(t.page_number, t.caption) for t in paper.tables]
    assert caps == [
        (1, "TABLE I ACCURACY OF THE COMPARED METHODS ON THE TWO BENCHMARKS"),
        (1, "TABLE II DATASET STATISTICS USED IN EVERY EXPERIMENT"),
        (2, "TABLE III FULL RESULTS ON ALL BENCHMARKS SPANNING BOTH COLUMNS"),
    ]
    for t in paper.tables:  # the body sits under its caption: every row of the table, no figure frame
        assert t.html.count("<tr>") == 5 if "III" not in t.caption else t.html.count("<tr>") == 4
        assert "Oracle" in t.html and t.bbox[3] < 60
    # each caption claims its own table, also where Table II is printed higher on the page than Table I
    assert "Acc-A" in paper.tables[0].html and "Train" in paper.tables[1].html and "<th>H</th>" in paper.tables[2].html
    wide = paper.tables[2]
    assert wide.bbox[2] > 200  # the table* spans both columns
    assert [f.caption for f in paper.figures] == [
        "Fig. 1. Overview of the pipeline with its three stages.",
        "Fig. 2. Accuracy against running time for every method on the larger benchmark.",
    ]


def test_frontiers_bar_legends():
    paper = _floats_views(FLOATS / "frontiers_legends.pdf")
    assert [t.caption for t in paper.tables] == ["TABLE 1 | Species tested for colony induction"]
    assert [(f.page_number, f.caption.split(".")[0]) for f in paper.figures] == [
        (1, "FIGURE 1 | Sampling sites and workflow"),
        (1, "FIGURE 2 | Phylogenetic anchoring of all samples"),
        (3, "FIGURE 3 | Novel metabolic features found in the data set, set across both columns of the page"),
    ]
    assert paper.figures[2].bbox[2] > 400  # the figure* spans the page
    assert not any("footnote" in f.caption for f in paper.figures)
