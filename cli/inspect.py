"""`paperbase inspect` (a static HTML report of what was extracted, or boxes drawn onto PDF copies) and
`paperbase export` (one paper as Markdown or JSON). The building lives in `report/`; this module parses options,
looks up each paper's status in the ledger and shows progress."""
from __future__ import annotations

import webbrowser
from pathlib import Path
from typing import Annotated

import typer

from cli.common import DataDir, app, console, settings_for

Papers = Annotated[list[str] | None, typer.Argument(help="Paper ids, PDF paths or parts of titles. [default: every paper]")]


def _statuses(settings) -> dict[str, tuple[str, str | None]]:
    """paper id -> (status, error) as `paperbase status` says it (partial names what is missing)."""
    from pipeline.state import paper_states
    from pipeline.store import Store

    records = Store(settings.duckdb_path).ledger().values()
    live = {r.paper_id for r in records if r.paper_id and r.status in ("ok", "partial")}
    states = paper_states(settings, live)
    out: dict[str, tuple[str, str | None]] = {}
    for r in records:
        if not r.paper_id or r.paper_id in out and out[r.paper_id][0] == "ok":
            continue
        status, error = r.status, r.error
        if r.status == "ok" and r.paper_id in states and not states[r.paper_id].finished:
            status, error = "partial", states[r.paper_id].describe()
        out[r.paper_id] = (status, error)
    return out


def _reader(data_dir: Path | None):
    from pipeline.read import Reader
    from pipeline.store import StoreMissing

    settings = settings_for(data_dir)
    if not settings.duckdb_path.exists():
        raise StoreMissing(f"no database at {settings.duckdb_path}; run `paperbase ingest DIR` first")
    return settings, Reader(settings)


@app.command()
def inspect(
    papers: Papers = None,
    data_dir: DataDir = None,
    out: Annotated[Path, typer.Option("--out", help="Folder for the report (or the PDF copies).")] = Path("report"),
    pdf: Annotated[bool, typer.Option("--pdf", help="Draw the boxes onto a copy of each PDF instead of HTML.")] = False,
    open_: Annotated[bool, typer.Option("--open", help="Open the report (or the first PDF copy) when written.")] = False,
) -> None:
    """See what was extracted: every page as an image with the boxes of each view (sections, chunks, tables, images,
    equations; a toggle per view, a click shows the stored row), in a static report that opens from file://."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    from report.load import resolve

    settings, reader = _reader(data_dir)
    statuses = {} if pdf else _statuses(settings)  # before the reader connects: one DuckDB configuration at a time
    with reader:
        ids = resolve(reader, papers or [])
        with Progress(TextColumn("[bold]inspect"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                      console=console, disable=not console.is_terminal, transient=True) as progress:
            bar = progress.add_task("", total=len(ids))
            if pdf:
                from report.pdf import annotate_pdf

                written = []
                for pid in ids:
                    target = annotate_pdf(reader, pid, out)
                    if target is None:
                        console.print(f"[yellow]{pid}[/]: its PDF is gone; no copy written", highlight=False)
                    else:
                        written.append(target)
                    progress.advance(bar)
                result = written[0] if written else None
            else:
                from report.html import build_report

                result = build_report(reader, ids, out, statuses, on_paper=lambda _: progress.advance(bar))
    if pdf:
        console.print(f"{len(written)} annotated PDF cop{'y' if len(written) == 1 else 'ies'} in {out}", highlight=False)
    else:
        console.print(f"report of {len(ids)} paper(s): {result}", highlight=False)
    if open_ and result is not None:
        webbrowser.open(result.resolve().as_uri())


@app.command()
def export(
    paper: Annotated[str, typer.Argument(help="A paper id, a PDF path or part of a title (must match one paper).")],
    data_dir: DataDir = None,
    format_: Annotated[str, typer.Option("--format", help="md (reading order) or json (all eight views).")] = "md",
    out: Annotated[Path | None, typer.Option("--out", help="Write here instead of stdout.")] = None,
) -> None:
    """One paper as Markdown in reading order (title, authors, headings, text, tables, figure captions, $$equations$$,
    references) or as JSON with the rows of all eight views."""
    from report.export import to_json, to_markdown
    from report.load import load_paper, resolve

    if format_ not in ("md", "json"):
        raise typer.BadParameter(f"--format must be md or json, not {format_!r}")
    _, reader = _reader(data_dir)
    with reader:
        ids = resolve(reader, [paper], one_each=True)
        rows = load_paper(reader, ids[0])
    text = to_markdown(rows) if format_ == "md" else to_json(rows)
    if out is None:
        typer.echo(text, nl=False)
    else:
        out.write_text(text, encoding="utf-8")
        console.print(f"wrote {out}", highlight=False)
