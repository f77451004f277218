"""The DuckDB half of bench/scale.py (`scale.py duckdb`): the source database's papers replicated under new ids, and
the BM25 ledger grown to corpus-like term rows per paper. Rules in scale.py's docstring."""
from __future__ import annotations

import hashlib
import os
import uuid
import shutil
import statistics
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

import duckdb

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from pipeline.store.schema import render_indexes  # noqa: E402
from pipeline.vectors import ledger  # noqa: E402

TABLES = ["metadata", "pages", "chunks", "sections", "tables", "images", "equations", "reference"]
TERMS_PER_PAPER = 1680  # distinct BM25 terms per paper in the corpus (84M ledger rows / 50k papers in issue 18)
VOCAB = 400_000
# The agent's per-paper reads (the seeds' SQL shapes), one paper id bound as $1.
QUERIES = {
    "chunks_of_paper": "SELECT chunk_id, text_content FROM chunks WHERE ref_paper_id = $1 ORDER BY ordinal",
    "sections_of_paper": "SELECT section_title, section_content FROM sections WHERE ref_paper_id = $1 ORDER BY ordinal",
    "page_of_paper": "SELECT page_content FROM pages WHERE ref_paper_id = $1 AND page_number = 3",
    "tables_of_paper": "SELECT table_caption, table_content FROM tables WHERE ref_paper_id = $1",
    "metadata_of_paper": "SELECT title, abstract FROM metadata WHERE paper_id = $1",
}


def _pct(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(q * (len(xs) - 1))))] * 1000


def _replicate(con, src: Path, papers: int) -> None:
    """Every table of `src` copied ceil(papers / n_src) times under md5-derived ids, text suffixed with the copy."""
    con.execute(f"ATTACH '{src}' AS src (READ_ONLY)")
    n_src = con.execute("SELECT count(*) FROM src.metadata").fetchone()[0]
    copies = -(-papers // n_src)
    con.execute(f"CREATE TEMP TABLE copies AS SELECT range AS k FROM range({copies})")
    for t in TABLES:
        con.execute(f"CREATE TABLE {t} AS SELECT * FROM src.{t} LIMIT 0")
        cols = [r[0] for r in con.execute(f"SELECT column_name, data_type FROM duckdb_columns() WHERE database_name = "
                                          f"'src' AND table_name = '{t}' ORDER BY column_index").fetchall()]
        types = dict(con.execute(f"SELECT column_name, data_type FROM duckdb_columns() WHERE database_name = 'src' "
                                 f"AND table_name = '{t}'").fetchall())
        sel = []
        for c in cols:
            if types[c] == "UUID":
                sel.append(f"md5({c}::VARCHAR || k::VARCHAR)::UUID AS {c}")
            elif types[c] == "VARCHAR" and c.endswith(("content", "title", "caption")):
                sel.append(f"{c} || ' #' || k::VARCHAR AS {c}")
            else:
                sel.append(c)
        # copy-major order: a paper's rows are contiguous, as paper-by-paper ingest writes them
        con.execute(f"INSERT INTO {t} SELECT {', '.join(sel)} FROM copies, src.{t} ORDER BY k")
    con.execute("DETACH src")


def _grow_ledger(con, papers: int) -> None:
    ledger.ensure(con)
    # as set_bm25_stats writes them: one seq per paper, a paper's rows together in rising seq order
    # (pdf ids are UUID strings in random order, as paperbase's are: zonemaps on them cannot skip anything)
    con.execute(f"""INSERT INTO ledger.bm25_papers (pdf_id, n_docs, total_len, seq)
                    SELECT md5(i::VARCHAR)::UUID::VARCHAR, 1500, 1500 * 60, i + 1 FROM range({papers}) t(i)""")
    con.execute(f"""INSERT INTO ledger.bm25_terms (pdf_id, term, df, seq) SELECT md5(i::VARCHAR)::UUID::VARCHAR,
                    (hash(i, j) % {VOCAB})::UBIGINT, 1 + (hash(j, i) % 4)::INTEGER, i + 1
                    FROM range({papers}) a(i), range({TERMS_PER_PAPER}) b(j) ORDER BY i""")


def _per_paper(con, ids: list, res: dict, suffix: str) -> None:
    for name, sql in QUERIES.items():
        xs = []
        for pid in ids:
            t0 = time.perf_counter()
            con.execute(sql, [pid]).fetchall()
            xs.append(time.perf_counter() - t0)
        res[f"{name}{suffix}_p50_ms"], res[f"{name}{suffix}_p95_ms"] = _pct(xs, 0.5), _pct(xs, 0.95)


def measure(src: Path, papers: int, workdir: str | None) -> dict:
    work = Path(tempfile.mkdtemp(prefix="pbscale-db-", dir=workdir))
    path = work / "paperbase.duckdb"
    res: dict = {"papers": papers, "load": "/".join(f"{x:.1f}" for x in os.getloadavg())}
    try:
        con = duckdb.connect(str(path))
        t0 = time.perf_counter()
        _replicate(con, src, papers)
        res["replicate_s"] = time.perf_counter() - t0
        t0 = time.perf_counter()
        _grow_ledger(con, papers)
        res["ledger_rows"] = con.execute("SELECT count(*) FROM ledger.bm25_terms").fetchone()[0]
        con.execute("DROP TABLE ledger.bm25_df")
        t0 = time.perf_counter()
        ledger.ensure(con)  # the one-off backfill an existing store pays on its first write
        res["df_backfill_s"] = time.perf_counter() - t0
        con.execute("CHECKPOINT")
        con.close()
        res["file_mb"] = path.stat().st_size / 2**20
        res["chunks_rows"] = None
        ids = None
        con = duckdb.connect(str(path), read_only=True)
        res["chunks_rows"] = con.execute("SELECT count(*) FROM chunks").fetchone()[0]
        ids = [r[0] for r in con.execute("SELECT paper_id FROM metadata USING SAMPLE 20 ROWS (reservoir, 1)").fetchall()]
        _per_paper(con, ids, res, "")
        xs = []
        for pid in ids[:5]:  # the old per-query pattern: open a read-only connection for every query
            t0 = time.perf_counter()
            c2 = duckdb.connect(str(path), read_only=True)
            c2.execute(QUERIES["chunks_of_paper"], [pid]).fetchall()
            c2.close()
            xs.append(time.perf_counter() - t0)
        res["chunks_of_paper_new_connection_p50_ms"] = _pct(xs, 0.5)
        t0 = time.perf_counter()
        con.execute("SELECT count(*) FROM chunks WHERE text_content LIKE '%attention mechanism%'").fetchall()
        res["like_all_chunks_ms"] = (time.perf_counter() - t0) * 1000
        terms = [r[0] for r in con.execute("SELECT DISTINCT term FROM ledger.bm25_terms LIMIT 12").fetchall()]
        old, new = [], []
        for _ in range(5):
            t0 = time.perf_counter()
            con.execute("SELECT term, sum(df)::BIGINT FROM ledger.bm25_terms WHERE term IN (SELECT unnest(?)) "
                        "GROUP BY term", [terms]).fetchall()
            con.execute("SELECT coalesce(sum(n_docs), 0)::BIGINT FROM ledger.bm25_papers").fetchall()
            old.append(time.perf_counter() - t0)
            t0 = time.perf_counter()
            df, n = ledger.bm25_df(con, terms)
            new.append(time.perf_counter() - t0)
        assert n > 0 and df, "df lookup found nothing"
        res["bm25_df_scan_p50_ms"], res["bm25_df_table_p50_ms"] = _pct(old, 0.5), _pct(new, 0.5)
        con.close()
        con = duckdb.connect(str(path))
        t0 = time.perf_counter()
        for stmt in render_indexes():  # the store's own indexes (every foreign-key column), as ensure_tables makes them
            con.execute(stmt)
        con.execute("CHECKPOINT")
        res["paper_index_build_s"] = time.perf_counter() - t0
        res["file_mb_indexed"] = path.stat().st_size / 2**20
        con.close()
        con = duckdb.connect(str(path), read_only=True)
        _per_paper(con, ids, res, "_indexed")
        con.close()
        import pandas  # noqa: F401  (imported by set_bm25_stats; not part of storing a paper)

        con = duckdb.connect(str(path))
        stats = {"pnew": (1500, 90_000, Counter({int(t): 1 for t in range(1, TERMS_PER_PAPER + 1)}))}
        t0 = time.perf_counter()
        con.execute("BEGIN")
        ledger.set_bm25_stats(con, stats)
        con.execute("COMMIT")
        res["store_one_paper_bm25_stats_s"] = time.perf_counter() - t0
        t0 = time.perf_counter()
        con.execute("BEGIN")
        ledger.set_bm25_stats(con, {"pnew": (0, 0, Counter())})
        con.execute("COMMIT")
        res["remove_one_paper_bm25_stats_s"] = time.perf_counter() - t0
        con.close()
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return res


def run_duckdb(args) -> list[dict]:
    import json

    if not args.source or not args.source.exists():
        sys.exit("pass --source: an ingested paperbase.duckdb whose papers are replicated")
    out = []
    for p in args.papers:
        r = measure(args.source, p, args.workdir)
        print(json.dumps(r), flush=True)
        out.append(r)
    return out


def measure_ledger(papers: int, workdir: str | None) -> dict:
    """The BM25 ledger alone at `papers` (the 50k-paper database is 7 GB; its ledger is what the df lookup reads)."""
    import pandas  # noqa: F401  (imported by set_bm25_stats; not part of storing a paper)

    work = Path(tempfile.mkdtemp(prefix="pbscale-ledger-", dir=workdir))
    path = work / "paperbase.duckdb"
    res: dict = {"ledger_papers": papers, "load": "/".join(f"{x:.1f}" for x in os.getloadavg())}
    try:
        con = duckdb.connect(str(path))
        _grow_ledger(con, papers)
        res["ledger_rows"] = con.execute("SELECT count(*) FROM ledger.bm25_terms").fetchone()[0]
        con.execute("DROP TABLE ledger.bm25_df")
        t0 = time.perf_counter()
        ledger.ensure(con)
        res["df_backfill_s"] = time.perf_counter() - t0
        res["vocabulary"] = con.execute("SELECT count(*) FROM ledger.bm25_df").fetchone()[0]
        con.execute("CHECKPOINT")
        con.close()
        res["file_mb"] = path.stat().st_size / 2**20
        con = duckdb.connect(str(path), read_only=True)
        terms = [r[0] for r in con.execute("SELECT term FROM ledger.bm25_df USING SAMPLE 12 ROWS").fetchall()]
        old, new = [], []
        for _ in range(5):
            t0 = time.perf_counter()
            con.execute("SELECT term, sum(df)::BIGINT FROM ledger.bm25_terms WHERE term IN (SELECT unnest(?)) "
                        "GROUP BY term", [terms]).fetchall()
            con.execute("SELECT coalesce(sum(n_docs), 0)::BIGINT FROM ledger.bm25_papers").fetchall()
            old.append(time.perf_counter() - t0)
            t0 = time.perf_counter()
            ledger.bm25_df(con, terms)
            new.append(time.perf_counter() - t0)
        res["bm25_df_scan_p50_ms"], res["bm25_df_table_p50_ms"] = _pct(old, 0.5), _pct(new, 0.5)
        # a search pinned to one paper: that paper's statistics, found by its seq (zonemaps) or by pdf_id (a scan)
        by_seq, by_id = [], []
        for i in range(0, papers, max(1, papers // 7))[:7]:
            pid = str(uuid.UUID(hashlib.md5(str(i).encode()).hexdigest()))
            t0 = time.perf_counter()
            df, n = ledger.bm25_paper_df(con, [pid], terms)
            by_seq.append(time.perf_counter() - t0)
            assert n == 1500, "per-paper lookup found nothing"
            t0 = time.perf_counter()
            con.execute("SELECT term, sum(df)::BIGINT FROM ledger.bm25_terms WHERE pdf_id IN (SELECT unnest(?::VARCHAR[])) "
                        "AND term IN (SELECT unnest(?::UBIGINT[])) GROUP BY term", [[pid], terms]).fetchall()
            by_id.append(time.perf_counter() - t0)
        res["paper_df_seq_p50_ms"], res["paper_df_pdf_id_scan_p50_ms"] = _pct(by_seq, 0.5), _pct(by_id, 0.5)
        con.close()
        con = duckdb.connect(str(path))
        t0 = time.perf_counter()
        ledger.set_bm25_stats(con, {"pnew": (1500, 90_000, Counter({t: 1 for t in range(1, TERMS_PER_PAPER + 1)}))})
        res["store_one_paper_bm25_stats_s"] = time.perf_counter() - t0
        con.close()
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return res


def run_ledger(args) -> list[dict]:
    import json

    out = []
    for p in args.papers:
        r = measure_ledger(p, args.workdir)
        print(json.dumps(r), flush=True)
        out.append(r)
    return out
