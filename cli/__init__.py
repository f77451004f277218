"""The `paperbase` command: the top floor. It may import every package below it (`flows`, `agent`, `pipeline`,
`schemas`), heavy ones lazily inside the commands so `paperbase --help` stays fast; nothing imports it."""
from __future__ import annotations

from cli import doctor, ingest, serve, summarize, vectors  # noqa: F401  (register commands)
from cli.common import app


def main() -> None:
    app()


__all__ = ["app", "main"]
