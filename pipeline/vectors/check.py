"""`check`: per paper, collection and column, non-empty DuckDB cells versus the DISTINCT cells that have vectors in
Milvus (a long cell has one vector per window in dense collections), and duplicates (two entities with the same id
key, i.e. the same cell and window, which deterministic ids make impossible unless something wrote around them), and
the search copies (copies.py) against Milvus: their files against their digests, their ids against Milvus's for the
same papers and their vectors against Milvus's (a random sample per shard, or all); a copy that differs is removed
and reported. A collection a `rebuild` is re-encoding right now is left out, with a note saying so; so is one the
Milvus server cannot hold (server.py: BM25 before 2.4), which `encode` skips, rather than reported as owed."""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from pipeline.vectors import cells, ledger, milvus, rebuilding, server
from pipeline.vectors.errors import CollectionGone
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


COPY_SAMPLE = 64  # vectors compared per shard copy by default (Milvus Lite walks the shard for each `get`)


def check(settings, collections: list[str] | None = None, notes: list[str] | None = None,
          sample: int = COPY_SAMPLE, scope: dict | None = None) -> list[Mismatch]:
    """Mismatches per paper and column for every collection that should hold vectors: one that exists, one the ledger
    says was built, or an enabled collection whose model is available while papers are stored (a collection never
    built, or lost, is reported once; its papers have no vectors).

    `notes`, when given, receives hints that are not mismatches: a BM25 collection created before the stored-text
    field (searches work, reading hit texts from DuckDB; `paperbase rebuild -c NAME` adds the field), a collection
    left out because a rebuild is re-encoding it, and how many search-copy vectors were compared with Milvus's
    (`sample` per shard; 0: every one).

    `scope`, when given, receives what was compared: papers, cells (per modality, of the checked collections) and
    the collections checked (so `paperbase check` can say what its "0 mismatch(es)" covers)."""
    notes = notes if notes is not None else []
    scope = scope if scope is not None else {}
    store = Store(settings.duckdb_path)
    with store.reading() as con:
        expected = {m: cells.counts(con, m) for m in ("text", "image")}
        present = cells.papers(con)
        recorded = {c.name: set(ledger.papers(con, c.name)) for c in target_collections(settings, collections)}
    out: list[Mismatch] = []
    compared = rows = 0
    sampled = False
    with milvus.connect(settings) as client:
        existing = milvus.existing(client)
        for coll in target_collections(settings, collections):
            busy = rebuilding.describe(settings, coll.name)
            if busy:
                notes.append(f"{busy}; not checked (run `paperbase check` when it has finished)")
                continue
            refused = server.features(client).refusal(coll) if server.is_server(client) else None
            if refused and coll.name not in existing:  # encode skips it too: owing it would send users in a loop
                notes.append(f"{refused}; not checked")
                continue
            try:
                found, copy_check = _check_one(settings, client, coll, coll.name in existing, expected, present,
                                               recorded, notes, sample)
            except CollectionGone as exc:
                busy = rebuilding.describe(settings, coll.name)
                notes.append(f"{busy or exc}; not checked (run `paperbase check` when it has finished)")
                continue
            out += found
            if coll.name in existing:  # a collection never built (model unavailable, nothing owed) compared nothing
                scope.setdefault("collections", []).append(coll.name)
                scope.setdefault("modalities", set()).add(coll.modality)
            if copy_check is not None:
                compared, rows, sampled = compared + copy_check.compared, rows + copy_check.rows, \
                    sampled or copy_check.sampled
    if rows:
        how = (f"a random {compared:,} of {rows:,} vectors compared with Milvus's ({sample} per shard; `--sample 0` "
               f"compares every one)" if sampled else f"all {compared:,} vectors compared with Milvus's")
        notes.append(f"search copies: {how}")
    scope["papers"] = len(present)
    scope["cells"] = sum(n for m in scope.pop("modalities", set()) for n in expected[m].values())
    scope.setdefault("collections", [])
    return out


def _check_one(settings, client, coll, exists: bool, expected, present, recorded, notes: list[str],
               sample: int) -> tuple[list[Mismatch], milvus.CopyCheck | None]:
    out: list[Mismatch] = []
    if not exists:
        owed = recorded.get(coll.name) or (present and cells.columns(coll.modality) and _available(settings, coll))
        if owed:
            n = sum(v for k, v in expected[coll.modality].items())
            out.append(Mismatch(coll.name, "*", "*", "*", n, 0, problem=f"collection missing from Milvus: "
                                f"{len(present)} paper(s) have no vectors; run `paperbase encode`"))
        return out, None
    if not cells.columns(coll.modality):
        return out, None
    milvus.load(client, coll.name)
    if old_text_layout(client, coll):
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
    copy_check = milvus.check_copies(client, coll.name, ids_by_paper, sample)
    for shard, why in copy_check.removed:
        out.append(Mismatch(coll.name, "*", "*", "*", 0, 0, problem=(
            f"search copy of {shard} differed from Milvus: {why}; removed it (searches there use Milvus "
            f"until `paperbase encode` reads it back)")))
    return out, copy_check


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

