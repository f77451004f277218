"""Which collections a `rebuild` is dropping and re-encoding right now: a small marker file under the data dir
(`.paperbase-rebuilding.json`: pid, collections, start), written for the rebuild's whole run and removed at its end.

Readers (`check`, `search`, the read API) that find a collection missing or vanishing under them look here, so they
say "being rebuilt by process N" instead of failing on a collection that was dropped a moment ago. A marker whose
process is gone (a killed rebuild) counts for nothing: the next `encode` completes what the rebuild left.
"""
from __future__ import annotations

import json
import os
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

FILENAME = ".paperbase-rebuilding.json"


def _path(settings) -> Path:
    return Path(settings.data_dir) / FILENAME


@contextmanager
def marking(settings, collections: list[str]) -> Iterator[None]:
    path = _path(settings)
    tmp = path.with_suffix(f".{os.getpid()}.tmp")
    try:
        tmp.write_text(json.dumps({"pid": os.getpid(), "collections": collections, "started": time.time()}))
        os.replace(tmp, path)
        wrote = True
    except OSError:  # a full disk must not stop the rebuild; readers then only miss the friendlier message
        tmp.unlink(missing_ok=True)
        wrote = False
    try:
        yield
    finally:
        if wrote:
            path.unlink(missing_ok=True)


def rebuilding(settings) -> dict | None:
    """{pid, collections, started} of a rebuild running now, or None."""
    try:
        info = json.loads(_path(settings).read_text())
        os.kill(int(info["pid"]), 0)
    except PermissionError:
        return info
    except (OSError, ValueError, KeyError, TypeError):
        return None
    return info


def describe(settings, name: str) -> str | None:
    """'NAME is being rebuilt by process N (for 12 s)' when it is, else None."""
    info = rebuilding(settings)
    if not info or name not in info.get("collections", []):
        return None
    return f"{name} is being rebuilt by process {info['pid']} (for {time.time() - float(info['started']):.0f} s)"


def unless_rebuilding(settings, names: list[str], message: str) -> str:
    """`message` for a collection found missing, or, when a rebuild is re-creating it, a line that says so."""
    busy = [m for m in (describe(settings, n) for n in names) if m] if settings is not None else []
    return f"{'; '.join(busy)}; search again when it has finished" if busy else message
