"""What the CLI calls to run the flows: `paperbase ingest` as one flow run, `paperbase serve` as deployments."""
from __future__ import annotations

import logging
import os
import signal
import sys
from collections.abc import Callable
from contextlib import contextmanager
from pathlib import Path

from flows.env import ensure_api
from pipeline.config import Settings
from pipeline.ingest import FileResult, IngestReport
from pipeline.results import Status

# Downstream stages after parse + store, as a comma list ("summarize,encode"; empty: parse + store only). Both
# `paperbase ingest` and served scheduled runs do the whole pipeline unless it is set.
STAGES_ENV = "PAPERBASE_STAGES"


def stages_from_env(default: list[str] | None) -> list[str] | None:
    raw = os.environ.get(STAGES_ENV)
    if raw is None:
        return default
    return [s.strip() for s in raw.split(",") if s.strip() and s.strip().lower() != "none"]


class _NoTraceback(logging.Filter):
    """Prefect logs a flow or task run that raised with its traceback; the exception reaches the CLI anyway, which
    says it in one line and keeps the traceback in paperbase.log. So on the screen the record keeps its message and
    loses the traceback."""

    def filter(self, record: logging.LogRecord) -> bool:
        record.exc_info, record.exc_text = None, None
        return True


@contextmanager
def _tracebacks_to_the_log():
    names = ("prefect.flow_runs", "prefect.task_runs", "prefect.flow_engine", "prefect.task_engine")
    quiet = _NoTraceback()
    for name in names:
        logging.getLogger(name).addFilter(quiet)
    try:
        yield
    finally:
        for name in names:
            logging.getLogger(name).removeFilter(quiet)


def run_ingest(folder: Path, settings: Settings, *, force: bool = False, retry_failed: bool = False,
               on_start: Callable[[int], None] | None = None,
               on_result: Callable[[FileResult], None] | None = None,
               stages: list[str] | None = None) -> IngestReport:
    """`paperbase ingest` as one `ingest-folder` flow run (ephemeral Prefect unless PREFECT_API_URL is set)."""
    from flows.ingest import ingest_folder, listening

    ensure_api()
    with listening(on_start, on_result), _tracebacks_to_the_log():
        out = ingest_folder(str(Path(folder).resolve()), data_dir=str(settings.data_dir.resolve()), force=force,
                            retry_failed=retry_failed, workers=settings.workers,
                            stages=stages if stages is not None else stages_from_env(None),
                            overrides=settings.overrides)
    files = [FileResult(**{**r, "status": Status(r["status"])}) for r in out["files"]]
    return IngestReport(results=files, seconds=out["seconds"], stages=out.get("stages") or {})


def serve(folders: list[Path], settings: Settings, *, cron: str | None = None, interval: float | None = None,
          name: str = "paperbase", port: int | None = None) -> None:
    """Serve the scheduled `watch-folders` deployment (plus an unscheduled `rebuild-collections` one) until
    interrupted. Uses PREFECT_API_URL when set, else a local Prefect server for as long as this runs."""
    from prefect import serve as prefect_serve
    from prefect.deployments.runner import EntrypointType

    from flows.ingest import watch_folders
    from flows.rebuild import rebuild_collections
    from flows.server import prefect_api

    # SIGTERM (docker stop, a test) must unwind through prefect_api's cleanup, or the local server is orphaned.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    data_dir = str(settings.data_dir.resolve())
    params = {"folders": [str(Path(f).resolve()) for f in folders], "data_dir": data_dir,
              "workers": settings.workers, "stages": stages_from_env(None), "overrides": settings.overrides}
    with prefect_api(settings.data_dir, port) as url:
        print(f"Prefect API {url} (UI: {url.removesuffix('/api')})", file=sys.stderr, flush=True)
        watch = watch_folders.to_deployment(name=f"{name}-watch", cron=cron, interval=interval, parameters=params,
                                            entrypoint_type=EntrypointType.MODULE_PATH)
        rebuild = rebuild_collections.to_deployment(name=f"{name}-rebuild", parameters={"data_dir": data_dir},
                                                    entrypoint_type=EntrypointType.MODULE_PATH)
        prefect_serve(watch, rebuild, limit=1)  # one run at a time: later ticks wait instead of piling up
