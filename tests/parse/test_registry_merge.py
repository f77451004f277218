"""Backend registry (names -> dotted paths, imported on demand) and the per-view merge."""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

from pipeline.document import Chunk, Figure, Metadata, Page, ParsedPaper, Reference, Section, Table
from pipeline.parse import ParseOptions, available_backends, get_backend, parse_pdf, register_backend
from pipeline.parse import registry
from pipeline.parse.merge import merge
from tests.parse._synthetic import build_pdf

FAKE = "tests.parse._fake_backend"


@pytest.fixture
def clean_registry(monkeypatch):
    monkeypatch.setattr(registry, "_TARGETS", dict(registry._TARGETS))
    monkeypatch.setattr(registry, "_LOADED", dict(registry._LOADED))
    monkeypatch.delitem(sys.modules, FAKE, raising=False)


def test_unknown_backend_names_the_known_ones() -> None:
    assert "pymupdf" in available_backends()
    with pytest.raises(ValueError, match=r"unknown parse backend 'nope' \(available: .*pymupdf"):
        get_backend("nope")
    with pytest.raises(ValueError, match="unknown parse backend 'nope'"):
        parse_pdf(Path("whatever.pdf"), ParseOptions(backend="nope"))


def test_registered_dotted_path_is_imported_lazily(clean_registry) -> None:
    register_backend("fake", f"{FAKE}:FakeBackend")
    assert "fake" in available_backends()
    assert FAKE not in sys.modules  # registering imports nothing
    backend = get_backend("fake")
    assert FAKE in sys.modules and backend.name == "fake" and get_backend("fake") is backend
    with pytest.raises(ValueError, match="package.module:Class"):
        register_backend("broken", "no_colon_here")


def test_unknown_view_in_options_is_rejected() -> None:
    with pytest.raises(ValueError, match="unknown view"):
        ParseOptions(views={"chunks": "pymupdf"})


def _paper(tag: str, pages: int = 2) -> ParsedPaper:
    md = Metadata(title=f"Title {tag}", num_pages=pages, conference_abbreviation="ACL", pub_year=2024)
    paper = ParsedPaper(pdf_path="x.pdf", metadata=md)
    paper.pages = [Page(n, 612, 792, f"{tag} page {n}") for n in range(1, pages + 1)]
    paper.chunks = [Chunk(1, 0, f"{tag} chunk")]
    paper.sections = [Section(0, f"1 {tag}", 1, "text", [1])]
    paper.tables = [Table(2, 0, f"Table 1: {tag}", "<table></table>", (1, 2, 3, 4))]
    paper.figures = [Figure(1, 0, f"Figure 1: {tag}", (5, 6, 7, 8))]
    paper.references = [Reference(0, f"{tag} ref", 2)]
    paper.errors = [f"equations: ValueError: {tag}"]
    paper.timings = {"analyze": 1.0, "tables": 2.0, "equations": 3.0}
    return paper


def test_merge_takes_each_view_from_its_backend() -> None:
    a, b = _paper("a"), _paper("b")
    options = ParseOptions(backend="a", views={"tables": "b", "equations": "b"})
    out = merge({"a": a, "b": b}, options)
    assert out.metadata is a.metadata and out.paper_id == a.paper_id
    assert out.pages == a.pages and out.sections == a.sections and out.figures == a.figures
    assert out.references == a.references
    assert out.tables == b.tables
    assert out.errors == ["equations: ValueError: b"]  # errors follow their view
    assert out.timings == {"analyze": 1.0, "tables": 2.0, "equations": 3.0, "b.analyze": 1.0}
    pages = {p.number for p in out.pages}
    assert {t.page_number for t in out.tables} <= pages and {r.page_number for r in out.references} <= pages


def test_merge_with_one_backend_is_the_identity() -> None:
    a = _paper("a")
    assert merge({"pymupdf": a}, ParseOptions()) is a


def test_merge_refuses_backends_that_disagree_on_pages() -> None:
    with pytest.raises(ValueError, match="page count"):
        merge({"a": _paper("a"), "b": _paper("b", pages=3)}, ParseOptions(backend="a", views={"tables": "b"}))


def test_parse_pdf_merges_views_from_two_backends(clean_registry, tmp_path: Path) -> None:
    register_backend("fake", f"{FAKE}:FakeBackend")
    pdf = build_pdf(tmp_path / "synthetic.pdf")
    alone = parse_pdf(pdf, ParseOptions())
    mixed = parse_pdf(pdf, ParseOptions(views={"tables": "fake", "images": "fake"}))
    assert [t.caption for t in mixed.tables] == ["Table 9: from the fake backend"]
    assert mixed.figures == [] and mixed.errors == ["images: RuntimeError: the fake backend draws no figures"]
    assert mixed.metadata == alone.metadata and mixed.pages == alone.pages and mixed.sections == alone.sections
    assert mixed.chunks == alone.chunks  # cut by the core from the merged pages
    assert "fake.analyze" in mixed.timings and "chunks" in mixed.timings
