"""Venue and year from what the PDF prints (issue 29): mastheads, running headers, copyright and permission lines,
publication dates, then the arXiv stamp, then the PDF's own metadata. Strings below are copied from real papers'
first pages; the corpus test checks the year of every corpus/corpus2/corpus3 paper against the year in its file
name where the paper prints it (arXiv copies that print only a later stamp are listed apart)."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from pipeline.parse.venue import detect_printed_venue, printed_year
from tests.conftest import CORPUS, CORPUS2, CORPUS3

PRINTED = [
    ("IEEE TRANSACTIONS ON ROBOTICS, VOL. 26, NO. 1, FEBRUARY 2010", "IEEE Transactions on Robotics", 2010),
    ("Copyright c⃝2018, Association for the Advancement of Artiﬁcial Intelligence (www.aaai.org). All rights reserved.",
     "AAAI", 2018),
    ("CIKM ’23, October 21–25, 2023, Birmingham, United Kingdom © 2023 Copyright held by the owner/author(s). ACM ISBN",
     "CIKM", 2023),
    ("KDD, 2018, London, United Kingdom © 2018 Copyright held by the owner/author(s). ACM ISBN 123-4567", "KDD", 2018),
    ("Journal of Machine Learning Research 11 (2010) 2973-3009 Submitted 2/10", "JMLR", 2010),
    ("Alegado et al. eLife 2012;1:e00013. DOI: 10.7554/eLife.00013", "eLife", 2012),
    ("MNRAS 000, 1–12 (2025) Preprint 3 March 2025", "MNRAS", 2025),
    ("The Astronomical Journal, 141:161 (7pp), 2011 May doi:10.1088/0004-6256/141/5/161", "The Astronomical Journal", 2011),
    ("Dodd et al. BMC Medicine 2014, 12:161 http://www.biomedcentral.com/1741-7015/12/161", "BMC Medicine", 2014),
    ("Pattern Recognition 155 (2024) 110732 Contents lists available at ScienceDirect", "Pattern Recognition", 2024),
    ("Citation: Fredj A (2012) Cyan Fluorescent Proteins. PLoS ONE 7(11): e49149.", "PLOS ONE", None),
]


@pytest.mark.parametrize("text,venue,year", PRINTED)
def test_printed_venues(text, venue, year):
    got = detect_printed_venue(text)
    assert got is not None and (got.abbreviation, got.year) == (venue, year)


def test_no_venue_in_plain_prose():
    assert detect_printed_venue("We thank the reviewers. This work was funded in 2019 by the Foundation.") is None


@pytest.mark.parametrize("text,year", [
    ("978-1-4244-9233-6/11/$26.00 ©2011 IEEE", 2011),
    ("Received May 21, 2012; Accepted October 4, 2012; Published November 2, 2012 Copyright: 2012 Fredj", 2012),
    ("Why Do the Rich Save So Much? Christopher D. Carroll November 3, 2000 Abstract", 2000),
])
def test_printed_year(text, year):
    assert printed_year(text) == year


# arXiv copies whose only printed year is a later version's stamp (the stamp's year is kept, as upstream does)
STAMP_ONLY = {"iclr2014_vae.pdf", "icassp2024_privacy_masking_llm.pdf", "neurips2020_rag_excerpt.pdf",
              "amsart_arxiv2004_dominoes_hexagons.pdf", "lncs_eccv2018_amc_model_compression.pdf",
              "aaai_aaai2024_scieval.pdf", "econ_palgrave2007_precautionary_saving.pdf",
              "lncs_spire2005_ngram_similarity.pdf"}  # the last two print no year; the PDF's dates are later


def _papers() -> list[Path]:
    return [p for d in (CORPUS, CORPUS2, CORPUS3) if d.is_dir() for p in sorted(d.glob("*.pdf"))
            if not p.name.startswith("scanned") and p.name not in STAMP_ONLY]


@pytest.mark.skipif(not _papers(), reason="corpus folders are absent (they sit beside the repo in CI)")
def test_year_and_venue_over_the_corpora():
    from pipeline.parse.options import ParseOptions
    from pipeline.parse.pymupdf import PyMuPDFBackend

    wrong, arxiv = [], []
    for path in _papers():
        md = PyMuPDFBackend().parse(path, ParseOptions(), views=["metadata"]).metadata
        if md.pub_year != int(re.search(r"(19|20)\d\d", path.stem)[0]):
            wrong.append((path.name, md.pub_year))
        if md.conference_abbreviation == "arxiv" and re.match(r"(aaai|acm|mnras|elife|ieee)_", path.name):
            arxiv.append(path.name)  # these print their venue on page 1
    assert not wrong and not arxiv, (wrong, arxiv)
