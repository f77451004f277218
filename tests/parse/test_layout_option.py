"""ParseOptions.pymupdf.layout_model: "auto" asks the layout model only where the heuristics place no table or
figure; "never" skips those fallbacks (the model is never touched)."""
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
