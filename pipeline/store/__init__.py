"""The store: the DuckDB file with the eight agent-visible tables plus the ledger.

Public surface: `Store` (writes are short transactions; reads are read-only connections that retry while
another process writes). The stages read and write through it; readers outside the pipeline (the agent, the CLI's
search) go through `pipeline.read` instead.
"""
from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import duckdb

from pipeline.document import ParsedPaper
from pipeline.paths import to_db
from pipeline.store import ledger
from pipeline.store.connection import reading, writing
from pipeline.store.errors import StoreBusy, StoreError, StoreMissing
from pipeline.store.ledger import FileRecord
from pipeline.store.writer import delete_paper, ensure_tables, insert_paper


class Store:
    def __init__(self, path: Path | str, *, lock_timeout: float = 60.0):
        self.path = Path(path)
        self.lock_timeout = lock_timeout

    def exists(self) -> bool:
        return self.path.exists()

    @contextmanager
    def reading(self) -> Iterator[duckdb.DuckDBPyConnection]:
        if not self.exists():
            raise StoreMissing(f"no database at {self.path}; run `paperbase ingest DIR` first")
        with reading(self.path, self.lock_timeout) as con:
            yield con

    @contextmanager
    def writing(self) -> Iterator[duckdb.DuckDBPyConnection]:
        with writing(self.path, self.lock_timeout) as con:
            yield con

    def init(self) -> None:
        with self.writing() as con:
            ensure_tables(con)
            ledger.ensure_ledger(con)

    def query(self, sql: str, params: list[Any] | None = None) -> list[dict[str, Any]]:
        """Run a read-only query; rows as dicts (the read API the agent uses)."""
        with self.reading() as con:
            cur = con.execute(sql, params or [])
            names = [d[0] for d in cur.description] if cur.description else []
            return [dict(zip(names, row)) for row in cur.fetchall()]

    def ledger(self) -> dict[str, FileRecord]:
        if not self.exists():
            return {}
        with self.reading() as con:
            try:
                return ledger.load_all(con)
            except duckdb.CatalogException:
                return {}

    def save_paper(self, paper: ParsedPaper, record: FileRecord, *, replaces: str | None = None) -> dict[str, int]:
        """Replace the paper's rows and update its ledger entry in one transaction. `replaces` is the paper id
        this path held before (its title or venue may have changed), whose rows go too."""
        with self.writing() as con:
            ensure_tables(con)
            ledger.ensure_ledger(con)
            if replaces and replaces != paper.paper_id:
                delete_paper(con, replaces)
            delete_paper(con, paper.paper_id)
            counts = insert_paper(con, paper)
            ledger.upsert(con, record)
        return counts

    def record(self, record: FileRecord) -> None:
        """Update only the ledger (failed, duplicate, or unchanged-but-touched files)."""
        with self.writing() as con:
            ledger.ensure_ledger(con)
            ledger.upsert(con, record)

    def move_path(self, old: str, new: str, *, size: int, mtime_ns: int) -> None:
        """A stored file was moved: its ledger entry and the paper's pdf_path follow it (one transaction)."""
        with self.writing() as con:
            records = ledger.load_all(con)
            rec = records[old]
            ledger.delete(con, old)
            ledger.delete(con, new)  # a duplicate record this path had of the same paper
            rec.path, rec.size, rec.mtime_ns = new, size, mtime_ns
            ledger.upsert(con, rec)
            if rec.paper_id:
                con.execute("UPDATE metadata SET pdf_path = ? WHERE CAST(paper_id AS VARCHAR) = ?",
                            [to_db(new), rec.paper_id])

    def remove_path(self, path: str, paper_id: str | None) -> None:
        with self.writing() as con:
            if paper_id:
                delete_paper(con, paper_id)
            ledger.delete(con, path)


__all__ = ["Store", "FileRecord", "StoreError", "StoreBusy", "StoreMissing"]
