"""The one ingest runner: the ledger decides what changed, `ingest_file` parses one PDF (in the worker pool) and
stores it (one short transaction), `ingest` runs it over a folder and then the downstream stages for what is pending.

One bad file never stops the folder and never leaves partial rows. The Prefect flows reuse this runner unchanged: they
pass an `executor` that runs `ingest_file` as a task per PDF and a `stage_runner` that runs each downstream stage as a
task (retries, concurrency, UI); they own no loop of their own.
"""
from __future__ import annotations

import errno
import hashlib
import os
import stat
import time
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import ThreadPoolExecutor, as_completed
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

import duckdb

from pipeline import pending, stages as downstream
from pipeline.config import Settings
from pipeline.document import ParsedPaper
from pipeline.locks import writer_lock
from pipeline.paths import from_db, to_db
from pipeline.results import RetryableError, StageResult, Status
from pipeline.store import FileRecord, Store
from pipeline.workers import STOP, Outcome, ParserPool, parse_one


@dataclass(kw_only=True)
class FileResult(StageResult):
    """Parse + store of one PDF. `error` is the one-line reason (failed, partial or duplicate)."""

    path: str
    status: Status
    paper_id: str | None = None
    error: str | None = None
    rows: dict[str, int] = field(default_factory=dict)
    pages: int = 0
    ocr_pages: dict[int, str] = field(default_factory=dict)  # page number -> why its text was read by OCR
    previous: Status | None = None  # for a skipped (unchanged) file: the status its last parse left
    stages: dict[str, str] = field(default_factory=dict)  # the paper's downstream state after the run (summaries, vectors)
    _ledger: FileRecord | None = field(default=None, repr=False)  # what the runner records for a file plan refused

    @property
    def problem(self) -> bool:
        """Counts against the run: failed or partial now, or unchanged since a failed or partial parse."""
        state = self.previous if self.status == Status.SKIPPED else self.status
        return state in (Status.FAILED, Status.PARTIAL)


@dataclass(kw_only=True)
class IngestReport(StageResult):
    results: list[FileResult] = field(default_factory=list)
    stages: dict[str, dict] = field(default_factory=dict)  # downstream stage results (summarize, encode), as JSON

    json_extra = ()

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
    """PDF files under folder (recursively, case-insensitive extension, links to folders not followed), sorted for a
    stable order. Everything `plan` must report per path is kept too: links that lead nowhere (a missing target or a
    loop, unresolved), entries named .pdf that are no regular file (a FIFO, a device, a folder), and subfolders that
    could not be listed (permissions): a folder is never skipped without a word."""
    folder = Path(folder)
    if not folder.is_dir():
        return [folder.absolute() if folder.is_symlink() and not folder.exists() else folder.resolve()]
    found: list[Path] = []

    def unreadable(exc: OSError) -> None:
        if exc.filename:
            found.append(Path(exc.filename).absolute())

    for root, _dirs, files in os.walk(folder, onerror=unreadable):
        for name in files:
            if not name.lower().endswith(".pdf"):
                continue
            p = Path(root, name)
            if p.is_file():
                found.append(p.resolve())
            else:  # a broken link, a FIFO, a socket, a device: plan says which
                found.append(p.absolute())
    return sorted(set(found))


def _link_problem(path: Path) -> str | None:
    """Why a scanned path cannot be read as a file, or None."""
    if path.exists():
        return None
    if path.is_symlink():
        try:
            os.stat(path)
        except OSError as exc:
            if exc.errno == errno.ELOOP:
                return f"broken link: {path.name} is a symlink loop"
        return f"broken link: {path.name} points to {os.readlink(path)}, which does not exist"
    return f"{path} does not exist"


def sha256_file(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def plan(store: Store, paths: Iterable[Path], *, force: bool = False, retry_failed: bool = False) -> tuple[list[Task], list[FileResult]]:
    """Split paths into work to do and results for files that need none. Size+mtime unchanged means unchanged;
    otherwise the sha256 decides (a touched but identical file is not re-parsed). A new path whose content is a
    stored paper whose file has vanished is that paper, moved: the ledger follows it and nothing is parsed again.
    Broken links are reported failed, per file, and not recorded."""
    known = store.ledger()
    todo: list[Task] = []
    unchanged: list[FileResult] = []
    for path in paths:
        try:
            refused = _refused(path, known.get(str(path)))
            if refused is None:
                _plan_one(store, known, path, todo, unchanged, force=force, retry_failed=retry_failed)
        except FileNotFoundError:  # gone between the scan and now: nothing to record, the next run will not see it
            refused = FileResult(path=str(path), status=Status.FAILED, error="vanished while it was being read")
        except OSError as exc:  # unreadable (permissions, an I/O error): its reason in the ledger, the folder goes on
            refused = _unreadable(path, exc, known.get(str(path)))
        if refused is not None:
            unchanged.append(refused)
    return todo, unchanged


def _refused(path: Path, prev: FileRecord | None) -> FileResult | None:
    """The result for a path that is no readable regular file (a broken link, a FIFO or device, a folder that could
    not be listed), else None. Links are reported, not recorded; special files are recorded so `status` lists them."""
    problem = _link_problem(path)
    if problem:
        return FileResult(path=str(path), status=Status.FAILED, error=problem)
    st = path.stat()
    if stat.S_ISDIR(st.st_mode) and not path.name.lower().endswith(".pdf"):
        try:
            next(os.scandir(path), None)
            reason = "folder skipped: it could not be listed"
        except OSError as exc:
            reason = f"folder skipped: {exc.strerror or exc}"
        return FileResult(path=str(path), status=Status.FAILED, error=reason)
    if stat.S_ISREG(st.st_mode):
        return None
    kind = next((k for test, k in _KINDS if test(st.st_mode)), "not a regular file")
    record = FileRecord(path=str(path), size=st.st_size, mtime_ns=st.st_mtime_ns, status=Status.FAILED,
                        error=f"not a PDF file: {kind}", paper_id=prev.paper_id if prev else None)
    return FileResult(path=str(path), status=Status.FAILED, error=record.error, _ledger=_news(record, prev))


def _news(record: FileRecord, prev: FileRecord | None) -> FileRecord | None:
    """`record` when the ledger does not say this already (a later run writes nothing for the same refusal)."""
    same = prev is not None and (prev.status, prev.error, prev.size, prev.mtime_ns, prev.sha256) == (
        record.status, record.error, record.size, record.mtime_ns, record.sha256)
    return None if same else record


_KINDS = [(stat.S_ISDIR, "a folder named .pdf"), (stat.S_ISFIFO, "a FIFO (named pipe)"), (stat.S_ISSOCK, "a socket"),
          (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device")]


def _unreadable(path: Path, exc: OSError, prev: FileRecord | None) -> FileResult:
    """A file that exists but cannot be read: recorded failed, without a digest, so every later run tries it again
    (an open that fails costs nothing) and reads it once it can."""
    try:
        st = path.stat()
        size, mtime = st.st_size, st.st_mtime_ns
    except OSError:
        size = mtime = None
    reason = f"unreadable: {exc.strerror or exc}"
    if prev is not None and prev.status in (Status.OK, Status.PARTIAL):
        reason += " (rows of the previous version kept)"
    record = FileRecord(path=str(path), size=size, mtime_ns=mtime, status=Status.FAILED, error=reason,
                        paper_id=prev.paper_id if prev else None)
    return FileResult(path=str(path), status=Status.FAILED, paper_id=record.paper_id, error=reason,
                      _ledger=_news(record, prev))


RETRIED = "transient: "  # a failure recorded with this prefix (a full disk) is tried again by the next run


def _plan_one(store: Store, known: dict[str, FileRecord], path: Path, todo: list[Task], unchanged: list[FileResult],
              *, force: bool, retry_failed: bool) -> None:
    st = path.stat()
    prev = known.get(str(path))
    if prev is not None and prev.status == Status.FAILED and (not prev.sha256 or (prev.error or "").startswith(RETRIED)):
        prev = None if not prev.sha256 else prev  # never read, or failed for a passing reason: tried again
        retry = True
    else:
        retry = False
    settled = prev is not None and not retry and (prev.status in (Status.OK, Status.PARTIAL) or not retry_failed)
    if prev is not None and prev.status == Status.DUPLICATE and not _owner_exists(known, prev):
        settled = False  # the copy it duplicated is gone: this file now stands for the paper
    if prev and not force and settled and prev.size == st.st_size and prev.mtime_ns == st.st_mtime_ns:
        unchanged.append(_unchanged(path, prev))
        return
    digest = sha256_file(path)
    if prev and not force and settled and prev.sha256 == digest:
        prev.mtime_ns, prev.size = st.st_mtime_ns, st.st_size
        store.record(prev)
        unchanged.append(_unchanged(path, prev))
        return
    moved = None if force else _vanished_original(known, path, digest, prev)
    if moved is not None:
        with writer_lock(store.path.parent, store.lock_timeout):
            store.move_path(moved.path, str(path), size=st.st_size, mtime_ns=st.st_mtime_ns)
        unchanged.append(FileResult(path=str(path), status=Status.SKIPPED, paper_id=moved.paper_id,
                                    previous=Status(moved.status), error=f"moved from {moved.path}; not parsed again"))
        return
    todo.append(Task(path, digest, st.st_size, st.st_mtime_ns, known.get(str(path))))


def _unchanged(path: Path, prev: FileRecord) -> FileResult:
    return FileResult(path=str(path), status=Status.SKIPPED, paper_id=prev.paper_id, error=prev.error,
                      previous=_status(prev.status))


def _status(value: str | None) -> Status | None:
    try:
        return Status(value)
    except ValueError:
        return None


def _owner_exists(known: dict[str, FileRecord], dup: FileRecord) -> bool:
    return any(rec.paper_id == dup.paper_id and rec.path != dup.path and rec.status in (Status.OK, Status.PARTIAL)
               and Path(rec.path).exists() for rec in known.values())


def _vanished_original(known: dict[str, FileRecord], path: Path, digest: str, prev: FileRecord | None) -> FileRecord | None:
    """The stored record of the same content at a path that no longer exists (the file was moved or renamed)."""
    if prev is not None and prev.status not in (Status.DUPLICATE, Status.FAILED):
        return None
    for rec in known.values():
        if (rec.sha256 == digest and rec.path != str(path) and rec.status in (Status.OK, Status.PARTIAL)
                and not Path(rec.path).exists()):
            return rec
    return None


def _ledger_rows(store: Store, where: str, params: list) -> list[dict]:
    """Ledger rows by a condition; `path` parameters and results are file paths (stored by pipeline.paths)."""
    if not store.exists():
        return []
    try:
        rows = store.query(f"SELECT path, sha256, paper_id, status, error, updated_at FROM ledger.files WHERE {where}",
                           [to_db(p) if isinstance(p, Path) else p for p in params])
    except duckdb.CatalogException:  # no ledger yet
        return []
    for row in rows:
        row["path"] = from_db(row["path"])
    return rows


def _handled_elsewhere(store: Store, task: Task) -> dict | None:
    """The ledger row when another process stored this very version of the file after `task` was planned."""
    rows = _ledger_rows(store, "path = ?", [task.path])
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
    rows = _ledger_rows(store, "paper_id = ? AND path <> ? AND status IN ('ok', 'partial') ORDER BY path",
                        [paper_id, Path(path)])
    return next((r["path"] for r in rows if Path(r["path"]).exists()), None)


def store_result(store: Store, task: Task, outcome: Outcome,
                 backend: str = "pymupdf") -> FileResult:
    """Write one parse outcome (rows + ledger, or ledger only). Runs under the data dir's writer lock and re-reads
    the ledger inside it, so two processes never store the same file or the same paper twice."""
    with writer_lock(store.path.parent, store.lock_timeout):
        done = _handled_elsewhere(store, task)
        if done:
            return FileResult(path=str(task.path), status=Status.SKIPPED,
                              paper_id=str(done["paper_id"]) if done["paper_id"] else None, error=done["error"])
        return _store_locked(store, task, outcome, backend)


def _store_locked(store: Store, task: Task, outcome: Outcome, backend: str) -> FileResult:
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
        return FileResult(path=path, status=Status.FAILED, paper_id=prev_id, error=record.error, seconds=seconds)
    pid = paper.paper_id
    owner = _owner(store, pid, path)
    if owner:
        record.status, record.paper_id = Status.DUPLICATE, pid
        record.error = f"same paper (paper_id {pid}) as {owner}; not stored twice"
        store.record(record)
        return FileResult(path=path, status=Status.DUPLICATE, paper_id=pid, error=record.error, seconds=seconds)
    record.paper_id, record.status = pid, paper.status
    record.error = "; ".join(paper.errors) or None
    record.timings = {**paper.timings, "parse": seconds}
    record.ocr_pages = {p.number: p.ocr for p in paper.pages if p.ocr}
    t0 = time.perf_counter()
    counts = store.save_paper(paper, record, replaces=prev_id)
    record.timings["store"] = time.perf_counter() - t0
    return FileResult(path=path, status=Status(paper.status), paper_id=pid, error=record.error, seconds=seconds,
                      rows=counts, pages=len(paper.pages), ocr_pages=record.ocr_pages)


def ingest_file(task: Task, settings: Settings, parser: ParserPool) -> FileResult:
    """The per-file step: parse one PDF in the pool and store it (one short locked transaction). Skips work another
    process finished meanwhile. Raises only RetryableError (a busy store): bad input is a recorded result."""
    store = Store(settings.duckdb_path)
    if not still_needed(store, task):
        return FileResult(path=str(task.path), status=Status.SKIPPED,
                          paper_id=task.previous.paper_id if task.previous else None)
    outcome = parser.parse(str(task.path))
    try:
        if outcome[0] is not None:  # marked before the write: a crash right after it still leaves the paper pending
            pending.add(settings.data_dir, [outcome[0].paper_id])
        return store_result(store, task, outcome, backend=settings.parse.backend)
    except Exception as exc:
        if not no_space(exc):
            raise
        return _out_of_space(store, task, exc, settings.parse.backend)


def no_space(exc: BaseException) -> bool:
    """The disk (or quota) is full: DuckDB says so in its message, the OS by errno."""
    if isinstance(exc, OSError) and exc.errno in (errno.ENOSPC, errno.EDQUOT):
        return True
    return "No space left on device" in str(exc) or "Disk quota exceeded" in str(exc)


def _out_of_space(store: Store, task: Task, exc: BaseException, backend: str) -> FileResult:
    """A file whose rows did not fit on the disk: the transaction rolled back (nothing partial), and the ledger
    records it failed for that passing reason, so `status` lists it and the next ingest tries it again. When even that
    small write does not fit, the result still says why (and the file, unrecorded, is new to the next run)."""
    prev = task.previous
    error = f"{RETRIED}no space left on device while storing it; the next ingest tries again"
    if prev is not None and prev.status in (Status.OK, Status.PARTIAL):
        error += " (rows of the previous version kept)"
    record = FileRecord(path=str(task.path), sha256=task.sha256, size=task.size, mtime_ns=task.mtime_ns,
                        status=Status.FAILED, error=error, backend=backend, paper_id=prev.paper_id if prev else None)
    for attempt in range(2):
        try:
            with writer_lock(store.path.parent, store.lock_timeout):
                store.record(record)
            break
        except Exception:  # noqa: BLE001 - the disk is still full: free the reserve once, then give up
            if attempt or not _release_reserve(store.path.parent):
                error += " (not recorded: the disk is still full)"
                break
    return FileResult(path=str(task.path), status=Status.FAILED, paper_id=record.paper_id, error=error)


RESERVE = ".paperbase-reserve"
RESERVE_BYTES = 2 << 20


def _keep_reserve(data_dir: Path) -> None:
    """A few MB held in the data dir while there is room, given up when the disk fills so that the ledger can still
    record which files did not fit (`status` lists them); made again by a later run once there is space."""
    path = Path(data_dir) / RESERVE
    try:
        if path.stat().st_size >= RESERVE_BYTES:
            return
    except FileNotFoundError:
        pass
    try:
        st = os.statvfs(data_dir)
        if st.f_bavail * st.f_frsize < 10 * RESERVE_BYTES:  # too little room to set any aside
            return
        with open(path, "wb") as fh:
            fh.write(b"\0" * RESERVE_BYTES)
    except OSError:
        path.unlink(missing_ok=True)


def _release_reserve(data_dir: Path) -> bool:
    try:
        (Path(data_dir) / RESERVE).unlink()
        return True
    except OSError:
        return False


def unfinished(task: Task, exc: BaseException) -> FileResult:
    """A file whose step raised (transient trouble that outlasted its retries, or a bug): reported, not recorded,
    so the next run tries it again."""
    kind = "transient" if isinstance(exc, RetryableError) else "error"
    return FileResult(path=str(task.path), status=Status.FAILED, error=f"{kind}: {type(exc).__name__}: {exc}")


FileStep = Callable[[Task], FileResult]


class Executor(Protocol):
    """Runs the per-file step over the tasks; yields (task, result or the exception it raised) as each finishes."""

    def __call__(self, step: FileStep, tasks: list[Task]) -> Iterator[tuple[Task, FileResult | BaseException]]: ...


def threaded(workers: int) -> Executor:
    """The library executor: `workers` threads, each parsing through the shared pool and storing its result."""

    def run(step: FileStep, tasks: list[Task]) -> Iterator[tuple[Task, FileResult | BaseException]]:
        pool = ThreadPoolExecutor(max(1, workers))
        try:
            futures = {pool.submit(step, t): t for t in tasks}
            for fut in as_completed(futures):
                exc = fut.exception()
                yield futures[fut], exc if exc is not None else fut.result()
        finally:  # on Ctrl-C: files not started are dropped, the ones in flight finish their short step
            pool.shutdown(wait=True, cancel_futures=True)

    return run


def ensure_writable(data_dir: Path) -> None:
    """Raise the OSError (read-only file system, permission denied, no space) that writing to the data dir would
    meet, before any work: made and removed a probe file, which is what the store will do."""
    data_dir = Path(data_dir)
    probe = data_dir / f".paperbase-probe-{os.getpid()}"
    try:
        data_dir.mkdir(parents=True, exist_ok=True)
        probe.write_bytes(b"")
        probe.unlink()
    except OSError as exc:  # named after the data dir, not the probe
        raise type(exc)(exc.errno, exc.strerror, str(data_dir)) from None


def ingest(
    folder: Path | list[Path],
    settings: Settings,
    *,
    force: bool = False,
    retry_failed: bool = False,
    stages: list[str] | None = None,
    on_start: Callable[[int], None] | None = None,
    on_result: Callable[[FileResult], None] | None = None,
    executor: Executor | None = None,
    stage_runner: downstream.StageRunner | None = None,
    parser: ParserPool | None = None,
) -> IngestReport:
    """Parse and store every new or changed PDF under `folder` (or in a list of paths), then run the downstream
    `stages` (None or []: none) for every pending paper."""
    t0 = time.perf_counter()
    STOP.clear()  # a long-lived process (serve) runs again after an interrupted run
    ensure_writable(settings.data_dir)
    _keep_reserve(settings.data_dir)
    store = Store(settings.duckdb_path)
    if not store.exists():
        store.init()
    paths = scan(folder) if isinstance(folder, (str, Path)) else list(folder)
    tasks, unchanged = plan(store, paths, force=force, retry_failed=retry_failed)
    # Largest files first: the parser slots then end the run on small files instead of one worker finishing the
    # folder's biggest paper alone (0.5 s of a 13 s corpus parse on 2 workers). Results are stored as they come, and
    # the report is sorted by path below, so nothing else sees the order.
    tasks.sort(key=lambda t: t.size, reverse=True)
    refused = [r._ledger for r in unchanged if r._ledger is not None]
    if refused:  # unreadable and special files: their reason in the ledger, so `status` lists them
        store.init()
        with writer_lock(store.path.parent, store.lock_timeout):
            for record in refused:
                store.record(record)
    report = IngestReport(results=list(unchanged))
    if on_start:
        on_start(len(tasks))
    if tasks:
        store.init()
        with parser or ParserPool(settings.parse, settings.workers) as pool:
            step = lambda task: ingest_file(task, settings, pool)  # noqa: E731
            for task, outcome in (executor or threaded(settings.workers))(step, tasks):
                result = outcome if isinstance(outcome, FileResult) else unfinished(task, outcome)
                report.results.append(result)
                if on_result:
                    on_result(result)
    report.results.sort(key=lambda r: r.path)
    if stages:
        report.stages = downstream.run_downstream(settings, stages, runner=stage_runner)
        _attach_states(settings, report)
    report.seconds = time.perf_counter() - t0
    return report


def _attach_states(settings: Settings, report: IngestReport) -> None:
    """Each stored file's paper state after the downstream stages: its per-file, per-stage truth."""
    from pipeline.state import paper_states

    ids = {r.paper_id for r in report.results if r.paper_id and r.status in (Status.OK, Status.PARTIAL, Status.SKIPPED)}
    states = paper_states(settings, ids)
    for r in report.results:
        state = states.get(r.paper_id or "")
        if state is not None and state.stored:
            r.stages = {"summarize": "ok" if not state.summaries_missing else f"{state.summaries_missing} missing",
                        **{f"encode:{c}": "ok" if done else "missing" for c, done in state.collections.items()}}


def unfinished_papers(report: IngestReport) -> list[FileResult]:
    """Files whose paper is stored but not through every stage after the run."""
    return [r for r in report.results if any(v != "ok" for v in r.stages.values())]


__all__ = ["unfinished_papers", "ingest", "ingest_file", "plan", "scan", "Task", "FileResult", "IngestReport", "Executor", "threaded",
           "ParserPool", "parse_one", "store_result", "still_needed", "unfinished"]
