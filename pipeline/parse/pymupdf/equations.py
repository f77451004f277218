"""equations view: display equations (not inline math) with offline-reconstructed LaTeX and a bbox. Found once per
document by `_equation_regions.py` (DocumentFacts.equations), which the prose views also read to leave the same lines
out; each formula is repaired and screened there (quality.py), so every row is a plausible formula.

Detection is typographic and cheap: a text line is display math when most of its glyphs are in TeX math fonts
or are math symbols, or when it is an equation number "(3)" at the right of its column. Such lines are grouped
into vertical stacks per column (fraction parts, scripts and limits sit on their own lines); a stack is kept
when no running-text line shares its vertical band (which would make it inline math), it is not the last line
of a paragraph, and it is not inside a table, a figure, a caption or an algorithm float. Short words on the
display's baselines ("softmax", "where") join it. Equation numbers, on their own line or at the end of a math
line, are dropped from the LaTeX and kept as \\tag{n}. See docs/equations.md for the LaTeX reconstruction.

Running headers, footers and page numbers (marked by page.py) and invisible text are never equations nor part
of one. In a paper whose body is set in TeX's own text fonts (Computer/Latin Modern), letters in those fonts are
prose, not math evidence (elsewhere TeX's roman appears only inside formulas: "softmax", digits).
"""
from __future__ import annotations

from pipeline.document import Equation
from pipeline.parse.pymupdf._geometry import to_bbox
from pipeline.parse.pymupdf.facts import DocumentFacts, as_facts
from pipeline.parse.pymupdf.page import DocumentAnalysis


def extract_equations(facts: DocumentFacts | DocumentAnalysis) -> list[Equation]:
    """One row per display equation found by DocumentFacts.equations (plausible formulas only)."""
    facts = as_facts(facts)
    eqs: list[Equation] = []
    for page, regions in sorted(facts.equations.items()):
        for k, region in enumerate(regions):
            eqs.append(Equation(page, k, region.latex, to_bbox(region.box)))
    return eqs
