"""Writes: create tables, replace one paper's rows (all eight tables) in a single transaction."""
from __future__ import annotations

import duckdb

from pipeline.document import ParsedPaper
from pipeline.store.rows import paper_rows
from pipeline.store.schema import render_ddl
from schemas import database_schema


def ensure_tables(con: duckdb.DuckDBPyConnection) -> None:
    for stmt in render_ddl():
        con.execute(stmt)


def _paper_key(table: str) -> str:
    return "paper_id" if table == "metadata" else "ref_paper_id"


def delete_paper(con: duckdb.DuckDBPyConnection, paper_id: str) -> None:
    for table in database_schema().table_names:
        con.execute(f'DELETE FROM "{table}" WHERE {_paper_key(table)} = ?', [paper_id])


def insert_paper(con: duckdb.DuckDBPyConnection, paper: ParsedPaper) -> dict[str, int]:
    """Insert all rows of a paper (caller deletes first, inside the same transaction). Returns row counts."""
    counts = {}
    for table, rows in paper_rows(paper).items():
        counts[table] = len(rows)
        if not rows:
            continue
        columns = database_schema().table(table).column_names
        placeholders = ", ".join("?" for _ in columns)
        con.executemany(
            f'INSERT INTO "{table}" ({", ".join(columns)}) VALUES ({placeholders})',
            [[row[c] for c in columns] for row in rows],
        )
    return counts
