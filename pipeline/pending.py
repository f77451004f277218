"""Papers stored but not yet through the downstream stages (summaries, vectors), kept in a small file under the
data dir. A flow that crashed between storing and encoding finds them here on its next run, even though the ledger
then reports every PDF unchanged: that is how a re-run converges to the same database."""
from __future__ import annotations

import json
import os
from pathlib import Path

from pipeline.locks import writer_lock

FILENAME = ".paperbase-pending.json"


def _path(data_dir: Path) -> Path:
    return Path(data_dir) / FILENAME


def load(data_dir: Path) -> set[str]:
    try:
        return set(json.loads(_path(data_dir).read_text()))
    except (FileNotFoundError, ValueError):
        return set()


def _write(data_dir: Path, ids: set[str]) -> None:
    path = _path(data_dir)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(f".{os.getpid()}.tmp")
    tmp.write_text(json.dumps(sorted(ids)))
    os.replace(tmp, path)  # atomic: a crash leaves the old or the new list, never half of one


def add(data_dir: Path, ids: list[str] | set[str]) -> None:
    if ids:
        with writer_lock(data_dir):
            _write(data_dir, load(data_dir) | set(ids))


def discard(data_dir: Path, ids: set[str]) -> None:
    if ids:
        with writer_lock(data_dir):
            _write(data_dir, load(data_dir) - set(ids))
