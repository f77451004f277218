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

        prints = {m: cells.fingerprints(con, m, None if paper_ids is None else wanted) for m in ("text", "image")}
        for coll in required_collections(settings):
            done = ledger.papers(con, coll.name)
            for pid, state in out.items():
                if state.stored:
                    row = done.get(pid)
                    state.collections[coll.name] = bool(row) and row.fingerprint == paper_fingerprint(coll, settings, prints, pid)
    return out


__all__ = ["PaperState", "paper_states", "required_collections", "SUMMARY_CELLS"]
