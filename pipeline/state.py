"""Per-paper stage state, derived from the data itself so it can never drift from it: stored (rows in DuckDB),
summarized (no summary cell left NULL), encoded per collection (the vector ledger holds the paper's current cell
fingerprint). A paper is finished when every enabled stage is; a collection whose model is unavailable offline is
not required (doctor says why) and is reported as such.

The runner keeps a paper pending until it is finished, so failed summaries are retried by the next `ingest` and then
their vectors encoded; `status` shows the same state.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import duckdb

from pipeline.config import Settings
from pipeline.results import Status
from pipeline.store import Store

# (table, summary column, paper column): every cell the summarize stage fills
SUMMARY_CELLS = [("pages", "page_summary", "ref_paper_id"), ("sections", "section_summary", "ref_paper_id"),
                 ("tables", "table_summary", "ref_paper_id"), ("images", "image_summary", "ref_paper_id"),
                 ("metadata", "tldr", "paper_id"), ("metadata", "tags", "paper_id")]


@dataclass
class PaperState:
    paper_id: str
    stored: bool = True
    summaries_missing: int = 0  # NULL summary cells (0 when summaries are not a required stage)
    collections: dict[str, bool] = field(default_factory=dict)  # required collection -> encoded with current cells

    @property
    def finished(self) -> bool:
        return self.stored and not self.summaries_missing and all(self.collections.values())

    @property
    def status(self) -> Status:
        return Status.OK if self.finished else Status.PARTIAL

    def describe(self) -> str:
        """e.g. 'summaries: 3 missing; vectors: 1/2' ('' when finished)."""
        parts = []
        if self.summaries_missing:
            parts.append(f"summaries: {self.summaries_missing} missing")
        missing = [c for c, ok in self.collections.items() if not ok]
        if missing:
            parts.append(f"vectors: {len(self.collections) - len(missing)}/{len(self.collections)} ({', '.join(missing)} missing)")
        return "; ".join(parts)


def required_collections(settings: Settings) -> list:
    """Enabled collections whose model is available (an unavailable one is skipped with a message, not owed)."""
    from pipeline.vectors.encoders import availability
    from pipeline.vectors.stage import model_label, target_collections

    out = []
    for coll in target_collections(settings, None):
        ref = model_label(coll, settings) if coll.embed_type != "bm25" else None
        if availability(coll, ref, settings.vectors.download)[0]:
            out.append(coll)
    return out


def paper_states(settings: Settings, paper_ids: list[str] | set[str] | None = None, *,
                 stages: tuple[str, ...] | list[str] = ("summarize", "encode")) -> dict[str, PaperState]:
    """State of the given papers (None: every stored paper); a paper not in the database is `stored=False`."""
    store = Store(settings.duckdb_path)
    if not store.exists():
        return {p: PaperState(p, stored=False) for p in (paper_ids or [])}
    with store.reading() as con:
        return _states(con, settings, paper_ids, stages)


def _states(con: duckdb.DuckDBPyConnection, settings: Settings, paper_ids, stages) -> dict[str, PaperState]:
    from pipeline.vectors import cells, ledger

    stored = [r[0] for r in con.execute("SELECT CAST(paper_id AS VARCHAR) FROM metadata").fetchall()]
    wanted = stored if paper_ids is None else list(paper_ids)
    out = {p: PaperState(p, stored=p in set(stored)) for p in wanted}
    if not out:
        return out
    if "summarize" in stages and settings.summarize.enabled:
        for table, column, key in SUMMARY_CELLS:
            rows = con.execute(f"SELECT CAST({key} AS VARCHAR), count(*) FROM {table} WHERE {column} IS NULL "
                               f"AND CAST({key} AS VARCHAR) IN (SELECT unnest(?)) GROUP BY 1", [wanted]).fetchall()
            for pid, n in rows:
                out[pid].summaries_missing += n
    if "encode" in stages:
        from pipeline.vectors.stage import paper_fingerprint

        prints = _cell_prints(con, settings, None if paper_ids is None else wanted)
        for coll in required_collections(settings):
            done = ledger.papers(con, coll.name)
            for pid, state in out.items():
                if state.stored:
                    row = done.get(pid)
                    state.collections[coll.name] = bool(row) and row.fingerprint == paper_fingerprint(coll, settings, prints, pid)
    return out


__all__ = ["PaperState", "paper_states", "required_collections", "SUMMARY_CELLS"]


# --------------------------------------------------------------------------- the cells' fingerprints, kept

PRINTS_FILE = ".paperbase-cell-prints.json"  # in the data dir


def _identity(path) -> list[int] | None:
    import os

    try:
        st = os.stat(path)
    except FileNotFoundError:
        return None
    return [st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns]


def _cell_prints(con: duckdb.DuckDBPyConnection, settings: Settings, wanted: list[str] | None) -> dict[str, dict]:
    """modality -> {pdf_id: digest of its encodable cells} (cells.fingerprints) for `wanted` (None: every paper).

    Why kept: the digests hash every cell of the library (0.18 s for the 25-paper corpus, so seconds for a thousand
    papers), and every `ingest` asks for them to tell whether its papers' vectors are current, even when nothing
    changed. They are a function of the database's content only, so they are kept in the data dir with the identity
    of the database file and its write-ahead log (inode, size, mtime and ctime: any write changes them, and no call
    can set a ctime back) and used while both are unchanged. The identity is taken while this read connection is
    open, and DuckDB lets no other process write while a reader holds the file. A miss for a few papers of a large
    library computes only those; a miss for most of it computes all and keeps them."""
    import json
    import os

    from pipeline.vectors import cells

    path = settings.duckdb_path
    key = [_identity(path), _identity(path.with_name(path.name + ".wal"))]
    kept_at = settings.data_dir / PRINTS_FILE
    try:
        kept = json.loads(kept_at.read_text())
        prints = kept["prints"] if kept.get("db") == key else None
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        prints = None
    if prints is None:
        n_stored = con.execute("SELECT count(*) FROM metadata").fetchone()[0]
        if wanted is not None and len(set(wanted)) * 2 < n_stored:
            return {m: cells.fingerprints(con, m, wanted) for m in ("text", "image")}
        prints = {m: cells.fingerprints(con, m) for m in ("text", "image")}
        tmp = kept_at.with_name(f"{PRINTS_FILE}.{os.getpid()}.tmp")
        try:
            tmp.write_text(json.dumps({"db": key, "prints": prints}))
            os.replace(tmp, kept_at)
        except OSError:  # a read-only data dir, a full disk: computed again next time
            try:
                tmp.unlink(missing_ok=True)
            except OSError:
                pass
    if wanted is None:
        return prints
    chosen = set(wanted)
    return {m: {p: d for p, d in found.items() if p in chosen} for m, found in prints.items()}

