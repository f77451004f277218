"""The ingest flows: one folder on demand (`ingest_folder`, what `paperbase ingest` runs) and the watched folders on a
schedule (`watch_folders`, what `paperbase serve` deploys). Both plan with the ledger, run one `ingest-pdf` task per
new or changed PDF, then the summarize and encode stages for what changed (or was left pending by a crash)."""
from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from prefect import flow, get_run_logger
from prefect.futures import as_completed

from pipeline import pending
from pipeline import stages as pipeline_stages
from flows.tasks import ParserCrashed, ParserPool, encode_stage, ingest_pdf, is_transient, record_failure, summarize_stage
from pipeline.config import Settings, load_settings
from pipeline.document import Status
from pipeline.ingest import FileResult, IngestReport, plan, scan
from pipeline.store import Store

STAGES = list(pipeline_stages.STAGES)

# Progress callbacks of the in-process caller (the CLI's progress bar); flow parameters must stay JSON.
_on_start: Callable[[int], None] | None = None
_on_result: Callable[[FileResult], None] | None = None


@contextmanager
def listening(on_start: Callable[[int], None] | None, on_result: Callable[[FileResult], None] | None) -> Iterator[None]:
    global _on_start, _on_result
    _on_start, _on_result = on_start, on_result
    try:
        yield
    finally:
        _on_start = _on_result = None


def _settings(data_dir: str | None, workers: int | None) -> Settings:
    # Only data_dir and workers travel as parameters: the rest comes from env/TOML where the run executes, so
    # secrets (e.g. a summarizer API key) never land in Prefect's database.
    return load_settings(data_dir=Path(data_dir) if data_dir else None, workers=workers)


def _failed(work, settings: Settings, exc: BaseException) -> FileResult:
    if isinstance(exc, ParserCrashed):  # final: recorded, so later runs do not crash on it again
        return record_failure(work, settings, "parse_error: the parser process crashed on this file")
    # Transient trouble that outlasted the retries, or a bug: reported, not recorded, so the next run tries again.
    kind = "transient" if is_transient(exc) else "error"
    return FileResult(str(work.path), Status.FAILED, None, f"{kind}: {type(exc).__name__}: {exc}")


def ingest_paths(paths: list[Path], settings: Settings, *, force: bool = False, retry_failed: bool = False,
                 stages: list[str] | None = None) -> dict:
    """Flow body shared by both flows (call it inside a flow run)."""
    t0 = time.perf_counter()
    store = Store(settings.duckdb_path)
    if not store.exists():
        store.init()
    tasks, unchanged = plan(store, paths, force=force, retry_failed=retry_failed)
    report = IngestReport(results=list(unchanged))
    if _on_start:
        _on_start(len(tasks))
    if tasks:
        store.init()
        parser = ParserPool(settings.parse, settings.workers)
        try:
            futures = {ingest_pdf.submit(work, settings, parser): work for work in tasks}
            for fut in as_completed(list(futures)):
                work = futures[fut]
                outcome = fut.result(raise_on_failure=False)
                result = outcome if isinstance(outcome, FileResult) else _failed(work, settings, outcome)
                report.results.append(result)
                if _on_result:
                    _on_result(result)
        finally:
            parser.close()
    report.results.sort(key=lambda r: r.path)
    report.seconds = time.perf_counter() - t0
    return {"files": [r.to_json() for r in report.results], "stages": run_stages(settings, stages),
            "seconds": round(report.seconds, 3)}


def run_stages(settings: Settings, stages: list[str] | None) -> dict:
    """Summaries then vectors for every pending paper. The stages fill in only what is missing or stale, so they
    run over the whole database (paper_ids=None): this also finishes work a crashed run left behind."""
    todo = pending.load(settings.data_dir)
    stages = STAGES if stages is None else stages
    if not todo or not stages:
        return {}
    out: dict = {}
    for name, stage in (("summarize", summarize_stage), ("encode", encode_stage)):
        if name not in stages:
            continue
        state = stage(settings, None, return_state=True)
        out[name] = state.result(raise_on_failure=False)
        if isinstance(out[name], BaseException):
            get_run_logger().warning("%s stage failed: %s (papers stay pending for the next run)", name, out[name])
            out[name] = {"status": "failed", "error": f"{type(out[name]).__name__}: {out[name]}"}
    if all(isinstance(v, dict) and v.get("status") in ("ok", "partial", "skipped") for v in out.values()):
        pending.discard(settings.data_dir, todo)
    return out


@flow(name="ingest-folder", flow_run_name="ingest {folder}", log_prints=True)
def ingest_folder(folder: str, data_dir: str | None = None, force: bool = False, retry_failed: bool = False,
                  workers: int | None = None, stages: list[str] | None = None) -> dict:
    """Parse and store every new or changed PDF under `folder`, then summarize and encode what changed."""
    settings = _settings(data_dir, workers)
    return ingest_paths(scan(Path(folder)), settings, force=force, retry_failed=retry_failed, stages=stages)


@flow(name="watch-folders", log_prints=True)
def watch_folders(folders: list[str], data_dir: str | None = None, workers: int | None = None,
                  stages: list[str] | None = None) -> dict:
    """Scheduled ingestion: pick up new or changed PDFs in the watched folders (a missing folder is skipped)."""
    settings = _settings(data_dir, workers)
    paths: set[Path] = set()
    for folder in folders:
        if Path(folder).exists():
            paths.update(scan(Path(folder)))
        else:
            get_run_logger().warning("watched folder %s does not exist (yet); skipped", folder)
    return ingest_paths(sorted(paths), settings, stages=stages)
