"""Encodable DuckDB cells: which rows of which columns become vectors, with their paper, key and page.

page_number: pages use their own number; rows with ref_page_id use that page's number; metadata and sections
(a section spans pages) get -1, "unknown" in the agent's schema text. Image cells need a known page and a 4-number
bbox with positive width and height; text cells need a non-blank value.
"""
from __future__ import annotations

from dataclasses import dataclass

import duckdb

from schemas import database_schema


@dataclass(frozen=True)
class Cell:
    pdf_id: str
    table: str
    column: str
    primary_key: str
    page_number: int
    text: str | None = None
    bbox: tuple[int, int, int, int] | None = None
    pdf_path: str | None = None


def columns(modality: str) -> list[tuple[str, str]]:
    return [(t, c) for t, c, _ in database_schema().encodable_columns(modality)]


def _select(table: str, column: str, modality: str) -> str:
    """SELECT pdf_id, pk, page, value[, pdf_path] for one encodable column (identifiers come from schema data)."""
    tbl = database_schema().table(table)
    pk = tbl.primary_key[0]
    pdf = "paper_id" if table == "metadata" else "ref_paper_id"
    joins = ""
    if table == "pages":
        page = "t.page_number"
    elif "ref_page_id" in tbl.column_names:
        page, joins = "coalesce(p.page_number, -1)", " LEFT JOIN pages p ON p.page_id = t.ref_page_id"
    else:
        page = "-1"
    if modality == "image":
        joins += f" LEFT JOIN metadata m ON m.paper_id = t.{pdf}"
        extra = ", m.pdf_path AS pdf_path"
        where = (f"t.{column} IS NOT NULL AND len(t.{column}) = 4 AND t.{column}[3] > 0 AND t.{column}[4] > 0 "
                 f"AND {page} > 0")
    else:
        extra = ", NULL AS pdf_path"
        where = f"t.{column} IS NOT NULL AND trim(t.{column}) <> ''"
    return (f"SELECT CAST(t.{pdf} AS VARCHAR) AS pdf_id, '{table}' AS table_name, '{column}' AS column_name, "
            f"CAST(t.{pk} AS VARCHAR) AS primary_key, CAST({page} AS INTEGER) AS page_number, t.{column} AS value{extra} "
            f"FROM {table} t{joins} WHERE {where}")


def _union(modality: str, only: list[tuple[str, str]] | None = None) -> str:
    parts = [_select(t, c, modality) for t, c in columns(modality) if only is None or (t, c) in only]
    return " UNION ALL ".join(parts)


def fingerprints(con: duckdb.DuckDBPyConnection, modality: str, pdf_ids: list[str] | None = None) -> dict[str, str]:
    """pdf_id -> digest of every encodable cell of that modality (key, page and value): changes iff the input does.
    `pdf_ids` limits the work to those papers (the state of a few pending papers, not the whole library)."""
    if not columns(modality):
        return {}
    where = " WHERE pdf_id IN (SELECT unnest(?))" if pdf_ids is not None else ""
    sql = (f"SELECT pdf_id, md5(string_agg(table_name || '.' || column_name || '|' || primary_key || '|' || "
           f"page_number || '|' || md5(CAST(value AS VARCHAR)), chr(10) ORDER BY table_name, column_name, primary_key)) "
           f"FROM ({_union(modality)}){where} GROUP BY pdf_id")
    return dict(con.execute(sql, [list(pdf_ids)] if pdf_ids is not None else []).fetchall())


def papers(con: duckdb.DuckDBPyConnection) -> list[str]:
    return [r[0] for r in con.execute("SELECT CAST(paper_id AS VARCHAR) FROM metadata ORDER BY 1").fetchall()]


def load(con: duckdb.DuckDBPyConnection, modality: str, pdf_ids: list[str]) -> list[Cell]:
    if not pdf_ids or not columns(modality):
        return []
    sql = f"SELECT * FROM ({_union(modality)}) WHERE pdf_id IN (SELECT unnest(?)) ORDER BY pdf_id, table_name, column_name, primary_key"
    out = []
    for pdf_id, table, column, pk, page, value, pdf_path in con.execute(sql, [pdf_ids]).fetchall():
        if modality == "image":
            out.append(Cell(pdf_id, table, column, pk, page, bbox=tuple(int(v) for v in value), pdf_path=pdf_path))
        else:
            out.append(Cell(pdf_id, table, column, pk, page, text=value))
    return out


def counts(con: duckdb.DuckDBPyConnection, modality: str) -> dict[tuple[str, str, str], int]:
    """(pdf_id, table, column) -> number of encodable cells."""
    if not columns(modality):
        return {}
    sql = f"SELECT pdf_id, table_name, column_name, count(*) FROM ({_union(modality)}) GROUP BY ALL"
    return {(p, t, c): n for p, t, c, n in con.execute(sql).fetchall()}


def texts_for(con: duckdb.DuckDBPyConnection, table: str, column: str, keys: list[str]) -> dict[str, object]:
    """primary key -> cell value, for joining search hits back to DuckDB.

    The keys are cast to the key column's own type (not the column to VARCHAR): comparing in the column's type lets
    DuckDB look the rows up instead of casting every key of the table (measured on 1M UUID rows: 4 ms against 120 ms)."""
    tbl = database_schema().table(table)
    if column not in tbl.column_names:
        raise KeyError(f"{table}.{column}")
    pk = tbl.primary_key[0]
    pk_type = tbl.column(pk).type
    try:
        rows = con.execute(f"SELECT CAST({pk} AS VARCHAR), {column} FROM {table} "
                           f"WHERE {pk} IN (SELECT unnest(?::{pk_type}[]))", [keys]).fetchall()
    except duckdb.ConversionException:  # a key that is not of the column's type names no row
        valid = [k for k in keys if _converts(con, k, pk_type)]
        if not valid:
            return {}
        return texts_for(con, table, column, valid)
    return dict(rows)


def _converts(con: duckdb.DuckDBPyConnection, value: str, type_: str) -> bool:
    return con.execute(f"SELECT TRY_CAST(? AS {type_}) IS NOT NULL", [value]).fetchone()[0]
