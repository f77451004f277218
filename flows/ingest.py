"""The ingest flows: one folder on demand (`ingest_folder`, what `paperbase ingest` runs) and the watched folders on a
schedule (`watch_folders`, what `paperbase serve` deploys). Both are the pipeline's one runner (`pipeline.ingest.ingest`)
with Prefect underneath: each PDF's step runs as an `ingest-pdf` task and each downstream stage as a task, so retries,
concurrency and the UI come from Prefect while the loop, the ledger and the pending list stay in the pipeline."""
from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from prefect import flow, get_run_logger
from prefect.futures import as_completed

from flows.tasks import encode_stage, ingest_pdf, summarize_stage
from pipeline.config import Settings, load_settings
from pipeline.ingest import FileResult, Task, ingest, scan
from pipeline.stages import STAGES, StageFn
from pipeline.workers import STOP, ParserPool

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


def _settings(data_dir: str | None, workers: int | None, overrides: dict | None = None) -> Settings:
    # The caller's explicit overrides (CLI flags: `Settings.overrides`) travel as a parameter and go on top of the
    # env/TOML where the run executes, so the run uses the settings the command was given; secrets are never among
    # them (they come from the environment here), so none lands in Prefect's database.
    return load_settings(**{**(overrides or {}), "data_dir": Path(data_dir) if data_dir else None,
                            "workers": workers if workers is not None else (overrides or {}).get("workers")})


def _as_tasks(settings: Settings, parser: ParserPool):
    """The runner's executor: one `ingest-pdf` task per PDF, results as they complete (a task that failed for good
    yields its exception; the runner reports it without recording it, so the next run tries the file again)."""
    def run(step, tasks: list[Task]):
        futures = {ingest_pdf.submit(work, settings, parser): work for work in tasks}
        finished = False
        try:
            for fut in as_completed(list(futures)):
                yield futures[fut], fut.result(raise_on_failure=False)
            finished = True
        finally:  # interrupted (Ctrl-C, SIGTERM): files not started are dropped, the ones in flight finish
            if not finished:
                STOP.set()  # task threads already waiting for a parser slot give up instead of parsing
            for fut in futures:
                wrapped = getattr(fut, "wrapped_future", None)
                if wrapped is not None:
                    wrapped.cancel()

    return run


def _stage_task(name: str, fn: StageFn, settings: Settings) -> dict:
    """The runner's stage runner: the stage as a Prefect task with retries (over every paper: this also finishes
    work a crashed run left behind)."""
    stage = {"summarize": summarize_stage, "encode": encode_stage}[name]
    out = stage(settings, None, return_state=True).result(raise_on_failure=False)
    if isinstance(out, BaseException):
        get_run_logger().warning("%s stage failed: %s (papers stay pending for the next run)", name, out)
        raise out
    return out


def ingest_paths(paths: list[Path], settings: Settings, *, force: bool = False, retry_failed: bool = False,
                 stages: list[str] | None = None) -> dict:
    """Flow body shared by both flows (call it inside a flow run)."""
    parser = ParserPool(settings.parse, settings.workers)
    report = ingest(paths, settings, force=force, retry_failed=retry_failed,
                    stages=list(STAGES) if stages is None else stages, on_start=_on_start, on_result=_on_result,
                    executor=_as_tasks(settings, parser), stage_runner=_stage_task, parser=parser)
    return {"files": [r.to_json() for r in report.results], "stages": report.stages, "seconds": round(report.seconds, 3)}


@flow(name="ingest-folder", flow_run_name="ingest {folder}", log_prints=True)
def ingest_folder(folder: str, data_dir: str | None = None, force: bool = False, retry_failed: bool = False,
                  workers: int | None = None, stages: list[str] | None = None, overrides: dict | None = None) -> dict:
    """Parse and store every new or changed PDF under `folder`, then summarize and encode what changed, with the
    settings of `data_dir` (env, TOML) under the caller's `overrides`."""
    settings = _settings(data_dir, workers, overrides)
    return ingest_paths(scan(Path(folder)), settings, force=force, retry_failed=retry_failed, stages=stages)


@flow(name="watch-folders", log_prints=True)
def watch_folders(folders: list[str], data_dir: str | None = None, workers: int | None = None,
                  stages: list[str] | None = None, overrides: dict | None = None) -> dict:
    """Scheduled ingestion: pick up new or changed PDFs in the watched folders (a missing folder is skipped)."""
    import time

    settings = _settings(data_dir, workers, overrides)
    paths: set[Path] = set()
    for folder in folders:
        if Path(folder).exists():
            paths.update(scan(Path(folder)))
        else:
            get_run_logger().warning("watched folder %s does not exist (yet); skipped", folder)
    known, t0 = _known_paths(settings), time.perf_counter()
    out = ingest_paths(sorted(paths), settings, stages=stages)
    _say(run_summary(out, known, time.perf_counter() - t0))
    return out


def _known_paths(settings: Settings) -> set[str]:
    from pipeline.store import Store

    store = Store(settings.duckdb_path)
    return {str(p) for p in store.ledger()} if store.exists() else set()


def run_summary(out: dict, known: set[str], seconds: float) -> str:
    """One line per scheduled run: new and changed files parsed, failures, unchanged ones, stage trouble, time."""
    files = out["files"]
    parsed = [f for f in files if f["status"] not in ("skipped", "failed", "missing")]
    new = sum(f["path"] not in known for f in parsed)
    failed = sum(f["status"] == "failed" for f in files)
    unchanged = sum(f["status"] == "skipped" for f in files)
    trouble = [f"{name} {o.get('status')}" for name, o in (out.get("stages") or {}).items()
               if isinstance(o, dict) and o.get("status") not in (None, "ok", "unchanged", "skipped")]
    return (f"run: {new} new, {len(parsed) - new} changed, {failed} failed, {unchanged} unchanged"
            f"{'; ' + ', '.join(trouble) if trouble else ''}; took {seconds:.1f} s")


def _say(line: str) -> None:
    """Straight to the terminal of `paperbase serve` (the run's process inherits it): Prefect's console handler shows
    warnings only (flows/env.py), and this line is the run's news, not a warning. The run log gets it too."""
    import sys
    from datetime import datetime

    print(f"{datetime.now():%H:%M:%S} {line}", file=sys.__stderr__, flush=True)
    get_run_logger().info(line)
