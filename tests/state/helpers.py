"""Helpers for the honest-state tests: run the real `paperbase` command in a subprocess and read back the state
(rows, vectors, ledger) of a data dir."""
from __future__ import annotations

import os
import subprocess
from pathlib import Path

from tests.flows.flowhelpers import pdf_folder as copy_pdfs
from tests.standin import stand_in_env

REPO = Path(__file__).resolve().parents[2]
CORPUS = REPO.parent / "shared" / "corpus"
BIN = REPO / ".venv" / "bin" / "paperbase"
SMALL = ["neurips2020_rag_excerpt.pdf", "icassp2024_privacy_masking_llm.pdf"]
TABLES = ["metadata", "pages", "chunks", "sections", "tables", "images", "equations", "reference"]


def pdf_folder(root: Path, names: list[str] = SMALL) -> Path:
    return copy_pdfs(root, names)


def ingested(root: Path) -> Path:
    """A folder of the SMALL papers under root/pdfs, ingested into root/data by the real command (exit 0)."""
    pdf_folder(root / "pdfs")
    done = run("ingest", "pdfs", "--data-dir", "data", cwd=root)
    assert done.returncode == 0, done.stderr[-3000:]
    return root


def env(**extra: str) -> dict[str, str]:
    base = {k: v for k, v in os.environ.items()
            if not k.startswith(("PAPERBASE_", "PREFECT_")) or k == "PAPERBASE_VECTORS__MODEL_CACHE"}
    # the stand-in for MiniLM (tests/standin.py): these tests judge the state around the vectors, not the vectors
    return {**base, "PAPERBASE_RUNNER": "library", "DO_NOT_TRACK": "1", **stand_in_env(), **extra}


def run(*args: str, cwd: Path, timeout: float = 600, **extra: str) -> subprocess.CompletedProcess:
    return subprocess.run([str(BIN), *args], cwd=cwd, env=env(**extra), capture_output=True, text=True, timeout=timeout)


def one_line_error(proc: subprocess.CompletedProcess) -> str:
    """The error line of a failed command; fails the test when a traceback reached the screen."""
    assert "Traceback" not in proc.stderr, proc.stderr[-3000:]
    lines = [l for l in proc.stderr.splitlines() if l.startswith("error:")]
    assert len(lines) == 1, proc.stderr[-3000:]
    return lines[0]


def snapshot(data: Path) -> dict:
    """Rows (primary keys per table), vectors (count per collection) and ledger (path, status, paper_id, sha256)."""
    from pipeline.config import load_settings
    from pipeline.store import Store
    from pipeline.vectors import milvus
    from schemas import database_schema

    settings = load_settings(data_dir=data)
    store = Store(settings.duckdb_path)
    rows = {}
    for table in TABLES:
        pk = database_schema().table(table).primary_key[0]
        rows[table] = sorted(r["k"] for r in store.query(f'SELECT CAST({pk} AS VARCHAR) AS k FROM "{table}"'))
    ledger = sorted((Path(r.path).name, r.status, r.paper_id, r.sha256) for r in store.ledger().values())
    with milvus.connect(settings) as client:
        vectors = {}
        for name in sorted(milvus.existing(client)):
            milvus.load(client, name)
            vectors[name] = milvus.count(client, name)
    return {"rows": rows, "vectors": vectors, "ledger": ledger}
