"""A small store for the evaluate tests: the questions of tests/data/corpus_questions.jsonl over three small corpus
PDFs, and a DuckDB (paperbase schema, empty vector store) whose metadata rows point at those PDFs — enough to fill
anchor ids from `pdf_file`, run the agent's SQL and render pages, without an ingest."""
from __future__ import annotations

import json
import uuid
from pathlib import Path

import duckdb
import pytest

from pipeline.config import Settings
from tests.conftest import REPO, SHARED

QUESTIONS = REPO / "tests" / "data" / "corpus_questions.jsonl"
PDFS = ["corpus/neurips2020_rag_excerpt.pdf", "corpus/acl2023short_teaching_small_lms.pdf", "corpus/iclr2014_vae.pdf"]


def paper_id(pdf_file: str) -> str:
    return str(uuid.uuid5(uuid.NAMESPACE_URL, pdf_file))


@pytest.fixture(scope="session")
def questions() -> list[dict]:
    every = [json.loads(line) for line in QUESTIONS.read_text(encoding="utf-8").splitlines() if line.strip()]
    return [q for q in every if q["pdf_file"] in PDFS]


@pytest.fixture(scope="session")
def store(tmp_path_factory) -> Settings:
    from pipeline.store.schema import render_ddl

    for pdf in PDFS:
        if not (SHARED / pdf).exists():
            pytest.skip(f"{SHARED / pdf} is absent (../shared/corpus sits beside the repo, not in a fresh clone)")
    data = tmp_path_factory.mktemp("evalstore")
    con = duckdb.connect(str(data / "paperbase.duckdb"))
    for stmt in render_ddl():
        con.execute(stmt)
    for pdf in PDFS:
        con.execute("INSERT INTO metadata (paper_id, title, num_pages, pdf_path) VALUES (?, ?, 20, ?)",
                    [paper_id(pdf), Path(pdf).stem, str(SHARED / pdf)])
    con.close()
    return Settings(data_dir=data)


def write_jsonl(path: Path, rows: list[dict]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


@pytest.fixture(scope="session")
def ingested(tmp_path_factory) -> Settings:
    """A real store (DuckDB + Milvus Lite, BM25 and MiniLM) of one small corpus PDF, ingested once per session."""
    import os
    import subprocess

    pdf = SHARED / "corpus" / "neurips2020_rag_excerpt.pdf"
    if not pdf.exists():
        pytest.skip(f"{pdf} is absent (../shared/corpus sits beside the repo, not in a fresh clone)")
    root = tmp_path_factory.mktemp("ingested")
    (root / "pdfs").mkdir()
    (root / "pdfs" / pdf.name).symlink_to(pdf)  # never copied
    proc = subprocess.run([str(REPO / ".venv" / "bin" / "paperbase"), "ingest", str(root / "pdfs"), "--data-dir",
                           str(root / "data")], env={**os.environ, "PAPERBASE_RUNNER": "library"}, capture_output=True,
                          text=True, timeout=600)
    if proc.returncode != 0:
        pytest.fail(f"ingest failed:\n{proc.stdout[-2000:]}\n{proc.stderr[-2000:]}")
    return Settings(data_dir=root / "data")
