"""The rebuild flow: drop and re-encode chosen vector collections from DuckDB (e.g. after a model change)."""
from __future__ import annotations

from pathlib import Path

from prefect import flow

from flows.tasks import encode_stage
from pipeline.config import load_settings


@flow(name="rebuild-collections", log_prints=True)
def rebuild_collections(collections: list[str] | None = None, data_dir: str | None = None) -> dict:
    """Re-encode `collections` (None: every enabled collection) from the rows in DuckDB."""
    settings = load_settings(data_dir=Path(data_dir) if data_dir else None)
    return encode_stage(settings, None, collections, rebuild=True)
