"""Stores for the agent tests: a tiny hand-made DuckDB (no models, no corpus) and a real store ingested once per
session from three small corpus PDFs (skipped when ../shared/corpus is absent)."""
from __future__ import annotations

import os
import subprocess
from pathlib import Path

import duckdb
import pytest

from pipeline.config import Settings
from tests.conftest import CORPUS, REPO

PAPER = "11111111-2222-5333-8444-555555555555"
CORPUS_PDFS = ["neurips2020_rag_excerpt.pdf", "icassp2024_privacy_masking_llm.pdf", "acl2023short_teaching_small_lms.pdf"]


@pytest.fixture(scope="session")
def mini_settings(tmp_path_factory) -> Settings:
    """A DuckDB with the paperbase schema and one paper of 3 pages (its PDF path does not exist)."""
    from pipeline.store.schema import render_ddl

    data = tmp_path_factory.mktemp("mini")
    con = duckdb.connect(str(data / "paperbase.duckdb"))
    for stmt in render_ddl():
        con.execute(stmt)
    con.execute("INSERT INTO metadata (paper_id, title, num_pages, pdf_path) VALUES (?, 'A Mini Paper', 3, ?)",
                [PAPER, str(data / "missing.pdf")])
    for n in range(1, 4):
        con.execute("INSERT INTO pages (page_id, page_number, page_content, ref_paper_id) VALUES (uuid(), ?, ?, ?)",
                    [n, f"Content of page {n} — with a slash / and ünïcode.", PAPER])
    for i in range(15):
        con.execute("INSERT INTO chunks (chunk_id, text_content, ordinal, ref_paper_id) VALUES (uuid(), ?, ?, ?)",
                    [("word " * 5000) if i == 0 else f"chunk {i}", i, PAPER])
    con.close()
    return Settings(data_dir=data)


def _ingest(pdfs: list[str], data: Path) -> None:
    src = data.parent / (data.name + "-pdfs")
    src.mkdir()
    for name in pdfs:
        path = CORPUS / name
        if not path.exists():
            pytest.skip(f"corpus PDF {path} is absent")
        (src / name).symlink_to(path)  # never copied
    env = {**os.environ, "PAPERBASE_RUNNER": "library"}
    proc = subprocess.run([str(REPO / ".venv" / "bin" / "paperbase"), "ingest", str(src), "--data-dir", str(data)],
                          env=env, capture_output=True, text=True, timeout=900)
    if proc.returncode != 0:
        pytest.fail(f"ingest failed:\n{proc.stdout[-2000:]}\n{proc.stderr[-2000:]}")


@pytest.fixture(scope="session")
def corpus_settings(tmp_path_factory) -> Settings:
    """A real store (DuckDB + Milvus Lite, BM25 and MiniLM) of three small corpus PDFs, ingested once per session."""
    if not CORPUS.is_dir():
        pytest.skip(f"corpus folder {CORPUS} is absent (it sits beside the repo in CI, not in a fresh clone)")
    from tests.conftest import built_once

    root = built_once(tmp_path_factory, "agent-corpus", lambda folder: _ingest(CORPUS_PDFS, folder / "data"))
    return Settings(data_dir=root / "data")
