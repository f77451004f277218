"""The downstream stages after parse + store, as plain functions (summaries, then vectors), and the one loop that
runs them for the pending papers.

Both stages work over whatever is missing or stale in the database, so they are idempotent. `run_downstream` runs the
chosen stages when any paper is pending (stored but not yet through every stage) and removes a paper from the list
only when its state (`pipeline.state`) shows every enabled stage done for it, so a run interrupted between stages, or
one whose summaries failed, is finished by the next one. A stage that hit transient trouble
raises `RetryableError` (the Prefect wrapping retries it); the loop records any exception as that stage's failure.
"""
from __future__ import annotations

from collections.abc import Callable
from contextlib import nullcontext

from pipeline import pending
from pipeline.config import Settings
from pipeline.locks import milvus_lock, uses_milvus_lite
from pipeline.results import RetryableError, Status

STAGES = ("summarize", "encode")

StageFn = Callable[..., dict]
# (stage name, stage function, settings) -> result dict; the Prefect flows pass one that runs the function as a task
StageRunner = Callable[[str, StageFn, Settings], dict]


def summarize(settings: Settings, paper_ids: list[str] | None = None) -> dict:
    """Fill missing summaries, tldr and tags (None: every paper)."""
    from pipeline.summarize import summarize_papers

    report = summarize_papers(settings, paper_ids)
    if report.aborted:  # the store stayed busy: what was fetched is cached, the rest waits for a retry
        raise RetryableError(f"summaries: {report.aborted}")
    return report.to_json()


def encode(settings: Settings, paper_ids: list[str] | None = None, collections: list[str] | None = None,
           rebuild: bool = False) -> dict:
    """Encode stale papers (or drop and rebuild collections). Milvus Lite serves one process per store, so a Lite
    session runs under the data dir's Milvus lock; a Milvus server needs none."""
    from pipeline import vectors

    lite = uses_milvus_lite(settings.vectors.milvus_uri)
    with milvus_lock(settings.data_dir) if lite else nullcontext():
        if rebuild:
            reports = [vectors.rebuild(settings, name) for name in (collections or [None])]
        else:
            reports = [vectors.encode_papers(settings, paper_ids, collections=collections)]
    if any(r.retryable for r in reports):
        raise RetryableError(f"vectors: {next(e for r in reports for e in r.all_errors())}")
    out: dict = {"status": Status.OK.value, "collections": [], "errors": []}
    for rep in reports:
        data = rep.to_json()
        out["collections"] += data["collections"]
        out["errors"] += data["errors"]
        if data["status"] != Status.OK:
            out["status"] = data["status"]
    return out


RUNNERS: dict[str, StageFn] = {"summarize": summarize, "encode": encode}


def call(name: str, fn: StageFn, settings: Settings) -> dict:
    """The plain stage runner: call the function (over every paper: this also finishes a crashed run's work)."""
    return fn(settings, None)


def run_downstream(settings: Settings, stages: tuple[str, ...] | list[str] = STAGES,
                   on_stage: Callable[[str], None] | None = None, runner: StageRunner | None = None) -> dict[str, dict]:
    """Run the chosen stages if any paper is pending; {stage: result dict}."""
    todo = pending.load(settings.data_dir)
    if not todo or not stages:
        return {}
    out: dict[str, dict] = {}
    for name in STAGES:
        if name not in stages or (name == "summarize" and not settings.summarize.enabled):
            continue
        if on_stage:
            on_stage(name)
        try:
            out[name] = (runner or call)(name, RUNNERS[name], settings)
        except Exception as exc:  # the papers stay pending; the next run retries the stage
            out[name] = {"status": Status.FAILED.value, "errors": [f"{type(exc).__name__}: {exc}"]}
    # a paper leaves the pending list only when every enabled stage is done for it (summaries that failed stay
    # pending, so the next run retries them and encodes what they add)
    from pipeline.state import paper_states

    states = paper_states(settings, todo)
    pending.discard(settings.data_dir, {p for p, st in states.items() if st.finished or not st.stored})
    return out


__all__ = ["STAGES", "RUNNERS", "StageRunner", "summarize", "encode", "call", "run_downstream"]
