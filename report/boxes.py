"""The boxes of every view on every page of one paper: stored ones (tables, images) and located ones (sections by
their heading, chunks, equations; see locate.py). Shared by the HTML report and the annotated PDF copy."""
from __future__ import annotations

from dataclasses import dataclass, field

from report.load import PaperRows
from report.locate import Box, PageText, locate

# view -> (id column, text column used to locate rows without a stored box, colour); the order is the drawing order
VIEWS: dict[str, tuple[str, str, str]] = {
    "sections": ("section_id", "section_title", "#7b3fe4"),
    "chunks": ("chunk_id", "text_content", "#1f9d55"),
    "tables": ("table_id", "table_caption", "#e3342f"),
    "images": ("image_id", "image_caption", "#f6993f"),
    "equations": ("equation_id", "equation_content", "#3490dc"),
}
STORED = ("tables", "images")  # views whose rows carry bounding_box


@dataclass
class Mark:
    view: str
    row_id: str
    page: int
    box: Box


@dataclass
class PaperBoxes:
    marks: dict[int, list[Mark]] = field(default_factory=dict)  # page number -> marks
    located: dict[str, list[int]] = field(default_factory=dict)  # view -> [rows with a box, rows]
    missing: set[str] = field(default_factory=set)  # row ids that got no box

    def add(self, mark: Mark) -> None:
        self.marks.setdefault(mark.page, []).append(mark)


def paper_boxes(paper: PaperRows, doc) -> PaperBoxes:
    """Boxes for every row of the five page-bound views; `doc` is the paper's open PyMuPDF document."""
    out = PaperBoxes()
    texts: dict[int, PageText] = {}
    for view, (id_col, text_col, _) in VIEWS.items():
        found = total = 0
        for number, rows in sorted(paper.on_page(view).items()):
            if not 1 <= number <= len(doc):
                continue
            if view in STORED:
                boxes = [[tuple(r["bounding_box"])] if r.get("bounding_box") else [] for r in rows]
            else:
                page_text = texts.get(number) or texts.setdefault(number, PageText.of(doc[number - 1]))
                boxes = locate(page_text, [r.get(text_col) or "" for r in rows], latex=view == "equations")
            for row, row_boxes in zip(rows, boxes):
                total += 1
                found += bool(row_boxes)
                if not row_boxes:
                    out.missing.add(row[id_col])
                for b in row_boxes:
                    out.add(Mark(view, row[id_col], number, b))
        out.located[view] = [found, total]
    return out
