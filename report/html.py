"""The static HTML report: `index.html` (one row per paper) and `papers/<id>.html` (every page as an image with the
boxes of each view over it, a toggle per view, a click on a box shows the stored row).

It opens from file:// with no server and no network: the CSS and the script are inlined, page images are files
beside the pages, rows travel as JSON inside the page. Box positions are percentages of the page, so they follow the
image at any width. Page images are rendered once (`pages/<id>/<n>.png` at `dpi`, 64 colours) and reused while they are newer
than the PDF and rendered at the same resolution. The table HTML stored by the parser is shown rebuilt from text and
spans (never inserted as markup): a PDF is untrusted input.
"""
from __future__ import annotations

import html
import json
import re
from collections.abc import Callable
from importlib import resources
from pathlib import Path
from typing import Any

from pipeline.read import Reader, open_pdf, pdf_file
from report.boxes import VIEWS, PaperBoxes, paper_boxes
from report.load import PaperRows, load_paper, view_counts
from schemas.content_marks import ocr_note

DPI = 96  # 1.33 px per point: legible text, about 75 KB per page as a 64-colour PNG


def _asset(name: str) -> str:
    return resources.files("report").joinpath("assets", name).read_text(encoding="utf-8")


def _page(title: str, body: str, script: str = "") -> str:
    return (f'<!doctype html><html lang="en"><head><meta charset="utf-8"><title>{html.escape(title)}</title>'
            f'<meta name="viewport" content="width=device-width, initial-scale=1"><style>{_asset("inspect.css")}'
            f"{_hide_rules()}</style></head><body>{body}{script}</body></html>\n")


def _hide_rules() -> str:
    return "".join(f".hide-{v} .v-{v}{{display:none}}.v-{v}{{border-color:{c}}}" for v, (_, _, c) in VIEWS.items())


def _save_png(pix, path: Path) -> None:
    """A 64-colour PNG: a third of the full-colour size and quicker to write; text and figures read the same."""
    from PIL import Image

    image = Image.frombytes("RGB", (pix.width, pix.height), pix.samples)
    image.quantize(colors=64, method=Image.Quantize.FASTOCTREE).save(path, "PNG")


def render_pages(doc, pdf_path: Path, folder: Path, dpi: int = DPI) -> list[str]:
    """PNG file names of every page, rendered only when missing, older than the PDF or of another resolution."""
    folder.mkdir(parents=True, exist_ok=True)
    stamp = folder / ".dpi"
    same_dpi = stamp.exists() and stamp.read_text() == str(dpi)
    names = []
    for i, page in enumerate(doc, 1):
        path = folder / f"{i}.png"
        if not (same_dpi and path.exists() and path.stat().st_mtime >= pdf_path.stat().st_mtime):
            _save_png(page.get_pixmap(dpi=dpi), path)
        names.append(path.name)
    stamp.write_text(str(dpi))
    return names


# Every character HTML gives a meaning inside a script element, as a JSON escape: `<` (`</script`, `<!--` which
# makes the parser look for a `-->` across the rest of the page), `>` and `&` for good measure, and U+2028/2029
# (line terminators to older JavaScript). JSON.parse reads the escapes back as the same characters.
_ISLAND_ESCAPES = {"<": "\\u003c", ">": "\\u003e", "&": "\\u0026", "\u2028": "\\u2028", "\u2029": "\\u2029"}
_ISLAND_CHARS = re.compile("[<>&\u2028\u2029]")


def _json_script(data: Any) -> str:
    text = _ISLAND_CHARS.sub(lambda m: _ISLAND_ESCAPES[m.group()], json.dumps(data, default=str))
    return f'<script type="application/json" id="rows">{text}</script>'


def paper_page(paper: PaperRows, boxes: PaperBoxes, images: list[str], sizes: list[tuple[float, float]],
               image_dir: str) -> str:
    md = paper.metadata
    toggles = "".join(
        f'<label><input type="checkbox" checked data-view="{v}"><span class="swatch" style="border-color:{c}"></span>'
        f'{v} <span class="muted">{boxes.located[v][0]}/{boxes.located[v][1]}</span></label>'
        for v, (_, _, c) in VIEWS.items())
    pages = []
    for n, (image, (w, h)) in enumerate(zip(images, sizes), 1):
        marks = "".join(
            f'<div class="box v-{m.view}" data-view="{m.view}" data-id="{m.row_id}" title="{m.view}" '
            f'style="left:{100 * m.box[0] / w:.3f}%;top:{100 * m.box[1] / h:.3f}%;'
            f'width:{100 * m.box[2] / w:.3f}%;height:{100 * m.box[3] / h:.3f}%"></div>'
            for m in boxes.marks.get(n, []))
        pages.append(f'<div class="page" id="page-{n}" data-page="{n}"><img src="{image_dir}/{image}" '
                     f'alt="page {n}" loading="lazy" width="{round(w * DPI / 72)}" height="{round(h * DPI / 72)}">'
                     f'<span class="num">{n}</span>{marks}</div>')
    rows = {v: {r[VIEWS[v][0]]: r for r in paper.rows[v]} for v in VIEWS}
    rows["metadata"] = {paper.paper_id: md}
    authors = ", ".join(md.get("authors") or [])
    ocr = f'<div class="muted ocr">{html.escape(ocr_note(paper.ocr_pages))}</div>' if paper.ocr_pages else ""
    body = (f'<header><a href="../index.html">all papers</a><h1>{html.escape(md.get("title") or paper.paper_id)}</h1>'
            f'<div class="muted">{html.escape(authors)}</div>{ocr}<div class="toggles">{toggles} '
            f'<span class="muted">(boxes with a row / rows; tables and images are stored with their box, the others '
            f'are found on the page)</span></div></header><main><div class="pages">{"".join(pages)}</div>'
            f'<aside id="panel"><p class="muted">Click a box to see its stored row.</p></aside></main>')
    return _page(md.get("title") or paper.paper_id, body, _json_script(rows) + f"<script>{_asset('inspect.js')}</script>")


def index_page(entries: list[dict[str, Any]]) -> str:
    views = list(VIEWS) + ["reference"]
    head = "".join(f"<th>{v}</th>" for v in ["title", "status", "pages", *views, "errors", "summary (tldr)"])
    rows = []
    for e in entries:
        counts = "".join(f'<td class="n">{e["counts"].get(v, 0)}</td>' for v in views)
        title = html.escape(e["title"] or e["paper_id"])
        link = title if e["status"] == "missing" else f'<a href="papers/{e["paper_id"]}.html">{title}</a>'
        rows.append(f'<tr><td>{link}</td>'
                    f'<td class="status-{e["status"]}">{e["status"]}</td><td class="n">{e["pages"]}</td>{counts}'
                    f'<td>{html.escape(e["error"] or "")}</td><td>{html.escape(e["tldr"] or "")}</td></tr>')
    body = (f"<header><h1>paperbase: what was extracted</h1><div class='muted'>{len(entries)} paper(s)</div></header>"
            f'<table class="index"><tr>{head}</tr>{"".join(rows)}</table>')
    return _page("paperbase report", body)


def build_report(reader: Reader, paper_ids: list[str], out: Path, statuses: dict[str, tuple[str, str | None]] | None = None,
                 on_paper: Callable[[str], None] | None = None, dpi: int = DPI) -> Path:
    """Write the report for `paper_ids` under `out`; returns index.html. `statuses`: paper id -> (status, error)."""
    statuses = statuses or {}
    counts = view_counts(reader)
    (out / "papers").mkdir(parents=True, exist_ok=True)
    entries = []
    for pid in paper_ids:
        paper = load_paper(reader, pid)
        md = paper.metadata
        pdf = pdf_file(md["pdf_path"])
        status, error = statuses.get(pid, ("ok", None))
        if pdf.exists():
            with open_pdf(pdf) as doc:
                images = render_pages(doc, pdf, out / "pages" / pid, dpi)
                sizes = [(p.rect.width, p.rect.height) for p in doc]
                boxes = paper_boxes(paper, doc)
            (out / "papers" / f"{pid}.html").write_text(paper_page(paper, boxes, images, sizes, f"../pages/{pid}"), encoding="utf-8")
        else:
            status, error = "missing", f"the PDF is no longer at {pdf}"
        entries.append({"paper_id": pid, "title": md.get("title"), "status": status, "error": error,
                        "pages": md.get("num_pages"), "counts": counts.get(pid, {}), "tldr": md.get("tldr")})
        if on_paper:
            on_paper(pid)
    index = out / "index.html"
    index.write_text(index_page(entries), encoding="utf-8")
    return index
