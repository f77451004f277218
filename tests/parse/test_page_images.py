"""`draws_no_image` (pipeline/parse/pymupdf/page.py): a page skips MuPDF's image list only when nothing on it can
draw an image. Each way of drawing one is built here and must keep the page on MuPDF's own list; corpus pages
with shadings inside forms and hundreds of tiny images must agree with `get_image_info` page by page."""
from __future__ import annotations

import pymupdf
import pytest

from pipeline.parse.pymupdf.page import analyze_page, draws_no_image
from tests.conftest import any_pdf, needs_corpus, needs_corpus2

PIXELS = pymupdf.Pixmap(pymupdf.csRGB, pymupdf.IRect(0, 0, 8, 8), False)


def _page(text: str = "Only words on this page.") -> tuple[pymupdf.Document, pymupdf.Page]:
    doc = pymupdf.open()
    page = doc.new_page()
    page.insert_text((72, 90), text, fontsize=11)
    return doc, page


def _reopened(doc: pymupdf.Document, number: int = 0) -> pymupdf.Page:
    """The page as a parser sees it: from the saved file (edits applied to the content stream and resources)."""
    return pymupdf.open("pdf", doc.tobytes())[number]


def test_a_page_of_words_skips_the_image_list():
    doc, _ = _page()
    page = _reopened(doc)
    assert draws_no_image(page)
    assert page.get_image_info() == []
    assert analyze_page(page).image_rects == []


def test_an_image_xobject_is_found():
    doc, page = _page()
    page.insert_image(pymupdf.Rect(100, 200, 300, 400), pixmap=PIXELS)
    page = _reopened(doc)
    assert not draws_no_image(page)
    assert analyze_page(page).image_rects == [(100.0, 200.0, 300.0, 400.0)]


def test_an_inline_image_in_the_content_stream_is_found():
    doc, page = _page()
    grey = bytes(range(0, 256, 64)) * 4  # 4 x 4 pixels, 8 bits, one channel
    inline = b"q 120 0 0 80 100 300 cm BI /W 4 /H 4 /CS /G /BPC 8 ID " + grey + b" EI Q"
    xref = page.get_contents()[0]
    doc.update_stream(xref, doc.xref_stream(xref) + b"\n" + inline + b"\n")
    page = _reopened(doc)
    assert page.get_images() == []  # no image resource: only the content stream tells
    assert not draws_no_image(page)
    assert analyze_page(page).image_rects == [(100.0, 462.0, 220.0, 542.0)]  # y from the top of the A4 page


def test_a_form_xobject_and_an_annotation_keep_the_image_list():
    source, _ = _page("a page shown inside another one")
    doc, page = _page()
    page.show_pdf_page(pymupdf.Rect(300, 400, 500, 600), source, 0)  # a Form XObject: it may hold anything
    assert not draws_no_image(_reopened(doc))
    doc, page = _page()
    page.add_stamp_annot(pymupdf.Rect(300, 400, 400, 450))  # annotation appearances may hold images
    assert not draws_no_image(_reopened(doc))


def test_resources_inherited_from_the_page_tree_are_read():
    doc, page = _page()
    page.insert_image(pymupdf.Rect(100, 200, 300, 400), pixmap=PIXELS)
    doc = pymupdf.open("pdf", doc.tobytes())
    page = doc[0]
    kind, resources = doc.xref_get_key(page.xref, "Resources")
    parent = int(doc.xref_get_key(page.xref, "Parent")[1].split()[0])
    doc.xref_set_key(parent, "Resources", resources)  # the page tree holds them; the page names none
    doc.xref_set_key(page.xref, "Resources", "null")
    page = _reopened(doc)
    assert doc.xref_get_key(page.xref, "Resources")[0] == "null"
    assert page.get_image_info(), "MuPDF draws the inherited image"
    assert not draws_no_image(page)


@needs_corpus
@needs_corpus2
@pytest.mark.parametrize("name", ["neurips2020_rag_excerpt.pdf",  # a shading inside a form XObject
                                  "mnras_mnras2025_carbon_dust.pdf",  # a page of 144 tiny images
                                  "nature_nature2013_microbial_dark_matter.pdf"])
def test_corpus_pages_agree_with_mupdfs_image_list(name):
    skipped = 0
    for page in pymupdf.open(any_pdf(name)):
        if draws_no_image(page):
            skipped += 1
            assert page.get_image_info() == [], f"page {page.number + 1} draws an image"
    assert skipped, "no page skipped the image list"
