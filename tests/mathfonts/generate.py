"""Typeset the maths-font matrix: one short paper per maths font set-up, with exact truth of its display equations.

    .venv/bin/python tests/mathfonts/generate.py [SETUP ...]     # all set-ups when none is named

Display equations are where papers differ most by typesetting: the same formula set in Computer Modern, in Times
with newtx or mathptmx, in Palatino, Utopia (Fourier), Kp, Libertinus, STIX, Euler, Concrete, a sans-serif maths
font, or as OpenType maths under LuaLaTeX (Latin Modern, STIX Two, XITS, Libertinus, Fira, Garamond, New Computer
Modern) gives different font names, glyph codes and spacing in the text layer. Every paper here holds the same body:
ten displays of the kinds papers use (a numbered fraction sum, an unnumbered one-line display, a two-row align, a
cases, a matrix, words inside a display, an integral with limits, an argmin with norms, a short Greek-only display,
a left-numbered display), paragraphs full of inline maths (which are no displays), and a page of prose with inline
maths only. A second form (`SETUP_2col`, for seven of the set-ups) sets ten other displays two columns a page with
the numbers on the left (leqno): eqnarray, multline, gather*, split, big \\left( \\right), an array in brackets, a
\\substack under a sum, a display inside a theorem, a short `x = 0.` and an appendix number (A.1). Not here: concmath (Concrete), which TeX Live sets only in Type 3 bitmap fonts whose maths glyphs carry
no Unicode (sigma reads as U+001B, "in" as "2"): such a text layer holds no maths to read. Each display writes the physical page it is shipped on (`\\mfeq`) so the truth is what TeX did.

Needs TeX Live (pdflatex, lualatex from texlive-luatex, the fonts of texlive-fonts-extra). Writes
tests/mathfonts/papers/SETUP.pdf and tests/mathfonts/truth.json (kept in the repository; the tests need no TeX).
"""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # the repository root: run as a script
from tests.typeset import keep, regenerate, typeset  # noqa: E402

HERE = Path(__file__).resolve().parent
PAPERS = HERE / "papers"

# name -> (engine, preamble lines)
SETUPS: dict[str, tuple[str, str]] = {
    "cm": ("pdflatex", r"\usepackage{amsmath,amssymb}"),
    "lmodern": ("pdflatex", r"\usepackage[T1]{fontenc}\usepackage{lmodern}\usepackage{amsmath,amssymb}"),
    "mathptmx": ("pdflatex", r"\usepackage{amsmath,amssymb}\usepackage{mathptmx}"),
    "newtx": ("pdflatex", r"\usepackage{amsmath}\usepackage{newtxtext,newtxmath}"),
    "txfonts": ("pdflatex", r"\usepackage{amsmath}\usepackage{txfonts}"),
    "newpx": ("pdflatex", r"\usepackage{amsmath}\usepackage{newpxtext,newpxmath}"),
    "mathpazo": ("pdflatex", r"\usepackage{amsmath,amssymb}\usepackage[sc]{mathpazo}"),
    "fourier": ("pdflatex", r"\usepackage[T1]{fontenc}\usepackage{amsmath}\usepackage{fourier}"),
    "kpfonts": ("pdflatex", r"\usepackage{amsmath}\usepackage{kpfonts}"),
    "libertine": ("pdflatex", r"\usepackage{amsmath}\usepackage{libertine}\usepackage{libertinust1math}"),
    "stix2": ("pdflatex", r"\usepackage{amsmath}\usepackage{stix2}"),
    "euler": ("pdflatex", r"\usepackage{amsmath,amssymb}\usepackage{charter}\usepackage[euler-digits]{eulervm}"),
    "utopia": ("pdflatex", r"\usepackage{amsmath}\usepackage[T1]{fontenc}\usepackage[utopia]{mathdesign}"),
    "cmbright": ("pdflatex", r"\usepackage{amsmath,amssymb}\usepackage{cmbright}"),
    "arev": ("pdflatex", r"\usepackage{amsmath}\usepackage{arev}"),
    "lm_math": ("lualatex", r"\usepackage{amsmath}\usepackage{unicode-math}\setmathfont{latinmodern-math.otf}"),
    "stixtwo_otf": ("lualatex", r"\usepackage{amsmath}\usepackage{unicode-math}\setmainfont{STIXTwoText}"
                                r"[Extension=.otf,UprightFont=*-Regular,ItalicFont=*-Italic,BoldFont=*-Bold]"
                                r"\setmathfont{STIXTwoMath-Regular.otf}"),
    "xits_otf": ("lualatex", r"\usepackage{amsmath}\usepackage{unicode-math}\setmathfont{XITSMath-Regular.otf}"),
    "libertinus_otf": ("lualatex", r"\usepackage{amsmath}\usepackage{unicode-math}"
                                   r"\setmathfont{LibertinusMath-Regular.otf}"),
    "fira_otf": ("lualatex", r"\usepackage{amsmath}\usepackage{unicode-math}\setmathfont{FiraMath-Regular.otf}"),
    "garamond_otf": ("lualatex", r"\usepackage{amsmath}\usepackage{unicode-math}\setmathfont{Garamond-Math.otf}"),
    "newcm_otf": ("lualatex", r"\usepackage{amsmath}\usepackage{unicode-math}\setmathfont{NewCMMath-Regular.otf}"),
}

MARK = r"""
\newwrite\mffile\immediate\openout\mffile=\jobname.mf
\newcommand\mfeq{\write\mffile{eqpage \the\ReadonlyShipoutCounter}}
"""

P1 = (r"We study a model that maps an input $x \in \mathbb{R}^d$ to a label $y \in \{1, \dots, K\}$ through a "
      r"hidden state $h = \sigma(Wx + b)$, where $W \in \mathbb{R}^{m \times d}$ and $\sigma$ is applied element "
      r"by element. For a batch of $n$ examples the cost is $O(nmd)$ and the memory $O(n(m + d))$, which is small "
      r"when $m \ll d$. The learning rate $\eta_t = \eta_0 / \sqrt{t}$ decays with the step $t$, and we write "
      r"$\|v\|_2$ for the Euclidean norm of $v$ and $\langle u, v \rangle$ for the inner product.")
P2 = (r"Each token $i$ attends to a set $R(i)$ of at most $k$ others, chosen by the scores $s_{ij}$; the weights "
      r"$\alpha_{ij} \geq 0$ sum to one over $j \in R(i)$, and $\tau > 0$ is a temperature. With $\lambda = 0.1$ "
      r"and $k = 8$ the model keeps $1 - k/n$ of the pairs out, so for $n = 4096$ tokens under $0.2\%$ of them are "
      r"compared. The gradient $\nabla_\theta \mathcal{L}$ is estimated on mini-batches of size $B$.")
P3 = ("The experiments use four benchmarks of long documents. Training runs for twenty epochs with early stopping on "
      "the validation split, and every figure reported is the mean over five seeds. The baselines are trained with "
      "the same budget of tokens, the same optimiser and the same schedule, so that differences between them come "
      "from the encoder alone. We report accuracy, peak memory and the wall-clock time of one forward pass.")

DISPLAYS = [
    r"\begin{equation}\mfeq h_i = \sum_{j \in R(i)} \frac{\exp(q_i^\top k_j / \tau)}{\sum_{l \in R(i)} "
    r"\exp(q_i^\top k_l / \tau)} v_j \label{eq:attn}\end{equation}",
    r"\[\mfeq y = f(x) + \epsilon \]",
    r"\begin{align}\mfeq \mu &= \frac{1}{n} \sum_{i=1}^{n} x_i, \\ \sigma^2 &= \frac{1}{n-1} \sum_{i=1}^{n} "
    r"(x_i - \mu)^2 \end{align}",
    r"\begin{equation}\mfeq \operatorname{ReLU}(z) = \begin{cases} z & \text{if } z > 0, \\ 0 & \text{otherwise} "
    r"\end{cases}\end{equation}",
    r"\begin{equation}\mfeq A = \begin{pmatrix} a_{11} & a_{12} \\ a_{21} & a_{22} \end{pmatrix}, \qquad "
    r"\det A = a_{11} a_{22} - a_{12} a_{21}\end{equation}",
    r"\begin{equation}\mfeq \text{loss} = \sum_{i=1}^{n} \ell(y_i, \hat{y}_i) \quad \text{for all batches}"
    r"\end{equation}",
    r"\begin{equation}\mfeq \Phi(x) = \int_{-\infty}^{x} \frac{1}{\sqrt{2\pi}} e^{-t^2/2} \, dt\end{equation}",
    r"\[\mfeq \hat{\theta} = \arg\min_{\theta} \|y - X\theta\|_2^2 + \lambda \|\theta\|_1 \]",
    r"\begin{equation}\mfeq \alpha = \beta \gamma\end{equation}",
    r"\begin{equation}\mfeq \mathbb{E}_{x \sim p}\left[ \log q(x) \right] \leq \log \mathbb{E}_{x \sim p}"
    r"\left[ q(x) \right]\end{equation}",
]


# the second form: two columns, equation numbers on the left (leqno), and the other environments papers use
DISPLAYS_B = [
    r"\begin{eqnarray}\mfeq a_t & = & W_a x_t + U_a h_{t-1} + b_a, \\ h_t & = & \tanh(a_t) \odot g_t"
    r"\end{eqnarray}",
    r"\begin{multline}\mfeq \mathcal{L}(\theta) = \sum_{i=1}^{n} \log p_\theta(y_i \mid x_i) "
    r"+ \lambda_1 \|\theta\|_1 \\ + \lambda_2 \|\theta\|_2^2 + \gamma \sum_{j} \mathrm{KL}(q_j \| p_j)"
    r"\end{multline}",
    r"\begin{gather*}\mfeq u = v + w, \\ w = \nabla \phi \end{gather*}",
    r"\begin{equation}\mfeq\begin{split} f(x) &= (x + 1)^2 \\ &= x^2 + 2x + 1 \end{split}\end{equation}",
    r"\begin{equation}\mfeq \rho = \left( \frac{\sqrt{a^2 + b^2}}{1 + \frac{c}{d}} \right)^{1/2}"
    r"\end{equation}",
    r"\begin{equation}\mfeq M = \left[ \begin{array}{ccc} 1 & 0 & \delta \\ 0 & 1 & \epsilon \\ "
    r"0 & 0 & 1 \end{array} \right]\end{equation}",
    r"\begin{equation}\mfeq S = \sum_{\substack{1 \le i \le n \\ i \neq k}} w_i x_i\end{equation}",
    r"\begin{theorem} If $f$ is convex and $x^\star$ minimises it, then \begin{equation}\mfeq f(x) \geq "
    r"f(x^\star) + \langle \nabla f(x^\star), x - x^\star \rangle\end{equation} for every $x$ in its domain."
    r"\end{theorem}",
    r"\[\mfeq x = 0. \]",
    r"\begin{equation}\mfeq \Pr[X \geq t] \leq \frac{\mathbb{E}[X]}{t} \tag{A.1}\end{equation}",
]


def body_b() -> str:
    parts = [r"\section{Introduction}", P1, P2, DISPLAYS_B[0], P1, DISPLAYS_B[1], P2, DISPLAYS_B[2], P3,
             r"\section{Method}", P1, DISPLAYS_B[3], P2, DISPLAYS_B[4], P1, DISPLAYS_B[5], P3, P2,
             r"\section{Analysis}", P2, DISPLAYS_B[6], P1, DISPLAYS_B[7], P3, DISPLAYS_B[8], P2, DISPLAYS_B[9], P1]
    return "\n\n".join(parts)


def body() -> str:
    parts = [r"\section{Introduction}", P1, P2, DISPLAYS[0], P1, DISPLAYS[1], P2, DISPLAYS[2],
             r"\section{Method}", P1, DISPLAYS[3], P2, DISPLAYS[4], P1, DISPLAYS[5], r"\newpage",
             r"\section{Experiments}", P3, P1, P3, P2, P3, P1, r"\newpage",
             r"\section{Analysis}", P2, DISPLAYS[6], P1, DISPLAYS[7], P3, DISPLAYS[8], P2, DISPLAYS[9], P1]
    return "\n\n".join(parts)


def document(setup: str, form: str = "A") -> str:
    engine, preamble = SETUPS[setup]
    options, margin, text = ("11pt", "1in", body()) if form == "A" else ("10pt,twocolumn,leqno", "0.75in", body_b())
    return "\n".join([rf"\documentclass[{options}]{{article}}", rf"\usepackage[margin={margin}]{{geometry}}",
                      r"\usepackage{amsmath,amsthm}", preamble, r"\newtheorem{theorem}{Theorem}", MARK,
                      r"\title{Sparse Routing in Long Documents}", r"\author{A. Author}", r"\date{}",
                      r"\begin{document}", r"\maketitle", text, r"\end{document}", ""])


# the second form is typeset in these set-ups (the commonest maths of papers, and one of each kind of font)
FORM_B = ["cm", "newtx", "mathptmx", "libertine", "kpfonts", "lm_math", "stixtwo_otf"]
TAGS = {"A": ["1", "2", "3", "4", "5", "6", "7", "8", "9"],  # (2) and (3): the align's two numbered rows
        "B": ["1", "2", "3", "4", "5", "6", "7", "8", "A.1"]}  # (1) and (2): the eqnarray's two numbered rows
# displays a page may give apart (an align's or eqnarray's numbered rows, gather*'s rows) and displays it may lose
# (B's unnumbered `x = 0.`: under three symbols, below what a display must hold, so stray glyphs are not taken)
SLACK = {"A": {"split": 1, "missed": 0}, "B": {"split": 2, "missed": 1}}


def generate(name: str) -> dict:
    setup, form = (name[: -len("_2col")], "B") if name.endswith("_2col") else (name, "A")
    engine = SETUPS[setup][0]
    with typeset(document(setup, form), engine=engine) as folder:
        pages = [int(line.split()[1]) for line in (folder / "paper.mf").read_text().splitlines()]
        keep(folder, PAPERS / f"{name}.pdf")
    assert len(pages) == len(DISPLAYS), (name, pages)
    return {"engine": engine, "preamble": SETUPS[setup][1], "form": form, "display_pages": pages,
            "equation_pages": sorted(set(pages)), "tags": TAGS[form], **SLACK[form]}


if __name__ == "__main__":
    regenerate(HERE, list(SETUPS) + [f"{s}_2col" for s in FORM_B], generate)
