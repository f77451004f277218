"""The core's text normalisation (pipeline/parse/normalize.py): each rule on its own, idempotence, and the whole
paper pass over every view whatever backend made it."""
from __future__ import annotations

from pathlib import Path

import pytest

from pipeline.document import Equation, Metadata, Page, ParsedPaper, Reference, Section, Table
from pipeline.parse.normalize import Vocabulary, hyphen_join, normalize_paper, normalize_text
from pipeline.parse.quality import text_defects

CORPUS2 = Path(__file__).resolve().parents[2].parent / "shared" / "corpus2"

CASES = [
    # (what, raw, normalised)
    ("a word broken at a line end", "the compo-\nnent of it", "the component of it"),
    ("a compound broken at its hyphen", "a large-\nscale study", "a large-scale study"),
    ("self-attention keeps its hyphen", "multi-head self-\nattention", "multi-head self-attention"),
    ("a fragment that is no word joins", "Transform-\ners and approxi-\nmation", "Transformers and approximation"),
    ("a capital after the hyphen", "the Moore-\nPenrose inverse", "the Moore-Penrose inverse"),
    ("a digit after the hyphen", "SST-\n2 and GPT-\n4", "SST-2 and GPT-4"),
    ("an acronym before the hyphen", "BERT-\nsmall", "BERT-small"),
    ("a suspended hyphen", "first- and second-order", "first- and second-order"),
    ("a split joined with a space", "the compo- nent", "the component"),
    ("a word broken across a paragraph break", "descrip-\n\ntions follow", "descriptions follow"),
    ("spacing accent before its letter", "Nystr¨om and G¨odel", "Nyström and Gödel"),
    ("spacing accent with a space", "Nystr¨ om", "Nyström"),
    ("accent between two copies of its letter", "Nystro¨om", "Nyström"),
    ("cedilla after its letter", "Franc¸ois", "François"),
    ("grave between letters", "Br`ezis", "Brèzis"),
    ("accent on a dotless i", "Ma´ıa", "Maía"),
    ("math accent in prose", "the entry of ˆS", "the entry of Ŝ"),
    ("accent at a line end, its letter on the next", "corresponds to ˆ\nAS", "corresponds to ÂS"),
    ("vector arrow drawn before its letter", "by ⃗Vi and ⃗Ai", "by V⃗i and A⃗i"),
    ("vector arrow drawn before a digit", "=⃗0", "=0⃗"),
    ("negation slash drawn before its relation", "f(x)̸=1", "f(x)≠1"),
    ("mathematical italic letters", "\U0001d43e is \U0001d459\U0001d45c\U0001d454 \U0001d6fc", "K is log α"),
    ("mathematical bold digit", "\U0001d7cf", "1"),
    ("planck h", "\u210e(x)", "h(x)"),
    ("soft hyphen at a break", "machipon\u00ad gonensis", "machipongonensis"),
    ("soft hyphen inside a word", "infor\u00admation", "information"),
    ("U+FFFD on its own line", "softmax\n\ufffd\ndq", "softmax dq"),
    ("U+FFFD inside a word", "x\ufffdy and a \ufffd b", "xy and a b"),
    ("ligatures", "signiﬁcant ﬂow", "significant flow"),
    ("lines of a paragraph joined, paragraphs kept", "one\ntwo\n\nthree\nfour", "one two\n\nthree four"),
    ("a URL broken over two lines", "at https://github.com/\nfoo/bar now", "at https://github.com/foo/bar now"),
    ("a URL broken after a dot", "see http://www.biomedcentral.\ncom/1741 now", "see http://www.biomedcentral.com/1741 now"),
    ("a sentence after a URL's full stop", "at www.nature.com/reprints.\nThe authors declare",
     "at www.nature.com/reprints. The authors declare"),
    ("runs of spaces", "a  b\t c", "a b c"),
]


@pytest.mark.parametrize("what, raw, want", CASES, ids=[c[0] for c in CASES])
def test_each_rule(what: str, raw: str, want: str) -> None:
    got = normalize_text(raw)
    assert got == want
    assert normalize_text(got) == got  # idempotent


@pytest.mark.parametrize("what, raw, want", CASES, ids=[c[0] for c in CASES])
def test_no_defect_left(what: str, raw: str, want: str) -> None:
    defects = text_defects(normalize_text(raw))
    assert defects["accent"] == defects["math_alnum"] == defects["fffd"] == defects["soft_hyphen"] == 0
    assert defects["split"] == 0 or what == "a suspended hyphen"


def test_the_document_vocabulary_decides_first() -> None:
    vocab = Vocabulary()
    vocab.add("we apply soft-max twice; soft-max is smooth\n")
    assert hyphen_join("soft", "max", vocab) == "soft-max"
    vocab = Vocabulary()
    vocab.add("the softmax of the scores, a softmax layer\n")
    assert hyphen_join("soft", "max", vocab) == "softmax"
    # without evidence: the word list (pyspellchecker): "softmax" is not a word, its halves are
    assert hyphen_join("soft", "max", Vocabulary()) == "soft-max"
    # a word the document prints whole but the word list does not know
    vocab = Vocabulary()
    vocab.add("Nyströmformer is fast.\n")
    assert hyphen_join("Nyström", "former", vocab) == "Nyströmformer"
    # a capital after the hyphen keeps it, unless the paper prints the word whole
    assert hyphen_join("SCI", "DOCS", Vocabulary()) == "SCI-DOCS"
    vocab = Vocabulary()
    vocab.add("we release SCIDOCS, and SCIDOCS covers seven tasks\n")
    assert hyphen_join("SCI", "DOCS", vocab) == "SCIDOCS"


def test_a_line_end_word_is_not_evidence() -> None:
    vocab = Vocabulary()
    vocab.add("a large-\nscale study\n")
    assert vocab.compounds["large-scale"] == 0 and vocab.words["large"] == 0 and vocab.words["scale"] == 1


def test_every_view_of_a_paper_is_normalised_but_latex_keeps_math_letters() -> None:
    paper = ParsedPaper(
        pdf_path="x.pdf",
        metadata=Metadata(title="A Nystr¨om-\nbased Method", abstract="We study compo-\nnents.", authors=["G¨odel"]),
        pages=[Page(1, 600, 800, "compo-\nnent \U0001d43e\n\nnext", prose="compo-\nnent\n\n[Equation (1)]")],
        sections=[Section(0, "1 Intro-\nduction", 1, "text\ufffd here\n\nmore\u00ad text", [1])],
        tables=[Table(1, 0, "Table 1: Nystr¨om", "<table><tr><td>G¨odel \U0001d43e</td></tr></table>", (0, 0, 1, 1))],
        equations=[Equation(1, 0, "\U0001d43e = \\sum_{i} x_i")],
        references=[Reference(0, "K. G¨odel. On formally unde-\ncidable propositions.", 1)],
    )
    stats = normalize_paper(paper)
    assert paper.metadata.title == "A Nyström-based Method"
    assert paper.metadata.abstract == "We study components."
    assert paper.metadata.authors == ["Gödel"]
    assert paper.pages[0].text == "component K\n\nnext"
    assert paper.pages[0].prose == "component\n\n[Equation (1)]"
    assert paper.sections[0].title == "1 Introduction"
    assert paper.sections[0].content == "text here\n\nmoretext"
    assert paper.tables[0].caption == "Table 1: Nyström"
    assert paper.tables[0].html == "<table><tr><td>Gödel K</td></tr></table>"
    assert paper.equations[0].latex == "\U0001d43e = \\sum_{i} x_i"  # kept as it is in equation_content
    assert paper.references[0].text == "K. Gödel. On formally undecidable propositions."
    assert stats["fffd_dropped"] == 1 and stats["soft_hyphens"] == 1 and stats["accents_composed"] >= 5
    assert paper.text_stats == stats
    before = (paper.pages[0].text, paper.sections[0].content, paper.tables[0].html, paper.references[0].text)
    normalize_paper(paper)  # a second pass changes nothing
    assert (paper.pages[0].text, paper.sections[0].content, paper.tables[0].html, paper.references[0].text) == before


def test_accents_drawn_after_their_letter_follow_the_documents_convention() -> None:
    """Arbortext / 3B2 PDFs (Nature, PLOS around 2012) draw an accent after its letter: a vote over the page text
    (accents closing words against accents opening them) decides which letter an accent inside a word belongs to."""
    after = "Pedro´s-Alio´, C. Marine diversity.\n\nHe´le`ne Pasquier, Universite´ Paris Sud, Dro¨ge J."
    paper = ParsedPaper(pdf_path="x.pdf", metadata=Metadata(title="T", abstract="", authors=["He´le`ne Pasquier"]),
                        pages=[Page(1, 600, 800, after, prose=after)],
                        references=[Reference(0, "Pedro´s-Alio´, C. & Dro¨ge, J. Title. Nature 1, 2 (2012).", 1)])
    normalize_paper(paper)
    assert paper.pages[0].text == ("Pedrós-Alió, C. Marine diversity.\n\n"
                                   "Hélène Pasquier, Université Paris Sud, Dröge J.")
    assert paper.metadata.authors == ["Hélène Pasquier"]
    assert paper.references[0].text == "Pedrós-Alió, C. & Dröge, J. Title. Nature 1, 2 (2012)."
    # TeX's way (accent before its letter, word-opening accents and maths hats) is unchanged, and is the default
    tex = "´Eric Moulines and K. G¨odel, Nystro¨om; ˆx is the estimate of Montr´eal"
    paper = ParsedPaper(pdf_path="y.pdf", metadata=Metadata(title="T", abstract="", authors=[]),
                        pages=[Page(1, 600, 800, tex, prose=tex)])
    normalize_paper(paper)
    assert paper.pages[0].text == "Éric Moulines and K. Gödel, Nyström; x̂ is the estimate of Montréal"
    assert normalize_text("He´le`ne") == "Heĺeǹe"  # alone, without the document's vote, TeX's way


@pytest.mark.skipif(not (CORPUS2 / "plos_plosone2012_cyan_fluorescent_t65s.pdf").exists(),
                    reason="corpus2 is absent (it sits beside the repo in CI)")
def test_accents_after_their_letter_in_real_papers() -> None:
    from pipeline.parse.core import parse_pdf

    plos = parse_pdf(CORPUS2 / "plos_plosone2012_cyan_fluorescent_t65s.pdf")
    text = " ".join(p.text for p in plos.pages)
    assert "Université" in text and "Réfrégiers" in text and "Förster" in text and "Heĺe" not in text
    nature = parse_pdf(CORPUS2 / "nature_nature2013_microbial_dark_matter.pdf")
    refs = " ".join(r.text for r in nature.references)
    assert "Pedrós-Alió" in refs and "Dröge" in refs and "Pedroś" not in refs
