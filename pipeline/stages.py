"""The downstream stages after parse + store, as plain functions: summaries, then vectors.

Both run over whatever is missing or stale in the database, so they are idempotent; `run_downstream` runs them
for the papers listed as pending (stored but not yet through every stage) and clears the list only when every
stage succeeded, so a run interrupted between stages is finished by the next one. The Prefect flows wrap the
same functions as tasks with retries.
"""
from __future__ import annotations

from collections.abc import Callable
from contextlib import nullcontext

from pipeline import pending
from pipeline.config import Settings
from pipeline.locks import milvus_lock, uses_milvus_lite

STAGES = ("summarize", "encode")
DONE = ("ok", "partial", "skipped", "unchanged")


def summarize(settings: Settings, paper_ids: list[str] | None = None) -> dict:
    """Fill missing summaries, tldr and tags (None: every paper)."""
    from pipeline.summarize import summarize_papers

    report = summarize_papers(settings, paper_ids)
    out = report.to_json()
    out["aborted"] = report.aborted
    return out


def encode(settings: Settings, paper_ids: list[str] | None = None, collections: list[str] | None = None,
           rebuild: bool = False) -> dict:
    """Encode stale papers (or drop and rebuild collections). Milvus Lite serves one process per store, so a Lite
    session runs under the data dir's Milvus lock; a Milvus server needs none."""
    from pipeline import vectors as index

    lite = uses_milvus_lite(settings.vectors.milvus_uri)
    with milvus_lock(settings.data_dir) if lite else nullcontext():
        if rebuild:
            reports = [index.rebuild(settings, name) for name in (collections or [None])]
        else:
            reports = [index.encode_papers(settings, paper_ids, collections=collections)]
    out: dict = {"status": "ok", "collections": [], "errors": []}
    for rep in reports:
        data = rep.to_json()
        out["collections"] += data["collections"]
        out["errors"] += data["errors"]
        if data["status"] != "ok":
            out["status"] = data["status"]
    return out


RUNNERS: dict[str, Callable[[Settings], dict]] = {"summarize": summarize, "encode": encode}


def run_downstream(settings: Settings, stages: tuple[str, ...] | list[str] = STAGES,
                   on_stage: Callable[[str], None] | None = None) -> dict[str, dict]:
    """Run the chosen stages if any paper is pending; {stage: result dict}."""
    todo = pending.load(settings.data_dir)
    if not todo or not stages:
        return {}
    out: dict[str, dict] = {}
    for name in STAGES:
        if name not in stages:
            continue
        if on_stage:
            on_stage(name)
        try:
            out[name] = RUNNERS[name](settings)
        except Exception as exc:  # the papers stay pending; the next run retries the stage
            out[name] = {"status": "failed", "errors": [f"{type(exc).__name__}: {exc}"]}
    if all(r.get("status") in DONE and not r.get("aborted") for r in out.values()):
        pending.discard(settings.data_dir, todo)
    return out
