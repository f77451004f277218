"""The scorer's own rules (tests/zoo/scoring.py): what counts as a match and what does not, on hand-written cases."""
from __future__ import annotations

from types import SimpleNamespace as NS

from tests.zoo.scoring import (abstract_score, authors_score, captions_score, equation_pages_recall, header_leaks, key,
                               passes, references_error, sections_score, split_caption, title_score)


def test_keys_ignore_case_spacing_accents_ligatures_and_hyphens():
    assert key("II. METHOD") == key("ii method") == "iimethod"
    assert key("Classiﬁ-\ncation of Søren’s data") == key("classification of Soren's data")
    assert title_score("LEARNING  Sparse routing", "Learning sparse Routing") == 1.0
    assert title_score("Sensors", "Learning sparse routing") == 0.0


def test_author_names_match_across_initials_order_and_accents_only():
    truth = ["Léa Moreau", "Jonas Østergaard", "Daniel K. Okafor", "Anna Van Dijk"]
    assert authors_score(["L. Moreau", "Ostergaard, Jonas", "D. Okafor", "A. van Dijk"], truth) == 1.0
    # membership grades and a wrong initial are false positives
    got = authors_score(["Léa Moreau", "Senior Member", "IEEE", "P. Moreau"], truth)
    assert got == 2 * 1 / (4 + 4)


def test_abstract_overlap():
    truth = "We propose a routing layer that learns which tokens to attend to."
    assert abstract_score(truth.upper(), truth) == 1.0
    assert abstract_score("Original content from this work may be used. " + truth, truth) < 0.9
    assert abstract_score("", truth) == 0.0


def test_sections_f1_levels_and_front_matter():
    truth = [{"level": 1, "title": "I. Introduction"}, {"level": 2, "title": "A. Data"},
             {"level": 3, "title": "1) Relaxed Selection"}, {"level": 1, "title": "References"}]
    parsed = [(1, "ABSTRACT"), (1, "I. INTRODUCTION"), (2, "A. Data"), (2, "1) Relaxed Selection"), (1, "REFERENCES")]
    assert sections_score(parsed, truth) == (1.0, 1.0)  # front matter ignored, a folded level 3 costs nothing here
    f12, l3 = sections_score([(1, "Introduction"), (1, "References")], truth)  # number dropped: no match
    assert round(f12, 2) == round(2 * 1 / (2 + 3), 2) and l3 == 0.0


def test_caption_labels_and_text_prefix():
    assert split_caption("TABLE IV\nResults on the test set") == (("table", 4), "resultsonthetestset")
    assert split_caption("FIGURE 2 | Overview.")[0] == ("figure", 2)
    assert split_caption("Fig. 10. Routes")[0] == ("figure", 10)
    truth = [{"printed": "Table 1: Statistics of the four benchmarks"}, {"printed": "Table 2: Accuracy and cost"}]
    assert captions_score(["Table 1. STATISTICS of the four benchmarks", "Tab. 2 - Accuracy and cost"], truth) == 1.0
    # wrong number, a caption that ran into the table body, a body line starting with "Table 1"
    assert captions_score(["Table 3: Accuracy and cost"], truth) == 0.0
    assert captions_score(["Table 2: Accuracy and cost Model Contracts ClinNotes 88.1 71.4 86.9 64.2 38.5"], truth) == 0.0
    assert captions_score(["Table 1 summarises the statistics of the four benchmarks"], truth) == 0.0


def test_counts_pages_and_leaks():
    assert references_error(31, 32) == 1 / 32 and passes("references", 0.0) and not passes("references", 0.05)
    assert equation_pages_recall([2, 2, 5], [2, 3]) == 0.5 and equation_pages_recall([], []) is None
    paper = NS(metadata=NS(abstract="We route tokens."), sections=[NS(title="1 Intro", content="text IEEE TRANSACTIONS ON X, VOL. 1 more")],
               equations=[NS(latex=r"\mathrm{Moreau} et al.: Sparse")], tables=[], figures=[], references=[])
    total, by_view = header_leaks(paper, ["IEEE Transactions on X, Vol. 1", "Moreau et al.: Sparse", "p. 2"])
    assert total == 2 and by_view == {"section content": 1, "equations": 1}
