"""The `paperbase` command: the top floor. It may import every package below it (`flows`, `agent`, `pipeline`,
`schemas`), heavy ones lazily inside the commands so `paperbase --help` stays fast; nothing imports it.

`main` turns every failure into one line and an exit code (see cli/errors.py)."""
from __future__ import annotations

import logging
import sys
import traceback

from typer._click import exceptions as click_exceptions  # typer vendors click: its exceptions live here

from cli import ask, doctor, evaluate, ingest, inspect, mcp, serve, summarize, vectors  # noqa: F401  (register commands)
from cli.common import app, console
from cli.errors import INTERRUPTED, USAGE, classify, data_dir_of, debug_requested, write_log


def _show_warnings() -> None:
    """paperbase's own warnings (a lock wait, a skipped model) reach stderr as plain lines."""
    logger = logging.getLogger("paperbase")
    if not logger.handlers:
        handler = logging.StreamHandler(sys.stderr)
        handler.setFormatter(logging.Formatter("%(message)s"))
        logger.addHandler(handler)
        logger.setLevel(logging.WARNING)
        logger.propagate = False


def main(argv: list[str] | None = None) -> None:
    args = list(sys.argv[1:] if argv is None else argv)
    debug = debug_requested(args)
    _show_warnings()
    try:
        code = app(args=args, prog_name="paperbase", standalone_mode=False)
    except KeyboardInterrupt:  # typer turns one inside a command into exit code 130; this is one outside it
        code = INTERRUPTED
    except click_exceptions.ClickException as exc:  # usage: unknown option, bad value, missing argument
        from typer import rich_utils

        rich_utils.rich_format_error(exc)
        sys.exit(USAGE if exc.exit_code == 2 else exc.exit_code)
    except Exception as exc:
        status, message = classify(exc)
        log = None
        if debug:
            traceback.print_exception(exc, file=sys.stderr)
        else:
            log = write_log(exc, data_dir_of(args))
        hint = f" (traceback in {log})" if log and message.startswith("internal error") else ""
        console.print(f"[red]error:[/] {message}{hint}", highlight=False, soft_wrap=True)
        sys.exit(status)
    if code == INTERRUPTED:
        console.print("interrupted; what was committed stays, a rerun finishes the rest")
    sys.exit(code if isinstance(code, int) else 0)


__all__ = ["app", "main"]
