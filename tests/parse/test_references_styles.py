"""Reference splitting across bibliography styles.

corpus2 counts (tests/data/parse_truth/references.json) were made by reading every bibliography in the printed
PDFs: numbered [n] (IEEE, ACM, CVF, elsarticle, revtex without a References heading), "n." (LNCS, PLOS, Nature
with labels on their own line and no heading), alpha keys [KS05] (amsart), author-year with hanging indent
(JMLR/PMLR natbib, MNRAS, eLife Vancouver-like, economics) and without (AAAI "Surname, I.; ..."). The typeset
tests/data/floats/frontiers_legends.pdf has an APA-like list without hanging indent and hyperref back-reference
page lists after every entry.
"""
from __future__ import annotations

import json
import re
from functools import lru_cache
from pathlib import Path

import pytest

from tests.conftest import corpus2_pdf, corpus3_pdf, needs_corpus2, needs_corpus3
from tests.parse._caption_truth import reference_truth

FLOATS = Path(__file__).resolve().parents[1] / "data" / "floats"


@lru_cache(maxsize=None)
def _references(path: Path):
    from pipeline.parse.options import ParseOptions
    from pipeline.parse.pymupdf import PyMuPDFBackend

    return PyMuPDFBackend().parse(path, ParseOptions(), views=["reference"]).references


@needs_corpus2
@pytest.mark.parametrize("name", sorted(reference_truth()))
def test_corpus2_reference_counts(name):
    refs = _references(corpus2_pdf(name))
    want = reference_truth()[name]
    assert abs(len(refs) - want) <= 0.02 * want, (len(refs), want)
    assert [r.ordinal for r in refs] == list(range(len(refs)))


@needs_corpus2
def test_numbered_lists_without_heading():
    for name, first, last in (("revtex_arxiv2023_qed_electron_nucleus.pdf", "[1] J.M.Grames", "[33] W.R.Johnson"),
                              ("nature_nature2013_microbial_dark_matter.pdf", "1. Rajendhran", "50. Dro")):
        refs = _references(corpus2_pdf(name))
        assert refs[0].text.startswith(first) and refs[-1].text.startswith(last), name
        assert not any("Acknowledgements" in r.text for r in refs)


@needs_corpus2
def test_author_year_without_indent_is_not_split():
    refs = _references(corpus2_pdf("aaai_aaai2023_embodied_reasoning_data.pdf"))
    assert all(re.match(r"[A-Z][\w'’ôé-]+(?: [A-Z]\w+)?, [A-Z]", r.text) for r in refs), [r.text[:40] for r in refs]


def test_backref_page_lists_are_stripped():
    refs = _references(FLOATS / "frontiers_legends.pdf")
    assert [r.text.split(" (")[0] for r in refs] == [
        "Dijkstra, E. W.", "Hopper, G. M., & Mauchly, J. W.", "Knuth, D. E., Morris, J. H., Pratt, V. R., Lovelace, A., "
        "Babbage, C., Shannon, C. E., Wiener, N., & Turing, A. M.", "Lovelace, A.", "Shannon, C. E.", "Turing, A. M.",
        "von Neumann, J.", "Wiener, N."]
    assert refs[0].text.endswith("11(3), 147–148.")
    assert refs[4].text.endswith("27(3), 379–423.")
    assert all(not re.search(r"\.\s+\d+(,\s*\d+)*$", r.text) for r in refs)


def test_ieee_numbered():
    refs = _references(FLOATS / "ieee_tables.pdf")
    assert [r.text[:3] for r in refs] == ["[1]", "[2]", "[3]", "[4]", "[5]"]
    assert refs[-1].text.endswith("MIT Press, 1948.")


# corpus3 (long-tail styles): counts read from the printed bibliographies (labels where the list has them).
CORPUS3_REFS = json.loads((Path(__file__).resolve().parents[1] / "data" / "parse_truth" / "references_corpus3.json").read_text())


@needs_corpus3
@pytest.mark.parametrize("name", ["aaai_aaai2018_task_aware_sequence_labeling.pdf", "physics_arxiv2019_one_loop_potential.pdf",
                                  "supp_icml2018_mentornet.pdf", "ieee_tnnls2014_label_noise_survey.pdf",
                                  "econ_imfwp2014_world_saving.pdf", "astro_aj2011_hal01438069.pdf"])
def test_corpus3_reference_counts(name):
    refs = _references(corpus3_pdf(name))
    want = CORPUS3_REFS[name]
    assert abs(len(refs) - want) <= 0.02 * want, (len(refs), want)


@needs_corpus3
def test_supplement_list_does_not_replace_the_main_list():
    # MentorNet: main list on pp. 9-10, the supplement's own shorter list on p. 20
    refs = _references(corpus3_pdf("supp_icml2018_mentornet.pdf"))
    assert {r.page_number for r in refs} == {9, 10}


@needs_corpus3
def test_bare_number_labels_without_heading():
    # revtex preprint: "1 R.M. Fernandes ..." labels, no References heading; ref. 29 holds two works under one label
    refs = _references(corpus3_pdf("physics_arxiv2019_one_loop_potential.pdf"))
    assert refs[0].text.startswith("1 R.M. Fernandes") and refs[-1].text.startswith("43 N.D. Mermin")
    assert "; P. Chandra" in refs[28].text


@needs_corpus3
def test_three_word_surname_starts_an_entry():
    refs = _references(corpus3_pdf("aaai_aaai2018_task_aware_sequence_labeling.pdf"))
    assert [r.text[:14] for r in refs if r.text.startswith(("Sun,", "Tjong"))] == ["Sun, X. 2014. ", "Tjong Kim Sang", "Tjong Kim Sang"]
