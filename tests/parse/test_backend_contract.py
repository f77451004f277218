"""The contract every parse backend must satisfy (parametrized over available_backends()), checked on corpus PDFs
and on a small PDF the test draws itself (so it also runs without the corpus)."""
from __future__ import annotations

from pathlib import Path

import pytest

from pipeline.document import ParsedPaper
from pipeline.ids import paper_id
from pipeline.parse import ParseOptions, available_backends, parse_pdf
from pipeline.parse.chunking import count_tokens, load_tokenizer
from pipeline.parse.options import VIEWS
from tests.conftest import corpus_pdf
from tests.parse._synthetic import TITLE, build_pdf

TOL = 2.0  # points a bbox may stick out of its page (glyph overhang, rounding)

# corpus PDF -> views that are genuinely empty for it (checked against the printed paper)
CORPUS_CASES = {
    "emnlp2014_cnn_sentence.pdf": set(),
    "neurips2017_attention.pdf": set(),
    "acl2023short_teaching_small_lms.pdf": {"equations"},  # no display equations in this short paper
}


# slow optional backends run the corpus contract on one small PDF (MinerU flash parses ~1 page/s on CI's 2 cores;
# test_mineru.py parses more of the corpus)
CORPUS_SUBSET = {"mineru": {"emnlp2014_cnn_sentence.pdf"}}


def _skip_unless_installed(backend: str) -> None:
    """Optional backends (extras) are skipped where their package is not installed."""
    if backend == "mineru":
        from pipeline.parse.mineru.tiers import installed

        if not installed():
            pytest.skip("mineru is not installed (scripts/install-mineru.sh)")


def check_contract(paper: ParsedPaper, options: ParseOptions, may_be_empty: set[str]) -> None:
    md = paper.metadata
    assert paper.paper_id == paper_id(md.title, md.venue_year)
    assert md.title and md.num_pages == len(paper.pages)
    assert [p.number for p in paper.pages] == list(range(1, md.num_pages + 1))
    sizes = {p.number: (p.width, p.height) for p in paper.pages}

    for attr in ("chunks", "tables", "figures", "equations"):
        items = getattr(paper, attr)
        per_page: dict[int, list[int]] = {}
        for item in items:
            assert item.page_number in sizes, f"{attr}: page {item.page_number} out of range"
            per_page.setdefault(item.page_number, []).append(item.ordinal)
        for page, ordinals in per_page.items():
            assert ordinals == list(range(len(ordinals))), f"{attr} ordinals on page {page}: {ordinals}"
    for attr in ("sections", "references"):
        assert [x.ordinal for x in getattr(paper, attr)] == list(range(len(getattr(paper, attr)))), attr
    assert all(r.page_number in sizes for r in paper.references)
    assert all(set(s.page_numbers) <= set(sizes) for s in paper.sections)

    for attr in ("tables", "figures", "equations"):
        for item in getattr(paper, attr):
            if item.bbox is None:
                continue
            x0, y0, w, h = item.bbox
            width, height = sizes[item.page_number]
            assert w > 0 and h > 0, f"{attr} bbox {item.bbox}"
            assert -TOL <= x0 and x0 + w <= width + TOL and -TOL <= y0 and y0 + h <= height + TOL, \
                f"{attr} bbox {item.bbox} outside page {item.page_number} ({width} x {height})"

    for view, attr in VIEWS.items():
        if view == "metadata":
            continue
        value = getattr(paper, attr)
        assert isinstance(value, list), f"{view} view missing"
        if not value and view not in may_be_empty:
            assert any(e.startswith(f"{view}:") for e in paper.errors), f"{view} view empty without an error"
    assert isinstance(paper.chunks, list) and paper.chunks
    tok = load_tokenizer(options.tokenizer)
    assert all(count_tokens(tok, c.text) <= options.chunk_tokens for c in paper.chunks)


@pytest.mark.parametrize("backend", available_backends())
def test_contract_on_a_drawn_pdf(backend: str, tmp_path: Path) -> None:
    _skip_unless_installed(backend)
    options = ParseOptions(backend=backend, chunk_tokens=64)
    paper = parse_pdf(build_pdf(tmp_path / "synthetic.pdf"), options)
    check_contract(paper, options, may_be_empty={"equations"})
    assert paper.metadata.title == TITLE
    assert [s.title for s in paper.sections][:3] == ["Abstract", "1 Introduction", "2 Method"]
    assert [t.caption for t in paper.tables] == ["Table 1: Accuracy of the two synthetic systems."]
    assert [f.caption for f in paper.figures] == ["Figure 1: Overview of the synthetic pipeline."]
    assert len(paper.references) == 3


@pytest.mark.parametrize("backend", available_backends())
@pytest.mark.parametrize("name", sorted(CORPUS_CASES))
def test_contract_on_corpus_pdfs(backend: str, name: str) -> None:
    _skip_unless_installed(backend)
    if name not in CORPUS_SUBSET.get(backend, {name}):
        pytest.skip(f"{backend} runs the corpus contract on {sorted(CORPUS_SUBSET[backend])} only (speed)")
    options = ParseOptions(backend=backend)
    paper = parse_pdf(corpus_pdf(name), options)
    check_contract(paper, options, CORPUS_CASES[name])
