"""The `paperbase` command: the top floor. It may import every package below it (`flows`, `agent`, `pipeline`,
`schemas`), heavy ones lazily inside the commands so `paperbase --help` stays fast; nothing imports it.

`main` turns every failure into one line and an exit code (see cli/errors.py)."""
from __future__ import annotations

import atexit
import logging
import os
import signal
import sys
import threading
from typing import NoReturn
import traceback

from typer._click import exceptions as click_exceptions  # typer vendors click: its exceptions live here

from cli import ask, doctor, evaluate, ingest, inspect, mcp, serve, summarize, vectors  # noqa: F401  (register commands)
from cli.common import app, console
from cli.errors import INTERRUPTED, TERMINATED, USAGE, classify, data_dir_of, debug_requested, write_log


# Third-party output that would break into the live display: progress bars (transformers' "Loading weights", any
# tqdm, huggingface_hub) and advisory notes. Set before those libraries load, and inherited by parser processes; a
# value the user exported wins.
QUIET_ENV = {
    "HF_HUB_DISABLE_PROGRESS_BARS": "1",  # transformers reads it too (transformers.utils.logging._tqdm_active)
    "TQDM_DISABLE": "1",  # tqdm takes TQDM_* environment variables as its defaults
    "TRANSFORMERS_VERBOSITY": "error",
    "TRANSFORMERS_NO_ADVISORY_WARNINGS": "1",
    "ORT_LOGGING_LEVEL": "3",  # onnxruntime: errors only
}


def _quiet_libraries() -> None:
    for key, value in QUIET_ENV.items():
        os.environ.setdefault(key, value)
    for name in ("transformers", "huggingface_hub", "pymilvus", "onnxruntime", "sentence_transformers", "httpx",
                 "urllib3", "filelock", "milvus_lite"):
        logging.getLogger(name).setLevel(logging.ERROR)


def _show_warnings() -> None:
    """paperbase's own warnings (a lock wait, a skipped model) reach stderr as plain lines."""
    logger = logging.getLogger("paperbase")
    if not logger.handlers:
        handler = logging.StreamHandler(sys.stderr)
        handler.setFormatter(logging.Formatter("%(message)s"))
        logger.addHandler(handler)
        logger.setLevel(logging.WARNING)
        logger.propagate = False


_terminated: list[int] = []


def _on_sigterm(signum, frame) -> None:
    """SIGTERM (`kill`, `docker stop`, a service manager) is handled like Ctrl-C: the work in flight unwinds the way
    an interrupt does (transactions roll back, parser processes are stopped), then the exit code says terminated."""
    _terminated.append(signum)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)  # a second SIGTERM ends the process at once
    _on_sigint(signum, frame)


def _on_sigint(signum, frame) -> None:
    """Ctrl-C: no file not yet parsed is started (pipeline.workers.STOP), then the interrupt unwinds the command."""
    from pipeline.workers import STOP

    STOP.set()
    raise KeyboardInterrupt


def main(argv: list[str] | None = None) -> None:
    args = list(sys.argv[1:] if argv is None else argv)
    debug = debug_requested(args)
    _quiet_libraries()
    _show_warnings()
    if threading.current_thread() is threading.main_thread():
        # only where the signal has its default effect: a run started with a signal ignored (nohup, `cmd &` in a
        # non-interactive shell) keeps ignoring it
        if signal.getsignal(signal.SIGTERM) is signal.SIG_DFL:
            signal.signal(signal.SIGTERM, _on_sigterm)
        if signal.getsignal(signal.SIGINT) is signal.default_int_handler:
            signal.signal(signal.SIGINT, _on_sigint)
    try:
        code = app(args=args, prog_name="paperbase", standalone_mode=False)
    except KeyboardInterrupt:  # typer turns one inside a command into exit code 130; this is one outside it
        code = INTERRUPTED
    except click_exceptions.ClickException as exc:  # usage: unknown option, bad value, missing argument
        from typer import rich_utils

        rich_utils.rich_format_error(exc)
        _exit(USAGE if exc.exit_code == 2 else exc.exit_code)
    except Exception as exc:
        if _terminated:  # what the interrupted work raised while it unwound
            code = INTERRUPTED
        else:
            _fail(exc, args, debug)
    except BaseException:  # a termination signal Prefect raised in its own type while it ran a flow
        if not _terminated:
            raise
        code = INTERRUPTED
    if code == INTERRUPTED or _terminated:
        console.print(f"{'terminated (SIGTERM)' if _terminated else 'interrupted'}; what was committed stays, a rerun "
                      "finishes the rest")
        _exit(TERMINATED if _terminated else INTERRUPTED)
    _exit(code if isinstance(code, int) else 0)


def _exit(code: int) -> NoReturn:
    """End the process the way the interpreter would, without its last step: the teardown of native libraries.

    Why: a `paperbase search` died with SIGSEGV (1 run in 80 under load, nothing on stderr). At exit a search process
    still runs gRPC's core threads (event_engine, grpc_global_timer, lifeguard: the embedded Milvus Lite server and
    the pymilvus channel, both closed, leave them running), ONNX Runtime's thread pool and pyarrow's jemalloc thread;
    the interpreter then tears down the modules they call back into, the known way these libraries crash at exit
    (grpc/grpc#11804, microsoft/onnxruntime#7207: under CPU contention). Everything paperbase must do before exiting
    is done here first, in the order
    the interpreter does it (non-daemon threads joined, atexit functions run, streams flushed): no committed write,
    log line or output is lost, and no native destructor races the teardown. PAPERBASE_NATIVE_TEARDOWN=1 exits the
    ordinary way (to debug a native library)."""
    if os.environ.get("PAPERBASE_NATIVE_TEARDOWN", "") not in ("", "0"):
        sys.exit(code)
    shutdown = getattr(threading, "_shutdown", None)
    for step in (shutdown, atexit._run_exitfuncs):  # noqa: SLF001 - the interpreter's own exit steps
        try:
            if step is not None:
                step()
        except BaseException:  # noqa: BLE001 - exiting regardless
            pass
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):
            pass
    os._exit(code)


def _fail(exc: Exception, args: list[str], debug: bool) -> None:
    status, message = classify(exc)
    log = None
    if debug:
        traceback.print_exception(exc, file=sys.stderr)
    else:
        log = write_log(exc, data_dir_of(args))
    hint = f" (traceback in {log})" if log and message.startswith("internal error") else ""
    console.print(f"[red]error:[/] {message}{hint}", highlight=False, soft_wrap=True)
    _exit(status)


__all__ = ["app", "main"]
