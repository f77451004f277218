"""The zoo's house styles: real publisher classes from TeX Live where it ships them, article-class imitations otherwise.

Real classes: IEEEtran (journal, conference), acmart (sigconf), llncs, elsarticle (preprint, 5p), revtex4-2 (APS),
amsart. Imitations (article + geometry + titlesec + caption + fancyhdr + minipages), built to reproduce the typography
the parser meets in those journals: AAAI (no class in TeX Live: unnumbered centred bold headings, author-year refs),
CVPR/ICCV (no class: `1. Introduction` headings, page back-links in the references), Copernicus (copernicus.cls is no
longer in TeX Live: masthead, Received/Accepted lines, author-year refs), MDPI (masthead, ISSN line, left sidebar with
Citation/Received/Copyright, run-in `Abstract:`), Frontiers (sidebar, abstract without a heading, `FIGURE 1 |` legends,
capitals headings), IOP (left-margin sidebar with RECEIVED/PUBLISHED lines).
Fonts vary on purpose: Times (IEEE, AAAI, CVPR, Elsevier 5p, Copernicus, Frontiers, IOP, MNRAS), Latin Modern T1 (llncs,
elsarticle preprint, amsart), Computer Modern OT1 with composed accents (revtex, pmlr), Libertine (acmart), Palatino (MDPI).
Each style also states what it prints that the truth needs (heading numbers, caption labels, running strings).
"""
from __future__ import annotations

from content import ABSTRACT, AFFILIATIONS, AUTHORS, KEYWORDS, SHORT_TITLE, TITLE
from render import Style, arabic_dotted, ieee_numbers

COMMON = r"""\usepackage[T1]{fontenc}
\usepackage{amsmath,amssymb}
\usepackage{tikz}"""
COMMON_LM = COMMON + "\n\\usepackage{lmodern}"  # the CM-look classes: Latin Modern (smaller PDFs than cm-super)


def affil(i: int) -> str:
    return ", ".join(AFFILIATIONS[i])


def initials(first: str, dots: bool = True) -> str:
    out = " ".join(part[0] + "." for part in first.split())
    return out if dots else out.replace(".", "")


def surname_first(name_parts: tuple[str, str], dots: bool = True, sep: str = ", ") -> str:
    first, last = name_parts
    return f"{last}{sep}{initials(first, dots)}"


def split(name: str) -> tuple[str, str]:
    """'Anna Van Dijk' -> ('Anna', 'Van Dijk'); the reference pool's surnames are one token or 'Van Dijk'."""
    parts = name.split(" ")
    if len(parts) > 2 and parts[-2] == "Van":
        return " ".join(parts[:-2]), " ".join(parts[-2:])
    return " ".join(parts[:-1]), parts[-1]


def natbib_key(e: dict) -> str:
    lasts = [split(a)[1] for a in e["authors"]]
    short = lasts[0] if len(lasts) == 1 else f"{lasts[0]} and {lasts[1]}" if len(lasts) == 2 else f"{lasts[0]} et~al."
    long = ", ".join(lasts[:-1]) + (", and " if len(lasts) > 2 else " and ") + lasts[-1] if len(lasts) > 1 else lasts[0]
    return f"{{{short}({e['year']}){long}}}"


def appendix_numbers(first: str, second: str):
    """Appendix heading prefixes: `first` and `second` are formats with {L} (letter) and {n} (subsection number)."""
    return lambda nums: (first if len(nums) == 1 else second).format(L=chr(64 + nums[0]), n=nums[-1])


# ---------------------------------------------------------------- thebibliography formats of the imitation styles

def aaai_item(i: int, e: dict) -> str:
    names = [surname_first(split(a)) for a in e["authors"]]
    who = names[0] if len(names) == 1 else "; ".join(names[:-1]) + "; and " + names[-1]
    where = (f"\\emph{{{e['journal']}}} {e['volume']}({e['number']}): {e['pages']}" if e["type"] == "article"
             else f"In \\emph{{{e['booktitle']}}}, {e['pages']}")
    return f"\\bibitem[{natbib_key(e)}]{{{e['key']}}}\n{who} {e['year']}. {e['title']}. {where}."


def copernicus_item(i: int, e: dict) -> str:
    names = [surname_first(split(a)) for a in e["authors"]]
    who = names[0] if len(names) == 1 else ", ".join(names[:-1]) + ", and " + names[-1] if len(names) > 2 else " and ".join(names)
    where = (f"{e['journal']}, {e['volume']}, {e['pages']}" if e["type"] == "article" else f"in: {e['booktitle']}, {e['pages']}")
    return f"\\bibitem[{natbib_key(e)}]{{{e['key']}}}\n{who}: {e['title']}, {where}, {e['year']}."


def mdpi_item(i: int, e: dict) -> str:
    who = "; ".join(surname_first(split(a)).replace(". ", ".") for a in e["authors"])
    where = (f"\\emph{{{e['journal']}}} \\textbf{{{e['year']}}}, \\emph{{{e['volume']}}}, {e['pages']}" if e["type"] == "article"
             else f"In \\emph{{{e['booktitle']}}}; {e['year']}; pp. {e['pages']}")
    return f"\\bibitem{{{e['key']}}}\n{who} {e['title']}. {where}."


def frontiers_item(i: int, e: dict) -> str:
    names = [surname_first(split(a)) for a in e["authors"]]
    who = names[0] if len(names) == 1 else ", ".join(names[:-1]) + ", and " + names[-1]
    where = (f"\\emph{{{e['journal']}}} {e['volume']}, {e['pages']}" if e["type"] == "article"
             else f"in \\emph{{{e['booktitle']}}}, {e['pages']}")
    return f"\\bibitem[{natbib_key(e)}]{{{e['key']}}}\n{who} ({e['year']}). {e['title']}. {where}."


def iop_item(i: int, e: dict) -> str:
    names = [surname_first(split(a), dots=False, sep=" ") for a in e["authors"]]
    who = names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
    where = (f"\\emph{{{e['journal']}}} \\textbf{{{e['volume']}}} {e['pages']}" if e["type"] == "article"
             else f"\\emph{{{e['booktitle']}}} pp {e['pages']}")
    return f"\\bibitem{{{e['key']}}}\n{who} {e['year']} {e['title']} {where}"


# ---------------------------------------------------------------- shared pieces

def title_block(author: str) -> str:
    """`\\title`, `\\author{author}`, `\\maketitle` and the abstract environment, in the order most classes take."""
    return rf"""\title{{{TITLE}}}
\author{{{author}}}
\maketitle
\begin{{abstract}}
{ABSTRACT}
\end{{abstract}}
"""


def names_line(sup: bool = True, last_sep: str = ", ", mark: str = "") -> str:
    parts = [a.name + (f"\\textsuperscript{{{a.affil + 1}{mark if i == 0 else ''}}}" if sup else "")
             for i, a in enumerate(AUTHORS)]
    return ", ".join(parts[:-1]) + last_sep + parts[-1]


AFFIL_LINES = r" \\ ".join(f"\\textsuperscript{{{i + 1}}}{affil(i)}" for i in range(len(AFFILIATIONS)))
EMAILS = ", ".join(a.email for a in AUTHORS)
KW = "; ".join(KEYWORDS)
SEP, AND = r" \sep ", r" \and "


def titlesec(l1: str, l2: str, l3: str, sep: str = "", upper1: bool = False) -> str:
    """Heading typography for the article-based imitations; `sep` follows the number ('1.' vs '1')."""
    up = r"\MakeUppercase" if upper1 else ""
    return rf"""\usepackage{{titlesec}}
\titleformat{{\section}}{{{l1}}}{{\thesection{sep}}}{{0.5em}}{{{up}}}
\titleformat{{\subsection}}{{{l2}}}{{\thesubsection{sep}}}{{0.5em}}{{}}
\titleformat{{\subsubsection}}{{{l3}}}{{\thesubsubsection{sep}}}{{0.5em}}{{}}
\titlespacing*{{\section}}{{0pt}}{{1.6ex plus .5ex}}{{0.8ex}}
\titlespacing*{{\subsection}}{{0pt}}{{1.3ex plus .4ex}}{{0.6ex}}
\titlespacing*{{\subsubsection}}{{0pt}}{{1.1ex plus .3ex}}{{0.4ex}}"""


# ---------------------------------------------------------------- the styles

def ieee_journal() -> Style:
    authors = []
    for i, a in enumerate(AUTHORS):
        last = i == len(AUTHORS) - 1
        grade = f",~\\IEEEmembership{{{a.membership.replace(' ', '~')}{'' if last else ','}}}" if a.membership else ("" if last else ",")
        authors.append(("and~" if last else "") + a.name.replace(" ", "~") + grade)
    thanks = (r"\thanks{L. Moreau and P. Raghunathan are with Inria Saclay, Palaiseau, France (e-mail: "
              rf"{AUTHORS[0].email}; {AUTHORS[2].email}).}}"
              rf"\thanks{{J. {AUTHORS[1].last} is with the {affil(1)} (e-mail: {AUTHORS[1].email}).}}"
              rf"\thanks{{D. K. Okafor is with the {affil(2)} (e-mail: {AUTHORS[3].email}).}}"
              r"\thanks{Manuscript received March 12, 2026; revised July 30, 2026.}")
    journal = "IEEE Transactions on Pattern Analysis and Machine Intelligence"
    front = rf"""\title{{{TITLE}}}
\author{{{' '.join(authors)}{thanks}}}
\markboth{{{journal},~Vol.~48, No.~11, November~2026}}{{Moreau \MakeLowercase{{\textit{{et al.}}}}: {SHORT_TITLE}}}
\maketitle
\begin{{abstract}}
{ABSTRACT}
\end{{abstract}}
\begin{{IEEEkeywords}}
{', '.join(KEYWORDS).capitalize()}.
\end{{IEEEkeywords}}
"""
    return Style("ieee_journal", "IEEEtran journal: membership grades in the author line, TABLE I above tables, "
                 "alternating running headers", "[journal,twoside]{IEEEtran}", COMMON, front, ieee_numbers,
                 table_name="TABLE", table_numbers="Roman", caption_sep=" ", figure_name="Fig.", caption_sep_figure=". ",
                 refs=32, bst="IEEEtran", ack_heading="Acknowledgment",
                 running=[f"{journal}, Vol. 48, No. 11, November 2026", f"Moreau et al.: {SHORT_TITLE}"])


def ieee_conf() -> Style:
    blocks = r" \and ".join(rf"\IEEEauthorblockN{{{a.name}}}\IEEEauthorblockA{{\textit{{{AFFILIATIONS[a.affil][0]}}}\\"
                            rf"{', '.join(AFFILIATIONS[a.affil][1:])}\\{a.email}}}" for a in AUTHORS)
    pubid = r"979-8-3503-1234-5/26/\$31.00~\copyright2026 IEEE"
    front = rf"""\title{{{TITLE}}}
\author{{{blocks}}}
\IEEEpubid{{\makebox[\columnwidth]{{{pubid}\hfill}}\hspace{{\columnsep}}\makebox[\columnwidth]{{}}}}
\maketitle
\IEEEpubidadjcol
\begin{{abstract}}
{ABSTRACT}
\end{{abstract}}
\begin{{IEEEkeywords}}
{', '.join(KEYWORDS)}
\end{{IEEEkeywords}}
"""
    return Style("ieee_conf", "IEEEtran conference: author blocks, TABLE I above tables, copyright line on page 1",
                 "[conference]{IEEEtran}", r"\IEEEoverridecommandlockouts" + "\n" + COMMON, front, ieee_numbers,
                 table_name="TABLE", table_numbers="Roman", caption_sep=" ", figure_name="Fig.", caption_sep_figure=". ",
                 refs=18, bst="IEEEtran", ack_heading="Acknowledgment",
                 running=["979-8-3503-1234-5/26/$31.00 ©2026 IEEE"])


def acm_sigconf() -> Style:
    authors = "\n".join(rf"\author{{{a.name}}}\affiliation{{\institution{{{AFFILIATIONS[a.affil][0]}}}"
                        rf"\city{{{AFFILIATIONS[a.affil][1]}}}\country{{{AFFILIATIONS[a.affil][2]}}}}}\email{{{a.email}}}"
                        for a in AUTHORS)
    conf = "KDD '26, August 9--13, 2026, Toronto, ON, Canada"
    preamble = r"""\copyrightyear{2026}
\acmYear{2026}
\setcopyright{acmlicensed}
\acmConference[KDD '26]{Proceedings of the 32nd ACM SIGKDD Conference on Knowledge Discovery and Data Mining}{August 9--13, 2026}{Toronto, ON, Canada}
\acmBooktitle{Proceedings of the 32nd ACM SIGKDD Conference on Knowledge Discovery and Data Mining (KDD '26), August 9--13, 2026, Toronto, ON, Canada}
\acmDOI{10.1145/3711896.3736999}
\acmISBN{979-8-4007-1454-2/26/08}
\usepackage{tikz}"""
    front = rf"""\title[{SHORT_TITLE}]{{{TITLE}}}
{authors}
\renewcommand{{\shortauthors}}{{Moreau et al.}}
\begin{{abstract}}
{ABSTRACT}
\end{{abstract}}
\ccsdesc[500]{{Computing methodologies~Natural language processing}}
\ccsdesc[300]{{Computing methodologies~Neural networks}}
\keywords{{{', '.join(KEYWORDS)}}}
\maketitle
"""
    return Style("acm_sigconf", "acmart sigconf: capitals headings, CCS concepts and ACM reference block on page 1, "
                 "running headers with venue and short title", "[sigconf]{acmart}", preamble, front,
                 arabic_dotted(), upper_levels=(1,), table_name="Table", caption_sep=": ", refs=28,
                 bst="ACM-Reference-Format", bib_heading="REFERENCES", appendix=appendix_numbers("{L} ", "{L}.{n} "),
                 running=[conf.replace("--", "-"), "Moreau et al.", SHORT_TITLE,
                          "Permission to make digital or hard copies of all or part of this work"])


def aaai_like() -> Style:
    preamble = COMMON + r"""
\usepackage{mathptmx}
\usepackage[letterpaper,left=0.75in,right=0.75in,top=0.75in,bottom=1.25in,columnsep=0.33in]{geometry}
\usepackage[authoryear]{natbib}
\setcitestyle{aysep={}}
\usepackage[font=small]{caption}
\setcounter{secnumdepth}{0}
\usepackage{titlesec}
\titleformat{\section}{\centering\normalfont\large\bfseries}{}{0pt}{}
\titleformat{\subsection}{\normalfont\normalsize\bfseries}{}{0pt}{}
\titleformat{\subsubsection}{\normalfont\normalsize\bfseries}{}{0pt}{}
\titlespacing*{\section}{0pt}{2ex plus .5ex}{1ex}
\titlespacing*{\subsection}{0pt}{1.5ex plus .5ex}{0.7ex}
\titlespacing*{\subsubsection}{0pt}{1.2ex plus .4ex}{0.5ex}
\pagestyle{empty}"""
    front = rf"""\twocolumn[{{\centering
{{\LARGE\bfseries {TITLE}\par}}\vspace{{1.2em}}
{{\large\bfseries {names_line(last_sep=', ')}\par}}\vspace{{0.6em}}
{{\small {AFFIL_LINES}\\ {EMAILS}\par}}\vspace{{2em}}}}]
\thispagestyle{{empty}}
\begingroup\renewcommand\thefootnote{{}}\footnotetext{{Copyright \copyright{{}} 2026, Association for the Advancement of Artificial Intelligence (www.aaai.org). All rights reserved.}}\endgroup
{{\centering\large\bfseries Abstract\par}}\vspace{{0.5em}}
\begin{{quote}}\small
{ABSTRACT}
\end{{quote}}
"""
    return Style("aaai_like", "AAAI look (article+twocolumn): unnumbered centred bold headings, bold subheadings at "
                 "body size, author-year references `Surname, I.; and ...`", "[letterpaper,twocolumn,10pt]{article}",
                 preamble, front, None, caption_sep=": ", table_caption_above=False, cite="citep", refs=36,
                 bib="items", bibitem=aaai_item,
                 running=["Copyright © 2026, Association for the Advancement of Artificial Intelligence"])


def cvpr_like() -> Style:
    preamble = COMMON + r"""
\usepackage{mathptmx}
\usepackage[letterpaper,textwidth=6.875in,textheight=8.875in,top=1in,columnsep=0.3125in]{geometry}
\usepackage[labelsep=period,font=small]{caption}
""" + titlesec(r"\normalfont\large\bfseries", r"\normalfont\normalsize\bfseries", r"\normalfont\normalsize\bfseries", ".") + r"""
\usepackage[pagebackref,breaklinks,colorlinks,allcolors=blue]{hyperref}
\usepackage{pdfrender}
\pagestyle{empty}"""
    front = rf"""\twocolumn[{{\centering
{{\Large\bfseries {TITLE}\par}}\vspace{{1.5em}}
{{\large {names_line(last_sep=', ')}\par}}\vspace{{0.6em}}
{{\normalsize {AFFIL_LINES}\par}}\vspace{{0.3em}}
{{\small\ttfamily {EMAILS}\par}}\vspace{{2em}}}}]
\thispagestyle{{empty}}
{{\centering\large\bfseries\itshape Abstract\par}}\vspace{{0.6em}}
{{\itshape {ABSTRACT}\par}}\vspace{{1em}}
"""
    return Style("cvpr_like", "CVPR/ICCV look (article+twocolumn): `1. Introduction` headings with trailing dots, "
                 "`Figure 1.` captions, references with page back-links, equations' LaTeX source as invisible text", "[10pt,twocolumn,letterpaper]{article}",
                 preamble, front, arabic_dotted("."), figure_name="Figure", caption_sep=". ",
                 table_caption_above=False, refs=30, bst="plain", appendix=appendix_numbers("{L}. ", "{L}.{n}. "),
                 invisible_source=True,
                 before_bib=r"\let\zoothebib\thebibliography\renewcommand\thebibliography[1]{\zoothebib{#1}\small}")


def llncs() -> Style:
    authors = r" \and ".join(rf"{a.name}\inst{{{a.affil + 1}}}" for a in AUTHORS)
    institutes = r" \and ".join(
        affil(i) + r" \\ \email{" + ", ".join(a.email for a in AUTHORS if a.affil == i) + "}" for i in range(len(AFFILIATIONS)))
    front = rf"""\title{{{TITLE}}}
\titlerunning{{{SHORT_TITLE}}}
\author{{{authors}}}
\authorrunning{{L. Moreau et al.}}
\institute{{{institutes}}}
\maketitle
\begin{{abstract}}
{ABSTRACT}
\keywords{{{AND.join(KEYWORDS)}}}
\end{{abstract}}
"""
    return Style("llncs", "Springer LNCS: single column, run-in unnumbered level-3 headings, `Table 1.` above tables, "
                 "`Fig. 1.` below figures, running heads", "[runningheads]{llncs}", COMMON_LM, front, arabic_dotted(),
                 numbered_depth=2, twocolumn=False, table_name="Table", caption_sep=". ", figure_name="Fig.",
                 refs=22, bst="splncs04", sentences=-1, running=["L. Moreau et al.", SHORT_TITLE])


def _els_front(authoryear: bool) -> str:
    corref = [r"\corref{cor1}"] + [""] * (len(AUTHORS) - 1)
    authors = "\n".join(rf"\author[a{a.affil}]{{{a.name}{corref[i]}}}\ead{{{a.email}}}" for i, a in enumerate(AUTHORS))
    affs = "\n".join(rf"\affiliation[a{i}]{{organization={{{org}}},city={{{city}}},country={{{country}}}}}"
                     for i, (org, city, country) in enumerate(AFFILIATIONS))
    return rf"""\begin{{frontmatter}}
\title{{{TITLE}}}
{authors}
\cortext[cor1]{{Corresponding author}}
{affs}
\begin{{abstract}}
{ABSTRACT}
\end{{abstract}}
\begin{{keyword}}
{SEP.join(KEYWORDS)}
\end{{keyword}}
\end{{frontmatter}}
"""


def els_preprint() -> Style:
    return Style("els_preprint", "elsarticle preprint: single column, `1.` / `2.1.` headings, `Table 1:` above tables, "
                 "`Preprint submitted to` footer", "[preprint,10pt]{elsarticle}",
                 COMMON_LM + "\n\\journal{Pattern Recognition}", _els_front(False), arabic_dotted("."), twocolumn=False,
                 caption_sep=": ", refs=26, bst="elsarticle-num", sentences=-2, running=["Preprint submitted to Pattern Recognition"])


def els_5p() -> Style:
    return Style("els_5p", "elsarticle 5p two-column journal look with author-year (harvard) references",
                 "[5p,times,authoryear]{elsarticle}", COMMON + "\n\\journal{Information Sciences}",
                 _els_front(True), arabic_dotted("."), caption_sep=": ", cite="citep", refs=40, bst="elsarticle-harv",
                 appendix=appendix_numbers("Appendix {L}. ", "Appendix {L}.{n}. "),
                 running=["Preprint submitted to Information Sciences"])


def _revtex(name: str, description: str, options: str, bst: str, running: list[str] | None = None) -> Style:
    """revtex4-2 in its reprint layout (APS and AIP journals share it): one `\\author` and `\\affiliation` per
    author, the abstract before `\\maketitle`, `I.` / `A.` / `1.` headings, the bibliography with no heading."""
    authors = "\n".join(rf"\author{{{a.name}}}" + (rf"\email{{{a.email}}}" if i == 0 else "") +
                        rf"\affiliation{{{affil(a.affil)}}}" for i, a in enumerate(AUTHORS))
    front = rf"""\title{{{TITLE}}}
{authors}
\date{{November 24, 2026}}
\begin{{abstract}}
{ABSTRACT}
\end{{abstract}}
\maketitle
"""

    def numbers(nums: list[int]) -> str:
        return ieee_numbers(nums) if len(nums) < 3 else f"{nums[2]}. "

    extra = {} if running is None else {"running": running}
    return Style(name, description, options, r"\usepackage{tikz}", front, numbers, upper_levels=(1,),
                 table_name="TABLE", table_numbers="Roman", caption_sep=". ", figure_name="FIG.", refs=24,
                 bst=bst, bib_heading="", **extra)


def revtex_aps() -> Style:
    return _revtex("revtex_aps", "revtex4-2 APS reprint: two-column, `I. INTRODUCTION` capitals headings, `FIG. 1.` and "
                   "`TABLE I.` captions, abstract without heading", "[reprint,amsmath,amssymb,aps,prb]{revtex4-2}",
                   "apsrev4-2")


def amsart() -> Style:
    authors = "\n".join(rf"\author[{initials(a.first)} {a.last}]{{{a.name}}}\address{{{affil(a.affil)}}}\email{{{a.email}}}"
                        for a in AUTHORS)
    front = rf"""\title[{SHORT_TITLE}]{{{TITLE}}}
{authors}
\subjclass[2020]{{Primary 68T07; Secondary 68T50}}
\keywords{{{', '.join(KEYWORDS)}}}
\date{{November 24, 2026}}
\begin{{abstract}}
{ABSTRACT}
\end{{abstract}}
\maketitle
"""
    short = ", ".join(f"{initials(a.first)} {a.last}".upper() for a in AUTHORS[:-1]) + \
        f", AND {initials(AUTHORS[-1].first)} {AUTHORS[-1].last}".upper()
    return Style("amsart", "amsart: single column, centred small-caps sections, run-in level-2 and level-3 headings, "
                 "capitals running heads, addresses after the references", "{amsart}", COMMON_LM, front,
                 arabic_dotted("."), twocolumn=False, caption_sep=". ", refs=16, bst="amsplain",
                 running=[SHORT_TITLE.upper(), short])


def copernicus_like() -> Style:
    journal = "Geosci. Model Dev., 19, 1021--1036, 2026"
    doi = "https://doi.org/10.5194/gmd-19-1021-2026"
    preamble = COMMON + r"""
\usepackage{mathptmx}
\usepackage[scaled=0.92]{helvet}
\usepackage[a4paper,top=2.2cm,bottom=2.4cm,left=1.7cm,right=1.7cm,columnsep=0.8cm]{geometry}
\usepackage{xcolor}
\usepackage[authoryear,round]{natbib}
\usepackage[labelsep=period,labelfont=bf,font=small]{caption}
""" + titlesec(r"\normalfont\sffamily\large\bfseries", r"\normalfont\sffamily\bfseries",
               r"\normalfont\sffamily\small\bfseries") + rf"""
\usepackage{{fancyhdr}}
\pagestyle{{fancy}}\fancyhf{{}}\renewcommand{{\headrulewidth}}{{0pt}}
\fancyhead[L]{{\small\sffamily L. Moreau et al.: {SHORT_TITLE}}}\fancyhead[R]{{\small\sffamily\thepage}}
\fancyfoot[L]{{\small\sffamily {journal}}}\fancyfoot[R]{{\small\sffamily {doi}}}
\fancypagestyle{{first}}{{\fancyhf{{}}\fancyfoot[L]{{\small\sffamily Published by Copernicus Publications on behalf of the European Geosciences Union.}}}}"""
    front = rf"""\setcounter{{page}}{{1021}}
\twocolumn[{{\sffamily
\begin{{minipage}}[t]{{0.62\textwidth}}\small {journal}\\ {doi}\\ \copyright\ Author(s) 2026. This work is distributed under\\ the Creative Commons Attribution 4.0 License.\end{{minipage}}\hfill
\begin{{minipage}}[t]{{0.34\textwidth}}\raggedleft\colorbox{{blue!55!black}}{{\color{{white}}\bfseries Geoscientific}}\\ {{\large\bfseries Model Development}}\end{{minipage}}\par
\vspace{{2em}}
{{\raggedright\LARGE\bfseries {TITLE}\par}}\vspace{{1em}}
{{\bfseries {names_line(last_sep=', and ')}\par}}\vspace{{0.5em}}
{{\small {AFFIL_LINES}\par}}\vspace{{0.5em}}
{{\small \textbf{{Correspondence:}} {AUTHORS[0].name} ({AUTHORS[0].email})\par}}\vspace{{0.5em}}
{{\small \textbf{{Received:}} 12 March 2026 -- \textbf{{Discussion started:}} 2 April 2026\\ \textbf{{Revised:}} 30 July 2026 -- \textbf{{Accepted:}} 4 August 2026 -- \textbf{{Published:}} 24 November 2026\par}}
\vspace{{2em}}}}]
\thispagestyle{{first}}
\noindent\textbf{{Abstract.}} {ABSTRACT}
"""
    return Style("copernicus_like", "Copernicus journal look (article+twocolumn): masthead with journal name, DOI and "
                 "licence lines, Received/Accepted lines, sans-serif headings, unnumbered back-matter sections, "
                 "author-year references `Surname, I., ...: Title, Journal, ...`", "[twocolumn,10pt]{article}",
                 preamble, front, arabic_dotted(), caption_sep=". ", cite="citep", refs=34, bib="items",
                 bibitem=copernicus_item,
                 back_sections=[("Code and data availability", "The code and the trained routers are available from "
                                 "the authors upon request and will be archived in a public repository."),
                                ("Author contributions", "LM and JO designed the method; PR ran the experiments; "
                                 "DKO supervised the statistical analysis. All authors wrote the paper."),
                                ("Competing interests", "The authors declare that they have no conflict of interest.")],
                 running=[f"L. Moreau et al.: {SHORT_TITLE}", journal.replace("--", "-"), doi,
                          "Published by Copernicus Publications on behalf of the European Geosciences Union",
                          "This work is distributed under the Creative Commons Attribution 4.0 License"])


def mdpi_like() -> Style:
    cite_line = ("Moreau, L.; Østergaard, J.; Raghunathan, P.; Okafor, D.K. " + TITLE +
                 r". \emph{Sensors} \textbf{2026}, \emph{26}, 1234. https://doi.org/10.3390/s26011234")
    preamble = COMMON + r"""
\usepackage{mathpazo}
\usepackage[a4paper,top=2.5cm,bottom=2.5cm,left=2.8cm,right=2.2cm]{geometry}
\usepackage{xcolor,lastpage}
\usepackage[labelsep=period,labelfont=bf,font=small]{caption}
""" + titlesec(r"\normalfont\bfseries", r"\normalfont\itshape", r"\normalfont", ".") + r"""
\usepackage{fancyhdr}
\pagestyle{fancy}\fancyhf{}\renewcommand{\headrulewidth}{0pt}
\fancyhead[L]{\small\emph{Sensors} \textbf{2026}, \emph{26}, 1234}\fancyhead[R]{\small\thepage\ of \pageref{LastPage}}
\fancypagestyle{first}{\fancyhf{}\fancyfoot[L]{\footnotesize\emph{Sensors} \textbf{2026}, \emph{26}, 1234. https://doi.org/10.3390/s26011234}\fancyfoot[R]{\footnotesize https://www.mdpi.com/journal/sensors}}
\makeatletter\renewcommand\@biblabel[1]{#1.}\makeatother"""
    front = rf"""\thispagestyle{{first}}
\noindent{{\Huge\sffamily\bfseries\color{{blue!50!black}} sensors}}\hfill{{\Large\sffamily\bfseries MDPI}}\\
{{\small ISSN 1424-8220}}\par\vspace{{1.2em}}
\noindent\emph{{Article}}\par\vspace{{0.6em}}
{{\raggedright\LARGE\bfseries {TITLE}\par}}\vspace{{1em}}
\noindent{{\bfseries {names_line(last_sep=' and ', mark=',*')}\par}}\vspace{{1em}}
\noindent\begin{{minipage}}[t]{{0.27\textwidth}}\footnotesize\raggedright
\textbf{{Citation:}} {cite_line}\par\medskip
Academic Editor: Maria Rossi\par\medskip
Received: 12 March 2026\\ Revised: 30 July 2026\\ Accepted: 4 August 2026\\ Published: 24 November 2026\par\medskip
\textbf{{Copyright:}} \copyright\ 2026 by the authors. Licensee MDPI, Basel, Switzerland. This article is an open access article distributed under the terms and conditions of the Creative Commons Attribution (CC BY) license.
\end{{minipage}}\hfill
\begin{{minipage}}[t]{{0.69\textwidth}}\small
{AFFIL_LINES}\\ \textbf{{*}} Correspondence: {AUTHORS[0].email}\par\bigskip
\noindent\textbf{{Abstract:}} {ABSTRACT}\par\medskip
\noindent\textbf{{Keywords:}} {KW}
\end{{minipage}}\par\bigskip
"""
    return Style("mdpi_like", "MDPI look (article, one column): journal masthead and ISSN line, left sidebar with "
                 "Citation/Received/Copyright, run-in `Abstract:`, `1.` / `2.1.` headings, numbered `1.` references",
                 "[10pt,a4paper]{article}", preamble, front, arabic_dotted("."), twocolumn=False, caption_sep=". ",
                 refs=30, bib="items", bibitem=mdpi_item,
                 running=["Sensors 2026, 26, 1234", "https://doi.org/10.3390/s26011234",
                          "https://www.mdpi.com/journal/sensors", "Academic Editor: Maria Rossi",
                          "Licensee MDPI, Basel, Switzerland"])


def frontiers_like() -> Style:
    footer_r = "November 2026 | Volume 20 | Article 1234567"
    footer_l = "Frontiers in Neuroscience | www.frontiersin.org"
    preamble = COMMON + rf"""
\usepackage{{mathptmx}}
\usepackage[a4paper,top=2.2cm,bottom=2.4cm,left=1.8cm,right=1.8cm,columnsep=0.7cm]{{geometry}}
\usepackage{{xcolor}}
\usepackage[authoryear,round]{{natbib}}
\usepackage{{caption}}
\DeclareCaptionLabelSeparator{{bar}}{{ | }}
\captionsetup{{labelsep=bar,labelfont=bf,font=small}}
\renewcommand{{\figurename}}{{FIGURE}}\renewcommand{{\tablename}}{{TABLE}}
""" + titlesec(r"\normalfont\bfseries", r"\normalfont\bfseries", r"\normalfont\bfseries\itshape", upper1=True) + rf"""
\usepackage{{fancyhdr}}
\pagestyle{{fancy}}\fancyhf{{}}
\fancyhead[L]{{\small Moreau et al.}}\fancyhead[R]{{\small {SHORT_TITLE}}}
\fancyfoot[L]{{\footnotesize {footer_l.replace('|', '$|$')}}}\fancyfoot[C]{{\footnotesize\thepage}}\fancyfoot[R]{{\footnotesize {footer_r.replace('|', '$|$')}}}
\fancypagestyle{{first}}{{\fancyhf{{}}\renewcommand{{\headrulewidth}}{{0pt}}\fancyfoot[L]{{\footnotesize {footer_l.replace('|', '$|$')}}}\fancyfoot[C]{{\footnotesize\thepage}}\fancyfoot[R]{{\footnotesize {footer_r.replace('|', '$|$')}}}}}"""
    citation = ("Moreau L, Østergaard J, Raghunathan P and Okafor DK (2026) " + TITLE +
                ". Front. Neurosci. 20:1234567. doi: 10.3389/fnins.2026.1234567")
    front = rf"""\twocolumn[{{
\noindent{{\sffamily\bfseries\color{{red!60!black}} ORIGINAL RESEARCH}}\hfill\begin{{minipage}}[t]{{0.4\textwidth}}\raggedleft\footnotesize published: 24 November 2026\\ doi: 10.3389/fnins.2026.1234567\end{{minipage}}\par\vspace{{1.5em}}
\noindent\begin{{minipage}}[t]{{0.25\textwidth}}\scriptsize\raggedright
{{\bfseries OPEN ACCESS}}\par\medskip
\textbf{{Edited by:}}\\ Maria Rossi, University of Bologna, Italy\par\medskip
\textbf{{Reviewed by:}}\\ Kenji Tanaka, Kyoto University, Japan\par\medskip
\textbf{{*Correspondence:}}\\ {AUTHORS[0].name}\\ {AUTHORS[0].email}\par\medskip
\textbf{{Specialty section:}}\\ This article was submitted to Neural Technology, a section of the journal Frontiers in Neuroscience\par\medskip
\textbf{{Received:}} 12 March 2026\\ \textbf{{Accepted:}} 4 August 2026\\ \textbf{{Published:}} 24 November 2026\par\medskip
\textbf{{Citation:}}\\ {citation}
\end{{minipage}}\hfill
\begin{{minipage}}[t]{{0.71\textwidth}}
{{\raggedright\LARGE\bfseries {TITLE}\par}}\vspace{{1em}}
{{\bfseries {names_line(last_sep=' and ', mark='*')}\par}}\vspace{{0.6em}}
{{\small\itshape {AFFIL_LINES}\par}}\vspace{{1em}}
{{\small {ABSTRACT}\par}}\vspace{{0.8em}}
{{\small \textbf{{Keywords:}} {', '.join(KEYWORDS)}\par}}
\end{{minipage}}\par\vspace{{2em}}}}]
\thispagestyle{{first}}
"""
    return Style("frontiers_like", "Frontiers look (article+twocolumn): left sidebar with Edited by/Received/Citation, "
                 "abstract without a heading, capitals headings, `FIGURE 1 |` legends, `TABLE 1 |` above tables, "
                 "author-year references", "[10pt,a4paper,twocolumn]{article}", preamble, front, arabic_dotted(),
                 upper_levels=(1,), table_name="TABLE", figure_name="FIGURE", caption_sep=" | ", cite="citep",
                 refs=38, bib="items", bibitem=frontiers_item, bib_heading="REFERENCES", ack_heading="Acknowledgments",
                 back_sections=[("Data Availability Statement", "The benchmarks are public; the splits we used are "
                                 "listed in the supplementary material."),
                                ("Author Contributions", "LM and JO designed the method, PR ran the experiments and "
                                 "DKO supervised the analysis. All authors approved the submitted version."),
                                ("Conflict of Interest", "The authors declare that the research was conducted in the "
                                 "absence of any commercial or financial relationships.")],
                 running=["Moreau et al.", SHORT_TITLE, footer_l, footer_r,
                          "This article was submitted to Neural Technology",
                          "Edited by: Maria Rossi, University of Bologna, Italy"])


def iop_like() -> Style:
    head = "J. Phys. Commun. 10 (2026) 115001"
    doi = "https://doi.org/10.1088/2399-6528/ad1234"
    preamble = COMMON + rf"""
\usepackage{{mathptmx}}
\usepackage[a4paper,top=2.4cm,bottom=2.4cm,left=5.2cm,right=1.8cm,marginparwidth=3.4cm,marginparsep=0.6cm]{{geometry}}
\usepackage{{xcolor}}
\usepackage[labelsep=period,labelfont=bf,font=small]{{caption}}
""" + titlesec(r"\normalfont\bfseries", r"\normalfont\bfseries\itshape", r"\normalfont\itshape", ".") + rf"""
\usepackage{{fancyhdr}}
\pagestyle{{fancy}}\fancyhf{{}}\renewcommand{{\headrulewidth}}{{0pt}}
\fancyhead[L]{{\small {head}}}\fancyhead[R]{{\small L Moreau et al}}
\fancypagestyle{{first}}{{\fancyhf{{}}\renewcommand{{\headrulewidth}}{{0pt}}\fancyhead[L]{{\small {head}\hfill {doi}}}}}
\reversemarginpar"""
    side = (r"\marginpar{\raggedright\scriptsize\sffamily {\bfseries OPEN ACCESS}\par\medskip RECEIVED\\ 12 March 2026\par"
            r"\medskip REVISED\\ 30 July 2026\par\medskip ACCEPTED FOR PUBLICATION\\ 4 August 2026\par\medskip PUBLISHED\\ "
            r"24 November 2026\par\medskip Original content from this work may be used under the terms of the "
            r"Creative Commons Attribution 4.0 licence.}")
    front = rf"""\thispagestyle{{first}}
\noindent{{\sffamily\bfseries\large Journal of Physics Communications}}\par\vspace{{1.2em}}
\noindent{{\sffamily\bfseries PAPER}}\par\vspace{{0.8em}}
{{\raggedright\LARGE\sffamily {TITLE}\par}}\vspace{{1em}}
\noindent{side}{{\sffamily {names_line(last_sep=' and ')}\par}}\vspace{{0.5em}}
\noindent{{\small {AFFIL_LINES}\par}}\vspace{{0.3em}}
\noindent{{\small E-mail: {AUTHORS[0].email}\par}}\vspace{{0.4em}}
\noindent{{\small Keywords: {', '.join(KEYWORDS)}\par}}\vspace{{1em}}
\noindent{{\bfseries Abstract}}\par\smallskip
\noindent{{\small {ABSTRACT}\par}}\vspace{{1em}}
"""
    return Style("iop_like", "IOP look (article, one column, wide left margin): journal name and PAPER label, margin "
                 "sidebar with RECEIVED/PUBLISHED lines, `1.` / `2.1.` headings, numbered IOP references",
                 "[10pt,a4paper]{article}", preamble, front, arabic_dotted("."), twocolumn=False, caption_sep=". ",
                 refs=20, bib="items", bibitem=iop_item,
                 running=[head, doi, "L Moreau et al",
                          "Original content from this work may be used under the terms of the Creative Commons"])


def mnras() -> Style:
    names = (", ".join(rf"{a.name}$^{{{a.affil + 1}}}$" + (rf"\thanks{{E-mail: {a.email}}}" if i == 0 else "")
                       for i, a in enumerate(AUTHORS[:-1])) + rf" and {AUTHORS[-1].name}$^{{{AUTHORS[-1].affil + 1}}}$")
    affs = r"\\".join(rf"$^{{{i + 1}}}${affil(i)}" for i in range(len(AFFILIATIONS)))
    front = rf"""\title[{SHORT_TITLE}]{{{TITLE}}}
\author[L. Moreau et al.]{{{names}\\
{affs}}}
\date{{Accepted 2026 August 4. Received 2026 July 30; in original form 2026 March 12}}
\pubyear{{2026}}
\label{{firstpage}}
\pagerange{{1--12}}
\maketitle
\begin{{abstract}}
{ABSTRACT}
\end{{abstract}}
\begin{{keywords}}
{' -- '.join(KEYWORDS)}
\end{{keywords}}
"""
    return Style("mnras", "MNRAS (mnras.cls): two-column, capitals numbered headings, full-width floats, author-year "
                 "references, running heads and `MNRAS 000, 1-12 (2026)` footers, closing typeset-by line",
                 "[fleqn,usenatbib]{mnras}", COMMON + "\n\\usepackage{mathptmx}", front, arabic_dotted(), upper_levels=(1,), caption_sep=". ",
                 cite="citep", refs=27, bst="mnras", bib_heading="REFERENCES", ack_heading="Acknowledgements",
                 back_sections=[("Data Availability", "The data underlying this article will be shared on "
                                 "reasonable request to the corresponding author.")],
                 end=r"\bsp" + "\n" + r"\label{lastpage}", appendix=appendix_numbers("APPENDIX {L}: ", "{L}{n} "),
                 running=["L. Moreau et al.", SHORT_TITLE, "MNRAS 000, 1-12 (2026)",
                          "This paper has been typeset from a TeX/LaTeX file prepared by the author"])


def pmlr() -> Style:
    names = r" \AND ".join(rf"\Name{{{a.name}}} \Email{{{a.email}}}\\ \addr {affil(a.affil)}" for a in AUTHORS)
    front = rf"""\title[{SHORT_TITLE}]{{{TITLE}}}
\author{{{names}}}
\maketitle
\begin{{abstract}}
{ABSTRACT}
\end{{abstract}}
\begin{{keywords}}
{', '.join(KEYWORDS).capitalize()}
\end{{keywords}}
"""
    preamble = r"""\jmlrvolume{289}
\jmlryear{2026}
\jmlrworkshop{Proceedings of the Conference on Health, Inference, and Learning}
\jmlrproceedings{PMLR}{Proceedings of Machine Learning Research}
\usepackage{tikz}"""
    return Style("pmlr", "PMLR / JMLR W&CP (jmlr.cls): single column, `1. Introduction` headings, `Table 1:` above "
                 "tables, author-year references, proceedings header and running heads", "[pmlr]{jmlr}", preamble,
                 front, arabic_dotted("."), twocolumn=False, caption_sep=": ", cite="citep", refs=20, bst="plainnat",
                 appendix=appendix_numbers("Appendix {L}. ", "{L}.{n}. "),
                 sentences=-1, running=[SHORT_TITLE, "Proceedings of Machine Learning Research 289",
                                        " ".join(a.last for a in AUTHORS)])


# ---------------------------------------------------------------- issue 29's classes: the long tail of structure

def ieee_long_refs() -> Style:
    """IEEEtran journal whose 66-entry reference list runs over several two-column pages (a hidden IEEE
    Transactions paper kept 16 of 66)."""
    base = ieee_journal()
    base.name = "ieee_long_refs"
    base.description = "IEEEtran journal, 66 references running over several two-column pages"
    base.refs = 66
    return base


def aastex() -> Style:
    """AASTeX 6.3.1 (aastex631.cls, twocolumn): authors with affiliation superscripts over several lines, capitals
    `1. INTRODUCTION` headings, author-year aasjournal references."""
    authors = "\n".join(rf"\author{{{a.name}}}" + "\n" + rf"\affiliation{{{affil(a.affil)}}}" for a in AUTHORS)
    front = rf"""\title{{{TITLE}}}
\shorttitle{{{SHORT_TITLE}}}
\shortauthors{{Moreau et al.}}
{authors}
\correspondingauthor{{{AUTHORS[0].name}}}
\email{{{AUTHORS[0].email}}}
\begin{{abstract}}
{ABSTRACT}
\end{{abstract}}
\keywords{{{', '.join(KEYWORDS)}}}
"""
    return Style("aastex", "AASTeX 6.3.1 two-column: numbered affiliation superscripts in a multi-line author block, "
                 "capitals `1. INTRODUCTION` headings, author-year aasjournal references",
                 "[twocolumn]{aastex631}", r"\usepackage{tikz}" + "\n" + r"\usepackage{amsmath}", front,
                 arabic_dotted(".", " "), upper_levels=(1,), caption_sep=". ", cite="citep", refs=30, bst="aasjournal",
                 bib_heading="REFERENCES", ack_heading="Acknowledgments",
                 running=["Moreau et al."])


def chicago_item(i: int, e: dict) -> str:
    """Chicago author-date, as economics working papers print it: `Surname, First, First Surname, and First
    Surname. 2013. "Title." Journal 12 (3): 45–67.`"""
    names = [split(a) for a in e["authors"]]
    first = f"{names[0][1]}, {names[0][0]}"
    rest = [f"{f} {l}" for f, l in names[1:]]
    who = first if not rest else f"{first}, and {rest[0]}" if len(rest) == 1 else f"{first}, " + ", ".join(rest[:-1]) + f", and {rest[-1]}"
    where = (f"\\emph{{{e['journal']}}} {e['volume']} ({e['number']}): {e['pages']}" if e["type"] == "article"
             else f"In \\emph{{{e['booktitle']}}}, {e['pages']}")
    return f"\\bibitem[{natbib_key(e)}]{{{e['key']}}}\n{who}. {e['year']}. ``{e['title']}.'' {where}."


def chicago_econ() -> Style:
    """An economics working paper: article class, one column, `1 Introduction` headings (number and title apart),
    Chicago author-date references with `and` before the last name and full first names."""
    names = r" \and ".join(rf"{a.name}\thanks{{{affil(a.affil)}. E-mail: {a.email}.}}" for a in AUTHORS)
    front = rf"""\title{{{TITLE}}}
\author{{{names}}}
\date{{November 2026}}
\maketitle
\begin{{abstract}}
{ABSTRACT}

\medskip\noindent\textbf{{JEL Classification:}} C45, C55, D83.\quad \textbf{{Keywords:}} {', '.join(KEYWORDS)}.
\end{{abstract}}
"""
    return Style("chicago_econ", "economics working paper (article, 11pt, one column): `1 Introduction` headings with "
                 "the number set apart, Chicago author-date references (full first names, `and` before the last)",
                 "[11pt]{article}", COMMON_LM + "\n\\usepackage[margin=1in]{geometry}\n\\usepackage{natbib}", front,
                 arabic_dotted("", " "), twocolumn=False, caption_sep=": ", cite="citep", refs=26, bib="items",
                 bibitem=chicago_item, sentences=-2, running=[])


SUPPLEMENT_REFS = [
    r"\bibitem{sup1} Anna Rossi and Kenji Tanaka. Concentration bounds for sparse attention. \emph{Journal of Machine Learning Research}, 21(3):1--29, 2020.",
    r"\bibitem{sup2} Omar Uddin. Relaxed top-k operators revisited. In \emph{Proceedings of the International Conference on Machine Learning}, pages 101--110, 2022.",
    r"\bibitem{sup3} Laura Chen, Ivan Petrov, and Sofia Santos. Long-document benchmarks. \emph{Transactions of the Association for Computational Linguistics}, 9:12--30, 2021.",
    r"\bibitem{sup4} Tomas Jensen. Routing without labels. In \emph{Advances in Neural Information Processing Systems}, pages 55--66, 2023.",
]


def supplement() -> Style:
    """A conference paper with its supplement appended after the references: the supplement's title, its own
    `S1`/`S1.1` headings and its own 4-entry References list (which must neither replace nor join the main list)."""
    names = r" \and ".join(rf"{a.name}\\ {{\small {affil(a.affil)}}}" for a in AUTHORS)
    front = rf"""\title{{{TITLE}}}
\author{{{names}}}
\date{{}}
\maketitle
\begin{{abstract}}
{ABSTRACT}
\end{{abstract}}
"""
    sup_title = f"Supplementary Material: {TITLE}"
    para = ("The relaxation used in the main text replaces the hard selection of the top k tokens by a smooth "
            "surrogate whose temperature is annealed during training; the bounds below hold for every temperature. ")
    end = (r"\clearpage" + "\n" + rf"\section*{{{sup_title}}}" + "\n" + para * 2 + "\n"
           r"\section*{S1 Proof of Proposition 1}" + "\n" + para * 3 + r"See \cite{sup1,sup2}." + "\n"
           r"\subsection*{S1.1 Bounding the Relaxation Gap}" + "\n" + para * 3 + "\n"
           r"\section*{S2 Additional Experiments}" + "\n" + para * 3 + r"We follow \cite{sup3,sup4}." + "\n"
           r"\begin{thebibliography}{4}" + "\n" + "\n".join(SUPPLEMENT_REFS) + "\n" + r"\end{thebibliography}")
    return Style("supplement", "one-column conference paper with a supplement after the references: its own title, "
                 "`S1`/`S1.1` headings and a 4-entry References list of its own",
                 "[10pt]{article}", COMMON_LM + "\n\\usepackage[margin=1in]{geometry}", front, arabic_dotted("", " "),
                 twocolumn=False, caption_sep=": ", refs=24, bst="plain", sentences=-2, running=[], end=end,
                 end_headings=[(1, sup_title), (1, "S1 Proof of Proposition 1"), (2, "S1.1 Bounding the Relaxation Gap"),
                               (1, "S2 Additional Experiments"), (1, "References")])


def toc_report() -> Style:
    """A technical report with a printed table of contents on its own page (entries with dot leaders and page
    numbers) before the first section: the contents must never be read as headings."""
    names = r" \and ".join(rf"{a.name}\\ {{\small {affil(a.affil)}}}" for a in AUTHORS)
    front = rf"""\title{{{TITLE}\\[4pt]{{\large Technical Report}}}}
\author{{{names}}}
\date{{November 2026}}
\maketitle
\begin{{abstract}}
{ABSTRACT}
\end{{abstract}}
\clearpage
\tableofcontents
\clearpage
"""
    return Style("toc_report", "one-column technical report with a table of contents page (dot leaders, page numbers) "
                 "before the first section", "[11pt]{article}", COMMON_LM + "\n\\usepackage[margin=1in]{geometry}",
                 front, arabic_dotted("", " "), twocolumn=False, caption_sep=": ", refs=20, bst="plain", sentences=-2,
                 running=[])


def achemso() -> Style:
    """achemso (ACS journals, here J. Med. Chem. in its two-column layout): the title block set from the preamble,
    affiliations tied to names by footnote symbols, an `Abstract` heading, superscript numbered citations and
    `(1) Surname, I.; Surname, I. Title. Journal Year, Volume, pages.` references (achemso.bst), then Supporting
    Information with its own headings and reference list."""
    authors = "\n".join(rf"\author{{{a.name}}}" + "\n" + rf"\affiliation{{{affil(a.affil)}}}"
                        + (rf"\email{{{a.email}}}" if i == 0 else "") for i, a in enumerate(AUTHORS))
    preamble = r"\usepackage{tikz}" + "\n" + r"\usepackage{amsmath}" + "\n" + rf"\title{{{TITLE}}}" + "\n" + authors
    front = rf"""\begin{{abstract}}
{ABSTRACT}
\end{{abstract}}
"""
    # Supporting Information appended after the references, as a medicinal-chemistry article's PDF often carries it:
    # its own title, unnumbered headings and a 4-entry list numbered afresh, which must stay apart from the main 28
    si_title = f"Supporting Information for {TITLE}"
    para = ("All compounds were characterised as described in the main text; the spectra below were recorded on the "
            "same instrument and processed with the same baseline correction. ")
    end = (r"\clearpage" + "\n" + rf"\section*{{{si_title}}}" + "\n" + para * 2 + "\n"
           r"\section*{General Procedures}" + "\n" + para * 3 + r"As before.\cite{sup1,sup2}" + "\n"
           r"\subsection*{Purity of the Final Compounds}" + "\n" + para * 3 + "\n"
           r"\section*{Additional Assays}" + "\n" + para * 3 + r"As reported.\cite{sup3,sup4}" + "\n"
           r"\begin{thebibliography}{4}" + "\n" + "\n".join(SUPPLEMENT_REFS) + "\n" + r"\end{thebibliography}")
    end_headings = [(1, si_title), (1, "General Procedures"), (2, "Purity of the Final Compounds"),
                    (1, "Additional Assays"), (1, "References")]
    return Style("achemso", "achemso (ACS, J. Med. Chem.) two-column: title block from the preamble, unnumbered headings, footnote-symbol "
                 "affiliation marks, `Abstract` heading, superscript numbered citations, `(1) Surname, I.; ...` "
                 "references (achemso.bst), Supporting Information with its own 4-entry list after the references",
                 "[journal=jmcmar,manuscript=article,layout=twocolumn]{achemso}", preamble, front,
                 None, caption_sep=". ", refs=28, bst="achemso", running=[], end=end, end_headings=end_headings)

def els_cas() -> Style:
    """Elsevier's current journal layout (cas-dc, as Transportation Research or Pattern Recognition print it today):
    the title block and a two-part `A R T I C L E  I N F O` / `A B S T R A C T` box over the full width, authors with
    letter marks and a corresponding-author star, `1. Introduction` headings, author-year references
    (cas-model2-names.bst), running heads of short title and authors."""
    marks = "abc"
    authors = "\n".join(rf"\author[{marks[a.affil]}]{{{a.name}}}" + (r"\cormark[1]" + "\n" + rf"\ead{{{a.email}}}" if i == 0 else "")
                        for i, a in enumerate(AUTHORS))
    affils = "\n".join(rf"\affiliation[{marks[i]}]{{organization={{{org}}}, city={{{city}}}, country={{{country}}}}}"
                       for i, (org, city, country) in enumerate(AFFILIATIONS))
    preamble = (COMMON + "\n" + r"\usepackage[authoryear]{natbib}" + "\n" + rf"\shorttitle{{{SHORT_TITLE}}}" + "\n"
                + r"\shortauthors{L. Moreau et al.}")
    front = rf"""\title[mode=title]{{{TITLE}}}
{authors}
{affils}
\cortext[1]{{Corresponding author}}
\begin{{abstract}}
{ABSTRACT}
\end{{abstract}}
\begin{{keywords}}
{SEP.join(KEYWORDS)}
\end{{keywords}}
\maketitle
"""
    return Style("els_cas", "Elsevier cas-dc journal layout: letter-marked affiliations, `A R T I C L E  I N F O` / "
                 "`A B S T R A C T` box, `1. Introduction` headings, author-year cas-model2-names references",
                 "[a4paper]{cas-dc}", preamble, front, arabic_dotted("."), caption_sep=": ", cite="citep", refs=30,
                 bst="cas-model2-names", bib_heading="References", ack_heading="Acknowledgements",
                 running=[SHORT_TITLE, "L. Moreau et al."])


def apa7() -> Style:
    """apa7 in its journal mode (`jou`, two columns), as psychology and education journals print APA 7: numbered
    affiliation superscripts, the abstract and keywords over the full width, unnumbered APA headings (centred bold,
    flush-left bold, bold italic; level 4 run-in is not used here), `Table 1` / `Figure 1` labels on a line of their
    own above an italic title, and apacite author-year references (`Surname, I., Surname, I., & Surname, I. (2020).
    Title. Journal, 12(3), 45–67.`)."""
    marks = ",".join(str(a.affil + 1) for a in AUTHORS)
    preamble = (r"\usepackage[american]{babel}" + "\n" + r"\usepackage{tikz}" + "\n" + r"\usepackage{amsmath}" + "\n"
                + rf"\title{{{TITLE}}}" + "\n" + rf"\shorttitle{{{SHORT_TITLE}}}" + "\n"
                + rf"\authorsnames[{marks}]{{{', '.join(a.name for a in AUTHORS)}}}" + "\n"
                + r"\authorsaffiliations{" + ",".join("{" + affil(i) + "}" for i in range(len(AFFILIATIONS))) + "}\n"
                + r"\leftheader{Moreau et al.}" + "\n" + rf"\abstract{{{ABSTRACT}}}" + "\n"
                + rf"\keywords{{{', '.join(KEYWORDS)}}}" + "\n"
                + rf"\authornote{{Correspondence concerning this article should be addressed to {AUTHORS[0].name}, "
                  rf"{affil(0)}. Email: {AUTHORS[0].email}}}")
    return Style("apa7", "apa7 journal mode (APA 7): numbered affiliation superscripts, unnumbered APA headings, "
                 "`Table 1` / `Figure 1` labels above italic titles, apacite author-year references with `&`",
                 "[jou,natbib]{apa7}", preamble, r"\maketitle" + "\n", None, caption_sep=" ", cite="citep", refs=26,
                 bst="apacite", running=[])


def spie() -> Style:
    """SPIE proceedings (spie.cls): authors with letter affiliation marks over a centred affiliation list, `1.
    INTRODUCTION` capitals level-1 headings with `1.1 Title` below, superscript numbered citations, spiebib
    references (`Surname, I., Surname, I., and Surname, I., "Title," Journal 12, 45-67 (2020).`)."""
    marks = "abc"
    authors = r"\author{" + ", ".join(rf"{a.name}\supit{{{marks[a.affil]}}}" for a in AUTHORS[:-1]) \
        + rf", and {AUTHORS[-1].name}\supit{{{marks[AUTHORS[-1].affil]}}}" + "}"
    affils = r"\affiliation{" + r" \\ ".join(rf"\supit{{{marks[i]}}}{affil(i)}" for i in range(len(AFFILIATIONS))) + "}"
    preamble = (r"\usepackage{tikz}" + "\n" + r"\usepackage{amsmath}" + "\n" + rf"\title{{{TITLE}}}" + "\n"
                + authors + "\n" + affils + "\n" + rf"\authorinfo{{Further author information: E-mail: {AUTHORS[0].email}}}")
    front = rf"""\maketitle
\begin{{abstract}}
{ABSTRACT}
\end{{abstract}}
\keywords{{{', '.join(KEYWORDS)}}}
"""
    return Style("spie", "SPIE proceedings (spie.cls): letter-marked authors over centred affiliations, `1. "
                 "INTRODUCTION` capitals headings, superscript citations, spiebib references",
                 "[]{spie}", preamble, front, arabic_dotted(".", " "), upper_levels=(1,), twocolumn=False,
                 caption_sep=". ", refs=22, bst="spiebib", bib_heading="REFERENCES", running=[])


def ieee_compsoc() -> Style:
    """IEEEtran in Computer Society journal mode (`compsoc`, as TPAMI, TKDE or TC print it): sans capitals
    `1 INTRODUCTION` headings with arabic numbers, `2.1 Title` below, the abstract and index terms set in a block
    after the author line and before the columns, `TABLE 1` above tables, `Fig. 1.` captions, IEEEtran references."""
    names = ", ".join(a.name.replace(" ", "~") for a in AUTHORS[:-1]) + ", and~" + AUTHORS[-1].name.replace(" ", "~")
    thanks = (rf"\IEEEcompsocitemizethanks{{\IEEEcompsocthanksitem L. Moreau and P. Raghunathan are with {affil(0)}.\protect\\"
              rf"E-mail: {AUTHORS[0].email}\IEEEcompsocthanksitem J. {AUTHORS[1].last} is with the {affil(1)}.}}")
    journal = "IEEE Transactions on Knowledge and Data Engineering"
    front = rf"""\title{{{TITLE}}}
\author{{{names}\thanks{{Manuscript received March 12, 2026.}}{thanks}}}
\markboth{{{journal},~Vol.~38, No.~11, November~2026}}{{Moreau \MakeLowercase{{\textit{{et al.}}}}: {SHORT_TITLE}}}
\IEEEtitleabstractindextext{{\begin{{abstract}}
{ABSTRACT}
\end{{abstract}}
\begin{{IEEEkeywords}}
{', '.join(KEYWORDS).capitalize()}.
\end{{IEEEkeywords}}}}
\maketitle
\IEEEdisplaynontitleabstractindextext
"""
    return Style("ieee_compsoc", "IEEEtran Computer Society journal: `1 INTRODUCTION` sans capitals headings, abstract "
                 "block before the columns, TABLE 1 above tables, running headers",
                 "[10pt,journal,compsoc,twoside]{IEEEtran}", COMMON, front, arabic_dotted("", " "), upper_levels=(1,),
                 table_name="TABLE", caption_sep=" ", figure_name="Fig.", caption_sep_figure=". ", refs=30,
                 bst="IEEEtran", ack_heading="Acknowledgments",
                 running=[f"{journal}, Vol. 38, No. 11, November 2026", f"Moreau et al.: {SHORT_TITLE}"])


def acm_small() -> Style:
    """acmart `acmsmall`, the single-column format of ACM journals (TOIS, TKDD, CSUR): the journal's name and volume
    in the running heads, authors with their institutions in small capitals, the abstract and CCS block before the
    text, `1 INTRODUCTION` capitals headings, the ACM reference format block on page 1, ACM-Reference-Format
    references (`Surname, First Surname, and First Surname. 2020. Title. Journal 12, 3 (2020), 45–67.`)."""
    authors = "\n".join(rf"\author{{{a.name}}}\affiliation{{\institution{{{AFFILIATIONS[a.affil][0]}}}"
                        rf"\city{{{AFFILIATIONS[a.affil][1]}}}\country{{{AFFILIATIONS[a.affil][2]}}}}}\email{{{a.email}}}"
                        for a in AUTHORS)
    preamble = r"""\acmJournal{TOIS}
\acmVolume{44}
\acmNumber{6}
\acmArticle{152}
\acmMonth{11}
\copyrightyear{2026}
\acmYear{2026}
\setcopyright{acmlicensed}
\acmDOI{10.1145/3766543}
\usepackage{tikz}"""
    front = rf"""\title[{SHORT_TITLE}]{{{TITLE}}}
{authors}
\renewcommand{{\shortauthors}}{{Moreau et al.}}
\begin{{abstract}}
{ABSTRACT}
\end{{abstract}}
\ccsdesc[500]{{Information systems~Document representation}}
\keywords{{{', '.join(KEYWORDS)}}}
\maketitle
"""
    return Style("acm_small", "acmart acmsmall (ACM journals): one column, journal running heads, capitals headings, "
                 "CCS block and ACM reference format on page 1", "[acmsmall]{acmart}", preamble, front,
                 arabic_dotted(), upper_levels=(1,), twocolumn=False, table_name="Table", caption_sep=". ",
                 figure_name="Fig.", refs=28, bst="ACM-Reference-Format", bib_heading="REFERENCES",
                 running=["Moreau et al.", SHORT_TITLE])


def oup() -> Style:
    """Oxford University Press journals (oup-authoring-template, `contemporary` layout as Bioinformatics or
    Nucleic Acids Research print it): a masthead with the journal's name, copyright year and `Paper` note, authors
    with numbered affiliation marks and a corresponding-author star, structured history dates, the abstract with
    `Key words:` in a box, sans-serif `1 Introduction` headings, `Fig. 1.` / `Table 1.` captions and author-year
    references (natbib `namedate`)."""
    star = r",$\ast$"
    authors = "\n".join(rf"\author[{a.affil + 1}{star if i == 0 else ''}]{{{a.name}}}" for i, a in enumerate(AUTHORS))
    addresses = "\n".join(rf"\address[{i + 1}]{{\orgname{{{org}}}, \orgaddress{{\state{{{city}}}, \country{{{country}}}}}}}"
                          for i, (org, city, country) in enumerate(AFFILIATIONS))
    preamble = rf"""\journaltitle{{Bioinformatics}}
\DOI{{10.1093/bioinformatics/btab123}}
\copyrightyear{{2026}}
\pubyear{{2026}}
\access{{Advance Access Publication Date: 24 November 2026}}
\appnotes{{Original Paper}}
\firstpage{{1}}
\usepackage{{tikz}}"""
    front = rf"""\title[{SHORT_TITLE}]{{{TITLE}}}
{authors}
\authormark{{Moreau et al.}}
{addresses}
\corresp[$\ast$]{{Corresponding author. {AUTHORS[0].email}}}
\received{{12}}{{3}}{{2026}}
\revised{{2}}{{6}}{{2026}}
\accepted{{30}}{{6}}{{2026}}
\abstract{{{ABSTRACT}}}
\keywords{{{', '.join(KEYWORDS)}}}
\maketitle
"""
    return Style("oup", "OUP journals (oup-authoring-template, contemporary): masthead, numbered affiliation marks, "
                 "history dates, boxed abstract with key words, `1 Introduction` sans headings, `Fig. 1.` captions, "
                 "author-year references", "[webpdf,contemporary,large,namedate]{oup-authoring-template}", preamble,
                 front, arabic_dotted(), caption_sep=". ", figure_name="Fig.", cite="citep", refs=26, bst="plainnat",
                 running=["Bioinformatics"])


def erae() -> Style:
    """An economics journal manuscript (erae.cls, European Review of Agricultural Economics; KOMA scrartcl, 12 pt, one
    and a half spacing): every table and figure moved to the end by endfloat, one per page, with `[Table 1 about
    here.]` markers left in the text; `1. Introduction` headings; `Table 1.` captions; erae.bst author-year
    references (`Surname, I., Surname, I. and Surname, I. (2020). Title. Journal 12: 45–67.`)."""
    names = ", ".join(a.name for a in AUTHORS[:-1]) + " and " + AUTHORS[-1].name
    affils = r" \\ ".join(affil(i) for i in range(len(AFFILIATIONS)))
    # the 2009 class leaves titlesec without formats under today's KOMA: set them as its journal prints them
    preamble = rf"""\usepackage{{tikz}}
\titleformat{{\section}}{{\normalfont\large\bfseries}}{{\thesection.}}{{0.6em}}{{}}
\titleformat{{\subsection}}{{\normalfont\normalsize\bfseries}}{{\thesubsection.}}{{0.6em}}{{}}
\titleformat{{\subsubsection}}{{\normalfont\normalsize\itshape}}{{\thesubsubsection.}}{{0.6em}}{{}}
\title{{{TITLE}}}
\author{{{names}}}
\affiliation{{{affils}}}
\date{{November 2026}}
\keywords{{{', '.join(KEYWORDS)}}}
\jelclass{{C45, C55, D83}}"""
    front = rf"""\maketitle
\begin{{abstract}}
{ABSTRACT}
\end{{abstract}}
"""
    return Style("erae", "economics journal manuscript (erae.cls on KOMA scrartcl, 12 pt, 1.5 spacing): floats moved "
                 "to the end by endfloat with `[Table 1 about here.]` markers, `1. Introduction` headings, erae.bst "
                 "author-year references", "[author,date]{erae}", preamble, front, arabic_dotted(".", " "),
                 twocolumn=False, caption_sep=". ", cite="citep", refs=24, bst="erae", sentences=-3, running=[],
                 end_headings=[(1, "Tables"), (1, "Figures")])  # endfloat's own headings over the moved floats


def els_review() -> Style:
    """elsarticle in `review` mode, as a manuscript goes to reviewers or to a preprint server (bioRxiv, medRxiv,
    SSRN): one column, double spacing, every line numbered in the left margin (lineno), `1.` headings, numbered
    references (elsarticle-num), the `Preprint submitted to` footer."""
    return Style("els_review", "elsarticle review manuscript: double spacing, line numbers in the margin (lineno), one "
                 "column, `1.` / `2.1.` headings, numbered references", "[review]{elsarticle}",
                 COMMON_LM + "\n\\usepackage{lineno}\n\\linenumbers\n\\journal{Journal of Biomedical Informatics}",
                 _els_front(False), arabic_dotted("."), twocolumn=False, caption_sep=": ", refs=28,
                 bst="elsarticle-num", sentences=-3, running=["Preprint submitted to Journal of Biomedical Informatics"])


def bmc_like() -> Style:
    """A BioMed Central / SpringerOpen article as printed since 2016 (bmcart is not in TeX Live): the masthead
    `Moreau et al. BMC Medical Informatics and Decision Making (2026) 26:152` with its DOI and a `RESEARCH` / `Open
    Access` bar, a structured abstract (run-in `Background:`, `Methods:`, `Results:`, `Conclusions:`), unnumbered
    sans-serif headings at three levels, the masthead repeated in the running header with `Page N of M`, and
    Vancouver references (`1. Surname AB, Surname CD. Title. Journal. 2020;12(3):45–67.`, vancouver.bst)."""
    journal = "BMC Medical Informatics and Decision Making"
    head = f"Moreau et al. {journal} (2026) 26:152"
    parts = ABSTRACT.split(". ")
    labels = ["Background", "Methods", "Results", "Conclusions"]
    chunks = [parts[0] + ".", parts[1] + ".", ". ".join(parts[2:-1]) + ".", parts[-1]]
    abstract = "\n".join(rf"\textbf{{{label}:}} {chunk}\par" for label, chunk in zip(labels, chunks))
    preamble = COMMON + r"""
\usepackage{mathptmx}
\usepackage[scaled=0.92]{helvet}
\usepackage[a4paper,top=2.4cm,bottom=2.2cm,left=2.2cm,right=2.2cm]{geometry}
\usepackage{lastpage}
\usepackage[labelsep=space,labelfont=bf,font=small]{caption}
\setcounter{secnumdepth}{0}
""" + titlesec(r"\normalfont\sffamily\large\bfseries", r"\normalfont\sffamily\normalsize\bfseries",
               r"\normalfont\sffamily\normalsize\itshape") + rf"""
\usepackage{{fancyhdr}}
\pagestyle{{fancy}}\fancyhf{{}}\renewcommand{{\headrulewidth}}{{0.4pt}}
\fancyhead[L]{{\small\sffamily {head}}}\fancyhead[R]{{\small\sffamily Page \thepage\ of \pageref{{LastPage}}}}
\fancypagestyle{{first}}{{\fancyhf{{}}\renewcommand{{\headrulewidth}}{{0pt}}\fancyhead[L]{{\small\sffamily {head}\\ https://doi.org/10.1186/s12911-026-03121-7}}}}"""
    front = rf"""\thispagestyle{{first}}
{{\sffamily\small\textbf{{RESEARCH}}\hfill\textbf{{Open Access}}\par}}\vspace{{1.2em}}
{{\raggedright\sffamily\LARGE\bfseries {TITLE}\par}}\vspace{{1em}}
{{\sffamily\bfseries {names_line(last_sep=' and ', mark='*')}\par}}\vspace{{1.5em}}
{{\sffamily\large\bfseries Abstract\par}}\vspace{{0.4em}}
{{\small {abstract}
\textbf{{Keywords:}} {', '.join(KEYWORDS)}\par}}
\vspace{{1em}}
\begingroup\renewcommand\thefootnote{{}}\footnotetext{{*Correspondence: {AUTHORS[0].email}. {AFFIL_LINES.replace(chr(92) * 2, ' ')}}}\endgroup
"""
    return Style("bmc_like", "BMC / SpringerOpen article look (article, one column): `Surname et al. Journal (2026) "
                 "26:152` masthead and running header with `Page N of M`, structured abstract with run-in labels, "
                 "unnumbered sans headings, Vancouver references", "[10pt]{article}", preamble, front, None,
                 twocolumn=False, caption_sep=" ", refs=30, bst="vancouver", ack_heading="Acknowledgements",
                 sentences=-2, running=[head])


def rjournal_item(i: int, e: dict) -> str:
    """The R Journal's references (plainnat with URLs and back-references): `A. Rossi and K. Tanaka. Title.
    Journal, 21(3):1–29, 2020. URL https://doi.org/10.32614/RJ-2020-012. [p3]`; every third entry is software
    (`R package version 1.2.0`) with a long CRAN URL that breaks over lines."""
    names = [f"{initials(split(a)[0])} {split(a)[1]}" for a in e["authors"]]
    who = names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
    slug = e["title"].lower().split()[0]
    if i % 3 == 1:
        pkg = f"{slug}{i}"
        return (f"\\bibitem[{natbib_key(e)}]{{{e['key']}}}\n{who}. \\emph{{{pkg}: {e['title']}}}, {e['year']}. "
                f"URL \\url{{https://CRAN.R-project.org/package={pkg}/vignettes/getting-started-with-{slug}-and-friends.html}}. "
                f"R package version 1.{i % 7}.0. [p{1 + i % 4}]")
    where = (f"\\emph{{{e['journal']}}}, {e['volume']}({e['number']}):{e['pages']}, {e['year']}" if e["type"] == "article"
             else f"In \\emph{{{e['booktitle']}}}, pages {e['pages']}, {e['year']}")
    return (f"\\bibitem[{natbib_key(e)}]{{{e['key']}}}\n{who}. {e['title']}. {where}. "
            f"URL \\url{{https://doi.org/10.32614/RJ-{e['year']}-{i:03d}}}. [p{1 + i % 4}]")


def rjournal_like() -> Style:
    """The R Journal (its RJournal.sty is not in TeX Live): one column, the title over a `by` line of authors, the
    abstract as a run-in `Abstract` paragraph, unnumbered bold headings, the authors' addresses printed after the
    references, and plainnat-like references with URLs (long CRAN URLs broken over lines), `R package version`
    notes and `[p3]` page back-references."""
    preamble = COMMON + r"""
\usepackage{mathpazo}
\usepackage[scaled=0.92]{helvet}
\usepackage[a4paper,top=2.5cm,bottom=2.5cm,left=3cm,right=3cm]{geometry}
\usepackage[round]{natbib}
\usepackage[hyphens]{url}
\usepackage[labelfont=bf,font=small]{caption}
\setcounter{secnumdepth}{0}
""" + titlesec(r"\normalfont\sffamily\Large\bfseries", r"\normalfont\sffamily\large\bfseries",
               r"\normalfont\sffamily\normalsize\bfseries") + r"""
\usepackage{fancyhdr}
\pagestyle{fancy}\fancyhf{}\renewcommand{\headrulewidth}{0pt}
\fancyhead[L]{\small\sffamily CONTRIBUTED RESEARCH ARTICLE}\fancyhead[R]{\small\sffamily\thepage}
\fancyfoot[L]{\small\sffamily The R Journal Vol.\ 18/2, December 2026}\fancyfoot[R]{\small\sffamily ISSN 2073-4859}"""
    by = ", ".join(a.name for a in AUTHORS[:-1]) + ", and " + AUTHORS[-1].name
    front = rf"""{{\raggedright\sffamily\huge\bfseries {TITLE}\par}}\vspace{{0.8em}}
{{\noindent\large by {by}\par}}\vspace{{1em}}
\noindent\textbf{{Abstract}}\quad {ABSTRACT}
"""
    newline = r"\\ "
    addresses = "\n".join(rf"\noindent {a.name}\\ {affil(a.affil).replace(', ', newline)}\\ \url{{{a.email}}}\par\medskip"
                          for a in AUTHORS)
    return Style("rjournal_like", "R Journal look (article, one column): `by` author line, run-in Abstract, "
                 "unnumbered sans headings, references with URLs, R package notes and [p3] back-references, "
                 "author addresses after the references", "[10pt]{article}", preamble, front, None, twocolumn=False,
                 caption_sep=": ", cite="citep", refs=27, bib="items", bibitem=rjournal_item,
                 end="\\bigskip\n" + addresses, sentences=-1,
                 running=["The R Journal Vol. 18/2, December 2026", "CONTRIBUTED RESEARCH ARTICLE"])


def peerj_item(i: int, e: dict) -> str:
    """PeerJ's references: `Rossi A, Tanaka K. 2020. Title. Journal of X 21(3):1–29 DOI 10.7717/peerj.12345.`
    (surnames with unpunctuated initials, the year after the names, the DOI as the entry's last words)."""
    names = [surname_first(split(a), dots=False, sep=" ") for a in e["authors"]]
    who = ", ".join(names)
    where = (f"\\emph{{{e['journal']}}} {e['volume']}({e['number']}):{e['pages']}" if e["type"] == "article"
             else f"In: \\emph{{{e['booktitle']}}}. {e['pages']}")
    return (f"\\bibitem[{natbib_key(e)}]{{{e['key']}}}\n{who}. {e['year']}. {e['title']}. {where} "
            f"DOI 10.{5000 + i}/{e['key'][:6]}.{e['year']}.{i:02d}.")


def peerj_like() -> Style:
    """A PeerJ article look (wlpeerj.cls is not in TeX Live): one wide column with a left margin holding page 1's
    Submitted / Accepted / Published dates, academic editor and licence, capitals level-1 headings (`MATERIALS &
    METHODS` style), `How to cite this article` footer on page 1, and `Surname I, Surname I. 2020. Title. Journal
    12:45–67 DOI ...` references."""
    preamble = COMMON + r"""
\usepackage{mathptmx}
\usepackage[scaled=0.92]{helvet}
\usepackage[a4paper,top=2.2cm,bottom=2.6cm,left=5.2cm,right=1.8cm,marginparwidth=3.6cm,marginparsep=0.5cm]{geometry}
\usepackage[authoryear,round]{natbib}
\usepackage[labelfont=bf,labelsep=period,font=small]{caption}
\setcounter{secnumdepth}{0}
\reversemarginpar
""" + titlesec(r"\normalfont\sffamily\bfseries", r"\normalfont\sffamily\bfseries", r"\normalfont\sffamily\itshape\bfseries",
               upper1=True) + r"""
\usepackage{fancyhdr}
\pagestyle{fancy}\fancyhf{}\renewcommand{\headrulewidth}{0pt}
\fancyfoot[L]{\footnotesize\sffamily Moreau et al. (2026), \textit{PeerJ Comput. Sci.}, DOI 10.7717/peerj-cs.2214}\fancyfoot[R]{\footnotesize\sffamily\thepage/\pageref{LastPage}}
\usepackage{lastpage}"""
    side = (r"\marginpar{\scriptsize\sffamily\raggedright Submitted 12 March 2026\\ Accepted 4 August 2026\\ Published 24 "
            r"November 2026\par\medskip Corresponding author\\ " + AUTHORS[0].name + r"\\ " + AUTHORS[0].email
            + r"\par\medskip Academic editor\\ Maria Rossi\par\medskip DOI 10.7717/peerj-cs.2214\par\medskip "
            r"Copyright 2026 Moreau et al.\par\medskip Distributed under Creative Commons CC-BY 4.0}")
    front = rf"""\thispagestyle{{fancy}}
{{\raggedright\sffamily\LARGE\bfseries {TITLE}\par}}\vspace{{1em}}
{side}{{\sffamily\bfseries {names_line(last_sep=' and ')}\par}}\vspace{{0.5em}}
{{\small {AFFIL_LINES}\par}}\vspace{{1em}}
{{\sffamily\bfseries ABSTRACT\par}}\vspace{{0.3em}}
{ABSTRACT}\par\vspace{{0.6em}}
{{\small\sffamily\bfseries Subjects}} {{\small Artificial Intelligence, Natural Language and Speech}}\par
{{\small\sffamily\bfseries Keywords}} {{\small {', '.join(KEYWORDS).capitalize()}}}\par\vspace{{0.8em}}
"""
    return Style("peerj_like", "PeerJ look (article, one column with a left margin): Submitted/Accepted/Published "
                 "dates in the margin, capitals sans headings, DOI footer, `Surname I, Surname I. 2020. Title. "
                 "Journal 12:45–67 DOI ...` references", "[10pt]{article}", preamble, front, None,
                 upper_levels=(1,), twocolumn=False, caption_sep=". ", cite="citep", refs=26, bib="items",
                 bibitem=peerj_item, bib_heading="REFERENCES", ack_heading="ACKNOWLEDGEMENTS", sentences=-1,
                 running=["Moreau et al. (2026), PeerJ Comput. Sci., DOI 10.7717/peerj-cs.2214",
                          "Submitted 12 March 2026", "Copyright 2026 Moreau et al.",
                          "Distributed under Creative Commons CC-BY 4.0"])


def aomart() -> Style:
    """aomart (Annals of Mathematics): amsart's relative with the journal's own front matter: the title in capitals,
    authors in small capitals, the abstract set before the text, the journal's masthead on page 1 (`Annals of
    Mathematics 204 (2026), 1–8`), `1. Introduction` centred headings, run-in lower levels, amsplain references."""
    authors = "\n".join(rf"\author[{initials(a.first)} {a.last}]{{{a.name}}}\address{{{affil(a.affil)}}}\email{{{a.email}}}"
                        for a in AUTHORS)
    # aomart takes the title and authors in the preamble, the abstract before \maketitle
    preamble = COMMON_LM + rf"""
\volumenumber{{204}}
\issuenumber{{3}}
\publicationyear{{2026}}
\papernumber{{4}}
\received{{March 12, 2026}}
\title[{SHORT_TITLE}]{{{TITLE}}}
{authors}
\subjclass[2020]{{Primary 68T07; Secondary 68T50}}
\keywords{{{', '.join(KEYWORDS)}}}"""
    front = rf"""\begin{{abstract}}
{ABSTRACT}
\end{{abstract}}
\maketitle
"""
    return Style("aomart", "aomart (Annals of Mathematics): capitals title, small-caps authors, abstract before the "
                 "text, journal masthead, centred numbered headings, run-in lower levels, amsplain references",
                 "[final]{aomart}", preamble, front, arabic_dotted("."), twocolumn=False, caption_sep=". ", refs=18,
                 bst="amsplain", running=[])


def nature() -> Style:
    """nature.cls, the Nature submission format authors send (and preprint servers and PMC author manuscripts carry):
    12 pt Times at double spacing, a sans-serif title, authors joined by `&` with numbered affiliation marks and the
    affiliations in slanted type, the abstract as the first bold paragraph (no heading), unnumbered bold headings at
    body size with run-in bold second-level ones, superscript citations, numbered references with **no heading** right
    after the text (naturemag.bst), tables on pages of their own in sans serif, and every figure legend (`Figure 1`
    in bold, then the text) gathered at the end of the document."""
    names = [rf"{a.name}$^{{{a.affil + 1}}}$" for a in AUTHORS]
    author_line = ", ".join(names[:-1]) + " \\& " + names[-1]
    affils = "\n".join(rf"\item {affil(i)}" for i in range(len(AFFILIATIONS)))
    preamble = COMMON + r"""
\setcounter{secnumdepth}{0}
\makeatletter
\renewcommand{\subsubsection}{\@startsection{subsubsection}{3}{0pt}{-0pt}{-0.5em}{\itshape}}
\makeatother"""
    front = rf"""\title{{{TITLE}}}
\author{{{author_line}}}
\maketitle
\begin{{affiliations}}
{affils}
\end{{affiliations}}
\begin{{abstract}}
{ABSTRACT}
\end{{abstract}}
"""
    return Style("nature", "nature.cls submission: double-spaced 12 pt Times, sans title, `&` author line with "
                 "affiliation marks, bold abstract paragraph without heading, unnumbered bold body-size headings "
                 "(run-in at level 2), superscript citations, references without a heading, tables on their own "
                 "pages, figure legends gathered at the end", "{nature}", preamble, front, None, twocolumn=False,
                 caption_sep=": ", caption_sep_figure=" ", refs=24, bst="naturemag", bib_heading="", sentences=-3,
                 running=[], placement="")


def jacow() -> Style:
    """jacow.cls, the proceedings of the accelerator conferences (IPAC, LINAC, FEL, ICALEPCS on JACoW.org): A4, two
    columns, a capitals title, author lines in JACoW's convention (initials and surnames, then their institution on
    the same line: `L. Moreau, P. Raghunathan, Inria Saclay, Palaiseau, France`), an italic `Abstract` heading,
    unnumbered centred capitals section headings, italic subsection headings at a larger size, run-in bold level 3,
    a centred `REFERENCES` heading over `[1]` entries in small type (IEEEtran.bst)."""
    by_affil: dict[int, list] = {}
    for a in AUTHORS:
        by_affil.setdefault(a.affil, []).append(a)
    printed = {a.name: f"{initials(a.first)} {a.last}" for a in AUTHORS}
    lines = []
    for k, group in by_affil.items():
        who = ", ".join(printed[a.name] + (rf"\thanks{{{a.email}}}" if a is AUTHORS[0] else "") for a in group)
        lines.append(f"{who}, {affil(k)}")
    joined = " \\\\ ".join(lines)
    front = title_block(joined)
    return Style("jacow", "JACoW accelerator-conference proceedings (jacow.cls): capitals title, initials-and-surname "
                 "author lines ending in their institution, italic `Abstract` heading, unnumbered centred capitals "
                 "headings, italic larger subsection headings, run-in bold level 3, `REFERENCES` with `[1]` entries",
                 "[a4paper]{jacow}", r"\usepackage{tikz}", front, None, upper_levels=(1,), caption_sep=": ",
                 refs=20, bst="IEEEtran", bib_heading="REFERENCES", ack_heading="Acknowledgements", running=[],
                 authors=[printed[a.name] for a in AUTHORS])


def asmejour() -> Style:
    """asmejour.cls (ASME journals: Journal of Mechanical Design, of Heat Transfer, of Applied Mechanics): a sans title
    block with each author's name and affiliation in a column left of the ruled abstract, `1 Introduction` bold
    headings, numbered run-in `1.1 Title.` (bold) and `1.1.1 Title.` (italic) sub-headings, `Fig. 1` / `Table 1`
    captions, `[1]` references in ASME's own form (asmejour.bst: `Surname, I., and Surname, I., 2020, "Title," J.
    Name, 12(3), pp. 45–67.`), and the journal's name and `Transactions of the ASME` in the footers."""
    blocks = "\n".join(rf"\SetAuthorBlock{{{a.name}" + (r"\CorrespondingAuthor" if i == 0 else "") +
                       rf"}}{{{AFFILIATIONS[a.affil][0]},\\ {AFFILIATIONS[a.affil][1]}, {AFFILIATIONS[a.affil][2]}\\ "
                       rf"email: {a.email}}}" for i, a in enumerate(AUTHORS))
    preamble = r"""\usepackage{tikz}
\JourName{Mechanical Design}
\PaperYear{2026}
\PaperNumber{MD-26-1234}"""
    keywords = ", ".join(KEYWORDS)
    front = rf"""{blocks}
\title{{{TITLE}}}
\keywords{{{keywords}}}
\begin{{abstract}}
{ABSTRACT}
\end{{abstract}}
\date{{}}
\maketitle
"""
    return Style("asmejour", "ASME journal (asmejour.cls): author blocks beside the ruled abstract, `1 Introduction` "
                 "headings, numbered run-in bold and italic sub-headings, `Fig. 1` captions, asmejour.bst references, "
                 "`Journal of Mechanical Design` / `Transactions of the ASME` footers", "[nolists]{asmejour}", preamble,
                 front, arabic_dotted(), caption_sep=". ", figure_name="Fig.", refs=22, bst="asmejour",
                 running=["Journal of Mechanical Design", "Transactions of the ASME"])


CREDENTIALS = ["Ph.D., M.ASCE", "Ph.D., P.E.", "S.M.ASCE", "Ph.D., P.E., F.ASCE"]  # one per author, as ASCE prints them


def ascelike() -> Style:
    """ASCE conference proceedings (ascelike.cls, `NewProceedings`: camera-ready, 12 pt, one column): each author's
    name followed by degrees and ASCE grade (`Léa Moreau, Ph.D., M.ASCE1;` ... `; and Daniel K. Okafor, Ph.D., P.E.,
    F.ASCE3`) over numbered affiliation lines, an `ABSTRACT` heading, unnumbered headings in body-size bold capitals
    (`INTRODUCTION`), bold and italic sub-headings, `Figure 1.` captions in bold, and ascelike.bst author-year
    references (`Moreau, L., and Tanaka, K. (2020). "Title." Journal of X, 21(3), 1–29.`) under `REFERENCES`."""
    named = [rf"{a.name}, {c}\textsuperscript{{{a.affil + 1}}}" for a, c in zip(AUTHORS, CREDENTIALS)]
    line1, line2 = "; ".join(named[:2]) + ";", "; ".join(named[2:-1]) + "; and " + named[-1]
    affils = "\n\n".join(rf"\noindent\textsuperscript{{{i + 1}}}{affil(i)}. Email: "
                          rf"{next(a.email for a in AUTHORS if a.affil == i)}" for i in range(len(AFFILIATIONS)))
    front = rf"""\title{{{TITLE}}}
\author{{{line1} \\ {line2}}}
\maketitle
{{\small
{affils}\par}}
\begin{{abstract}}
{ABSTRACT}
\end{{abstract}}
\KeyWords{{{', '.join(KEYWORDS)}}}
"""
    return Style("ascelike", "ASCE conference proceedings (ascelike.cls, NewProceedings, one column): names followed "
                 "by degrees and ASCE grades, numbered affiliation lines, `ABSTRACT`, unnumbered body-size bold capital "
                 "headings, bold / italic sub-headings, bold `Figure 1.` captions, ascelike.bst author-year references",
                 "[NewProceedings,NoLists]{ascelike}", COMMON, front, None, upper_levels=(1,),
                 twocolumn=False, caption_sep=". ", refs=22, bst="ascelike", bib_heading="REFERENCES",
                 ack_heading="Acknowledgments", running=[])


def aiaa_numbers(nums: list[int]) -> str:
    """aiaa-tc: `II. `, `A. `, `1. `."""
    return ieee_numbers(nums[:2]) if len(nums) < 3 else f"{nums[2]}. "


AIAA_POSITIONS = ["Research Scientist, Inria Saclay; AIAA Member", "Associate Professor, Department of Applied "
                  "Mathematics and Computer Science; AIAA Senior Member", "Ph.D. Student, Inria Saclay",
                  "Professor, Department of Statistical Sciences; AIAA Associate Fellow"]


def aiaa_tc() -> Style:
    """AIAA technical conference papers (aiaa-tc.cls, `handcarry`: the forum's name above the title and the copyright
    footnote): authors as centred names with positions in symbol-marked footnotes over their italic affiliations, a
    bold abstract with no heading, centred Roman `I. Introduction` headings, `A.` and italic `1.` sub-headings, bold
    `Figure 1.` / `Table 1.` captions, references labelled by superscript numbers (aiaa.bst) under `References`, and
    `1 of 9` / `American Institute of Aeronautics and Astronautics` footers."""
    by_affil: dict[int, list] = {}
    for a, pos in zip(AUTHORS, AIAA_POSITIONS):
        by_affil.setdefault(a.affil, []).append(rf"{a.name}\thanks{{{pos}.}}")
    rows = [" and ".join(names) + rf" \\ {{\normalsize\itshape {affil(k)}}}" for k, names in by_affil.items()]
    preamble = COMMON + r"""
\AIAAconference{AIAA SciTech 2026 Forum, 12--16 January 2026, Orlando, FL}
\AIAAcopyright{\AIAAcopyrightD{2026}}"""
    joined = " \\\\[6pt] ".join(rows)
    front = title_block(joined)
    return Style("aiaa_tc", "AIAA technical conference paper (aiaa-tc.cls, handcarry): forum line over the title, "
                 "names with footnoted positions over italic affiliations, unheaded bold abstract, centred Roman "
                 "headings, `A.` / italic `1.` sub-headings, superscript-numbered aiaa.bst references, "
                 "`1 of 9` / AIAA footers", "[handcarry]{aiaa-tc}", preamble, front, aiaa_numbers, twocolumn=False,
                 caption_sep=". ", refs=24, bst="aiaa", ack_heading="Acknowledgments",
                 running=["American Institute of Aeronautics and Astronautics"])


def revtex_aip() -> Style:
    """revtex4-2 for AIP journals (`aip,jcp,reprint`: The Journal of Chemical Physics): two columns, authors grouped
    over their shared affiliation with superscript marks, `I. INTRODUCTION` capitals headings, `FIG. 1.` / `TABLE I.`
    captions, superscript citations, and aipnum4-2 references (`A. Rossi and K. Tanaka, J. Mach. Learn. Res. 21, 1
    (2020).`) with no heading, each labelled by a raised number."""
    return _revtex("revtex_aip", "revtex4-2 AIP reprint (J. Chem. Phys.): two columns, superscript affiliation marks, "
                   "`I. INTRODUCTION` headings, `FIG. 1.` captions, superscript citations, aipnum4-2 references with "
                   "raised labels and no heading", "[reprint,amsmath,amssymb,aip,jcp]{revtex4-2}", "aipnum4-2",
                   running=[])


def quarto_like() -> Style:
    """A Quarto / Pandoc article as R and Python users render one to PDF (Quarto's defaults: KOMA scrartcl, LuaLaTeX,
    Latin Modern through fontspec and unicode-math, so text and maths are OpenType fonts and maths letters are
    Unicode mathematical italics, `𝑥`, `𝛼`): a title block of names only and a date, KOMA's centred `Abstract`,
    unnumbered sans-serif bold headings, author-year citations and a hanging-indent reference list with no labels
    (Chicago author-date, as citeproc prints it)."""
    names = r" \and ".join(a.name for a in AUTHORS)
    preamble = r"""\usepackage{amsmath}
\usepackage{unicode-math}
\usepackage{tikz}
\usepackage[margin=1in]{geometry}
\usepackage{natbib}
\setcounter{secnumdepth}{-\maxdimen}"""
    front = rf"""\title{{{TITLE}}}
\author{{{names}}}
\date{{2026-11-24}}
\maketitle
\begin{{abstract}}
{ABSTRACT}
\end{{abstract}}
"""
    return Style("quarto_like", "a Quarto / Pandoc article (KOMA scrartcl through LuaLaTeX, unicode-math: OpenType text "
                 "and maths fonts, maths letters as Unicode mathematical italics), names-only title block, unnumbered "
                 "sans bold headings, author-year citations, a hanging-indent Chicago reference list",
                 "[11pt]{scrartcl}", preamble, front, None, twocolumn=False, caption_sep=": ", cite="citep", refs=24,
                 bib="items", bibitem=chicago_item, running=[], engine="lualatex")


def imprint_numbers(nums: list[int]) -> str:
    """philosophersimprint: `1. Introduction`, then `2.1 Title` (article's own format below the section)."""
    return f"{nums[0]}. " if len(nums) == 1 else ".".join(map(str, nums)) + " "


def philosophersimprint() -> Style:
    """Philosophers' Imprint (philosophersimprint.cls, a humanities journal): landscape pages in two columns, a
    cover page of its own (the journal's name, volume and date, the title in capitals, the authors in large italics
    separated by commas, their affiliations, the licence line and the journal's URL), no abstract heading (the
    abstract is set as a plain quotation on the cover), `1. Introduction` headings at body size in bold, italic
    `1.1 Title` sub-headings, Palatino (mathpazo), author-year references (Chicago-style items), running heads with
    the authors' names and a short title, and the journal's name, volume and date in every footer."""
    names = ", ".join(a.name for a in AUTHORS[:-1]) + " and " + AUTHORS[-1].name
    affils = "; ".join(affil(i) for i in range(len(AFFILIATIONS)))
    preamble = r"""\usepackage{amsmath,amssymb,tikz}
\usepackage{natbib}
\usepackage{hyperref}
\journalvolume{26}
\journalnumber{14}""" + rf"""
\title[{SHORT_TITLE}]{{{TITLE}}}
\author[Moreau et al.]{{{names}}}
\affiliation{{{affils}}}
\date{{November 2026}}
\copyrightinfo{{2026 Léa Moreau, Jonas Østergaard, Priya Raghunathan and Daniel K. Okafor}}
\copyrightlicense{{This work is licensed under a Creative Commons Attribution 4.0 License.}}"""
    front = rf"""\maketitle
\section*{{Abstract}}
{ABSTRACT}
"""
    return Style("philosophersimprint", "Philosophers' Imprint (humanities, landscape two-column pages): a cover page "
                 "with the title in capitals and italic authors, `1. Introduction` bold body-size headings, italic "
                 "sub-headings, Palatino, author-year references, author and short-title running heads",
                 "{philosophersimprint}", preamble, front, imprint_numbers,
                 caption_sep=": ", cite="citep", refs=22, bib="items", bibitem=chicago_item, title=TITLE.upper(),
                 running=["philosophers' imprint", "vol. 26, no. 14 (november 2026)", "moreau et al.", SHORT_TITLE])


def ejpecp() -> Style:
    """Electronic Journal of Probability (ejpecp.cls, `EJP`): pure mathematics in Bitstream Vera (bera), a first page
    with the journal's logo drawn as letters climbing an arc, the volume, paper number, year and DOI, the title,
    authors with footnoted affiliations, abstract, keywords, AMS subject classification and submission dates; `1
    Introduction` headings, numbered theorem-style text, plain numbered references."""
    names = r" \and ".join(rf"{a.name}\footnote{{{affil(a.affil)}. \EMAIL{{{a.email}}}}}" for a in AUTHORS)
    preamble = rf"""\usepackage{{tikz}}
\TITLE{{{TITLE}}}
\SHORTTITLE{{{SHORT_TITLE}}}
\AUTHORS{{{names}}}
\KEYWORDS{{{'; '.join(KEYWORDS)}}}
\AMSSUBJ{{60F05; 68T50}}
\SUBMITTED{{March 12, 2026}}
\ACCEPTED{{October 2, 2026}}
\VOLUME{{31}}
\YEAR{{2026}}
\PAPERNUM{{14}}
\DOI{{10.1214/26-EJP1234}}
\ABSTRACT{{{ABSTRACT}}}"""
    return Style("ejpecp", "Electronic Journal of Probability (ejpecp.cls): Bera fonts, the journal's logo of letters "
                 "on an arc, volume / paper / year / DOI lines, footnoted affiliations, keywords and AMS subject "
                 "classes, `1 Introduction` headings, plain numbered references", "[EJP]{ejpecp}", preamble,
                 "\\maketitle\n", arabic_dotted("", " "), twocolumn=False, caption_sep=": ", refs=22,
                 bst="plain", running=[])


def quantum() -> Style:
    """quantumarticle (Quantum, the open journal for quantum science, and the arXiv preprints set in it): one wide
    column in Latin Modern with the title in large sans-serif, each author's name over the affiliations in small
    type, the abstract with no heading in a slightly smaller paragraph, `1 Introduction` sans headings, `Figure 1:`
    captions, numbered references (quantum.bst style: plain numbered items) and the `Accepted in Quantum` line
    in every page's footer."""
    authors = "\n".join(rf"\author{{{a.name}}}" + (rf"\email{{{a.email}}}" if i == 0 else "") +
                        rf"\affiliation{{{affil(a.affil)}}}" for i, a in enumerate(AUTHORS))
    front = rf"""\title{{{TITLE}}}
{authors}
\maketitle
\begin{{abstract}}
{ABSTRACT}
\end{{abstract}}
"""
    return Style("quantum", "quantumarticle (Quantum journal, physics and quantum information): one wide column, a "
                 "large sans title, names over small affiliation lines, an unheaded abstract, `1 Introduction` sans "
                 "headings, `Figure 1:` captions, plain numbered references, `Accepted in Quantum` footers",
                 "[a4paper,onecolumn,accepted=2026-11-24]{quantumarticle}", "\\pdfoutput=1\n" + COMMON + "\n\\usepackage{hyperref}",
                 front, arabic_dotted("", " "), twocolumn=False, caption_sep=": ", refs=22, bst="plain",
                 running=["Accepted in Quantum 2026-11-24, click title to verify. Published under CC-BY 4.0."])


def kluwer_numbers(nums: list[int]) -> str:
    """kluwer.cls: `1. Introduction`, `2.1. Data`, `2.1.1. Title`."""
    return ".".join(map(str, nums)) + ". "


# kluwer.cls defines the multiple integrals amsmath defines again: let amsmath have them
KLUWER_PREAMBLE = r"""\let\iint\relax\let\iiint\relax\let\iiiint\relax\let\idotsint\relax
\usepackage{amsmath,amssymb}
\usepackage{tikz}"""


def kluwer() -> Style:
    """kluwer.cls (Kluwer Academic Publishers' journals, the layout of Machine Learning, Information Retrieval and
    Data Mining and Knowledge Discovery papers before Springer's merger, still common in digitised back issues): a
    narrow one-column page, the title flush left, names over italic institutes, a small abstract with a run-in
    `Abstract.` label, `Keywords:` line, `1. Introduction` headings in bold, `Figure 1.` captions and klunamed.bst
    author-year references under `References`."""
    names = "\n".join(rf"\author{{{a.name}}}" + rf"\institute{{{affil(a.affil)}}}" for a in AUTHORS)
    front = rf"""\begin{{article}}
\begin{{opening}}
\title{{{TITLE}}}
{names}
\runningtitle{{{SHORT_TITLE}}}
\runningauthor{{Moreau et al.}}
\begin{{abstract}}
{ABSTRACT}
\end{{abstract}}
\keywords{{{', '.join(KEYWORDS)}}}
\end{{opening}}
"""
    return Style("kluwer", "kluwer.cls (Kluwer Academic journals): narrow one-column pages, title flush left, names "
                 "over italic institutes, run-in `Abstract.`, `Keywords:`, `1. Introduction` bold headings, "
                 "`Figure 1.` captions, klunamed author-year references", "[a4paper]{kluwer}",
                 KLUWER_PREAMBLE, front, kluwer_numbers,
                 twocolumn=False, caption_sep=". ", table_numbers="Roman", refs=22, bst="klunamed", end=r"\end{article}",
                 running=["Moreau et al.", SHORT_TITLE, "paper.tex; 24/11/2026; 12:00;",
                          "Kluwer Academic Publishers. Printed in the Netherlands."])


def beilstein() -> Style:
    """beilstein.cls (Beilstein Journal of Organic Chemistry and of Nanotechnology: chemistry and materials
    science): a bold title, the authors in one line with superscript affiliation numbers, an `Address:` block of
    affiliations and the corresponding author's e-mail, a bold `Abstract` and `Keywords` heading each on its own
    line, unnumbered large bold headings (`Introduction`, `Results and Discussion`, `Conclusion`) with bold
    sub-headings, `Figure 1:` / `Table 1:` captions and bjnano.bst references numbered `1.` under `References`."""
    names = "\n".join((rf"\author*{{{a.name}}}{{{a.email}}}" if i == 0 else rf"\author{{{a.name}}}")
                      + rf"\affiliation{{{affil(a.affil)}}}" for i, a in enumerate(AUTHORS))
    front = rf"""\title{{{TITLE}}}
{names}
\maketitle
\begin{{abstract}}
{ABSTRACT}
\end{{abstract}}
\keywords{{{'; '.join(KEYWORDS)}}}
"""
    return Style("beilstein", "beilstein.cls (Beilstein journals, chemistry and nanotechnology): one line of authors "
                 "with superscript numbers, an `Address:` block, bold `Abstract` / `Keywords` headings, unnumbered "
                 "large bold headings and bold sub-headings, `Figure 1:` captions, bjnano.bst numbered references",
                 "[bjoc]{beilstein}", COMMON, front, None, twocolumn=False, caption_sep=": ", refs=22,
                 bst="bjnano", ack_heading="Acknowledgements", running=[])


RESUME = ("Les encodeurs Transformer croissent de facon quadratique avec la longueur de leur entree. Nous proposons une "
          "couche de routage qui apprend, pour chaque jeton, un petit ensemble d'autres jetons a consulter.")


def cje() -> Style:
    """cje.cls (Canadian Journal of Economics / Revue canadienne d'economique): the title centred in large italics,
    each author centred in large type over an italic affiliation line, a run-in italic `Abstract.` followed by the
    French `Resume.` of the same paper, a `JEL classification:` line, `1. Introduction` headings, `Figure 1`
    captions and cjebibstyle.bst author-year references (`Moreau, Lea, and Kenji Tanaka (2020) 'Title,' Journal
    21(3), 1-29`) under `References`."""
    order = ["one", "two", "three", "four"]
    names = "\n".join(rf"\author{order[i]}{{{a.name}}}{{{affil(a.affil)}}}" for i, a in enumerate(AUTHORS))
    preamble = COMMON + rf"""
\usepackage{{amsthm,cjenatbib}}
\title{{{TITLE}}}
\authors{{Moreau et al.}}
{names}
\abstract{{{ABSTRACT}}}
\resume{{{RESUME}}}
\JEL{{C45, C55}}
\pubyear{{2026}}
\volume{{59}}
\issueno{{4}}
\monthyearen{{November 2026}}
\monthyearfr{{Novembre 2026}}
\issn{{0008-4085}}"""
    return Style("cje", "cje.cls (Canadian Journal of Economics): centred large italic title, each author over an "
                 "italic affiliation, run-in `Abstract.` then the French `Resume.`, a JEL line, `1. Introduction` "
                 "headings, author-year cjebibstyle references", "{cje}", preamble, "\\maketitle\n",
                 arabic_dotted(".", " "), twocolumn=False, caption_sep=": ", cite="citep", refs=22,
                 bst="cjebibstyle", running=[])


def jpsj_numbers(nums: list[int]) -> str:
    """jpsj2: `1. Introduction`, then `2.1 Title`."""
    return f"{nums[0]}. " if len(nums) == 1 else ".".join(map(str, nums)) + " "


def jpsj() -> Style:
    """jpsj2.cls (Journal of the Physical Society of Japan) in the one-column form papers are submitted and
    circulated in (its two-column mode overprints the columns with this TeX Live): names with superscript affiliation
    numbers over italic institutions, an indented abstract with no heading (double spacing: every line a block of its
    own) followed by a `KEYWORDS:` line, `1. Introduction` bold headings, `Fig. 1.` / `Table I.` captions, the
    class's `Typeset with jpsj2.cls` stamp and the journal's running head, and references labelled `1)` under
    `References`."""
    names = ", ".join(rf"{a.name}$^{{{a.affil + 1}}}$" for a in AUTHORS[:-1]) + rf" and {AUTHORS[-1].name}$^{{3}}$"
    insts = r" \\ ".join(rf"$^{{{i + 1}}}${affil(i)}" for i in range(len(AFFILIATIONS)))
    preamble = COMMON + rf"""
\title{{{TITLE}}}
\author{{{names}}}
\inst{{{insts}}}
\abst{{{ABSTRACT}}}
\kword{{{', '.join(KEYWORDS)}}}
\providecommand{{\newblock}}{{}}"""
    return Style("jpsj", "jpsj2.cls (J. Phys. Soc. Jpn.), one column: names with superscript "
                 "numbers over institutions, an unheaded abstract and `KEYWORDS:` line, `1. Introduction` headings, "
                 "`Fig. 1.` / `Table I.` captions, references labelled `1)`", "{jpsj2}",
                 preamble, "\\maketitle\n", jpsj_numbers, twocolumn=False, caption_sep=". ", figure_name="Fig.",
                 table_numbers="Roman", refs=22, bst="unsrt",
                 running=["Typeset with jpsj2.cls <ver.1.2.2>", "J. Phys. Soc. Jpn."])


def nrc() -> Style:
    """nrc2.cls (NRC Research Press / Canadian Science Publishing: Canadian Journal of Physics, of Chemistry, of
    Civil Engineering ...): two columns, the title and the authors (initials on the running head) over numbered
    addresses, an English `Abstract:` and a French `Résumé :` of the same paper side by side over the columns,
    `Key words:` line, `1. Introduction` headings in a light sans face barely larger than the body (Type 3 fonts here:
    `cmfonts` without cm-super), bold `2.1.` sub-headings, `Fig. 1.` / `Table 1.` captions, numbered references, and the
    `Canadian Journal of Physics 99: 1–5 (2026)` / `Published by NRC Research Press` footers."""
    names = "\n".join(rf"\author[{initials(split(a.name)[0])} {split(a.name)[1]}]{{{a.name}}}\address{{{affil(a.affil)}}}"
                      for a in AUTHORS)
    preamble = COMMON + rf"""
\journal{{Canadian Journal of Physics}}
\title{{{TITLE}}}
\shortauthor{{Moreau et al.}}
{names}"""
    front = rf"""\begin{{abstract}}
{ABSTRACT}
\keywords{{{', '.join(KEYWORDS)}}}
\end{{abstract}}
\begin{{resume}}
{RESUME}
\end{{resume}}
\maketitle
"""
    return Style("nrc", "nrc2.cls (Canadian Science Publishing journals): two columns, numbered addresses, an English "
                 "abstract then its French resume, `1. Introduction` headings, `Fig. 1.` captions, numbered references",
                 "[cmfonts]{nrc2}", preamble, front, arabic_dotted(".", " "), caption_sep=". ", figure_name="Fig.",
                 refs=22, bst="unsrt", running=["Published by NRC Research Press", "Moreau et al."])


# the congress's logo (an image file icsv.cls includes over the title): drawn here, with the congress's name in it
ICSV_PREAMBLE = COMMON + r"""
\renewcommand{\includegraphics}[2][]{\tikz\node[draw,thick,minimum width=5cm,minimum height=3cm,align=center]
  {\Large ICSV32\\ \small Montreal, Canada, 2026};}"""


def icsv() -> Style:
    """icsv.cls (International Congress on Sound and Vibration, acoustics): a bold capitals title, each institution's
    authors in a box of their own over its address (the boxes side by side when they fit), the congress logo over
    the title, a bold `Abstract` head, unnumbered headings (centred bold capitals, then bold, then italic), `Figure 1:`
    captions and numbered references under `REFERENCES`."""
    groups: dict[int, list] = {}
    for a in AUTHORS:
        groups.setdefault(a.affil, []).append(a)
    blocks = "\n".join("\n".join(rf"\author{{{a.name}}}" for a in names) + rf"\address{{{affil(k)}}}"
                       for k, names in groups.items())
    front = rf"""\title{{{TITLE}}}
{blocks}
\maketitle
\begin{{abstract}}
{ABSTRACT}
\end{{abstract}}
"""
    return Style("icsv", "icsv.cls (ICSV acoustics congress): the congress logo, author boxes per institution, a bold "
                 "`Abstract` head, unnumbered centred capitals headings, bold and italic sub-headings, numbered references", "{icsv}", ICSV_PREAMBLE, front,
                 None, upper_levels=(1,), twocolumn=False, caption_sep=": ", refs=22,
                 bst="unsrt", bib_heading="REFERENCES", ack_heading="ACKNOWLEDGMENTS", running=[])


def resphilosophica() -> Style:
    """resphilosophica.cls (Res Philosophica, a philosophy journal; amsart's relative): a centred capitals title, the
    authors in capitals, the abstract in small type with no heading, `1. Introduction` small-caps centred headings,
    italic run-in sub-headings, author-year references (Chicago items) and the addresses at the end."""
    names = "\n".join(rf"\author{{{a.name}}}\address{{{affil(a.affil)}}}\email{{{a.email}}}" for a in AUTHORS)
    front = rf"""\title{{{TITLE}}}
{names}
\begin{{abstract}}
{ABSTRACT}
\end{{abstract}}
\maketitle
"""
    return Style("resphilosophica", "resphilosophica.cls (Res Philosophica): amsart-like capitals title and authors, "
                 "an unheaded abstract, centred small-caps numbered headings, author-year references",
                 "{resphilosophica}", COMMON_LM + "\n\\usepackage{natbib}", front, arabic_dotted(".", " "),
                 twocolumn=False, caption_sep=". ", cite="citep", refs=22, bib="items", bibitem=chicago_item,
                 running=[])


def arxiv_authblk() -> Style:
    """The plain arXiv preprint: article class, 11 pt, 1-inch margins, `authblk` for the authors (names with
    superscript affiliation numbers over one line per affiliation, an `*` for the corresponding author's e-mail),
    `\\date{}` left empty, the article class's centred `Abstract`, `1 Introduction` headings, natbib author-year
    citations and plainnat references."""
    names = "\n".join(rf"\author[{a.affil + 1}{',*' if i == 0 else ''}]{{{a.name}}}" for i, a in enumerate(AUTHORS))
    affils = "\n".join(rf"\affil[{i + 1}]{{{affil(i)}}}" for i in range(len(AFFILIATIONS)))
    preamble = COMMON_LM + rf"""
\usepackage[margin=1in]{{geometry}}
\usepackage{{authblk}}
\usepackage[numbers]{{natbib}}
\usepackage{{hyperref}}
\title{{{TITLE}}}
{names}
{affils}
\affil[*]{{Corresponding author: {AUTHORS[0].email}}}
\date{{}}"""
    front = rf"""\maketitle
\begin{{abstract}}
{ABSTRACT}
\end{{abstract}}
"""
    return Style("arxiv_authblk", "a plain arXiv preprint: article + authblk (superscript affiliation numbers over "
                 "affiliation lines), no date, centred `Abstract`, `1 Introduction` headings, plainnat references",
                 "[11pt]{article}", preamble, front, arabic_dotted("", " "), twocolumn=False, caption_sep=": ",
                 refs=24, bst="plainnat", running=[])


def revtex_preprint() -> Style:
    """revtex4-2 in `preprint` mode (what APS authors post to arXiv and send for review): one column at 12 pt with
    double spacing, each author over their own affiliation in italics, the date, the abstract in a narrower block,
    `I. INTRODUCTION` headings, `FIG. 1.` captions, the figures and tables where they float and numbered references
    with no heading."""
    return _revtex("revtex_preprint", "revtex4-2 preprint (APS manuscripts on arXiv): one double-spaced column, "
                   "authors over italic affiliations, `I. INTRODUCTION` headings, `FIG. 1.` captions, references "
                   "with no heading", "[preprint,amsmath,amssymb,aps,prd]{revtex4-2}", "apsrev4-2", running=[])


def ieee_draft() -> Style:
    """IEEEtran in `draftclsnofoot` journal mode (a manuscript under review at an IEEE Transactions, as many put it on
    arXiv): one column, double spaced, 12 pt, the same front matter and `I. INTRODUCTION` / `A.` headings as the
    printed journal, `TABLE I` over tables and `Fig. 1.` captions, IEEEtran numbered references."""
    style = ieee_journal()
    return Style("ieee_draft", "IEEEtran draftclsnofoot (an IEEE Transactions manuscript under review): one "
                 "double-spaced column at 12 pt, IEEE front matter, roman headings, numbered references",
                 "[journal,12pt,onecolumn,draftclsnofoot]{IEEEtran}", COMMON, style.front, ieee_numbers,
                 twocolumn=False, table_name="TABLE", table_numbers="Roman", caption_sep=" ", figure_name="Fig.",
                 caption_sep_figure=". ", refs=32, bst="IEEEtran", ack_heading="Acknowledgment", running=[])


def tugboat() -> Style:
    """ltugboat.cls (TUGboat, the TeX Users Group journal; the format of a practitioners' magazine): two columns,
    the title in bold at the size of the text and the authors indented under it, flush left in the left column, a
    bold `Abstract` head, `1 Introduction` bold headings at text size, numbered references, each author's name,
    address and e-mail signed at the end, `TUGboat, Volume 47 (2026), No. 3` and a draft stamp in the heads."""
    names = "\n".join(rf"\author{{{a.name}}}\address{{{affil(a.affil)}}}\netaddress{{{a.email}}}" for a in AUTHORS)
    preamble = COMMON_LM + rf"""
\vol 47, 3.
\issdate November 2026.
\title{{{TITLE}}}
{names}"""
    front = rf"""\maketitle
\begin{{abstract}}
{ABSTRACT}
\end{{abstract}}
"""
    return Style("tugboat", "ltugboat.cls (TUGboat): two columns, title and authors flush left in the first column, "
                 "a small abstract, `1 Introduction` bold headings, numbered references, signed addresses at the end",
                 "[final]{ltugboat}", preamble, front, arabic_dotted("", " "), caption_sep=": ", refs=22, bst="unsrt",
                 end=r"\makesignature", running=["TUGboat, Volume 47 (2026), No. 3",
                                                               "draft: November 24, 2026 12:00"])


def apa7_man() -> Style:
    """apa7 in its manuscript mode (`man`), the form psychology, education and nursing papers are submitted in and
    circulate as preprints (PsyArXiv, EdArXiv): a title page of its own (the title, authors, affiliations and the
    author note), the abstract on page 2 under a centred bold `Abstract`, then the text from page 3, all double
    spaced in 12 pt, the title repeated over the introduction, unnumbered APA headings, the short title and page
    number in every header, the references on pages of their own and the tables and figures at the end, one per
    page, each under its `Table 1` / `Figure 1` label and italic title."""
    style = apa7()
    return Style("apa7_man", "apa7 manuscript mode (PsyArXiv preprints, submissions): title page, abstract on page 2, "
                 "double spacing, unnumbered APA headings, floats at the end one per page, apacite references",
                 "[man,natbib]{apa7}", style.preamble, style.front, None, twocolumn=False, caption_sep=" ",
                 cite="citep", refs=26, bst="apacite", running=[SHORT_TITLE.upper()])


def cascadilla() -> Style:
    """cascadilla.cls (Cascadilla Proceedings Project: the proceedings of linguistics conferences such as WCCFL,
    BUCLD, GALANA): a bold 18 pt title, all the authors in one bold line and their institutions in another, the
    copyright footnote with the year and the authors, an indented abstract without a heading, `1. Introduction`
    bold headings at text size, author-year references (Chicago items) under `References`."""
    names = ", ".join(a.name for a in AUTHORS[:-1]) + " and " + AUTHORS[-1].name
    insts = ", ".join(["Inria Saclay", "Technical University of Denmark", "University of Cape Town"])
    preamble = COMMON_LM + rf"""
\usepackage{{natbib}}
\title{{{TITLE}}}
\author{{{names}}}
\institution{{{insts}}}
\completed{{November 24, 2026}}
\copyrightyear{{2026}}"""
    front = rf"""\maketitle
\thanks{{\textcopyright\ 2026 {names}. Proceedings of the 44th West Coast Conference on Formal Linguistics, ed.
Ana Ruiz, 1-9. Somerville, MA: Cascadilla Proceedings Project.}}
\begin{{quote}}
{ABSTRACT}
\end{{quote}}
"""
    return Style("cascadilla", "cascadilla.cls (linguistics proceedings: WCCFL, BUCLD): a bold title, the authors and "
                 "their institutions on one bold line each, a copyright footnote naming the proceedings, an unheaded "
                 "indented abstract, `1. Introduction` headings, author-year references", "{cascadilla}", preamble,
                 front, arabic_dotted(".", " "), twocolumn=False, caption_sep=": ", cite="citep", refs=22, bib="items",
                 bibitem=chicago_item, running=["Cascadilla Proceedings Project", "Completed November 24, 2026",
                                                "This printout has been approved by me, the author"])


def sugconf() -> Style:
    """sugconf.cls (SAS Global Forum and regional SAS users' conferences: statistics and industry papers): Helvetica
    throughout, `Paper 1234-2026` centred over a bold title and one bold line of authors with their organisations,
    no paragraph indent but space between paragraphs (and Windows-1252 input), an `ABSTRACT` heading like any other, unnumbered bold capitals
    headings (level 2 at text size), `Figure 1.` captions and numbered references under `REFERENCES`."""
    # the class reads its input as Windows-1252 (`ansinew`): accents are written as TeX accents, as SAS authors must
    ascii_names = {"Léa Moreau": r"L\'ea Moreau", "Jonas Østergaard": r"Jonas \O{}stergaard"}
    names = "; ".join(f"{ascii_names.get(a.name, a.name)}, {AFFILIATIONS[a.affil][0]}" for a in AUTHORS)
    preamble = COMMON + r"""
\usepackage{graphicx}
\setcounter{secnumdepth}{0}
\sugconfpapernumber{Paper 1234-2026}
\sugconfbanner{\relax}""" + rf"""
\title{{{TITLE}}}
\author{{{names}}}"""
    front = rf"""\maketitle
\section{{ABSTRACT}}
{ABSTRACT}
"""
    return Style("sugconf", "sugconf.cls (SAS users' conferences): Helvetica, a paper number over a bold title and one "
                 "line of authors with organisations, block paragraphs, an `ABSTRACT` heading, unnumbered bold capitals "
                 "headings, numbered references under `REFERENCES`", "{sugconf}", preamble, front, None,
                 upper_levels=(1, 2), twocolumn=False, caption_sep=". ", refs=22, bst="unsrt",
                 bib_heading="REFERENCES", ack_heading="ACKNOWLEDGMENTS", running=["Paper 1234-2026"])


STYLES = [ieee_journal, ieee_conf, acm_sigconf, aaai_like, cvpr_like, llncs, els_preprint, els_5p, revtex_aps, amsart,
          copernicus_like, mdpi_like, frontiers_like, iop_like, mnras, pmlr, ieee_long_refs, aastex,
          chicago_econ, supplement, toc_report, achemso, els_cas, apa7, spie, ieee_compsoc, acm_small, oup, erae, els_review, bmc_like, rjournal_like, peerj_like, aomart,
          nature, jacow, asmejour, ascelike, aiaa_tc, revtex_aip, quarto_like, philosophersimprint, ejpecp,
          quantum, kluwer, beilstein, cje, jpsj, nrc,
          icsv, resphilosophica, arxiv_authblk, revtex_preprint, ieee_draft, tugboat, apa7_man, cascadilla, sugconf]
