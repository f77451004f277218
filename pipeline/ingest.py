"""Ingest a folder: ledger decides what changed, backends parse in worker processes, the store replaces each
paper's rows in one short transaction. One bad file never stops the folder and never leaves partial rows."""
from __future__ import annotations

import hashlib
import multiprocessing
import time
from collections.abc import Callable, Iterable
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from pathlib import Path

import duckdb

from pipeline import pending
from pipeline.config import Settings
from pipeline.document import ParsedPaper, Status
from pipeline.parse import ParseOptions
from pipeline.store import FileRecord, Store
from pipeline.store.lock import writer_lock


@dataclass
class FileResult:
    path: str
    status: str
    paper_id: str | None = None
    error: str | None = None
    seconds: float = 0.0
    rows: dict[str, int] = field(default_factory=dict)
    pages: int = 0

    def to_json(self) -> dict:
        return {"path": self.path, "paper_id": self.paper_id, "status": self.status, "error": self.error,
                "seconds": round(self.seconds, 3), "pages": self.pages, "rows": self.rows}


@dataclass
class IngestReport:
    results: list[FileResult] = field(default_factory=list)
    seconds: float = 0.0
    stages: dict[str, dict] = field(default_factory=dict)  # downstream stage results (summarize, encode)

    def count(self, status: str) -> int:
        return sum(1 for r in self.results if r.status == status)

    @property
    def changed_paper_ids(self) -> list[str]:
        return [r.paper_id for r in self.results if r.paper_id and r.status in (Status.OK, Status.PARTIAL)]


@dataclass
class Task:
    path: Path
    sha256: str
    size: int
    mtime_ns: int
    previous: FileRecord | None


def scan(folder: Path) -> list[Path]:
    """PDF files under folder (recursively, case-insensitive extension), sorted for stable order."""
    folder = Path(folder)
    if folder.is_file():
        return [folder.resolve()]
    return sorted(p.resolve() for p in folder.rglob("*") if p.is_file() and p.suffix.lower() == ".pdf")


def sha256_file(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def plan(store: Store, paths: Iterable[Path], *, force: bool = False, retry_failed: bool = False) -> tuple[list[Task], list[FileResult]]:
    """Split paths into work to do and results for unchanged files. Size+mtime unchanged means unchanged;
    otherwise the sha256 decides (a touched but identical file is not re-parsed)."""
    known = store.ledger()
    todo: list[Task] = []
    unchanged: list[FileResult] = []
    for path in paths:
        st = path.stat()
        prev = known.get(str(path))
        settled = prev is not None and (prev.status in (Status.OK, Status.PARTIAL) or not retry_failed)
        if prev and not force and settled and prev.size == st.st_size and prev.mtime_ns == st.st_mtime_ns:
            unchanged.append(FileResult(str(path), Status.SKIPPED, prev.paper_id, prev.error))
            continue
        digest = sha256_file(path)
        if prev and not force and settled and prev.sha256 == digest:
            prev.mtime_ns, prev.size = st.st_mtime_ns, st.st_size
            store.record(prev)
            unchanged.append(FileResult(str(path), Status.SKIPPED, prev.paper_id, prev.error))
            continue
        todo.append(Task(path, digest, st.st_size, st.st_mtime_ns, prev))
    return todo, unchanged


def parse_one(path: str, options: ParseOptions) -> tuple[ParsedPaper | None, str | None, float]:
    """Worker entry point: (paper, error message, seconds). Never raises for bad input."""
    from pipeline.parse import ParseError, parse_pdf

    t0 = time.perf_counter()
    try:
        paper = parse_pdf(Path(path), options)
        return paper, None, time.perf_counter() - t0
    except ParseError as exc:
        return None, str(exc), time.perf_counter() - t0
    except Exception as exc:  # a parser bug must not take the folder down either
        return None, f"parse_error: {type(exc).__name__}: {exc}", time.perf_counter() - t0


def _ledger_rows(store: Store, where: str, params: list) -> list[dict]:
    if not store.exists():
        return []
    try:
        return store.query(f"SELECT path, sha256, paper_id, status, error, updated_at FROM ledger.files WHERE {where}", params)
    except duckdb.CatalogException:  # no ledger yet
        return []


def _handled_elsewhere(store: Store, task: Task) -> dict | None:
    """The ledger row when another process stored this very version of the file after `task` was planned."""
    rows = _ledger_rows(store, "path = ?", [str(task.path)])
    if not rows or rows[0]["sha256"] != task.sha256:
        return None
    prev = task.previous
    return rows[0] if prev is None or prev.updated_at != rows[0]["updated_at"] else None


def still_needed(store: Store, task: Task) -> bool:
    """Cheap re-plan before parsing: skip work another process finished meanwhile (store_result re-checks). Under
    the writer lock because DuckDB refuses a read-only connection in a process that has a read-write one open
    (another thread of this process may be storing)."""
    with writer_lock(store.path.parent, store.lock_timeout):
        return _handled_elsewhere(store, task) is None


def _owner(store: Store, paper_id: str, path: str) -> str | None:
    """Another existing path that already holds this paper's rows, according to the ledger now."""
    rows = _ledger_rows(store, "paper_id = ? AND path <> ? AND status IN ('ok', 'partial') ORDER BY path", [paper_id, path])
    return next((r["path"] for r in rows if Path(r["path"]).exists()), None)


def store_result(store: Store, task: Task, outcome: tuple[ParsedPaper | None, str | None, float],
                 backend: str = "pymupdf") -> FileResult:
    """Write one parse outcome (rows + ledger, or ledger only). Runs under the data dir's writer lock and re-reads
    the ledger inside it, so two processes never store the same file or the same paper twice."""
    with writer_lock(store.path.parent, store.lock_timeout):
        done = _handled_elsewhere(store, task)
        if done:
            return FileResult(str(task.path), Status.SKIPPED, str(done["paper_id"]) if done["paper_id"] else None, done["error"])
        return _store_locked(store, task, outcome, backend)


def _store_locked(store: Store, task: Task, outcome: tuple[ParsedPaper | None, str | None, float], backend: str) -> FileResult:
    paper, error, seconds = outcome
    path = str(task.path)
    record = FileRecord(path=path, sha256=task.sha256, size=task.size, mtime_ns=task.mtime_ns, backend=backend)
    prev_id = task.previous.paper_id if task.previous else None
    if paper is None:
        # Keep the previous good version's rows (nothing lost); the ledger says why this version failed.
        record.status, record.error, record.paper_id = Status.FAILED, error, prev_id
        record.timings = {"parse": seconds}
        if prev_id and task.previous.status in (Status.OK, Status.PARTIAL):
            record.error = f"{error} (rows of the previous version kept)"
        store.record(record)
        return FileResult(path, Status.FAILED, prev_id, record.error, seconds)
    pid = paper.paper_id
    owner = _owner(store, pid, path)
    if owner:
        record.status, record.paper_id = "duplicate", pid
        record.error = f"same paper (paper_id {pid}) as {owner}; not stored twice"
        store.record(record)
        return FileResult(path, "duplicate", pid, record.error, seconds)
    record.paper_id, record.status = pid, paper.status
    record.error = "; ".join(paper.errors) or None
    record.timings = {**paper.timings, "parse": seconds}
    t0 = time.perf_counter()
    counts = store.save_paper(paper, record, replaces=prev_id)
    record.timings["store"] = time.perf_counter() - t0
    return FileResult(path, paper.status, pid, record.error, seconds, counts, len(paper.pages))


def _run_parsers(tasks: list[Task], options: ParseOptions, workers: int, on_done: Callable[[Task, tuple], None]) -> None:
    """Parse tasks in worker processes; results are handed to on_done in the main process as they finish.
    A file that crashes its worker (e.g. a MuPDF segfault) twice is reported failed; the others continue."""
    if workers <= 1 or len(tasks) == 1:
        for task in tasks:
            on_done(task, parse_one(str(task.path), options))
        return
    pending = list(tasks)
    crashes: dict[str, int] = {}
    ctx = multiprocessing.get_context("spawn")  # no fork: torch/onnxruntime threads do not survive fork
    while pending:
        retry: list[Task] = []
        with ProcessPoolExecutor(max_workers=min(workers, len(pending)), mp_context=ctx) as pool:
            futures: list[tuple[Task, Future]] = [(t, pool.submit(parse_one, str(t.path), options)) for t in pending]
            for task, fut in futures:
                try:
                    outcome = fut.result()
                except BrokenProcessPool:
                    crashes[str(task.path)] = crashes.get(str(task.path), 0) + 1
                    if crashes[str(task.path)] >= 2:
                        on_done(task, (None, "parse_error: the parser process crashed on this file", 0.0))
                    else:
                        retry.append(task)
                    continue
                on_done(task, outcome)
        pending = retry


def ingest(
    folder: Path,
    settings: Settings,
    *,
    force: bool = False,
    retry_failed: bool = False,
    on_start: Callable[[int], None] | None = None,
    on_result: Callable[[FileResult], None] | None = None,
) -> IngestReport:
    """Parse and store every new or changed PDF under folder."""
    t0 = time.perf_counter()
    store = Store(settings.duckdb_path)
    if not store.exists():
        store.init()
    paths = scan(folder)
    tasks, unchanged = plan(store, paths, force=force, retry_failed=retry_failed)
    report = IngestReport(results=list(unchanged))
    if on_start:
        on_start(len(tasks))

    def done(task: Task, outcome: tuple) -> None:
        if outcome[0] is not None:  # marked before the write: a crash right after it still leaves the paper pending
            pending.add(settings.data_dir, [outcome[0].paper_id])
        result = store_result(store, task, outcome, settings.parse.backend)
        report.results.append(result)
        if on_result:
            on_result(result)

    if tasks:
        store.init()
        _run_parsers(tasks, settings.parse, settings.workers, done)
    report.results.sort(key=lambda r: r.path)
    report.seconds = time.perf_counter() - t0
    return report
