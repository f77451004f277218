"""The ledger records which pages OCR read (pipeline/store/ledger.py `ocr_pages`), and a ledger made before that
column existed still reads and gains it at the next write; readers word it with `schemas.content_marks.ocr_note`."""
from __future__ import annotations

import duckdb

from pipeline.store import Store
from pipeline.store.ledger import FileRecord
from schemas.content_marks import ocr_note

OLD_LEDGER = """CREATE TABLE ledger.files (path VARCHAR PRIMARY KEY, sha256 VARCHAR, size BIGINT, mtime_ns BIGINT,
    paper_id UUID, status VARCHAR, error VARCHAR, backend VARCHAR, timings VARCHAR, updated_at TIMESTAMPTZ)"""


def test_ocr_pages_round_trip(tmp_path):
    store = Store(tmp_path / "paperbase.duckdb")
    store.init()
    store.record(FileRecord(path="/papers/scan.pdf", status="ok", ocr_pages={1: "no_text", 2: "no_text", 5: "unmapped"}))
    store.record(FileRecord(path="/papers/born.pdf", status="ok"))
    ledger = store.ledger()
    assert ledger["/papers/scan.pdf"].ocr_pages == {1: "no_text", 2: "no_text", 5: "unmapped"}
    assert ledger["/papers/born.pdf"].ocr_pages == {}
    assert ocr_note(ledger["/papers/scan.pdf"].ocr_pages) == "3 page(s) read by OCR (1-2: no text layer; 5: unmapped glyphs)"


def test_a_ledger_from_before_the_column_reads_and_is_migrated(tmp_path):
    path = tmp_path / "paperbase.duckdb"
    con = duckdb.connect(str(path))
    con.execute("CREATE SCHEMA ledger")
    con.execute(OLD_LEDGER)
    con.execute("INSERT INTO ledger.files (path, status, timings) VALUES ('/papers/old.pdf', 'ok', '{}')")
    con.close()
    store = Store(path)
    assert store.ledger()["/papers/old.pdf"].ocr_pages == {}  # read-only: the column is not there yet
    store.record(FileRecord(path="/papers/scan.pdf", status="ok", ocr_pages={3: "ocr_layer"}))
    ledger = store.ledger()
    assert ledger["/papers/scan.pdf"].ocr_pages == {3: "ocr_layer"} and ledger["/papers/old.pdf"].status == "ok"


def test_status_says_which_pages_ocr_read(tmp_path):
    from typer.testing import CliRunner

    from cli import app
    from pipeline.config import load_settings

    data = tmp_path / "data"
    settings = load_settings(data_dir=data)
    pdf = tmp_path / "scan.pdf"
    pdf.write_bytes(b"%PDF-1.4\n")  # status marks a file that is gone as missing; this one is there
    store = Store(settings.duckdb_path)
    store.init()
    store.record(FileRecord(path=str(pdf), status="ok", ocr_pages={1: "no_text", 2: "no_text"}))
    result = CliRunner().invoke(app, ["status", "--data-dir", str(data)], terminal_width=200)
    assert result.exit_code == 0, result.output
    assert "scan.pdf: 2 page(s) read by OCR (1-2: no text layer)" in result.output
    as_json = CliRunner().invoke(app, ["status", "--json", "--data-dir", str(data)])
    assert '"ocr_pages": {"1": "no_text", "2": "no_text"}' in as_json.output
