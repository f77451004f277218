"""sections view on real papers; every expectation was checked against the printed PDF."""
from __future__ import annotations

import re
from functools import lru_cache

import pymupdf
import pytest

from pipeline.document import Section
from tests.conftest import corpus_pdf, needs_corpus

pytestmark = needs_corpus


@lru_cache(maxsize=None)
def sections(name: str) -> list[Section]:
    # only the sections view (not the whole backend), so these tests stay quick
    from pipeline.parse.pymupdf.page import analyze_document
    from pipeline.parse.pymupdf.sections import extract_sections

    return extract_sections(analyze_document(pymupdf.open(corpus_pdf(name))))


def by_title(name: str) -> dict[str, Section]:
    return {s.title: s for s in sections(name)}


def assert_in_order(titles: list[str], expected: list[str]) -> None:
    positions = [titles.index(t) for t in expected]  # ValueError names a missing title
    assert positions == sorted(positions), positions


def assert_well_formed(name: str) -> None:
    secs = sections(name)
    assert [s.ordinal for s in secs] == list(range(len(secs)))
    for s in secs:
        assert s.level >= 1 and s.page_numbers == sorted(set(s.page_numbers))
        assert not re.match(r"(Figure|Fig\.|Table|Algorithm)\s*\d", s.title), s.title  # no captions
    pages = [s.page_numbers[0] for s in secs]
    assert pages == sorted(pages)


def test_acl_two_column_without_outline():
    name = "acl2020_tapas.pdf"
    assert_well_formed(name)
    secs = sections(name)
    titles = [s.title for s in secs]
    assert titles[:6] == ["Abstract", "1 Introduction", "2 TAPAS Model", "3 Pre-training", "4 Fine-tuning", "5 Experiments"]
    assert_in_order(titles, ["5.1 Datasets", "5.2 Experimental Setup", "5.3 Results", "6 Related Work", "7 Conclusion",
                             "8 Acknowledgments", "References", "A WIKISQL Execution Errors", "B Hyperparameters"])
    s = by_title(name)
    assert s["5.1 Datasets"].level == 2 and s["5 Experiments"].level == 1 and s["References"].level == 1
    assert s["1 Introduction"].content.startswith("Question answering from semi-structured tables is")
    assert s["1 Introduction"].page_numbers == [1, 2]
    # the parent's content stops where its first subsection starts
    assert "We experiment with the following semantic parsing" in s["5.1 Datasets"].content
    assert "We experiment with the following semantic parsing" not in s["5 Experiments"].content
    assert s["References"].page_numbers == [9, 10, 11]
    # bold run-in paragraph titles ("Additional embeddings ...", "Limitations TAPAS handles ...") are not headings
    assert "Additional embeddings" not in titles and "Limitations" not in titles


def test_outline_small_caps_iclr():
    name = "iclr2024_raptor.pdf"
    assert_well_formed(name)
    titles = [s.title for s in sections(name)]
    assert_in_order(titles, ["ABSTRACT", "1 INTRODUCTION", "2 RELATED WORK", "3 METHODS", "4 EXPERIMENTS",
                             "4.1 CONTRIBUTION OF THE TREE STRUCTURE", "5 CONCLUSION", "6 REPRODUCIBILITY STATEMENT",
                             "REFERENCES", "B ABLATION STUDY ON CLUSTERING MECHANISM IN RAPTOR", "B.1 METHODOLOGY"])
    s = by_title(name)
    # a heading wrapped over two lines is one title
    assert "A SCALABILITY AND COMPUTATIONAL EFFICIENCY OF THE TREE-BUILDING PROCESS" in s
    assert s["4.1 CONTRIBUTION OF THE TREE STRUCTURE"].level == 2 and s["4 EXPERIMENTS"].level == 1
    assert s["1 INTRODUCTION"].content.startswith("Large Language Models (LLMs) have emerged as")
    assert "We examine the contribution of each layer" not in s["4 EXPERIMENTS"].content
    assert s["4.1 CONTRIBUTION OF THE TREE STRUCTURE"].content.startswith("We examine the contribution of each layer")


def test_neurips_three_levels_and_figure_labels():
    name = "neurips2017_attention.pdf"
    assert_well_formed(name)
    titles = [s.title for s in sections(name)]
    assert_in_order(titles, ["Abstract", "1 Introduction", "3 Model Architecture", "3.1 Encoder and Decoder Stacks",
                             "3.2 Attention", "3.2.1 Scaled Dot-Product Attention", "3.2.2 Multi-Head Attention",
                             "3.3 Position-wise Feed-Forward Networks", "7 Conclusion", "References"])
    # Figure 2 repeats the words "Scaled Dot-Product Attention" as labels: not a heading
    assert "Scaled Dot-Product Attention" not in titles
    s = by_title(name)
    assert [s[t].level for t in ("3 Model Architecture", "3.2 Attention", "3.2.1 Scaled Dot-Product Attention")] == [1, 2, 3]
    assert s["3.2 Attention"].content.startswith("An attention function can be described as mapping")
    assert "We call our particular attention" not in s["3.2 Attention"].content
    assert s["3.2.1 Scaled Dot-Product Attention"].content.startswith('We call our particular attention "Scaled')
    assert s["1 Introduction"].page_numbers == [2]


def test_appendix_and_unnumbered_headings():
    name = "eacl2023_longeval.pdf"
    assert_well_formed(name)
    titles = [s.title for s in sections(name)]
    assert_in_order(titles, ["5 Conclusion", "Limitations", "Ethical Considerations", "Acknowledgments", "References",
                             "Appendix", "A Bootstrap analysis of inter-annotator variance", "B Human evaluation details",
                             "B.3 Crowdworkers or expert annotators?", "C Additional Survey Statistics"])
    s = by_title(name)
    assert s["3 The LONGEVAL guidelines for faithfulness human evaluation"].level == 1
    assert s["B.3 Crowdworkers or expert annotators?"].level == 2
    assert s["Limitations"].content.startswith("Human evaluation is a noisy process")
    assert s["References"].page_numbers[0] == 10


def test_outline_with_appendix_levels():
    name = "acl2024_locomo.pdf"
    assert_well_formed(name)
    s = by_title(name)
    assert s["A.2.1 Virtual Agent Architecture"].level == 3
    assert s["B.2 Dataset License"].level == 2 and s["B Dataset"].level == 1
    assert_in_order([x.title for x in sections(name)],
                    ["7 Conclusion", "8 Limitations", "9 Broader Impacts", "References", "A Generative Pipeline for LOCOMO"])


def test_dotted_numbering_icassp():
    name = "icassp2024_privacy_masking_llm.pdf"
    assert_well_formed(name)
    titles = [s.title for s in sections(name)]
    assert_in_order(titles, ["ABSTRACT", "1. INTRODUCTION", "3. METHODOLOGY", "3.1. Token Masking Techniques",
                             "4.2. Setups", "4.2.1. Downstream Tasks", "5. CONCLUSION", "6. REFERENCES"])
    assert by_title(name)["4.2.1. Downstream Tasks"].level == 3


def test_each_line_in_one_section():
    secs = sections("emnlp2014_cnn_sentence.pdf")
    text = "\n".join(s.content for s in secs)
    # a sentence from section 4.1 appears once, in 4.1 only
    needle = "We had initially hoped that the multichannel"
    assert text.count(needle) == 1 and needle in by_title("emnlp2014_cnn_sentence.pdf")["4.1 Multichannel vs. Single Channel Models"].content


@pytest.mark.parametrize("name", ["acl2020_tapas.pdf"])
def test_backend_fills_sections(parsed, name):
    paper = parsed(name)
    assert not [e for e in paper.errors if e.startswith("sections")]
    assert [s.title for s in paper.sections][:2] == ["Abstract", "1 Introduction"]


def _synthetic(tmp_path, lines: list[tuple[str, bool]]) -> list[Section]:
    """A one-column PDF: (text, is_heading) lines; headings bold at 12 pt, body at 10 pt."""
    from pipeline.parse.pymupdf.page import analyze_document
    from pipeline.parse.pymupdf.sections import extract_sections

    doc = pymupdf.open()
    page = doc.new_page()
    y = 80.0
    for text, heading in lines:
        page.insert_text((72, y), text, fontname="tibo" if heading else "tiro", fontsize=12 if heading else 10)
        y += 22 if heading else 14
    path = tmp_path / "synthetic.pdf"
    doc.save(path)
    return extract_sections(analyze_document(pymupdf.open(path)))


def test_roman_numbering_ieee_style(tmp_path):
    body = [("Body text of the paper that runs for a while and is set in the regular face.", False)] * 3
    secs = _synthetic(tmp_path, [("I. INTRODUCTION", True), *body, ("A. Background", True), *body,
                                 ("B. Related Systems", True), *body, ("C. kNN-Based Methods", True), *body,
                                 ("II. METHOD", True), *body,
                                 ("III. RESULTS", True), *body, ("1. We list a numbered item in body text", False)])
    assert [(s.title, s.level) for s in secs] == [("I. INTRODUCTION", 1), ("A. Background", 2), ("B. Related Systems", 2),
                                                  ("C. kNN-Based Methods", 2),  # an acronym in lower case first
                                                  ("II. METHOD", 1), ("III. RESULTS", 1)]
    assert secs[0].content.count("Body text") == 3 and secs[1].content.startswith("Body text of the paper")
    assert "numbered item" in secs[-1].content
