"""Typeset the author-block matrix: the same authors in 13 ways papers print them, each a one-page paper with
exact truth.

    .venv/bin/python tests/authors/generate.py [STYLE ...]     # all styles when none is named

Author blocks vary more than any other part of a first page: `\\and` with `\\thanks` footnotes, a tabular block per
author with affiliation and e-mail, superscript affiliation numbers with the affiliations listed under the names,
one comma-separated line with `and`, equal-contribution and corresponding-author marks, initials, names in
capitals, six authors in two rows. The names mix a particle-free hyphenated given name, a compound Spanish
surname, accented and dotless letters (Müller, García-López, Yılmaz), and an initial. The zoo tries each
publisher class once; this tries one list of authors in each typography. Truth: the names as printed.

Needs TeX Live (pdflatex, authblk). Writes tests/authors/papers/STYLE.pdf and tests/authors/truth.json (kept in
the repository; the tests need no TeX).
"""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # the repository root: run as a script
from tests.typeset import keep, regenerate, typeset  # noqa: E402

HERE = Path(__file__).resolve().parent
PAPERS = HERE / "papers"

NAMES = ["Anna Müller", "Jean-Pierre Dubois", "María José García-López", "Öykü Yılmaz"]
TEX = ["Anna M{\\\"u}ller", "Jean-Pierre Dubois", "Mar{\\'\\i}a Jos{\\'e} Garc{\\'\\i}a-L{\\'o}pez", "{\\\"O}yk{\\\"u} Y{\\i}lmaz"]
SIX = NAMES + ["Kenji Tanaka", "Fatima Al-Sayed"]
TEX6 = TEX + ["Kenji Tanaka", "Fatima Al-Sayed"]
AFF = ["Department of Computer Science, University of Zurich, Switzerland",
       "Institut de Recherche en Informatique, Université Paris-Saclay, France",
       "Departamento de Lenguajes y Sistemas, Universidad de Sevilla, Spain"]
AFF_TEX = ["Department of Computer Science, University of Zurich, Switzerland",
           "Institut de Recherche en Informatique, Universit{\\'e} Paris-Saclay, France",
           "Departamento de Lenguajes y Sistemas, Universidad de Sevilla, Spain"]
MAIL = ["anna.mueller@uzh.ch", "jp.dubois@universite-paris-saclay.fr", "mjgarcia@us.es", "oyilmaz@uzh.ch"]
WHO = [0, 1, 2, 0]  # each author's affiliation


def _sup(i: int) -> str:
    return rf"\textsuperscript{{{WHO[i] + 1}}}"


STYLES: dict[str, tuple[str, str, list[str]]] = {
    "and_thanks": ("", r"\author{" + r" \and ".join(f"{n}\\thanks{{{AFF_TEX[WHO[i]]}}}" for i, n in enumerate(TEX)) + "}",
                   NAMES),
    "tabular_blocks": ("", r"\author{" + r" \and ".join(
        rf"{n}\\{{\small {AFF_TEX[WHO[i]].split(', ')[1]}}}\\{{\small\texttt{{{MAIL[i]}}}}}" for i, n in enumerate(TEX))
        + "}", NAMES),
    "superscripts": ("", r"\author{" + r" \quad ".join(f"{n}{_sup(i)}" for i, n in enumerate(TEX)) + r"\\[1ex]"
                     + r"\\".join(rf"{{\small\textsuperscript{{{k + 1}}}{a}}}" for k, a in enumerate(AFF_TEX)) + "}",
                     NAMES),
    "authblk": (r"\usepackage{authblk}", "\n".join(rf"\author[{WHO[i] + 1}]{{{n}}}" for i, n in enumerate(TEX))
                + "\n" + "\n".join(rf"\affil[{k + 1}]{{{a}}}" for k, a in enumerate(AFF_TEX)), NAMES),
    "one_line": ("", r"\author{" + ", ".join(TEX[:-1]) + f" and {TEX[-1]}" + r"\\[1ex]"
                 + r"\\".join(rf"{{\small {a}}}" for a in AFF_TEX) + "}", NAMES),
    "marks": ("", r"\author{" + r" \quad ".join(f"{n}{m}" for n, m in zip(TEX, [r"$^{*}$", r"$^{*\dagger}$", "", ""]))
              + r"\\[1ex]{\small University of Zurich \quad Universit{\'e} Paris-Saclay}\\[1ex]"
              + r"{\footnotesize $^{*}$Equal contribution. $^{\dagger}$Corresponding author: jp.dubois@universite-paris-saclay.fr}}",
              NAMES),
    "initials": ("", r"\author{A. M{\"u}ller, J.-P. Dubois, M. J. Garc{\'\i}a-L{\'o}pez and {\"O}. Y{\i}lmaz\\[1ex]"
                 r"{\small University of Zurich, Switzerland}}",
                 ["A. Müller", "J.-P. Dubois", "M. J. García-López", "Ö. Yılmaz"]),
    "capitals": ("", r"\author{" + r" \and ".join(
        rf"\MakeUppercase{{{n}}}\\{{\small {AFF_TEX[WHO[i]].split(', ')[1]}}}" for i, n in enumerate(TEX)) + "}",
        [n.upper() for n in NAMES]),
    "two_rows": ("", r"\author{" + r" \and ".join(
        rf"{n}\\{{\small University of Zurich}}" + (r" \\[2ex]" if i == 2 else "") for i, n in enumerate(TEX6)) + "}",
        SIX),
    "emails_inline": ("", r"\author{" + r"\\".join(rf"{n} ({{\small\texttt{{{MAIL[i]}}}}})" for i, n in enumerate(TEX))
                      + r"\\[1ex]{\small University of Zurich and Universit{\'e} Paris-Saclay}}", NAMES),
    "left_aligned": ("", "", NAMES),  # set by hand under the title, flush left, names on one line each, as a WP
    "by_line": ("", r"\author{by " + ", ".join(TEX[:-1]) + f", and {TEX[-1]}" + "}", NAMES),
    # one list of names in large type broken at the hyphen of a double surname, as a word processor wraps it (a
    # working paper's "..., and Klaus Schmidt-" / "Hebbel")
    "wrapped_at_hyphen": ("", r"\author{\Large " + ", ".join(TEX[:2]) + r", Mar{\'\i}a Jos{\'e} Garc{\'\i}a-\\\Large L{\'o}pez"
                          + f", and {TEX[3]}" + "}", NAMES),
}

BODY = ("Long documents are common in practice, yet most text classifiers truncate them to a few hundred tokens. "
        "Truncation discards evidence that often sits far from the beginning of a document. ") * 5


def document(style: str) -> str:
    packages, author, _ = STYLES[style]
    if style == "left_aligned":
        head = ("\\noindent{\\LARGE\\bfseries Sparse Routing in Long Documents\\par}\\vspace{1em}\n"
                + "".join(f"\\noindent {n}\\\\\n" for n in TEX) + "\\noindent{\\small University of Zurich}\\par\\vspace{2em}")
        return "\n".join([r"\documentclass[11pt]{article}", r"\usepackage[T1]{fontenc}", r"\usepackage{lmodern}",
                          packages, r"\begin{document}", head, r"\section{Introduction}", BODY, r"\end{document}", ""])
    return "\n".join([r"\documentclass[11pt]{article}", r"\usepackage[T1]{fontenc}", r"\usepackage{lmodern}",
                      packages, r"\title{Sparse Routing in Long Documents}", author, r"\date{}", r"\begin{document}",
                      r"\maketitle", r"\begin{abstract}", BODY[:400], r"\end{abstract}", r"\section{Introduction}",
                      BODY, r"\end{document}", ""])


def generate(style: str) -> dict:
    with typeset(document(style)) as folder:
        keep(folder, PAPERS / f"{style}.pdf")
    return {"title": "Sparse Routing in Long Documents", "authors": STYLES[style][2]}


if __name__ == "__main__":
    regenerate(HERE, list(STYLES), generate)
