"""Shared CLI pieces: the typer app, the --data-dir option, settings and consoles."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

app = typer.Typer(
    name="paperbase",
    help="Turn folders of scientific PDFs into a multiview DuckDB + Milvus index (NeuSym-RAG design).",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
)
console = Console(stderr=True, soft_wrap=True)  # humans read stderr; --json stays clean on stdout; lines never cut

DataDir = Annotated[
    Path | None,
    typer.Option("--data-dir", envvar="PAPERBASE_DATA_DIR", help="Holds paperbase.duckdb and the Milvus Lite store. [default: ./data]"),
]
JsonFlag = Annotated[bool, typer.Option("--json", help="Machine-readable output: one JSON object per line on stdout.")]


def settings_for(data_dir: Path | None, **overrides):
    from pipeline.config import load_settings

    return load_settings(data_dir=data_dir, **overrides)


def print_jsonl(objects) -> None:
    for obj in objects:
        typer.echo(json.dumps(obj, default=str))
