"""`paperbase encode | rebuild | check | search`: the vector index from the command line."""
from __future__ import annotations

import logging
from typing import Annotated

import typer
from rich.table import Table

from cli.common import DataDir, JsonFlag, app, console, print_jsonl, settings_for
from cli.doctor import CHECKS, Check
from pipeline.results import Status

MilvusUri = Annotated[
    str | None,
    typer.Option("--milvus-uri", envvar="PAPERBASE_VECTORS__MILVUS_URI",
                 help="Milvus server, e.g. http://host:19530. [default: Milvus Lite under the data dir]"),
]
CollectionOpt = Annotated[list[str] | None, typer.Option("--collection", "-c", help="Only this collection (repeatable).")]


def _settings(data_dir, milvus_uri):
    return settings_for(data_dir, vectors={"milvus_uri": milvus_uri} if milvus_uri else None)


def _show(report, as_json: bool, progress=None) -> None:
    if as_json:
        print_jsonl([report.to_json()])
    else:
        table = Table(title=f"encode: {report.status}")
        for col in ("collection", "status", "papers", "vectors", "seconds"):
            table.add_column(col, overflow="fold")
        for c in report.collections:
            table.add_row(c.collection, c.status, str(c.papers_encoded), str(c.vectors_inserted), f"{c.seconds:.1f}")
        console.print(table)
        for c in report.collections:  # full messages below the table, where they stay readable
            notes = ([c.message] if c.message else []) + c.errors[:5]
            for note in notes:
                console.print(note if note.startswith(c.collection) else f"{c.collection}: {note}")
        for err in report.errors:
            console.print(f"[red]error:[/] {err}")
        times = progress.times_table() if progress is not None else None
        if times is not None:
            console.print(times)
    if report.status not in (Status.OK, Status.UNCHANGED):  # any collection failed (partial), or all did
        raise typer.Exit(1)


def _quiet_logs() -> None:
    logging.basicConfig(level=logging.WARNING, format="%(message)s")
    logging.getLogger("paperbase.vectors").setLevel(logging.INFO)


@app.command()
def encode(
    data_dir: DataDir = None,
    milvus_uri: MilvusUri = None,
    collection: CollectionOpt = None,
    paper: Annotated[list[str] | None, typer.Option("--paper", help="Only this paper id (repeatable).")] = None,
    force: Annotated[bool, typer.Option("--force", help="Re-encode even unchanged papers.")] = False,
    as_json: JsonFlag = False,
) -> None:
    """Encode new or changed papers into the Milvus collections (incremental)."""
    from pipeline.vectors import encode_papers

    from cli.progress import encode_progress

    _quiet_logs()
    with encode_progress(as_json) as progress:
        report = encode_papers(_settings(data_dir, milvus_uri), paper or None, collections=collection or None, force=force)
    _show(report, as_json, progress)


@app.command()
def rebuild(
    data_dir: DataDir = None,
    milvus_uri: MilvusUri = None,
    collection: Annotated[str | None, typer.Option("--collection", "-c", help="Only this collection.")] = None,
    as_json: JsonFlag = False,
) -> None:
    """Drop and re-encode collections from DuckDB (after a model change); PDFs are not parsed again."""
    from pipeline.vectors import rebuild as do_rebuild

    from cli.progress import encode_progress

    _quiet_logs()
    with encode_progress(as_json) as progress:
        report = do_rebuild(_settings(data_dir, milvus_uri), collection)
    _show(report, as_json, progress)


@app.command()
def check(data_dir: DataDir = None, milvus_uri: MilvusUri = None, collection: CollectionOpt = None,
          sample: Annotated[int, typer.Option("--sample", min=0, help="Search-copy vectors compared with Milvus's per "
                                              "shard, picked at random; 0 compares every one.")] = 64,
          as_json: JsonFlag = False) -> None:
    """Compare, per paper and column, non-empty DuckDB cells with vectors in Milvus, and the search copies with
    Milvus (files, ids, vectors); exit 1 on mismatches."""
    from pipeline.vectors import check as do_check

    import time

    notes: list[str] = []
    scope: dict = {}
    t0 = time.perf_counter()
    mismatches = do_check(_settings(data_dir, milvus_uri), collection or None, notes, sample=sample, scope=scope)
    seconds = time.perf_counter() - t0
    for note in notes:  # hints, not failures (stderr: --json output stays the mismatches alone)
        console.print(f"note: {note}")
    if as_json:
        print_jsonl(m.__dict__ for m in mismatches)
    else:
        for m in mismatches:
            console.print(f"{m.collection} {m.pdf_id} {m.table_name}.{m.column_name}: {m.cells} cell(s), "
                          f"{m.vectors} vector(s), {m.duplicates} duplicate(s) — {m.problem}")
        names = scope["collections"]
        console.print(f"{len(mismatches)} mismatch(es): {scope['papers']:,} paper(s), {scope['cells']:,} DuckDB "
                      f"cell(s) compared with {len(names)} collection(s) ({', '.join(names) or 'none'}) in "
                      f"{seconds:.1f} s", highlight=False, soft_wrap=True)
    if mismatches:
        raise typer.Exit(1)


SLOW_OPEN_S = 2.0  # a search slower than this that had to load the embedded store itself gets a hint


@app.command()
def search(
    query: str,
    data_dir: DataDir = None,
    milvus_uri: MilvusUri = None,
    collection: Annotated[str | None, typer.Option(
        "--collection", "-c", help="Search this one collection. [default: hybrid: BM25 fused with the dense text "
        "collections]")] = None,
    table: Annotated[str | None, typer.Option("--table", help="Search the cells of this table; 'all' for every "
        "encoded table. [default: chunks, whose cells cover every page's text at one granularity]")] = None,
    column: Annotated[str | None, typer.Option("--column", help="Search the cells of this column. [default: "
        "text_content with the default table]")] = None,
    paper: Annotated[list[str] | None, typer.Option("--paper", "-p", help="Only this paper (repeatable): its id, "
        "part of its title (every paper whose title holds it), or its PDF path.")] = None,
    filter: Annotated[str | None, typer.Option("--filter", help="Milvus filter over the hit fields, e.g. "
        "\"page_number <= 3\" (fields: pdf_id, page_number, table_name, column_name, primary_key).")] = None,  # noqa: A002
    limit: Annotated[int, typer.Option("--limit", "-n", min=1)] = 5,
    full: Annotated[bool, typer.Option("--full", help="Print each hit's whole text, not the part around the query's "
        "words.")] = False,
    as_json: JsonFlag = False,
) -> None:
    """Hybrid search (BM25 + dense text collections), or one collection. Each hit shows its paper's title, its page
    and section, its score (the header says what the score is) and its text as written."""
    import time

    table, column = search_scope(table, column)
    settings = _settings(data_dir, milvus_uri)
    from pipeline.read import NotFound, Reader
    from schemas.filters import FilterError, validate_filter

    from cli.hits import describe, paper_filter, print_hits, score_meaning

    if collection is not None:
        from schemas.vectorstore import collection as schema_collection

        try:
            schema_collection(collection)
        except KeyError:
            from schemas.vectorstore import collections

            raise typer.BadParameter(f"no collection {collection!r}; the collections are "
                                     f"{[c.name for c in collections()]}", param_hint="--collection") from None
    try:  # a misspelt field is named here, before Milvus sees the filter
        validate_filter(filter or "", collection or "text_bm25_en")
    except FilterError as exc:
        raise typer.BadParameter(f"{exc}", param_hint="--filter") from None
    started = time.monotonic()
    with Reader(settings) as reader:
        expr = filter
        if paper:
            try:
                expr = paper_filter(reader.resolve_papers(paper), filter)
            except NotFound as exc:
                raise typer.BadParameter(str(exc), param_hint="--paper") from None
        hits = reader.search(query, collection, table, column, expr, limit)
        described = describe(reader, hits)
        held = reader.searched(collection) if not hits else None
        opened_here = bool(getattr(reader.client, "paperbase_lite_opened", False))
        if collection is None:
            from pipeline.vectors.search import hybrid_collections

            legs = hybrid_collections(settings, reader.client)
    if opened_here and time.monotonic() - started > SLOW_OPEN_S:
        # this process loaded the embedded store itself; a long-lived holder would have answered from memory
        console.print(f"[dim]took {time.monotonic() - started:.1f} s: this search opened the Milvus Lite store itself. "
                      "Keep one loaded between searches with `paperbase mcp --transport http` (searches connect to it "
                      "automatically), or use a Milvus server (--milvus-uri; docs/scale.md).[/dim]")
    if held is not None:
        _no_hits(settings, held)
    else:
        _rebuilding_note(settings, collection)
    if as_json:
        print_jsonl(d.to_json() for d in described)
        return
    hybrid = settings.vectors.hybrid
    weights = {} if collection is not None else {name: hybrid.weight(name) for name in legs}
    print_hits(console, query, described, score_meaning(collection, hybrid.method, weights), full=full)


def _rebuilding_note(settings, collection: str | None) -> None:
    """Hits found while a rebuild re-encodes a searched collection may lack papers it has not reached yet: say so."""
    from pipeline.vectors.rebuilding import rebuilding

    info = rebuilding(settings)
    if info and (collection is None or collection in info.get("collections", [])):
        console.print(f"note: {', '.join(info['collections'])} being rebuilt by process {info['pid']}: hits may lack "
                      "papers it has not re-encoded yet", highlight=False)


def _no_hits(settings, held: dict[str, int]) -> None:
    """Say why a search found nothing: an empty index (exit 1: nothing was searched) or no match (exit 0)."""
    from pipeline.vectors.rebuilding import describe

    busy = [m for m in (describe(settings, n) for n in held) if m]
    if not any(held.values()):
        names = ", ".join(held) or "no text collection"
        why = "; ".join(busy) if busy else "run `paperbase encode` (or `paperbase ingest`) first"
        console.print(f"[red]error:[/] the index searched is empty: {names} hold(s) no vectors; {why}", highlight=False)
        raise typer.Exit(1)
    console.print(f"no hits; the index searched holds {sum(held.values()):,} vectors ({', '.join(held)})"
                  + (f"; {'; '.join(busy)}" if busy else ""), highlight=False)


DEFAULT_SCOPE = ("chunks", "text_content")


def search_scope(table: str | None, column: str | None) -> tuple[str | None, str | None]:
    """The cells a search covers. With neither given: chunks, because metadata cells carry no page, and sections and
    whole pages repeat the chunks' text in larger pieces that crowd out the page that answers (measured: evidence
    page first 0.56 over every cell against 0.74 over chunks, docs/vectors.md); 'all' lifts the table restriction."""
    if table is None and column is None:
        return DEFAULT_SCOPE
    return (None if table == "all" else table), column


def _vector_checks(settings) -> list[Check]:
    from pipeline.vectors.encoders import availability
    from pipeline.vectors.stage import model_label
    from schemas.vectorstore import collections

    out = [Check("vectors", "milvus", True, settings.vectors.milvus_uri or f"Milvus Lite at {settings.data_dir / settings.vectors.lite_dirname}")]
    out += _runtime_checks(settings)
    for coll in collections():
        enabled = settings.vectors.collection(coll.name).enabled
        ref = model_label(coll, settings)
        ok, why = availability(coll, ref, settings.vectors.download)
        out.append(Check("vectors", f"{coll.name} ({ref})", ok or not enabled, why if enabled else f"disabled; {why}"))
    return out


def _runtime_checks(settings) -> list[Check]:
    """The CPU's features and the dense text runtime chosen from them (pipeline/vectors/runtime.py)."""
    import importlib.util

    from pipeline.vectors import runtime

    choice = runtime.choose(settings.vectors.backend, settings.vectors.device)
    package = {"onnx": "onnxruntime", "openvino": "openvino", "torch": "torch"}[choice.backend.split("-")[0]]
    ok = importlib.util.find_spec(package) is not None
    return [Check("vectors", "cpu", True, runtime.describe()),
            Check("vectors", f"dense runtime {choice.backend}", ok,
                  f"{choice.why}" + ("" if ok else f"; {package} is not installed"))]


CHECKS.append(_vector_checks)
