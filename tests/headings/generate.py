"""Typeset the heading matrix: one section tree set in 17 heading typographies, each a short paper with exact truth.

    .venv/bin/python tests/headings/generate.py [STYLE ...]     # all styles when none is named

Papers outside the big publishers set their headings however their authors' templates do: a working paper's
body-size bold headings, numbers with a period or a section sign, Roman numerals with lettered subsections, small
capitals centred, sans-serif, capitals, a rule under the heading, the number on a line of its own above the title
(titlesec's `display`), run-in subsections that continue into their paragraph, unnumbered headings, underlined
titles, an old journal's small bold centred capitals over italic subsections in two columns, KOMA-Script's and
memoir's defaults. One subsection title is long enough to wrap in two columns. The zoo tries each publisher class once; this tries one tree in each typography. Levels 1-2
are truth, as printed (number and title), for tests/zoo/scoring.py's section F1.

Needs TeX Live (pdflatex, titlesec, koma-script, memoir). Writes tests/headings/papers/STYLE.pdf and
tests/headings/truth.json (kept in the repository; the tests need no TeX).
"""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # the repository root: run as a script
from tests.typeset import keep, regenerate, typeset  # noqa: E402

HERE = Path(__file__).resolve().parent
PAPERS = HERE / "papers"

TREE = [("Introduction", []), ("Related Work", ["Sparse Attention", "Memory Networks"]),
        ("Method", ["Routing Layer", "Training Objective with Load Balancing Across Experts and Tokens"]), ("Experiments", ["Datasets and Baselines", "Main Results"]),
        ("Conclusion", [])]
SENTENCES = ("Long documents are common in practice, yet most text classifiers truncate them to a few hundred "
             "tokens. Truncation discards evidence that often sits far from the beginning of a document, and dense "
             "self-attention compares every pair of tokens, so its memory grows with the square of the input length. "
             "We route each token to a small set of others and train the router end to end with the classifier. ")

TS = r"\usepackage{titlesec}"


def arabic(n: int, m: int | None = None, sep: str = " ") -> str:
    return f"{n}{sep}" if m is None else f"{n}.{m}{sep}"


def roman(n: int, m: int | None = None) -> str:
    return f"{'I II III IV V VI'.split()[n - 1]}. " if m is None else f"{'ABCDEF'[m - 1]}. "


# style -> (class line, preamble, printed prefix of (section, subsection) or None for unnumbered, capitals at level 1)
STYLES = {
    "period": (r"\documentclass[11pt]{article}",
               TS + r"\titleformat{\section}{\normalfont\large\bfseries}{\thesection.}{0.5em}{}"
                    r"\titleformat{\subsection}{\normalfont\bfseries}{\thesubsection.}{0.5em}{}",
               lambda n, m=None: arabic(n, m, ". "), False),
    "centred_smallcaps": (r"\documentclass[11pt]{article}",
                          TS + r"\titleformat{\section}[block]{\centering\normalfont\scshape}{\thesection.}{0.5em}{}"
                               r"\titleformat{\subsection}{\normalfont\itshape}{\thesubsection.}{0.5em}{}",
                          lambda n, m=None: arabic(n, m, ". "), False),
    "roman": (r"\documentclass[10pt,twocolumn]{article}",
              TS + r"\renewcommand\thesection{\Roman{section}}\renewcommand\thesubsection{\Alph{subsection}}"
                   r"\titleformat{\section}[block]{\centering\normalfont\scshape}{\thesection.}{0.5em}{}"
                   r"\titleformat{\subsection}{\normalfont\itshape}{\thesubsection.}{0.5em}{}",
              roman, False),
    "sans": (r"\documentclass[11pt]{article}",
             TS + r"\titleformat{\section}{\sffamily\Large\bfseries}{\thesection}{1em}{}"
                  r"\titleformat{\subsection}{\sffamily\large\bfseries}{\thesubsection}{1em}{}",
             arabic, False),
    "capitals": (r"\documentclass[11pt]{article}",
                 TS + r"\titleformat{\section}{\normalfont\bfseries}{\thesection}{1em}{\MakeUppercase}"
                      r"\titleformat{\subsection}{\normalfont\bfseries}{\thesubsection}{1em}{}",
                 arabic, True),
    "number_above": (r"\documentclass[11pt]{article}",
                     TS + r"\titleformat{\section}[display]{\normalfont\Large\bfseries}{\thesection}{0.5em}{}"
                          r"\titleformat{\subsection}{\normalfont\large\bfseries}{\thesubsection}{1em}{}",
                     arabic, False),
    "runin": (r"\documentclass[11pt]{article}",
              TS + r"\titleformat{\section}{\normalfont\large\bfseries}{\thesection}{1em}{}"
                   r"\titleformat{\subsection}[runin]{\normalfont\bfseries}{\thesubsection}{0.5em}{}[.]",
              arabic, False),
    "rule_below": (r"\documentclass[11pt]{article}",
                   TS + r"\titleformat{\section}{\normalfont\large\bfseries}{\thesection}{1em}{}[\titlerule]"
                        r"\titleformat{\subsection}{\normalfont\bfseries}{\thesubsection}{1em}{}",
                   arabic, False),
    "section_sign": (r"\documentclass[11pt]{article}",
                     TS + r"\titleformat{\section}{\normalfont\large\bfseries}{\S\thesection}{0.5em}{}"
                          r"\titleformat{\subsection}{\normalfont\bfseries}{\S\thesubsection}{0.5em}{}",
                     lambda n, m=None: "§" + arabic(n, m), False),
    "unnumbered": (r"\documentclass[11pt]{article}", r"\setcounter{secnumdepth}{0}", None, False),
    "body_size": (r"\documentclass[12pt]{article}",
                  TS + r"\titleformat{\section}{\normalfont\bfseries}{\thesection.}{0.5em}{}"
                       r"\titleformat{\subsection}{\normalfont\itshape}{\thesubsection.}{0.5em}{}"
                       r"\titlespacing*{\section}{0pt}{12pt}{6pt}\titlespacing*{\subsection}{0pt}{10pt}{4pt}",
                  lambda n, m=None: arabic(n, m, ". "), False),
    "bold_italic": (r"\documentclass[11pt]{article}",
                    TS + r"\titleformat{\section}{\normalfont\large\bfseries}{\thesection}{1em}{}"
                         r"\titleformat{\subsection}{\normalfont\bfseries\itshape}{\thesubsection}{1em}{}",
                    arabic, False),
    "underlined": (r"\documentclass[11pt]{article}",
                   TS + r"\titleformat{\section}{\normalfont\large\bfseries}{\thesection}{1em}{\underline}"
                        r"\titleformat{\subsection}{\normalfont\bfseries}{\thesubsection}{1em}{}",
                   arabic, False),
    "old_journal": (r"\documentclass[10pt,twocolumn]{article}",
                    TS + r"\setcounter{secnumdepth}{0}"
                         r"\titleformat{\section}[block]{\centering\normalfont\small\bfseries}{}{0pt}{\MakeUppercase}"
                         r"\titleformat{\subsection}[block]{\normalfont\itshape}{}{0pt}{}",
                    None, True),
    "koma": (r"\documentclass[11pt]{scrartcl}", "", arabic, False),
    "memoir": (r"\documentclass[11pt,article,oneside]{memoir}", r"\renewcommand\thesection{\arabic{section}}\setcounter{secnumdepth}{2}",
               arabic, False),
    "amsart_like": (r"\documentclass[11pt]{article}",
                    TS + r"\titleformat{\section}[block]{\centering\normalfont\scshape}{\thesection.}{0.5em}{}"
                         r"\titleformat{\subsection}[runin]{\normalfont\bfseries}{\thesubsection.}{0.5em}{}[.]",
                    lambda n, m=None: arabic(n, m, ". "), False),
}


def document(style: str) -> tuple[str, list[dict]]:
    cls, preamble, number, upper = STYLES[style]
    body, truth = [], []
    for i, (title, subs) in enumerate(TREE, 1):
        body += [rf"\section{{{title}}}", SENTENCES * 2, SENTENCES]
        shown = title.upper() if upper else title
        truth.append({"level": 1, "title": (number(i) if number else "") + shown})
        for j, sub in enumerate(subs, 1):
            body += [rf"\subsection{{{sub}}}", SENTENCES * 2, SENTENCES]
            truth.append({"level": 2, "title": (number(i, j) if number else "") + sub})
    body += [r"\section*{Acknowledgments}", "We thank the reviewers for their comments."]
    truth.append({"level": 1, "title": "ACKNOWLEDGMENTS" if upper else "Acknowledgments"})
    refname = "Bibliography" if "memoir" in cls else "References"
    truth.append({"level": 1, "title": refname.upper() if upper else refname})
    refs = "\n".join(rf"\bibitem{{r{k}}} A. Author{k}. A title of work {k}. Journal of Examples, {k}:1--10, 20{10 + k}."
                     for k in range(1, 6))
    tex = "\n".join([cls, r"\usepackage[T1]{fontenc}", r"\usepackage{lmodern}", preamble,
                     r"\title{Sparse Routing in Long Documents}", r"\author{A. Author}", r"\date{}",
                     r"\begin{document}", r"\maketitle", "\n\n".join(body),
                     rf"\begin{{thebibliography}}{{9}}{refs}\end{{thebibliography}}", r"\end{document}", ""])
    return tex, truth


def generate(style: str) -> dict:
    tex, truth = document(style)
    with typeset(tex) as folder:
        keep(folder, PAPERS / f"{style}.pdf")
    return {"class": STYLES[style][0], "sections": truth}


if __name__ == "__main__":
    regenerate(HERE, list(STYLES), generate)
