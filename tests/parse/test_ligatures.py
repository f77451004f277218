"""Ligatures are spelled out in every text field of a parsed paper (table cells and captions included), and nothing
else is rewritten: no NFKC, so math keeps its superscripts and symbols."""
from __future__ import annotations

import dataclasses

from pipeline.document import Metadata, ParsedPaper, Table
from pipeline.parse.cleanup import spell_paper_ligatures
from tests.conftest import needs_corpus

LIGATURES = "ﬀﬁﬂﬃﬄﬅﬆ"


def _texts(obj) -> list[str]:
    out: list[str] = []
    for f in dataclasses.fields(obj):
        value = getattr(obj, f.name)
        for item in value if isinstance(value, list) else [value]:
            if isinstance(item, str):
                out.append(item)
            elif dataclasses.is_dataclass(item):
                out += _texts(item)
    return out


def test_every_text_field_is_spelled_out_and_math_is_left_alone():
    paper = ParsedPaper("x.pdf", Metadata(title="Eﬃcient ﬁne-tuning", authors=["Ruﬀ"]),
                        tables=[Table(1, 0, "Table 1: ﬂows", "<table><tr><td>ﬁrst x² ≤ ∑ 𝑥</td></tr></table>", (0, 0, 1, 1))])
    spell_paper_ligatures(paper)
    assert paper.metadata.title == "Efficient fine-tuning" and paper.metadata.authors == ["Ruff"]
    assert paper.tables[0].caption == "Table 1: flows"
    assert paper.tables[0].html == "<table><tr><td>first x² ≤ ∑ 𝑥</td></tr></table>"  # math untouched


@needs_corpus
def test_no_ligature_left_in_a_parsed_corpus_paper(parsed):
    paper = parsed("acl2020_tapas.pdf")  # its table cells drew "ﬁ" before
    texts = _texts(paper)
    assert texts and not [t for t in texts if any(c in t for c in LIGATURES)]
    assert any("fi" in t.html for t in paper.tables)


def _one_span(font: str, text: str) -> dict:
    return {"blocks": [{"lines": [{"spans": [{"font": font, "text": text}]}]}]}


def test_tex_ligature_codes_of_fonts_without_unicode_maps_are_read_per_font():
    """A Type 3 TeX font without a ToUnicode map gives its encoding's codes: T1 ligatures at 0x1B-0x1F, OT1's at
    0x0B-0x0F (and œ ø Æ Œ Ø at 0x1B-0x1F); a font whose coded words read as no English word either way (OML maths
    has Greek letters there) is left as it was."""
    from pipeline.parse.pymupdf.page import _tex_codes

    cases = [("E\x1ecient classi\x1ccation of the \x1crst \x1dow, di\x1berent from Bj\x1crn", "T1",
              "Efficient classification of the first flow, different from Bjfirn"),
             ("we \x0cnd the e\x0eciency of a \x0dow", "OT1", "we find the efficiency of a flow"),
             ("\x0bi + \x0c2 = \x0e", "OML", "\x0bi + \x0c2 = \x0e"),
             ("a \x1c b", "T1 alone", "a \x1c b"),
             # T1's quotes and dashes: with its ligatures, or alone where used as quotes and dashes; OT1 keeps its
             # accents there and OML maths its Greek letters
             ("E\x1ecient (2022). \x10Title.\x11 Journal, 617\x15630\x16end", "T1 text",
              "Efficient (2022). “Title.” Journal, 617–630—end"),
             ("(2019). \x10Hierarchical encoders.\x11 Systems, 429\x15438.", "T1 quotes", "(2019). “Hierarchical encoders.” Systems, 429–438."),
             ("we \x0cnd \x10", "OT1 accents", "we find \x10"),
             ("\x10 + \x11x = \x0b", "OML Greek", "\x10 + \x11x = \x0b")]
    for text, font, want in cases:
        raw = _one_span(font, text)
        _tex_codes(raw)
        assert raw["blocks"][0]["lines"][0]["spans"][0]["text"] == want, font


def test_a_type3_t1_paper_keeps_its_ligatures_in_every_view():
    """The zoo's cas-dc paper is set in T1 fonts that TeX Live here has only as Type 3 bitmaps: its text layer has
    0x1E for "ffi" and 0x1C for "fi". Parsed, the title, headings and pages read "Efficient", "Classification"."""
    from pathlib import Path

    import pymupdf

    from pipeline.parse import ParseOptions, parse_pdf

    pdf = Path(__file__).resolve().parents[1] / "zoo" / "papers" / "els_cas" / "paper.pdf"
    with pymupdf.open(pdf) as doc:
        assert "\x1e" in doc[0].get_text() and "\x1c" in doc[0].get_text()  # the premise: codes in the raw layer
    paper = parse_pdf(pdf, ParseOptions())
    assert paper.metadata.title == "Learning Sparse Routing for Efficient Long Document Classification"
    assert "2.2. Efficient Attention" in [s.title for s in paper.sections]
    text = "\n".join(p.text for p in paper.pages)
    assert not any(c in text for c in "\x0b\x0c\x0d\x0e\x0f\x10\x11\x15\x16\x1b\x1c\x1d\x1e\x1f")
    assert "efficient" in text.lower() and "classification" in text.lower()


def test_a_type3_t1_reference_list_reads_its_quotes_and_dashes():
    """ascelike.bst puts each title in double quotes and page ranges use en dashes; in the zoo's ASCE paper (Type 3
    T1 fonts) the layer has 0x10 / 0x11 / 0x15 there."""
    from pathlib import Path

    from pipeline.parse import ParseOptions, parse_pdf

    pdf = Path(__file__).resolve().parents[1] / "zoo" / "papers" / "ascelike" / "paper.pdf"
    paper = parse_pdf(pdf, ParseOptions())
    first = paper.references[0].text
    assert "“" in first and "”" in first and "–" in first and not any(c in first for c in "\x10\x11\x15"), first


def test_a_font_whose_own_words_decide_nothing_reads_as_the_pages_text_fonts():
    """A Type 3 title font's one coded word is a name (`shape\\x1cles`), no English word under either reading: the
    page's text font, whose words decide T1, decides it too, for codes inside a word; a maths font's lone codes stay.
    In the zoo's NRC paper (Type 3, T1) a reference in its own font read `classi\\x1ccation` and `478\\x15493`."""
    from pathlib import Path

    from pipeline.parse import ParseOptions, parse_pdf
    from pipeline.parse.pymupdf.page import _tex_codes

    raw = {"blocks": [{"lines": [{"spans": [
        {"font": "F31", "text": "Handling shape\x1cles in the spatstat package"},
        {"font": "F30", "text": "E\x1ecient \x1cles are di\x1berent"},
        {"font": "F12", "text": "\x0bi + \x1c = 2"},
        {"font": "F27", "text": "Description"}, {"font": "F27", "text": "a\x1by"}]}]}]}  # a span per word
    _tex_codes(raw)
    assert [s["text"] for s in raw["blocks"][0]["lines"][0]["spans"]] == [
        "Handling shapefiles in the spatstat package", "Efficient files are different", "\x0bi + \x1c = 2",
        "Description", "affy"]

    pdf = Path(__file__).resolve().parents[1] / "zoo" / "papers" / "nrc" / "paper.pdf"
    text = "\n".join(p.text for p in parse_pdf(pdf, ParseOptions()).pages)
    assert "document classification revisited" in text and "478–493" in text
    assert not any(c in text for c in "\x0b\x0c\x0d\x0e\x0f\x10\x11\x15\x16\x1b\x1c\x1d\x1e\x1f")
