"""`paperbase ingest` and `paperbase status`."""
from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich import box
from rich.markup import escape
from rich.table import Table

from cli.common import DataDir, JsonFlag, app, console, print_jsonl, settings_for
from pipeline.paths import shown

from schemas.content_marks import ocr_note

_STYLE = {"ok": "green", "partial": "yellow", "failed": "red", "duplicate": "magenta", "skipped": "dim", "missing": "red"}


def _summary_table(results, title: str) -> Table:
    """Compact enough for an 80-column terminal; errors are listed under the table, not in a column."""
    table = Table(title=title, box=box.SIMPLE_HEAD, pad_edge=False, padding=(0, 0, 0, 1))
    table.add_column("file", no_wrap=True, overflow="ellipsis")
    table.add_column("status", no_wrap=True, min_width=7)
    for col in ("pages", "chunks", "sect", "tabs", "figs", "eqs", "refs", "s"):
        table.add_column(col, justify="right", no_wrap=True, min_width=len(col))
    for r in results:
        rows = r.rows or {}
        table.add_row(
            _short(shown(Path(r.path).name)), f"[{_STYLE.get(r.status, 'white')}]{r.status}[/]", str(r.pages or ""),
            *(str(rows.get(k, "")) for k in ("chunks", "sections", "tables", "images", "equations", "reference")),
            f"{r.seconds:.1f}" if r.seconds else "",
        )
    return table


def _short(name: str, width: int = 24) -> str:
    return name if len(name) <= width else name[: width - 1] + "…"


def _print_errors(results) -> None:
    for r in results:
        if r.error:
            console.print(f"[{_STYLE.get(r.status, 'white')}]{escape(shown(Path(r.path).name))}[/]: {escape(r.error)}",
                          highlight=False)
        if getattr(r, "ocr_pages", None):
            console.print(f"{escape(shown(Path(r.path).name))}: {ocr_note(r.ocr_pages)}", highlight=False)


def _uses_flow(folder: Path, settings, *, force: bool, retry_failed: bool) -> bool:
    """Whether this ingest runs as a Prefect flow run (docs/deploy.md, "One-off ingests").

    PAPERBASE_RUNNER=library: never; =prefect: always (Prefect's ephemeral server when none is configured). Unset:
    when a Prefect server is there to record it (PREFECT_API_URL, or the local server of a running `paperbase serve`
    of this data dir), so the run shows in its UI beside the scheduled ones; otherwise the same runner runs in-process.
    A temporary server for one run cost 25-30 s of a one-PDF ingest (starting, migrating, stopping) and kept no
    history anyone could look at once it stopped. Never when the plan finds nothing new or changed."""
    import os

    from flows.env import configured_api
    from pipeline.ingest import plan, scan
    from pipeline.store import Store

    runner = os.environ.get("PAPERBASE_RUNNER", "").lower()
    if runner == "library":
        return False
    if runner != "prefect":
        url = configured_api(settings.data_dir)
        if not url:
            return False
        os.environ["PREFECT_API_URL"] = url  # read by Prefect when flows.runner imports it
    todo, _ = plan(Store(settings.duckdb_path), scan(folder), force=force, retry_failed=retry_failed)
    return bool(todo)


def _stage_list(raw: str) -> list[str]:
    from pipeline.stages import STAGES

    names = [] if raw.strip().lower() in ("", "none") else [s.strip() for s in raw.split(",") if s.strip()]
    unknown = [n for n in names if n not in STAGES]
    if unknown:
        raise typer.BadParameter(f"unknown stage(s) {unknown}; choose from {list(STAGES)} or 'none'")
    return names


def _stage_errors(out: dict) -> list[str]:
    """Every reason a stage result gives: its own errors, then its collections' errors and messages."""
    errors = list(out.get("errors") or [])
    for c in out.get("collections") or []:
        if c.get("status") not in ("ok", "unchanged", "skipped"):
            errors += [f"{c['collection']}: {e}" for e in (c.get("errors") or [])] or [f"{c['collection']}: {c.get('message')}"]
    return errors


def _print_stages(stages: dict[str, dict]) -> bool:
    """Print each downstream stage's status and first reasons; True when every stage succeeded."""
    good = True
    for name, out in stages.items():
        status = out.get("status", "?")
        ok = status in ("ok", "unchanged", "skipped")
        good &= ok
        style = "green" if ok else "yellow" if status == "partial" else "red"
        errors = _stage_errors(out)
        detail = f" — {len(errors)} error(s), first: {errors[0]}" if errors else ""
        console.print(f"{name}: [{style}]{status}[/]{detail}", highlight=False, soft_wrap=True)
    return good


@app.command()
def ingest(
    folder: Annotated[Path, typer.Argument(exists=True, help="Folder of PDFs (searched recursively) or one PDF.")],
    data_dir: DataDir = None,
    force: Annotated[bool, typer.Option("--force", help="Re-parse every file, changed or not.")] = False,
    retry_failed: Annotated[bool, typer.Option("--retry-failed", help="Re-parse unchanged files that failed before.")] = False,
    workers: Annotated[int | None, typer.Option(help="Parser processes. [default: 2]")] = None,
    backend: Annotated[str | None, typer.Option("--backend", help="Parse backend for every view not sent elsewhere by "
                                                "parse.views (pymupdf, mineru). [default: parse.backend]")] = None,
    stages: Annotated[str, typer.Option("--stages", envvar="PAPERBASE_STAGES",
                                         help="Stages after parse + store: comma list of summarize,encode, or 'none'.")] = "summarize,encode",
    as_json: JsonFlag = False,
    milvus_uri: Annotated[str | None, typer.Option("--milvus-uri", envvar="PAPERBASE_VECTORS__MILVUS_URI",
                                                   help="Milvus server for the encode stage, e.g. http://host:19530. "
                                                   "[default: Milvus Lite under the data dir]")] = None,
) -> None:
    """Parse new or changed PDFs into the eight-table DuckDB database (unchanged files are skipped), then fill
    summaries and encode vectors for what changed. Exit 0 only when every file and stage succeeded, 1 otherwise."""
    from pipeline.ingest import unfinished_papers

    from pipeline.ingest import ensure_writable

    stage_names = _stage_list(stages)
    settings = settings_for(data_dir, workers=workers, parse={"backend": backend} if backend else None,
                            vectors={"milvus_uri": milvus_uri} if milvus_uri else None)
    if "encode" in stage_names:
        _refuse_what_the_server_cannot_hold(settings)
    ensure_writable(settings.data_dir)  # a read-only data dir is said at once, before Prefect starts
    if _uses_flow(folder, settings, force=force, retry_failed=retry_failed):
        from flows.runner import run_ingest
    else:
        from pipeline.ingest import ingest as run_ingest
    from cli.progress import StageProgress  # parse, summarize and encode rows in one live display

    with StageProgress(as_json) as progress:
        report = run_ingest(folder, settings, force=force, retry_failed=retry_failed,
                            on_start=progress.parse_start, on_result=progress.parse_result, stages=stage_names)
    problems = [r for r in report.results if r.problem]
    unfinished = unfinished_papers(report)
    if as_json:
        print_jsonl(r.to_json() for r in report.results)
    else:
        parsed = [r for r in report.results if r.status != "skipped"]
        if parsed:
            console.print(_summary_table(parsed, f"ingested {len(parsed)} file(s)"))
            _print_errors(parsed)
        counts = ", ".join(f"{s}: {report.count(s)}" for s in ("ok", "partial", "failed", "duplicate", "skipped") if report.count(s))
        console.print(f"{len(report.results)} PDF(s) in {report.seconds:.2f}s — {counts or 'nothing found'} — database {settings.duckdb_path}")
        times = progress.times_table()
        if times is not None:
            console.print(times)
    stages_ok = _print_stages(report.stages)
    if not as_json:
        old = [r for r in problems if r.status == "skipped"]
        if old:
            console.print(f"{len(old)} unchanged file(s) still {'/'.join(sorted({str(r.previous) for r in old}))} from an "
                          "earlier run (`paperbase status` lists them; --retry-failed parses failed ones again)")
        for r in unfinished:
            missing = ", ".join(f"{k} {v}" for k, v in r.stages.items() if v != "ok")
            console.print(f"[yellow]{escape(shown(Path(r.path).name))}[/]: not finished ({missing}); the next ingest resumes it",
                          highlight=False, soft_wrap=True)
    if problems or unfinished or not stages_ok:
        raise typer.Exit(1)


def _refuse_what_the_server_cannot_hold(settings) -> None:
    """On a Milvus server, ask it before parsing anything whether it can hold every enabled collection (sparse BM25
    vectors need 2.4): one line each for those it cannot, and exit 2, rather than parse a folder and then fail."""
    from pipeline.vectors.stage import refusals

    try:
        refused = refusals(settings)
    except Exception:  # noqa: BLE001 - an unreachable server is the encode stage's failure, said with its reason
        return         # there; the parse goes on, so the next ingest only has to encode
    for why in refused.values():
        console.print(f"[red]refused[/]: {escape(why)}", highlight=False, soft_wrap=True)
    if refused:
        raise typer.Exit(2)


_LIVE = {"ok", "partial", "duplicate"}


@app.command()
def status(data_dir: DataDir = None, as_json: JsonFlag = False) -> None:
    """One line per known PDF: path, paper_id, status, error. `ok` means stored and through every enabled stage;
    `partial` says what is missing; `missing` marks a file that is gone (see `paperbase prune`)."""
    from pipeline.state import paper_states
    from pipeline.store import Store, StoreMissing

    settings = settings_for(data_dir)
    store = Store(settings.duckdb_path)
    if not store.exists():
        raise StoreMissing(f"no database at {settings.duckdb_path}; run `paperbase ingest DIR` first")
    records = store.ledger()
    states = paper_states(settings, {r.paper_id for r in records.values() if r.paper_id and r.status in ("ok", "partial")})
    raster = _raster_tables(store)
    titles = {r["pid"]: r["title"] for r in store.query("SELECT CAST(paper_id AS VARCHAR) AS pid, title FROM metadata")}
    rows = []
    for r in records.values():
        state, error = r.status, r.error
        if not Path(r.path).exists():
            state, error = "missing", f"file is gone (was {r.status}); `paperbase prune` forgets it"
        elif r.status == "ok" and r.paper_id in states and not states[r.paper_id].finished:
            state, error = "partial", states[r.paper_id].describe()
        rows.append({"path": r.path, "paper_id": r.paper_id, "title": titles.get(r.paper_id), "status": state,
                     "error": error, "raster_tables": raster.get(r.paper_id, (0, 0))[0],
                     "raster_tables_ocr": raster.get(r.paper_id, (0, 0))[1], "ocr_pages": r.ocr_pages})
    if as_json:
        print_jsonl(rows)
        return
    console.print(_status_table(rows, f"{len(rows)} PDF(s) in {shown(str(settings.duckdb_path))}"))
    for row in rows:  # reasons and notes under the table, one line each (as ingest prints them): no column to squeeze
        name = escape(shown(Path(row["path"]).name))
        if row["error"]:
            console.print(f"[{_STYLE.get(row['status'], 'white')}]{name}[/]: {escape(row['error'])}", highlight=False)
        empty = row["raster_tables"] - row["raster_tables_ocr"]
        if empty:
            console.print(f"{name}: {empty} table(s) printed as images: no cells extracted", highlight=False)
        if row["raster_tables_ocr"]:
            console.print(f"{name}: {row['raster_tables_ocr']} table(s) printed as images: cells read by OCR",
                          highlight=False)
        if row["ocr_pages"]:
            console.print(f"{name}: {ocr_note(row['ocr_pages'])}", highlight=False)



def _status_table(rows: list[dict], title: str, width: int | None = None) -> Table:
    """file | title over paper_id | status, in 80 columns: the id sits whole on its own line (never folded, so it can
    be copied), the title and file name are cut with an ellipsis to what is left, the full path is in --json."""
    from rich.text import Text

    names = [shown(Path(r["path"]).name) for r in rows]
    status_w = max([7, *(len(r["status"]) for r in rows)])
    room = max(width or console.width, 80) - 7 - status_w  # the left pads (3) and the box's edges and dividers (4)
    file_w = min(max([4, *map(len, names)]), max(16, room - 36 - 24, 24 if room < 100 else 40))
    title_w = max(36, min(room - file_w, max([16, *(len(r["title"] or "") for r in rows)])))
    table = Table(title=title, box=box.SIMPLE_HEAD, pad_edge=False, padding=(0, 0, 0, 1))
    table.add_column("file", no_wrap=True, overflow="ellipsis", width=file_w + 1)
    table.add_column("title / paper_id", no_wrap=True, overflow="ellipsis", width=title_w + 1)
    table.add_column("status", no_wrap=True, width=status_w + 1)
    for row in rows:
        paper = Text(row["title"] or "(no title)", style="" if row["title"] else "dim")
        paper.append("\n" + (row["paper_id"] or "-"), style="dim")
        table.add_row(Text(shown(Path(row["path"]).name)), paper,
                      f"[{_STYLE.get(row['status'], 'white')}]{row['status']}[/]")
    return table


def _raster_tables(store) -> dict[str, tuple[int, int]]:
    """paper_id -> (how many of its tables are stored with the raster flag, how many of those hold cells OCR read)
    (schemas/content_marks.py)."""
    from schemas.content_marks import RASTER_ATTR

    rows = store.query("SELECT CAST(ref_paper_id AS VARCHAR) AS pid, count(*) AS n, "
                       "count(*) FILTER (WHERE contains(table_content, '<tr')) AS ocr FROM tables "
                       "WHERE contains(table_content, ?) GROUP BY 1", [RASTER_ATTR])
    return {r["pid"]: (r["n"], r["ocr"]) for r in rows}


@app.command()
def prune(data_dir: DataDir = None,
          dry_run: Annotated[bool, typer.Option("--dry-run", help="Only list what would be removed.")] = False,
          as_json: JsonFlag = False) -> None:
    """Forget PDFs whose files are gone: their ledger entries, and the rows and vectors of papers no remaining file
    holds (a copy elsewhere keeps its paper)."""
    from pipeline.prune import prune as do_prune
    from pipeline.store import Store, StoreMissing

    settings = settings_for(data_dir)
    if not Store(settings.duckdb_path).exists():
        raise StoreMissing(f"no database at {settings.duckdb_path}; run `paperbase ingest DIR` first")
    report = do_prune(settings, dry_run=dry_run)
    if as_json:
        print_jsonl([report.to_json()])
        return
    verb = "would remove" if dry_run else "removed"
    for path in report.paths:
        console.print(f"{verb}: {path}", highlight=False)
    console.print(f"{len(report.paths)} vanished file(s); {verb} the rows and vectors of {len(report.papers)} paper(s)"
                  + (f" ({report.vectors} vector(s))" if not dry_run else ""))
