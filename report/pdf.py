"""`paperbase inspect --pdf`: the report's boxes drawn onto a copy of each PDF (the original is never written), for
readers who stay in a PDF viewer. Each box is a rectangle annotation in its view's colour, titled with the view and
the row id, so a viewer lists them and shows the id on hover."""
from __future__ import annotations

from pathlib import Path

from pipeline.read import Reader, open_pdf, pdf_file
from report.boxes import VIEWS, paper_boxes
from report.load import load_paper


def _rgb(colour: str) -> tuple[float, float, float]:
    return tuple(int(colour[i:i + 2], 16) / 255 for i in (1, 3, 5))  # type: ignore[return-value]


def annotate_pdf(reader: Reader, paper_id: str, out: Path) -> Path | None:
    """Write `<out>/<pdf stem>.boxes.pdf`; None when the PDF is gone."""
    import pymupdf

    paper = load_paper(reader, paper_id)
    pdf = pdf_file(paper.metadata["pdf_path"])
    if not pdf.exists():
        return None
    out.mkdir(parents=True, exist_ok=True)
    target = out / f"{pdf.stem}.boxes.pdf"
    with open_pdf(pdf) as doc:
        boxes = paper_boxes(paper, doc)
        for number, marks in boxes.marks.items():
            page = doc[number - 1]
            for m in marks:
                x, y, w, h = m.box
                annot = page.add_rect_annot(pymupdf.Rect(x, y, x + w, y + h))
                annot.set_colors(stroke=_rgb(VIEWS[m.view][2]))
                annot.set_border(width=1.2)
                annot.set_info(title=m.view, content=f"{m.view} {m.row_id}")
                annot.update()
        doc.save(target, garbage=1, deflate=True)
    return target
