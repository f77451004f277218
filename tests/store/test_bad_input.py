"""Every kind of bad file gets a clear per-file status and message, no rows, and the folder goes on."""
import os
import shutil

import pymupdf
import pytest

from pipeline.config import load_settings
from pipeline.ingest import ingest
from pipeline.store import Store
from tests.conftest import corpus_pdf, needs_corpus

GOOD = "neurips2020_rag_excerpt.pdf"


def _write_bad_files(folder):
    real = corpus_pdf(GOOD).read_bytes()
    (folder / "truncated.pdf").write_bytes(real[: len(real) // 2])
    (folder / "corrupt.pdf").write_bytes(b"%PDF-1.7\n" + os.urandom(4000))
    (folder / "zero_pages.pdf").write_bytes(
        b"%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[]/Count 0>>endobj\n"
        b"trailer<</Root 1 0 R>>\n%%EOF\n"
    )
    (folder / "not_a_pdf.pdf").write_text("this is a plain text file with a .pdf name\n")
    doc = pymupdf.open(corpus_pdf(GOOD))
    doc.save(folder / "encrypted.pdf", encryption=pymupdf.PDF_ENCRYPT_AES_256, owner_pw="owner", user_pw="user")
    scan = pymupdf.open()
    page = scan.new_page()
    pix = pymupdf.Pixmap(pymupdf.csRGB, pymupdf.IRect(0, 0, 300, 400), False)
    pix.clear_with(230)
    page.insert_image(page.rect, pixmap=pix)
    scan.save(folder / "image_only.pdf")


EXPECTED = {
    "corrupt.pdf": "corrupt: cannot open",
    "truncated.pdf": "truncated",
    "zero_pages.pdf": "empty: zero_pages.pdf has no pages",
    "not_a_pdf.pdf": "not_pdf: not_a_pdf.pdf is not a PDF",
    "encrypted.pdf": "encrypted: encrypted.pdf is password-protected",
    "image_only.pdf": "no_text_layer",
}


@needs_corpus
@pytest.mark.parametrize("workers", [1, 2])
def test_bad_files_fail_cleanly_and_good_file_is_stored(tmp_path, workers):
    folder = tmp_path / "pdfs"
    folder.mkdir()
    _write_bad_files(folder)
    shutil.copy(corpus_pdf(GOOD), folder / GOOD)
    settings = load_settings(data_dir=tmp_path / "data", workers=workers)
    report = ingest(folder, settings)
    by_name = {os.path.basename(r.path): r for r in report.results}
    assert by_name[GOOD].status == "ok"
    for name, message in EXPECTED.items():
        assert by_name[name].status == "failed", name
        assert message in by_name[name].error, (name, by_name[name].error)
    store = Store(settings.duckdb_path)
    assert store.query("SELECT count(*) AS n FROM metadata")[0]["n"] == 1
    assert store.query("SELECT count(DISTINCT ref_paper_id) AS n FROM pages")[0]["n"] == 1
    ledger = store.ledger()
    assert sorted(r.status for r in ledger.values()) == ["failed"] * 6 + ["ok"]
    # unchanged failures are not retried on the next run (the ledger remembers them) ...
    assert {r.status for r in ingest(folder, settings).results} == {"skipped"}
    # ... unless asked to
    retried = ingest(folder, settings, retry_failed=True)
    assert sorted(r.status for r in retried.results) == ["failed"] * 6 + ["skipped"]
