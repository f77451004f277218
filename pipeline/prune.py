"""Prune: forget PDFs whose files are gone. A paper's rows and vectors go only when no existing file still holds
it (a copy elsewhere keeps it); ledger entries of vanished paths always go. DuckDB rows and ledger entries are removed
in one transaction, then the vectors (the vector stage removes orphans on its next run if this is interrupted)."""
from __future__ import annotations

from contextlib import nullcontext
from dataclasses import dataclass, field
from pathlib import Path

from pipeline.config import Settings
from pipeline.locks import milvus_lock, uses_milvus_lite, writer_lock
from pipeline.results import StageResult, Status
from pipeline.store import FileRecord, Store
from pipeline.store.writer import delete_paper
from pipeline.store import ledger as file_ledger


@dataclass(kw_only=True)
class PruneReport(StageResult):
    status: Status = Status.OK
    paths: list[str] = field(default_factory=list)  # vanished paths forgotten
    papers: list[str] = field(default_factory=list)  # papers whose rows and vectors were (or would be) removed
    vectors: int = 0
    dry_run: bool = False


def vanished(records: dict[str, FileRecord]) -> list[FileRecord]:
    return [r for r in records.values() if not Path(r.path).exists()]


def prune(settings: Settings, *, dry_run: bool = False) -> PruneReport:
    store = Store(settings.duckdb_path)
    report = PruneReport(dry_run=dry_run)
    records = store.ledger()
    gone = vanished(records)
    alive = {r.paper_id for r in records.values() if Path(r.path).exists() and r.status in (Status.OK, Status.PARTIAL)}
    report.paths = sorted(r.path for r in gone)
    report.papers = sorted({r.paper_id for r in gone if r.paper_id and r.paper_id not in alive
                            and r.status in (Status.OK, Status.PARTIAL)})
    if dry_run or not gone:
        report.status = Status.UNCHANGED if not gone else Status.OK
        return report
    with writer_lock(settings.data_dir):
        with store.writing() as con:
            for pid in report.papers:
                delete_paper(con, pid)
            for path in report.paths:
                file_ledger.delete(con, path)
    if report.papers:
        from pipeline.vectors.stage import remove_papers

        lite = uses_milvus_lite(settings.vectors.milvus_uri)
        with milvus_lock(settings.data_dir) if lite else nullcontext():
            report.vectors = remove_papers(settings, report.papers)
    return report


__all__ = ["prune", "vanished", "PruneReport"]
