"""The offline backend through the stage: fills every column, makes no network call, is idempotent."""
from __future__ import annotations

import re
import time

from pipeline.summarize import summarize_papers
from tests.conftest import corpus_pdf, needs_corpus
from tests.summarize.sumdb import IMAGES, N_ITEMS, PAPER, settings_for, values


def test_offline_fills_every_column_without_network(db, no_network):
    report = summarize_papers(settings_for(db))
    assert report.status == "ok" and report.requests == 0
    assert sum(sum(c.values()) for c in report.counts.values()) == N_ITEMS
    got = values(db)
    for column, vals in got.items():
        assert all(v is not None for v in vals), column
    assert got["table_summary"][0].startswith("Table 1: Denotation accuracy")
    assert "Columns: Model, WikiSQL, SQA" in got["table_summary"][0]
    assert "Table 1 compares denotation accuracy" in got["table_summary"][0]  # the citing sentence
    fig = {r for r in got["image_summary"]}
    assert "" in fig  # the uncaptioned, unmentioned figure: nothing to extract, stored as "" (not retried)
    assert any(v.startswith("Figure 1: TAPAS model architecture") and "As Figure 1 shows" in v for v in fig)
    assert len(got["tldr"][0]) <= 80 and got["tldr"][0].startswith("We present TAPAS")
    assert len(got["tags"][0]) == 5
    assert report.changed_paper_ids == {PAPER}


def test_offline_is_idempotent_and_backfills_only_null(db):
    settings = settings_for(db)
    summarize_papers(settings)
    first = values(db)
    again = summarize_papers(settings)
    assert again.counts == {} and again.changed_paper_ids == set()
    from pipeline.store import Store

    with Store(db / "paperbase.duckdb").writing() as con:
        con.execute("UPDATE images SET image_summary = NULL WHERE image_id = ?", [IMAGES[0]])
        con.execute("UPDATE metadata SET tags = NULL")
    third = summarize_papers(settings)
    assert {c: sum(v.values()) for c, v in third.counts.items()} == {"image_summary": 1, "tags": 1}
    assert values(db) == first


def test_paper_filter_and_missing_db(db, tmp_path):
    report = summarize_papers(settings_for(db), ["00000000-0000-0000-0000-00000000ffff"])
    assert report.counts == {}
    report = summarize_papers(settings_for(db), [PAPER], columns=["tldr", "tags"])
    assert {c: sum(v.values()) for c, v in report.counts.items()} == {"tldr": 1, "tags": 1}
    missing = summarize_papers(settings_for(tmp_path / "nowhere"))
    assert missing.status == "failed" and "no database" in missing.errors[0]


@needs_corpus
def test_offline_on_ingested_corpus_pdfs(tmp_path, no_network):
    """Real PDFs: after ingest + offline summarize no summary cell is NULL, and it is quick."""
    from pipeline.config import Settings
    from pipeline.ingest import ingest
    from pipeline.store import Store

    folder = tmp_path / "pdfs"
    folder.mkdir()
    for name in ("acl2020_tapas.pdf", "neurips2017_attention.pdf"):
        (folder / name).symlink_to(corpus_pdf(name))
    settings = Settings(data_dir=tmp_path / "data", workers=1)
    ingest(folder, settings)
    t0 = time.perf_counter()
    report = summarize_papers(settings)
    assert time.perf_counter() - t0 < 15
    assert report.status == "ok" and report.requests == 0
    store = Store(settings.duckdb_path)
    for table, column in (("pages", "page_summary"), ("sections", "section_summary"), ("tables", "table_summary"),
                          ("images", "image_summary"), ("metadata", "tldr"), ("metadata", "tags")):
        assert store.query(f"SELECT count(*) AS n FROM {table} WHERE {column} IS NULL")[0]["n"] == 0, column
    for row in store.query("SELECT tldr, tags FROM metadata"):
        assert 0 < len(row["tldr"]) <= 80 and len(row["tags"]) == 5
    # a table's summary is its caption, header and citing sentences: no section heading above a citing sentence
    # ("5 Experiments 5.1 Datasets We experiment ... (see Table 2)" was stored before)
    rows = store.query("SELECT t.table_summary, list(s.section_title) AS titles FROM tables t JOIN sections s "
                       "ON s.ref_paper_id = t.ref_paper_id GROUP BY ALL")
    numbered = [(r["table_summary"], t) for r in rows for t in r["titles"] if re.match(r"\d+(\.\d+)*\s+\w", t)]
    assert numbered and not [(summary, t) for summary, t in numbered if t in summary]
    tapas = store.query("SELECT table_summary FROM tables WHERE table_caption LIKE 'Table 2: Dataset statistics%'")
    assert "We experiment with the following semantic parsing datasets" in tapas[0]["table_summary"]
