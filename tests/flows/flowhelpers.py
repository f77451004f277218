"""Helpers shared by the flow tests (import as tests.flows.flowhelpers)."""
from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from tests.standin import stand_in_env

REPO = Path(__file__).resolve().parents[2]
CORPUS = REPO.parent / "shared" / "corpus"
BIN = REPO / ".venv" / "bin"
SMALL = ["emnlp2014_cnn_sentence.pdf", "icassp2024_privacy_masking_llm.pdf", "acl2023short_teaching_small_lms.pdf",
         "neurips2020_rag_excerpt.pdf"]


def pdf_folder(root: Path, names: list[str]) -> Path:
    missing = [n for n in names if not (CORPUS / n).exists()]
    if missing:
        pytest.skip(f"corpus PDFs {missing} are absent from {CORPUS}")
    root.mkdir(parents=True, exist_ok=True)
    for name in names:
        shutil.copy(CORPUS / name, root / name)
    return root


def ledger(data_dir: Path) -> dict[str, dict]:
    from pipeline.store import Store

    return {r.path: {"status": r.status, "paper_id": r.paper_id, "error": r.error}
            for r in Store(data_dir / "paperbase.duckdb").ledger().values()}


def paper_ids(data_dir: Path) -> list[str]:
    from pipeline.store import Store

    return [str(r["paper_id"]) for r in Store(data_dir / "paperbase.duckdb").query("SELECT paper_id FROM metadata")]


def subprocess_env(api_url: str | None, **extra: str) -> dict[str, str]:
    """Environment for paperbase child processes: quiet, telemetry off, pointed at the test server if given."""
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("PREFECT_", "PAPERBASE_")) or k == "PAPERBASE_VECTORS__MODEL_CACHE"}
    env.update(DO_NOT_TRACK="1", PREFECT_SERVER_ANALYTICS_ENABLED="false", PAPERBASE_STAGES="", **stand_in_env(),
               **extra)  # the stand-in for MiniLM (tests/standin.py): flows are judged by their runs, not vectors
    if api_url:
        env["PREFECT_API_URL"] = api_url
    return env


def crash_on_bad(path: str, options) -> tuple:
    """A parse function for spawned parser processes: dies like a segfaulting parser on files named bad*.pdf."""
    if Path(path).name.startswith("bad"):
        os._exit(139)
    from pipeline.ingest import parse_one

    return parse_one(path, options)
