"""Typeset the bibliography-style matrix: one reference list, 24 entries of every kind papers cite, through the
BibTeX styles of many fields, each a short paper whose truth is exact.

    .venv/bin/python tests/bibstyles/generate.py [STYLE ...]     # all styles when none is named

The reference view must give one reference per printed entry whatever the style: numbered (`[1]`, `1.`), labelled
(`[Knu84]`), or author-year (comma, semicolon and `and` lists; natbib, APA, Chicago, Harvard), with entries of two
or three lines, corporate authors, particles (`van der Berg`), accented and non-Latin-1 names, twelve authors, two
works of one author in one year (2020a, 2020b), a thesis, a report, a web page with a URL, an arXiv preprint, a
book chapter with editors, an entry in press with no pages, and a long title. The zoo tries each class with its own
style on 20-odd plain entries; this tries 34 styles on one hard list, six author-year ones also in two columns (not here: achemso's and cell's styles, which
need their own classes' macros). Each entry's title is the truth the test
finds in exactly one parsed reference.

Needs TeX Live (pdflatex, bibtex, texlive-bibtex-extra and texlive-publishers for the styles). Writes
tests/bibstyles/papers/STYLE.pdf and tests/bibstyles/truth.json (kept in the repository; the tests need no TeX).
"""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # the repository root: run as a script
from tests.typeset import keep, regenerate, typeset  # noqa: E402

HERE = Path(__file__).resolve().parent
PAPERS = HERE / "papers"

BIB = r"""
@article{abadi2016,
  author = {Abadi, Mart{\'\i}n and Chu, Andy},
  title = {Deep Learning with Differential Privacy},
  journal = {Journal of Privacy and Confidentiality}, volume = {7}, number = {3}, pages = {1--31}, year = {2016}}
@article{many2021,
  author = {Jumper, John and Evans, Richard and Pritzel, Alexander and Green, Tim and Figurnov, Michael and
            Ronneberger, Olaf and Tunyasuvunakool, Kathryn and Bates, Russ and {\v{Z}}{\'\i}dek, Augustin and
            Potapenko, Anna and Bridgland, Alex and Meyer, Clemens},
  title = {Highly Accurate Protein Structure Prediction with Deep Networks},
  journal = {Nature}, volume = {596}, pages = {583--589}, year = {2021}}
@inproceedings{chen2019,
  author = {Chen, Li and Dubois, Marie and Eriksson, Lars},
  title = {Sparse Routing for Long Document Classification},
  booktitle = {Proceedings of the 57th Annual Meeting of the Association for Computational Linguistics},
  pages = {112--121}, address = {Florence, Italy}, publisher = {Association for Computational Linguistics}, year = {2019}}
@inproceedings{fujita2018,
  author = {Fujita, Kenji},
  title = {Token Pruning for Faster Inference on Commodity Hardware},
  booktitle = {Advances in Neural Information Processing Systems}, year = {2018}}
@book{knuth1984,
  author = {Knuth, Donald E.},
  title = {The {\TeX}book}, publisher = {Addison-Wesley}, address = {Reading, MA}, edition = {Second}, year = {1984}}
@incollection{garcia2015,
  author = {Garc{\'\i}a, Carlos and Hoffmann, Georg},
  title = {Memory Augmented Neural Networks for Question Answering},
  booktitle = {Handbook of Neural Computation}, editor = {Ivanova, Hana and Jensen, Julia},
  publisher = {Springer}, address = {Cham}, pages = {45--78}, year = {2015}}
@techreport{kim2017,
  author = {Kim, Dana and Lindqvist, Emil},
  title = {Benchmarks for Long Document Understanding},
  institution = {Korea Advanced Institute of Science and Technology}, number = {TR-2017-04}, year = {2017}}
@phdthesis{muller2014,
  author = {M{\"u}ller, Anna},
  title = {Hierarchical Encoders for Document Classification},
  school = {Technische Universit{\"a}t M{\"u}nchen}, year = {2014}}
@mastersthesis{nakamura2013,
  author = {Nakamura, Ume},
  title = {Discourse Structure in Neural Text Encoders},
  school = {University of Tokyo}, year = {2013}}
@misc{oliveira2023,
  author = {Oliveira, Paula and Petrov, Ivan},
  title = {Relaxed Top-k Selection with Optimal Transport},
  howpublished = {arXiv preprint arXiv:2301.01234}, year = {2023}}
@misc{who2020,
  author = {{World Health Organization}},
  title = {Coronavirus Disease Situation Report 51},
  howpublished = {\url{https://www.who.int/docs/situation-reports/20200311-sitrep-51.pdf}},
  note = {Accessed 2026-01-15}, year = {2020}}
@article{quinn2020,
  author = {Quinn, Ravi and Rossi, Sofia},
  title = {Locality Sensitive Hashing for Attention},
  journal = {Transactions of the Association for Computational Linguistics}, volume = {8}, pages = {264--280},
  doi = {10.1162/tacl_a_00311}, year = {2020}}
@article{vanderberg2012,
  author = {van der Berg, Jan and de la Cruz, Mateo},
  title = {Clinical Note Classification with Transformers},
  journal = {Journal of Biomedical Informatics}, volume = {45}, number = {2}, pages = {201--210}, year = {2012}}
@article{lukasz2022,
  author = {Kaiser, {\L}ukasz and Str{\o}m, {\O}yvind and Yilmaz, Fatima},
  title = {Block Sparse Attention Kernels for Accelerators},
  journal = {IEEE Transactions on Parallel and Distributed Systems}, volume = {33}, number = {11},
  pages = {2780--2792}, year = {2022}}
@article{santos2019,
  author = {Santos, Omar},
  title = {Can Recurrent Memory Replace Attention? {A} Study of 2048-Token Contexts},
  journal = {Neural Computation}, volume = {31}, number = {9}, pages = {1801--1830}, year = {2019}}
@proceedings{tanaka2016,
  editor = {Tanaka, Hana and Uddin, Boris},
  title = {Proceedings of the Workshop on Efficient Natural Language Processing},
  publisher = {Curran Associates}, address = {Red Hook, NY}, year = {2016}}
@inproceedings{chen2021,
  author = {Chen, Li and Wang, Georg},
  title = {Global Tokens in Sparse Transformers},
  booktitle = {International Conference on Learning Representations}, year = {2021}}
@article{xu2020a,
  author = {Xu, Tomas},
  title = {Subword Vocabularies for Domain Text},
  journal = {Computational Linguistics}, volume = {46}, number = {1}, pages = {1--28}, year = {2020}}
@article{xu2020b,
  author = {Xu, Tomas},
  title = {Analysing Attention Heads in Pretrained Encoders},
  journal = {Computational Linguistics}, volume = {46}, number = {3}, pages = {499--532}, year = {2020}}
@article{zhou2024,
  author = {Zhou, Laura and Abadi, Nina},
  title = {Legal Judgment Prediction from Case Documents},
  journal = {Artificial Intelligence and Law}, note = {In press}, year = {2024}}
@manual{torch2019,
  author = {{PyTorch Contributors}},
  title = {PyTorch Documentation, Release 1.3},
  organization = {Linux Foundation}, year = {2019}}
@unpublished{bengio2011,
  author = {Bengio, Emil},
  title = {Contract Element Extraction with Weak Supervision},
  note = {Unpublished manuscript}, year = {2011}}
@article{long2017,
  author = {Hoffmann, Georg and Ivanova, Hana and Jensen, Julia},
  title = {A Very Long Title About Scientific Article Topic Classification That Runs Over Several Lines in Most
           Bibliography Styles, With a Subtitle: Evidence From Four Benchmarks and Three Languages},
  journal = {Journal of Machine Learning Research}, volume = {18}, number = {54}, pages = {1--40}, year = {2017}}
@inproceedings{eriksson2010,
  author = {Eriksson, Lars and Fujita, Kenji and Garc{\'\i}a, Carlos and Hoffmann, Georg and Ivanova, Hana},
  title = {Linear Attention Through Kernel Feature Maps},
  booktitle = {Proceedings of the 27th International Conference on Machine Learning}, pages = {33--40},
  year = {2010}}
"""

# the titles as printed (sentence-case styles lower-case all but the first word: the test compares case-folded)
TITLES = ["Deep Learning with Differential Privacy", "Highly Accurate Protein Structure Prediction with Deep Networks",
          "Sparse Routing for Long Document Classification", "Token Pruning for Faster Inference on Commodity Hardware",
          "The TeXbook", "Memory Augmented Neural Networks for Question Answering",
          "Benchmarks for Long Document Understanding", "Hierarchical Encoders for Document Classification",
          "Discourse Structure in Neural Text Encoders", "Relaxed Top-k Selection with Optimal Transport",
          "Coronavirus Disease Situation Report 51", "Locality Sensitive Hashing for Attention",
          "Clinical Note Classification with Transformers", "Block Sparse Attention Kernels for Accelerators",
          "Can Recurrent Memory Replace Attention", "Proceedings of the Workshop on Efficient Natural Language Processing",
          "Global Tokens in Sparse Transformers", "Subword Vocabularies for Domain Text",
          "Analysing Attention Heads in Pretrained Encoders", "Legal Judgment Prediction from Case Documents",
          "PyTorch Documentation", "Contract Element Extraction with Weak Supervision",
          "A Very Long Title About Scientific Article Topic Classification",
          "Linear Attention Through Kernel Feature Maps"]

NATBIB = r"\usepackage[round]{natbib}"
NATBIB_NUM = r"\usepackage[numbers]{natbib}"
# style -> (packages, options of the article class)
STYLES: dict[str, tuple[str, str]] = {
    "plain": ("", ""), "abbrv": ("", ""), "unsrt": ("", ""), "alpha": ("", ""), "acm": ("", ""),
    "ieeetr": ("", ""), "IEEEtran": ("", "twocolumn"), "siam": ("", ""), "amsplain": ("", ""), "amsalpha": ("", ""),
    "plainurl": ("", ""), "apalike": ("", ""), "plainnat": (NATBIB, ""), "abbrvnat": (NATBIB, ""),
    "unsrtnat": (NATBIB_NUM, ""), "chicago": (NATBIB, ""), "apacite": (r"\usepackage{apacite}", ""),
    "agsm": (r"\usepackage{natbib}", ""), "dcu": (r"\usepackage{natbib}", ""), "kluwer": (NATBIB, ""),
    "ecta": (NATBIB, ""), "aer": (NATBIB, ""), "econ": (NATBIB, ""), "splncs04": ("", ""),
    "elsarticle-num": (NATBIB_NUM, "twocolumn"), "elsarticle-harv": (NATBIB, ""), "aipnum4-1": (NATBIB_NUM, ""),
    "apsrev4-2": (NATBIB_NUM, "twocolumn"), "mnras": (NATBIB, "twocolumn"), "aasjournal": (NATBIB, ""),
    "vancouver": ("", ""), "naturemag": (NATBIB_NUM, ""), "rsc": (NATBIB_NUM, ""), "iopart-num": ("", ""),
}

BODY = ("Long documents are common in practice, yet most text classifiers truncate them to a few hundred tokens. "
        "Truncation discards evidence that often sits far from the beginning of a document. ") * 6


# author-year styles set two columns a page as well: entries then break across columns and pages
TWO_COLUMNS = ["plainnat", "apalike", "chicago", "apacite", "elsarticle-harv", "aer"]


def document(name: str) -> str:
    style = name.removesuffix("_2col")
    packages, options = STYLES[style]
    if name.endswith("_2col"):
        options = "twocolumn"
    return "\n".join([rf"\documentclass[10pt{',' + options if options else ''}]{{article}}",
                      r"\usepackage[margin=1in]{geometry}", r"\usepackage[T1]{fontenc}", r"\usepackage{times}",
                      r"\usepackage{url}", packages, r"\usepackage[hidelinks]{hyperref}",
                      r"\providecommand{\doi}[1]{\url{https://doi.org/#1}}", r"\title{Sparse Routing in Long Documents}", r"\author{A. Author}",
                      r"\date{}", r"\begin{document}", r"\maketitle", r"\section{Introduction}", BODY,
                      r"\section{Method}", BODY, r"\section{Experiments}", BODY, BODY, r"\section{Analysis}", BODY,
                      BODY, rf"\bibliographystyle{{{style}}}", r"\nocite{*}",
                      r"\bibliography{paper}", r"\end{document}", ""])


def generate(name: str) -> dict:
    style = name.removesuffix("_2col")
    import pymupdf

    with typeset(document(name), bib=BIB, halt=False) as folder:
        with pymupdf.open(folder / "paper.pdf") as doc:
            printed = "".join(ch for page in doc for ch in page.get_text().lower() if ch.isalnum())
        keep(folder, PAPERS / f"{name}.pdf")
    titles = [t for t in TITLES if "".join(ch for ch in t.lower() if ch.isalnum())[:28] in printed]
    # every key is cited (\nocite{*}), so every style prints 24 entries; physics and chemistry styles print no
    # article titles (aipnum4-1, apsrev4-2, mnras, aasjournal, rsc, iopart-num), econ none for a proceedings
    # volume: only the titles the PDF prints are truth
    return {"references": len(TITLES), "titles": titles, "packages": STYLES[style][0],
            "options": "twocolumn" if name.endswith("_2col") else STYLES[style][1]}


if __name__ == "__main__":
    regenerate(HERE, list(STYLES) + [f"{s}_2col" for s in TWO_COLUMNS], generate)
