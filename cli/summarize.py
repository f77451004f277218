"""`paperbase summarize`: backfill missing summaries, tldr and tags (offline or any OpenAI-compatible endpoint)."""
from __future__ import annotations

from typing import Annotated

import typer
from rich.table import Table

from cli.common import DataDir, JsonFlag, app, console, print_jsonl, settings_for


@app.command()
def summarize(
    data_dir: DataDir = None,
    backend: Annotated[str | None, typer.Option(help="offline | openai. [default: offline; openai when --base-url is given]")] = None,
    base_url: Annotated[str | None, typer.Option("--base-url", help="OpenAI-compatible endpoint, e.g. http://localhost:11434/v1.")] = None,
    model: Annotated[str | None, typer.Option(help="Text model. [default: gpt-4o-mini]")] = None,
    vision_model: Annotated[str | None, typer.Option("--vision-model", help="Model for figure crops. [default: --model]")] = None,
    concurrency: Annotated[int | None, typer.Option(min=1, help="Requests in flight. [default: 4]")] = None,
    budget: Annotated[int | None, typer.Option(min=0, help="Max requests this run (retries count).")] = None,
    paper: Annotated[list[str] | None, typer.Option("--paper", help="Only this paper_id (repeatable).")] = None,
    overwrite: Annotated[bool, typer.Option("--overwrite", help="Recompute every cell, not just NULL ones (cache still applies).")] = False,
    as_json: JsonFlag = False,
) -> None:
    """Fill NULL page/section/table/image summaries and tldr/tags; rerunning sends nothing for cached items."""
    from pydantic import ValidationError

    from pipeline.summarize import ConfigError, summarize_papers
    from pipeline.summarize.report import STATUSES

    settings = settings_for(data_dir)
    overrides = {"backend": backend or ("openai" if base_url else None), "base_url": base_url, "model": model,
                 "vision_model": vision_model, "concurrency": concurrency, "budget": budget}
    try:
        settings.summarize = settings.summarize.model_validate(
            {**settings.summarize.model_dump(), **{k: v for k, v in overrides.items() if v is not None}})
    except ValidationError as exc:
        console.print(f"[red]invalid summarize option: {exc.errors()[0]['loc'][0]}: {exc.errors()[0]['msg']}[/]")
        raise typer.Exit(2) from exc
    from cli.progress import StageProgress

    with StageProgress(as_json) as progress:  # the stage reports items to it through pipeline.summarize.progress
        try:
            report = summarize_papers(settings, paper or None, overwrite=overwrite)
        except ConfigError as exc:
            console.print(f"[red]{exc}[/]")
            raise typer.Exit(2) from exc
    if as_json:
        print_jsonl([report.to_json()])
    else:
        table = Table(title=f"summaries ({report.backend}{', ' + report.model if report.model else ''})")
        table.add_column("column")
        for s in STATUSES:
            table.add_column(s, justify="right")
        for col, counts in report.counts.items():
            table.add_row(col, *(str(counts[s] or "") for s in STATUSES))
        console.print(table)
        for err in report.errors[:20]:
            console.print(f"[red]{err}[/]")
        console.print(f"{report.requests} request(s) in {report.seconds:.2f}s; {len(report.changed_paper_ids)} paper(s) changed; "
                      f"failed cells stay NULL and are retried next run")
        times = progress.times_table()
        if times is not None:
            console.print(times)
    if report.status == "failed":
        raise typer.Exit(1)


def _doctor_check(settings) -> list:
    """Doctor: which summarizer runs, where it would send requests (no request is made), cache size."""
    from cli.doctor import Check
    from pipeline.summarize.cache import Cache

    cfg = settings.summarize
    if cfg.backend != "openai":
        out = [Check("summarize", "backend offline", True, "extractive summaries from the element's own text; no network")]
    else:
        key = cfg.resolved_api_key()
        custom = bool(cfg.base_url)
        out = [Check("summarize", "backend openai", custom or bool(key),
                     f"{cfg.resolved_base_url()} model {cfg.model}, vision {cfg.resolved_vision_model() if cfg.vision else 'off'}; "
                     f"API key {'set' if key else 'not set ($' + cfg.api_key_env + ')'}; not contacted by doctor")]
    path = settings.data_dir / "summaries.sqlite"
    if path.exists():
        cache = Cache(path)
        try:
            out.append(Check("summarize", "reply cache", True, f"{cache.count()} cached replies in {path}"))
        finally:
            cache.close()
    return out


def _register() -> None:
    from cli.doctor import CHECKS

    if _doctor_check not in CHECKS:
        CHECKS.append(_doctor_check)


_register()
