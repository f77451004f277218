"""reference view on real papers; counts were checked by reading each bibliography in the PDF text."""
from __future__ import annotations

import re
from functools import lru_cache

import pymupdf
import pytest

from pipeline.document import Reference
from tests.conftest import corpus_pdf, needs_corpus

pytestmark = needs_corpus


@lru_cache(maxsize=None)
def references(name: str) -> list[Reference]:
    from pipeline.parse.pymupdf.page import analyze_document
    from pipeline.parse.pymupdf.references import extract_references

    return extract_references(analyze_document(pymupdf.open(corpus_pdf(name))))


# name: (count, first entry starts, last entry starts, first page, last entry's page)
EXPECTED = {
    # author-year, ACL two-column
    "emnlp2014_cnn_sentence.pdf": (31, "Y. Bengio, R. Ducharme, P. Vincent. 2003. Neural Probabilitistic", "M. Zeiler. 2012. Adadelta", 6, 6),
    "acl2020_tapas.pdf": (47, "R. Agarwal, C. Liang, D. Schuurmans, and M. Norouzi. 2019.", "Victor Zhong, Caiming Xiong, and Richard Socher. 2017.", 9, 11),
    # numbered [n], NeurIPS single column; figures follow the list on later pages
    "neurips2017_attention.pdf": (40, "[1] Jimmy Lei Ba, Jamie Ryan Kiros, and Geoffrey E Hinton.", "[40] Muhua Zhu, Yue Zhang,", 10, 12),
    "neurips2022_tfew.pdf": (81, "[1] Victor Sanh, Albert Webson,", "[81] Leo Gao, Jonathan Tow,", 10, 14),
    # numbered [n], ICASSP two-column, small type
    "icassp2024_privacy_masking_llm.pdf": (34, "[1] Ke Li, Zhe Liu, Tianxing He,", "[34] Edward J Hu, Yelong Shen,", 5, 5),
    # alphabetic labels [BCV13]
    "iclr2014_vae.pdf": (17, "[BCV13] Yoshua Bengio, Aaron Courville, and Pascal Vincent.", "[VLL+10] Pascal Vincent,", 9, 9),
    # author-year ICML; the supplementary material's title follows without a numbered heading
    "icml2020_linear_transformers.pdf": (39, "Bahdanau, D., Cho, K., and Bengio, Y.", "Zafrir, O., Boudoukh, G., Izsak, P., and Wasserblat, M.", 9, 10),
}


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_counts_and_ends(name):
    count, first, last, first_page, last_page = EXPECTED[name]
    refs = references(name)
    assert len(refs) == count
    assert [r.ordinal for r in refs] == list(range(count))
    assert refs[0].text.startswith(first) and refs[-1].text.startswith(last), (refs[0].text[:80], refs[-1].text[:80])
    assert refs[0].page_number == first_page and refs[-1].page_number == last_page
    assert all("\n" not in r.text for r in refs)
    assert [r.page_number for r in refs] == sorted(r.page_number for r in refs)


def test_numbered_lists_are_complete():
    for name in ("neurips2017_attention.pdf", "neurips2022_tfew.pdf", "icassp2024_privacy_masking_llm.pdf"):
        labels = [int(re.match(r"\[(\d+)\]", r.text).group(1)) for r in references(name)]
        assert labels == list(range(1, len(labels) + 1)), name
    assert not any("Figure" in r.text or "Attention Visualizations" in r.text for r in references("neurips2017_attention.pdf"))


def test_entry_across_columns_skips_footnote():
    # s2orc: Ammar et al. starts at the foot of the left column, under which sit two footnotes, and ends in the
    # right column
    refs = references("acl2020_s2orc.pdf")
    assert len(refs) == 55
    ammar = next(r for r in refs if r.text.startswith("Waleed Ammar"))
    assert "Sebastian Kohlmeier, Kyle Lo, Tyler Murray" in ammar.text
    assert "Construction of the literature graph in semantic scholar" in ammar.text
    assert ammar.page_number == 9
    assert not any("Kaggle" in r.text for r in refs)


def test_entry_across_pages():
    refs = references("emnlp2020_dpr.pdf")
    berant = next(r for r in refs if r.text.startswith("Jonathan Berant"))
    assert berant.page_number == 9 and "Empirical Methods in Natural Language Processing (EMNLP)" in berant.text


def test_joining_dehyphenates_and_keeps_urls():
    tapas = references("acl2020_tapas.pdf")
    assert "Globally normalized transition-based neural networks." in tapas[1].text  # "Glob-" + "ally"
    raptor = references("iclr2024_raptor.pdf")
    assert len(raptor) == 62
    assert raptor[0].text.endswith("URL https://link.springer.com/chapter/10.1007/3-540-44503-x_27.")
    # a hyphen at a line end before a capital is a real one: "Matrix-" + "Vector" stays hyphenated
    assert any("Recursive Matrix-Vector Spaces" in r.text for r in references("emnlp2014_cnn_sentence.pdf"))
    papermage = references("emnlp2023demo_papermage.pdf")
    assert any(r.text == "pdfplumber. 2023. pdfplumber. https://github.com/jsvine/pdfplumber." for r in papermage)


def test_bibliography_stops_at_appendix():
    refs = references("iclr2024_evoprompt.pdf")
    assert refs[-1].text.startswith("Kaijie Zhu, Jindong Wang,") and refs[-1].page_number == 14
    assert not any(r.text.startswith(("Algorithm", "Require")) for r in refs)


def test_no_bibliography():
    assert references("neurips2020_rag_excerpt.pdf") == []  # a 3-page excerpt that stops before its references


def test_backend_fills_references(parsed):
    paper = parsed("acl2020_tapas.pdf")
    assert not [e for e in paper.errors if e.startswith("reference")]
    assert len(paper.references) == 47
