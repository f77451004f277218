"""`check`: per paper, collection and column, non-empty DuckDB cells versus the DISTINCT cells that have vectors in
Milvus (a long cell has one vector per window in dense collections), and duplicates (two entities with the same id
key, i.e. the same cell and window, which deterministic ids make impossible unless something wrote around them), and
the search copies (copies.py) against Milvus's ids for the same papers: a copy that differs is removed and reported."""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from pipeline.vectors import cells, ledger, milvus
from pipeline.vectors.stage import target_collections
from pipeline.store import Store


@dataclass(frozen=True)
class Mismatch:
    collection: str
    pdf_id: str
    table_name: str
    column_name: str
    cells: int  # non-empty cells in DuckDB
    vectors: int  # distinct cells (table, column, primary_key) with at least one entity in Milvus
    duplicates: int = 0  # entities beyond one per (table, column, primary_key, window)
    problem: str = ""


def check(settings, collections: list[str] | None = None, notes: list[str] | None = None) -> list[Mismatch]:
    """Mismatches per paper and column for every collection that should hold vectors: one that exists, one the ledger
    says was built, or an enabled collection whose model is available while papers are stored (a collection never
    built, or lost, is reported once; its papers have no vectors).

    `notes`, when given, receives hints that are not mismatches: a BM25 collection created before the stored-text
    field (searches work, reading hit texts from DuckDB; `paperbase rebuild -c NAME` adds the field)."""
    store = Store(settings.duckdb_path)
    with store.reading() as con:
        expected = {m: cells.counts(con, m) for m in ("text", "image")}
        present = cells.papers(con)
        recorded = {c.name: set(ledger.papers(con, c.name)) for c in target_collections(settings, collections)}
    out: list[Mismatch] = []
    with milvus.connect(settings) as client:
        existing = milvus.existing(client)
        for coll in target_collections(settings, collections):
            if coll.name not in existing:
                owed = recorded.get(coll.name) or (present and cells.columns(coll.modality) and _available(settings, coll))
                if owed:
                    n = sum(v for k, v in expected[coll.modality].items())
                    out.append(Mismatch(coll.name, "*", "*", "*", n, 0, problem=f"collection missing from Milvus: "
                                        f"{len(present)} paper(s) have no vectors; run `paperbase encode`"))
                continue
            if not cells.columns(coll.modality):
                continue
            milvus.load(client, coll.name)
            if notes is not None and old_text_layout(client, coll):
                notes.append(OLD_TEXT_LAYOUT.format(name=coll.name))
            want = expected[coll.modality]
            ids_by_paper: dict[str, set[int]] = {}
            for pdf_id in sorted(set(present) | recorded[coll.name]):
                ents = milvus.entities(client, coll.name, pdf_id)
                ids_by_paper[pdf_id] = {int(e["id"]) for e in ents}
                have = Counter((t, c) for t, c, _pk in {(e["table_name"], e["column_name"], e["primary_key"]) for e in ents})
                dups = Counter((e["table_name"], e["column_name"]) for e, n in _dup_entities(ents))
                for table, column in cells.columns(coll.modality):
                    n_cells = want.get((pdf_id, table, column), 0)
                    n_vec = have.get((table, column), 0)
                    if n_cells != n_vec or dups.get((table, column)):
                        problem = "paper not in DuckDB" if pdf_id not in present else (
                            "duplicates" if n_cells == n_vec else "count differs")
                        out.append(Mismatch(coll.name, pdf_id, table, column, n_cells, n_vec, dups.get((table, column), 0), problem))
            for shard in milvus.stray_copies(client, coll.name, ids_by_paper):
                out.append(Mismatch(coll.name, "*", "*", "*", 0, 0, problem=(
                    f"search copy of {shard} differed from Milvus; removed it (searches there use Milvus until "
                    f"`paperbase encode` reads it back)")))
    return out


OLD_TEXT_LAYOUT = ("{name} was created before the BM25 collection stored hit texts: searches read them from DuckDB "
                   "(slower); `paperbase rebuild -c {name}` recreates it with the field")


def old_text_layout(client, coll) -> bool:
    """The schema gives `coll` the stored-text field but the existing Milvus collection lacks it."""
    return any(f.name == milvus.TEXT_FIELD for f in coll.fields) and not milvus.stores_text(client, coll.name)


def _dup_entities(ents: list[dict]):
    """Entities beyond the first with the same id (Milvus does not refuse a second insert of a primary key)."""
    seen = Counter((e["table_name"], e["column_name"], e["primary_key"], e.get("id")) for e in ents)
    for e in ents:
        key = (e["table_name"], e["column_name"], e["primary_key"], e.get("id"))
        if seen[key] > 1:
            seen[key] -= 1
            yield e, 1


def _available(settings, coll) -> bool:
    from pipeline.vectors.encoders import availability
    from pipeline.vectors.stage import model_label

    return availability(coll, model_label(coll, settings) if coll.embed_type != "bm25" else None,
                        settings.vectors.download)[0]

