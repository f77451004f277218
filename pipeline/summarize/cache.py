"""Persistent reply cache: a SQLite file beside the DuckDB file (never contends with the DuckDB lock).

Key = sha256(model, template id, full request messages) (see prompts.Request.cache_key); value = the parsed
summary as JSON. Writes are buffered and committed with each DuckDB batch.
"""
from __future__ import annotations

import json
import sqlite3
import time
from pathlib import Path
from typing import Any


class Cache:
    def __init__(self, path: Path | str):
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.con = sqlite3.connect(str(self.path), timeout=30.0, check_same_thread=False)
        self.con.execute("PRAGMA journal_mode=WAL")  # concurrent `summarize` runs read while one writes
        self.con.execute("CREATE TABLE IF NOT EXISTS replies (key TEXT PRIMARY KEY, model TEXT, template TEXT, "
                         "value TEXT NOT NULL, created REAL)")
        self.con.commit()

    def get(self, key: str) -> Any | None:
        row = self.con.execute("SELECT value FROM replies WHERE key = ?", (key,)).fetchone()
        return json.loads(row[0]) if row else None

    def put(self, key: str, model: str, template: str, value: Any) -> None:
        self.con.execute("INSERT OR REPLACE INTO replies VALUES (?, ?, ?, ?, ?)",
                         (key, model, template, json.dumps(value, ensure_ascii=False), time.time()))

    def commit(self) -> None:
        self.con.commit()

    def count(self) -> int:
        return self.con.execute("SELECT count(*) FROM replies").fetchone()[0]

    def close(self) -> None:
        self.con.commit()
        self.con.close()
