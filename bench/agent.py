"""Agent action latency (p50/p95) on an ingested store, beside the bare DuckDB query and bare Milvus search.

    .venv/bin/python bench/agent.py --data-dir /tmp/agentbench/data [--repeat 40]

Columns, per action: the agent action end to end (`Environment.execute`: checks, the read API, formatting of the
observation), the read API call alone (`Reader.sql` / `Reader.search`), and the bare call:
- SQL: a one-shot read-only DuckDB connection + execute + fetch (what a reader that holds no connection between
  queries must do), and the same query on a warm connection (what the read API does: it keeps one connection and
  lets go of it only when a writer waits);
- vectors: the agent action twice: as an agent's searches run (the reader keeps the texts of cells it already joined
  while its connection stays open) and with that cache emptied before every call (every hit's text read from DuckDB);
  the bare call is `MilvusClient.search` with the query vector computed beforehand (pure Milvus; a paper filter
  searches only the paper's bucket, as the read API does), and the same plus the
  query encoding (MiniLM forward pass / BM25 weighting) — the least work any caller must do.
Targets: RetrieveFromDatabase p50 < 20 ms, RetrieveFromVectorstore p50 < 100 ms, agent <= 1.5x the bare call.

The vector rows are timed round-robin (one call of each variant per round), so load that comes and goes on a shared
machine falls on the action and on its bare call alike; timed one block after another, the same ratio swung from
0.55x to 1.86x between runs at load 2-3 on 2 cores. "texts not cached" empties the reader's text cache before the
call: BM25 hits carry their texts (the collection stores them, docs/vectors.md), so for BM25 that row equals the
cached one unless the collection predates the stored texts (then every hit is read from DuckDB).
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import duckdb  # noqa: E402

from agent.config import AgentSettings  # noqa: E402
from agent.env import Environment  # noqa: E402
from agent.parse import Action, parse_action  # noqa: E402
from agent.prompts import action_names  # noqa: E402
from pipeline.config import load_settings  # noqa: E402
from pipeline.read import GUARDED_CONFIG  # noqa: E402
from pipeline.store.connection import BASE_CONFIG  # noqa: E402
from pipeline.read import Reader  # noqa: E402
from pipeline.vectors import bm25, ledger, milvus  # noqa: E402
from pipeline.vectors.encoders import load_encoder  # noqa: E402
from pipeline.vectors.paper_search import pinned_papers  # noqa: E402
from pipeline.vectors.search import build_filter  # noqa: E402
from pipeline.vectors.stage import model_label  # noqa: E402
from schemas.vectorstore import collection as schema_collection  # noqa: E402


def timings(fn: Callable[[], object], repeat: int) -> list[float]:
    fn()  # warm-up (model load, first connection)
    out = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        out.append((time.perf_counter() - t0) * 1000)
    return out


def interleaved(fns: dict[str, Callable[[], object]], repeat: int) -> dict[str, list[float]]:
    """`repeat` rounds, each calling every function once in the given order (after one warm-up round)."""
    for fn in fns.values():
        fn()
    out: dict[str, list[float]] = {k: [] for k in fns}
    for _ in range(repeat):
        for k, fn in fns.items():
            t0 = time.perf_counter()
            fn()
            out[k].append((time.perf_counter() - t0) * 1000)
    return out


def p(values: list[float], q: float) -> float:
    return statistics.quantiles(values, n=100, method="inclusive")[int(q) - 1] if len(values) > 1 else values[0]


def row(label: str, values: list[float] | None) -> str:
    if not values:
        return f"| {label} | - | - |"
    return f"| {label} | {p(values, 50):.1f} | {p(values, 95):.1f} |"


# DuckDB refuses a second connection to one file with another configuration in the same process: the bare
# connections use the read API's settings (they change no timing: external access off, configuration locked).
SAME = {**BASE_CONFIG, **GUARDED_CONFIG}


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--data-dir", type=Path, required=True)
    ap.add_argument("--repeat", type=int, default=40)
    args = ap.parse_args()
    settings = load_settings(data_dir=args.data_dir)
    n = args.repeat
    results: list[tuple[str, list[float], list[float] | None, list[float] | None, list[float] | None]] = []
    with Reader(settings) as reader:
        env = Environment(reader, AgentSettings())
        papers = reader.papers()
        pid = papers[0]["paper_id"]
        print(f"store: {args.data_dir} — {len(papers)} papers, collections {reader.collections()}")

        # ---- SQL ----
        queries = [f"SELECT title, abstract FROM metadata WHERE paper_id = '{pid}'",
                   f"SELECT section_title FROM sections WHERE ref_paper_id = '{pid}'",
                   f"SELECT page_content FROM pages WHERE ref_paper_id = '{pid}'"]
        for sql in queries:
            label = sql.split(" WHERE")[0]
            agent = timings(lambda: env.execute(Action("RetrieveFromDatabase", {"sql": sql})), n)
            api = timings(lambda: reader.sql(sql, max_rows=10), n)

            def one_shot() -> None:
                con = duckdb.connect(str(settings.duckdb_path), read_only=True, config=SAME)
                try:
                    con.execute(sql).fetchmany(11)
                finally:
                    con.close()

            bare = timings(one_shot, n)  # before any other connection keeps the database instance cached
            warm_con = duckdb.connect(str(settings.duckdb_path), read_only=True, config=SAME)
            warm = timings(lambda: warm_con.execute(sql).fetchmany(11), n)
            warm_con.close()
            results.append((f"RetrieveFromDatabase `{label}`", agent, api, bare, warm))

        # ---- vectors ----
        client = reader.client
        for coll_name, table, column, flt in [("text_bm25_en", "chunks", "text_content", f"pdf_id == '{pid}'"),
                                              ("text_sentence_transformers_all_minilm_l6_v2", "chunks", "text_content", ""),
                                              ("text_sentence_transformers_all_minilm_l6_v2", "pages", "page_content", f"pdf_id == '{pid}'")]:
            if coll_name not in reader.collections():
                continue
            query = "retrieval augmented generation with a dense passage retriever"
            coll = schema_collection(coll_name)
            act = Action("RetrieveFromVectorstore", {"query": query, "collection_name": coll_name, "table_name": table,
                                                     "column_name": column, "filter": flt, "limit": 5})
            env.execute(act)  # loads the collection (the bare call below needs it loaded)
            if coll.embed_type == "bm25":
                terms = list(bm25.term_counts(query))
                with duckdb.connect(str(settings.duckdb_path), read_only=True, config=SAME) as con:
                    df, n_docs = ledger.bm25_df(con, terms)
                encode = lambda: bm25.query_vector(query, df, n_docs)  # noqa: E731
            else:
                enc = load_encoder(coll, model_label(coll, settings), download=False, device=settings.vectors.device)
                encode = lambda: enc.encode_query(query).tolist()  # noqa: E731
            vector = encode()
            expr = build_filter(table, column, flt)
            fields = milvus.META_FIELDS
            milvus.load(client, coll_name)
            # the paper's shard and bucket, as the read API searches it (a filter pinning one paper: one shard); with
            # no filter, every shard (milvus.search's fan-out and merge is then the least a search can do)
            targets = milvus.layout(client, coll_name).targets(pinned_papers(expr))

            def bare_search(v=None) -> None:
                v = v if v is not None else vector
                if len(targets) > 1:
                    milvus.search(client, coll_name, v, limit=5, expr=expr, fields=fields,
                                  params=coll.search_params)
                    return
                (shard, parts), = targets
                client.search(shard, data=[v], anns_field="vector", limit=5, filter=expr, output_fields=fields,
                              search_params=coll.search_params, partition_names=parts)

            # each variant leaves the caches as the next one expects: `first` empties them all, its own call fills
            # them again; `cold` empties the texts and its call reads them again; `agent` then finds everything kept
            t = interleaved({
                # nothing kept at all (BM25 statistics too): the first search of a paper on a fresh connection
                "first": lambda: (reader._cache.clear(), env.execute(act)),
                # hit texts not in the reader's cache (a search whose hits were never read before)
                "cold": lambda: (reader._cache.pop("texts", None), env.execute(act)),
                "agent": lambda: env.execute(act),
                "api": lambda: reader.search(query, coll_name, table, column, flt or None, 5),
                "bare_enc": lambda: bare_search(encode()),
                "bare": bare_search,
            }, n)
            agent, cold, first, api, bare_enc, bare = (t[k] for k in ("agent", "cold", "first", "api", "bare_enc", "bare"))
            label = f"RetrieveFromVectorstore `{coll_name}` {table}.{column}{' + filter' if flt else ''}"
            results.append((label, agent, api, bare_enc, bare))
            results.append((label + ", texts not cached", cold, None, bare_enc, bare))
            results.append((label + ", nothing cached", first, None, bare_enc, bare))

        # ---- the rest ----
        cls = Action("ClassicRetrieve", {"query": "dense passage retrieval", "limit": 5})
        results.append(("ClassicRetrieve", timings(lambda: env.execute(cls), n), None, None, None))
        calc = Action("CalculateExpr", {"expr": "max([71.63, 75.74, 54.60]) - 36.29 / 19.48"})
        results.append(("CalculateExpr", timings(lambda: env.execute(calc), n), None, None, None))
        view = Action("ViewImage", {"paper_id": pid, "page_number": 1, "bounding_box": []})
        results.append(("ViewImage (full page, 144 dpi)", timings(lambda: env.execute(view), max(5, n // 4)), None, None, None))
        ans = Action("GenerateAnswer", {"answer": ["a", 1.5]})
        results.append(("GenerateAnswer", timings(lambda: env.execute(ans), n), None, None, None))
        reply = ("[Thought]: x\n[Action]:\nRetrieveFromVectorstore(query='q', collection_name='text_bm25_en', "
                 "table_name='chunks', column_name='text_content', filter=\"pdf_id == 'x'\", limit=5)")
        names = action_names("hybrid")
        results.append(("parse a reply (no store)", timings(lambda: parse_action(reply, names), n), None, None, None))

    print()
    print("| action | agent p50 ms | agent p95 ms | read API p50 | bare p50 ms | bare p95 ms | agent/bare p50 | bare (warm conn / vector given) p50 |")
    print("|---|---|---|---|---|---|---|---|")
    for label, agent, api, bare, warm in results:
        a50, a95 = p(agent, 50), p(agent, 95)
        api50 = f"{p(api, 50):.1f}" if api else "-"
        b50 = f"{p(bare, 50):.1f}" if bare else "-"
        b95 = f"{p(bare, 95):.1f}" if bare else "-"
        ratio = f"{a50 / p(bare, 50):.2f}x" if bare else "-"
        w50 = f"{p(warm, 50):.1f}" if warm else "-"
        print(f"| {label} | {a50:.1f} | {a95:.1f} | {api50} | {b50} | {b95} | {ratio} | {w50} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
