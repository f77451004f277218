"""The mineru backend (MinerU 4, flash tier) on real corpus PDFs: the merged default-plus-mineru-tables paper, an
ingest through the CLI with --backend mineru, and failures that leave no rows. The backend contract itself runs
in test_backend_contract.py. Skips when mineru is not installed (`scripts/install-mineru.sh`; ./run-tests installs
it) or the corpus is absent."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import pymupdf
import pytest
from typer.testing import CliRunner

from cli import app
from pipeline.parse import ParseOptions, parse_pdf
from pipeline.parse.mineru.tiers import installed, tier_status
from tests.conftest import corpus_pdf, needs_corpus

pytestmark = pytest.mark.skipif(not installed(), reason="mineru is not installed (scripts/install-mineru.sh)")
runner = CliRunner()
TABLES = ["metadata", "pages", "chunks", "sections", "tables", "images", "equations", "reference"]


def _counts(data: Path) -> dict[str, int]:
    from pipeline.config import load_settings
    from pipeline.store import Store

    store = Store(load_settings(data_dir=data).duckdb_path)
    return {t: store.query(f"SELECT count(*) AS n FROM {t}")[0]["n"] for t in TABLES}


def _ingest(folder: Path, data: Path, *extra: str, env: dict | None = None):
    return runner.invoke(app, ["ingest", str(folder), "--data-dir", str(data), "--json", "--workers", "1",
                               "--stages", "none", *extra], env={"PAPERBASE_RUNNER": "library", **(env or {})})


@needs_corpus
def test_merged_tables_keep_superscripts_and_the_default_views(parsed) -> None:
    """tables from mineru, every other view from pymupdf: one consistent paper."""
    name = "neurips2017_attention.pdf"
    merged = parse_pdf(corpus_pdf(name), ParseOptions(views={"tables": "mineru"}))
    alone = parsed(name)
    assert merged.metadata == alone.metadata and merged.sections == alone.sections and merged.pages == alone.pages
    assert [t.caption.split(":")[0] for t in merged.tables] == ["Table 1", "Table 2", "Table 3", "Table 4"]
    assert [t.page_number for t in merged.tables] == [t.page_number for t in alone.tables]  # same page refs
    assert "O(n<sup>2</sup> · d)" in merged.tables[0].html and "<sub>k</sub>" in merged.tables[0].html
    assert "10<sup>20</sup>" in merged.tables[1].html and 'colspan="2"' in merged.tables[1].html
    assert "mineru.tables" not in merged.timings and "tables" in merged.timings
    for t in merged.tables:  # bbox in points, top-left, inside the page
        x0, y0, w, h = t.bbox
        page = merged.pages[t.page_number - 1]
        assert 0 <= x0 and x0 + w <= page.width and 0 <= y0 and y0 + h <= page.height and w > 100 and h > 20


@needs_corpus
def test_ingest_with_backend_mineru_fills_the_eight_tables(tmp_path: Path) -> None:
    folder = tmp_path / "pdfs"
    folder.mkdir()
    shutil.copy(corpus_pdf("emnlp2014_cnn_sentence.pdf"), folder)
    result = _ingest(folder, tmp_path / "data", "--backend", "mineru")
    assert result.exit_code == 0, result.output
    [row] = [json.loads(line) for line in result.stdout.splitlines() if line.startswith("{")]
    assert row["status"] == "ok" and row["pages"] == 6
    counts = _counts(tmp_path / "data")
    assert counts["metadata"] == 1 and counts["pages"] == 6
    assert all(n > 0 for n in counts.values()), counts
    from pipeline.config import load_settings
    from pipeline.store import Store

    store = Store(load_settings(data_dir=tmp_path / "data").duckdb_path)
    title = store.query("SELECT title FROM metadata")[0]["title"]
    assert title == "Convolutional Neural Networks for Sentence Classification"
    captions = [r["table_caption"] for r in store.query("SELECT table_caption FROM tables ORDER BY table_id")]
    assert captions and all(c.startswith("Table") for c in captions)


def _scanned_pdf(path: Path) -> Path:
    """A page that is only a picture of text: no text layer, as a scanner makes."""
    src = pymupdf.open()
    page = src.new_page()
    page.insert_text((72, 100), "A scanned page of a paper with no text layer at all.", fontsize=14)
    pix = page.get_pixmap(dpi=100)
    doc = pymupdf.open()
    doc.new_page().insert_image(doc[0].rect, pixmap=pix)
    doc.save(path)
    return path


def test_failures_are_per_file_and_leave_no_rows(tmp_path: Path) -> None:
    """A scanned PDF on the flash tier says what would parse it; a tier without its models says what is missing;
    neither stores a row."""
    folder = tmp_path / "pdfs"
    folder.mkdir()
    _scanned_pdf(folder / "scanned.pdf")
    result = _ingest(folder, tmp_path / "data", "--backend", "mineru")
    assert result.exit_code == 1
    [row] = [json.loads(line) for line in result.stdout.splitlines() if line.startswith("{")]
    assert row["status"] == "failed" and "no_text_layer" in row["error"] and "tier = \"basic\"" in row["error"]
    assert all(n == 0 for n in _counts(tmp_path / "data").values())

    empty_models = tmp_path / "models"
    empty_models.mkdir()
    assert not tier_status("basic", str(empty_models)).usable
    env = {"PAPERBASE_PARSE__MINERU__TIER": "basic", "PAPERBASE_PARSE__MINERU__MODELS_DIR": str(empty_models)}
    result = _ingest(folder, tmp_path / "data2", "--backend", "mineru", env=env)
    [row] = [json.loads(line) for line in result.stdout.splitlines() if line.startswith("{")]
    assert row["status"] == "failed" and "backend_unavailable" in row["error"]
    assert "mineru-models-download" in row["error"] or "missing Python modules" in row["error"]
    assert all(n == 0 for n in _counts(tmp_path / "data2").values())
