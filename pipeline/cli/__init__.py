"""The `paperbase` command. Each stage registers its commands on the shared typer app."""
from __future__ import annotations

from pipeline.cli import doctor, ingest, serve, summarize, vectors  # noqa: F401  (register commands)
from pipeline.cli.common import app


def main() -> None:
    app()


__all__ = ["app", "main"]
