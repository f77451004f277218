"""Views share facts (captions, float regions, headings, column geometry) through DocumentFacts, never through
each other's leftovers: any order, or a view run alone, gives the same output."""
from __future__ import annotations

import dataclasses
from pathlib import Path

from pipeline.document import ParsedPaper
from pipeline.parse import ParseOptions, get_backend
from pipeline.parse.options import VIEWS
from tests.conftest import corpus_pdf, needs_corpus
from tests.parse._synthetic import build_pdf


def _views(paper: ParsedPaper) -> dict:
    data = dataclasses.asdict(paper)
    data.pop("timings")
    return data


def _assert_order_free(path: Path) -> None:
    backend, options = get_backend("pymupdf"), ParseOptions()
    default = backend.parse(path, options)
    reverse = backend.parse(path, options, views=list(reversed(VIEWS)))  # equations before images and tables
    assert _views(reverse) == _views(default)
    for view, attr in VIEWS.items():  # each view alone, with nothing computed before it
        alone = backend.parse(path, options, views=[view])
        assert getattr(alone, attr) == getattr(default, attr), view


@needs_corpus
def test_view_order_does_not_matter_on_a_corpus_pdf() -> None:
    _assert_order_free(corpus_pdf("emnlp2014_cnn_sentence.pdf"))


def test_view_order_does_not_matter_on_a_drawn_pdf(tmp_path: Path) -> None:
    _assert_order_free(build_pdf(tmp_path / "synthetic.pdf"))
