"""The paperbase command: ingest / status / doctor with --json, --data-dir and PAPERBASE_DATA_DIR."""
import json
import shutil

from typer.testing import CliRunner

from cli import app
from tests.conftest import corpus_pdf, needs_corpus

runner = CliRunner()


def _jsonl(output: str) -> list[dict]:
    return [json.loads(line) for line in output.splitlines() if line.startswith("{")]


@needs_corpus
def test_ingest_then_status_json(tmp_path):
    folder = tmp_path / "pdfs"
    folder.mkdir()
    shutil.copy(corpus_pdf("neurips2020_rag_excerpt.pdf"), folder)
    (folder / "broken.pdf").write_bytes(b"not a pdf at all")
    data = tmp_path / "data"

    # the plain library path (the Prefect flow path of the same command is tested in tests/flows)
    result = runner.invoke(app, ["ingest", str(folder), "--data-dir", str(data), "--json", "--workers", "1"],
                           env={"PAPERBASE_RUNNER": "library"})
    assert result.exit_code == 1, result.output  # one of the two files failed: the exit code says so (issue 11)
    rows = {r["path"].rsplit("/", 1)[-1]: r for r in _jsonl(result.stdout)}
    assert rows["neurips2020_rag_excerpt.pdf"]["status"] == "ok"
    assert rows["neurips2020_rag_excerpt.pdf"]["pages"] == 3
    assert rows["broken.pdf"]["status"] == "failed" and "not a PDF" in rows["broken.pdf"]["error"]
    assert (data / "paperbase.duckdb").exists()

    # ingest ran the downstream stages too: summaries filled, vectors encoded and consistent
    from pipeline.config import load_settings
    from pipeline.vectors import check
    from pipeline.store import Store

    settings = load_settings(data_dir=data)
    assert Store(settings.duckdb_path).query("SELECT count(*) AS n FROM pages WHERE page_summary IS NULL")[0]["n"] == 0
    assert check(settings) == []
    from pipeline.vectors import milvus

    with milvus.connect(settings) as client:
        assert "text_bm25_en" in milvus.existing(client)
        milvus.load(client, "text_bm25_en")
        assert milvus.count(client, "text_bm25_en") > 20

    status = runner.invoke(app, ["status", "--json"], env={"PAPERBASE_DATA_DIR": str(data)})
    assert status.exit_code == 0
    objs = _jsonl(status.stdout)
    assert [set(o) for o in objs] == [{"path", "paper_id", "title", "status", "error", "raster_tables", "raster_tables_ocr", "ocr_pages"}] * 2
    assert sorted(o["status"] for o in objs) == ["failed", "ok"]
    assert [o["raster_tables"] for o in objs] == [0, 0]
    assert [o["ocr_pages"] for o in objs] == [{}, {}]  # born-digital: no page read by OCR


def test_status_shows_tables_printed_as_images(tmp_path):
    """A table whose region holds no text is stored flagged (issue 27); `status` says so per paper."""
    from pipeline.config import load_settings
    from pipeline.ingest import ingest
    from tests.parse.test_text_views import build

    pdf = build(tmp_path / "raster.pdf")
    data = tmp_path / "data"
    report = ingest([pdf], load_settings(data_dir=data, workers=1), stages=[])
    assert [r.status for r in report.results] == ["ok"]
    status = runner.invoke(app, ["status", "--json", "--data-dir", str(data)])
    assert status.exit_code == 0, status.output
    assert [o["raster_tables"] for o in _jsonl(status.stdout)] == [1]


def test_doctor_reports_offline_parse_backend_and_tokenizer(tmp_path):
    result = runner.invoke(app, ["doctor", "--json", "--data-dir", str(tmp_path)])
    assert result.exit_code == 0, result.output
    checks = {c["name"]: c for c in _jsonl(result.stdout)}
    assert checks["backend pymupdf"]["ok"] is True
    assert checks["pymupdf layout model (ONNX)"]["ok"] is True
    assert checks["chunk tokenizer all-MiniLM-L6-v2"]["ok"] is True
    mineru = checks["backend mineru"]
    if checks["mineru"]["ok"]:  # the [mineru] extra is installed: each tier says whether it can run and why not
        assert mineru["ok"] is True and checks["mineru tier flash"]["ok"] is True
        assert {"mineru tier basic", "mineru tier standard"} <= set(checks)
    else:  # not installed: doctor says how to install it instead of failing
        assert mineru["ok"] is False and "scripts/install-mineru.sh" in mineru["detail"]


def test_status_table_fits_80_columns_with_whole_ids():
    """At 80 columns: a title column, every paper_id on one line (copyable), the status column kept."""
    import io

    from rich.console import Console

    from cli.ingest import _status_table

    ids = ["aefc023a-ca85-5331-a20b-d467f7be7b2c", "39f7afc4-5c63-5cc3-80e5-ac05cb088940"]
    rows = [{"path": "/papers/" + "a_rather_long_file_name_of_a_conference_paper_2024.pdf", "paper_id": ids[0],
             "title": "Recovering from Privacy-Preserving Masking with Large Language Models and Much More", "status": "ok"},
            {"path": "/papers/short.pdf", "paper_id": ids[1], "title": None, "status": "duplicate"}]
    out = io.StringIO()
    Console(file=out, width=80).print(_status_table(rows, "2 PDF(s)", width=80))
    lines = out.getvalue().splitlines()
    assert max(len(l) for l in lines) <= 80, out.getvalue()
    assert all(any(i in l for l in lines) for i in ids)  # whole, never folded
    assert "title / paper_id" in out.getvalue() and "status" in out.getvalue() and "duplicate" in out.getvalue()
    assert "Recovering from Privacy" in out.getvalue()
