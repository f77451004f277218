"""Bold and italic in Type 3 bitmap fonts, told from their strokes and slant (pipeline/parse/pymupdf/_type3.py), on the zoo's AIAA paper:
its T1 Computer Modern is set in Type 3 fonts named `F33`, `F74`, ... with no bold flag."""
from __future__ import annotations

from pathlib import Path

import pymupdf

from pipeline.parse.pymupdf._type3 import mark_type3_styles
from pipeline.parse.pymupdf.page import text_dict

PDF = Path(__file__).resolve().parents[1] / "zoo" / "papers" / "aiaa_tc" / "paper.pdf"


def _fonts_of(raws: list[dict], text: str) -> set[tuple[str, bool]]:
    return {(s["font"], bool(s["flags"] & 16)) for raw in raws for b in raw["blocks"] for ln in b.get("lines", ())
            for s in ln["spans"] if text in s["text"]}


def test_bold_type3_faces_are_marked_and_the_body_is_not():
    with pymupdf.open(PDF) as doc:
        raws = [text_dict(p) for p in doc]
        assert not any(s["flags"] & 16 for raw in raws for b in raw["blocks"] for ln in b.get("lines", ())
                       for s in ln["spans"])  # the premise: no span says it is bold
        marked = mark_type3_styles(doc, raws)
    sub = _fonts_of(raws, "Hierarchical")  # "A. Hierarchical and Memory Encoders": bold at body size
    body = _fonts_of(raws, "Fixed patterns are cheap")
    affiliation = _fonts_of(raws, "Palaiseau")  # italic
    assert any(bold for _, bold in sub) and {f for f, b in sub if b} <= marked
    assert body and not any(bold for _, bold in body) and not any(bold for _, bold in affiliation)
    italic = {(s["font"], bool(s["flags"] & 2)) for raw in raws for b in raw["blocks"] for ln in b.get("lines", ())
              for s in ln["spans"] if "Palaiseau" in s["text"] or "Fixed patterns are cheap" in s["text"]}
    assert {flag for font, flag in italic if font in {f for f, _ in affiliation}} == {True}  # its slant measured
    assert {flag for font, flag in italic if font in {f for f, _ in body}} == {False}


def test_a_document_without_type3_fonts_is_left_as_it_is():
    doc = pymupdf.open()
    page = doc.new_page()
    page.insert_text((72, 72), "Plain text in a base-14 font, set at ten points on one line.", fontsize=10)
    raws = [text_dict(page)]
    before = [s["flags"] for b in raws[0]["blocks"] for ln in b["lines"] for s in ln["spans"]]
    assert mark_type3_styles(doc, raws) == set()
    assert [s["flags"] for b in raws[0]["blocks"] for ln in b["lines"] for s in ln["spans"]] == before
