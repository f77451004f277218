"""pages and chunks views on real papers; the text expectations were checked against the printed pages."""
from __future__ import annotations

import re

import pytest

from pipeline.document import Page
from pipeline.models import resolve_model
from pipeline.parse import ParseOptions
from pipeline.parse.chunking import count_tokens, extract_chunks
from pipeline.parse.chunking import load_tokenizer as _tokenizer
from tests.conftest import needs_corpus


def squash(s: str) -> str:
    return re.sub(r"\s+", "", s)


@needs_corpus
@pytest.mark.parametrize("name,n,size", [
    ("acl2020_s2orc.pdf", 15, (595.276, 841.89)),  # A4, ACL template
    ("neurips2017_attention.pdf", 15, (612.0, 792.0)),  # US letter
    ("icassp2024_privacy_masking_llm.pdf", 5, (612.0, 792.0)),
])
def test_page_count_and_size(parsed, name: str, n: int, size: tuple[float, float]) -> None:
    pages = parsed(name).pages
    assert [p.number for p in pages] == list(range(1, n + 1))
    assert all((round(p.width, 3), round(p.height, 3)) == size for p in pages)
    assert all(p.text.strip() for p in pages)


@needs_corpus
def test_two_columns_do_not_interleave(parsed) -> None:
    # DPR p.2: the left column ends mid-sentence ("we assume") and the right column goes on with it
    text = parsed("emnlp2020_dpr.pdf").pages[1].text
    assert "of diversified topics. More specifically, we assume the extractive QA setting, in which the answer is" in text
    # ICASSP p.2: the left column (2. Related works, 3. Methodology, Fig. 1) is read before the right one
    text = parsed("icassp2024_privacy_masking_llm.pdf").pages[1].text
    order = [text.index(s) for s in ("2. RELATED WORKS", "3. METHODOLOGY", "3.1. Token Masking Techniques",
                                     "3.2. Recovery Methods from Masking", "Top-1: In this method")]
    assert order == sorted(order)


@needs_corpus
def test_title_block_and_abstract_before_columns(parsed) -> None:
    text = parsed("acl2020_specter.pdf").pages[0].text
    order = [text.index(s) for s in ("SPECTER: Document-level Representation Learning using", "Arman Cohan",
                                     "Abstract", "Representation learning is a critical", "1 Introduction",
                                     "As the pace of scientific publication", "or sentences, extensions to whole-document",
                                     "Proceedings of the 58th Annual Meeting")]
    assert order == sorted(order)


@needs_corpus
def test_author_grid_read_row_by_row(parsed) -> None:
    # five authors in a 3 + 2 grid above a two-column body: names stay in the header, row by row
    text = parsed("acl2023short_teaching_small_lms.pdf").pages[0].text
    order = [text.index(s) for s in ("Lucie Charlotte Magister", "Jonathan Mallinson", "Jakub Adamek", "Eric Malmi",
                                     "Aliaksei Severyn", "Abstract", "Chain of thought prompting")]
    assert order == sorted(order)


@needs_corpus
def test_arxiv_stamp_is_set_aside(parsed) -> None:
    # the rotated stamp in the left margin ends the page instead of splitting the left column
    text = parsed("emnlp2020_dpr.pdf").pages[0].text
    assert text.endswith("arXiv:2004.04906v3 [cs.CL] 30 Sep 2020")
    assert "outperform BM25, setting new state-of-the-art results on multiple open-domain\n\narXiv" in text


@needs_corpus
def test_full_width_figure_then_columns(parsed) -> None:
    # a caption across both columns closes the band above it; text below is read left column first
    text = parsed("eacl2024findings_llm_evaluators.pdf").pages[7].text
    i = text.index("Figure 7: Class distribution for Pt-Br and Zh.")
    left = text.index("We also observe that increasing the temperature")
    right = text.index("Overall, our results indicate that GPT-based eval")
    assert i < left < text.index("makes the model more susceptible to any noise in") < right


@needs_corpus
def test_ligatures_spelled_out(parsed) -> None:
    text = parsed("acl2020_s2orc.pdf").pages[0].text
    assert "ﬁ" not in text and "unified source" in text


# ---- chunks --------------------------------------------------------------------------------------------

@needs_corpus
@pytest.mark.parametrize("name", ["acl2020_s2orc.pdf", "neurips2017_attention.pdf", "iclr2024_raptor.pdf"])
def test_chunks_fit_and_cover_their_page(parsed, name: str) -> None:
    paper = parsed(name)
    tok = _tokenizer(ParseOptions().tokenizer)
    for page in paper.pages:
        chunks = [c for c in paper.chunks if c.page_number == page.number]
        assert [c.ordinal for c in chunks] == list(range(len(chunks)))
        assert all(count_tokens(tok, c.text) <= 512 for c in chunks)
        assert squash("".join(c.text for c in chunks)) == squash(page.prose)
    # a full page of text is more than one chunk, and chunks are not tiny slivers
    assert max(c.ordinal for c in paper.chunks) >= 1
    assert sum(count_tokens(tok, c.text) for c in paper.chunks) / len(paper.chunks) > 200


def test_single_line_over_the_limit_is_split_by_tokens() -> None:
    long_line = " ".join(f"token{i} internationalization" for i in range(600))
    page = Page(1, 612, 792, "A heading\n" + long_line + "\n" + "x" * 4000 + "\nlast line")
    options = ParseOptions(chunk_tokens=128)
    tok = _tokenizer(options.tokenizer)
    chunks = extract_chunks([page], options)
    assert len(chunks) > 10 and [c.ordinal for c in chunks] == list(range(len(chunks)))
    assert all(count_tokens(tok, c.text) <= 128 for c in chunks)
    assert squash("".join(c.text for c in chunks)) == squash(page.text)
    # whole lines stay whole: the heading is its own chunk, the long line starts the next one
    assert chunks[0].text == "A heading" and chunks[1].text.startswith("token0 internationalization token1")


def test_tokenizer_is_configurable() -> None:
    page = Page(3, 612, 792, "\n".join(f"Line {i} of a page about dense retrieval." for i in range(200)))
    default = extract_chunks([page], ParseOptions(chunk_tokens=64))
    by_path = extract_chunks([page], ParseOptions(chunk_tokens=64, tokenizer=resolve_model("all-MiniLM-L6-v2")))
    assert [c.text for c in default] == [c.text for c in by_path]
    assert all(c.page_number == 3 for c in default) and len(default) > 1


def test_empty_page_has_no_chunks() -> None:
    assert extract_chunks([Page(1, 612, 792, "  \n ")], ParseOptions()) == []
