"""Turn the content model into LaTeX for one style, and say what that style prints (the truth).

A `Style` carries the class-specific parts (preamble, title block, bibliography) as text and the printing conventions
the truth needs: how each heading level is numbered, how captions are labelled, where table captions go. The body
(sections, paragraphs, floats, equations) is rendered here the same way for every style, with the class's own
commands, so all papers share one content model.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Callable

from content import Equation, Float, Section

ROMAN = [(1000, "M"), (900, "CM"), (500, "D"), (400, "CD"), (100, "C"), (90, "XC"), (50, "L"), (40, "XL"), (10, "X"),
         (9, "IX"), (5, "V"), (4, "IV"), (1, "I")]


def roman(n: int) -> str:
    out = ""
    for value, letters in ROMAN:
        while n >= value:
            out, n = out + letters, n - value
    return out


def arabic_dotted(trailing: str = "", sep: str = " ") -> Callable[[list[int]], str]:
    """'2.1' + trailing + sep: '2.1 Data' (ACM, LNCS), '2.1. Data' (Elsevier, MDPI, CVPR)."""
    return lambda nums: ".".join(map(str, nums)) + trailing + sep


def ieee_numbers(nums: list[int]) -> str:
    """IEEEtran and revtex: 'II. ', 'A. ', '1) ' (IEEE) — revtex overrides level 3."""
    level = len(nums)
    if level == 1:
        return f"{roman(nums[0])}. "
    if level == 2:
        return f"{chr(64 + nums[1])}. "
    return f"{nums[2]}) "


@dataclass
class Style:
    name: str
    description: str
    documentclass: str
    preamble: str  # packages and class set-up, after \documentclass
    front: str  # from \begin{document} to the first section (title block, abstract, keywords)
    number: Callable[[list[int]], str] | None  # printed prefix of a numbered heading; None: unnumbered class
    numbered_depth: int = 3  # deepest numbered level (llncs: 2)
    upper_levels: tuple[int, ...] = ()  # levels the class prints in capitals
    twocolumn: bool = True
    table_name: str = "Table"
    figure_name: str = "Figure"
    caption_sep: str = ": "  # between label and text as printed (truth keeps it, the scorer ignores it)
    caption_sep_figure: str | None = None  # when figures differ from tables (IEEE: "TABLE I" newline, "Fig. 1. ")
    table_numbers: str = "arabic"  # or "Roman"
    table_caption_above: bool = True
    cite: str = "cite"  # \cite or \citep
    refs: int = 24  # bibliography entries
    bib: str = "bibtex"  # "bibtex" or "items"
    bst: str = "plain"
    bibitem: Callable[[int, dict], str] | None = None  # formats one \bibitem for bib="items"
    bib_heading: str = "References"  # as printed
    ack_heading: str = "Acknowledgments"
    back_sections: list[tuple[str, str]] = field(default_factory=list)  # unnumbered sections before the references
    running: list[str] = field(default_factory=list)  # header/footer/first-page furniture strings as printed
    authors: list[str] | None = None  # printed author names when a class abbreviates them
    title: str | None = None  # printed title when it differs from the content model's (never, so far)
    end: str = ""  # anything before \end{document} after the bibliography
    before_bib: str = ""
    sentences: int = 0  # added to / removed from every paragraph's length (page-count control)
    appendix: Callable[[list[int]], str] | None = None  # printed prefix of appendix headings; None: no appendix
    invisible_source: bool = False  # each equation carries its LaTeX source as invisible text (render mode 3)
    # a supplement after everything else (`end` holds its LaTeX): its headings as printed, in order, for the truth
    end_headings: list[tuple[int, str]] = field(default_factory=list)
    placement: str = "[tbp]"  # float placement; "" where the class fixes it (nature.cls: its table takes none)
    engine: str = "pdflatex"  # "lualatex" for OpenType text and maths (fontspec, unicode-math)

    def heading(self, sec: Section, nums: list[int], in_appendix: bool = False) -> str:
        """The heading as printed: number prefix + title, capitals where the class prints them."""
        title = sec.title.upper() if sec.level in self.upper_levels else sec.title
        number = self.appendix if in_appendix else self.number
        if sec.numbered and number is not None and sec.level <= self.numbered_depth:
            return number(nums) + title
        return title

    def caption_label(self, kind: str, n: int) -> str:
        if kind == "table":
            return f"{self.table_name} {roman(n) if self.table_numbers == 'Roman' else n}"
        return f"{self.figure_name} {n}"


def tex_escape(text: str) -> str:
    return text.replace("&", r"\&").replace("%", r"\%").replace("#", r"\#").replace("_", r"\_")


def _inline(text: str, style: Style) -> str:
    text = tex_escape(text)
    text = re.sub(r"<cite:([^>]*)>", lambda m: f"~\\{style.cite}{{{m.group(1)}}}" if m.group(1) else "", text)
    return re.sub(r"<ref:([^>]*)>", lambda m: f"~\\ref{{{m.group(1)}}}", text)


def _tikz(plot: str, wide: bool) -> str:
    w = 14.0 if wide else 7.0
    if plot == "bars":
        vals = [34, 41, 52, 60, 66, 71, 75, 78]
        bars = "\n".join(f"\\fill[black!{30 + 5 * i}] ({(i + 0.6) * w / 9:.2f},0) rectangle ({(i + 1.3) * w / 9:.2f},{v / 25:.2f});"
                         for i, v in enumerate(vals))
        return (f"\\begin{{tikzpicture}}\n\\draw[->] (0,0) -- ({w:.1f},0) node[below left] {{\\scriptsize layer}};\n"
                f"\\draw[->] (0,0) -- (0,3.4) node[above right] {{\\scriptsize share}};\n{bars}\n\\end{{tikzpicture}}")
    if plot == "lines":
        dense = " -- ".join(f"({x * w / 8:.2f},{min(3.2, 0.05 * x * x):.2f})" for x in range(9))
        sparse = " -- ".join(f"({x * w / 8:.2f},{0.3 * x:.2f})" for x in range(9))
        return (f"\\begin{{tikzpicture}}\n\\draw[->] (0,0) -- ({w:.1f},0) node[below left] {{\\scriptsize length}};\n"
                f"\\draw[->] (0,0) -- (0,3.4) node[above right] {{\\scriptsize memory}};\n"
                f"\\draw[thick] {dense};\n\\draw[thick,dashed] {sparse};\n\\end{{tikzpicture}}")
    boxes = ["tokens", "scores", "top-k", "attention", "classifier"]
    step = w / len(boxes)
    nodes = "\n".join(f"\\node[draw,minimum width={step * 0.8:.2f}cm,minimum height=0.7cm] (b{i}) at ({(i + 0.5) * step:.2f},0) "
                      f"{{\\scriptsize {b}}};" for i, b in enumerate(boxes))
    arrows = "\n".join(f"\\draw[->] (b{i}) -- (b{i + 1});" for i in range(len(boxes) - 1))
    return f"\\begin{{tikzpicture}}\n{nodes}\n{arrows}\n\\end{{tikzpicture}}"


def _float(fl: Float, style: Style) -> str:
    env = fl.kind + ("*" if fl.wide and style.twocolumn else "")
    cap = f"\\caption{{{tex_escape(fl.caption)}}}\\label{{{fl.key}}}"
    if fl.kind == "table":
        cols = "l" + "r" * (len(fl.rows[0]) - 1)
        body = "\n".join(" & ".join(tex_escape(c) for c in row) + r" \\" + (r" \hline" if i == 0 else "")
                         for i, row in enumerate(fl.rows))
        size = r"\footnotesize" if fl.wide or not style.twocolumn else r"\scriptsize"
        inner = f"{size}\n\\begin{{tabular}}{{{cols}}}\n\\hline\n{body}\n\\hline\n\\end{{tabular}}"
        parts = [cap, inner] if style.table_caption_above else [inner, cap]
    else:
        parts = [_tikz(fl.plot, fl.wide and style.twocolumn), cap]
    return f"\\begin{{{env}}}{style.placement}\n\\centering\n" + "\n".join(parts) + f"\n\\end{{{env}}}"


def _equation(eq: Equation, style: Style) -> str:
    hidden = ""
    if style.invisible_source:  # as some arXiv tool chains do: the source, invisible, at the equation's start
        hidden = (r"\makebox[0pt][l]{\scalebox{0.3}{\pdfrender{TextRenderingMode=Invisible}\ttfamily\detokenize{"
                  + eq.latex + "}}}")
    return f"\\begin{{equation}}\\zooeq{hidden}\n{eq.latex}\n\\label{{{eq.key}}}\n\\end{{equation}}"


def _trim(text: str, delta: int) -> str:
    """Paragraph length control: drop `-delta` trailing sentences (never below two)."""
    if delta >= 0:
        return text
    parts = re.split(r"(?<=\.) ", text)
    keep = max(2, len(parts) + delta)
    kept = parts[:keep]
    cites = [p for p in parts[keep:] if "<cite:" in p]
    if cites:  # citations must survive the trim (every reference stays cited)
        kept[-1] = kept[-1][:-1] + " " + " ".join(re.findall(r"<cite:[^>]*>", " ".join(cites))) + "."
    return " ".join(kept)


COMMANDS = {1: "section", 2: "subsection", 3: "subsubsection"}


def render_body(sections: list[Section], style: Style, in_appendix: bool = False
                ) -> tuple[str, list[dict], dict[str, list[dict]]]:
    """LaTeX of the body, the printed headings [{level, title}] and the printed captions per kind, in order."""
    out: list[str] = []
    headings: list[dict] = []
    captions: dict[str, list[dict]] = {"table": [], "figure": []}
    counters = [0, 0, 0]

    def walk(sec: Section) -> None:
        if sec.numbered:
            counters[sec.level - 1] += 1
            for i in range(sec.level, 3):
                counters[i] = 0
        if sec.title == "Acknowledgments":
            sec = Section(style.ack_heading, sec.level, sec.blocks, sec.numbered, sec.children)
        headings.append({"level": sec.level, "title": style.heading(sec, counters[:sec.level], in_appendix)})
        star = "" if sec.numbered else "*"
        out.append(f"\\{COMMANDS[sec.level]}{star}{{{sec.title}}}")
        for block in sec.blocks:
            if isinstance(block, str):
                out.append(_inline(_trim(block, style.sentences), style) + "\n")
            elif isinstance(block, Float):
                n = len(captions[block.kind]) + 1
                label = style.caption_label(block.kind, n)
                sep = style.caption_sep_figure if block.kind == "figure" and style.caption_sep_figure else style.caption_sep
                captions[block.kind].append({"label": label, "text": block.caption, "printed": label + sep + block.caption})
                out.append(_float(block, style))
            else:
                out.append(_equation(block, style))
        for child in sec.children:
            walk(child)

    for sec in sections:
        walk(sec)
    return "\n".join(out), headings, captions


EQ_MARK = r"""
\newwrite\zoofile\immediate\openout\zoofile=\jobname.zoo
\newcommand\zooeq{\write\zoofile{eqpage \the\ReadonlyShipoutCounter}}
"""


def bib_entry(e: dict) -> str:
    fields = {"author": " and ".join(e["authors"]), "title": e["title"], "year": e["year"], "pages": e["pages"]}
    if e["type"] == "article":
        fields.update(journal=e["journal"], volume=e["volume"], number=e["number"])
    else:
        fields["booktitle"] = e["booktitle"]
    body = ",\n".join(f"  {k} = {{{v}}}" for k, v in fields.items())
    return f"@{e['type']}{{{e['key']},\n{body}\n}}\n"


def document(style: Style, sections: list[Section], refs: list[dict], appendix: list[Section]
             ) -> tuple[str, str | None, list[dict], dict]:
    """(paper.tex, paper.bib or None, headings, captions); the appendix follows the references when the style has one."""
    body, headings, captions = render_body(sections, style)
    for title, text in style.back_sections:
        body += f"\n\\section*{{{title}}}\n{tex_escape(text)}\n"
        headings.append({"level": 1, "title": title.upper() if 1 in style.upper_levels else title})
    bib_text = None
    if style.bib == "bibtex":
        bib_text = "\n".join(bib_entry(e) for e in refs)
        bibliography = f"\\bibliographystyle{{{style.bst}}}\n\\nocite{{*}}\n\\bibliography{{paper}}"
    else:
        assert style.bibitem is not None
        items = "\n".join(style.bibitem(i, e) for i, e in enumerate(refs))
        bibliography = f"\\begin{{thebibliography}}{{{len(refs)}}}\n{items}\n\\end{{thebibliography}}"
    if style.bib_heading:
        headings.append({"level": 1, "title": style.bib_heading})
    if style.appendix is not None:
        app_body, app_headings, _ = render_body(appendix, style, in_appendix=True)
        bibliography += "\n\\appendix\n" + app_body
        headings += app_headings
    headings += [{"level": level, "title": title} for level, title in style.end_headings]
    tex = (f"% generated by tests/zoo/generate.py (style {style.name}); edit the generator, not this file\n"
           f"\\documentclass{style.documentclass}\n{style.preamble}\n{EQ_MARK}\n\\begin{{document}}\n{style.front}\n"
           f"{body}\n{style.before_bib}\n{bibliography}\n{style.end}\n\\end{{document}}\n")
    return tex, bib_text, headings, captions
