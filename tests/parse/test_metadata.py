"""metadata view on real papers; every expectation was checked against the printed first page."""
from __future__ import annotations

import json
import re
import shutil
import uuid
from functools import lru_cache
from pathlib import Path

import pymupdf
import pytest

from pipeline.document import Metadata
from pipeline.parse import ParseError, ParseOptions, parse_pdf
from pipeline.parse.pymupdf.metadata import extract_metadata
from pipeline.parse.venue import detect_arxiv, detect_venue
from tests.conftest import corpus_pdf, needs_corpus

ACL_FULL = "Annual Meeting of the Association for Computational Linguistics"


def _meta(path: Path, options: ParseOptions | None = None) -> Metadata:
    from pipeline.parse.pymupdf.page import analyze_document

    md = Metadata()
    extract_metadata(analyze_document(pymupdf.open(path)), path, options or ParseOptions(), md)
    return md


@lru_cache(maxsize=None)
def meta(name: str) -> Metadata:
    # only the metadata view (not the whole backend), so these tests stay quick
    return _meta(corpus_pdf(name), ParseOptions(sidecar_metadata=False))


def upstream_id(title: str, venue_year: str) -> str:
    return str(uuid.uuid5(uuid.NAMESPACE_DNS, re.sub("[^a-z0-9]", "", title.lower()) + "-" + venue_year))


# ---- detection on the corpus ---------------------------------------------------------------------------

@needs_corpus
@pytest.mark.parametrize("name,title", [
    ("acl2020_tapas.pdf", "TaPas: Weakly Supervised Table Parsing via Pre-training"),  # small caps undone
    ("acl2020_specter.pdf", "SPECTER: Document-level Representation Learning using Citation-informed Transformers"),
    ("eacl2023_longeval.pdf", "LongEval: Guidelines for Human Evaluation of Faithfulness in Long-form Summarization"),
    ("iclr2024_evoprompt.pdf",  # small caps over three lines, "EVO-" / "LUTIONARY" rejoined
     "Connecting Large Language Models with Evolutionary Algorithms Yields Powerful Prompt Optimizers"),
    ("icml2020_linear_transformers.pdf", "Transformers are RNNs: Fast Autoregressive Transformers with Linear Attention"),
    ("icassp2024_privacy_masking_llm.pdf", "Recovering from Privacy-Preserving Masking with Large Language Models"),
    ("neurips2017_attention.pdf", "Attention Is All You Need"),  # not the Google permission note above it
    ("acl2025_pasa.pdf", "PaSa: An LLM Agent for Comprehensive Academic Paper Search"),  # not the big teaser text
    ("emnlp2023demo_papermage.pdf",
     "PaperMage: A Unified Toolkit for Processing, Representing, and Manipulating Visually-Rich Scientific Documents"),
])
def test_titles(name: str, title: str) -> None:
    assert meta(name).title == title


@needs_corpus
@pytest.mark.parametrize("name,authors", [
    ("neurips2017_attention.pdf", ["Ashish Vaswani", "Noam Shazeer", "Niki Parmar", "Jakob Uszkoreit", "Llion Jones",
                                   "Aidan N. Gomez", "Łukasz Kaiser", "Illia Polosukhin"]),
    ("acl2020_tapas.pdf", ["Jonathan Herzig", "Paweł Krzysztof Nowak", "Thomas Müller", "Francesco Piccinno",
                           "Julian Martin Eisenschlos"]),  # "M¨uller" accent glyph composed
    ("icml2020_linear_transformers.pdf", ["Angelos Katharopoulos", "Apoorv Vyas", "Nikolaos Pappas", "François Fleuret"]),
    ("icassp2024_privacy_masking_llm.pdf", ["Arpita Vats", "Zhe Liu", "Peng Su", "Debjyoti Paul", "Yingyi Ma",
                                            "Yutong Pang", "Zeeshan Ahmed", "Ozlem Kalinli"]),  # italic names, no affiliations
    ("emnlp2020_dpr.pdf", ["Vladimir Karpukhin", "Barlas Oğuz", "Sewon Min", "Patrick Lewis", "Ledell Wu",
                           "Sergey Edunov", "Danqi Chen", "Wen-tau Yih"]),
    ("acl2023short_teaching_small_lms.pdf", ["Lucie Charlotte Magister", "Jonathan Mallinson", "Jakub Adamek",
                                             "Eric Malmi", "Aliaksei Severyn"]),
    ("arxiv2020_linformer.pdf", ["Sinong Wang", "Belinda Z. Li", "Madian Khabsa", "Han Fang", "Hao Ma"]),
])
def test_authors(name: str, authors: list[str]) -> None:
    assert meta(name).authors == authors


@needs_corpus
def test_authors_separated_by_superscripts_only() -> None:
    # "Russell Authurα Erin Bransomα ..." is one printed line; the affiliation marks separate the names
    authors = meta("emnlp2023demo_papermage.pdf").authors
    assert len(authors) == 17
    assert authors[:6] == ["Kyle Lo", "Zejiang Shen", "Benjamin Newman", "Joseph Chee Chang", "Russell Authur", "Erin Bransom"]
    assert authors[-4:] == ["Marti A. Hearst", "Daniel S. Weld", "Doug Downey", "Luca Soldaini"]


@needs_corpus
@pytest.mark.parametrize("name,start,end", [
    ("neurips2017_attention.pdf", "The dominant sequence transduction models are based on complex recurrent",
     "to English constituency parsing both with large and limited training data."),  # stops before the footnotes
    ("acl2020_s2orc.pdf", "We introduce S2ORC, a large corpus of 81.1M English-language academic papers",
     "tools and tasks for text mining over academic text."),  # footnote mark "S2ORC,1" dropped
    ("icml2020_linear_transformers.pdf", "Transformers achieve remarkable performance in several tasks but due to",
     "they are up to 4000x faster on autoregressive prediction of very long sequences."),
    ("icassp2024_privacy_masking_llm.pdf", "Model adaptation is crucial to handle the discrepancy between proxy",
     "trained on the original data without privacy-preserving token masking."),
    ("acl2025_pasa.pdf", "We introduce PaSa, an advanced Paper Search agent powered by large language models.",
     "https://github.com/bytedance/pasa."),
    ("eacl2024findings_llm_evaluators.pdf", "Large Language Models (LLMs) excel in various Natural Language Processing",
     "accurate evaluation of LLM performance across diverse languages."),  # not the figure labels beside it
])
def test_abstracts(name: str, start: str, end: str) -> None:
    abstract = meta(name).abstract
    assert abstract.startswith(start) and abstract.endswith(end), abstract


@needs_corpus
def test_abstract_dehyphenation() -> None:
    abstract = meta("acl2020_tapas.pdf").abstract
    assert "Answering natural language questions over tables is usually seen as a semantic parsing task." in abstract
    assert "training semantic parsers from weak supervision poses difficulties" in abstract  # "seman-"/"tic", ligature
    assert "state-of-the-art" in abstract and "pre-training" in abstract  # real hyphens kept


@needs_corpus
@pytest.mark.parametrize("name,abbr,full,year,volume", [
    ("acl2020_s2orc.pdf", "ACL", ACL_FULL, 2020,
     "Proceedings of the 58th Annual Meeting of the Association for Computational Linguistics"),
    ("eacl2023_longeval.pdf", "EACL", "Conference of the European Chapter of the Association for Computational Linguistics",
     2023, "Proceedings of the 17th Conference of the European Chapter of the Association for Computational Linguistics"),
    ("iclr2024_raptor.pdf", "ICLR", "International Conference on Learning Representations", 2024, None),
    # the "NIPS 2017" footer beats the 2023 arXiv stamp
    ("neurips2017_attention.pdf", "NeurIPS", "Conference on Neural Information Processing Systems", 2017, None),
    ("neurips2021_imle.pdf", "NeurIPS", "Conference on Neural Information Processing Systems", 2021, None),
    ("icml2020_linear_transformers.pdf", "ICML", "International Conference on Machine Learning", 2020, "PMLR 119"),
    # nothing but the arXiv stamp is printed in these copies (the corpus file name is not evidence)
    ("arxiv2020_linformer.pdf", "arxiv", "ArXiv", 2020, None),
    ("acl2020_tapas.pdf", "arxiv", "ArXiv", 2020, None),
    ("iclr2014_vae.pdf", "arxiv", "ArXiv", 2022, None),  # v11 stamp: 10 Dec 2022
    ("emnlp2023demo_papermage.pdf", "uncategorized", "uncategorized", 2023, None),  # no venue printed; the PDF dates it
])
def test_venue_from_printed_text(name: str, abbr: str, full: str, year: int | None, volume: str | None) -> None:
    md = meta(name)
    assert (md.conference_abbreviation, md.conference_full, md.pub_year, md.volume) == (abbr, full, year, volume)


@needs_corpus
def test_paper_id_matches_upstream_formula(parsed) -> None:
    paper = parsed("neurips2017_attention.pdf")
    assert paper.metadata.venue_year == "NeurIPS2017"
    assert paper.paper_id == upstream_id("Attention Is All You Need", "neurips2017")
    assert meta("arxiv2020_linformer.pdf").venue_year == "arxiv2020"
    assert meta("emnlp2023demo_papermage.pdf").venue_year is None  # -> "uncategorized" in the id
    assert paper.metadata.num_pages == 15 and paper.metadata.pdf_path.endswith("neurips2017_attention.pdf")
    assert paper.metadata.tldr is None and paper.metadata.tags is None


@needs_corpus
def test_bibtex() -> None:
    assert meta("neurips2017_attention.pdf").bibtex.startswith("@inproceedings{vaswani2017attention,\n")
    bib = meta("acl2020_s2orc.pdf").bibtex
    assert bib.startswith("@inproceedings{lo2020s2orc,")
    assert "author = {Kyle Lo and Lucy Lu Wang and Mark Neumann and Rodney Kinney and Daniel S. Weld}" in bib
    assert "booktitle = {Proceedings of the 58th Annual Meeting of the Association for Computational Linguistics}" in bib
    assert "year = {2020}" in bib
    arxiv = meta("arxiv2020_linformer.pdf").bibtex
    assert arxiv.startswith("@misc{wang2020linformer,") and "eprint = {2006.04768}" in arxiv and "primaryClass = {cs.LG}" in arxiv


# ---- venue patterns the corpus does not print (ACL Anthology / IEEE wording) ------------------------------

@pytest.mark.parametrize("text,abbr,year,volume", [
    ("Proceedings of the 62nd Annual Meeting of the Association for Computational Linguistics (Volume 1: Long Papers), "
     "pages 1234–1250 August 11-16, 2024 ©2024 Association for Computational Linguistics", "ACL", 2024,
     "Proceedings of the 62nd Annual Meeting of the Association for Computational Linguistics (Volume 1: Long Papers)"),
    ("Proceedings of the 61st Annual Meeting of the Association for Computational Linguistics Volume 2: Short Papers, "
     "pages 1773–1781 July 9-14, 2023 ©2023 Association for Computational Linguistics", "ACL", 2023,
     "Proceedings of the 61st Annual Meeting of the Association for Computational Linguistics Volume 2: Short Papers"),
    ("Findings of the Association for Computational Linguistics: EACL 2024, pages 1051–1070 March 17-22, 2024 "
     "©2024 Association for Computational Linguistics", "EACL", 2024,
     "Findings of the Association for Computational Linguistics: EACL 2024"),
    ("Findings of the Association for Computational Linguistics: ACL 2024, pages 10471–10506", "ACL", 2024,
     "Findings of the Association for Computational Linguistics: ACL 2024"),
    ("Proceedings of the 2023 Conference on Empirical Methods in Natural Language Processing: System Demonstrations, "
     "pages 495–507 December 6-10, 2023 ©2023 Association for Computational Linguistics", "EMNLP", 2023,
     "Proceedings of the 2023 Conference on Empirical Methods in Natural Language Processing: System Demonstrations"),
    ("Proceedings of the 2024 Conference of the North American Chapter of the Association for Computational Linguistics: "
     "Human Language Technologies (Volume 1: Long Papers), pages 4455–4480 June 16-21, 2024 ©2024 Association for "
     "Computational Linguistics", "NAACL", 2024,
     "Proceedings of the 2024 Conference of the North American Chapter of the Association for Computational "
     "Linguistics: Human Language Technologies (Volume 1: Long Papers)"),
    ("Proceedings of the 2014 Conference on Empirical Methods in Natural Language Processing (EMNLP), pages 1746–1751, "
     "October 25-29, 2014, Doha, Qatar. c⃝2014 Association for Computational Linguistics", "EMNLP", 2014,
     "Proceedings of the 2014 Conference on Empirical Methods in Natural Language Processing (EMNLP)"),
    ("979-8-3503-4485-1/24/$31.00 ©2024 IEEE ICASSP 2024", "icassp", 2024, None),
    ("Proceedings of the 37 th International Conference on Machine Learning, Vienna, Austria, PMLR 119, 2020. "
     "Copyright 2020 by the author(s).", "ICML", 2020, "PMLR 119"),
    ("Proceedings of NAACL-HLT 2019, pages 4171–4186 Minneapolis, Minnesota, June 2 - June 7, 2019. c⃝2019 "
     "Association for Computational Linguistics", "NAACL", 2019, "Proceedings of NAACL-HLT 2019"),
    ("Proceedings of the 5th Workshop on Privacy in Natural Language Processing, pages 10–20 August 15, 2024 ©2024 "
     "Association for Computational Linguistics", "ACL", 2024,
     "Proceedings of the 5th Workshop on Privacy in Natural Language Processing"),
    ("ICASSP 2024 - 2024 IEEE International Conference on Acoustics, Speech and Signal Processing (ICASSP) | "
     "979-8-3503-4485-1/24/$31.00 ©2024 IEEE | DOI: 10.1109/ICASSP48485.2024.10446765", "icassp", 2024, None),
    ("Published as a conference paper at ICLR 2024", "ICLR", 2024, None),
    ("36th Conference on Neural Information Processing Systems (NeurIPS 2022) Track on Datasets and Benchmarks.",
     "NeurIPS", 2022, None),
    ("31st Conference on Neural Information Processing Systems (NIPS 2017), Long Beach, CA, USA.", "NeurIPS", 2017, None),
])
def test_detect_venue_strings(text: str, abbr: str, year: int, volume: str | None) -> None:
    venue = detect_venue(text)
    assert venue is not None and (venue.abbreviation, venue.year, venue.volume) == (abbr, year, volume)


def test_emnlp_full_name_carries_the_year() -> None:
    venue = detect_venue("Findings of the Association for Computational Linguistics: EMNLP 2023, pages 1–12")
    assert venue.full == "The 2023 Conference on Empirical Methods in Natural Language Processing"


@pytest.mark.parametrize("text", [
    "Under review as a conference paper at ICLR 2024", "Preprint. Under review.",
    "we compare with papers published at ICLR 2023, ICML 2023, NeurIPS 2023",
    "Submitted to 37th Conference on Neural Information Processing Systems (NeurIPS 2023). Do not distribute.",
    "as in prior speech work (Smith et al., ICASSP 2020), we use",
])
def test_no_venue_in_unpublished_or_body_text(text: str) -> None:
    assert detect_venue(text) is None


def test_arxiv_stamp() -> None:
    stamp = detect_arxiv("arXiv:1706.03762v7  [cs.CL]  2 Aug 2023")
    assert (stamp.id, stamp.version, stamp.category, stamp.year) == ("1706.03762", "v7", "cs.CL", 2023)


# ---- sidecar and overrides -----------------------------------------------------------------------------

SIDECAR = {
    "uuid": "ignored",
    "title": "Attention is All you Need",
    "conference_full": "Conference on Neural Information Processing Systems",
    "conference": "NeurIPS",
    "year": 2017,
    "volume": "NeurIPS 2017 oral",
    "bibtex": "@inproceedings{NIPS2017_3f5ee243, title = {Attention is All you Need}}",
    "authors": ["Ashish Vaswani", "Noam Shazeer"],
    "pdf_url": "https://papers.nips.cc/paper/7181-attention-is-all-you-need.pdf",
    "num_pages": 99,
    "abstract": "Sidecar abstract.",
    "tldr": "Transformers.",
    "tags": ["attention"],
}


@pytest.fixture
def attention_copy(tmp_path: Path) -> Path:
    dst = tmp_path / "paper.pdf"
    shutil.copy(corpus_pdf("neurips2017_attention.pdf"), dst)
    return dst


@needs_corpus
def test_sidecar_wins_over_detection(attention_copy: Path) -> None:
    attention_copy.with_suffix(".json").write_text(json.dumps(SIDECAR))
    md = _meta(attention_copy)
    assert md.title == "Attention is All you Need" and md.authors == ["Ashish Vaswani", "Noam Shazeer"]
    assert (md.conference_abbreviation, md.pub_year, md.volume) == ("NeurIPS", 2017, "NeurIPS 2017 oral")
    assert md.download_url == SIDECAR["pdf_url"] and md.bibtex == SIDECAR["bibtex"]
    assert (md.abstract, md.tldr, md.tags) == ("Sidecar abstract.", "Transformers.", ["attention"])
    assert md.num_pages == 15 and md.pdf_path == str(attention_copy)  # real count and path, not the sidecar's


@needs_corpus
def test_sidecar_ignored_when_disabled(attention_copy: Path) -> None:
    attention_copy.with_suffix(".json").write_text(json.dumps(SIDECAR))
    md = _meta(attention_copy, ParseOptions(sidecar_metadata=False))
    assert md.title == "Attention Is All You Need" and md.tldr is None


@needs_corpus
def test_overrides_win_over_sidecar(attention_copy: Path) -> None:
    attention_copy.with_suffix(".json").write_text(json.dumps(SIDECAR))
    options = ParseOptions(metadata_overrides={"title": "Override Title", "pub_year": 2018})
    md = _meta(attention_copy, options)
    assert md.title == "Override Title" and md.pub_year == 2018
    assert md.volume == "NeurIPS 2017 oral"  # untouched sidecar fields stay


@needs_corpus
def test_override_without_sidecar_regenerates_bibtex(attention_copy: Path) -> None:
    md = _meta(attention_copy, ParseOptions(metadata_overrides={"conference_abbreviation": "ICLR", "pub_year": 2099}))
    assert md.venue_year == "ICLR2099" and "year = {2099}" in md.bibtex


@needs_corpus
def test_malformed_sidecar_is_a_clear_per_file_error(attention_copy: Path) -> None:
    attention_copy.with_suffix(".json").write_text('{"title": "unterminated')
    with pytest.raises(ValueError, match=r"malformed sidecar metadata paper\.json"):
        _meta(attention_copy)
    options = ParseOptions()
    with pytest.raises(ParseError, match=r"paper\.pdf.*malformed sidecar metadata paper\.json"):
        parse_pdf(attention_copy, options)


@needs_corpus
@pytest.mark.parametrize("content", ['["a", "list"]', '{"authors": "Vaswani"}', '{"year": "twenty"}'])
def test_sidecar_with_wrong_types(attention_copy: Path, content: str) -> None:
    attention_copy.with_suffix(".json").write_text(content)
    with pytest.raises(ValueError, match=r"paper\.json"):
        _meta(attention_copy)


@needs_corpus
def test_unknown_override_field(attention_copy: Path) -> None:
    with pytest.raises(ValueError, match="unknown Metadata field 'venue'"):
        _meta(attention_copy, ParseOptions(metadata_overrides={"venue": "ACL"}))


@pytest.mark.parametrize("printed, title", [
    ("PRECAUTIONARY SAVINGS—A PANEL STUDY", "Precautionary Savings—A Panel Study"),  # ReStat 1997 (corpus3 scan)
    ("NON-LINEAR MODELS: A SURVEY OF THE STATE OF THE ART", "Non-Linear Models: A Survey of the State of the Art"),
    ("LEARNING TO RANK – AN OVERVIEW", "Learning to Rank – An Overview"),
    ("TEMPORAL RESOLUTION OF UNCERTAINTY AND DYNAMIC CHOICE THEORY",
     "Temporal Resolution of Uncertainty and Dynamic Choice Theory"),
])
def test_a_title_in_capitals_is_headline_cased_with_its_subtitle_capitalised(printed, title) -> None:
    """A title printed in capitals (journals of the 1990s, JSTOR scans) comes back in headline case: small words
    lower-case, except the first word of a subtitle after a colon or a dash, and every part of a dashed compound."""
    from pipeline.parse.pymupdf.metadata import _title_case

    assert _title_case(printed) == title
