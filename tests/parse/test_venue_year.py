"""Venue and year from what the PDF prints (issue 29): mastheads, running headers, copyright and permission lines,
publication dates, then the arXiv stamp, then the PDF's own metadata. Strings below are copied from real papers'
first pages; the corpus test checks the year of every corpus/corpus2/corpus3 paper against the year in its file
name where the paper prints it (arXiv copies that print only a later stamp are listed apart)."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from pipeline.parse.venue import detect_doi_venue, detect_printed_venue, printed_year
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
    ("Moreau et al. BMC Medical Informatics and Decision Making (2026) 26:152 https://doi.org/10.1186/s12911",
     "BMC Medical Informatics and Decision Making", 2026),
    ("Chen et al. Journal of Big Data (2019) 6:54 Page 2 of 21", "Journal of Big Data", 2019),
    ("The R Journal Vol. 13/1, June 2021 ISSN 2073-4859", "The R Journal", 2021),
    ("Annals of Mathematics 204 (2026), 1–9 https://doi.org/10.4007/annals.2026.204.3.4", "Annals of Mathematics", 2026),
    ("Pattern Recognition 155 (2024) 110732 Contents lists available at ScienceDirect", "Pattern Recognition", 2024),
    ("∗Indicates equal contributions. Published as a conference paper in ECCV’18.", "ECCV", 2018),
    ("Accepted at AAAI 2021. Code: https://github.com/x/y", "AAAI", 2021),
    ("To appear in the Proceedings of SIGIR 2019, Paris, France", "SIGIR", 2019),
    ("Published in IEEE TPAMI 2020. Personal use is permitted.", "IEEE TPAMI", 2020),
    ("Accepted to NIPS 2017 workshop track", "NeurIPS", 2017),
    ("Citation: Fredj A (2012) Cyan Fluorescent Proteins. PLoS ONE 7(11): e49149.", "PLOS ONE", None),
    # OUP mastheads above the title (journal, year, pages or volume)
    ("Bioinformatics, 2026, pp. 1–5 doi: 10.1093/bioinformatics/btab123", "Bioinformatics", 2026),
    ("AIAA SciTech 2026 Forum, 12–16 January 2026, Orlando, FL", "AIAA SciTech", 2026),
    ("Electron. J. Probab. 31 (2026), article no. 14, 1–8. ISSN: 1083-6489", "Electron. J. Probab.", 2026),
    ("Phys. Rev. Lett. 124, 101801 (2020)", "Phys. Rev. Lett.", 2020),
    ("AIAA AVIATION 2023 Forum June 12-16, 2023, San Diego, CA and Online", "AIAA AVIATION", 2023),
    ("Journal of Economic Geography, 2019, Vol. 19, No. 2, 12–40", "Journal of Economic Geography", 2019),
    ("Canadian Journal of Economics / Revue canadienne d'économique 2019 52(3) November 2019. Printed in Canada",
     "Canadian Journal of Economics", 2019),
    ("American Economic Review 2021, 111(4): 1–30", "American Economic Review", 2021),
    ("Accepted in Quantum 2026-11-24, click title to verify. Published under CC-BY 4.0.", "Quantum", 2026),
    ("Canadian Journal of Physics 99: 1–5 (2021) DOI: 10.1139/cjp-2020-0123", "Canadian Journal of Physics", 2021),
    ("TUGboat, Volume 44 (2023), No. 2 221", "TUGboat", 2023),
    # a small-capitals masthead: the text layer gives volume, number and month in lower case
    ("Philosophers’ Imprint volume 26, no. 14 november 2026 LEARNING SPARSE ROUTING", "Philosophers’ Imprint", 2026),
    # (the year stands before the name here: the venue carries none, the copyright year gives the paper's)
    ("© 2019 Ana Ruiz. Proceedings of the 36th West Coast Conference on Formal Linguistics, ed. Richard Stockwell et "
     "al., 1-9. Somerville, MA: Cascadilla Proceedings Project.", "36th West Coast Conference on Formal Linguistics", None),
]


@pytest.mark.parametrize("text,venue,year", PRINTED)
def test_printed_venues(text, venue, year):
    got = detect_printed_venue(text)
    assert got is not None and (got.abbreviation, got.year) == (venue, year)


def test_no_venue_in_plain_prose():
    assert detect_printed_venue("We thank the reviewers. This work was funded in 2019 by the Foundation.") is None
    assert detect_printed_venue("The results were published in Nature 2019 and accepted at most 20 times.") is None
    # on a whole page (not its headers and footnotes) a sentence about another paper names no venue of this one
    assert detect_printed_venue("the method of [4], accepted at ICML 2019, uses", whole_page=True) is None
    # an author-year citation mid-sentence is no masthead
    assert detect_printed_venue("as Moreau and Chen showed (Nature, 2019, 12–40), routes") is None


@pytest.mark.parametrize("text,venue,year", [
    ("Vol 499 | 25 July 2013 | doi:10.1038/nature12352 ©2013", "Nature", None),
    ("Cite as: eLife 2012;1:e00013 DOI: 10.7554/eLife.00013", "eLife", None),
    ("https://doi.org/10.1371/journal.pcbi.1004215", "PLOS Computational Biology", None),
    ("PHYSICAL REVIEW D 99, 016001 (2019) DOI: 10.1103/PhysRevD.99.016001", "Physical Review D", None),
    ("The R Journal Vol. 13/1, June 2021, doi: 10.32614/RJ-2021-048", "The R Journal", None),
    ("https://doi.org/10.4007/annals.2026.204.3.4", "Annals of Mathematics", None),
    ("pages 4171–4186. doi: 10.18653/v1/N19-1423", "NAACL", 2019),
    ("https://doi.org/10.18653/v1/2023.acl-long.12", "ACL", 2023),
])
def test_venue_from_the_papers_doi(text, venue, year):
    got = detect_doi_venue(text)
    assert got is not None and (got.abbreviation, got.year) == (venue, year)


def test_publisher_wide_dois_name_no_venue():
    # IEEE's and ACM's DOIs cover every journal and conference of theirs: no venue is guessed from them
    assert detect_doi_venue("DOI 10.1109/TRO.2009.2035744") is None
    assert detect_doi_venue("https://doi.org/10.1145/3583780.3614956") is None


@pytest.mark.parametrize("text,year", [
    ("978-1-4244-9233-6/11/$26.00 ©2011 IEEE", 2011),
    ("Received May 21, 2012; Accepted October 4, 2012; Published November 2, 2012 Copyright: 2012 Fredj", 2012),
    ("Why Do the Rich Save So Much? Christopher D. Carroll November 3, 2000 Abstract", 2000),
])
def test_printed_year(text, year):
    assert printed_year(text) == year


def test_a_bare_date_in_the_furniture_is_no_year():
    # a header stamped with the build date (`\today`) names no year of the paper; a copyright line there does
    assert printed_year("October 27, 2019, PalgravePrecautionary", dates=False) is None
    assert printed_year("October 27, 2019, PalgravePrecautionary") == 2019
    assert printed_year("© 2014 International Monetary Fund", dates=False) == 2014


# arXiv copies whose only printed year is a later version's stamp (the stamp's year is kept, as upstream does)
STAMP_ONLY = {"iclr2014_vae.pdf", "icassp2024_privacy_masking_llm.pdf", "neurips2020_rag_excerpt.pdf",
              "amsart_arxiv2004_dominoes_hexagons.pdf",
              "aaai_aaai2024_scieval.pdf",
              "lncs_spire2005_ngram_similarity.pdf"}  # the last prints no year; the PDF's dates are later


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
        if md.conference_abbreviation in ("arxiv", "uncategorized") and \
                re.match(r"(aaai|acm|mnras|elife|ieee_t|nature|plos|jmlr|bmc|astro)_", path.name):
            arxiv.append((path.name, md.conference_abbreviation))  # these print their venue (or its DOI) on page 1
    assert not wrong and not arxiv, (wrong, arxiv)


def test_a_masthead_beside_the_title_names_the_venue():
    """Philosophers' Imprint sets its masthead in small capitals beside the title (the zoo's imitation, kept in the
    repository): read from the whole first page."""
    from pipeline.parse.options import ParseOptions
    from pipeline.parse.pymupdf import PyMuPDFBackend

    path = Path(__file__).resolve().parents[1] / "zoo" / "papers" / "philosophersimprint" / "paper.pdf"
    md = PyMuPDFBackend().parse(path, ParseOptions(), views=["metadata"]).metadata
    assert (md.conference_abbreviation, md.pub_year) == ("Philosophers’ Imprint", 2026)
