"""images view: captioned figures, raster or vector, one per caption (sub-figures included), with a bbox.

The caption ("Figure 3: ..." / "Fig. 3.") anchors the search. The figure is the stack of graphics (raster image
rectangles and vector-drawing paths) adjoining the caption on the figure side (above it unless the document
puts figures under their captions), bounded by running text, other captions and tables, plus the text labels
lying inside or right next to those graphics. Drawings inside tables (their rules) and page-sized or white
background fills are ignored, so decorations never form figures on their own: only a caption creates one.
When no graphics are found there: the search is widened to the whole text width (a caption cut into pieces by
inline maths), then graphics set beside the caption (side legends: Nature, JMLR), then the layout model's 'picture'
region next to the caption (so the model runs only on those few pages), then the run of non-prose text lines next
to the caption (an algorithm listing typeset as text); when all of these fail the figure is kept with the caption's
own box (a caption is evidence enough that a figure is there). Caption rules (TABLE I, FIG. 1:, Figure 1 |, ...) are in
`_captions.py`. The bbox covers the graphics, not the
caption, as (x0, y0, w, h).
"""
from __future__ import annotations

from pipeline.document import Figure
from pipeline.parse.pymupdf._geometry import to_bbox
from pipeline.parse.pymupdf.facts import DocumentFacts, as_facts
from pipeline.parse.pymupdf.page import DocumentAnalysis


def extract_figures(facts: DocumentFacts | DocumentAnalysis) -> list[Figure]:
    facts = as_facts(facts)
    found = sorted(facts.figures, key=lambda f: (f[0], facts.reading_key(facts.pages[f[0] - 1], f[1])))
    figures: list[Figure] = []
    per_page: dict[int, int] = {}
    for page, box, caption in found:
        ordinal = per_page.get(page, 0)
        per_page[page] = ordinal + 1
        figures.append(Figure(page, ordinal, caption, to_bbox(box)))
    return figures
