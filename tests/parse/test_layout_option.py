"""ParseOptions.pymupdf.layout_model: "auto" asks the layout model only where the heuristics place no table or
figure, and about italic heading styles typography cannot tell from emphasis; "never" skips those (the model is
never touched)."""
from __future__ import annotations

from pathlib import Path

import pymupdf
import pytest

from pipeline.parse import ParseOptions, parse_pdf
from pipeline.parse.pymupdf.page import PageAnalysis


def _caption_without_table(path: Path) -> Path:
    doc = pymupdf.open()
    page = doc.new_page()
    y = 90.0
    page.insert_text((72, y), "A Paper Whose Table Went Missing", fontname="tibo", fontsize=16)
    for i in range(8):
        y += 16
        page.insert_text((72, y), f"Running text line {i} of the paper, long enough to read as ordinary prose here.",
                         fontname="tiro", fontsize=10)
    page.insert_text((200, y + 40), "Table 1: A caption with no table near it.", fontname="tiro", fontsize=9)
    doc.save(path)
    return path


@pytest.fixture
def layout_called(monkeypatch) -> list[int]:
    calls: list[int] = []

    def fake_layout(self: PageAnalysis):
        calls.append(self.number)
        return []

    monkeypatch.setattr(PageAnalysis, "layout", property(fake_layout))
    return calls


def test_auto_uses_the_layout_model_as_fallback(tmp_path: Path, layout_called: list[int]) -> None:
    parse_pdf(_caption_without_table(tmp_path / "p.pdf"), ParseOptions())
    assert layout_called == [1]


def test_never_skips_the_layout_model(tmp_path: Path, layout_called: list[int]) -> None:
    paper = parse_pdf(_caption_without_table(tmp_path / "p.pdf"), ParseOptions(pymupdf={"layout_model": "never"}))
    assert layout_called == [] and paper.errors == []


def test_layout_model_option_is_validated() -> None:
    with pytest.raises(ValueError):
        ParseOptions(pymupdf={"layout_model": "always"})


ZOO = Path(__file__).resolve().parents[1] / "zoo" / "papers"


def test_layout_model_votes_on_italic_headings() -> None:
    """ASCE proceedings set their third heading level in body-size italics, which emphasis shares: the real layout
    model, asked about those rows only, calls them section headers; without it they stay body text."""
    import json

    sections = json.loads((ZOO / "ascelike" / "truth.json").read_text())["sections"]
    truth = [s["title"] for s in sections if s["level"] == 3]
    voted = parse_pdf(ZOO / "ascelike" / "paper.pdf", ParseOptions())
    plain = parse_pdf(ZOO / "ascelike" / "paper.pdf", ParseOptions(pymupdf={"layout_model": "never"}))
    assert [s.title for s in voted.sections if s.level == 3] == truth
    assert not [s for s in plain.sections if s.title in truth]
    assert [s.title for s in voted.sections if s.level < 3] == [s.title for s in plain.sections]
