"""equations view on real papers: display equations only, with reconstructed LaTeX."""
from __future__ import annotations

from pathlib import Path

from pipeline.parse.pymupdf._latex_build import Atom, render
from tests.conftest import needs_corpus


@needs_corpus
def test_scaled_dot_product_attention(parsed):
    eqs = [e for e in parsed("neurips2017_attention.pdf").equations if e.page_number == 4]
    assert len(eqs) == 1  # equation (1) is the only display equation on page 4
    tex = eqs[0].latex
    assert r"\frac{QK^{T}}{\sqrt{d_{k}}}" in tex
    assert r"\mathrm{softmax}" in tex and r"\mathrm{Attention}(Q,K,V)" in tex
    assert tex.endswith(r"\tag{1}")
    x0, y0, w, h = eqs[0].bbox
    assert 200 < x0 < 240 and 455 < y0 < 475 and h < 40


@needs_corpus
def test_attention_display_equations(parsed):
    eqs = parsed("neurips2017_attention.pdf").equations
    tags = [e.latex.rsplit(r"\tag{", 1)[1].rstrip("}") for e in eqs if r"\tag{" in e.latex]
    assert tags == ["1", "2", "3"]
    ffn = next(e for e in eqs if e.latex.endswith(r"\tag{2}"))
    assert ffn.page_number == 5 and r"\max(0,xW_{1}+b_{1})W_{2}+b_{2}" in ffn.latex
    # inline math in running text ("P_drop = 0.1" ending a paragraph on page 8) is not a display equation
    assert not any(e.page_number == 8 for e in eqs)


@needs_corpus
def test_linear_transformers_sums_and_fractions(parsed):
    eqs = parsed("icml2020_linear_transformers.pdf").equations
    page3 = [e for e in eqs if e.page_number == 3]
    assert len(page3) == 6  # equations (1)-(6); the inline kernel definition is not one
    eq4 = next(e for e in eqs if e.latex.endswith(r"\tag{4}"))
    assert r"\sum_{j=1}^{N}\varphi(Q_{i})^{T}\varphi(K_{j})V_{j}" in eq4.latex
    assert eq4.latex.startswith(r"V_{i}^{'}=\frac{")


@needs_corpus
def test_no_running_text_as_equations(parsed):
    for name in ("acl2024_locomo.pdf", "eacl2024findings_llm_evaluators.pdf", "emnlp2023demo_papermage.pdf"):
        assert parsed(name).equations == [], name  # papers without display math
    for e in parsed("iclr2014_vae.pdf").equations:
        words = [w for w in e.latex.replace("\\", " ").split() if w.isalpha() and len(w) > 3]
        assert len(words) < 12, e.latex  # no sentences of prose


def test_render_builds_fraction_and_scripts():
    # x^{2} over y_{i}, with a fraction bar between them
    atoms = [
        Atom(10, 0, 16, 10, 10.0, "x", "CMMI10"),
        Atom(16, -3, 20, 3, 7.0, "2", "CMR7"),
        Atom(10, 14, 16, 24, 10.0, "y", "CMMI10"),
        Atom(16, 19, 19, 25, 7.0, "i", "CMMI7"),
    ]
    assert render(atoms, [(9, 11.8, 21, 12.2)]) == r"\frac{x^{2}}{y_{i}}"


def test_cmex_codes_become_operators_and_delimiters():
    from pipeline.parse.pymupdf._latex_build import glyph_atoms

    # CMEX10 codes as MuPDF reports them without a ToUnicode map: 'X' display sum, 'R' text integral, 0x10/0x11
    chars = [
        ("R", (0, 0, 5, 10), "CMEX10", 10.0),
        ("\x10", (6, 0, 12, 10), "CMEX10", 10.0),
        ("x", (13, 2, 18, 10), "CMMI10", 10.0),
        ("\x11", (19, 0, 25, 10), "CMEX10", 10.0),
    ]
    atoms = glyph_atoms(chars)
    assert [(a.text, a.kind) for a in atoms] == [(r"\int", "op"), ("(", "delim"), ("x", "g"), (")", "delim")]
    assert render(atoms, []) == r"\int(x)"


def test_displays_whose_variables_are_set_in_the_text_italic_are_found():
    """Times-like math (mathptmx, newtxmath, IEEE's Times): variables in the body font's italic between Computer
    Modern operators, so only the operators are in a math font. The IEEE TNNLS survey's numbered displays (5), (11),
    (13) and (17) were left in the prose before this rule (checked on the printed pages)."""
    from pipeline.parse import parse_pdf
    from tests.conftest import corpus3_pdf

    paper = parse_pdf(corpus3_pdf("ieee_tnnls2014_label_noise_survey.pdf"))
    tags = {(e.page_number, e.latex.rsplit("\\tag{", 1)[1].rstrip("}")) for e in paper.equations if "\\tag{" in e.latex}
    assert {(4, "5"), (15, "11"), (15, "13"), (16, "17")} <= tags, sorted(tags)
    assert "p_{e}=P(E=1)" in next(e.latex for e in paper.equations if e.page_number == 4)


ZOO = Path(__file__).resolve().parents[1] / "zoo" / "papers"


def test_latin_modern_extension_codes_are_sums_and_opentype_maths_letters_are_letters():
    """lmodern's LMMathExtension10 comes out as its codes (`X` for a display sum, `\\x10` for a big parenthesis);
    unicode-math under LuaLaTeX sets maths letters as Mathematical Alphanumerics (`𝑠`, `𝜏`, `ℒ`). Both read as the
    LaTeX the paper was written in (the zoo's chicago_econ and quarto_like papers, equations 3 and 4)."""
    from pipeline.parse import parse_pdf

    for style in ("chicago_econ", "quarto_like"):
        latex = [e.latex for e in parse_pdf(ZOO / style / "paper.pdf").equations]
        # the display sum: CMEX's code `X` (lmodern) or unicode-math's wider `∑` glyph, with its whole limit
        assert (r"h_{i}=\sum_{j\in R(i)}\frac{exp(q_{i}^{\top}k_{j})}{\sum_{l\in R(i)}exp(q_{i}^{\top}k_{l})}v_{j} \tag{1}"
                in latex), (style, latex)
        assert r"p_{ij}=\frac{exp(s_{ij}/\tau)}{\sum_{l}exp(s_{il}/\tau)} \tag{3}" in latex, (style, latex)
        assert r"\mathcal{L}_{bal}=\lambda \sum_{j=1}^{n}(\frac{1}{n}\sum_{i=1}^{n}p_{ij}-\frac{k}{n})^{2} \tag{4}" in latex


def test_mathematical_alphanumerics_keep_their_alphabet():
    from pipeline.parse.pymupdf._latex_symbols import _alnum_math

    assert [_alnum_math(c) for c in "𝑥ℎ𝜏𝐖ℝ𝒜𝔤ℓ"] == ["x", "h", r"\tau ", r"\mathbf{W}", r"\mathbb{R}", r"\mathcal{A}",
                                                   r"\mathfrak{g}", r"\ell "]
    assert _alnum_math("x") is None and _alnum_math("℮") is None


def test_a_page_range_or_a_date_in_the_text_font_is_no_equation():
    """In a paper set in Computer or Latin Modern the text fonts are maths fonts too; a reference's last line
    (`468–486.`) or a title page's date (`2026-11-24`) was read as a display equation in 15 of the zoo's papers."""
    from pipeline.parse import parse_pdf

    for style in ("els_preprint", "llncs", "quarto_like", "oup", "achemso"):
        eqs = parse_pdf(ZOO / style / "paper.pdf").equations
        assert all("=" in e.latex or "\\" in e.latex for e in eqs), (style, [e.latex for e in eqs])


def test_newtx_text_operators_are_read_by_their_glyph_names():
    """newtx's extension font (acmart, CIKM 2023 in corpus2) maps its display sum to `∑` + a variation selector and
    gives no Unicode for its text-style sum, which MuPDF hands out as `Í`; the embedded font's own encoding names
    it `summationtext`."""
    from pipeline.parse import parse_pdf
    from tests.conftest import corpus2_pdf

    latex = [e.latex for e in parse_pdf(corpus2_pdf("acm_cikm2023_contrastive_subgraphs.pdf")).equations]
    assert r"\mu_{c}=\frac{\sum_{i}\hat{\gamma}_{ic}h_{i}}{\sum_{i}\hat{\gamma}_{ic}}c=1,...,C, \tag{7}" in latex
    assert not any("Í" in t or "\ufe01" in t for t in latex)


def test_words_in_scripts_are_labels_not_prose():
    from pipeline.parse.quality import latex_problem

    # corpus2's KDD 2018 triplet loss as the builder reads it
    triplet = (r"L=\sum_{i=1}|f(x_{i}^{\mathrm{query}})-f(x_{i}^{\mathrm{pos}})|{2}\\ -|f(x_{i}^{\mathrm{query}})"
               r"-f(x_{i}^{\mathrm{neg}})|{2}+\mathrm{margin}_{+}. \tag{1}")
    assert latex_problem(triplet) is None
    assert latex_problem(r"\mathrm{the}\mathrm{model}\mathrm{is}\mathrm{trained}x") == "prose"


def test_a_limit_wider_than_its_operator_stays_whole_and_stops_at_the_next_operator():
    """`j \\in R(i)` under a display sum runs past the sum's edges; it was cut into `\\sum_{j\\in R(}{}_{i)}`. The
    limits of two sums side by side stay apart."""
    a = [Atom(0, 0, 10, 14, 10, r"\sum", "CMEX10", "op"), Atom(0, 15, 2, 19, 7, "j", "CMMI7"),
         Atom(2, 15, 6, 19, 7, "∈", "CMSY7"), Atom(6, 15, 9, 19, 7, "R", "CMMI7"), Atom(9, 15, 11, 19, 7, "(", "CMR7"),
         Atom(11, 15, 12.5, 19, 7, "i", "CMMI7"), Atom(12.5, 15, 14.5, 19, 7, ")", "CMR7"),
         Atom(16, 2, 22, 12, 10, "x", "CMMI10")]
    assert render(a, []) == r"\sum_{j\in R(i)}x"
    two = [Atom(0, 0, 10, 14, 10, r"\sum", "CMEX10", "op"), Atom(2, 15, 4, 19, 7, "i", "CMMI7"),
           Atom(4, 15, 7, 19, 7, "=", "CMR7"), Atom(7, 15, 9, 19, 7, "1", "CMR7"),
           Atom(10, 0, 20, 14, 10, r"\sum", "CMEX10", "op"), Atom(12, 15, 14, 19, 7, "j", "CMMI7"),
           Atom(14, 15, 17, 19, 7, "=", "CMR7"), Atom(17, 15, 19, 19, 7, "1", "CMR7")]
    assert render(two, []) == r"\sum_{i=1}\sum_{j=1}"
