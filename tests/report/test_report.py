"""`paperbase inspect`: the static report's files and boxes, and the annotated PDF copies (real store, real PDFs)."""
from __future__ import annotations

import hashlib
import re

from typer.testing import CliRunner

from cli import app
from report.locate import PageText, fold_latex, locate


def _count(settings, sql: str, params: list) -> int:
    from pipeline.read import Reader

    with Reader(settings) as reader:
        return reader.sql(sql, params).rows[0][0]


def test_index_lists_every_paper_with_its_counts(built_report):
    out, settings, ids = built_report
    index = (out / "index.html").read_text()
    for pid in ids.values():
        assert f'href="papers/{pid}.html"' in index
        assert (out / "papers" / f"{pid}.html").exists()
    # the fixture encoded no vectors: each paper is partial, and the index says what is missing, as `status` does
    assert index.count('class="status-partial"') == len(ids) and "vectors: 0/2" in index


def test_each_page_is_an_image_with_boxes_of_every_view(built_report):
    out, settings, ids = built_report
    for name, pid in ids.items():
        page = (out / "papers" / f"{pid}.html").read_text()
        pages = _count(settings, "SELECT num_pages FROM metadata WHERE paper_id = ?", [pid])
        images = re.findall(r'<img src="\.\./pages/[^"]+/(\d+)\.png"', page)
        assert images == [str(n) for n in range(1, pages + 1)], name
        assert all((out / "pages" / pid / f"{n}.png").stat().st_size > 5_000 for n in images)
        for view in ("sections", "chunks", "tables", "images", "equations"):
            rows = _count(settings, f'SELECT count(*) FROM "{view}" WHERE ref_paper_id = ?', [pid])
            boxed = set(re.findall(rf'class="box v-{view}" data-view="{view}" data-id="([^"]+)"', page))
            if rows:
                assert boxed, (name, view)
            # most rows are found on their page (tables and images carry their box)
            assert len(boxed) >= (rows if view in ("tables", "images") else 0.8 * rows), (name, view, len(boxed), rows)


def test_page_images_are_rendered_once(built_report, tmp_path):
    import shutil

    shared, settings, ids = built_report
    out = tmp_path / "report"  # a copy (mtimes kept): inspecting one paper rewrites the index, which others read
    shutil.copytree(shared, out)
    image = out / "pages" / ids["acl2020_tapas.pdf"] / "1.png"
    before = image.stat().st_mtime_ns
    result = CliRunner().invoke(app, ["inspect", "tapas", "--data-dir", str(settings.data_dir), "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert image.stat().st_mtime_ns == before


def test_pdf_copy_has_one_rectangle_per_box_and_leaves_the_original(report_store, tmp_path):
    import pymupdf

    settings, ids = report_store
    from pipeline.read import Reader

    with Reader(settings) as reader:
        pdf_path = reader.sql("SELECT pdf_path FROM metadata WHERE paper_id = ?", [ids["acl2020_tapas.pdf"]]).rows[0][0]
    digest = hashlib.sha256(open(pdf_path, "rb").read()).hexdigest()
    result = CliRunner().invoke(app, ["inspect", ids["acl2020_tapas.pdf"], "--pdf", "--data-dir", str(settings.data_dir),
                                      "--out", str(tmp_path)])
    assert result.exit_code == 0, result.output
    copy = tmp_path / "acl2020_tapas.boxes.pdf"
    with pymupdf.open(copy) as doc:
        annots = [a.info for page in doc for a in page.annots()]  # read while the page is alive
    tables = _count(settings, "SELECT count(*) FROM tables WHERE ref_paper_id = ?", [ids["acl2020_tapas.pdf"]])
    assert sum(a["title"] == "tables" for a in annots) == tables
    assert {a["title"] for a in annots} >= {"sections", "chunks", "tables"}
    assert hashlib.sha256(open(pdf_path, "rb").read()).hexdigest() == digest


class _Page:
    """A page whose words are given: (x0, y0, x1, y1, text, block, line, word)."""

    def __init__(self, words):
        self.words = words

    def get_text(self, kind, sort=False):
        return self.words


def test_locate_finds_rows_in_order_and_returns_one_box_per_column_run():
    words = [(10, 10, 40, 20, "Signiﬁcant", 0, 0, 0), (42, 10, 80, 20, "results", 0, 0, 1),
             (10, 22, 70, 32, "follow", 0, 1, 0), (300, 10, 340, 20, "here.", 1, 0, 0),
             (10, 40, 40, 50, "x", 2, 0, 0), (42, 40, 50, 50, "=", 2, 0, 1), (52, 40, 60, 50, "y2", 2, 0, 2)]
    page = PageText.of(_Page(words))
    boxes = locate(page, ["significant results follow here", "nothing like this"])
    assert boxes[0] == [(10, 10, 70, 22), (300, 10, 40, 10)] and boxes[1] == []
    assert fold_latex(r"x = y^{2} \tag{1}") == "xy2"
    assert locate(page, [r"x = y^{2}"], latex=True) == [[(10, 40, 50, 10)]]
