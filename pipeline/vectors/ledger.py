"""Bookkeeping in DuckDB's `ledger` schema: what was encoded with which model, and BM25 corpus statistics.

A row in ledger.vector_papers is written only after that paper's vectors were inserted and flushed, and is deleted
before they are touched, so a row present means "Milvus holds exactly these cells"; a missing or different
fingerprint means "delete by pdf_id and encode again".

BM25 document frequencies are kept twice: per paper (`bm25_terms`, what a paper contributed, so removing or
re-encoding it can take exactly that back) and summed per term (`bm25_df`, maintained in the same transaction by every
write here). Every BM25 search reads only the sums: a term lookup in a table of the vocabulary's size instead of an
aggregate over papers x terms rows (84M at 50k papers, 417 ms; bench/scale.py). A database from before the sums
existed gets them built from `bm25_terms` the first time a writer opens the ledger; until then readers aggregate.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

import duckdb

DDL = [
    "CREATE SCHEMA IF NOT EXISTS ledger",
    """CREATE TABLE IF NOT EXISTS ledger.vector_collections (
        collection VARCHAR PRIMARY KEY, model VARCHAR, dim INTEGER, created_at TIMESTAMP DEFAULT current_timestamp)""",
    """CREATE TABLE IF NOT EXISTS ledger.vector_papers (
        collection VARCHAR, pdf_id VARCHAR, fingerprint VARCHAR, n_vectors INTEGER, avgdl DOUBLE,
        encoded_at TIMESTAMP DEFAULT current_timestamp, PRIMARY KEY (collection, pdf_id))""",
    "CREATE TABLE IF NOT EXISTS ledger.bm25_papers (pdf_id VARCHAR PRIMARY KEY, n_docs INTEGER, total_len BIGINT)",
    "CREATE TABLE IF NOT EXISTS ledger.bm25_terms (pdf_id VARCHAR, term UBIGINT, df INTEGER)",
    # seq: a number per write of a paper's statistics, rising with every write, so a paper's rows of bm25_terms sit
    # together in rising seq order and DuckDB's zonemaps skip every other row group (pdf_ids are random UUIDs: a
    # filter on them scans the whole table, 84M rows at 50k papers)
    "ALTER TABLE ledger.bm25_papers ADD COLUMN IF NOT EXISTS seq BIGINT",
    "ALTER TABLE ledger.bm25_terms ADD COLUMN IF NOT EXISTS seq BIGINT",
]
DF_TABLE = "CREATE TABLE ledger.bm25_df (term UBIGINT PRIMARY KEY, df BIGINT NOT NULL)"


@dataclass
class PaperRow:
    fingerprint: str
    n_vectors: int
    avgdl: float | None


def ensure(con: duckdb.DuckDBPyConnection) -> None:
    for sql in DDL:
        con.execute(sql)
    if not _has_df_table(con):  # first open by a paperbase with the sums: build them once from the per-paper rows
        con.execute(DF_TABLE)
        con.execute("INSERT INTO ledger.bm25_df SELECT term, sum(df) FROM ledger.bm25_terms GROUP BY term")
    if con.execute("SELECT count(*) FROM ledger.bm25_papers WHERE seq IS NULL").fetchone()[0]:
        # rows from before seq: number the papers in the order their rows were stored, so zonemaps work for them too
        con.execute("""CREATE TEMP TABLE _bm25_seq AS SELECT pdf_id, (SELECT coalesce(max(seq), 0) FROM ledger.bm25_papers)
                           + row_number() OVER (ORDER BY first_row) AS seq
                       FROM (SELECT pdf_id, min(rowid) AS first_row FROM ledger.bm25_terms GROUP BY pdf_id)""")
        con.execute("""UPDATE ledger.bm25_papers SET seq = s.seq FROM _bm25_seq s
                       WHERE bm25_papers.pdf_id = s.pdf_id AND bm25_papers.seq IS NULL""")
        con.execute("UPDATE ledger.bm25_terms SET seq = s.seq FROM _bm25_seq s WHERE bm25_terms.pdf_id = s.pdf_id")
        con.execute("DROP TABLE _bm25_seq")


def _has_df_table(con) -> bool:
    return bool(con.execute("SELECT count(*) FROM duckdb_tables() WHERE schema_name = 'ledger' AND table_name = 'bm25_df'"
                            " AND database_name = current_database()").fetchone()[0])


def _safe(con, sql: str, params: list | None = None) -> list[tuple]:
    try:
        return con.execute(sql, params or []).fetchall()
    except duckdb.CatalogException:  # ledger tables not created yet
        return []


def collections(con) -> dict[str, tuple[str, int]]:
    return {c: (m, d) for c, m, d in _safe(con, "SELECT collection, model, dim FROM ledger.vector_collections")}


def papers(con, collection: str) -> dict[str, PaperRow]:
    rows = _safe(con, "SELECT pdf_id, fingerprint, n_vectors, avgdl FROM ledger.vector_papers WHERE collection = ?", [collection])
    return {p: PaperRow(f, n, a) for p, f, n, a in rows}


def bm25_papers(con) -> dict[str, tuple[int, int]]:
    return {p: (n, t) for p, n, t in _safe(con, "SELECT pdf_id, n_docs, total_len FROM ledger.bm25_papers")}


def bm25_df(con, terms: list[int]) -> tuple[dict[int, int], int]:
    """(document frequency per term over the encoded corpus, number of documents)."""
    try:
        df = dict(con.execute("SELECT term, df FROM ledger.bm25_df WHERE term IN (SELECT unnest(?::UBIGINT[]))",
                              [terms]).fetchall())
    except (duckdb.CatalogException, duckdb.InvalidInputException):  # a ledger from before the sums (read-only
        # until a writer opens it; DuckDB reports the missing table as a failed replacement scan of this function)
        df = dict(_safe(con, "SELECT term, sum(df)::BIGINT FROM ledger.bm25_terms WHERE term IN (SELECT unnest(?)) "
                             "GROUP BY term", [terms]))
    n = _safe(con, "SELECT coalesce(sum(n_docs), 0)::BIGINT FROM ledger.bm25_papers")
    return {int(k): int(v) for k, v in df.items()}, int(n[0][0]) if n else 0


def bm25_paper_df(con, pdf_ids: list[str], terms: list[int]) -> tuple[dict[int, int], int]:
    """(document frequency per term within these papers, their number of documents): the statistics of the
    documents a search pinned to these papers ranks. Rows are found by the papers' seq (zonemaps: the cost does not
    grow with the library); a ledger no writer has opened since seq existed is read by pdf_id."""
    if not terms:
        terms = [0]  # the document count alone
    try:
        one = len(pdf_ids) == 1
        n, seqs = con.execute("SELECT coalesce(sum(n_docs), 0)::BIGINT, list(seq) FROM ledger.bm25_papers WHERE "
                              + ("pdf_id = ?" if one else "pdf_id IN (SELECT unnest(?::VARCHAR[]))"),
                              [pdf_ids[0] if one else pdf_ids]).fetchone()
        if not seqs or None in seqs:
            raise duckdb.BinderException("rows without seq")
        # integers written into the statement: DuckDB plans a literal list faster than a bound array (~0.3 ms
        # of a ~1 ms lookup, measured), and these are ints from our own tables and hashes, never text
        rows = con.execute(f"SELECT term, sum(df)::BIGINT FROM ledger.bm25_terms WHERE seq IN "
                           f"({', '.join(str(int(s)) for s in seqs)}) AND term IN ({', '.join(str(int(t)) for t in terms)}) "
                           f"GROUP BY term").fetchall()
        return {int(k): int(v) for k, v in rows}, int(n or 0)
    except duckdb.CatalogException:  # no ledger yet
        return {}, 0
    except duckdb.BinderException:  # no seq column yet (read-only until a writer opens it), or rows without one
        n = _safe(con, "SELECT coalesce(sum(n_docs), 0)::BIGINT FROM ledger.bm25_papers WHERE pdf_id IN "
                       "(SELECT unnest(?::VARCHAR[]))", [pdf_ids])[0][0]
        key, values = "pdf_id IN (SELECT unnest(?::VARCHAR[]))", pdf_ids
    df = _safe(con, f"SELECT term, sum(df)::BIGINT FROM ledger.bm25_terms WHERE {key} "
                    "AND term IN (SELECT unnest(?::UBIGINT[])) GROUP BY term", [values, terms])
    return {int(k): int(v) for k, v in df}, int(n or 0)


def set_collection(con, collection: str, model: str, dim: int | None) -> None:
    con.execute("DELETE FROM ledger.vector_collections WHERE collection = ?", [collection])
    con.execute("INSERT INTO ledger.vector_collections (collection, model, dim) VALUES (?, ?, ?)", [collection, model, dim])


def forget_collection(con, collection: str, *, bm25: bool) -> None:
    con.execute("DELETE FROM ledger.vector_collections WHERE collection = ?", [collection])
    con.execute("DELETE FROM ledger.vector_papers WHERE collection = ?", [collection])
    if bm25:
        con.execute("DELETE FROM ledger.bm25_papers")
        con.execute("DELETE FROM ledger.bm25_terms")
        con.execute("DELETE FROM ledger.bm25_df")


def invalidate(con, collection: str, pdf_ids: list[str]) -> None:
    con.execute("DELETE FROM ledger.vector_papers WHERE collection = ? AND pdf_id IN (SELECT unnest(?))", [collection, pdf_ids])


def record(con, collection: str, rows: dict[str, PaperRow]) -> None:
    if rows:
        con.executemany("INSERT INTO ledger.vector_papers (collection, pdf_id, fingerprint, n_vectors, avgdl) VALUES (?, ?, ?, ?, ?)",
                        [[collection, p, r.fingerprint, r.n_vectors, r.avgdl] for p, r in rows.items()])


def set_bm25_stats(con, stats: dict[str, tuple[int, int, Counter[int]]]) -> None:
    """Replace the BM25 statistics of these papers: pdf_id -> (n_docs, total_len, df)."""
    ids = list(stats)
    if not ids:
        return
    # the papers' old rows, found by their seq (zonemaps; ensure() numbered every row); a paper new to the ledger
    # has none, and looking for them by pdf_id would scan the whole table
    old_seqs = [int(s) for (s,) in con.execute("SELECT seq FROM ledger.bm25_papers WHERE pdf_id IN (SELECT unnest(?)) "
                                               "AND seq IS NOT NULL", [ids]).fetchall()]
    con.execute("DELETE FROM ledger.bm25_papers WHERE pdf_id IN (SELECT unnest(?))", [ids])
    if old_seqs:  # take back what these papers contributed to the sums, then forget their rows
        old_rows = f"seq IN ({', '.join(map(str, old_seqs))})"
        con.execute(f"""UPDATE ledger.bm25_df SET df = bm25_df.df - old.df
                        FROM (SELECT term, sum(df) AS df FROM ledger.bm25_terms WHERE {old_rows}
                              GROUP BY term) AS old WHERE bm25_df.term = old.term""")
        con.execute("DELETE FROM ledger.bm25_df WHERE df <= 0")
        con.execute(f"DELETE FROM ledger.bm25_terms WHERE {old_rows}")
    first = con.execute("SELECT coalesce(max(seq), 0) FROM ledger.bm25_papers").fetchone()[0] + 1
    seq = {p: first + i for i, p in enumerate(ids)}
    rows = [[p, n, t, seq[p]] for p, (n, t, _) in stats.items() if n]
    if rows:
        con.executemany("INSERT INTO ledger.bm25_papers (pdf_id, n_docs, total_len, seq) VALUES (?, ?, ?, ?)", rows)
    terms = [(p, int(term), int(df), seq[p]) for p, (_, _, dfs) in stats.items() for term, df in dfs.items()]
    if terms:
        import pandas as pd  # duckdb bulk-loads a DataFrame far faster than executemany

        frame = pd.DataFrame(terms, columns=["pdf_id", "term", "df", "seq"]).sort_values("seq", kind="stable")
        con.register("_bm25_terms_new", frame)
        con.execute("INSERT INTO ledger.bm25_terms (pdf_id, term, df, seq) "
                    "SELECT pdf_id, term::UBIGINT, df::INTEGER, seq::BIGINT FROM _bm25_terms_new")
        con.execute("""INSERT INTO ledger.bm25_df SELECT term::UBIGINT, sum(df)::BIGINT FROM _bm25_terms_new GROUP BY term
                       ON CONFLICT (term) DO UPDATE SET df = bm25_df.df + excluded.df""")
        con.unregister("_bm25_terms_new")
