"""Typeset first pages that imitate journal front matter the corpora lack, with exact truth.

Each style is a LaTeX source (article class + geometry + minipages/tcolorbox, or the publisher's own class where
Debian's TeX Live carries it) whose title, authors and abstract are known here, so `truth.json` is exact.
Mimicked traps: journal mastheads larger than the title, ISSN/doi/homepage lines, publisher labels
("Article", "ORIGINAL RESEARCH", "PAPER"), left sidebars (Received/Accepted/Citation/Edited by/Correspondence),
an article-info box beside a letter-spaced "A B S T R A C T" box, an abstract with no heading, IEEE membership
grades on the author line, affiliations in the author block.

    python tests/data/frontmatter/make.py     # needs pdflatex; rewrites *.tex, *.pdf and truth.json here
"""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import tempfile
from pathlib import Path

HERE = Path(__file__).parent

BODY = (r"Measurements of this kind have a long history, and the questions they raise are still open. "
        r"We describe the setting, the data we collected and the methods we used, and we compare the "
        r"results with earlier work. The rest of the paper is organised as follows. Section 2 gives the "
        r"background, Section 3 the method and Section 4 the results, which we discuss in Section 5.")

ABSTRACT = {
    "mdpi": "Soil moisture controls the exchange of water and energy between the land surface and the "
            "atmosphere. We present a low-cost capacitive sensor network that reports soil moisture every ten "
            "minutes and we validate it against gravimetric samples collected over two growing seasons. The "
            "network reproduces the reference values with a mean absolute error of two percent.",
    "frontiers": "Bacteria living in biofilms tolerate antibiotics far better than their free-swimming "
                 "relatives. Here we follow single cells of a soil isolate with time-lapse microscopy and show "
                 "that tolerance rises as the biofilm matures. Cells at the edge of the colony divide faster "
                 "and die sooner under treatment than cells at its centre, which suggests that growth rate "
                 "rather than position explains most of the effect.",
    "copernicus": "Aerosol particles scatter and absorb sunlight and act as nuclei for cloud droplets. We "
                  "combine four years of ground-based lidar profiles with satellite retrievals to estimate how "
                  "often smoke layers reach the boundary layer over northern Europe. Smoke reached the "
                  "surface on one day in eight during summer, much more often than the models predict.",
    "iop": "We study the propagation of surface plasmon polaritons along a thin gold stripe deposited on a "
           "glass substrate. Using near-field microscopy we measure the decay length as a function of the "
           "stripe width and compare it with finite-element simulations. The measured decay length agrees "
           "with the simulations for stripes wider than two micrometres.",
    "elsevier": "Groundwater recharge in semi-arid basins is difficult to measure directly. We combine "
                "chloride mass balance, water table fluctuation and a distributed hydrological model to "
                "estimate recharge across a karst catchment. The three estimates agree within twenty "
                "percent in wet years but diverge strongly in dry years, when preferential flow dominates.",
    "tandf": "Informal lending between neighbours remains common in rural districts. Using household survey data "
             "from three provinces we show that such loans are repaid more reliably than bank credit and that "
             "repayment depends on the density of kinship ties in the village.",
    "remote": "Glacier surface velocities can be measured from repeated radar images. We track features in "
              "twelve years of synthetic aperture radar scenes and find that the outlet glaciers of the "
              "southern ice field accelerated by one third between 2010 and 2022.",
    "springer": "Small manufacturers rarely measure the energy use of individual machines. We install plug "
                "level meters on forty machines in six workshops and relate their consumption to production "
                "logs. Idle machines account for a quarter of the electricity bill.",
    "cell": "Neurons in the fly visual system respond to motion in a preferred direction. We record calcium "
            "signals from single cells during walking and show that locomotion doubles the gain of these "
            "responses without changing their tuning.",
    "ieeeconf": "Speech enhancement models trained on simulated noise often fail on real recordings. We collect "
                "two hundred hours of paired recordings in offices and cars and fine-tune a convolutional model "
                "on them, which lowers the word error rate of a downstream recogniser by twelve percent.",
    "wiley": "Urban trees cool the streets around them, but how much depends on species and planting density. "
             "We combine thermal imagery from drones with a street tree inventory for three cities and estimate "
             "the cooling attributable to each species. Broad-leaved species cooled the street twice as much "
             "as conifers of the same height.",
    "article": "Citation graphs look locally like trees but globally like grids. We estimate the Gromov "
               "hyperbolicity of six citation graphs by sampling quadruples of papers and show that fields with "
               "many review articles are markedly more hyperbolic than fields without them.",
    "ieee": "This paper presents a controller for legged robots walking on soft ground. The controller "
            "estimates the stiffness of the terrain from joint torques and adapts the stance duration "
            "accordingly. Experiments on sand, foam and grass show that the adaptive gait reduces slipping "
            "by forty percent compared with a fixed gait.",
}

TITLE = {
    "mdpi": "A Low-Cost Capacitive Sensor Network for Soil Moisture Monitoring in Vineyards",
    "frontiers": "Growth Rate Rather Than Position Explains Antibiotic Tolerance in Maturing Biofilms",
    "copernicus": "Smoke layers reaching the boundary layer over northern Europe from four years of lidar data",
    "iop": "Decay of surface plasmon polaritons along thin gold stripes",
    "elsevier": "Recharge estimates for a karst catchment from three independent methods",
    "ieee": "Adaptive Stance Control for Legged Robots on Soft Ground",
    "article": "Hyperbolicity: How Tree-Like Are Citation Graphs?",
    "wiley": "Species and planting density explain the cooling effect of street trees",
    "ieeeconf": "Fine-Tuning Speech Enhancement on Paired Real Recordings",
    "tandf": "Kinship ties and the repayment of informal loans in rural households",
    "remote": "Acceleration of Outlet Glaciers Measured by Twelve Years of Radar Feature Tracking",
    "springer": "Machine-level energy metering in small manufacturing workshops",
    "cell": "Locomotion Doubles the Gain of Direction-Selective Neurons in the Fly",
}

AUTHORS = {
    "mdpi": ["Anna Kowalska", "Bruno Silva", "Chen Wei"],
    "frontiers": ["Lena Fischer", "Petr Novak", "Samir Haddad"],
    "copernicus": ["Hanna Virtanen", "Jorge Alvarez", "Mei Tanaka"],
    "iop": ["Tomasz Zielinski", "Aiko Mori", "Pierre Dubois"],
    "elsevier": ["María González", "Tom Baker", "Ines Kovač"],
    "ieee": ["Jane Doe", "Ali Khan", "John Roe"],
    "article": ["Marta Nowak", "Sven Olsen"],
    "wiley": ["Nora Lindqvist", "Ahmed Hassan", "Claire Dubois"],
    "ieeeconf": ["Min-jun Park", "Laura Bianchi", "Ethan Brooks"],
    "tandf": ["Ana Lima", "Kofi Mensah"],
    "remote": ["Sofía Herrera", "Lukas Meier", "Priya Nair", "Tomás Ruiz"],
    "springer": ["Kim Lee", "Omar Farouk", "Sara Nilsson"],
    "cell": ["Rachel Adams", "Jonas Berg", "Yuki Sato", "David Cohen"],
}

PREAMBLE = r"""\documentclass[10pt]{article}
\usepackage[T1]{fontenc}
\usepackage[utf8]{inputenc}
\usepackage{%(font)s}
\usepackage[a4paper,margin=%(margin)s]{geometry}
\usepackage{xcolor}
\usepackage[most]{tcolorbox}
\usepackage{fancyhdr}
\setlength{\parindent}{1em}
\pagestyle{fancy}\fancyhf{}\renewcommand{\headrulewidth}{0pt}
\fancyfoot[L]{\footnotesize %(footer)s}
\begin{document}
"""

SECTIONS = r"""
\section*{%(intro)s}
%(body)s

%(body)s
"""

TEX: dict[str, str] = {}

# MDPI-like: lower-case journal logotype larger than the title, "Article" label, sidebar with dates/citation,
# run-in "Abstract:".
TEX["mdpi"] = (PREAMBLE % {"font": "mathpazo", "margin": "1.8cm", "footer":
                           r"Appl. Sci. 2023, 13, 5678. https://doi.org/10.3390/app13095678 \hfill "
                           r"https://www.mdpi.com/journal/applsci"}) + r"""
\noindent{\color{gray}\fontsize{24}{28}\selectfont\sffamily applied sciences}\hfill{\bfseries\sffamily\Large MDPI}\par
\vspace{14pt}
\noindent{\small Article}\par\vspace{6pt}
\noindent{\fontsize{18}{22}\selectfont\bfseries %(title)s\par}\vspace{10pt}
\noindent{\bfseries Anna Kowalska\,\textsuperscript{1,*}, Bruno Silva\,\textsuperscript{2} and Chen Wei\,\textsuperscript{1}}\par
\vspace{10pt}
\noindent\begin{minipage}[t]{0.22\textwidth}\scriptsize\raggedright
\textbf{Citation:} Kowalska, A.; Silva, B.; Wei, C. A Low-Cost Capacitive Sensor Network. \textit{Appl. Sci.} \textbf{2023}, \textit{13}, 5678.\par\medskip
Academic Editor: Jorge Martins\par\medskip
Received: 3 March 2023\par Revised: 20 March 2023\par Accepted: 2 April 2023\par Published: 9 April 2023\par\medskip
\textbf{Copyright:} \copyright{} 2023 by the authors. Licensee MDPI, Basel, Switzerland. This article is an open access article distributed under the terms of the Creative Commons Attribution (CC BY) license.
\end{minipage}\hfill
\begin{minipage}[t]{0.74\textwidth}\small
\textsuperscript{1} Department of Physics, University of Lisbon, 1749-016 Lisbon, Portugal\par
\textsuperscript{2} Institute of Agronomy, University of Porto, 4099-002 Porto, Portugal\par
\textsuperscript{*} Correspondence: a.kowalska@ulisboa.pt\par\medskip
\noindent\textbf{Abstract:} %(abstract)s\par\medskip
\noindent\textbf{Keywords:} soil moisture; sensor network; vineyards
\end{minipage}
\section*{1. Introduction}
%(body)s

%(body)s
\end{document}
"""

# Frontiers-like: label + published/doi row, left sidebar, abstract paragraph with NO heading, caps INTRODUCTION.
TEX["frontiers"] = (PREAMBLE % {"font": "helvet", "margin": "1.5cm", "footer":
                                r"Frontiers in Microbiology \textbar{} www.frontiersin.org \hfill 1 \hfill "
                                r"May 2020 \textbar{} Volume 11 \textbar{} Article 123"}) + r"""
\sffamily
\noindent{\color{orange}\bfseries\small ORIGINAL RESEARCH}\hfill{\scriptsize\begin{tabular}[t]{r}published: 12 May 2020\\ doi: 10.3389/fmicb.2020.00123\end{tabular}}\par
\vspace{18pt}
\noindent\begin{minipage}[t]{0.24\textwidth}\scriptsize\raggedright
\vspace{60pt}
{\color{orange}\bfseries OPEN ACCESS}\par\medskip
\textbf{Edited by:}\par Maria Rossi,\par University of Milan, Italy\par\medskip
\textbf{Reviewed by:}\par Daniel Berger,\par University of Vienna, Austria\par\medskip
\textbf{*Correspondence:}\par Lena Fischer\par lena.fischer@uni-bonn.de\par\medskip
\textbf{Specialty section:}\par This article was submitted to Microbial Physiology and Metabolism, a section of the journal Frontiers in Microbiology\par\medskip
\textbf{Received:} 2 March 2020\par \textbf{Accepted:} 20 April 2020\par \textbf{Published:} 12 May 2020\par\medskip
\textbf{Citation:}\par Fischer L, Novak P and Haddad S (2020) Growth Rate Rather Than Position Explains Antibiotic Tolerance in Maturing Biofilms. Front. Microbiol. 11:123. doi: 10.3389/fmicb.2020.00123
\end{minipage}\hfill
\begin{minipage}[t]{0.72\textwidth}\raggedright
{\fontsize{20}{24}\selectfont\bfseries %(title)s\par}\vspace{12pt}
{\bfseries Lena Fischer\textsuperscript{1*}, Petr Novak\textsuperscript{2} and Samir Haddad\textsuperscript{1,3}}\par\vspace{6pt}
{\footnotesize \textsuperscript{1} Institute of Microbiology, University of Bonn, Bonn, Germany, \textsuperscript{2} Department of Biology, Masaryk University, Brno, Czechia, \textsuperscript{3} Faculty of Medicine, University of Cologne, Cologne, Germany}\par\vspace{12pt}
{\bfseries\small %(abstract)s}\par\vspace{8pt}
{\small\textbf{Keywords:} biofilm, antibiotic tolerance, time-lapse microscopy, growth rate}\par\vspace{12pt}
{\bfseries INTRODUCTION}\par\vspace{4pt}
{\small %(body)s}
\end{minipage}
\end{document}
"""

# Copernicus-like: citation/doi/licence lines at the top left, journal name in the top right, run-in "Abstract."
TEX["copernicus"] = (PREAMBLE % {"font": "mathptmx", "margin": "1.8cm", "footer":
                                 r"Published by Copernicus Publications on behalf of the European Geosciences Union."}) + r"""
\noindent\begin{minipage}[t]{0.6\textwidth}\scriptsize
Atmos. Chem. Phys., 23, 4567--4580, 2023\\ https://doi.org/10.5194/acp-23-4567-2023\\
\copyright{} Author(s) 2023. This work is distributed under\\ the Creative Commons Attribution 4.0 License.
\end{minipage}\hfill
\begin{minipage}[t]{0.35\textwidth}\raggedleft{\fontsize{14}{16}\selectfont\sffamily Atmospheric Chemistry\\ and Physics}\end{minipage}\par
\vspace{24pt}
\noindent{\fontsize{17}{21}\selectfont\bfseries\sffamily %(title)s\par}\vspace{10pt}
\noindent{\large\sffamily Hanna Virtanen\textsuperscript{1}, Jorge Alvarez\textsuperscript{2,3}, and Mei Tanaka\textsuperscript{1}}\par\vspace{6pt}
{\footnotesize\noindent\textsuperscript{1}Finnish Meteorological Institute, Helsinki, Finland\\
\textsuperscript{2}Department of Physics, University of Granada, Granada, Spain\\
\textsuperscript{3}Andalusian Institute for Earth System Research, Granada, Spain\par\medskip
\noindent\textbf{Correspondence:} Hanna Virtanen (hanna.virtanen@fmi.fi)\par\medskip
\noindent Received: 1 March 2023 -- Discussion started: 10 March 2023\\
Revised: 2 June 2023 -- Accepted: 20 June 2023 -- Published: 30 June 2023}\par\vspace{10pt}
\noindent\textbf{Abstract.} %(abstract)s
\section*{1\quad Introduction}
%(body)s

%(body)s
\end{document}
"""

# IOP-like: journal name (no wording cue) larger than the title, "LETTER" label, left sidebar (OPEN ACCESS, RECEIVED, ...),
# keywords before a standalone "Abstract" heading.
TEX["iop"] = (PREAMBLE % {"font": "helvet", "margin": "1.5cm", "footer":
                          r"\copyright{} 2021 The Author(s). Published by IOP Publishing Ltd"}) + r"""
\sffamily
\noindent{\scriptsize Environ. Res. Lett. 16 (2021) 044001 \hfill https://doi.org/10.1088/1748-9326/abcd12}\par\vspace{8pt}
\noindent\hfill{\fontsize{20}{24}\selectfont Environmental Research Letters}\par\vspace{14pt}
\noindent\begin{minipage}[t]{0.22\textwidth}\scriptsize\raggedright
\vspace{40pt}
{\bfseries OPEN ACCESS}\par\medskip
RECEIVED\par 3 January 2021\par\medskip REVISED\par 1 February 2021\par\medskip
ACCEPTED FOR PUBLICATION\par 9 February 2021\par\medskip PUBLISHED\par 19 February 2021\par\medskip
Original content from this work may be used under the terms of the Creative Commons Attribution 4.0 licence. Any further distribution of this work must maintain attribution to the author(s) and the title of the work, journal citation and DOI.
\end{minipage}\hfill
\begin{minipage}[t]{0.75\textwidth}\raggedright
{\bfseries\footnotesize LETTER}\par\vspace{6pt}
{\fontsize{16}{19}\selectfont\bfseries %(title)s\par}\vspace{10pt}
{\normalsize Tomasz Zielinski\textsuperscript{1}, Aiko Mori\textsuperscript{2} and Pierre Dubois\textsuperscript{1,*}}\par\vspace{4pt}
{\scriptsize\textsuperscript{1} Faculty of Physics, Warsaw University of Technology, Koszykowa 75, 00-662 Warsaw, Poland\\
\textsuperscript{2} Department of Applied Physics, Osaka University, Suita, Japan\\
\textsuperscript{*} Author to whom any correspondence should be addressed.\\
E-mail: pierre.dubois@pw.edu.pl}\par\vspace{6pt}
{\footnotesize\textbf{Keywords:} plasmonics, near-field microscopy, gold stripes}\par\vspace{10pt}
{\bfseries Abstract}\par\vspace{3pt}
{\small %(abstract)s}\par\vspace{10pt}
{\bfseries 1. Introduction}\par\vspace{3pt}
{\small %(body)s}
\end{minipage}
\end{document}
"""

# Elsevier production-like: running journal line, masthead box with the journal name larger than the title,
# "journal homepage", article-info box beside a letter-spaced "A B S T R A C T" box, ISSN/doi footer.
TEX["elsevier"] = (PREAMBLE % {"font": "mathptmx", "margin": "1.5cm", "footer":
                               r"\begin{tabular}[b]{@{}l@{}}$^{*}$ Corresponding author.\\ E-mail address: maria.gonzalez@unizg.hr (M. Gonz\'alez).\\[3pt] https://doi.org/10.1016/j.jhydrol.2022.128034\\ 0022-1694/\copyright{} 2022 Elsevier B.V. All rights reserved.\end{tabular}"}) + r"""
\begin{center}{\scriptsize\color{blue} Journal of Hydrology 612 (2022) 128034}\end{center}
\noindent\begin{tcolorbox}[colback=gray!10,boxrule=0pt,sharp corners,left=2cm,right=2cm]\centering
{\footnotesize Contents lists available at ScienceDirect}\par\vspace{6pt}
{\fontsize{16}{19}\selectfont Journal of Hydrology}\par\vspace{6pt}
{\footnotesize journal homepage: www.elsevier.com/locate/jhydrol}
\end{tcolorbox}
\vspace{10pt}
\noindent{\fontsize{14}{17}\selectfont %(title)s\par}\vspace{6pt}
\noindent{\color{blue}Mar\'{\i}a Gonz\'alez\,$^{\mathrm{a},*}$, Tom Baker\,$^{\mathrm{b}}$, Ines Kova\v{c}\,$^{\mathrm{a}}$}\par\vspace{3pt}
{\tiny\noindent $^{\mathrm{a}}$ \textit{Faculty of Civil Engineering, University of Zagreb, Ka\v{c}i\'ceva 26, 10000 Zagreb, Croatia}\\
$^{\mathrm{b}}$ \textit{School of Geography, University of Leeds, Leeds LS2 9JT, United Kingdom}}\par
\noindent\rule{\textwidth}{0.4pt}\par\vspace{6pt}
\noindent\begin{minipage}[t]{0.28\textwidth}\tiny
{\small A R T I C L E \ \ I N F O}\par\vspace{2pt}\hrule\vspace{4pt}
\textit{Article history:}\par Received 2 May 2022\par Received in revised form 20 June 2022\par Accepted 1 August 2022\par Available online 9 August 2022\par\medskip
\textit{Keywords:}\par Groundwater recharge\par Karst\par Chloride mass balance
\end{minipage}\hfill
\begin{minipage}[t]{0.68\textwidth}
{\small A B S T R A C T}\par\vspace{2pt}\hrule\vspace{4pt}
{\footnotesize %(abstract)s}
\end{minipage}\par\vspace{8pt}
\noindent\rule{\textwidth}{0.4pt}
\section*{1. Introduction}
{\small %(body)s}
\end{document}
"""

# IEEE Transactions: the real IEEEtran class, membership grades on the author line.
TEX["ieee"] = r"""\documentclass[journal]{IEEEtran}
\begin{document}
\title{%(title)s}
\author{Jane~Doe,~\IEEEmembership{Senior~Member,~IEEE,}
        Ali~Khan,~\IEEEmembership{Student~Member,~IEEE,}
        and~John~Roe,~\IEEEmembership{Fellow,~IEEE}%%
\thanks{J. Doe and A. Khan are with the Department of Mechanical Engineering, University of Toronto, Toronto, ON M5S 1A1, Canada (e-mail: jane.doe@utoronto.ca).}%%
\thanks{J. Roe is with the Robotics Institute, Carnegie Mellon University, Pittsburgh, PA 15213 USA.}}
\markboth{IEEE Transactions on Robotics,~Vol.~39, No.~2, April~2023}{Doe \MakeLowercase{\textit{et al.}}: Adaptive Stance Control}
\maketitle
\begin{abstract}
%(abstract)s
\end{abstract}
\begin{IEEEkeywords}
Legged robots, terrain estimation, gait adaptation.
\end{IEEEkeywords}
\section{Introduction}
\IEEEPARstart{M}{easurements} %(body)s

%(body)s
\section{Background}
%(body)s
\end{document}
"""

# Taylor & Francis-like: a publisher cover sheet (ISSN line, "To cite this article", links) before the article;
# on the article page an ABSTRACT box beside an ARTICLE HISTORY/KEYWORDS box.
TEX["tandf"] = (PREAMBLE % {"font": "mathptmx", "margin": "2cm", "footer": ""}) + r"""
\noindent{\Large\bfseries Journal of Rural Economics}\par\medskip
\noindent{\footnotesize ISSN: 1234-5678 (Print) 1234-5686 (Online) Journal homepage: https://www.tandfonline.com/loi/jre20}\par\vspace{24pt}
\noindent{\LARGE\bfseries %(title)s\par}\vspace{8pt}
\noindent{\large Ana Lima \& Kofi Mensah}\par\vspace{16pt}
{\small\noindent\textbf{To cite this article:} Ana Lima \& Kofi Mensah (2019) Kinship ties and the repayment of informal loans in rural households, Journal of Rural Economics, 12:3, 45--67, DOI: 10.1080/12345678.2019.1234567\par\medskip
\noindent\textbf{To link to this article:} https://doi.org/10.1080/12345678.2019.1234567\par\medskip
\noindent Published online: 12 Mar 2019.\par\medskip
\noindent Submit your article to this journal\par\medskip
\noindent View related articles\par\vspace{30pt}
\noindent Full Terms \& Conditions of access and use can be found at https://www.tandfonline.com/action/journalInformation?journalCode=jre20}
\newpage
\noindent{\footnotesize JOURNAL OF RURAL ECONOMICS, 2019, VOL. 12, NO. 3, 45--67\\ https://doi.org/10.1080/12345678.2019.1234567}\par\vspace{20pt}
\noindent{\fontsize{16}{20}\selectfont\bfseries %(title)s\par}\vspace{8pt}
\noindent{Ana Lima\,\textsuperscript{a} and Kofi Mensah\,\textsuperscript{b}}\par\vspace{4pt}
{\footnotesize\noindent\textsuperscript{a}Department of Economics, University of Porto, Porto, Portugal; \textsuperscript{b}School of Economics, University of Ghana, Accra, Ghana}\par\vspace{12pt}
\noindent\begin{minipage}[t]{0.66\textwidth}\small
{\bfseries ABSTRACT}\par\vspace{3pt}
%(abstract)s
\end{minipage}\hfill
\begin{minipage}[t]{0.3\textwidth}\scriptsize
{\bfseries ARTICLE HISTORY}\par Received 2 May 2018\par Accepted 20 January 2019\par\medskip
{\bfseries KEYWORDS}\par Informal credit; kinship; rural households
\end{minipage}
\section*{1. Introduction}
%(body)s

%(body)s
\end{document}
"""

# MDPI-like with a capitalised journal name (no wording cue) larger than the title and authors set with
# accents; the title is the candidate followed by names.
TEX["remote"] = (PREAMBLE % {"font": "mathpazo", "margin": "1.8cm", "footer":
                             r"Remote Sens. 2023, 15, 2345. https://doi.org/10.3390/rs15092345"}) + r"""
\noindent{\fontsize{24}{28}\selectfont\sffamily Remote Sensing}\hfill{\bfseries\sffamily\Large MDPI}\par
\vspace{14pt}
\noindent{\small Article}\par\vspace{6pt}
\noindent{\fontsize{18}{22}\selectfont\bfseries %(title)s\par}\vspace{10pt}
\noindent{\bfseries Sof\'ia Herrera\,\textsuperscript{1}, Lukas Meier\,\textsuperscript{2,*}, Priya Nair\,\textsuperscript{1} and Tom\'as Ruiz\,\textsuperscript{3}}\par
\vspace{10pt}
\noindent\begin{minipage}[t]{0.22\textwidth}\scriptsize\raggedright
\textbf{Citation:} Herrera, S.; Meier, L.; Nair, P.; Ruiz, T. Acceleration of Outlet Glaciers. \textit{Remote Sens.} \textbf{2023}, \textit{15}, 2345.\par\medskip
Academic Editors: Anna Berg and Luis Soto\par\medskip
Received: 3 March 2023\par Accepted: 2 April 2023\par Published: 9 April 2023
\end{minipage}\hfill
\begin{minipage}[t]{0.74\textwidth}\small
\textsuperscript{1} Centro de Estudios Glaciol\'ogicos, Valdivia 5090000, Chile\par
\textsuperscript{2} Department of Geography, University of Zurich, 8057 Zurich, Switzerland\par
\textsuperscript{3} Instituto Ant\'artico Chileno, Punta Arenas 6200000, Chile\par
\textsuperscript{*} Correspondence: lukas.meier@geo.uzh.ch\par\medskip
\noindent\textbf{Abstract:} %(abstract)s\par\medskip
\noindent\textbf{Keywords:} glaciers; SAR; feature tracking
\end{minipage}
\section*{1. Introduction}
%(body)s
\end{document}
"""

# Springer journal-like: "ORIGINAL ARTICLE" label, authors separated by middle dots, dates line, "Abstract" heading.
TEX["springer"] = (PREAMBLE % {"font": "mathptmx", "margin": "2cm", "footer":
                               r"\copyright{} The Author(s) 2021"}) + r"""
\noindent{\footnotesize Energy Efficiency (2021) 14:55\\ https://doi.org/10.1007/s12053-021-09999-1}\par\vspace{12pt}
\noindent{\small\bfseries ORIGINAL ARTICLE}\par\vspace{8pt}
\noindent{\fontsize{17}{21}\selectfont\bfseries %(title)s\par}\vspace{10pt}
\noindent{Kim Lee \textperiodcentered{} Omar Farouk \textperiodcentered{} Sara Nilsson}\par\vspace{8pt}
{\footnotesize\noindent Received: 12 May 2020 / Accepted: 3 March 2021 / Published online: 20 March 2021}\par\vspace{10pt}
\noindent{\bfseries Abstract}\enspace {\small %(abstract)s}\par\medskip
\noindent{\small\bfseries Keywords}\enspace{\small Energy metering $\cdot$ Manufacturing $\cdot$ Idle power}
\section*{Introduction}
%(body)s
\end{document}
"""

# Cell-like: "SUMMARY" heading instead of "Abstract", correspondence line, caps INTRODUCTION.
TEX["cell"] = (PREAMBLE % {"font": "helvet", "margin": "2cm", "footer": r"Current Biology 31, 1--12, May 24, 2021"}) + r"""
\sffamily
\noindent{\small\bfseries Article}\par\vspace{10pt}
\noindent{\fontsize{20}{24}\selectfont\bfseries %(title)s\par}\vspace{12pt}
\noindent{Rachel Adams,\textsuperscript{1,3} Jonas Berg,\textsuperscript{1} Yuki Sato,\textsuperscript{2} and David Cohen\textsuperscript{1,4,*}}\par\vspace{6pt}
{\footnotesize\noindent\textsuperscript{1}Department of Neurobiology, Harvard Medical School, Boston, MA 02115, USA\\
\textsuperscript{2}Okinawa Institute of Science and Technology, Onna 904-0495, Japan\\
\textsuperscript{3}Present address: Janelia Research Campus, Ashburn, VA 20147, USA\\
\textsuperscript{4}Lead contact\\
\textsuperscript{*}Correspondence: david\_cohen@hms.harvard.edu\\
https://doi.org/10.1016/j.cub.2021.03.001}\par\vspace{12pt}
\noindent{\bfseries SUMMARY}\par\vspace{3pt}
\noindent %(abstract)s\par\vspace{10pt}
\noindent{\bfseries INTRODUCTION}\par\vspace{3pt}
%(body)s
\end{document}
"""

# IEEE conference: the real IEEEtran class, author grid (name / italic department / italic organisation / city /
# e-mail per column).
TEX["ieeeconf"] = r"""\documentclass[conference]{IEEEtran}
\begin{document}
\title{%(title)s}
\author{\IEEEauthorblockN{Min-jun Park}
\IEEEauthorblockA{\textit{Dept. of Electrical Engineering} \\
\textit{Seoul National University}\\
Seoul, South Korea \\
mjpark@snu.ac.kr}
\and
\IEEEauthorblockN{Laura Bianchi}
\IEEEauthorblockA{\textit{Speech Group} \\
\textit{Acme Audio Labs}\\
New York, NY \\
laura@acme.example}
\and
\IEEEauthorblockN{Ethan Brooks}
\IEEEauthorblockA{\textit{Google Research} \\
\textit{Google}\\
Mountain View, CA \\
ebrooks@google.com}}
\maketitle
\begin{abstract}
%(abstract)s
\end{abstract}
\begin{IEEEkeywords}
speech enhancement, real recordings, fine-tuning
\end{IEEEkeywords}
\section{Introduction}
%(body)s

%(body)s
\end{document}
"""

# Wiley-like: "RESEARCH ARTICLE" label, names separated by vertical bars, a left column of affiliations and
# correspondence beside the "Abstract" column (the title is not indented: no sidebar by position).
TEX["wiley"] = (PREAMBLE % {"font": "helvet", "margin": "1.8cm", "footer":
                            r"Ecol. Appl. 2022;32:e2601. \hfill wileyonlinelibrary.com/journal/eap \hfill \copyright{} 2022 Wiley Periodicals LLC."}) + r"""
\sffamily
\noindent{\footnotesize Received: 2 May 2021 \quad Revised: 1 October 2021 \quad Accepted: 3 November 2021}\par\vspace{4pt}
\noindent{\footnotesize DOI: 10.1002/eap.2601}\par\vspace{14pt}
\noindent{\small\bfseries RESEARCH ARTICLE}\par\vspace{8pt}
\noindent{\fontsize{19}{23}\selectfont\bfseries %(title)s\par}\vspace{10pt}
\noindent{Nora Lindqvist\textsuperscript{1} \textbar{} Ahmed Hassan\textsuperscript{2} \textbar{} Claire Dubois\textsuperscript{1,3}}\par\vspace{14pt}
\noindent\begin{minipage}[t]{0.28\textwidth}\scriptsize\raggedright
\textsuperscript{1}Department of Forest Sciences, University of Helsinki, Helsinki, Finland\par
\textsuperscript{2}Faculty of Engineering, Cairo University, Giza, Egypt\par
\textsuperscript{3}INRAE, Avignon, France\par\medskip
\textbf{Correspondence}\par Nora Lindqvist\par Email: nora.lindqvist@helsinki.fi\par\medskip
\textbf{Funding information}\par Academy of Finland, Grant/Award Number: 123456\par\medskip
\textbf{Handling Editor:} Paul Martin
\end{minipage}\hfill
\begin{minipage}[t]{0.68\textwidth}
{\bfseries Abstract}\par\vspace{3pt}
{\small %(abstract)s}\par\vspace{8pt}
{\small\textbf{KEYWORDS}}\par{\small drones, street trees, thermal imagery, urban heat}
\end{minipage}
\section*{1 \textbar{} INTRODUCTION}
%(body)s
\end{document}
"""

# Plain LaTeX article: \maketitle with a one-word first title line, authors with \and and \thanks, the
# article class's centred small "Abstract".
TEX["article"] = r"""\documentclass[11pt]{article}
\usepackage[T1]{fontenc}
\begin{document}
\title{Hyperbolicity:\\ How Tree-Like Are Citation Graphs?}
\author{Marta Nowak\thanks{Department of Mathematics, University of Warsaw. E-mail: m.nowak@uw.edu.pl} \and
Sven Olsen\thanks{Department of Computer Science, University of Copenhagen.}}
\date{March 2024}
\maketitle
\begin{abstract}
%(abstract)s
\end{abstract}
\section{Introduction}
%(body)s

%(body)s
\end{document}
"""


def build(out: Path = HERE) -> dict:
    truth = {}
    with tempfile.TemporaryDirectory() as tmp:
        for style, template in TEX.items():
            name = f"{style}_like"
            src = template % {"title": TITLE[style], "abstract": ABSTRACT[style], "body": BODY, "intro": "Introduction"}
            (out / f"{name}.tex").write_text(src, encoding="utf-8")
            shutil.copy(out / f"{name}.tex", Path(tmp) / f"{name}.tex")
            env = {**os.environ, "SOURCE_DATE_EPOCH": "1700000000", "FORCE_SOURCE_DATE": "1"}  # same bytes each run
            subprocess.run(["pdflatex", "-interaction=nonstopmode", "-halt-on-error", f"{name}.tex"], cwd=tmp,
                           check=True, capture_output=True, env=env)
            shutil.copy(Path(tmp) / f"{name}.pdf", out / f"{name}.pdf")
            truth[f"{name}.pdf"] = {"title": TITLE[style], "authors": AUTHORS[style],
                                    "abstract_start": " ".join(ABSTRACT[style].split()[:12]),
                                    "abstract": ABSTRACT[style]}
    (out / "truth.json").write_text(json.dumps(truth, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    return truth


if __name__ == "__main__":
    print(json.dumps(build(), indent=1, ensure_ascii=False))
