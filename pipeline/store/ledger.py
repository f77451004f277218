"""The ledger: one row per PDF path, outside the eight agent-visible tables (schema `ledger`; the catalog itself is named after the file).

It decides what ingest does (new / changed / unchanged), and records status, errors and stage timings.
"""
from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from datetime import datetime, timezone

import duckdb

from pipeline.paths import from_db, shown, to_db, undecodable

LEDGER_DDL = [
    "CREATE SCHEMA IF NOT EXISTS ledger",
    """CREATE TABLE IF NOT EXISTS ledger.files (
        path VARCHAR PRIMARY KEY,
        sha256 VARCHAR,
        size BIGINT,
        mtime_ns BIGINT,
        paper_id UUID,
        status VARCHAR,
        error VARCHAR,
        backend VARCHAR,
        timings VARCHAR,
        updated_at TIMESTAMPTZ
    )""",
    # pages whose text was read by OCR, as JSON {page number: why} (pipeline/parse/ocr.py); added after the first
    # release, so a ledger made before it gains the column here
    "ALTER TABLE ledger.files ADD COLUMN IF NOT EXISTS ocr_pages VARCHAR",
]


@dataclass
class FileRecord:
    path: str
    sha256: str | None = None
    size: int | None = None
    mtime_ns: int | None = None
    paper_id: str | None = None
    status: str = "pending"
    error: str | None = None
    backend: str | None = None
    timings: dict[str, float] = field(default_factory=dict)
    updated_at: datetime | None = None
    ocr_pages: dict[int, str] = field(default_factory=dict)  # page number -> why it was OCR'd

    def to_json(self) -> dict:
        out = asdict(self)
        out["updated_at"] = self.updated_at.isoformat() if self.updated_at else None
        return out


_COLUMNS = ["path", "sha256", "size", "mtime_ns", "paper_id", "status", "error", "backend", "timings", "updated_at",
            "ocr_pages"]


def ensure_ledger(con: duckdb.DuckDBPyConnection) -> None:
    for stmt in LEDGER_DDL:
        con.execute(stmt)


def upsert(con: duckdb.DuckDBPyConnection, rec: FileRecord) -> None:
    rec.updated_at = datetime.now(timezone.utc)
    values = [getattr(rec, c) for c in _COLUMNS]
    values[0] = to_db(rec.path)  # a name that is not valid UTF-8, losslessly (pipeline/paths.py)
    values = [shown(v) if i and isinstance(v, str) and undecodable(v) else v for i, v in enumerate(values)]  # messages
    values[_COLUMNS.index("timings")] = json.dumps({k: round(v, 4) for k, v in rec.timings.items()})
    values[_COLUMNS.index("ocr_pages")] = json.dumps({str(k): v for k, v in rec.ocr_pages.items()}) if rec.ocr_pages else None
    placeholders = ", ".join("?" for _ in _COLUMNS)
    con.execute(f"INSERT OR REPLACE INTO ledger.files ({', '.join(_COLUMNS)}) VALUES ({placeholders})", values)


def load_all(con: duckdb.DuckDBPyConnection) -> dict[str, FileRecord]:
    # a ledger made before a column was added gains it at the next write (ensure_ledger); a reader, which cannot
    # write, reads the columns it has
    present = {r[0] for r in con.execute("SELECT column_name FROM information_schema.columns WHERE table_schema = "
                                         "'ledger' AND table_name = 'files'").fetchall()}
    columns = [c for c in _COLUMNS if c in present]
    rows = con.execute(f"SELECT {', '.join(columns)} FROM ledger.files ORDER BY path").fetchall()
    out = {}
    for row in rows:
        rec = FileRecord(**dict(zip(columns, row)))
        rec.path = from_db(rec.path)
        rec.paper_id = str(rec.paper_id) if rec.paper_id else None
        rec.timings = json.loads(rec.timings) if rec.timings else {}
        rec.ocr_pages = {int(k): v for k, v in json.loads(rec.ocr_pages).items()} if rec.ocr_pages else {}
        out[rec.path] = rec
    return out


def delete(con: duckdb.DuckDBPyConnection, path: str) -> None:
    con.execute("DELETE FROM ledger.files WHERE path = ?", [to_db(path)])
