"""`summarize_papers`: fill NULL summary cells (pages, sections, tables, images, tldr, tags) of DuckDB.

Reads the items in one read-only connection, produces values with the configured backend, and writes them back in
short batched transactions (`UPDATE ... WHERE col IS NULL`, so a concurrent re-ingest is never overwritten with stale
text). Failed items stay NULL and are picked up by the next run.
"""
from __future__ import annotations

import asyncio
import random
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from pipeline.store import Store, StoreError
from pipeline.summarize import offline, prompts
from pipeline.summarize.cache import Cache
from pipeline.summarize.config import SummarizeSettings
from pipeline.summarize.errors import ConfigError, RequestFailed
from pipeline.summarize.items import Item, load_items
from pipeline.summarize.report import SummarizeReport

Progress = Callable[[Item, str], None]


class _Writer:
    """Buffers (item, value) and writes them in one short DuckDB transaction per batch."""

    def __init__(self, store: Store, cache: Cache | None, report: SummarizeReport, batch_size: int, overwrite: bool):
        self.store, self.cache, self.report = store, cache, report
        self.batch_size, self.overwrite = batch_size, overwrite
        self.pending: list[tuple[Item, Any]] = []
        self.last_flush = time.monotonic()

    def add(self, item: Item, value: Any) -> None:
        self.pending.append((item, value))
        if len(self.pending) >= self.batch_size or time.monotonic() - self.last_flush > 2.0:
            self.flush()

    def flush(self) -> None:
        if self.cache is not None:
            self.cache.commit()  # cache first: a crash after this costs a DuckDB write, not a request
        self.last_flush = time.monotonic()
        if not self.pending:
            return
        batch, self.pending = self.pending, []
        groups: dict[tuple[str, str, str], list[tuple[str, Any]]] = {}
        for item, value in batch:
            groups.setdefault((item.table, item.id_column, item.column), []).append((item.row_id, value))
        guard = "" if self.overwrite else " AND t.{col} IS NULL"
        with self.store.writing() as con:
            for (table, id_col, col), rows in groups.items():
                vtype = "VARCHAR[][]" if col == "tags" else "VARCHAR[]"
                # one set-based UPDATE per column: a per-row UPDATE scans the table each time
                con.execute(f'UPDATE "{table}" t SET {col} = v.val FROM (SELECT unnest(?::VARCHAR[]) AS id, '
                            f'unnest(?::{vtype}) AS val) v WHERE t.{id_col}::VARCHAR = v.id' + guard.format(col=col),
                            [[r for r, _ in rows], [v for _, v in rows]])
        self.report.changed_paper_ids.update(item.paper_id for item, _ in batch)


def summarize_papers(settings: Any, paper_ids: list[str] | None = None, *, overwrite: bool = False,
                     columns: list[str] | None = None, transport: Any = None,
                     on_start: Callable[[int], None] | None = None, on_item: Progress | None = None) -> SummarizeReport:
    """Fill missing summaries of `paper_ids` (None: every paper). `settings` is the app Settings (data_dir +
    summarize). overwrite=True recomputes every cell (the cache keeps that cheap) and writes the ones that differ."""
    t0 = time.perf_counter()
    cfg: SummarizeSettings = settings.summarize
    report = SummarizeReport(backend=cfg.backend if cfg.backend == "openai" else offline.NAME,
                             model=cfg.model if cfg.backend == "openai" else None)
    if cfg.backend == "openai" and not cfg.base_url and not cfg.resolved_api_key():
        raise ConfigError(f"backend openai without base_url needs an API key (${cfg.api_key_env} or PAPERBASE_SUMMARIZE__API_KEY)")
    store = Store(settings.duckdb_path)
    if not store.exists():
        report.errors.append(f"no database at {settings.duckdb_path}")
        return report
    with store.reading() as con:
        items = load_items(con, paper_ids, overwrite=overwrite, columns=columns)
    if on_start is None and on_item is None:  # reached through the stage loop: the context's reporter, if any
        on_start, on_item = _context_progress(len(items))
    if on_start:
        on_start(len(items))
    try:
        if cfg.backend == "openai":
            cache = Cache(settings.data_dir / "summaries.sqlite")
            writer = _Writer(store, cache, report, cfg.batch_size, overwrite)
            try:
                _run(_remote(items, cfg, cache, writer, report, transport, on_item))
                writer.flush()
            finally:
                cache.close()
        else:
            writer = _Writer(store, None, report, cfg.batch_size, overwrite)
            for item in items:
                value = offline.summarize(item, cfg)
                _record(item, value, "empty" if value in ("", []) else "filled", writer, report, overwrite, on_item)
            writer.flush()
    except StoreError as exc:  # e.g. another process held the DuckDB lock too long; unwritten cells stay NULL
        report.aborted = f"store: {type(exc).__name__}: {exc}"
        report.errors.append(report.aborted)
    report.seconds = time.perf_counter() - t0
    return report


def _context_progress(total: int) -> tuple[Callable[[int], None] | None, Progress | None]:
    """on_start / on_item that feed the callback installed with `pipeline.summarize.progress.reporting`."""
    from pipeline.summarize.progress import current

    report = current()
    if report is None:
        return None, None
    done = 0

    def item(_item: Item, _status: str) -> None:
        nonlocal done
        done += 1
        report(done, total)

    return (lambda n: report(0, n)), item


def _record(item: Item, value: Any, status: str, writer: _Writer, report: SummarizeReport, overwrite: bool,
            on_item: Progress | None) -> None:
    if overwrite and value == item.current:
        status = "unchanged"
    else:
        writer.add(item, value)
    report.add(item.column, status)
    if on_item:
        on_item(item, status)


def _run(coro) -> None:
    """asyncio.run, also from inside a running loop (e.g. a Prefect task): then on a helper thread."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        asyncio.run(coro)
        return
    errors: list[BaseException] = []
    thread = threading.Thread(target=lambda: _capture(coro, errors))
    thread.start()
    thread.join()
    if errors:
        raise errors[0]


def _capture(coro, errors: list) -> None:
    try:
        asyncio.run(coro)
    except BaseException as exc:  # re-raised in the caller's thread
        errors.append(exc)


class _Budget:
    def __init__(self, limit: int | None):
        self.left = limit

    def take(self) -> bool:
        if self.left is None:
            return True
        if self.left <= 0:
            return False
        self.left -= 1
        return True


async def _remote(items: list[Item], cfg: SummarizeSettings, cache: Cache, writer: _Writer, report: SummarizeReport,
                  transport: Any, on_item: Progress | None) -> None:
    sem = asyncio.Semaphore(cfg.concurrency)
    started = asyncio.Semaphore(cfg.concurrency * 4)
    budget = _Budget(cfg.budget)
    state: dict[str, Any] = {"fatal": None, "streak": 0}
    render = ThreadPoolExecutor(max_workers=1)  # MuPDF is not thread-safe: one renderer thread, off the event loop
    loop = asyncio.get_running_loop()

    def done(item: Item, value: Any, status: str, error: str | None = None) -> None:
        if status in ("failed", "skipped_budget"):
            report.add(item.column, status, error and f"{item.column} {item.row_id}: {error}")
            if on_item:
                on_item(item, status)
            return
        _record(item, value, status, writer, report, writer.overwrite, on_item)

    async def one(item: Item, client: Any) -> None:
        async with started:  # bounds rendered-but-unsent figure crops held in memory
            try:
                await _one(item, client)
            except StoreError:
                raise  # the database is unwritable: stop (the cache already holds what was fetched)
            except Exception as exc:  # a bug on one item must not sink the batch
                done(item, None, "failed", f"internal error: {type(exc).__name__}: {exc}")

    async def _one(item: Item, client: Any) -> None:
        if not prompts.has_input(item, cfg):
            return done(item, [] if item.column == "tags" else "", "empty")
        png = None
        if cfg.vision and prompts.wants_image(item):
            try:
                png = await loop.run_in_executor(render, _crop, item, cfg.image_dpi)
            except Exception as exc:  # moved PDF, bbox off the page: NULL, retried next run
                return done(item, None, "failed", f"cannot crop figure: {type(exc).__name__}: {exc}")
        request = prompts.build(item, cfg, png)
        hit = cache.get(request.cache_key)
        if hit is not None:
            return done(item, hit, "cached")
        async with sem:
            value, status, error = await _attempts(item, request, cfg, client, budget, state, report)
        if value is not None:
            cache.put(request.cache_key, request.model, request.template, value)
        done(item, value, status, error)

    try:
        from pipeline.summarize import openai  # the openai SDK (about 1 s to import) only when it is used

        async with openai.make_client(cfg, transport) as client:
            await asyncio.gather(*(one(item, client) for item in items))
    finally:
        render.shutdown(wait=False)


async def _attempts(item: Item, request: prompts.Request, cfg: SummarizeSettings, client: Any,
                    budget: _Budget, state: dict, report: SummarizeReport) -> tuple[Any, str, str | None]:
    """(value, status, error) after up to 1 + retries attempts with exponential backoff and jitter."""
    last = "no attempt"
    for attempt in range(cfg.retries + 1):
        if state["fatal"]:
            return None, "failed", f"not sent: {state['fatal']}"
        if not budget.take():
            return (None, "skipped_budget", None) if attempt == 0 else (None, "failed", f"budget spent while retrying: {last}")
        report.requests += 1
        try:
            from pipeline.summarize import openai

            reply = await openai.complete(client, request.body)
            state["streak"] = 0
            value = prompts.parse_reply(item.column, reply, cfg)
            if value is None:
                return None, "failed", f"unusable reply: {reply[:80]!r}"
            return value, "filled", None
        except RequestFailed as exc:
            last = str(exc)
            if exc.fatal:
                state["fatal"] = last
                return None, "failed", last
            if not exc.retryable:
                break
            if attempt == cfg.retries:
                state["streak"] += 1
                if state["streak"] >= cfg.breaker:  # the endpoint looks down: fail the rest fast, retry next run
                    state["fatal"] = f"stopped after {state['streak']} consecutive failed items, last: {last}"
                break
            delay = exc.retry_after if exc.retry_after is not None else cfg.backoff_s * 2 ** attempt * (0.5 + random.random())
            await asyncio.sleep(min(delay, cfg.max_backoff_s))
    return None, "failed", f"{last} (after {attempt + 1} attempt(s))"


def _crop(item: Item, dpi: int) -> bytes:
    from pipeline.render import crop_png

    return crop_png(item.pdf_path, item.page_number, item.bbox, dpi)
