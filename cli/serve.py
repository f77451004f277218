"""`paperbase serve`: scheduled ingestion of watched folders, served as a Prefect deployment (`flows.runner.serve`,
imported when the command runs)."""
from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from cli.common import DataDir, app, console, settings_for


@app.command()
def serve(
    folders: Annotated[list[Path], typer.Argument(help="Folders to watch for new or changed PDFs (need not exist yet).")],
    cron: Annotated[str | None, typer.Option(help='Cron schedule, e.g. "*/15 * * * *".')] = None,
    interval: Annotated[float | None, typer.Option(help="Seconds between runs (instead of --cron).")] = None,
    name: Annotated[str, typer.Option(help="Deployment name prefix (shown in the Prefect UI).")] = "paperbase",
    port: Annotated[int | None, typer.Option(help="Port of the local Prefect server started when PREFECT_API_URL is unset. [default: 4200 or a free one]")] = None,
    data_dir: DataDir = None,
    workers: Annotated[int | None, typer.Option(help="Parser processes per run. [default: 2]")] = None,
) -> None:
    """Serve scheduled ingestion of FOLDERS until interrupted (Ctrl-C). Runs go to PREFECT_API_URL when set (its UI
    shows them); otherwise a local Prefect server is started for as long as this runs."""
    if (cron is None) == (interval is None):
        raise typer.BadParameter("give exactly one of --cron or --interval")
    from flows.runner import serve as serve_flows

    settings = settings_for(data_dir, workers=workers)
    console.print(f"watching {', '.join(str(f) for f in folders)} ({'cron ' + cron if cron else f'every {interval:g}s'}) "
                  f"-> {settings.duckdb_path}")
    serve_flows(folders, settings, cron=cron, interval=interval, name=name, port=port)
    # Prefect's serve returns only once interrupted (it handles Ctrl-C itself): the documented exit code says so
    from cli.errors import INTERRUPTED

    raise typer.Exit(INTERRUPTED)
