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
