"""Ingest against a real DuckDB file and real corpus PDFs: idempotency, replacement, --force, atomic writes."""
import shutil

import duckdb
import pytest

from pipeline.config import load_settings
from pipeline.document import Chunk
from pipeline.ingest import ingest
from pipeline.store import Store
from tests.conftest import corpus_pdf, needs_corpus

pytestmark = needs_corpus

SMALL = ["neurips2020_rag_excerpt.pdf", "icassp2024_privacy_masking_llm.pdf"]


@pytest.fixture
def folder(tmp_path):
    src = tmp_path / "pdfs"
    src.mkdir()
    for name in SMALL:
        shutil.copy(corpus_pdf(name), src / name)
    return src


def _settings(tmp_path, workers=1):
    return load_settings(data_dir=tmp_path / "data", workers=workers)


def _count(store: Store, table: str, paper_id: str | None = None) -> int:
    key = "paper_id" if table == "metadata" else "ref_paper_id"
    sql = f'SELECT count(*) AS n FROM "{table}"' + (f" WHERE {key} = ?" if paper_id else "")
    return store.query(sql, [paper_id] if paper_id else [])[0]["n"]


def test_second_run_parses_nothing_and_changes_nothing(tmp_path, folder):
    settings = _settings(tmp_path, workers=2)  # exercises the worker pool
    first = ingest(folder, settings)
    assert [r.status for r in first.results] == ["ok", "ok"]
    store = Store(settings.duckdb_path)
    before = {t: _count(store, t) for t in ("metadata", "pages", "chunks")}
    assert before["metadata"] == 2 and before["pages"] == 3 + 5
    ledger_before = {p: (r.sha256, r.updated_at) for p, r in store.ledger().items()}

    second = ingest(folder, settings)
    assert [r.status for r in second.results] == ["skipped", "skipped"]
    assert {t: _count(store, t) for t in before} == before
    assert {p: (r.sha256, r.updated_at) for p, r in store.ledger().items()} == ledger_before


def test_touched_but_identical_file_is_not_reparsed(tmp_path, folder):
    settings = _settings(tmp_path)
    ingest(folder, settings)
    (folder / SMALL[0]).touch()
    assert [r.status for r in ingest(folder, settings).results] == ["skipped", "skipped"]


def test_changed_file_rows_are_replaced(tmp_path, folder):
    settings = _settings(tmp_path)
    first = ingest(folder, settings)
    target = str((folder / SMALL[0]).resolve())
    old_id = next(r.paper_id for r in first.results if r.path == target)
    # the same path now holds a different paper
    shutil.copy(corpus_pdf("acl2023short_teaching_small_lms.pdf"), folder / SMALL[0])
    second = ingest(folder, settings)
    by_path = {r.path: r for r in second.results}
    changed = by_path[target]
    assert changed.status == "ok" and changed.paper_id != old_id
    store = Store(settings.duckdb_path)
    assert _count(store, "pages", old_id) == 0 and _count(store, "metadata", old_id) == 0
    assert _count(store, "pages", changed.paper_id) == 7
    assert _count(store, "metadata") == 2


def test_force_reparses_everything(tmp_path, folder):
    settings = _settings(tmp_path)
    ingest(folder, settings)
    report = ingest(folder, settings, force=True)
    assert [r.status for r in report.results] == ["ok", "ok"]
    assert _count(Store(settings.duckdb_path), "metadata") == 2


def test_copy_of_same_paper_is_reported_duplicate_not_stored_twice(tmp_path, folder):
    settings = _settings(tmp_path)
    shutil.copy(folder / SMALL[0], folder / "copy_of_rag.pdf")
    report = ingest(folder, settings)
    statuses = sorted(r.status for r in report.results)
    assert statuses == ["duplicate", "ok", "ok"]
    dup = next(r for r in report.results if r.status == "duplicate")
    assert "same paper" in dup.error
    assert _count(Store(settings.duckdb_path), "metadata") == 2


def test_failed_write_leaves_no_partial_rows(tmp_path, parsed):
    """A constraint violation halfway through the inserts rolls the whole paper back."""
    settings = _settings(tmp_path)
    store = Store(settings.duckdb_path)
    store.init()
    paper = parsed(SMALL[0])
    broken = type(paper)(**{**paper.__dict__, "chunks": paper.chunks + [Chunk(1, 0, "duplicate ordinal -> duplicate id")]})
    from pipeline.store import FileRecord

    with pytest.raises(duckdb.ConstraintException):
        store.save_paper(broken, FileRecord(path="x.pdf", status="ok"))
    for table in ("metadata", "pages", "chunks"):
        assert _count(store, table) == 0
    assert store.ledger() == {}
